// The game page's buttons: undo, hint, resign, draws (games that have them), and the invitation links of the other
// people's seats (copy, "play it here", "let them play").

import { h, icon, replace } from "../../dom.js";
import { inviteUrl, seats } from "../../api.js";
import { showMessage } from "../../messages.js";
import { seatColour, seatWord } from "../../players.js";
import { t } from "../../i18n.js";
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
  el.undo.querySelector(".label").textContent = waitingOthers ? t("play.undo.asked") : t("play.undo.button");
  // this browser's request gone with no move taken back: another player declined it
  const before = page.undoAsked;
  if (before && before.version === view.version && !asked.length) showMessage(t("play.undo.declined"), "info");
  page.undoAsked = waitingOthers ? { version: view.version } : null;
  // hint
  el.hint.hidden = !playing || view.hints_allowed === false; // between people only in a game created with hints
  el.hint.disabled = !page.isMyTurn(view) || !!page.hintPending;
  const graded = isPuzzle(view) && page.puzzle?.levels().length;
  const thinking = page.hintPending || page.puzzle?.pending;
  el.hint.querySelector(".label").textContent = thinking ? t("play.hint.thinking") : t("play.hint.button");
  el.hint.title = graded ? t("play.hint.title_graded") : t("play.hint.title");
  el.hint.classList.toggle("pending", !!page.hintPending);
  // resign, or abort while a seat has not made its first move (lichess: the game does not count then)
  const abortable = active && playing && !!view.abortable && !isPuzzle(view);
  el.abort.hidden = !abortable;
  el.resign.hidden = !playing || abortable;
  el.resign.disabled = !active || !playing;
  el.resign.classList.toggle("danger", page.resignArmed);
  const label = isPuzzle(view) ? (page.resignArmed ? "play.give_up.confirm" : "play.give_up.button")
    : page.resignArmed ? "play.resign.confirm" : "play.resign.button";
  el.resign.querySelector(".label").textContent = t(label);
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
  const time = left === null ? null : clockText(left);
  const name = seatLabel(view, seat);
  const text = page.localSeats().includes(seat)
    ? (time === null ? t("play.start.yours") : t("play.start.yours_within", { time }))
    : (time === null ? t("play.start.theirs", { name }) : t("play.start.theirs_within", { name, time }));
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
  const names = seatList(view, gone.seats);
  const count = gone.seats.length;
  const key = `${gone.seats.join(",")}:${gone.wait > 0}`;
  if (page.leftShown !== key) {
    page.leftShown = key;
    const text = h("span", { class: "request-text", "data-testid": "left-text" });
    const buttons = gone.wait > 0 ? [] : [
      h("button", { type: "button", class: "btn primary", "data-testid": "btn-claim-win", onclick: () => page.claim("win") }, t("play.left.claim_win")),
      h("button", { type: "button", class: "btn", "data-testid": "btn-claim-draw", onclick: () => page.claim("draw") }, t("play.left.claim_draw"))];
    replace(box, text, buttons);
  }
  const words = gone.wait > 0
    ? t("play.left.wait", { names, count, seconds: Math.ceil(gone.wait / 1000) })
    : t("play.left.claim", { names, count });
  const text = box.querySelector(".request-text");
  if (text && text.textContent !== words) text.textContent = words;
  box.hidden = false;
}

