// Drawing the Jewels and Lasers board in SVG: the squares (A.. along the top, 1.. down the side, row 1 at the top),
// walls, jewels, living and dead robots, the two men (Gold, Silver), the robots' rays over the squares they light,
// and at the right border the counting columns (one per player, as tall as the board's `column`, filled from the
// bottom) with each man's explosion above his column. Two piece sets: "classic" and the colourful one.
//
// The board comes from the server (view.board_json): {kind: "jewels", rows, cols, position, to_move, next_man,
// phase: place|men|robots|over, pieces: {square: wall|jewel|robot|dead}, men: [square or null, ...], lit: [square],
// rays: [{from, to, dir}], jewels: [n, n], column, left, explosive: [bool, bool], quiet, cap, pending, moves:
// {move: what it does}, forbidden: [{square, reason, code, params}]}. Nothing here knows a rule: what is lit,
// where a man may go and why not are all sent.

import { svg } from "../../dom.js";
import { gameT } from "../../i18n.js";
import { squareNames } from "../grid.js";

const tk = gameT("jewels");

export const CELL = 40;
const INSET = 1; // half the gap between squares
const COL_W = 20; // a counting column's width
const COL_GAP = 6;
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
/** The colourful set's gems, by the square they lie on (a jewel has no colour of its own: a picture only). */
const GEMS = ["ruby", "emerald", "sapphire", "amethyst", "topaz"];

export const views = new WeakMap(); // container -> view

// ---- preferences (the rays shown, the piece set), kept in localStorage ----------------------------------------

const PREFS = { rays: "damier.jewels.rays", set: "damier.jewels.pieces" };

function stored(key, fallback) {
  try {
    return localStorage.getItem(key) || fallback;
  } catch {
    return fallback;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* a private window: the choice lasts for the page */
  }
}

export const prefs = {
  get rays() { return stored(PREFS.rays, "shown") !== "hidden"; },
  set rays(shown) { store(PREFS.rays, shown ? "shown" : "hidden"); },
  get set() { return stored(PREFS.set, "classic") === "colourful" ? "colourful" : "classic"; },
  set set(name) { store(PREFS.set, name === "colourful" ? "colourful" : "classic"); },
};

// ---- geometry --------------------------------------------------------------------------------------------------

function geometry(board, compact) {
  const rows = board.rows;
  const cols = board.cols;
  const names = squareNames({ first_rank: "top" }, rows, cols);
  const [ml, mt, mb] = compact ? [6, 6, 6] : [26, 26, 26];
  const width = cols * CELL;
  const height = rows * CELL;
  const columnsX = ml + width + 14;
  return {
    rows, cols, names, ml, mt, mb, width, height, columnsX,
    total: [columnsX + 2 * COL_W + COL_GAP + (compact ? 6 : 10), mt + height + mb],
    /** The centre of `square` in board units (inside the board group). */
    centre(square) {
      const i = names.index(square);
      return [(i % cols) * CELL + CELL / 2, Math.floor(i / cols) * CELL + CELL / 2];
    },
  };
}

// ---- pieces ----------------------------------------------------------------------------------------------------

function gemOf(square, names) {
  return GEMS[(names.index(square) * 7 + 3) % GEMS.length];
}

function wallShape() {
  return [
    svg("rect", { class: "jw-wall-body", x: -18, y: -18, width: 36, height: 36, rx: 3 }),
    svg("path", { class: "jw-wall-joints", d: "M-18 -6 H18 M-18 6 H18 M-4 -18 V-6 M8 -6 V6 M-6 6 V18" }),
  ];
}

function jewelShape(set, gem) {
  if (set === "colourful") {
    // a cut gem: a crown of facets over a pavilion, each facet its own shade of the gem's colour
    return [svg("g", { class: `jw-gem ${gem}` },
      svg("path", { class: "jw-facet f0", d: "M-14 -4 L-8 -12 L8 -12 L14 -4 Z" }),
      svg("path", { class: "jw-facet f1", d: "M-14 -4 L0 15 L-5 -4 Z" }),
      svg("path", { class: "jw-facet f2", d: "M-5 -4 L0 15 L5 -4 Z" }),
      svg("path", { class: "jw-facet f3", d: "M5 -4 L0 15 L14 -4 Z" }),
      svg("path", { class: "jw-facet f4", d: "M-8 -12 L-5 -4 L5 -4 L8 -12 Z" }),
      svg("path", { class: "jw-gem-edge", d: "M-14 -4 L-8 -12 L8 -12 L14 -4 L0 15 Z" }))];
  }
  return [
    svg("path", { class: "jw-jewel-body", d: "M0 -14 L12 -3 L0 14 L-12 -3 Z" }),
    svg("path", { class: "jw-jewel-shine", d: "M0 -14 L4 -3 L0 14 M-12 -3 H12" }),
  ];
}

