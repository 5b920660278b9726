// #/ : a card per game (picture of its board, description, new game), recent games, import a record.
import { h, icon, replace } from "../dom.js";
import { api, recent, seats } from "../api.js";
import { boardModule } from "../games/index.js";
import { showError } from "../messages.js";
import { startGame, startPuzzle, seatCount, defaultLevel, optionDefaults, levelsOf, isPuzzleGame, hasFeature } from "../session.js";
import { seatColour } from "../players.js";
import { showYours } from "./home/yours.js";
import { LobbyPanel } from "./home/lobby.js";
import { compilingNote } from "../compiling.js";
import { t } from "../i18n.js";

export async function mount(root) {
  const cards = h("div", { class: "cards", "aria-busy": "true" }, h("div", { class: "card skeleton" }));
  const yoursBox = h("section", { class: "recent yours", hidden: true, "aria-labelledby": "yours-title" });
  const lobbyBox = h("div", { class: "lobby-box" });
  const watchBox = h("div", { class: "watch-box" });
  const recentBox = h("section", { class: "recent", hidden: true, "aria-labelledby": "recent-title" });
  const [footBefore, footAfter] = t("home.foot.text", { link: "\u0000" }).split("\u0000");
  root.append(h("div", { class: "page home" },
    h("section", { class: "hero" },
      h("h1", {}, t("home.title")),
      h("p", { class: "lead" }, t("home.lead")),
      compilingNote()),
    yoursBox,
    lobbyBox,
    cards,
    watchBox,
    recentBox,
    h("section", { class: "features", "aria-label": t("home.features") },
      feature("cpu", t("home.feature.computer.title"), t("home.feature.computer.text")),
      feature("user", t("home.feature.friends.title"), t("home.feature.friends.text")),
      feature("film", t("home.feature.kept.title"), t("home.feature.kept.text"))),
    h("p", { class: "home-foot" },
      icon("upload"), ` ${footBefore}`,
      h("a", { href: "#/import", "data-testid": "import-link" }, t("home.foot.link")), footAfter)));

  let catalog;
  try {
    catalog = await api.catalog();
  } catch (err) {
    replace(cards, h("div", { class: "panel empty-state" },
      h("p", {}, t("home.catalog_error", { message: err.message })),
      h("button", { type: "button", class: "btn", onclick: () => { root.replaceChildren(); mount(root); } },
        t("home.retry"))));
    cards.removeAttribute("aria-busy");
    return;
  }
  const modules = await Promise.all(catalog.map((entry) => boardModule(entry)));
  replace(cards, catalog.map((entry, i) => gameCard(entry, modules[i])));
  cards.removeAttribute("aria-busy");
  const describe = (game, options, start) => {
    const mod = modules[catalog.findIndex((c) => c.name === game)];
    return mod ? mod.describeOptions(options || {}, { start }) : "";
  };
  const refresh = async () => showRecent(recentBox, catalog, modules, await showYours(yoursBox, describe));
  yoursBox.addEventListener("refresh", refresh);
  const lobby = new LobbyPanel(catalog, modules);
  replace(lobbyBox, lobby.el);
  replace(watchBox, lobby.watch);
  lobby.start();
  await refresh();
  return () => lobby.close();
}

function feature(name, title, text) {
  return h("div", { class: "feature" }, icon(name), h("div", {}, h("strong", {}, title), h("p", {}, text)));
}

function gameCard(entry, mod) {
  const picture = h("a", { class: "card-picture", href: `#/new/${entry.name}`, tabindex: "-1", "aria-hidden": "true" });
  mod.render(picture, mod.sample, { compact: true, label: t("home.board_label", { title: entry.title }) });
  const levels = levelsOf(entry);
  if (isPuzzleGame(entry)) return puzzleCard(entry, picture);
  const quick = h("button", {
    type: "button", class: "btn primary", "data-testid": `quick-play-${entry.name}`,
    onclick: async () => {
      quick.disabled = true;
      try {
        const options = optionDefaults(entry);
        const n = seatCount(entry, options);
        const level = defaultLevel(entry);
        await startGame(entry, options, Array.from({ length: n }, (_, i) => (i === 0 ? { kind: "human" } : { kind: "computer", level })));
      } catch (err) {
        showError(err);
        quick.disabled = false;
      }
    },
  }, icon("cpu"), t("home.card.play_computer"));
  return h("article", { class: "card game-card", "data-testid": `game-card-${entry.name}` },
    picture,
    h("div", { class: "card-body" },
      h("h2", {}, entry.title),
      h("p", { class: "meta" },
        h("span", { class: "pill" }, icon("user"), t("home.card.players", { players: entry.players })),
        levels.length ? h("span", { class: "pill", title: t("home.card.levels_title", { levels: levels.join(", ") }) }, icon("cpu"),
          t("home.card.levels", { count: levels.length })) : null),
      h("p", { class: "desc" }, entry.description),
      h("div", { class: "card-actions" },
        quick,
        h("a", { class: "btn", href: `#/new/${entry.name}`, "data-testid": `new-game-${entry.name}` }, icon("plus"), t("home.card.new_game")),
        howtoLink(entry))));
}

