// #/game/<id> : the live game. The view comes from GET /api/games/<id>, then from the WebSocket (every change:
// game/connection.js); views are shown in order, each move animated by the game's board module
// (game/view-queue.js); the panels around the board are in game/panels.js and game/controls.js, the actions
// besides moving in game/actions.js. Moves, undo, hint, resign and rematch go through the API with this browser's
// seat tokens.
import { h, replace } from "../dom.js";
import { api, seats, recent, watchUrl } from "../api.js";
import { boardModule } from "../games/index.js";
import { replaceAddress, navigate } from "../router.js";
import { showMessage, showError } from "../messages.js";
import { Connection } from "./game/connection.js";
import { ViewQueue } from "./game/view-queue.js";
import { Browsing } from "./game/browse.js";
import { playMove } from "../sounds.js";
import { buildSkeleton, renderKeys, showConnection, showHowtoLink } from "./game/skeleton.js";
import { Tutorial, tutorialSeen } from "./game/tutorial.js";
import { boardSeed, renderBanner, renderMoves, renderMore, renderPlayers, renderStatus, seatName } from "./game/panels.js";
import { renderControls, renderInvite, renderLeft, renderStartNote } from "./game/controls.js";
import * as actions from "./game/actions.js";
import { PuzzlePanel, isPuzzle } from "./game/puzzle.js";
import { Clocks } from "./game/clocks.js";
import { Premoves } from "./game/premoves.js";
import { t } from "../i18n.js";
import { seatWords, titleWord } from "../players.js";

const DEFAULT_KEYS = [
  [["←", "↑", "→", "↓"], t("game.keys.move")], [["Enter"], t("game.keys.play")], [["U"], t("game.keys.undo")],
  [["H"], t("game.keys.hint")],
];

export function mount(root, { params, query }) {
  const page = new GamePage(root, params.id, query);
  page.start();
  return () => page.destroy();
}

class GamePage {
  constructor(root, id, query) {
    this.root = root;
    this.id = id;
    this.busy = false; // a move is on its way
    this.hint = null; // {square, version}
    this.path = null; // {moves, step, version}: a line of moves to step through on the board (a puzzle's hint)
    this.timers = new Set();
    this.destroyed = false;
    this.resignArmed = false;
    this.flipped = false;
    this.claimInvitation(query);
    this.browsing = new Browsing(this); // an earlier position shown while the game goes on
    this.premoves = new Premoves(this); // a move chosen ahead while the other seat is to move
    this.here = {}; // who is here: {seat: "online" | "away"} (the server's presence messages)
    this.clocks = new Clocks(this); // the players' clocks, counted down from the server's values
    this.connection = new Connection(id, {
      receive: (view, source) => this.receive(view, source),
      status: (state) => showConnection(this.el?.conn, state),
      hello: () => this.localSeats().map((seat) => ({ token: seats.token(id, seat), away: document.hidden })),
      presence: (here, message) => {
        this.here = here;
        // who left, and for how long (ms) when the message was sent: counted on from now
        this.leftAt = { left: message.left || {}, claimAfter: message.claim_after ?? null, at: performance.now() };
        if (this.shown && this.el) {
          renderPlayers(this, this.shown);
          renderInvite(this, this.shown);
          renderControls(this, this.shown);
          this.clocks.update();
        }
      },
    });
    this.views = new ViewQueue({
      // the panels say what happened as the move is drawn; the result waits for the end of its animation
      before: (next, prev) => {
        this.renderPanels(next, { animating: true });
        this.drawBoard(prev, { still: true });
        if (!this.browsing.active) playMove((next.moves || []).at(-1), next.events, this.mod.client?.sounds);
      },
      animate: async (prev, next, opts) => {
        if (this.browsing.active) return; // an earlier position is shown: the live move is not drawn now
        this.el.board.dataset.animating = "true";
        try {
          await this.mod.animate(this.el.board, next.events, prev.board, opts);
        } finally {
          delete this.el.board.dataset.animating;
        }
      },
      show: (next) => {
        if (this.hint && this.hint.version !== next.version) this.hint = null;
        if (this.path && this.path.version !== next.version) this.path = null;
        this.renderAll();
      },
    });
    this.onKey = (e) => this.keydown(e);
    this.onVisible = () => {
      this.connection.hello(); // away while hidden, online again when seen
      if (!document.hidden) this.connection.refresh();
    };
  }

