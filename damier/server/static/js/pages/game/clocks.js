// The players' clocks of a game with a time control. The server decides: the view's `clock` carries each seat's
// remaining milliseconds when the view was made, which seat's clock runs and the low-time threshold; the page only
// counts the running one down from the moment the view arrived, and draws. When the shown time reaches zero the page
// asks the server again (it ends the game on time by itself; the page never does).
import { h } from "../../dom.js";
import { play } from "../../sounds.js";
import { seatColour, seatWord } from "../../players.js";
import { t } from "../../i18n.js";

/** `m:ss`, or `s.t` seconds under ten seconds (`0:07.4`), or `h:mm:ss` from an hour. */
export function clockText(ms) {
  const left = Math.max(0, ms);
  if (left < 10_000) return `0:0${(Math.floor(left / 100) / 10).toFixed(1)}`;
  const seconds = Math.floor(left / 1000);
  const h_ = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h_ ? `${h_}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export class Clocks {
  /** `page`: the game page (its latest view, its local seats, `later` timers and the connection). */
  constructor(page) {
    this.page = page;
    this.received = new WeakMap(); // view -> performance.now() when it arrived
    this.timer = null;
    this.warned = new Set(); // the seats whose low-time sound was played (once per game and seat)
    this.asked = null; // the version whose flag made the page ask the server again
  }

  /** A view arrived (loaded, a move's answer, the socket): its clock counts from now. */
  stamp(view) {
    if (view && view.clock && !this.received.has(view)) this.received.set(view, performance.now());
  }

  /** What `seat` has left in `view` now (ms): the running clock counted down since the view arrived. */
  remaining(view, seat) {
    const clock = view.clock;
    const left = clock.remaining[seat] ?? 0;
    if (clock.running !== seat || view.status !== "active" || view.result) return left;
    return left - (performance.now() - (this.received.get(view) ?? performance.now()));
  }

  /** The ms left before the game is aborted for want of a first move (the view's `abort_in` counted down since
   * it arrived), or null when no first move is awaited under a deadline. */
  abortLeft(view) {
    const inMs = view?.clock?.abort_in;
    if (inMs === null || inMs === undefined || view.status !== "active" || view.result) return null;
    return Math.max(0, inMs - (performance.now() - (this.received.get(view) ?? performance.now())));
  }

  /** The clock element of a player's row (null without a time control). */
  element(view, seat) {
    if (!view.clock) return null;
    const running = view.clock.running === seat && view.status === "active" && !view.result;
    const name = seatWord(view.game, seat, view.seats?.[seat]?.name);
    const el = h("span", {
      class: `player-clock${running ? " running" : ""}`, "data-testid": `clock-${seat}`, role: "timer",
      "aria-label": name ? t("clock.label", { name }) : t("clock.label_seat"),
    });
    this.draw(el, view, seat);
    return el;
  }

  /** The status line's clock: the running one, while the game goes on. */
  status(view, over) {
    const el = this.page.el?.statusClock;
    if (!el) return;
    const seat = view.clock && !over ? view.clock.running : null;
    el.hidden = seat === null || seat === undefined;
    if (el.hidden) return;
    el.dataset.seat = String(seat);
    el.style.setProperty("--c", seatColour(seat));
    this.draw(el, view, seat, { quiet: true });
  }

  draw(el, view, seat, { quiet = false } = {}) {
    const left = this.remaining(view, seat);
    const text = clockText(left);
    if (el.textContent !== text) el.textContent = text;
    const low = left <= view.clock.low;
    el.classList.toggle("low", low);
    el.dataset.ms = String(Math.max(0, Math.round(left)));
    if (!quiet && low && left > 0 && view.clock.running === seat && this.page.localSeats().includes(seat)
        && !this.warned.has(seat) && view.status === "active") {
      this.warned.add(seat);
      play("lowtime");
    }
  }

  /** Keep the running clock ticking while the game goes on, and the countdowns of the notes (a first move's
   * deadline, a claim against a player who left): one interval per page. */
  update() {
    const view = this.page.latest;
    const live = !!view && view.status === "active" && !view.result;
    const runs = live && !!view.clock && view.clock.running !== null;
    const counting = live && (this.abortLeft(view) !== null || (this.page.gone?.(view)?.wait ?? 0) > 0);
    if ((runs || counting) && !this.timer) this.timer = setInterval(() => this.tick(), 100);
    if (!runs && !counting) this.stop();
  }

  tick() {
    const view = this.page.latest;
    if (!view || this.page.destroyed) return this.stop();
    this.page.tickNotes?.();
    if (!view.clock || view.clock.running === null) return this.update();
    const seat = view.clock.running;
    const el = this.page.el?.players?.querySelector(`[data-testid="clock-${seat}"]`);
    const shown = this.page.shown;
    if (el && shown?.clock) this.draw(el, shown, seat);
    const status = this.page.el?.statusClock;
    if (status && !status.hidden && shown?.clock) this.draw(status, shown, Number(status.dataset.seat), { quiet: true });
    if (this.remaining(view, seat) <= 0 && this.asked !== view.version) {
      this.asked = view.version; // its flag fell: the server ends the game (and sends it); ask once in case
      this.page.later(() => this.page.connection.refresh(), 300);
    }
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
