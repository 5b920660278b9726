// The game page's buttons: undo, hint, resign, draws (games that have them), and the invitation links of the other
// people's seats (copy, "play it here", "let them play").

import { h, icon, replace } from "../../dom.js";
import { inviteUrl, seats } from "../../api.js";
import { showMessage } from "../../messages.js";
import { seatColour } from "../../players.js";
import { isPuzzle } from "./puzzle.js";

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
  // resign
  el.resign.disabled = !active || !playing;
  el.resign.classList.toggle("danger", page.resignArmed);
  const quit = isPuzzle(view) ? "Give up" : "Resign";
  el.resign.querySelector(".label").textContent = page.resignArmed ? `Really ${quit.toLowerCase()}?` : quit;
  renderDraws(page, view, active && playing);
  renderRequest(page, view, active && playing && othersAsked ? asked : [], active && playing);
}

/** Another player's proposal: a takeback asked by `askers` (seats), else a draw offered to this browser's seats. */
function renderRequest(page, view, askers, allowed) {
  const box = page.el.request;
  const words = { ...DRAW_WORDS, ...(page.mod?.client?.agreement || {}) };
  const names = (seats) => seats.map((s) => view.seats?.[s]?.name || `Player ${s + 1}`).join(" and ");
  const offerSeat = offeredBy(view);
  if (askers.length) {
    replace(box,
      h("span", { class: "request-text" }, `${names(askers)} ${askers.length > 1 ? "ask" : "asks"} to take back the last move.`),
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
