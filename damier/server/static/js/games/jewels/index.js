// The Jewels and Lasers board module (see games/index.js for the interface): drawing in draw.js, placing,
// selecting and playing in input.js, a turn (the man's move and the robots' turn after it) in animate.js. The
// board, what is lit, each legal move with what it does and the squares a man may not reach come from the server.

import { gameT } from "../../i18n.js";
import { ensureView, update, views } from "./draw.js";
import { attachInput, boardKey, focusSquare } from "./input.js";

export { animate } from "./animate.js";
export { focusSquare };

const tk = gameT("jewels");

export const keyHelp = [
  [["←", "↑", "→", "↓"], tk("input.keys.move")], [[tk("input.key.enter")], tk("input.keys.select_play")],
  [[tk("input.key.esc")], tk("input.keys.cancel")], [["R"], tk("input.keys.rays")], [["U"], tk("input.keys.undo")],
  [["H"], tk("input.keys.hint")],
];

/** The seat names the last drawing was given (boardInfo gets only the board). */
let names = ["Gold", "Silver"];

/**
 * Draw `board` in `container`, or update the drawing there (the selection and cursor are kept while the position
 * stays). opts (see games/index.js): legal (moves in notation), onMove(move), turn, hint (a move), events (the last
 * turn's: its man's squares are marked), seatNames, compact, label, client.
 */
export function render(container, board, opts = {}) {
  const seats = opts.seatNames?.length ? opts.seatNames : opts.client?.seats;
  if (seats?.length) names = seats;
  const view = ensureView(container, board, opts, attachInput);
  update(view, board, opts);
  return view.host;
}

/** A key pressed anywhere on the page: R shows or hides the rays. */
export function pageKey(container, event) {
  const view = views.get(container);
  return !!view && !view.compact && boardKey(view, event.key);
}

/** Per seat: the jewels collected. */
export function score(board, players) {
  return Array.from({ length: players }, (_, seat) => {
    const value = Number(board?.jewels?.[seat] ?? 0);
    return { value, unit: tk("board.unit", { count: value }) };
  });
}

/** The position in words: "Gold 3 · Silver 2 · 11 left · explosions: Gold, Silver". */
export function boardInfo(board) {
  if (!board?.jewels) return "";
  const parts = [0, 1].map((seat) => `${names[seat]} ${board.jewels[seat] ?? 0}`);
  parts.push(tk("board.info.left", { count: board.left ?? 0 }));
  const explosive = [0, 1].filter((seat) => board.explosive?.[seat]).map((seat) => names[seat]);
  parts.push(explosive.length ? tk("board.info.explosions", { names: explosive.join(", ") })
    : tk("board.info.explosions_none"));
  if (board.cap > 0 && board.quiet > 0) {
    parts.push(tk("board.info.quiet", { quiet: String(board.quiet), cap: String(board.cap) }));
  }
  return parts.join(" · ");
}

/** The options in words: "14×14 · 16 jewels · 40 walls · 8 robots". */
export function describeOptions(options = {}) {
  const size = Number(options.size ?? 14);
  const parts = [`${size}×${size}`];
  if (options.jewels !== undefined) parts.push(tk("board.options.jewels", { count: String(options.jewels) }));
  if (options.walls !== undefined) parts.push(tk("board.options.walls", { count: String(options.walls) }));
  if (options.robots !== undefined) parts.push(tk("board.options.robots", { count: String(options.robots) }));
  if (options.robot_steps === "all") parts.push(tk("board.options.every_robot"));
  if (options.cap !== undefined) {
    parts.push(Number(options.cap) > 0 ? tk("board.options.cap", { cap: String(options.cap) })
      : tk("board.options.no_cap"));
  }
  if (options.edge_explosion) parts.push(tk("board.options.edge"));
  return parts.join(" · ");
}
