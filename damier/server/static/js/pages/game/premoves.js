// Premoves: while a person waits for the other seat to move, they may choose their next move ahead, from the moves
// the server lists for them as if it were their turn (view.premove, for games whose rules offer it and whose board
// module says `premoves`). One premove at a time; the board draws it, and it is sent as soon as the turn comes. The
// server judges it then like any move: refused (no longer legal), it is dropped with a short note.
import { api } from "../../api.js";
import { showError, showMessage } from "../../messages.js";
import { t } from "../../i18n.js";

export class Premoves {
  constructor(page) {
    this.page = page;
    this.move = null; // the premove waiting to be sent (notation)
    this.plies = 0; // the moves played when it was chosen: the turn comes with more (fewer: a takeback)
  }

  /** The board module's `premove` option for `view` drawn with `board` (null: no premove can be chosen now). */
  boardOption(view, board) {
    const page = this.page;
    const ahead = view.premove;
    if (!ahead || !page.mod.premoves || board !== view.board || page.busy || page.isMyTurn(view)
        || view.status !== "active" || view.result || !page.localSeats().includes(ahead.player)) {
      return null;
    }
    return {
      legal: ahead.legal_moves || [], board: ahead.board, move: this.move,
      choose: (move) => this.choose(move), cancel: () => this.cancel(),
    };
  }

  choose(move) {
    this.move = move;
    this.plies = (this.page.shown?.moves || []).length;
    this.redraw();
  }

  /** Drop the premove waiting (a click on the board, Esc); true if there was one. */
  cancel() {
    if (!this.move) return false;
    this.move = null;
    this.redraw();
    return true;
  }

  redraw() {
    const page = this.page;
    if (page.shown && !page.views.pumping) page.drawBoard(page.shown);
  }

  /** Called as each view is shown: when the turn has come, the premove is sent (the server says if it is legal). */
  async flush() {
    const page = this.page;
    const view = page.shown;
    if (!this.move || page.busy || page.views.queue.length) return;
    if (!view || view.status !== "active" || view.result) {
      this.move = null; // the game ended before the turn came
      return;
    }
    if (!page.isMyTurn(view)) return;
    const move = this.move;
    this.move = null;
    if ((view.moves || []).length <= this.plies) { // the turn came back by a takeback, not by a move
      showMessage(t("play.premove.cancelled", { move }), "info");
      return;
    }
    page.busy = true;
    try {
      page.receive(await api.move(page.id, move, view.version, page.actingToken(view)), "move");
    } catch (err) {
      if (err.status === 422) showMessage(t("play.premove.illegal", { move }), "info");
      else if (err.status === 409) showMessage(t("play.premove.cancelled", { move }), "info");
      else showError(err);
      if (err.status === 409) page.connection.refresh();
    } finally {
      page.busy = false;
      if (!page.views.pumping) page.renderAll();
    }
  }
}
