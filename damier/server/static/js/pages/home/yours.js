// The home page's "Your games": the games and races this browser plays (GET /api/me: its identity cookie's seats,
// in any tab), each resumed, resigned or aborted from here, and a one-time link that carries them to another device.
import { h, icon, replace } from "../../dom.js";
import { api, raceSeats, seats } from "../../api.js";
import { showError, showMessage } from "../../messages.js";
import { seatColour } from "../../players.js";
import { copyLink } from "../game/controls.js";

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
      h("h2", { id: "yours-title" }, "Your games"),
      items.length ? carryButton(box) : null),
    items.length ? h("ul", { class: "recent-list yours-list", "data-testid": "your-games" }, items) : null);
  box.hidden = !items.length;
  return new Set([...mine.games, ...mine.races].map((g) => g.id));
}

function gameItem(box, g, describe) {
  const turn = g.your_turn ? "your turn" : waitingFor(g);
  const resume = h("a", {
    href: `#/game/${encodeURIComponent(g.id)}`, class: "yours-resume", "data-testid": `resume-${g.id}`,
    onclick: () => seats.add(g.id, { [g.seat]: g.token }, g.seat), // this tab plays the seat from now on
  },
  h("span", { class: "swatch", style: { "--c": seatColour(g.seat) } }),
  h("span", { class: "recent-title" }, g.title),
  h("span", { class: "recent-options" }, describe(g.game, g.options, g.start)),
  h("span", { class: "recent-status", "data-state": g.your_turn ? "turn" : "active" }, turn));
  const end = g.abortable
    ? h("button", { type: "button", class: "btn small ghost", "data-testid": `abort-${g.id}`,
      title: "Call the game off (nobody has lost: not every player has moved)",
      onclick: () => act(box, () => api.abort(g.id, g.token), "The game was aborted.") }, "Abort")
    : resignButton(box, g);
  return h("li", { class: `yours-item game-${g.game}`, "data-testid": `your-game-${g.id}` }, resume, end);
}

function waitingFor(g) {
  const seat = (g.seats || [])[g.player];
  if (!seat) return "";
  return seat.kind === "computer" ? `${seat.name} to play` : `waiting for ${seat.name}`;
}

/** Resign asks again: a second click within 4 s. */
function resignButton(box, g) {
  const button = h("button", { type: "button", class: "btn small ghost", "data-testid": `resign-${g.id}` }, "Resign");
  let armed = null;
  button.addEventListener("click", () => {
    if (!armed) {
      button.textContent = "Really resign?";
      button.classList.add("danger");
      armed = setTimeout(() => { armed = null; button.textContent = "Resign"; button.classList.remove("danger"); }, 4000);
      return;
    }
    clearTimeout(armed);
    act(box, () => api.resign(g.id, g.token), "You resigned the game.");
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
    h("span", { class: "recent-title" }, `${r.title} race`),
    h("span", { class: "recent-options" }, describe(r.game, r.options, null)),
    h("span", { class: "recent-status", "data-state": r.status }, r.status === "lobby" ? "waiting to start" : "under way")));
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
          "aria-label": "Link that opens your games on another device" });
        replace(place,
          h("p", { class: "muted small" }, `Open this link on the other device within ${Math.round(made.expires_in / 60)} minutes; it works once. `
            + "Keep it to yourself: whoever opens it plays your games."),
          h("div", { class: "link-row" }, input,
            h("button", { type: "button", class: "btn small", onclick: (e) => copyLink(link, input, e.currentTarget) }, icon("copy"), "Copy")));
      } catch (err) {
        showError(err);
      } finally {
        button.disabled = false;
      }
    },
  }, icon("upload"), "Play them on another device");
  return h("div", { class: "carry-box" }, button, place);
}
