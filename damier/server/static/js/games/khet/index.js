// The Khet 2.0 board module (see games/index.js for the interface): drawing in draw.js, selection, previews and
// the bar under the board in input.js, the shot in animate.js. Boards, legal moves with what they do and their
// shots, the setups and the palette all come from the server.

import { gameT } from "../../i18n.js";
import { ensureView, update } from "./draw.js";
import { attachInput, focusSquare, squareAtPoint } from "./input.js";

const tk = gameT("khet");

export { animate } from "./animate.js";
export { pieceIcon } from "./draw.js";
export { focusSquare, squareAtPoint };

/** The board can be seen from either side (the game page offers a flip button). */
export const canFlip = true;

/** A move may be chosen ahead while the other side is to move (opts.premove: see render). */
export const premoves = true;

export const keyHelp = [
  [["←", "↑", "→", "↓"], tk("input.keys.move")], [[tk("input.keys.enter")], tk("input.keys.select_play")],
  [["[", "]"], tk("input.keys.turn")], [[tk("input.keys.esc")], tk("input.keys.cancel")],
  [["U"], tk("input.keys.undo")], [["H"], tk("input.keys.hint")],
];

/**
 * Draw `board` in `container`, or update the drawing there (the selection, focus and cursor are kept while the
 * position stays). opts (see games/index.js): legal (moves in notation), onMove(move) (a move chosen; else
 * onSquare(move)), turn, hint (a move), events (the last move's events: its squares are marked and its beam drawn
 * faintly), perspective (the seat at the bottom: 1 turns the board round), seatNames, compact, label, client;
 * edit: {onSquare(square), selected, marks} for the position editor (any square is clickable, no moves);
 * premove (no legal moves: the other side is to move): {legal, board (describing them), move (the premove chosen,
 * or null), choose(move), cancel()}.
 */
export function render(container, board, opts = {}) {
  const view = ensureView(container, board, opts, attachInput);
  update(view, board, opts);
  return view.root;
}

/** Per seat: the pieces left (the Sphinx, which is never taken, not counted). */
export function score(board, players) {
  const out = Array.from({ length: players }, () => ({ value: 0, unit: "" }));
  for (const p of board?.pieces || []) {
    if (p.kind !== "sphinx" && out[p.colour]) out[p.colour].value += 1;
  }
  for (const s of out) s.unit = tk("board.score_unit", { count: s.value });
  return out;
}

/** The options in words; `start` is the position a game began from (the view's `start`; null: the setup). */
export function describeOptions(options = {}, { start = null, client = null } = {}) {
  const setups = client?.setups || [];
  const named = (id) => setups.find((s) => s.id === id);
  let first = options.setup === undefined ? null
    : tk("board.options.setup", { setup: String(named(options.setup)?.label || options.setup) });
  if (start) {
    // a setup given by its position (or its name) is still that setup; anything else was set up by hand
    const given = String(start).trim().split(/\s+/).join(" ");
    const setup = setups.find((s) => s.id === given.toLowerCase() || s.position === given);
    first = setup ? tk("board.options.setup", { setup: String(setup.label) }) : tk("board.options.custom");
  }
  const parts = first ? [first] : [];
  if (options.repetition === "claim") parts.push(tk("board.options.repetition_claim"));
  if (options.quiet_ply_limit !== undefined) {
    const quiet = Number(options.quiet_ply_limit);
    parts.push(quiet > 0 ? tk("board.options.quiet_limit", { count: quiet }) : tk("board.options.no_quiet_limit"));
  }
  if (options.pharaoh_rotation) parts.push(tk("board.options.pharaoh_turns"));
  return parts.join(" · ");
}
