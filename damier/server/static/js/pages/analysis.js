// #/analysis/<game>?position=...&options=JSON&from=PATH : the analysis board. Any position of a game (from a game,
// a replay or the editor): the engine's lines as it deepens (a puzzle: its solver's optimal solution), moves tried
// freely on the board, the tried line with a way back, and "Return" to where the player came from. Positions,
// legal moves and lines all come from the server (POST /api/analysis/board, POST /api/analysis then
// GET /api/analysis/<id> polled); how a game is analysed is its catalog entry's `analysis`.
import { h, icon, replace } from "../dom.js";
import { api } from "../api.js";
import { boardModule } from "../games/index.js";
import { navigate } from "../router.js";
import { showError, showMessage } from "../messages.js";

const POLL_MS = 400; // between two readings of a running analysis
const RETURNS = { game: "Return to the game", replay: "Return to the replay", editor: "Return to the editor" };

/** The address of the analysis board of `position` of `game`; `from` is the page to return to. */
export function analysisPath(game, options, position, from) {
  const query = new URLSearchParams({ position, options: JSON.stringify(options || {}) });
  if (from) query.set("from", from);
  return `/analysis/${encodeURIComponent(game)}?${query}`;
}

/** Open the analysis board at the position `moves` (in notation) lead to from `start` (null: the usual start). */
export async function openAnalysis({ game, options, start = null, moves = [], position = null, from }) {
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
    try {
      this.options = JSON.parse(query.get("options") || "{}");
    } catch {
      this.options = {};
    }
    this.line = []; // the boards of the positions tried: [{position, player, legal_moves, board, move, ...}]
    this.analysis = null; // the analysis running: {id, seq}
    this.seq = 0;
    this.destroyed = false;
  }

  async start() {
    this.root.append(h("div", { class: "page" }, h("div", { class: "panel empty-state" }, h("p", {}, "Loading the position…"))));
    let entry;
    let first;
    try {
      entry = await api.catalogEntry(this.game);
      if (!entry) throw new Error(`There is no game called ${this.game}.`);
      first = await api.analysisBoard({ game: this.game, options: this.options, position: this.position });
    } catch (err) {
      if (!this.destroyed) this.fail(err.message);
      return;
    }
    if (this.destroyed) return;
    this.entry = entry;
    this.mod = await boardModule(entry);
    if (this.destroyed) return;
    document.title = `Analysis · ${entry.title} · damier`;
    this.options = first.options;
    this.build();
    if (!entry.analysis) {
      this.el.status.textContent = `${entry.title} has no engine to analyse with.`;
    }
    this.line = [first];
    this.show();
  }

  fail(message) {
    replace(this.root, h("div", { class: "page narrow" }, h("div", { class: "panel empty-state" },
      h("h1", {}, "This position cannot be analysed"),
      h("p", { "data-testid": "analysis-error" }, message),
      this.returnButton() || h("a", { class: "btn primary", href: "#/" }, "See the games"))));
  }

  returnButton() {
    if (!this.from) return null;
    const kind = this.from.split("/")[1];
    return h("a", { class: "btn primary", href: `#${this.from}`, "data-testid": "analysis-return" },
      icon("prev"), RETURNS[kind] || "Return");
  }

  build() {
    const el = {};
    el.board = h("div", { class: "board-wrap", "data-testid": "board" });
    el.caption = h("div", { class: "status", "data-testid": "analysis-turn", "aria-live": "polite" });
    el.back = h("button", { type: "button", class: "btn", "data-testid": "analysis-back", title: "Take back the last move tried (←)",
      onclick: () => this.back(this.line.length - 2) }, icon("undo"), "Back");
    el.reset = h("button", { type: "button", class: "btn ghost", "data-testid": "analysis-reset", title: "Back to the first position (Home)",
      onclick: () => this.back(0) }, icon("first"), "First position");
    el.status = h("p", { class: "analysis-status", "data-testid": "analysis-status", "aria-live": "polite" });
    el.lines = h("ol", { class: "analysis-lines", "data-testid": "analysis-lines", "aria-label": "The engine's lines, deepest first" });
    el.moves = h("ol", { class: "move-list", "data-testid": "analysis-moves", "aria-label": "Moves tried" });
    el.position = h("input", { class: "link-input", readonly: true, "data-testid": "analysis-position", "aria-label": "Position string" });
    this.el = el;
    this.onKey = (e) => {
      // keys on the board are the board's (its keyboard cursor); a board module may take a key pressed anywhere
      // (its pageKey: arrows that move a selected piece); the others step back through the moves tried
      if (e.target.closest?.("input, textarea, select") || this.el.board.contains(e.target)) return;
      if (this.mod.pageKey?.(this.el.board, e)) { e.preventDefault(); return; }
      if (e.key === "ArrowLeft" && this.line.length > 1) { e.preventDefault(); this.back(this.line.length - 2); }
      if (e.key === "Home" && this.line.length > 1) { e.preventDefault(); this.back(0); }
    };
    addEventListener("keydown", this.onKey);
    replace(this.root, h("div", { class: `page game-page analysis-page game-${this.game}` },
      h("div", { class: "game-head" },
        h("div", {},
          h("h1", {}, `Analysis: ${this.entry.title}`),
          h("p", { class: "sub" }, h("span", { class: "sub-options", "data-testid": "game-options" }, this.mod.describeOptions(this.options, { start: this.position })))),
        this.returnButton()),
      h("div", { class: "game-layout" },
        h("section", { class: "board-col", "aria-label": "Board" },
          el.caption, el.board,
          h("div", { class: "controls", role: "toolbar", "aria-label": "Analysis actions" }, el.back, el.reset)),
        h("aside", { class: "side-col" },
          h("section", { class: "panel analysis-panel", "aria-labelledby": "an-engine", "data-testid": "analysis-panel" },
            h("h2", { id: "an-engine" }, this.entry.analysis === "solver" ? "Solver" : "Engine"), el.status, el.lines),
          h("section", { class: "panel moves", "aria-labelledby": "an-moves" }, h("h2", { id: "an-moves" }, "Moves tried"), el.moves),
          h("section", { class: "panel", "aria-labelledby": "an-position" }, h("h2", { id: "an-position" }, "Position"), el.position)))));
  }

  get current() { return this.line[this.line.length - 1]; }

  /** A move chosen on the board (in notation, as the legal moves list it). */
  async onMove(move) {
    const here = this.current;
    if (this.busy || !(here.legal_moves || []).includes(move)) {
      if (!this.busy) showMessage(`${move} is not a legal move here.`, "info");
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

  show() {
    const here = this.current;
    const names = this.mod.seatNames(Math.max(here.player + 1, Number(this.options.players) || 2));
    const mover = this.entry.players === "1" ? "Your move" : `${names[here.player] || `Player ${here.player + 1}`} to move`;
    this.el.caption.textContent = here.result ? `Game over: ${here.result.reason}` : here.player >= 0 ? mover : "";
    this.el.position.value = here.position;
    this.el.back.disabled = this.line.length < 2;
    this.el.reset.disabled = this.line.length < 2;
    replace(this.el.moves, this.line.slice(1).map((b, i) => h("li", { "data-testid": `analysis-move-${i + 1}` },
      h("button", { type: "button", class: "move-btn", title: "Back to the position after this move", onclick: () => this.back(i + 1) },
        h("span", { class: "ply" }, String(i + 1)), b.move))));
    if (this.line.length < 2) this.el.moves.append(h("li", { class: "muted analysis-empty" }, "Play a move on the board to try it."));
    this.el.board.dataset.position = here.position;
    this.draw(null);
    this.analyse();
  }

  draw(best) {
    const here = this.current;
    // a poll that changes nothing redraws nothing (a selection or a drag on the board goes on)
    if (this.drawn && this.drawn.here === here && this.drawn.best === best) return;
    this.drawn = { here, best };
    this.mod.render(this.el.board, here.board, {
      legal: here.legal_moves || [],
      turn: here.player,
      last: here.move || null,
      events: here.events || [],
      hint: best,
      seatNames: this.mod.seatNames(Math.max(here.player + 1, 2)),
      onSquare: (square) => this.onMove(square),
      onMove: (move) => this.onMove(move),
      label: `${this.entry.title} analysis board`,
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
      this.setStatus("over", here.result ? "The game is over here: nothing to analyse." : "Nothing to analyse here.");
      return;
    }
    this.setStatus("running", this.entry.analysis === "solver" ? "Solving…" : "Searching…");
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
        this.setStatus("waiting", `${err.message} Trying again…`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
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
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
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
        this.setStatus("done", "The solver found no solution within its limits.");
        return;
      }
      this.setStatus("done", last.length === 0 ? "Solved already." : `Optimal solution: ${last.length} move${last.length === 1 ? "" : "s"}.`);
      this.el.lines.dataset.length = String(last.length);
      replace(this.el.lines, h("li", { class: "analysis-line", "data-testid": "analysis-solution" },
        h("span", { class: "analysis-pv" }, last.pv.join(" "))));
      this.draw(last.pv[0] || null);
      return;
    }
    if (last) {
      this.el.lines.dataset.depth = String(last.depth);
      replace(this.el.lines, ...its.slice().reverse().map((it) => h("li", { class: "analysis-line", "data-testid": "analysis-line", "data-depth": String(it.depth) },
        h("span", { class: "analysis-depth" }, `depth ${it.depth}`),
        h("span", { class: "analysis-score", title: "The score for the side to move" }, score(it.score)),
        h("span", { class: "analysis-pv" }, it.pv.join(" ")))));
      this.draw(last.pv[0] || null);
    }
    const words = { time: "time is up", decided: "the result is decided", depth: "deepest depth reached", deadline: "time is up",
      stopped: "stopped", abandoned: "stopped" };
    const depth = last ? `Depth ${last.depth} · ${last.nodes.toLocaleString("en")} nodes` : "No depth yet";
    if (view.status === "running") this.setStatus("running", `${depth} · searching…`);
    else if (view.status === "failed") this.setStatus("failed", view.error || "The analysis failed.");
    else this.setStatus("done", `${depth} · done (${words[view.reason] || view.reason}).`);
  }

  setStatus(state, text) {
    this.el.status.dataset.state = state;
    this.el.status.textContent = text;
  }

  stopAnalysis() {
    if (this.analysis) api.stopAnalysis(this.analysis.id).catch(() => {});
    this.analysis = null;
  }

  destroy() {
    this.destroyed = true;
    this.seq += 1;
    this.stopAnalysis();
    if (this.onKey) removeEventListener("keydown", this.onKey);
  }
}

function score(value) {
  const rounded = Math.round(value * 100) / 100;
  return rounded > 0 ? `+${rounded}` : String(rounded);
}