  get shown() { return this.views.shown; }
  get latest() { return this.views.latest; }

  claimInvitation(query) {
    const token = query.get("token");
    if (!token) return;
    const seat = Number(query.get("seat"));
    this.invited = Number.isInteger(seat) ? seat : null;
    seats.add(this.id, { [Number.isInteger(seat) ? seat : 0]: token }, Number.isInteger(seat) ? seat : null);
    replaceAddress(`/game/${encodeURIComponent(this.id)}`); // the token leaves the address bar (and history)
  }

  async start() {
    this.el = buildSkeleton(this.root, this);
    this.puzzle = new PuzzlePanel(this);
    this.el.side.prepend(this.puzzle.el.root);
    const token = seats.primaryToken(this.id);
    let view;
    let entry;
    try {
      view = await api.game(this.id, token);
      entry = await api.catalogEntry(view.game);
    } catch (err) {
      if (this.destroyed) return;
      replace(this.root, h("div", { class: "page narrow" }, h("div", { class: "panel empty-state" },
        h("h1", {}, err.status === 404 ? t("game.not_found") : t("game.load_failed")),
        h("p", {}, err.message),
        h("a", { class: "btn primary", href: "#/" }, t("newgame.see_games")))));
      if (err.status === 404) recent.remove(this.id);
      return;
    }
    if (this.destroyed) return;
    if (view.status === "replay") {
      navigate(`/replay/${encodeURIComponent(this.id)}`, { replace: true });
      return;
    }
    this.checkSeat(view, token);
    this.entry = entry;
    this.mod = await boardModule(entry);
    if (this.destroyed) return;
    this.root.querySelector(".game-page")?.classList.add(`game-${view.game}`);
    this.el.flip.hidden = !this.mod.canFlip;
    renderKeys(this.el.keys, this.mod.keyHelp || DEFAULT_KEYS);
    const local = seats.local(this.id);
    if (local.length) {
      recent.add({ id: this.id, game: view.game, title: view.title, options: view.options, start: view.start, seat: local[0] });
    }
    showHowtoLink(this.el.howto, entry);
    this.receive(view, "load");
    this.connection.connect();
    document.addEventListener("keydown", this.onKey);
    document.addEventListener("visibilitychange", this.onVisible);
    this.firstGameTutorial(entry, view);
  }

  /** The game's first-game tutorial (its How to play page's `tutorial`), on the first game of it this browser
   * plays a seat of. */
  async firstGameTutorial(entry, view) {
    if (!entry?.features?.includes("howto") || tutorialSeen(view.game) || !this.localSeats().length
      || view.status !== "active" || view.result) return;
    let doc;
    try {
      doc = await api.howto(view.game);
    } catch (err) {
      console.error("the How to play page could not be loaded for its tutorial", err);
      return;
    }
    if (this.destroyed || !doc.tutorial?.length || tutorialSeen(view.game) || this.latest?.result) return;
    const you = this.localSeats()[0];
    const players = view.seats?.length || 2;
    this.tutorial = new Tutorial(this.el.board, view.game, doc.tutorial, { you, opponent: (you + 1) % players },
      this.el.side);
    this.tutorial.show();
  }

  /** A token the server does not know is dropped; an invitation link with the wrong seat number is corrected. */
  checkSeat(view, token) {
    if (token && !Number.isInteger(view.you)) {
      seats.forget(this.id, seats.get(this.id).primary);
      showMessage(t("game.seat_invalid"), "error");
    } else if (Number.isInteger(view.you) && this.invited !== undefined && this.invited !== null && view.you !== this.invited) {
      const tok = seats.token(this.id, this.invited);
      seats.forget(this.id, this.invited);
      seats.add(this.id, { [view.you]: tok }, view.you);
    }
  }

  destroy() {
    this.destroyed = true;
    this.views.stop();
    this.connection.close();
    this.puzzle?.destroy();
    this.clocks.stop();
    this.tutorial?.close();
    for (const t of this.timers) clearTimeout(t);
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("visibilitychange", this.onVisible);
  }

  later(fn, ms) {
    const t = setTimeout(() => { this.timers.delete(t); if (!this.destroyed) fn(); }, ms);
    this.timers.add(t);
  }

  receive(view, source) {
    if (this.destroyed || !view || (view.id && view.id !== this.id) || !this.mod) return;
    this.clocks.stamp(view);
    this.views.receive(view, source);
    this.clocks.update();
  }

