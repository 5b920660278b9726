// The registry of board modules, by game name. Every module offers the same interface (see atoms.js):
//   name, render(container, board, opts), animate(container, events, before, opts),
//   sampleBoard(), emptyBoard(options), score(board, players), presets, seatNames(options),
//   describeOptions(options, {start}) (start: the position the game began from, the view's `start`, or null)
// and optionally: canFlip (the game page offers "Flip board"), keyHelp ([[keys], words] for the keys line),
// hasEditor (a position editor at #/editor/<game>, see pages/editor.js).
// A game without a module of its own gets `fallback`, which draws any {rows, cols} board as a plain grid, so a
// new game is listed and playable by its move list until its board module is written.

import * as atoms from "./atoms.js";
import * as fallback from "./fallback.js";
import * as khet from "./khet.js";

const MODULES = { atoms, khet };

export function boardModule(game) {
  return MODULES[game] || fallback;
}

export function hasBoardModule(game) {
  return game in MODULES;
}