function robotShape(set, dead, gem) {
  const eyes = dead
    ? [svg("path", { class: "jw-eye-x", d: "M-9 -4 L-3 2 M-3 -4 L-9 2 M3 -4 L9 2 M9 -4 L3 2" })]
    : [svg("circle", { class: `jw-eye ${set === "colourful" ? gem : ""}`, cx: -6, cy: -1, r: 3.2 }),
      svg("circle", { class: `jw-eye ${set === "colourful" ? gem : ""}`, cx: 6, cy: -1, r: 3.2 })];
  return [
    svg("path", { class: "jw-antenna", d: "M0 -11 V-17" }),
    svg("circle", { class: "jw-antenna-tip", cx: 0, cy: -17, r: 2.4 }),
    svg("rect", { class: "jw-robot-body", x: -14, y: -11, width: 28, height: 21, rx: 6 }),
    svg("rect", { class: "jw-robot-feet", x: -11, y: 10, width: 22, height: 6, rx: 2 }),
    ...eyes,
  ];
}

function manShape(seat, set) {
  const parts = [
    svg("path", { class: "jw-man-body", d: "M-11 16 Q-11 1 0 1 Q11 1 11 16 Z" }),
    svg("circle", { class: "jw-man-head", cx: 0, cy: -7, r: 7.5 }),
  ];
  if (set === "colourful") parts.push(svg("path", { class: "jw-man-hat", d: "M-8 -11 Q0 -22 8 -11 Z" }));
  return [svg("g", { class: `jw-man c${seat}` }, parts)];
}

/** A piece ("wall", "jewel", "robot", "dead") as a group on its square; `gem` picks the colourful set's colour. */
function pieceElement(geo, square, kind, set, testid) {
  const [x, y] = geo.centre(square);
  const gem = gemOf(square, geo.names);
  const shape = kind === "wall" ? wallShape() : kind === "jewel" ? jewelShape(set, gem)
    : robotShape(set, kind === "dead", gem);
  return svg("g", {
    class: `jw-piece ${kind}`, transform: `translate(${x} ${y})`, "data-square": square, "data-kind": kind,
    "data-testid": testid ? `piece-${square}` : null,
  }, svg("g", { class: "jw-move" }, shape));
}

function manElement(geo, seat, square, set, testid) {
  const [x, y] = geo.centre(square);
  return svg("g", {
    class: `jw-piece man man${seat}`, transform: `translate(${x} ${y})`, "data-square": square, "data-seat": seat,
    "data-testid": testid ? `man-${seat}` : null,
  }, svg("g", { class: "jw-move" }, manShape(seat, set)));
}

/** A man drawn round (0, 0), for marks over the board (the mirror square's ghost). */
export function manFigure(seat, set) {
  return manShape(seat, set);
}

// ---- the view --------------------------------------------------------------------------------------------------

/** The view drawn in `container`, built anew when there is none or the board's size changed; `attach(view)` adds
 * the input (not to a compact picture). */
export function ensureView(container, board, opts, attach) {
  let view = views.get(container);
  if (!view || !container.contains(view.root) || view.compact !== !!opts.compact
      || view.geo.rows !== board.rows || view.geo.cols !== board.cols) {
    view = build(container, board, opts);
    if (!view.compact) attach(view, container);
  }
  return view;
}

