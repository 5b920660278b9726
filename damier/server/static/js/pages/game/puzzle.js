// The puzzle panel of a one-player game (a puzzle): the timer (from the view's times), the moves and hints used,
// the puzzle's id to share, the graded hints asked level by level (POST /api/games/<id>/hint?level=N; the levels and
// their names come from the game's client description `hints`), a line of moves to step through on the board (the
// whole-path hint, or once the puzzle is over the optimal line the view's `solution` gives, from the puzzle's
// start), and reset (every move taken back). What a hint says is the server's; the page knows no game. The server
// makes the board after each move of a line (POST /api/positions with the moves), so a board module draws where
// the line leads without knowing the rules.

import { h, icon, replace } from "../../dom.js";
import { api, seats } from "../../api.js";
import { showError, showMessage } from "../../messages.js";
import { said, t } from "../../i18n.js";
import { copyLink } from "./controls.js";

/** A one-player game: the game page shows the puzzle panel instead of the players. */
export function isPuzzle(view) {
  return (view?.seats || []).length === 1;
}

/** "1:05" for 65 seconds ("1:02:03" past an hour). */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hours ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** Seconds a puzzle has taken: the view's `seconds` once it is over, else from its creation to now (the server's
 * clock, through the offset measured when the view arrived). */
export function elapsed(view, offset) {
  if (Number.isFinite(view?.seconds)) return view.seconds;
  const created = Date.parse(view?.created_at || "");
  if (!Number.isFinite(created)) return 0;
  return (Date.now() + offset - created) / 1000;
}

export class PuzzlePanel {
  constructor(page) {
    this.page = page;
    this.hints = []; // [{level, kind, text, move?, moves?}] asked for the position of `version`
    this.version = null;
    this.pending = false;
    this.offset = 0; // the server's clock minus ours
    this.el = {};
    const el = this.el;
    el.timer = h("strong", { class: "puzzle-timer", "data-testid": "puzzle-timer" }, "0:00");
    el.moves = h("strong", { "data-testid": "puzzle-moves" }, "0");
    el.hintCount = h("strong", { "data-testid": "puzzle-hints" }, "0");
    el.id = h("input", {
      class: "link-input", readonly: true, "data-testid": "puzzle-id", "aria-label": t("puzzle.id.label"),
    });
    el.idRow = h("div", { class: "puzzle-id-row" },
      h("span", { class: "muted small" }, t("puzzle.title")),
      h("div", { class: "link-row" }, el.id,
        h("button", { type: "button", class: "btn small", "data-testid": "puzzle-id-copy", onclick: (e) => copyLink(el.id.value, el.id, e.currentTarget) },
          icon("copy"), t("play.copy.button"))));
    el.hintList = h("ol", { class: "hint-levels", "data-testid": "hint-list" });
    el.path = h("div", { class: "path-stepper", "data-testid": "path-stepper", hidden: true });
    el.solution = h("div", { class: "puzzle-solution", "data-testid": "puzzle-solution", hidden: true });
    el.reset = h("button", { type: "button", class: "btn small", "data-testid": "btn-reset", onclick: () => this.reset() },
      icon("first"), t("puzzle.reset"));
    el.root = h("section", { class: "panel puzzle-panel", "data-testid": "puzzle-panel", "aria-labelledby": "puzzle-title", hidden: true },
      h("h2", { id: "puzzle-title" }, t("puzzle.title")),
      h("div", { class: "puzzle-stats" },
        h("div", {}, h("span", { class: "muted small" }, t("puzzle.stat.time")), el.timer),
        h("div", {}, h("span", { class: "muted small" }, t("puzzle.stat.moves")), el.moves),
        h("div", {}, h("span", { class: "muted small" }, t("puzzle.stat.hints")), el.hintCount)),
      el.idRow,
      el.hintsHead = h("div", { class: "hints-head" }, el.hintsTitle = h("h3", {}, t("puzzle.hints.title")), el.reset),
      el.hintList,
      el.solution,
      el.path);
    this.tick = setInterval(() => this.showTime(), 1000);
  }

  destroy() {
    clearInterval(this.tick);
  }

  /** The levels of graded hints the game describes ([{level, kind, label}]), or none. */
  levels() {
    return this.page.mod?.client?.hints || [];
  }

  /** The hints shown belong to one position: a move (or an undo) clears them. */
  forPosition(view) {
    if (this.version !== view.version) {
      this.version = view.version;
      this.hints = [];
    }
  }

