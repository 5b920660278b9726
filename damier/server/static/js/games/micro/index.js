// The Micro Robots board module (see games/index.js for the interface): drawing in draw.js, clicks and keys in
// input.js, the jump in animate.js. The board, the legal jumps, each jump's squares, hints and paths come from the
// server; the colours, their patterns and the tiles from the game's client description.

import { gameT } from "../../i18n.js";
import { ensureView, update } from "./draw.js";
import { attachInput, focusSquare } from "./input.js";

export { animate, animateMove } from "./animate.js";
export { focusSquare };

const tk = gameT("micro");

export const keyHelp = [
  [["←", "↑", "→", "↓"], tk("input.keys.move")], [[tk("input.key.enter")], tk("input.keys.jump")],
  [["U"], tk("input.keys.undo")], [["H"], tk("input.keys.hint")],
];

/**
 * Draw `board` in `container`, or update the drawing there (focus and cursor are kept). opts (see games/index.js):
 * legal (the squares the robot may jump to), onSquare(name, {legal}), hint (a square), last (the last move's
 * square), events (the last move's: its trail is drawn), path ({moves, step}: a line of moves to follow, numbered,
 * `step` of them shown done), compact, label, client.
 */
export function render(container, board, opts = {}) {
  const view = ensureView(container, board, opts, attachInput);
  update(view, board, opts);
  return view.root;
}

/** The players panel's figure: the moves used. */
export function score(board, players) {
  const used = Number(board?.used ?? 0);
  return Array.from({ length: players }, () => ({ value: used, unit: tk("board.score.unit", { count: used }) }));
}

/** The puzzle in words, under the board: the robot, the target, the waypoint and the moves used. */
export function boardInfo(board) {
  if (!board?.squares) return "";
  const parts = [tk("board.info.robot", { square: board.robot }), tk("board.info.target", { square: board.target })];
  if (board.waypoint) {
    const square = board.waypoint;
    parts.push(board.visited ? tk("board.info.waypoint_visited", { square })
      : tk("board.info.waypoint_to_visit", { square }));
  }
  parts.push(tk("board.info.used", { count: Number(board.used ?? 0) }));
  return parts.join(" · ");
}

/** The squares the robot may jump to now (the server's list in the board): what a race page offers the player
 * demonstrating. */
export function legalMoves(board) {
  return Array.isArray(board?.legal) ? board.legal : [];
}

/** The puzzle's id, to share it (the new-game page takes it back): board, start, target and waypoint. */
export function puzzleId(board) {
  return board?.puzzle || "";
}

/** The options in words: "Side A · 4 moves · expert". */
export function describeOptions(options = {}) {
  const parts = [];
  const board = String(options.board ?? "A");
  parts.push(board === "A" || board === "B" ? tk("board.options.side", { side: board })
    : board === "random" ? tk("board.options.random") : tk("board.options.board", { board }));
  if (options.difficulty !== undefined) { // not given: not said (a puzzle in play keeps its length a hint)
    const difficulty = Number(options.difficulty);
    parts.push(difficulty > 0 ? tk("board.options.moves", { count: difficulty }) : tk("board.options.any_length"));
  }
  if (options.expert) {
    parts.push(options.waypoint_pass ? tk("board.options.expert_passing") : tk("board.options.expert"));
  }
  if (options.reroll_short) parts.push(tk("board.options.no_short"));
  return parts.join(" · ");
}