function build(container, board, opts) {
  const compact = !!opts.compact;
  const geo = geometry(board, compact);
  const root = svg("svg", {
    class: `board jewels-board${compact ? " compact" : ""}`, viewBox: `0 0 ${geo.total[0]} ${geo.total[1]}`,
    role: compact ? "img" : "grid", "aria-label": opts.label || tk("board.label"),
  });
  root.append(svg("rect", {
    class: "board-frame", x: geo.ml - 5, y: geo.mt - 5, width: geo.width + 10, height: geo.height + 10, rx: 10,
  }));
  if (!compact) {
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    geo.names.files.forEach((file, c) => labels.append(svg("text", {
      x: geo.ml + c * CELL + CELL / 2, y: geo.mt - 10, "text-anchor": "middle",
    }, file)));
    geo.names.ranks.forEach((rank, r) => labels.append(svg("text", {
      x: geo.ml - 15, y: geo.mt + r * CELL + CELL / 2, "text-anchor": "middle", "dominant-baseline": "central",
    }, rank)));
    root.append(labels);
  }
  const inner = svg("g", { class: "jw-inner", transform: `translate(${geo.ml} ${geo.mt})` });
  const layerNames = ["squares", "rays", "pieces", "marks", "men", "fx"];
  const layers = Object.fromEntries(layerNames.map((name) => [name, svg("g", {
    class: `jw-${name}`, "aria-hidden": name === "squares" ? null : "true",
  })]));
  inner.append(...layerNames.map((name) => layers[name]));
  root.append(inner);
  const squares = new Map();
  const rowGroups = Array.from({ length: geo.rows }, () => svg("g", { role: compact ? null : "row" }));
  layers.squares.append(...rowGroups);
  geo.names.names.forEach((name, index) => {
    const [cx, cy] = geo.centre(name);
    const size = CELL - 2 * INSET;
    const title = svg("title", {});
    const g = svg("g", {
      class: `sq ${(index % geo.cols + Math.floor(index / geo.cols)) % 2 ? "odd" : "even"}`,
      transform: `translate(${cx - size / 2} ${cy - size / 2})`,
      "data-index": index, "data-square": name, "data-testid": compact ? null : `square-${name}`,
      role: compact ? null : "gridcell", tabindex: compact ? null : "-1",
    },
    title,
    svg("rect", { class: "sq-bg", width: size, height: size, rx: 4 }),
    svg("rect", { class: "sq-lit", width: size, height: size, rx: 4 }),
    svg("rect", { class: "sq-path", width: size, height: size, rx: 4 }),
    svg("rect", { class: "sq-ring", x: 2, y: 2, width: size - 4, height: size - 4, rx: 4 }),
    svg("rect", { class: "sq-hint", x: 3, y: 3, width: size - 6, height: size - 6, rx: 3 }),
    svg("rect", { class: "sq-focus", x: -1, y: -1, width: size + 2, height: size + 2, rx: 5 }));
    rowGroups[Math.floor(index / geo.cols)].append(g);
    squares.set(name, { g, index, title });
  });
  const columns = svg("g", { class: "jw-columns" });
  root.append(columns);
  container.replaceChildren(root);
  const view = {
    root, host: root, inner, geo, squares, layers, columns, compact, opts, board: null, piecesKey: null,
    columnsKey: null, focus: -1,
  };
  views.set(container, view);
  return view;
}

// ---- drawing a board -------------------------------------------------------------------------------------------

function drawPieces(view, board) {
  const set = prefs.set;
  const key = JSON.stringify([board.pieces, board.men, set]);
  if (key === view.piecesKey) return;
  view.piecesKey = key;
  const testid = !view.compact;
  const pieces = Object.entries(board.pieces || {}).filter(([square]) => view.squares.has(square));
  view.layers.pieces.replaceChildren(...pieces.map(([square, kind]) => pieceElement(view.geo, square, kind, set, testid)));
  const men = (board.men || []).map((square, seat) => (square && view.squares.has(square)
    ? manElement(view.geo, seat, square, set, testid) : null)).filter(Boolean);
  view.layers.men.replaceChildren(...men);
  view.root.dataset.pieceSet = set;
}

/** The end of a ray: the far edge of the last square it lights. */
function rayPoints(geo, ray) {
  const [dx, dy] = STEP[ray.dir] || [0, 0];
  const [x1, y1] = geo.centre(ray.from);
  const [x2, y2] = geo.centre(ray.to);
  return [x1 + dx * CELL * 0.3, y1 + dy * CELL * 0.3, x2 + dx * CELL / 2, y2 + dy * CELL / 2];
}

export function drawRays(view, board) {
  const shown = prefs.rays;
  const layer = view.layers.rays;
  layer.replaceChildren();
  view.root.classList.toggle("rays-hidden", !shown);
  if (!view.compact) {
    layer.setAttribute("data-testid", "rays");
    layer.dataset.shown = String(shown);
    layer.dataset.count = String((board.rays || []).length);
  }
  if (!shown) return;
  for (const ray of board.rays || []) {
    if (!view.squares.has(ray.from) || !view.squares.has(ray.to)) continue;
    const [x1, y1, x2, y2] = rayPoints(view.geo, ray);
    layer.append(svg("g", { class: "jw-ray", "data-from": ray.from, "data-to": ray.to, "data-dir": ray.dir },
      svg("line", { class: "jw-ray-glow", x1, y1, x2, y2 }),
      svg("line", { class: "jw-ray-core", x1, y1, x2, y2 })));
  }
}

