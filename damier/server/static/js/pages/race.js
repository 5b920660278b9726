// #/race/<id> : a race room on a puzzle game (docs/server.md, "race rooms"). The view comes from
// GET /api/races/<id>, then from the race WebSocket (every change: joins, the start, each round, each claim, each
// demonstration move, the judgements); the board is drawn by the game's board module, each demonstration move
// animated from the events the server sent. This browser's seat (its name and token) is kept per race in
// localStorage; joining, starting, claiming and demonstrating go through the API with that token.
import { h, replace, wait } from "../dom.js";
import { api, raceSeats, raceSocketUrl } from "../api.js";
import { boardModule } from "../games/index.js";
import { showError, showMessage } from "../messages.js";
import { t } from "../i18n.js";
import { Connection } from "./game/connection.js";
import { showConnection, showHowtoLink } from "./game/skeleton.js";
import { titleWord } from "../players.js";
import {
  buildSkeleton, renderAction, renderBids, renderLobby, renderPlayers, renderResult, renderRounds, renderRules,
  renderStatus, renderTimer, renderVerdict,
} from "./race/panels.js";

/** How long the last move of a round stays on the board before the next round's puzzle is drawn (ms). */
const HOLD_MS = 900;
/** How long a change of chips is shown next to a player (ms). */
const CHIPS_SHOWN_MS = 4000;

export function mount(root, { params }) {
  const page = new RacePage(root, params.id);
  page.load();
  return () => page.destroy();
}

