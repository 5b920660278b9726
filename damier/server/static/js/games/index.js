// Board modules, found from the catalog: a game whose catalog entry has a client description (`entry.client`, the
// game's `client` feature on the server) is drawn by the module in the folder it names, games/<module>/index.js;
// any other game by `fallback.js`, a plain grid, so a new game is listed and playable before it has a module.
//
// A module's index.js exports (see docs/web-client.md, "Board modules"):
//   render(container, board, opts), animate(container, events, before, opts), score(board, players),
//   describeOptions(options, {start, client})
// and optionally canFlip, keyHelp, pieceIcon(kind, colour, facing), squareAtPoint(container, x, y) (what the
// position editor needs), focusSquare(container, square).
// Every function that draws gets the game's client description as `opts.client`: the module knows its game's way
// of drawing, and nothing of its rules.

import * as fallback from "./fallback.js";
import { t } from "../i18n.js";

const loading = new Map(); // module folder -> promise of the module

function load(folder) {
  if (!loading.has(folder)) {
    const promise = import(`./${folder}/index.js`);
    promise.catch(() => loading.delete(folder));
    loading.set(folder, promise);
  }
  return loading.get(folder);
}

/**
 * The board module of catalog `entry`, bound to the game's client description: render, animate and describeOptions
 * receive it, and the description's presets, sample board, seat names and palette are at hand. A promise.
 */
export async function boardModule(entry) {
  const client = entry?.client || null;
  let mod = fallback;
  if (client?.module) {
    try {
      mod = await load(client.module);
    } catch (err) {
      console.error(`the board module ${client.module} could not be loaded; drawing a plain grid`, err);
    }
  }
  return {
    ...mod,
    client,
    render: (container, board, opts = {}) => mod.render(container, board, { ...opts, client }),
    animate: (container, events, before, opts = {}) => mod.animate(container, events, before, { ...opts, client }),
    describeOptions: (options = {}, extra = {}) => mod.describeOptions(options, { ...extra, client }),
    /** The names of the first `count` seats (the game's colours). */
    seatNames: (count) => Array.from({ length: count },
      (_, i) => client?.seats?.[i] || t("board.player", { n: i + 1 })),
    presets: client?.presets || [],
    sample: client?.sample || fallback.sampleBoard(),
    palette: client?.palette || null,
    setups: client?.setups || [],
  };
}