/** Another player's proposal: a takeback asked by `askers` (seats), else a draw offered to this browser's seats. */
function renderRequest(page, view, askers, allowed) {
  const box = page.el.request;
  const words = { ...drawWords(), ...(page.mod?.client?.agreement || {}) };
  const names = (list) => seatList(view, list);
  const offerSeat = offeredBy(view);
  if (askers.length) {
    replace(box,
      h("span", { class: "request-text" }, takebackWords(view, askers, names)),
      h("button", { type: "button", class: "btn", "data-testid": "btn-undo-accept", onclick: () => page.undo() }, t("play.request.accept")),
      h("button", { type: "button", class: "btn ghost", "data-testid": "btn-undo-decline", onclick: () => page.declineUndo() }, t("play.request.decline")));
  } else if (allowed && view.has_draws && offerSeat !== null && !page.localSeats().includes(offerSeat)) {
    replace(box,
      h("span", { class: "request-text" },
        words.request ? `${names([offerSeat])} ${words.request}` : t("play.draw.offers", { name: names([offerSeat]) })),
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
  const replies = Math.max(0, moves.length - 1);
  const name = names([asker]);
  const asks = theirs ? t("play.takeback.asks_move", { name, move: theirs.move, replies })
    : t("play.takeback.asks_last", { name, replies });
  const others = askers.filter((s) => s !== asker);
  return others.length ? `${asks} ${t("play.takeback.agreed", { names: names(others), count: others.length })}` : asks;
}

/** The seat whose draw offer stands, or null. */
function offeredBy(view) {
  const offer = view.draw_offer;
  if (offer === null || offer === undefined) return null;
  return Number(typeof offer === "object" ? offer.seat ?? offer.by : offer);
}

/** A seat's name, or "Player 2" for a seat without one. */
function seatLabel(view, seat) {
  return seatWord(view.game, seat, view.seats?.[seat]?.name) || t("play.player", { number: seat + 1 });
}

/** The names of `list` (seats): "Red and Blue". */
function seatList(view, list) {
  const names = list.map((s) => seatLabel(view, s));
  return names.length ? names.reduce((a, b) => t("play.names.and", { a, b })) : "";
}

/** The draw offer's words: a draw's, or those of the game's `agreement` (its client description) when agreeing
 * ends it otherwise (say, the score decides). */
function drawWords() {
  return {
    offer: t("play.draw.offer"), accept: t("play.draw.accept"), decline: t("play.request.decline"),
    offered: t("play.draw.offered"),
  };
}

function renderDraws(page, view, allowed) {
  const { drawBox } = page.el;
  drawBox.replaceChildren();
  const words = { ...drawWords(), ...(page.mod?.client?.agreement || {}) };
  const offerSeat = offeredBy(view);
  const mine = offerSeat !== null && page.localSeats().includes(offerSeat);
  if (page.drawOffered && offerSeat === null && allowed) showMessage(words.refused || t("play.draw.declined"), "info");
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
    h("h2", { id: "invite-title" }, t("play.invite.title")),
    h("p", { class: "muted small" }, t("play.invite.help")),
    others.map((i) => inviteRow(page, view, store, i)));
}

function inviteRow(page, view, store, i) {
  const link = inviteUrl(page.id, i, store.tokens[String(i)]);
  const input = h("input", { class: "link-input", readonly: true, value: link, "data-testid": `invite-link-${i}`, "aria-label": t("play.invite.link_label", { name: seatLabel(view, i) }) });
  const remote = store.remote.includes(i);
  const here = page.here?.[String(i)]; // the friend opened the link: their page is online (or away)
  return h("div", { class: "invite-row", "data-testid": `invite-row-${i}`, "data-presence": remote ? here || "offline" : "local" },
    h("div", { class: "invite-head" },
      h("span", { class: "swatch", style: { "--c": seatColour(i) } }),
      h("strong", {}, seatLabel(view, i)),
      h("small", { class: "muted", "data-testid": `invite-state-${i}` },
        !remote ? t("play.invite.played_here") : here ? t("play.invite.joined", { presence: here }) : t("play.invite.not_yet")),
      h("button", {
        type: "button", class: "link-btn", "data-testid": `invite-local-${i}`,
        onclick: () => {
          if (remote) seats.add(page.id, { [i]: store.tokens[String(i)] }, store.primary);
          else seats.markRemote(page.id, i);
          page.renderAll();
        },
      }, remote ? t("play.invite.play_here") : t("play.invite.let_them_play"))),
    h("div", { class: "link-row" }, input,
      h("button", {
        type: "button", class: "btn small", "data-testid": `invite-copy-${i}`,
        onclick: (e) => copyLink(link, input, e.currentTarget, () => { seats.markRemote(page.id, i); page.renderAll(); }),
      }, icon("copy"), t("play.copy.button"))));
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
    showMessage(t("play.copy.done"), "success", 2000);
    if (button) {
      button.classList.add("copied");
      setTimeout(() => button.classList.remove("copied"), 1500);
    }
    done?.();
  } else {
    input.focus();
    input.select();
    showMessage(t("play.copy.by_hand"), "info");
  }
}
