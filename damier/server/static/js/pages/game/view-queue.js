// The views of a game in the order they arrive, each shown in turn: a view one move after the one drawn is
// animated from it with its events (the board module plays each step the server sent); views arriving meanwhile
// speed it up, and `settle()` (a click or a key wants the current position) finishes it at once. Repeated views
// (the socket saying what a move's reply already said) and older replies are dropped.

export class ViewQueue {
  /** show(view): draw a view; animate(prev, next, {signal, fast}): play `next`'s events from `prev` (a promise);
   * before(next): called before an animation starts (the panels can already say what happened). */
  constructor({ show, animate, before }) {
    this.showView = show;
    this.animateView = animate;
    this.before = before;
    this.latest = null; // the newest view received
    this.shown = null; // the view drawn (animations may lag behind `latest`)
    this.queue = [];
    this.pumping = false;
    this.pumped = Promise.resolve(); // the running pump, to wait for
    this.anim = null; // {controller, hurry}
    this.skip = false;
    this.stopped = false;
  }

  /** A view from `source` ("load", "ws", "poll", "move", ...). */
  receive(next, source) {
    if (this.stopped || !next) return;
    const last = this.latest;
    if (last) {
      if ((source === "move" || source === "poll") && next.version < last.version) return; // an older answer
      if (comparable(last) === comparable(next)) return;
    }
    this.latest = next;
    this.queue.push(next);
    if (!this.pumping) this.pumped = this.pump();
    else if (this.anim) this.anim.hurry = true;
  }

  async pump() {
    this.pumping = true;
    try {
      while (this.queue.length && !this.stopped) {
        const next = this.queue.shift();
        const prev = this.shown;
        if (prev && !this.skip && canAnimate(prev, next)) {
          this.before?.(next, prev);
          const controller = new AbortController();
          this.anim = { controller, hurry: this.queue.length > 0 };
          try {
            await this.animateView(prev, next, {
              signal: controller.signal,
              fast: () => this.anim?.hurry || this.queue.length > 0,
            });
          } catch (err) {
            console.error(err);
          }
          this.anim = null;
        }
        this.shown = next;
        this.showView(next);
      }
    } finally {
      this.skip = false;
      this.pumping = false;
    }
  }

  /** Finish what is being animated at once. */
  async settle() {
    if (!this.pumping) return;
    this.skip = true;
    this.anim?.controller.abort();
    await this.pumped;
  }

  stop() {
    this.stopped = true;
    this.anim?.controller.abort();
  }
}

function comparable(view) {
  const { you, ...rest } = view;
  return JSON.stringify(rest);
}

/** One move later (and the chance events after it, whose events the view carries with the move's), with its
 * events: the move can be animated. */
function canAnimate(prev, next) {
  const added = (next.moves || []).slice((prev.moves || []).length);
  return added.length >= 1 && next.version === prev.version + added.length
    && added.slice(1).every((m) => m.player < 0)
    && Array.isArray(next.events) && next.events.length > 0
    && !!prev.board && !!next.board;
}
