// #/analysis/<game>?id=GAME&ply=N&from=PATH : the analysis board of a game, at the position after N of its moves;
// #/analysis/<game>?position=...&options=JSON&from=PATH : the analysis board of any position (the editor's).
// The engine's lines as it deepens (a puzzle: its solver's optimal solution), their scores in the game's units
// (said once on the page), an evaluation bar beside the board, moves tried freely on the board, the tried line with
// a way back, and "Return" to where the player came from; for a game, the graph of its evaluation over every move
// (a click goes to that move) and a title that names it. Positions, legal moves, lines and evaluations all come from
// the server (POST /api/analysis/board, POST /api/analysis then GET /api/analysis/<id> polled, POST then GET
// /api/games/<id>/evaluations polled); how a game is analysed is its catalog entry's `analysis`, how its scores
// read its `scores`.
import { h, icon, replace } from "../dom.js";
import { api } from "../api.js";
import { boardModule } from "../games/index.js";
import { navigate, replaceAddress } from "../router.js";
import { showError, showMessage } from "../messages.js";
import { levelWord, seatColour, titleWord } from "../players.js";
import { createBar, showBar } from "./analysis/bar.js";
import { EvalGraph, graphPanel } from "./analysis/graph.js";
import { drawnChance, playerName, scoresSentence, scoreText } from "./analysis/scores.js";
import { said, t } from "../i18n.js";

const POLL_MS = 400; // between two readings of a running analysis
const GRAPH_POLL_MS = 700; // between two readings of a game's evaluation being computed
const RETRY_MS = 2000; // before asking again after a 429 or a 503
const RETURNS = { game: "analysis.return.game", replay: "analysis.return.replay", editor: "analysis.return.editor" };

/** The address of the analysis board of `position` of `game`; `from` is the page to return to. */
export function analysisPath(game, options, position, from) {
  const query = new URLSearchParams({ position, options: JSON.stringify(options || {}) });
  if (from) query.set("from", from);
  return `/analysis/${encodeURIComponent(game)}?${query}`;
}

/** The address of the analysis board of game `id` (of `game`) after `ply` of its moves. */
export function gameAnalysisPath(game, id, ply, from) {
  const query = new URLSearchParams({ id, ply: String(ply) });
  if (from) query.set("from", from);
  return `/analysis/${encodeURIComponent(game)}?${query}`;
}

/** Open the analysis board: of game `gameId` after `ply` of its moves, or at the position `moves` (in notation)
 * lead to from `start` (null: the usual start). */
export async function openAnalysis({ game, options, start = null, moves = [], position = null, from, gameId = null, ply = null }) {
  if (gameId) {
    navigate(gameAnalysisPath(game, gameId, ply ?? moves.length, from));
    return;
  }
  try {
    const reached = position ?? (await api.analysisBoard({ game, options, position: start, moves })).position;
    navigate(analysisPath(game, options, reached, from));
  } catch (err) {
    showError(err);
  }
}