/** A puzzle's card: a random puzzle at once, the new-puzzle page (difficulty, the puzzle of the day, an id) and,
 * for a game with races, the race room. */
function puzzleCard(entry, picture) {
  const quick = h("button", {
    type: "button", class: "btn primary", "data-testid": `quick-play-${entry.name}`,
    onclick: async () => {
      quick.disabled = true;
      try {
        await startPuzzle(entry, { options: optionDefaults(entry) });
      } catch (err) {
        showError(err);
        quick.disabled = false;
      }
    },
  }, icon("play"), t("home.card.solve"));
  const race = hasFeature(entry, "race");
  return h("article", { class: "card game-card", "data-testid": `game-card-${entry.name}` },
    picture,
    h("div", { class: "card-body" },
      h("h2", {}, entry.title),
      h("p", { class: "meta" },
        h("span", { class: "pill" }, icon("user"), t(race ? "home.card.one_player_race" : "home.card.one_player")),
        hasFeature(entry, "hints") ? h("span", { class: "pill" }, icon("hint"), t("home.card.hints")) : null),
      h("p", { class: "desc" }, entry.description),
      h("div", { class: "card-actions" },
        quick,
        h("a", { class: "btn", href: `#/new/${entry.name}`, "data-testid": `new-game-${entry.name}` }, icon("plus"),
          t(race ? "home.card.puzzle_new_race" : "home.card.puzzle_new")),
        howtoLink(entry))));
}

/** The game's How to play page, for a game that declares one. */
function howtoLink(entry) {
  if (!hasFeature(entry, "howto")) return null;
  return h("a", { class: "btn ghost", href: `#/howto/${entry.name}`, "data-testid": `howto-link-${entry.name}` },
    icon("hint"), t("home.card.howto"));
}

/** The games this browser played lately (kept in localStorage), but for those listed under way (`listed`). */
async function showRecent(box, catalog, modules, listed = new Set()) {
  const list = recent.list().filter((g) => !listed.has(g.id)).slice(0, 6);
  box.replaceChildren();
  box.hidden = !list.length;
  if (!list.length) return;
  const items = h("ul", { class: "recent-list" });
  box.append(h("h2", { id: "recent-title" }, t("home.recent")), items);
  for (const g of list) {
    const index = catalog.findIndex((c) => c.name === g.game);
    const entry = catalog[index];
    const mod = modules[index];
    const status = h("span", { class: "recent-status" }, "…");
    const swatch = Number.isInteger(g.seat) ? h("span", { class: "swatch", style: { "--c": seatColour(g.seat) } }) : null;
    const item = h("li", { class: `game-${g.game}` },
      h("a", { href: `#/game/${encodeURIComponent(g.id)}` },
        swatch,
        h("span", { class: "recent-title" }, entry?.title || g.title || g.game),
        h("span", { class: "recent-options" }, mod ? mod.describeOptions(g.options || {}, { start: g.start }) : ""),
        status));
    items.append(item);
    api.game(g.id, seats.primaryToken(g.id)).then((view) => {
      status.textContent = statusWords(view);
      status.dataset.state = view.status;
      if (Number.isInteger(view.you) && view.player === view.you && view.status === "active") status.dataset.state = "turn";
    }).catch((err) => {
      if (err.status === 404) { recent.remove(g.id); item.remove(); } else status.textContent = "";
    });
  }
}

function statusWords(view) {
  if (view.status === "finished" || view.result) return t("home.status.finished");
  if (view.status === "replay") return t("home.status.replay");
  if (Number.isInteger(view.you) && view.player === view.you) return t("home.status.your_turn");
  return t("home.status.ply", { ply: view.version ?? view.moves?.length ?? 0 });
}
