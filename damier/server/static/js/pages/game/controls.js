// The game page's buttons: undo, hint, resign, draws (games that have them), and the invitation links of the other
// people's seats (copy, "play it here", "let them play").

import { h, icon, replace } from "../../dom.js";
import { inviteUrl, seats } from "../../api.js";
import { showMessage } from "../../messages.js";
import { seatColour } from "../../players.js";
import { isPuzzle } from "./puzzle.js";
import { clockText } from "./clocks.js";

/** The action buttons for `view`, as `page` (the seats this browser plays, a hint on its way...) allows them. */
export function renderControls(page, view) {
  if (!view) return;
  const el = page.el;
  const local = page.localSeats();
  const playing = local.length > 0;
  const active = view.status === "active" && !view.result;
  el.controls.hidden = !playing && !page.mod?.canFlip; // a watcher may still turn the board round
  for (const b of [el.undo, el.hint, el.resign]) b.hidden = !playing;
  el.keys.hidden = !playing || !active;
  // undo
  const asked = (view.undo_request || []).map(Number);
  const waitingOthers = asked.length > 0 && local.every((s) => asked.includes(s));
  const othersAsked = asked.length > 0 && !waitingOthers;
  el.undo.disabled = !page.canUndo(view) || waitingOthers || othersAsked;
  el.undo.querySelector(".label").textContent = waitingOthers ? "Undo asked" : "Undo";
  // this browser's request gone with no move taken back: another player declined it
  const before = page.undoAsked;
  if (before && before.version === view.version && !asked.length) showMessage("Your takeback request was declined.", "info");
  page.undoAsked = waitingOthers ? { version: view.version } : null;
  // hint
  el.hint.hidden = !playing || view.hints_allowed === false; // between people only in a game created with hints
  el.hint.disabled = !page.isMyTurn(view) || !!page.hintPending;
  const graded = isPuzzle(view) && page.puzzle?.levels().length;
  el.hint.querySelector(".label").textContent = page.hintPending || page.puzzle?.pending ? "Thinking…" : "Hint";
  el.hint.title = graded ? "The next hint: each says more (H)" : "The hard computer's suggestion (H)";
  el.hint.classList.toggle("pending", !!page.hintPending);
  // resign, or abort while a seat has not made its first move (lichess: the game does not count then)
  const abortable = active && playing && !!view.abortable && !isPuzzle(view);
  el.abort.hidden = !abortable;
  el.resign.hidden = !playing || abortable;
  el.resign.disabled = !active || !playing;
  el.resign.classList.toggle("danger", page.resignArmed);
  const quit = isPuzzle(view) ? "Give up" : "Resign";
  el.resign.querySelector(".label").textContent = page.resignArmed ? `Really ${quit.toLowerCase()}?` : quit;
  renderDraws(page, view, active && playing && !abortable);
  renderRequest(page, view, active && playing && othersAsked ? asked : [], active && playing);
  renderStartNote(page, view);
  renderLeft(page, view);
}

/** Before the first moves: whose clock starts when, and how long a first move may wait before the game is
 * aborted (the server's `clock.first_move` and `clock.abort_in`, counted down here). */
export function renderStartNote(page, view) {
  const note = page.el.startNote;
  const clock = view.clock;
  const seat = clock && view.status === "active" && !view.result ? clock.first_move : null;
  if (seat === null || seat === undefined) {
    note.hidden = true;
    return;
  }
  const left = page.clocks.abortLeft(view);
  const within = left === null ? "" : ` within ${clockText(left)}`;
  const name = view.seats?.[seat]?.name || `Player ${seat + 1}`;
  const text = page.localSeats().includes(seat)
    ? `Make your first move${within}: your clock starts after it${left === null ? "" : ", and the game is aborted if you do not"}.`
    : `${name}'s clock starts after their first move${left === null ? "" : `; the game is aborted if they have not moved${within}`}.`;
  if (note.textContent !== text) note.textContent = text;
  note.hidden = false;
}

/** The other players left a game under way (the presence messages' `left`): once they have been gone long enough
 * (`claim_after`), this browser's player may claim the win or a draw, as on lichess. */
