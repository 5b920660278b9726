// Browsing a game while it goes on: a click on a move of the move list (or the arrow keys once browsing, Home and
// End) shows the position after that move, with its shot or explosion drawn from the server's replay frames
// (GET /api/games/<id>/replay); a step forward plays that move's events. The live game goes on meanwhile: its
// moves are not animated while browsing, and "Back to live" (or Escape) returns to it.

import { h, icon, replace } from "../../dom.js";
import { api } from "../../api.js";
import { showError } from "../../messages.js";
import { t } from "../../i18n.js";
import { seatWord, seatWords, titleWord } from "../../players.js";

/** Frames asked at once around the one wanted (the server caches its pages). */
const PAGE = 50;

export class Browsing {
  constructor(page) {
    this.page = page;
    this.ply = null; // the ply shown (0: the start), or null: the live position
    this.frames = new Map(); // ply -> {ply, move, player, board, events}
    this.loading = null;
  }

  get active() { return this.ply !== null; }

  /** The frame of `ply` (from the cache while the moves up to it are the same), else loaded with its page. */
  async frame(ply) {
    const moves = this.page.latest?.moves || [];
    const cached = this.frames.get(ply);
    if (cached && (ply === 0 || moves[ply - 1]?.move === cached.move)) return cached;
    const first = Math.max(0, ply - Math.floor(PAGE / 2));
    const answer = await api.replay(this.page.id, first, PAGE);
    for (const frame of answer.frames || []) this.frames.set(frame.ply, frame);
    return this.frames.get(ply) || null;
  }

  /** Show the position after move `ply`; the live position when `ply` is the last move (or past it). */
  async show(ply, { animate = false } = {}) {
    const last = (this.page.latest?.moves || []).length;
    if (ply === null || ply >= last) return this.leave();
    ply = Math.max(0, ply);
    const before = this.ply !== null ? this.frames.get(this.ply) : null;
    let frame;
    try {
      frame = await this.frame(ply);
    } catch (err) {
      showError(err);
      return undefined;
    }
    if (!frame || this.page.destroyed) return undefined;
    await this.page.views.settle();
    this.ply = ply;
    this.page.renderAll();
    if (animate && before && before.ply === ply - 1 && frame.events?.length) {
      this.page.el.board.dataset.animating = "true";
      try {
        await this.page.mod.animate(this.page.el.board, frame.events, before.board, { signal: new AbortController().signal, fast: () => false });
      } finally {
        delete this.page.el.board.dataset.animating;
      }
      if (this.ply === ply) this.page.renderAll();
    }
    return undefined;
  }

  step(delta) {
    const last = (this.page.latest?.moves || []).length;
    const from = this.ply === null ? last : this.ply;
    return this.show(from + delta, { animate: delta === 1 });
  }

  leave() {
    if (this.ply === null) return;
    this.ply = null;
    this.page.renderAll();
  }

  /** The board of the browsed position, drawn by the game's module with nothing to play. */
  draw(view) {
    const frame = this.frames.get(this.ply);
    if (!frame) return;
    const page = this.page;
    page.mod.render(page.el.board, frame.board, {
      legal: [],
      turn: -1,
      last: frame.move,
      events: frame.events || [],
      seatNames: seatWords(view),
      perspective: page.perspective(),
      onSquare: () => {},
      onMove: () => {},
      label: t("game.browse.board_label", { title: titleWord(view.game, view.title), ply: String(this.ply) }),
    });
    page.el.board.dataset.version = String(view.version);
    page.el.board.dataset.browsing = String(this.ply);
    page.el.board.classList.remove("my-turn");
    page.el.info.hidden = true;
  }

  /** The bar over the board while browsing: which move, the steps, and back to the live position. */
  renderBar(view) {
    const bar = this.page.el.browseBar;
    if (this.ply === null) {
      bar.hidden = true;
      bar.replaceChildren();
      delete this.page.el.board.dataset.browsing;
      return;
    }
    const last = (view.moves || []).length;
    const frame = this.frames.get(this.ply);
    const who = frame && frame.player !== null && frame.player >= 0 ? seatWord(view.game, frame.player, view.seats?.[frame.player]?.name) : null;
    const at = { ply: String(this.ply), last: String(last), who, move: frame?.move };
    const text = this.ply === 0 ? t("game.browse.start") : !frame?.move ? t("game.browse.after", at)
      : who ? t("game.browse.after_who", at) : t("game.browse.after_move", at);
    const button = (label, name, testid, onclick, disabled = false) =>
      h("button", { type: "button", class: "btn small", "data-testid": testid, "aria-label": name, title: name, onclick, disabled }, label);
    replace(bar,
      h("span", { class: "browse-text", "data-testid": "browse-text" }, text),
      button(icon("prev"), t("game.browse.back"), "browse-back", () => this.step(-1), this.ply === 0),
      button(icon("next"), t("game.browse.forward"), "browse-forward", () => this.step(1)),
      h("button", { type: "button", class: "btn primary small", "data-testid": "browse-live", onclick: () => this.leave() },
        t("game.browse.live")));
    bar.hidden = false;
  }

  /** Keys while browsing (or from the move list): ← → step, Home the start, End and Escape the live position.
   * Whether the key was taken. */
  key(event) {
    if (!this.active && !this.page.el.moves.contains(event.target)) return false;
    const actions = { ArrowLeft: () => this.step(-1), ArrowRight: () => this.step(1), Home: () => this.show(0),
      End: () => this.leave(), Escape: () => this.leave() };
    const act = actions[event.key];
    if (!act || (!this.active && event.key !== "ArrowLeft" && event.key !== "Home")) return false;
    act();
    return true;
  }
}
