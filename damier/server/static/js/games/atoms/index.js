// The Exploding Atoms board module (see games/index.js for the interface): drawing in draw.js, input in input.js,
// explosions in animate.js. The boards, legal squares and each wave's board come from the server.

import { gameT } from "../../i18n.js";
import { ensureView, stats, update } from "./draw.js";
import { attachInput, focusSquare } from "./input.js";

export { animate } from "./animate.js";
export { focusSquare };

const tk = gameT("atoms");

/**
 * Draw `board` in `container`, or update the drawing already there (focus and keyboard cursor are kept).
 * opts: legal (square names playable now), onSquare(name, {legal}) (clicks, Enter/Space), turn (seat to move,
 * colours the frame), hint (a square), last (the last move's square), seatNames (aria labels), compact (a small
 * picture: no coordinates, no input), label (the SVG's aria-label), client (the game's description).
 */
export function render(container, board, opts = {}) {
  const view = ensureView(container, board, opts, attachInput);
  update(view, board, opts);
  return view.root;
}

/** The main figure per seat, for the players panel: {value, unit}. */
export function score(board, players) {
  return stats(board, players).map((s) => ({ value: s.atoms, unit: tk("board.unit", { count: s.atoms }), ...s }));
}

/** The options in words: "8×8 · 2 players". */
export function describeOptions(options = {}) {
  const parts = [];
  if (options.rows !== undefined && options.cols !== undefined) parts.push(`${options.rows}×${options.cols}`);
  if (options.players !== undefined) parts.push(tk("board.options.players", { count: options.players }));
  return parts.join(" · ");
}