export function renderLeft(page, view) {
  const box = page.el.left;
  const active = view.status === "active" && !view.result && !view.abortable;
  const local = page.localSeats();
  const gone = active && local.length ? page.gone(view) : null;
  if (!gone) {
    box.hidden = true;
    box.replaceChildren();
    page.leftShown = null;
    return;
  }
  const names = gone.seats.map((s) => view.seats?.[s]?.name || `Player ${s + 1}`).join(" and ");
  const key = `${gone.seats.join(",")}:${gone.wait > 0}`;
  if (page.leftShown !== key) {
    page.leftShown = key;
    const text = h("span", { class: "request-text", "data-testid": "left-text" });
    const buttons = gone.wait > 0 ? [] : [
      h("button", { type: "button", class: "btn primary", "data-testid": "btn-claim-win", onclick: () => page.claim("win") }, "Claim the win"),
      h("button", { type: "button", class: "btn", "data-testid": "btn-claim-draw", onclick: () => page.claim("draw") }, "Call it a draw")];
    replace(box, text, buttons);
  }
  const words = gone.wait > 0
    ? `${names} left the game. You can claim the win in ${Math.ceil(gone.wait / 1000)} s, or wait for them.`
    : `${names} left the game. Claim the win, call it a draw, or wait for them.`;
  const text = box.querySelector(".request-text");
  if (text && text.textContent !== words) text.textContent = words;
  box.hidden = false;
}

/** Another player's proposal: a takeback asked by `askers` (seats), else a draw offered to this browser's seats. */
function renderRequest(page, view, askers, allowed) {
  const box = page.el.request;
  const words = { ...DRAW_WORDS, ...(page.mod?.client?.agreement || {}) };
  const names = (seats) => seats.map((s) => view.seats?.[s]?.name || `Player ${s + 1}`).join(" and ");
  const offerSeat = offeredBy(view);
  if (askers.length) {
    replace(box,
      h("span", { class: "request-text" }, takebackWords(view, askers, names)),
      h("button", { type: "button", class: "btn", "data-testid": "btn-undo-accept", onclick: () => page.undo() }, "Accept"),
      h("button", { type: "button", class: "btn ghost", "data-testid": "btn-undo-decline", onclick: () => page.declineUndo() }, "Decline"));
  } else if (allowed && view.has_draws && offerSeat !== null && !page.localSeats().includes(offerSeat)) {
    replace(box,
      h("span", { class: "request-text" }, words.request ? `${names([offerSeat])} ${words.request}` : `${names([offerSeat])} offers a draw.`),
      h("button", { type: "button", class: "btn", "data-testid": "btn-draw-accept", title: words.explain || null, onclick: () => page.draw("accept") }, words.accept),
      h("button", { type: "button", class: "btn ghost", "data-testid": "btn-draw-decline", onclick: () => page.draw("decline") }, words.decline));
  } else {
    box.replaceChildren();
  }
  box.hidden = !box.childElementCount;
}

/** What a takeback request asks: the asker's last move back, and the replies after it (`undo_keep`: the moves the
 * game keeps). */
function takebackWords(view, askers, names) {
  const asker = Number((view.undo_request || [])[0]);
  const moves = (view.moves || []).filter((m, i) => i >= (view.undo_keep ?? 0) && m.player >= 0);
  const theirs = moves.find((m) => m.player === asker);
  const replies = moves.length - 1;
  const what = theirs ? `take back their move ${theirs.move}` : "take back their last move";
  const also = replies > 0 ? ` and the ${replies === 1 ? "reply" : `${replies} replies`} after it` : "";
  const others = askers.filter((s) => s !== asker);
  const agreed = others.length ? ` ${names(others)} agreed.` : "";
  return `${names([asker])} asks to ${what}${also}.${agreed}`;
}

/** The seat whose draw offer stands, or null. */
function offeredBy(view) {
  const offer = view.draw_offer;
  if (offer === null || offer === undefined) return null;
  return Number(typeof offer === "object" ? offer.seat ?? offer.by : offer);
}