function bomb(x, y, live) {
  return svg("g", { class: `jw-bomb${live ? " live" : " used"}`, transform: `translate(${x} ${y})` },
    svg("circle", { class: "jw-bomb-body", cx: 0, cy: 2, r: 6.5 }),
    svg("path", { class: "jw-bomb-fuse", d: "M3 -3 Q6 -8 9 -7" }),
    live ? svg("circle", { class: "jw-bomb-spark", cx: 9, cy: -7, r: 2 }) : svg("path", { class: "jw-bomb-cross", d: "M-8 -6 L8 10" }));
}

/** The counting columns at the right border, one per player, filled from the bottom; each man's explosion above. */
function drawColumns(view, board) {
  const height = Math.max(1, Number(board.column) || board.rows);
  const counts = board.jewels || [0, 0];
  const explosive = board.explosive || [false, false];
  const key = JSON.stringify([height, counts, explosive]);
  if (key === view.columnsKey) return;
  view.columnsKey = key;
  const { geo, compact } = view;
  const cell = geo.height / height;
  const groups = [0, 1].map((seat) => {
    const x = geo.columnsX + seat * (COL_W + COL_GAP);
    const filled = Math.min(height, Number(counts[seat]) || 0);
    const g = svg("g", {
      class: `jw-column c${seat}`, "data-testid": compact ? null : `column-${seat}`,
      "data-count": String(counts[seat] ?? 0), "data-height": String(height),
    }, svg("rect", { class: "jw-column-frame", x: x - 2, y: geo.mt - 2, width: COL_W + 4, height: geo.height + 4, rx: 4 }));
    for (let k = 0; k < height; k++) {
      const y = geo.mt + geo.height - (k + 1) * cell;
      g.append(svg("rect", {
        class: `jw-column-cell${k < filled ? " full" : ""}`, x: x + 1, y: y + 1, width: COL_W - 2,
        height: Math.max(1, cell - 2), rx: 2,
      }));
    }
    if (!compact) {
      g.append(svg("text", { class: "jw-column-count", x: x + COL_W / 2, y: geo.mt + geo.height + 17, "text-anchor": "middle" },
        String(counts[seat] ?? 0)));
      const mark = bomb(x + COL_W / 2, geo.mt - 13, !!explosive[seat]);
      mark.setAttribute("data-testid", `explosive-${seat}`);
      mark.dataset.explosive = String(!!explosive[seat]);
      g.append(mark);
    }
    return g;
  });
  view.columns.replaceChildren(...groups);
}

/** "C4, jewel, lit" and so on, for the square's aria label (the input adds what a click does). */
export function squareWords(view, name) {
  const board = view.board;
  const seats = seatNames(view.opts);
  const parts = [name];
  const man = (board.men || []).indexOf(name);
  if (man >= 0) parts.push(tk("cell.man", { name: seats[man] }));
  const piece = board.pieces?.[name];
  if (piece) parts.push(tk("piece.kind", { kind: piece }));
  if (man < 0 && !piece) parts.push(tk("cell.empty"));
  if (view.lit.has(name)) parts.push(tk("cell.lit"));
  return parts;
}

export function seatNames(opts) {
  return opts?.seatNames?.length ? opts.seatNames : opts?.client?.seats || ["Gold", "Silver"];
}

/** Draw `board` on `view`: squares, rays, pieces, men and the columns; then the input's refresh. */
export function update(view, board, opts) {
  const previous = view.board;
  view.board = board;
  view.opts = opts;
  view.lit = new Set(board.lit || []);
  if (!view.compact) {
    view.root.style.setProperty("--turn", opts.turn === 0 || opts.turn === 1 ? `var(--jw-c${opts.turn})` : "var(--frame)");
  }
  const hint = board.moves?.[opts.hint];
  const hinted = hint ? [hint.from, hint.to, hint.square, hint.wall].filter(Boolean) : [];
  const last = lastSquares(opts.events);
  for (const [name, s] of view.squares) {
    const piece = board.pieces?.[name] || "";
    const man = (board.men || []).indexOf(name);
    s.g.dataset.piece = piece;
    s.g.dataset.man = man >= 0 ? String(man) : "";
    s.g.dataset.lit = String(view.lit.has(name));
    s.g.classList.toggle("lit", view.lit.has(name));
    s.g.classList.toggle("hint", hinted.includes(name));
    s.g.classList.toggle("last", last.includes(name));
  }
  drawRays(view, board);
  drawPieces(view, board);
  drawColumns(view, board);
  view.afterDraw?.(view, previous);
}

/** The squares the last man's move touched (its events), marked faintly. */
function lastSquares(events) {
  const move = (Array.isArray(events) ? events : []).find((e) => ["slide", "explosion", "place"].includes(e?.type));
  if (!move) return [];
  return [move.from, move.to, move.wall, move.square, move.mirror].filter(Boolean);
}
