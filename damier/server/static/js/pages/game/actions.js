// The game page's actions besides moving: undo, hint, resign, draws and rematch, through the API with this
// browser's seat tokens; each answer (a view) goes to the page's view queue.

import { api, seats, recent } from "../../api.js";
import { navigate } from "../../router.js";
import { showMessage, showError } from "../../messages.js";
import { seatOfToken } from "../../session.js";
import { renderControls } from "./controls.js";
import { t } from "../../i18n.js";

/** Undo with every local seat that has not asked yet (between people on one device it happens at once). */
export async function undo(page) {
  const view = page.latest;
  if (!view || !page.canUndo(view)) return;
  await page.views.settle();
  const asked = new Set((view.undo_request || []).map(Number));
  const mine = page.localSeats().filter((s) => !asked.has(s));
  page.el.undo.disabled = true;
  try {
    let answer = null;
    for (const seat of mine.length ? mine : page.localSeats().slice(0, 1)) {
      answer = await api.undo(page.id, seats.token(page.id, seat));
    }
    answered(page, answer, "undo");
    if (answer && answer.board && (answer.undo_request || []).length && answer.version === view.version) {
      showMessage(t("game.undo_asked"), "info");
    }
  } catch (err) {
    showError(err);
  } finally {
    renderControls(page, page.latest);
  }
}

function answered(page, answer, source) {
  if (answer && answer.board) page.receive(answer, source);
  else page.connection.refresh();
}

export async function askHint(page) {
  const view = page.shown;
  if (!page.isMyTurn(view) || page.hintPending) return;
  page.hintPending = true;
  renderControls(page, view);
  try {
    const answer = await api.hint(page.id, page.actingToken(view));
    if (page.shown && page.shown.version === view.version && answer && answer.move) {
      page.hint = { square: answer.move, version: view.version };
      page.drawBoard(page.shown);
      const depth = answer.info && answer.info.depth;
      const words = depth ? t("game.hint_depth", { move: answer.move, depth }) : t("game.hint", { move: answer.move });
      showMessage(words, "info");
    }
  } catch (err) {
    showError(err);
  } finally {
    page.hintPending = false;
    renderControls(page, page.shown);
  }
}

/** Resign asks again: a second click within 4 s. */
export async function resign(page) {
  const view = page.latest;
  if (!view || view.status !== "active" || !page.localSeats().length) return;
  if (!page.resignArmed) {
    page.resignArmed = true;
    renderControls(page, view);
    page.later(() => { page.resignArmed = false; renderControls(page, page.latest); }, 4000);
    return;
  }
  page.resignArmed = false;
  try {
    answered(page, await api.resign(page.id, page.actingToken(view)), "resign");
  } catch (err) {
    showError(err);
  }
}

/** Refuse another player's takeback request. */
export async function declineUndo(page) {
  try {
    answered(page, await api.declineUndo(page.id, page.actingToken(page.latest)), "undo");
  } catch (err) {
    showError(err);
  }
}

export async function draw(page, action) {
  try {
    const answer = await api.draw(page.id, action, page.actingToken(page.latest));
    answered(page, answer, "draw");
    // the words of a draw offer the computer declined (a game's `agreement` words may say it otherwise)
    if (answer && answer.draw_declined) {
      showMessage(page.mod?.client?.agreement?.declined || t("game.draw_declined"), "info");
    }
  } catch (err) {
    showError(err);
  }
}

/** Ask once per local seat, and keep each new token for the seat the server reports; `board`: "same" (the game's
 * board again) or "new" (a new board drawn from a new seed). */
export async function rematch(page, button, board = "same") {
  const local = page.localSeats();
  if (!local.length) return;
  const primary = seats.get(page.id).primary;
  if (button) button.disabled = true;
  try {
    let newId = null;
    const tokens = {};
    let newPrimary = null;
    for (const seat of local) {
      const answer = await api.rematch(page.id, seats.token(page.id, seat), board);
      newId = answer.id;
      const { seat: newSeat } = await seatOfToken(answer.id, answer.token);
      const key = newSeat === null ? seat : newSeat;
      tokens[key] = answer.token;
      if (seat === primary || newPrimary === null) newPrimary = key;
    }
    seats.add(newId, tokens, newPrimary);
    const view = page.latest;
    recent.add({ id: newId, game: view.game, title: view.title, options: view.options, start: view.start, seat: newPrimary });
    navigate(`/game/${encodeURIComponent(newId)}`);
  } catch (err) {
    showError(err);
    if (button) button.disabled = false;
  }
}

/** Call the game off before every player has moved (nobody wins; it does not count). */
export async function abort(page) {
  const view = page.latest;
  if (!view?.abortable || !page.localSeats().length) return;
  try {
    answered(page, await api.abort(page.id, page.actingToken(view)), "abort");
  } catch (err) {
    showError(err);
  }
}

/** Claim the win, or a draw, of a game the other players left. */
export async function claim(page, result) {
  try {
    answered(page, await api.claimGame(page.id, result, page.actingToken(page.latest)), "claim");
  } catch (err) {
    showError(err);
    page.connection.refresh();
  }
}