  update(view) {
    const el = this.el;
    el.root.hidden = !isPuzzle(view);
    if (el.root.hidden) return;
    this.forPosition(view);
    if (view.now) {
      const server = Date.parse(view.now);
      if (Number.isFinite(server)) this.offset = server - Date.now();
    }
    this.view = view;
    this.showTime();
    el.moves.textContent = String((view.moves || []).length);
    el.hintCount.textContent = String(view.hints ?? 0);
    const id = this.page.mod?.puzzleId?.(view.board) || view.start || "";
    el.idRow.hidden = !id;
    el.id.value = id;
    el.reset.disabled = !this.page.canUndo(view) || this.busy;
    this.renderHints(view);
    this.renderSolution(view);
    this.renderPath(view);
  }

  showTime() {
    const view = this.view;
    if (!view || this.el.root.hidden) return;
    const seconds = elapsed(view, this.offset);
    this.el.timer.textContent = clock(seconds);
    this.el.timer.dataset.seconds = String(Math.floor(seconds));
    this.el.timer.classList.toggle("stopped", Number.isFinite(view.seconds));
  }

  renderHints(view) {
    const levels = this.levels();
    const playing = this.page.isMyTurn(view);
    const next = this.hints.length + 1;
    replace(this.el.hintList, levels.map((entry) => {
      const given = this.hints.find((x) => x.level === entry.level);
      const item = h("li", { class: `hint-level${given ? " given" : ""}`, "data-testid": `hint-${entry.level}`, "data-kind": entry.kind },
        h("span", { class: "hint-label" }, entry.label));
      if (given) {
        item.append(h("span", { class: "hint-answer", "data-testid": `hint-text-${entry.level}` }, said(given)));
      } else {
        item.append(h("button", {
          type: "button", class: "btn small", "data-testid": `hint-show-${entry.level}`,
          disabled: !playing || this.pending || entry.level !== next,
          title: entry.level === next ? null : t("puzzle.hints.ask_first"),
          onclick: () => this.ask(entry.level),
        }, this.pending && entry.level === next ? "…" : t("puzzle.hints.show")));
      }
      return item;
    }));
    const over = view.status !== "active" || !!view.result;
    this.el.hintList.hidden = !levels.length || over;
    this.el.hintsHead.hidden = over; // Reset stays for a puzzle without graded hints
    this.el.hintsTitle.style.visibility = levels.length ? "" : "hidden";
  }

  /** Ask the next graded hint (the game page's Hint button and the H key come here for a puzzle). */
  askNext() {
    const levels = this.levels();
    const next = this.hints.length + 1;
    if (!levels.some((x) => x.level === next)) {
      if (levels.length) showMessage(t("puzzle.hints.all_shown"), "info");
      return;
    }
    this.ask(next);
  }

  async ask(level) {
    const page = this.page;
    if (this.pending) return;
    this.pending = true;
    await page.views.settle(); // the hint is for the position the server has: the one drawn once the jump is shown
    const view = page.shown;
    if (!page.isMyTurn(view)) {
      this.pending = false;
      return;
    }
    this.update(view);
    try {
      const answer = await api.hint(page.id, page.actingToken(view), level);
      if (page.shown?.version !== view.version) return;
      this.forPosition(view);
      this.hints = [...this.hints.filter((x) => x.level !== level), { ...answer, level }].sort((a, b) => a.level - b.level);
      if (answer.move) page.hint = { square: answer.move, version: view.version };
      if (Array.isArray(answer.moves) && answer.moves.length) this.showPath(answer.moves, view);
      page.connection.refresh(); // the view counts the hint
    } catch (err) {
      showError(err);
    } finally {
      this.pending = false;
      if (page.shown) page.renderAll();
    }
  }

  /** Show `moves` on the board as a line to step through, from the position `from` (null: the view's own) whose
   * board is `board` (null: the view's). */
  showPath(moves, view, { from = null, board = null, title = t("puzzle.path.title") } = {}) {
    const path = { moves, step: 0, version: view.version, board, title, key: `${view.version} ${moves.join(" ")} ${from || ""}` };
    this.page.path = path;
    this.loadBoards(path, from || view.position, view);
  }

