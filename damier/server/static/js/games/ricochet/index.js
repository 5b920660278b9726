// The Ricochet Robots board module (see games/index.js for the interface): drawing in draw.js, picking a robot and
// a direction in input.js, the slide in animate.js. The walls, targets, robots, the legal moves with the square
// each ends on, each slide's squares, hints and solutions come from the server; the robots' letters and names, the
// shapes and the directions from the game's client description.

import { gameT } from "../../i18n.js";
import { ensureView, update } from "./draw.js";
import { attachInput, pageKey } from "./input.js";

export { animate, animateMove } from "./animate.js";
export { pageKey };

const tk = gameT("ricochet");

export const keyHelp = [
  [["R", "G", "B", "Y"], tk("input.keys.pick")], [["←", "↑", "→", "↓"], tk("input.keys.move")],
  [["U"], tk("input.keys.undo")], [["H"], tk("input.keys.hint")],
];

/**
 * Draw `board` in `container`, or update the drawing there (the selected robot is kept). opts (see
 * games/index.js): legal (the moves playable now, in notation), onMove(move) (a move chosen; else
 * onSquare(move)), hint (a move), events (the last move's: its slide is drawn faintly), path ({moves, step,
 * boards?}: a line of moves to follow; `boards`, the server's boards after each move, place the ghosts), compact,
 * label, client.
 */
export function render(container, board, opts = {}) {
  const view = ensureView(container, board, opts, attachInput);
  update(view, board, opts);
  return view.root;
}

/** The players panel's figure: the moves used (the transparent robot's walls count). */
export function score(board, players) {
  const used = Number(board?.used ?? 0);
  return Array.from({ length: players }, () => ({ value: used, unit: tk("board.score.unit", { count: used }) }));
}

/** The puzzle in words, under the board: the target, who must reach it, the moves used. */
export function boardInfo(board) {
  const t = board?.target;
  if (!t) return "";
  const target = t.shape === "vortex" ? tk("board.info.target_vortex", { square: t.cell })
    : tk("board.info.target", { colour: t.colour, shape: t.shape, square: t.cell });
  return `${target} · ${tk("board.info.used", { count: Number(board.used ?? 0) })}`;
}

/** The moves the board lists (the server's, each with where it ends): what a race page offers the demonstrator. */
export function legalMoves(board) {
  return Array.isArray(board?.legal) ? board.legal.map((m) => m.move) : [];
}

/** The puzzle's id, to share it (the new-puzzle page takes it back): the board, the robots, the target, the rules. */
export function puzzleId(board) {
  return board?.puzzle || "";
}

/** The options in words: "Board 1A2B3C4D · 5 moves · silver robot · transparent robot". */
export function describeOptions(options = {}) {
  const parts = [];
  const board = String(options.board ?? "random");
  parts.push(board === "random" ? tk("board.options.random") : tk("board.options.board", { board }));
  if (options.difficulty !== undefined) { // not given: not said (a puzzle in play keeps its length a hint)
    const difficulty = Number(options.difficulty);
    parts.push(difficulty > 0 ? tk("board.options.moves", { count: difficulty }) : tk("board.options.any_length"));
  }
  if (options.silver) parts.push(tk("board.options.silver"));
  if (options.transparent) parts.push(tk("board.options.transparent"));
  if (options.ricochet === "if_trivial") parts.push(tk("board.options.ricochet_if_trivial"));
  if (options.ricochet === "strict") parts.push(tk("board.options.ricochet_strict"));
  if (options.rebound === false) parts.push(tk("board.options.no_rebound"));
  return parts.join(" · ");
}
