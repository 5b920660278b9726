import { t } from "./i18n.js";

// Seat colours, in seat order. The colour values live in styles.css (--p0 ... --p7, tuned per theme, and per game
// where a game retunes them); this module knows only how many there are.

export const SEAT_COLOURS = 8;

/** CSS colour of seat `i` (a custom property, so themes can tune it). */
export function seatColour(i) {
  return i >= 0 && i < SEAT_COLOURS ? `var(--p${i})` : "var(--muted)";
}

/** A small round colour swatch for seat `i`. */
export function swatchStyle(i) {
  return { "--c": seatColour(i) };
}

// Seat names in the page's language: a game's seats are named by the game ("Silver", "Red"), and the catalog
// (GET /api/catalog?lang=...) says those names in the player's language; a view names them in English.
const SEAT_NAMES = new Map(); // game -> [name of seat 0, ...]
const TITLES = new Map(); // game -> its title in the page's language

/** Keep the seat names and titles of the catalog's games (api.catalog does, once loaded). */
export function learnSeatNames(entries) {
  for (const entry of entries || []) {
    if (Array.isArray(entry.client?.seats)) SEAT_NAMES.set(entry.name, entry.client.seats);
    if (entry.title) TITLES.set(entry.name, entry.title);
  }
}

/** Game `game`'s title in the page's language, else `fallback` (a view's, in English). */
export function titleWord(game, fallback) {
  return TITLES.get(game) ?? fallback;
}

/** Seat `i`'s name in game `game` in the page's language, else `fallback` (the view's). */
export function seatWord(game, i, fallback) {
  return SEAT_NAMES.get(game)?.[i] ?? fallback;
}

/** The names of a view's seats, in the page's language. */
export function seatWords(view) {
  return (view?.seats || []).map((s, i) => seatWord(view.game, i, s.name));
}

/** A computer level in the page's language, as a sentence says it ("easy"): the three levels every game has, else
 * its name (a game's own agent). */
export function levelWord(level) {
  if (level === "easy") return t("level.easy");
  if (level === "medium") return t("level.medium");
  if (level === "hard") return t("level.hard");
  return String(level ?? "?");
}