  // ---- seats -----------------------------------------------------------------------------------------------------

  localSeats() {
    return seats.local(this.id);
  }

  isMyTurn(view = this.shown) {
    return !!view && view.status === "active" && !view.result && view.player >= 0 && this.localSeats().includes(view.player);
  }

  /** The token to act with: the seat to move when it is ours, else our primary seat. */
  actingToken(view = this.shown) {
    if (view && this.localSeats().includes(view.player)) return seats.token(this.id, view.player);
    return seats.primaryToken(this.id);
  }

  canUndo(view) {
    return !!view && view.status === "active" && !view.result && this.localSeats().length > 0
      && view.can_undo !== false && (view.moves || []).length > 0;
  }

  /** The seat whose side is at the bottom of the board: the one this browser plays when it plays one seat, else
   * seat 0; "Flip board" turns it round. */
  perspective() {
    const local = this.localSeats();
    const own = local.length === 1 ? local[0] : 0;
    return this.flipped ? (own === 0 ? 1 : 0) : own;
  }

  flip() {
    this.flipped = !this.flipped;
    this.el.flip.setAttribute("aria-pressed", String(this.flipped));
    if (!this.views.pumping) this.renderAll();
  }

  // ---- actions ---------------------------------------------------------------------------------------------------

  /** A move chosen on the board (the board module reports it in notation, as the legal moves list it). */
  async onMove(move) {
    if (this.views.pumping) await this.views.settle();
    const view = this.shown;
    if (!view || view.status !== "active" || view.result) return;
    if (!this.isMyTurn(view)) {
      if (this.localSeats().length) showMessage(t("game.wait_for", { name: seatName(view, view.player) }), "info");
      return;
    }
    if (!(view.legal_moves || []).includes(move)) {
      showMessage(t("game.illegal", { move }), "info");
      return;
    }
    if (this.busy) return;
    this.busy = true;
    this.hint = null;
    this.drawBoard(view);
    try {
      this.receive(await api.move(this.id, move, view.version, this.actingToken(view)), "move");
    } catch (err) {
      showError(err);
      if (err.status === 409 || err.status === 422) this.connection.refresh();
    } finally {
      this.busy = false;
      if (!this.views.pumping) this.renderAll();
    }
  }

  undo() { return actions.undo(this); }
  declineUndo() { return actions.declineUndo(this); }
  /** A puzzle with graded hints asks the next level; any other game its hint agent's move. */
  askHint() {
    if (this.shown?.hints_allowed === false) return undefined; // between people without hints: no button, no key
    if (isPuzzle(this.shown) && this.puzzle.levels().length) return this.puzzle.askNext();
    return actions.askHint(this);
  }
  resign() { return actions.resign(this); }
  abort() { return actions.abort(this); }
  /** The notes whose countdowns tick (called by the clocks' interval). */
  tickNotes() {
    if (!this.shown || !this.el) return;
    renderStartNote(this, this.shown);
    renderLeft(this, this.shown);
  }
  claim(result) { return actions.claim(this, result); }

  /** The other people who left the game (every person but this browser's, gone now), and the ms before a claim is
   * allowed (0: now); null when someone else is here, or the server said nothing of who left. */
  gone(view) {
    const info = this.leftAt;
    if (!info || info.claimAfter === null) return null;
    const local = this.localSeats();
    const others = (view.seats || []).filter((s) => s.kind === "human" && !local.includes(s.index)).map((s) => s.index);
    if (!others.length || !others.every((s) => String(s) in info.left)) return null;
    const since = performance.now() - info.at;
    const wait = Math.max(0, ...others.map((s) => info.claimAfter - info.left[String(s)] - since));
    return { seats: others, wait };
  }
  draw(action) { return actions.draw(this, action); }
  rematch(button, board = "same") { return actions.rematch(this, button, board); }

  keydown(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (this.browsing.key(event)) {
      event.preventDefault();
      return;
    }
    const key = event.key.toLowerCase();
    if (event.key === "Escape" && this.premoves.cancel()) {
      event.preventDefault();
    } else if (key === "u") {
      event.preventDefault();
      this.undo();
    } else if (key === "h") {
      event.preventDefault();
      this.askHint();
    } else if (this.mod.pageKey && (this.busy || this.views.pumping) && this.isMyTurn(this.latest)
      && (event.key.startsWith("Arrow") || event.key.length === 1)) {
      // a key for the board while the last move is under way: kept, and given to the board once it is drawn
      event.preventDefault();
      this.pendingKey = event.key;
      this.views.settle();
    } else if (!this.el.board.contains(event.target) && this.mod.pageKey?.(this.el.board, event)) {
      // a board module may take a key pressed anywhere on the page (Ricochet: arrows move the selected robot)
      event.preventDefault();
    } else if (event.key.startsWith("Arrow") && !this.el.board.contains(event.target)) {
      // arrows anywhere else bring the keyboard cursor to the board
      const current = this.el.board.querySelector("[tabindex='0']");
      if (current) {
        event.preventDefault();
        current.focus();
      }
    }
  }

