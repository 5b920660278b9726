// Seat colours, in seat order: Red, Blue, Green, Yellow, Purple, Orange, Cyan, White.
// The colour values live in styles.css (--p0 ... --p7, tuned per theme); this module knows names and indices.

export const SEAT_NAMES = ["Red", "Blue", "Green", "Yellow", "Purple", "Orange", "Cyan", "White"];

/** CSS colour of seat `i` (a custom property, so themes can tune it). */
export function seatColour(i) {
  return i >= 0 && i < SEAT_NAMES.length ? `var(--p${i})` : "var(--muted)";
}

/** A small round colour swatch for seat `i`. */
export function swatchStyle(i) {
  return { "--c": seatColour(i) };
}
