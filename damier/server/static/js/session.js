// Starting and joining games on this browser: create a game, keep its tokens, remember it in the recent list.
import { api, seats, recent } from "./api.js";
import { navigate } from "./router.js";

/** Create a game (`seatKinds`: [{kind: "human"} | {kind: "computer", level}]) and open it; `start` is a
 * position to begin from (the game's notation), null for the usual start. */
export async function startGame(catalogEntry, options, seatKinds, start = null, extra = {}) {
  const body = { game: catalogEntry.name, options, seats: seatKinds, ...extra };
  if (start) body.start = start;
  const created = await api.createGame(body);
  const tokens = created.tokens || {};
  const humanSeats = Object.keys(tokens).map(Number).sort((a, b) => a - b);
  if (humanSeats.length) {
    seats.add(created.id, tokens, humanSeats[0]);
    // the other people's seats are for the friends this browser invites; "play it here" takes one back
    for (const seat of humanSeats.slice(1)) seats.markRemote(created.id, seat);
  }
  const state = created.state || {};
  recent.add({
    id: created.id,
    game: catalogEntry.name,
    title: state.title || catalogEntry.title,
    options: state.options || options,
    start: state.start ?? start,
    seat: humanSeats.length ? humanSeats[0] : null,
  });
  navigate(`/game/${encodeURIComponent(created.id)}`);
  return created;
}

/** Start a solo puzzle of a one-player game (`body`: {options?, puzzle?, seed?, daily?}, POST /api/puzzles), keep
 * its token and open it. */
export async function startPuzzle(catalogEntry, body = {}) {
  const created = await api.createPuzzle({ game: catalogEntry.name, ...body });
  seats.add(created.id, { 0: created.token }, 0);
  const state = created.state || {};
  recent.add({
    id: created.id, game: catalogEntry.name, title: state.title || catalogEntry.title,
    options: state.options || body.options || {}, start: state.start ?? null, seat: 0,
  });
  navigate(`/game/${encodeURIComponent(created.id)}`);
  return created;
}

/** Whether catalog `entry` is a puzzle: a game for one player. */
export function isPuzzleGame(entry) {
  return String(entry?.players ?? "").trim() === "1";
}

/** Whether catalog `entry` declares a feature (its `features` list: race, hints...). */
export function hasFeature(entry, feature) {
  return Array.isArray(entry?.features) && entry.features.includes(feature);
}

/** Which seats does `token` hold in game `id`? Asks the server (the view's `you`). */
export async function seatOfToken(id, token) {
  const view = await api.game(id, token);
  return { seat: Number.isInteger(view.you) ? view.you : null, view };
}

/** How many seats a new game of `entry` with `options` has: the `players` option, else the catalog's count. */
export function seatCount(entry, options) {
  if (options && Number.isInteger(Number(options.players)) && Number(options.players) > 0) return Number(options.players);
  const m = /\d+/.exec(String(entry.players ?? "2"));
  return m ? Number(m[0]) : 2;
}

/** The default level for computer seats: "hard" when the game has it, else its last level. */
export function defaultLevel(entry) {
  const levels = levelsOf(entry);
  if (levels.includes("hard")) return "hard";
  return levels[levels.length - 1] || "hard";
}

/** The computer levels of a catalog entry (the server sends a list; a {name: spec} mapping works too). */
export function levelsOf(entry) {
  const levels = entry.levels || [];
  return Array.isArray(levels) ? levels.map(String) : Object.keys(levels);
}

export function optionDefaults(entry) {
  const out = {};
  for (const opt of entry.options || []) out[opt.name] = opt.default;
  return out;
}