  /** The board key kept while a move was under way, given to the board module once the position is drawn. */
  flushKey() {
    const key = this.pendingKey;
    if (!key || this.busy || this.views.queue.length) return; // (called as the last view is shown)
    this.pendingKey = null;
    if (this.isMyTurn(this.shown)) this.mod.pageKey?.(this.el.board, new KeyboardEvent("keydown", { key }));
  }

  // ---- drawing ---------------------------------------------------------------------------------------------------

  renderAll() {
    const view = this.shown;
    if (!view || this.destroyed) return;
    this.renderPanels(view);
    this.drawBoard(view);
    this.flushKey();
    this.premoves.flush();
  }

  drawBoard(view, { still = false } = {}) {
    this.browsing.renderBar(view);
    if (this.browsing.active) {
      this.browsing.draw(view);
      return;
    }
    const path = this.path && this.path.version === view.version ? this.path : null;
    // a line shown from another board than the view's (a finished puzzle's solution, from its start) draws that board
    const board = !still && path?.board ? path.board : view.board;
    const mine = !still && !this.busy && this.isMyTurn(view) && board === view.board;
    const last = (view.moves || []).at(-1);
    this.mod.render(this.el.board, board, {
      legal: mine ? view.legal_moves || [] : [],
      turn: view.status === "active" && !view.result ? view.player : -1,
      hint: this.hint && this.hint.version === view.version ? this.hint.square : null,
      path: path ? { moves: path.moves, step: path.step, boards: this.puzzle.boardsFor(path) } : null,
      last: board === view.board && last ? last.move : null,
      seatNames: seatWords(view),
      onSquare: (square) => this.onMove(square),
      onMove: (move) => this.onMove(move),
      events: board === view.board ? view.events || [] : [],
      perspective: this.perspective(),
      premove: still ? null : this.premoves.boardOption(view, board),
      label: t("game.board_label", { title: titleWord(view.game, view.title) }),
    });
    this.el.board.dataset.version = String(view.version);
    const info = this.mod.boardInfo?.(board) || "";
    this.el.info.textContent = info;
    this.el.info.hidden = !info;
    this.el.board.classList.toggle("my-turn", mine);
  }

  /** The panels for `view`; `animating`: its move is being drawn, so the result banner waits. */
  renderPanels(view, { animating = false } = {}) {
    this.el.title.textContent = titleWord(view.game, view.title);
    // a puzzle's optimal length (the option its description names `difficulty`) is a hint: said once it is over
    const length = isPuzzle(view) && !view.result ? this.mod.client?.difficulty : null;
    const shown = Object.fromEntries(Object.entries(view.options || {}).filter(([name]) => name !== length));
    const options = this.mod.describeOptions(shown, { start: view.start });
    const clock = view.clock ? t("game.sub.clock", { control: view.clock.control }) : "";
    const rest = `${clock}${view.hints_on ? t("game.sub.casual") : ""}`;
    const key = JSON.stringify([options, view.seed, rest]);
    if (this.el.sub.dataset.key !== key) { // drawn again only when it changes: a selection to copy stays
      this.el.sub.dataset.key = key;
      replace(this.el.sub, options, boardSeed(view), rest);
    }
    const spoiler = animating && !!view.result; // the status and the banner say who won: after the last explosion
    if (!spoiler) renderStatus(this, view, { animating });
    if (!spoiler) renderBanner(this, view);
    if (!spoiler && view.result) this.tutorial?.close(); // a first game's tutorial ends with the game
    renderControls(this, view);
    renderPlayers(this, view);
    this.el.playersPanel.hidden = isPuzzle(view);
    this.puzzle.update(view);
    renderInvite(this, view);
    renderMoves(this, view);
    renderMore(this, view);
    this.el.watchInput.value = watchUrl(this.id);
  }
}
