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