/** The draw offer's words: a draw's, or those of the game's `agreement` (its client description) when agreeing
 * ends it otherwise (say, the score decides). */
const DRAW_WORDS = { offer: "Offer a draw", accept: "Accept draw", decline: "Decline", offered: "Draw offered" };

function renderDraws(page, view, allowed) {
  const { drawBox } = page.el;
  drawBox.replaceChildren();
  const words = { ...DRAW_WORDS, ...(page.mod?.client?.agreement || {}) };
  const offerSeat = offeredBy(view);
  const mine = offerSeat !== null && page.localSeats().includes(offerSeat);
  if (page.drawOffered && offerSeat === null && allowed) showMessage(words.refused || "Your draw offer was declined.", "info");
  page.drawOffered = mine;
  if (!view.has_draws || !allowed) return;
  if (offerSeat === null || page.localSeats().includes(offerSeat)) { // an offer to this browser is in the request box
    drawBox.append(h("button", {
      type: "button", class: "btn", "data-testid": "btn-draw", disabled: offerSeat !== null, title: words.explain || null,
      onclick: () => page.draw("offer"),
    }, offerSeat !== null ? words.offered : words.offer));
  }
}

/** The Invite panel: a link per other person's seat this browser holds the token of. */
export function renderInvite(page, view) {
  const el = page.el;
  const store = seats.get(page.id);
  const primary = store.primary;
  const humans = (view.seats || []).filter((s) => s.kind === "human");
  const others = humans.map((s) => s.index ?? view.seats.indexOf(s)).filter((i) => i !== primary && store.tokens[String(i)]);
  if (humans.length < 2 || !others.length || view.status !== "active") {
    el.invite.hidden = true;
    return;
  }
  el.invite.hidden = false;
  replace(el.invite,
    h("h2", { id: "invite-title" }, "Invite"),
    h("p", { class: "muted small" }, "Send each person the link to their seat, or play a seat here (one device for several people)."),
    others.map((i) => inviteRow(page, view, store, i)));
}

function inviteRow(page, view, store, i) {
  const link = inviteUrl(page.id, i, store.tokens[String(i)]);
  const input = h("input", { class: "link-input", readonly: true, value: link, "data-testid": `invite-link-${i}`, "aria-label": `Invitation link for ${view.seats[i].name}` });
  const remote = store.remote.includes(i);
  const here = page.here?.[String(i)]; // the friend opened the link: their page is online (or away)
  return h("div", { class: "invite-row", "data-testid": `invite-row-${i}`, "data-presence": remote ? here || "offline" : "local" },
    h("div", { class: "invite-head" },
      h("span", { class: "swatch", style: { "--c": seatColour(i) } }),
      h("strong", {}, view.seats[i].name),
      h("small", { class: "muted", "data-testid": `invite-state-${i}` },
        !remote ? "played here" : here ? `joined · ${here}` : "invited · not here yet"),
      h("button", {
        type: "button", class: "link-btn", "data-testid": `invite-local-${i}`,
        onclick: () => {
          if (remote) seats.add(page.id, { [i]: store.tokens[String(i)] }, store.primary);
          else seats.markRemote(page.id, i);
          page.renderAll();
        },
      }, remote ? "play it here" : "let them play")),
    h("div", { class: "link-row" }, input,
      h("button", {
        type: "button", class: "btn small", "data-testid": `invite-copy-${i}`,
        onclick: (e) => copyLink(link, input, e.currentTarget, () => { seats.markRemote(page.id, i); page.renderAll(); }),
      }, icon("copy"), "Copy")));
}

/** Copy `text` (the link shown in `input`); `done()` once copied. */
export async function copyLink(text, input, button, done) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    input.focus();
    input.select();
    try { ok = document.execCommand("copy"); } catch { ok = false; }
  }
  if (ok) {
    showMessage("Link copied.", "success", 2000);
    if (button) {
      button.classList.add("copied");
      setTimeout(() => button.classList.remove("copied"), 1500);
    }
    done?.();
  } else {
    input.focus();
    input.select();
    showMessage("Copy the selected link by hand (the browser refused).", "info");
  }
}