class RacePage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    const held = raceSeats.get(id);
    this.seat = held ? held.seat : null;
    this.token = held ? held.token : null;
    this.latest = null; // the newest view received
    this.shown = null; // the view drawn
    this.queue = [];
    this.pumping = false;
    this.anim = null;
    this.offset = 0; // the server's clock minus ours
    this.moved = {}; // seat -> change of chips being shown
    this.movedUntil = 0;
    this.busy = false;
    this.destroyed = false;
    this.connection = new Connection(id, {
      receive: (view) => this.receive(view),
      status: (state) => showConnection(this.el?.conn, state),
      url: raceSocketUrl,
      fetch: (raceId) => api.race(raceId, this.token),
    });
    this.onVisible = () => { if (!document.hidden) this.connection.refresh(); };
    this.onKey = (e) => this.keydown(e);
  }

  /** Arrow keys anywhere on the page bring the keyboard cursor to the board (Enter then plays the square). */
  keydown(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = event.target?.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (this.mod?.pageKey && (this.busy || this.pumping) && this.demonstrating()
      && (event.key.startsWith("Arrow") || event.key.length === 1)) {
      event.preventDefault(); // a key for the board while the last move is on its way: played once it is drawn
      this.pendingKey = event.key;
      if (this.anim) this.anim.hurry = true;
      return;
    }
    if (!this.el.board.contains(event.target) && this.mod?.pageKey?.(this.el.board, event)) {
      event.preventDefault(); // the board module took it (Ricochet: arrows move the selected robot)
      return;
    }
    if (event.key.startsWith("Arrow") && !this.el.board.contains(event.target)) {
      const current = this.el.board.querySelector("[tabindex='0']");
      if (current) {
        event.preventDefault();
        current.focus();
      }
    }
  }

  async load() {
    this.el = buildSkeleton(this.root, this);
    let view;
    let entry;
    try {
      view = await api.race(this.id, this.token);
      entry = await api.catalogEntry(view.game);
    } catch (err) {
      if (this.destroyed) return;
      replace(this.root, h("div", { class: "page narrow" }, h("div", { class: "panel empty-state" },
        h("h1", {}, err.status === 404 ? t("race.error.not_found") : t("race.error.not_loaded")),
        h("p", {}, err.message),
        h("a", { class: "btn primary", href: "#/" }, t("race.error.see_games")))));
      return;
    }
    if (this.destroyed) return;
    showHowtoLink(this.el.howto, entry);
    if (this.token && view.you !== this.seat) {
      raceSeats.forget(this.id); // a token the server does not know for this race: watch instead
      this.seat = null;
      this.token = null;
      showMessage(t("race.seat_forgotten"), "info");
    }
    this.mod = await boardModule(entry);
    if (this.destroyed) return;
    this.root.querySelector(".race-page")?.classList.add(`game-${view.game}`);
    this.receive(view);
    this.connection.connect();
    this.ticker = setInterval(() => { if (this.latest) renderTimer(this, this.latest); }, 250);
    document.addEventListener("visibilitychange", this.onVisible);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    this.destroyed = true;
    this.anim?.abort();
    this.connection.close();
    clearInterval(this.ticker);
    document.removeEventListener("visibilitychange", this.onVisible);
    document.removeEventListener("keydown", this.onKey);
  }

  // ---- views, in order, each demonstration move animated --------------------------------------------------------

  /** A view from the socket, an answer or a poll (newer versions only: the socket repeats what an answer said). */
  receive(view) {
    if (this.destroyed || !view || view.id !== this.id || !this.mod) return;
    if (this.latest && view.version <= this.latest.version) return; // the socket repeats what an answer said
    if (view.now) {
      const server = Date.parse(view.now);
      if (Number.isFinite(server)) this.offset = server - Date.now();
    }
    this.latest = view;
    this.queue.push(view);
    if (!this.pumping) this.pump();
    else if (this.anim) this.anim.hurry = true;
  }

  async pump() {
    this.pumping = true;
    try {
      while (this.queue.length && !this.destroyed) {
        const next = this.queue.shift();
        const prev = this.shown;
        this.noteChips(prev, next);
        const play = prev ? this.transition(prev, next) : null;
        if (play) {
          this.renderPanels(next);
          const controller = new AbortController();
          this.anim = { abort: () => controller.abort(), hurry: this.queue.length > 0 };
          try {
            await play({ signal: controller.signal, fast: () => this.anim?.hurry || this.queue.length > 0 });
          } catch (err) {
            console.error(err);
          }
          this.anim = null;
        }
        this.shown = next;
        this.renderAll();
      }
    } finally {
      this.pumping = false;
    }
  }

  /** What to animate between two views: a demonstration move (its events), or the moves that ended a round
   * (the next round's puzzle came instead of their events: the module glides the robot along them). */
  transition(prev, next) {
    const before = prev.round;
    if (!before?.board) return null;
    const shownMoves = before.demonstration?.moves || [];
    if (next.round && next.round.number === before.number) {
      const demo = next.round.demonstration;
      if (demo && demo.moves.length === shownMoves.length + 1 && (next.round.events || []).length) {
        return (opts) => this.mod.animate(this.el.board, next.round.events, before.board, opts);
      }
      return null;
    }
    // the round closed: its last demonstration (in the rounds played), if it had moves not drawn yet
    const closed = (next.rounds || []).find((r) => r.number === before.number);
    const demo = (closed?.demonstrations || []).at(-1);
    const unseen = demo && (!before.demonstration || demo.seat === before.demonstration.seat)
      ? demo.moves.slice(before.demonstration ? shownMoves.length : 0) : [];
    if (!unseen.length || !this.mod.animateMove) return null;
    return async (opts) => {
      await this.mod.animateMove(this.el.board, before.board, unseen, opts);
      if (!opts.signal.aborted && !opts.fast()) await wait(HOLD_MS, opts.signal);
    };
  }

  /** Chips that changed hands between two views are shown for a while (+1, -1 by the player). */
  noteChips(prev, next) {
    if (!prev) return;
    const before = new Map((prev.players || []).map((p) => [p.seat, p.chips]));
    const moved = {};
    for (const p of next.players || []) {
      const change = p.chips - (before.get(p.seat) ?? 0);
      if (change) moved[p.seat] = change;
    }
    if (Object.keys(moved).length) {
      this.moved = moved;
      this.movedUntil = Date.now() + CHIPS_SHOWN_MS;
      clearTimeout(this.movedTimer);
      this.movedTimer = setTimeout(() => { this.moved = {}; if (this.shown && !this.destroyed) renderPlayers(this, this.shown); }, CHIPS_SHOWN_MS);
    }
  }

  // ---- actions ---------------------------------------------------------------------------------------------------

  async act(work) {
    if (this.busy) return;
    this.busy = true;
    if (!this.pumping && this.shown) this.drawBoard(this.shown); // no move offered while one is on its way
    try {
      const view = await work();
      if (view) this.receive(view);
    } catch (err) {
      showError(err);
      if (err.status === 409) this.connection.refresh();
    } finally {
      this.busy = false;
      if (!this.pumping && this.shown) this.renderAll();
    }
  }

  join(name) {
    if (!name) {
      showMessage(t("race.join.name_needed"), "info");
      return;
    }
    return this.act(async () => {
      const joined = await api.joinRace(this.id, name);
      raceSeats.set(this.id, joined.seat, joined.token, name);
      this.seat = joined.seat;
      this.token = joined.token;
      delete this.el.lobby.dataset.mode;
      return joined.state;
    });
  }

  /** The host starts the race. */
  start() { return this.act(() => api.startRace(this.id, this.token)); }

  claim(count) {
    const round = this.latest?.round?.number;
    return this.act(() => api.claim(this.id, count, round, this.token));
  }

  giveUp() { return this.act(() => api.giveUp(this.id, this.token)); }

  /** A square clicked while demonstrating (a module whose moves are squares): the next move of the path. */
  onSquare(square, { legal }) {
    if (!legal) {
      if (this.demonstrating()) showMessage(t("race.demo.not_a_move", { square }), "info");
      return;
    }
    return this.onMove(square);
  }

  /** A move chosen on the board while demonstrating (in the game's notation): sent, and judged by the server. */
  onMove(move) {
    if (!this.demonstrating()) return;
    const round = this.shown.round.number;
    return this.act(() => api.demonstrate(this.id, [move], round, this.token));
  }

  /** Whether this browser's player is demonstrating in the round drawn. */
  demonstrating() {
    const demo = this.shown?.round?.demonstration;
    return !!demo && demo.seat === this.seat;
  }

  // ---- drawing ---------------------------------------------------------------------------------------------------

  renderAll() {
    const view = this.shown;
    if (!view || this.destroyed) return;
    this.renderPanels(view);
    this.drawBoard(view);
    this.flushKey();
  }

  /** The board key kept while a demonstration move was under way, given to the board once the position is drawn. */
  flushKey() {
    const key = this.pendingKey;
    if (!key || this.busy || this.queue.length) return;
    this.pendingKey = null;
    if (this.demonstrating()) this.mod.pageKey?.(this.el.board, new KeyboardEvent("keydown", { key }));
  }

  renderPanels(view) {
    const el = this.el;
    el.title.textContent = t("race.title_game", { title: titleWord(view.game, view.title) });
    el.sub.textContent = this.mod.describeOptions(view.options || {}, {});
    renderStatus(this, view);
    renderTimer(this, view);
    renderResult(this, view);
    renderVerdict(this, view);
    renderLobby(this, view);
    renderPlayers(this, view, Date.now() < this.movedUntil ? this.moved : {});
    renderRounds(this, view);
    renderRules(this, view);
    renderAction(this, view);
    renderBids(this, view);
  }

  drawBoard(view) {
    const round = view.round;
    const el = this.el;
    el.board.hidden = !round && !el.board.firstChild;
    if (!round) {
      el.info.hidden = true;
      return;
    }
    const demo = round.demonstration;
    const mine = !!demo && demo.seat === this.seat && !this.busy;
    this.mod.render(el.board, round.board, {
      legal: mine ? this.mod.legalMoves?.(round.board) || [] : [],
      onSquare: (square, info) => this.onSquare(square, info),
      onMove: (move) => this.onMove(move),
      events: round.events || [],
      turn: demo ? demo.seat % 8 : -1,
      label: t("race.board_label", { title: titleWord(view.game, view.title), round: round.number }),
    });
    el.board.dataset.version = String(view.version);
    el.board.dataset.round = String(round.number);
    const info = this.mod.boardInfo?.(round.board) || "";
    el.info.textContent = info;
    el.info.hidden = !info;
  }
}
