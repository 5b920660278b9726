// The home page's "Your games": the games and races this browser plays (GET /api/me: its identity cookie's seats,
// in any tab), each resumed, resigned or aborted from here, and a one-time link that carries them to another device.
import { h, icon, replace } from "../../dom.js";
import { api, raceSeats, seats } from "../../api.js";
import { showError, showMessage } from "../../messages.js";
import { seatColour, seatWord, titleWord } from "../../players.js";
import { copyLink } from "../game/controls.js";
import { t } from "../../i18n.js";

/** Fill `box` with this browser's games and races under way; `describe(game, options, start)` says a game's options
 * in words. Returns the ids listed (the recent list leaves them out). */
export async function showYours(box, describe) {
  let mine;
  try {
    mine = await api.me();
  } catch (err) {
    showError(err); // a cookie that is not valid: the server removed it, and says why
    mine = { games: [], races: [] };
  }
  const items = [...mine.games.map((g) => gameItem(box, g, describe)), ...mine.races.map((r) => raceItem(r, describe))];
  replace(box,
    h("div", { class: "yours-head" },
      h("h2", { id: "yours-title" }, t("yours.title")),
      items.length ? carryButton(box) : null),
    items.length ? h("ul", { class: "recent-list yours-list", "data-testid": "your-games" }, items) : null);
  box.hidden = !items.length;
  return new Set([...mine.games, ...mine.races].map((g) => g.id));
}

function gameItem(box, g, describe) {
  const turn = g.your_turn ? t("home.status.your_turn") : waitingFor(g);
  const resume = h("a", {
    href: `#/game/${encodeURIComponent(g.id)}`, class: "yours-resume", "data-testid": `resume-${g.id}`,
    onclick: () => seats.add(g.id, { [g.seat]: g.token }, g.seat), // this tab plays the seat from now on
  },
  h("span", { class: "swatch", style: { "--c": seatColour(g.seat) } }),
  h("span", { class: "recent-title" }, titleWord(g.game, g.title)),
  h("span", { class: "recent-options" }, describe(g.game, g.options, g.start)),
  h("span", { class: "recent-status", "data-state": g.your_turn ? "turn" : "active" }, turn));
  const end = g.abortable
    ? h("button", { type: "button", class: "btn small ghost", "data-testid": `abort-${g.id}`,
      title: t("yours.abort_title"),
      onclick: () => act(box, () => api.abort(g.id, g.token), t("yours.aborted")) }, t("yours.abort"))
    : resignButton(box, g);
  return h("li", { class: `yours-item game-${g.game}`, "data-testid": `your-game-${g.id}` }, resume, end);
}

function waitingFor(g) {
  const seat = (g.seats || [])[g.player];
  if (!seat) return "";
  const name = seatWord(g.game, g.player, seat.name);
  return t(seat.kind === "computer" ? "yours.to_play" : "yours.waiting_for", { name });
}

/** Resign asks again: a second click within 4 s. */
function resignButton(box, g) {
  const button = h("button", { type: "button", class: "btn small ghost", "data-testid": `resign-${g.id}` }, t("yours.resign"));
  let armed = null;
  button.addEventListener("click", () => {
    if (!armed) {
      button.textContent = t("yours.resign_confirm");
      button.classList.add("danger");
      armed = setTimeout(() => { armed = null; button.textContent = t("yours.resign"); button.classList.remove("danger"); }, 4000);
      return;
    }
    clearTimeout(armed);
    act(box, () => api.resign(g.id, g.token), t("yours.resigned"));
  });
  return button;
}

function raceItem(r, describe) {
  return h("li", { class: `yours-item game-${r.game}`, "data-testid": `your-race-${r.id}` },
    h("a", {
      href: `#/race/${encodeURIComponent(r.id)}`, class: "yours-resume", "data-testid": `resume-${r.id}`,
      onclick: () => { if (!raceSeats.get(r.id)) raceSeats.set(r.id, r.seat, r.token, null); },
    },
    h("span", { class: "swatch", style: { "--c": seatColour(r.seat) } }),
    h("span", { class: "recent-title" }, t("yours.race_title", { title: r.title })),
    h("span", { class: "recent-options" }, describe(r.game, r.options, null)),
    h("span", { class: "recent-status", "data-state": r.status }, t(r.status === "lobby" ? "yours.race_waiting" : "yours.race_on"))));
}

async function act(box, call, done) {
  try {
    await call();
    showMessage(done, "success");
  } catch (err) {
    showError(err);
  }
  box.dispatchEvent(new CustomEvent("refresh"));
}

/** "Play on another device": a one-time link (10 minutes) that gives this browser's identity to the one it opens in. */
function carryButton(box) {
  const place = h("div", { class: "carry", "data-testid": "carry" });
  const button = h("button", {
    type: "button", class: "btn small", "data-testid": "btn-carry",
    onclick: async () => {
      button.disabled = true;
      try {
        const made = await api.makeLink();
        const link = `${location.origin}/#/me/${encodeURIComponent(made.code)}`;
        const input = h("input", { class: "link-input", readonly: true, value: link, "data-testid": "carry-link",
          "aria-label": t("yours.carry.link_label") });
        replace(place,
          h("p", { class: "muted small" }, t("yours.carry.help", { minutes: Math.round(made.expires_in / 60) })),
          h("div", { class: "link-row" }, input,
            h("button", { type: "button", class: "btn small", onclick: (e) => copyLink(link, input, e.currentTarget) }, icon("copy"), t("yours.carry.copy"))));
      } catch (err) {
        showError(err);
      } finally {
        button.disabled = false;
      }
    },
  }, icon("upload"), t("yours.carry.button"));
  return h("div", { class: "carry-box" }, button, place);
}