  /** The server's board after each move of `path` from the position `from` (one request: the rules are the
   * server's), for a board module to draw where the line leads; the board is drawn again once they arrive. */
  async loadBoards(path, from, view) {
    if (this.boards?.key === path.key || !from) return;
    this.boards = { key: path.key, boards: null };
    try {
      const answer = await api.position(view.game, view.options || {}, from, path.moves);
      if (this.boards?.key !== path.key) return;
      this.boards.boards = [answer.board, ...(answer.boards || [])];
    } catch (err) {
      console.error("the boards along the line could not be made", err);
      return;
    }
    if (this.page.path?.key === path.key && !this.page.views.pumping) this.page.drawBoard(this.page.shown);
  }

  /** The boards after each move of `path` known so far (the first is the one it starts from), or null. */
  boardsFor(path) {
    return path && this.boards?.key === path.key ? this.boards.boards : null;
  }

  /** Once the puzzle is over: the optimal line the server found, to step through from the puzzle's start. */
  renderSolution(view) {
    const box = this.el.solution;
    const line = Array.isArray(view.solution) ? view.solution : [];
    const over = view.status !== "active" || !!view.result;
    box.hidden = !over || !line.length || this.page.path?.version === view.version;
    if (box.hidden) return;
    const show = h("button", { type: "button", class: "btn small", "data-testid": "solution-show" }, icon("play"), t("puzzle.solution.step_through"));
    show.addEventListener("click", () => this.showSolution(view, show));
    replace(box,
      h("div", { class: "path-head" }, h("strong", {}, t("puzzle.solution.title")),
        h("span", { class: "muted small" }, t("puzzle.path.moves", { count: line.length }))),
      h("span", { class: "path-moves" }, line.map((m) => h("span", {}, m))),
      show);
  }

  /** Step through the view's solution on the board, from the puzzle's start (its board made by the server). */
  async showSolution(view, button) {
    const page = this.page;
    button.disabled = true;
    await page.views.settle(); // the last move drawn first
    view = page.shown;
    const id = page.mod?.puzzleId?.(view.board) || view.start;
    try {
      const start = id ? (await api.position(view.game, view.options || {}, id)).board : null;
      if (page.shown?.version !== view.version || !view.solution?.length) return;
      this.showPath(view.solution, view, { from: id, board: start, title: t("puzzle.solution.title") });
    } catch (err) {
      showError(err);
    } finally {
      button.disabled = false;
      page.renderAll();
    }
  }

  renderPath(view) {
    const page = this.page;
    const path = page.path && page.path.version === view.version ? page.path : null;
    const box = this.el.path;
    box.hidden = !path;
    if (!path) return;
    const total = path.moves.length;
    const step = (k) => { page.path = { ...path, step: Math.max(0, Math.min(total, k)) }; page.renderAll(); };
    replace(box,
      h("div", { class: "path-head" },
        h("strong", {}, path.title || t("puzzle.path.title")),
        h("button", { type: "button", class: "link-btn", "data-testid": "path-hide", onclick: () => { page.path = null; page.renderAll(); } }, t("puzzle.path.hide"))),
      h("span", { class: "path-moves" }, path.moves.map((m, k) => h("span", { class: k < path.step ? "done" : null }, m))),
      h("div", { class: "path-controls" },
        h("button", { type: "button", class: "btn small icon-only", "data-testid": "path-first", "aria-label": t("puzzle.path.first"), disabled: path.step === 0, onclick: () => step(0) }, icon("first")),
        h("button", { type: "button", class: "btn small icon-only", "data-testid": "path-prev", "aria-label": t("puzzle.path.prev"), disabled: path.step === 0, onclick: () => step(path.step - 1) }, icon("prev")),
        h("span", { class: "path-step", "data-testid": "path-step", "data-step": String(path.step) },
          path.step === 0 ? t("puzzle.path.moves", { count: total })
            : t("puzzle.path.step", { step: path.step, total, move: path.moves[path.step - 1] })),
        h("button", { type: "button", class: "btn small icon-only", "data-testid": "path-next", "aria-label": t("puzzle.path.next"), disabled: path.step === total, onclick: () => step(path.step + 1) }, icon("next"))));
  }

  /** Take every move back (one request: the server's undo of every move). */
  async reset() {
    const page = this.page;
    if (this.busy || !page.canUndo(page.latest)) return;
    await page.views.settle();
    this.busy = true;
    this.el.reset.disabled = true;
    try {
      const view = await api.undoAll(page.id, seats.token(page.id, page.localSeats()[0]));
      page.receive(view, "undo");
    } catch (err) {
      showError(err);
    } finally {
      this.busy = false;
      if (page.shown) page.renderAll();
    }
  }
}