/** The page to return to: a path of this site (`/game/...`), else none. */
function returnPath(text) {
  return typeof text === "string" && /^\/[a-z]+\/[^/]/.test(text) && !text.startsWith("//") ? text : null;
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function mount(root, { params, query }) {
  const page = new AnalysisPage(root, params.game, query);
  await page.start();
  return () => page.destroy();
}

class AnalysisPage {
  constructor(root, game, query) {
    this.root = root;
    this.game = game;
    this.from = returnPath(query.get("from"));
    this.position = query.get("position");
    this.gameId = query.get("id"); // a game's analysis (else a position's)
    const ply = Number(query.get("ply"));
    this.ply = query.has("ply") && Number.isInteger(ply) && ply >= 0 ? ply : null;
    try {
      this.options = JSON.parse(query.get("options") || "{}");
    } catch {
      this.options = {};
    }
    this.view = null; // the game's view (a game's analysis)
    this.line = []; // the boards of the positions tried: [{position, player, legal_moves, board, move, ...}]
    this.analysis = null; // the analysis running: {id, seq}
    this.reading = null; // the deepest depth of the position shown, as the server read it
    this.seq = 0;
    this.plySeq = 0; // the game's moves asked for (the last one asked is shown)
    this.destroyed = false;
  }

  async start() {
    this.root.append(h("div", { class: "page" }, h("div", { class: "panel empty-state" }, h("p", {}, t("analysis.loading")))));
    let entry;
    let first;
    try {
      entry = await api.catalogEntry(this.game);
      if (!entry) throw new Error(t("analysis.error.no_game", { game: this.game }));
      if (this.gameId) {
        this.view = await api.game(this.gameId);
        if (this.view.game !== entry.name) {
          throw new Error(t("analysis.error.other_game", { id: this.gameId, title: this.view.title, wanted: entry.title }));
        }
        this.options = this.view.options;
        const plies = this.moves.length;
        this.ply = this.playable(Math.min(this.ply ?? plies, plies), 1);
        first = await this.boardAt(this.ply);
      } else {
        first = await api.analysisBoard({ game: this.game, options: this.options, position: this.position });
      }
    } catch (err) {
      if (!this.destroyed) this.fail(err.message);
      return;
    }
    if (this.destroyed) return;
    this.entry = entry;
    this.mod = await boardModule(entry);
    if (this.destroyed) return;
    this.options = first.options;
    const seats = this.view?.seats?.length || Number(this.options.players) || (entry.players === "1" ? 1 : 2);
    this.names = this.mod.seatNames(seats);
    this.build();
    if (!entry.analysis) {
      this.el.status.textContent = t("analysis.no_engine", { title: entry.title });
    }
    this.line = [first];
    this.show();
    if (this.graph) this.evaluateGame();
  }

  /** The game's moves in notation (chance events included). */
  get moves() { return (this.view?.moves || []).map((m) => m.move); }

  /** `ply`, or the nearest ply past it in `direction` (+1 or -1) whose position has a player to move: a chance
   * event's position (the robots' turn) is shown as the position after it, as the game's move list shows it. */
  playable(ply, direction) {
    const moves = this.view?.moves || [];
    let at = ply;
    while (at >= 0 && at < moves.length && moves[at].player < 0) at += direction;
    return at < 0 || at > moves.length ? ply : at;
  }

  /** The analysis board of the game's position after `ply` of its moves. */
  boardAt(ply) {
    return api.analysisBoard({ game: this.game, options: this.view.options, position: this.view.start_position,
      moves: this.moves.slice(0, ply) });
  }

  fail(message) {
    replace(this.root, h("div", { class: "page narrow" }, h("div", { class: "panel empty-state" },
      h("h1", {}, t(this.gameId ? "analysis.fail.game" : "analysis.fail.position")),
      h("p", { "data-testid": "analysis-error" }, message),
      this.returnButton() || h("a", { class: "btn primary", href: "#/" }, t("home.see_games")))));
  }

  returnButton() {
    if (!this.from) return null;
    const kind = this.from.split("/")[1];
    return h("a", { class: "btn primary", href: `#${this.from}`, "data-testid": "analysis-return" },
      icon("prev"), t(RETURNS[kind] || "analysis.return.other"));
  }

  /** The page's title: a game's analysis names the game and the move; any other position, the game played. */
  get title() {
    if (!this.view) return t("analysis.title.position", { title: this.entry.title });
    return t("analysis.title.game", { title: titleWord(this.view.game, this.view.title), id: String(this.view.id), ply: this.ply });
  }

  /** The words under the title: the players of a game, and the options (a game's start, not the position shown). */
  subtitle() {
    const options = this.mod.describeOptions(this.options, { start: this.view ? this.view.start : this.position });
    const seat = (s, i) => {
      const name = this.names[i] || s.name;
      if (s.kind !== "computer") return name;
      return s.level ? t("analysis.seat_computer_level", { name, level: levelWord(s.level) }) : t("lobby.seat_computer", { name });
    };
    const players = this.view ? (this.view.seats || []).map(seat).join(` ${t("analysis.versus")} `) : "";
    return [players, options].filter(Boolean).join(" · ");
  }

  build() {
    const el = {};
    const searched = this.entry.analysis === "search";
    el.title = h("h1", { "data-testid": "analysis-title" }, this.title);
    el.board = h("div", { class: "board-wrap", "data-testid": "board" });
    el.caption = h("div", { class: "status", "data-testid": "analysis-turn", "aria-live": "polite" });
    el.back = h("button", { type: "button", class: "btn", "data-testid": "analysis-back", title: t("analysis.back_title"),
      onclick: () => this.back(this.line.length - 2) }, icon("undo"), t("analysis.back"));
    el.reset = h("button", { type: "button", class: "btn ghost", "data-testid": "analysis-reset", title: t("analysis.reset_title"),
      onclick: () => this.back(0) }, icon("first"), t("analysis.reset"));
    el.status = h("p", { class: "analysis-status", "data-testid": "analysis-status", "aria-live": "polite" });
    el.units = searched ? h("p", { class: "analysis-units", "data-testid": "analysis-units" }, scoresSentence(this.entry, this.names)) : null;
    el.lines = h("ol", { class: "analysis-lines", "data-testid": "analysis-lines", "aria-label": t("analysis.lines") });
    el.moves = h("ol", { class: "move-list", "data-testid": "analysis-moves", "aria-label": t("analysis.moves") });
    el.position = h("input", { class: "link-input", readonly: true, "data-testid": "analysis-position",
      "aria-label": t("analysis.position_label") });
    this.bar = searched ? createBar() : null;
    this.graph = searched && this.view ? new EvalGraph(this.entry, this.names, (ply) => this.goToPly(ply)) : null;
    this.el = el;
    this.onKey = (e) => {
      // keys on the board are the board's (its keyboard cursor); a board module may take a key pressed anywhere
      // (its pageKey: arrows that move a selected piece); the others step back through the moves tried, and
      // through the game's moves when none is tried
      if (e.target.closest?.("input, textarea, select, .eval-graph") || this.el.board.contains(e.target)) return;
      if (this.mod.pageKey?.(this.el.board, e)) { e.preventDefault(); return; }
      if (e.key === "ArrowLeft" && this.line.length > 1) { e.preventDefault(); this.back(this.line.length - 2); return; }
      if (e.key === "Home" && this.line.length > 1) { e.preventDefault(); this.back(0); return; }
      if (this.view && this.line.length === 1 && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
        const to = this.ply + (e.key === "ArrowLeft" ? -1 : 1);
        if (to >= 0 && to <= this.moves.length) { e.preventDefault(); this.goToPly(to); }
      }
    };
    addEventListener("keydown", this.onKey);
    // the bar stands beside the board's drawing (not the words a board module puts under it)
    this.resizing = this.bar ? new ResizeObserver(() => this.fitBar()) : null;
    this.resizing?.observe(el.board);
    replace(this.root, h("div", { class: `page game-page analysis-page game-${this.game}` },
      h("div", { class: "game-head" },
        h("div", {},
          el.title,
          h("p", { class: "sub" }, h("span", { class: "sub-options", "data-testid": "game-options" }, this.subtitle()))),
        this.returnButton()),
      h("div", { class: "game-layout" },
        h("section", { class: "board-col", "aria-label": t("replay.board") },
          el.caption,
          h("div", { class: "analysis-board-row" }, this.bar?.el ?? null, el.board),
          h("div", { class: "controls", role: "toolbar", "aria-label": t("analysis.actions") }, el.back, el.reset)),
        h("aside", { class: "side-col" },
          h("section", { class: "panel analysis-panel", "aria-labelledby": "an-engine", "data-testid": "analysis-panel" },
            h("h2", { id: "an-engine" }, t(this.entry.analysis === "solver" ? "analysis.heading.solver" : "analysis.heading.engine")),
            el.units, el.status, el.lines),
          this.graph ? graphPanel(this.graph) : null,
          h("section", { class: "panel moves", "aria-labelledby": "an-moves" }, h("h2", { id: "an-moves" }, t("analysis.moves")), el.moves),
          h("section", { class: "panel", "aria-labelledby": "an-position" }, h("h2", { id: "an-position" }, t("analysis.position")), el.position)))));
    this.retitle();
  }

  retitle() {
    this.el.title.textContent = this.title;
    document.title = `${this.title} · damier`;
  }

  get current() { return this.line[this.line.length - 1]; }

  /** A move chosen on the board (in notation, as the legal moves list it). */
  async onMove(move) {
    const here = this.current;
    if (this.busy || !(here.legal_moves || []).includes(move)) {
      if (!this.busy) showMessage(t("analysis.illegal", { move }), "info");
      return;
    }
    this.busy = true;
    try {
      const next = await api.analysisBoard({ game: this.game, options: this.options, position: here.position, move });
      if (this.destroyed || this.current !== here) return;
      this.line.push(next);
      this.show();
    } catch (err) {
      showError(err);
    } finally {
      this.busy = false;
    }
  }

  /** Go back to the position after the `index`-th move tried (0: the first position). */
  back(index) {
    if (index < 0 || index >= this.line.length - 1) return;
    this.line = this.line.slice(0, index + 1);
    this.show();
  }

  /** Go to the game's position after `ply` of its moves (the moves tried are left); a chance event's position
   * is passed in the way the player goes. */
  async goToPly(wanted) {
    if (!this.view || wanted < 0 || wanted > this.moves.length) return;
    const ply = this.playable(wanted, wanted < this.ply ? -1 : 1);
    const asked = ++this.plySeq;
    try {
      const board = await this.boardAt(ply);
      if (this.destroyed || asked !== this.plySeq) return;
      this.ply = ply;
      this.line = [board];
      replaceAddress(gameAnalysisPath(this.game, this.view.id, ply, this.from));
      this.retitle();
      this.show();
    } catch (err) {
      showError(err);
    }
  }

  show() {
    const here = this.current;
    const mover = this.entry.players === "1" ? t("analysis.your_move") : t("analysis.to_move", { name: playerName(this.names, here.player) });
    this.el.caption.textContent = here.result ? t("analysis.game_over", { reason: said(here.result, this.names) }) : here.player >= 0 ? mover : "";
    this.el.position.value = here.position;
    this.el.back.disabled = this.line.length < 2;
    this.el.reset.disabled = this.line.length < 2;
    replace(this.el.moves, this.line.slice(1).map((b, i) => h("li", { "data-testid": `analysis-move-${i + 1}` },
      h("button", { type: "button", class: "move-btn", title: t("analysis.move_title"), onclick: () => this.back(i + 1) },
        h("span", { class: "ply" }, String(i + 1)), b.move))));
    if (this.line.length < 2) this.el.moves.append(h("li", { class: "muted analysis-empty" }, t("analysis.moves_empty")));
    this.el.board.dataset.position = here.position;
    this.graph?.setCurrent(this.ply);
    this.reading = null;
    this.showBar();
    this.draw(null);
    this.analyse();
  }

  /** The bar: the deepest depth of the position shown; before it, the game's evaluation of that position; a
   * finished position, its result. */
  showBar() {
    if (!this.bar) return;
    const here = this.current;
    const seats = this.names.length;
    let drawn = null;
    if (here.chances) drawn = drawnChance({ chances: here.chances, player: here.player }, seats);
    else if (this.reading) drawn = drawnChance(this.reading, seats);
    else if (this.line.length === 1 && this.graph) drawn = drawnChance(this.graph.points.find((p) => p.ply === this.ply), seats);
    showBar(this.bar, drawn, this.names);
  }

  /** The bar as high as the board's drawing, level with it. */
  fitBar() {
    const drawing = this.el.board.querySelector("svg.board") || this.el.board.querySelector("svg");
    if (!this.bar || !drawing) return;
    const box = drawing.getBoundingClientRect();
    this.bar.el.style.marginTop = `${Math.max(0, box.top - this.el.board.getBoundingClientRect().top)}px`;
    this.bar.el.style.height = `${box.height}px`;
  }

  draw(best) {
    const here = this.current;
    // a poll that changes nothing redraws nothing (a selection or a drag on the board goes on)
    if (this.drawn && this.drawn.here === here && this.drawn.best === best) return;
    this.drawn = { here, best };
    this.renderBoard(here, best);
    this.fitBar();
  }

  renderBoard(here, best) {
    this.mod.render(this.el.board, here.board, {
      legal: here.legal_moves || [],
      turn: here.player,
      last: here.move || null,
      events: here.events || [],
      hint: best,
      seatNames: this.names,
      onSquare: (square) => this.onMove(square),
      onMove: (move) => this.onMove(move),
      label: t("analysis.board_label", { title: this.entry.title }),
    });
  }

  /** Analyse the position shown (the analysis of the one before is stopped), and read its depths as they come. */
  async analyse() {
    this.stopAnalysis();
    const seq = ++this.seq;
    replace(this.el.lines);
    delete this.el.lines.dataset.depth;
    const here = this.current;
    if (!this.entry.analysis) return;
    if (here.player < 0) {
      this.setStatus("over", t(here.result ? "analysis.status.over" : "analysis.status.nothing"));
      return;
    }
    this.setStatus("running", t(this.entry.analysis === "solver" ? "analysis.status.solving" : "analysis.status.searching"));
    let started;
    for (;;) {
      try {
        started = await api.startAnalysis({ game: this.game, options: this.options, position: here.position });
        break;
      } catch (err) {
        if (seq !== this.seq || this.destroyed) return;
        if (err.status !== 429 && err.status !== 503) {
          this.setStatus("failed", err.message);
          return;
        }
        this.setStatus("waiting", t("analysis.retrying", { message: err.message }));
        await wait(RETRY_MS);
        if (seq !== this.seq || this.destroyed) return;
      }
    }
    if (seq !== this.seq || this.destroyed) {
      api.stopAnalysis(started.id).catch(() => {});
      return;
    }
    this.analysis = { id: started.id, seq };
    let view = started;
    while (view.status === "running") {
      await wait(POLL_MS);
      if (seq !== this.seq || this.destroyed) return;
      try {
        view = await api.readAnalysis(started.id);
      } catch (err) {
        if (seq === this.seq) this.setStatus("failed", err.message);
        return;
      }
      if (seq !== this.seq || this.destroyed) return;
      this.renderAnalysis(view);
    }
    this.renderAnalysis(view);
    this.analysis = null;
  }

  renderAnalysis(view) {
    const its = view.iterations || [];
    const last = its[its.length - 1];
    if (view.kind === "solver") {
      if (view.status === "running") return;
      if (!last || last.length < 0) {
        this.setStatus("done", t("analysis.solver.none"));
        return;
      }
      this.setStatus("done", last.length === 0 ? t("analysis.solver.solved") : t("analysis.solver.optimal", { count: last.length }));
      this.el.lines.dataset.length = String(last.length);
      replace(this.el.lines, h("li", { class: "analysis-line", "data-testid": "analysis-solution" },
        h("span", { class: "analysis-pv" }, last.pv.join(" "))));
      this.draw(last.pv[0] || null);
      return;
    }
    if (last) {
      this.el.lines.dataset.depth = String(last.depth);
      replace(this.el.lines, ...its.slice().reverse().map((it) => h("li", { class: "analysis-line", "data-testid": "analysis-line", "data-depth": String(it.depth) },
        h("span", { class: "analysis-depth" }, t("analysis.line.depth", { depth: it.depth })),
        h("span", { class: "analysis-score", "data-testid": "analysis-score", title: this.scoreTitle(it) },
          scoreText(this.entry, it, this.names)),
        this.lineOf(it))));
      this.draw(last.pv[0] || null);
      this.reading = last;
      this.showBar();
    }
    const words = { time: "analysis.reason.time", decided: "analysis.reason.decided", depth: "analysis.reason.depth",
      deadline: "analysis.reason.time", stopped: "analysis.reason.stopped", abandoned: "analysis.reason.stopped" };
    const depth = last ? t("analysis.depth", { depth: last.depth, nodes: last.nodes }) : t("analysis.no_depth");
    if (view.status === "running") this.setStatus("running", t("analysis.status.depth_searching", { depth }));
    else if (view.status === "failed") this.setStatus("failed", errorOf(view) || t("analysis.status.failed"));
    else this.setStatus("done", t("analysis.status.depth_done", { depth, reason: words[view.reason] ? t(words[view.reason]) : view.reason }));
  }

  /** A line's score as a title: the engine's own number, and for whom. */
  scoreTitle(it) {
    const score = String(Math.round(it.score * 100) / 100); // the engine's own number, as it is
    const name = this.names[it.player];
    return name ? t("analysis.line.score", { score, name }) : t("analysis.line.score_unnamed", { score });
  }

  /** A line's moves, each marked with the colour of who plays it; a chance event (the robots' step) in italics:
   * the line follows the most typical of its outcomes. */
  lineOf(it) {
    const movers = it.movers || [];
    return h("span", { class: "analysis-pv" }, it.pv.map((move, i) => {
      const mover = movers[i];
      const chance = mover === -1;
      return h("span", {
        class: `pv-move${chance ? " chance" : ""}`, style: chance ? null : { "--c": seatColour(mover) },
        title: chance ? t("analysis.line.chance") : this.names[mover] || null,
      }, move);
    }));
  }

  setStatus(state, text) {
    this.el.status.dataset.state = state;
    this.el.status.textContent = text;
  }

  stopAnalysis() {
    if (this.analysis) api.stopAnalysis(this.analysis.id).catch(() => {});
    this.analysis = null;
  }

  /** Ask the server for the evaluation of every position of the game (or join the one asked for), and fill the
   * graph as the positions come. */
  async evaluateGame() {
    const graph = this.graph;
    graph.setStatus("running", t("analysis.graph.starting"));
    let view;
    for (;;) {
      try {
        view = await api.startGraph(this.view.id);
        break;
      } catch (err) {
        if (this.destroyed) return;
        if (err.status !== 429 && err.status !== 503) {
          graph.setStatus("failed", err.message);
          return;
        }
        graph.setStatus("waiting", t("analysis.retrying", { message: err.message }));
        await wait(RETRY_MS);
        if (this.destroyed) return;
      }
    }
    if (view.version !== this.view.version) {
      // the game went on since the page loaded it: its moves, as evaluated
      try {
        this.view = await api.game(this.view.id);
      } catch (err) {
        graph.setStatus("failed", err.message);
        return;
      }
    }
    for (;;) {
      if (this.destroyed) return;
      this.showGraph(view);
      if (view.status !== "running") return;
      await wait(GRAPH_POLL_MS);
      if (this.destroyed) return;
      try {
        view = await api.readGraph(this.view.id, view.version);
      } catch (err) {
        graph.setStatus("failed", err.message);
        return;
      }
    }
  }

  showGraph(view) {
    const graph = this.graph;
    graph.show(view);
    const positions = view.plies + 1;
    const done = view.points.length;
    const covers = view.plies < view.version ? t("analysis.graph.covers", { plies: view.plies, version: view.version }) : "";
    if (view.status === "running") graph.setStatus("running", t("analysis.graph.running", { done, positions, covers }));
    else if (view.status === "failed") graph.setStatus("failed", errorOf(view) || t("analysis.graph.failed"));
    else if (done >= positions) graph.setStatus("done", t("analysis.graph.done", { covers }));
    else {
      const why = view.reason === "abandoned" || view.reason === "stopped" ? "stopped" : "time";
      graph.setStatus("done", t("analysis.graph.partial", { done, positions, why }));
    }
    if (!this.reading) this.showBar();
  }

  destroy() {
    this.destroyed = true;
    this.seq += 1;
    this.stopAnalysis();
    if (this.onKey) removeEventListener("keydown", this.onKey);
    this.resizing?.disconnect();
  }
}

/** An analysis's error in the page's language (its code, when the server said it with one). */
function errorOf(view) {
  if (!view.error) return "";
  return view.error_code ? said({ code: view.error_code, params: view.error_params, error: view.error }) : view.error;
}
