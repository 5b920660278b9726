// Drawing the Micro Robots board: 36 squares in four 3 x 3 tiles (the seams between tiles drawn wide), each square
// in its colour with the colour's pattern, its number in a round chip and its colour letter in the corner (so no
// square is told by colour alone); the robot, the start, the target and the waypoint (filled once visited); the
// legal jumps, the hinted square, a path to follow (numbered steps) and the last jump's trail.
//
// The board comes from the server (view.board_json): {kind, position, puzzle, board_id, squares: [{name, colour,
// number, coordinates}] (row-major from the top-left), robot, start, target, waypoint, visited, legal, used}; the
// colours, their patterns and the tile size from the game's client description (opts.client). Nothing here knows
// the rules: where the robot may jump is the server's `legal` list.

import { svg } from "../../dom.js";
import { gameT } from "../../i18n.js";

const tk = gameT("micro");

export const CELL = 64; // a square and the gap after it, in SVG units
const GAP = 4;
export const SIZE = CELL - GAP;
const SEAM = 9; // the extra gap between two tiles
const LABEL = 24; // room for the coordinates
const PAD = 10;
const FILES = "abcdef";

export const views = new WeakMap(); // container -> view state
let drawings = 0; // each drawing's pattern ids are its own (a page shows several boards)

/** The colour entries of the description, by colour name ({letter, name, label, pattern, pattern_label}). */
function colourTable(client) {
  const table = new Map();
  for (const c of client?.colours || []) table.set(c.name, c);
  return table;
}

/** The view drawn in `container`, built anew when there is none or its kind changed; `attach(view)` adds input. */
export function ensureView(container, board, opts, attach) {
  let view = views.get(container);
  const size = Math.round(Math.sqrt((board?.squares || []).length)) || 6;
  if (!view || !container.contains(view.root) || view.compact !== !!opts.compact || view.size !== size) {
    view = build(container, size, opts);
    if (!view.compact) attach(view);
  }
  view.opts = opts;
  return view;
}

/** The top-left corner of the square in row `r`, column `c` (the seams push the second tile of a row along). */
function corner(view, r, c) {
  const tile = view.tile;
  return [view.margin + c * CELL + Math.floor(c / tile) * SEAM + GAP / 2,
    view.margin + r * CELL + Math.floor(r / tile) * SEAM + GAP / 2];
}

/** The centre of square index `i`, in SVG units. */
export function centre(view, i) {
  const [x, y] = corner(view, Math.floor(i / view.size), i % view.size);
  return [x + SIZE / 2, y + SIZE / 2];
}

/** The patterns that tell the colours apart (the description names each colour's), each in a dark ink for the light
 * colours and a light ink for the dark ones, and the arrow head of the lines drawn over the board. */
function patternDefs(prefix) {
  const shapes = {
    stripes: [12, (c) => svg("path", { class: c, d: "M-3 3 L3 -3 M0 12 L12 0 M9 15 L15 9", "stroke-width": 2.6 })],
    dots: [12, (c) => [svg("circle", { class: `${c} fill`, cx: 3, cy: 3, r: 1.9 }),
      svg("circle", { class: `${c} fill`, cx: 9, cy: 9, r: 1.9 })]],
    waves: [12, (c) => svg("path", { class: c, d: "M0 6 Q3 2 6 6 T12 6", "stroke-width": 1.8 })],
    grid: [10, (c) => svg("path", { class: c, d: "M0 0 L10 10 M10 0 L0 10", "stroke-width": 1.3 })],
    rings: [14, (c) => svg("circle", { class: c, cx: 7, cy: 7, r: 3.6, "stroke-width": 1.6 })],
  };
  const defs = svg("defs", {});
  for (const [name, [size, draw]] of Object.entries(shapes)) {
    for (const ink of ["dark", "light"]) {
      defs.append(svg("pattern", {
        id: `${prefix}-${name}-${ink}`, width: size, height: size, patternUnits: "userSpaceOnUse",
      }, draw(`mr-ink ${ink}`)));
    }
  }
  for (const kind of ["jump", "path"]) {
    defs.append(svg("marker", {
      id: `${prefix}-arrow-${kind}`, viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3, markerHeight: 3,
      orient: "auto-start-reverse",
    }, svg("path", { class: `mr-arrow-head ${kind}`, d: "M0 0 L10 5 L0 10 z" })));
  }
  return defs;
}

/** The colours whose pattern is drawn in a light ink (on the others a dark ink shows better). */
const LIGHT_INK = new Set(["red", "blue", "green"]);

function build(container, size, opts) {
  const compact = !!opts.compact;
  const tile = opts.client?.tile || 3;
  const margin = compact ? PAD : LABEL + 4;
  const seams = Math.ceil(size / tile) - 1;
  const span = size * CELL + seams * SEAM;
  const prefix = `mr${++drawings}`;
  const root = svg("svg", {
    class: `board micro-board${compact ? " compact" : ""}`,
    viewBox: `0 0 ${margin + span + PAD} ${margin + span + PAD}`,
    role: compact ? "img" : "grid",
    "aria-label": opts.label || tk("board.label"),
  });
  root.append(patternDefs(prefix));
  root.append(svg("rect", {
    class: "board-frame mr-frame", x: margin - 7, y: margin - 7, width: span + 14, height: span + 14, rx: 14,
  }));
  const view = { root, size, tile, margin, compact, prefix, squares: [], opts, board: null, focus: -1 };
  // the four tiles, each a plate under its nine squares
  for (let tr = 0; tr < size / tile; tr++) {
    for (let tc = 0; tc < size / tile; tc++) {
      const [x, y] = corner(view, tr * tile, tc * tile);
      root.append(svg("rect", {
        class: "mr-tile", x: x - GAP / 2 - 2, y: y - GAP / 2 - 2, width: tile * CELL + 4, height: tile * CELL + 4, rx: 9,
      }));
    }
  }
  if (!compact) {
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    for (let c = 0; c < size; c++) {
      const [x] = centre(view, c);
      labels.append(svg("text", { x, y: margin - 13, "text-anchor": "middle" }, FILES[c] || String(c + 1)));
    }
    for (let r = 0; r < size; r++) {
      const [, y] = centre(view, r * size);
      labels.append(svg("text", { x: margin - 17, y, "text-anchor": "middle", "dominant-baseline": "central" }, String(r + 1)));
    }
    root.append(labels);
  }
  const grid = svg("g", { class: "mr-squares" });
  for (let r = 0; r < size; r++) {
    const row = svg("g", { role: compact ? null : "row" });
    for (let c = 0; c < size; c++) {
      const parts = square(view, r * size + c, ...corner(view, r, c));
      row.append(parts.g);
      view.squares.push(parts);
    }
    grid.append(row);
  }
  root.append(grid);
  view.trail = svg("g", { class: "mr-trail", "aria-hidden": "true" });
  view.pathLayer = svg("g", { class: "mr-path", "aria-hidden": "true" });
  view.preview = svg("g", { class: "mr-preview", "aria-hidden": "true" });
  view.fx = svg("g", { class: "fx", "aria-hidden": "true" });
  view.robot = robotToken();
  view.ghost = robotToken("ghost");
  root.append(view.trail, view.pathLayer, view.preview, view.ghost.g, view.robot.g, view.fx);
  container.replaceChildren(root);
  views.set(container, view);
  return view;
}

function square(view, i, x, y) {
  const compact = view.compact;
  const g = svg("g", {
    class: "sq mr-sq", transform: `translate(${x} ${y})`, "data-index": i,
    role: compact ? null : "gridcell", tabindex: compact ? null : "-1",
  });
  const half = SIZE / 2;
  const parts = {
    g, x, y, key: null,
    bg: svg("rect", { class: "sq-bg mr-bg", width: SIZE, height: SIZE, rx: 7 }),
    pattern: svg("rect", { class: "mr-pattern", width: SIZE, height: SIZE, rx: 7 }),
    ring: svg("rect", { class: "sq-ring", x: 2, y: 2, width: SIZE - 4, height: SIZE - 4, rx: 6 }),
    hint: svg("rect", { class: "sq-hint", x: 2.5, y: 2.5, width: SIZE - 5, height: SIZE - 5, rx: 5.5 }),
    start: svg("g", { class: "mr-start" },
      svg("rect", { class: "mr-halo", x: 4, y: 4, width: SIZE - 8, height: SIZE - 8, rx: 5 }),
      svg("rect", { class: "mr-start-box", x: 4, y: 4, width: SIZE - 8, height: SIZE - 8, rx: 5 }),
      svg("path", { class: "mr-flag", d: `M${SIZE - 16} ${SIZE - 6} V${SIZE - 21} L${SIZE - 6} ${SIZE - 17.5} L${SIZE - 16} ${SIZE - 14}` })),
    target: svg("g", { class: "mr-target", transform: `translate(${half} ${half})` },
      svg("circle", { class: "mr-halo", r: 24.5 }),
      svg("circle", { class: "mr-target-outer", r: 24.5 }),
      svg("circle", { class: "mr-target-inner", r: 20 }),
      svg("path", { class: "mr-target-ticks", d: "M0 -29 V-21 M0 29 V21 M-29 0 H-21 M29 0 H21" })),
    waypoint: svg("g", { class: "mr-waypoint", transform: `translate(${half} ${half})` },
      svg("g", { class: "mr-pulse" },
        svg("rect", { class: "mr-halo", x: -17, y: -17, width: 34, height: 34, rx: 4, transform: "rotate(45)" }),
        svg("rect", { class: "mr-diamond", x: -17, y: -17, width: 34, height: 34, rx: 4, transform: "rotate(45)" })),
      svg("path", { class: "mr-check", d: "M13 -22 l4 4 l8 -9" })),
    chip: svg("circle", { class: "mr-chip", cx: half, cy: half, r: 13.5 }),
    number: svg("text", { class: "mr-number", x: half, y: half + 0.5, "text-anchor": "middle", "dominant-baseline": "central" }),
    letter: svg("text", { class: "mr-letter", x: 6, y: 6, "dominant-baseline": "hanging" }),
    step: svg("g", { class: "mr-step" },
      svg("rect", { class: "mr-step-dot", x: SIZE - 17, y: 1, width: 16, height: 16, rx: 8 }),
      svg("text", { class: "mr-step-text", x: SIZE - 9, y: 9.5, "text-anchor": "middle", "dominant-baseline": "central" })),
    dot: svg("circle", { class: "mr-legal-dot", cx: half, cy: SIZE - 8, r: 3.2 }),
    focus: svg("rect", { class: "sq-focus", x: -1.5, y: -1.5, width: SIZE + 3, height: SIZE + 3, rx: 9 }),
  };
  g.append(parts.bg, parts.pattern, parts.start, parts.target, parts.waypoint, parts.chip, parts.number, parts.letter,
    parts.ring, parts.hint, parts.dot, parts.step, parts.focus);
  return parts;
}

/** The robot: a round body with eyes and an antenna, the square's number on its chest (drawn at a square's centre). */
function robotToken(kind = "robot") {
  const body = svg("g", { class: "mr-robot-body" },
    svg("path", { class: "mr-antenna", d: "M0 -19 V-26" }),
    svg("circle", { class: "mr-antenna-tip", cx: 0, cy: -27.5, r: 3 }),
    svg("rect", { class: "mr-head", x: -18, y: -19, width: 36, height: 34, rx: 11 }),
    svg("circle", { class: "mr-eye", cx: -7, cy: -8, r: 3.6 }),
    svg("circle", { class: "mr-eye", cx: 7, cy: -8, r: 3.6 }));
  const label = svg("text", { class: "mr-robot-label", x: 0, y: 5.5, "text-anchor": "middle", "dominant-baseline": "central" });
  const move = svg("g", { class: "mr-robot-move" }, body, label);
  const g = svg("g", { class: `mr-${kind}`, "data-testid": kind === "robot" ? "robot" : null, "pointer-events": "none" }, move);
  return { g, move, label };
}

/** Put `token` (view.robot, view.ghost) on square `name` of `board`. */
export function place(view, token, name, board) {
  const i = indexOf(board, name);
  token.g.style.display = i < 0 ? "none" : "";
  if (i < 0) return;
  const [cx, cy] = centre(view, i);
  token.g.setAttribute("transform", `translate(${cx} ${cy + 2})`);
  token.label.textContent = String(board.squares[i].number);
  token.g.dataset.square = name;
}

/** The index of the square named `name` on `board` (its colour and number, e.g. "R5"), or -1. */
export function indexOf(board, name) {
  if (!name || !board?.squares) return -1;
  return board.squares.findIndex((s) => s.name === name);
}

function squareLabel(board, i, colours, marks) {
  const sq = board.squares[i];
  const colour = colours.get(sq.colour);
  const params = {
    coordinates: sq.coordinates, colour: sq.colour, label: colour?.label || sq.colour, number: String(sq.number),
    pattern: colour?.pattern, pattern_label: colour?.pattern_label,
  };
  const patterned = colour?.pattern_label && colour.pattern !== "plain";
  const parts = [patterned ? tk("board.square_pattern", params) : tk("board.square", params)];
  parts.push(...marks);
  return parts.join(", ");
}

/** A line from the centre of square `a` to the centre of square `b` (indices), shortened at both ends. */
function segment(view, a, b, cls, prefix, arrow = "jump") {
  const [x1, y1] = centre(view, a);
  const [x2, y2] = centre(view, b);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const cut = 20 / len;
  return svg("line", {
    class: cls, x1: x1 + (x2 - x1) * cut, y1: y1 + (y2 - y1) * cut, x2: x2 - (x2 - x1) * cut, y2: y2 - (y2 - y1) * cut,
    "marker-end": `url(#${prefix}-arrow-${arrow})`,
  });
}

/** Draw the jump line from the robot to square `name` (a legal jump pointed at), or clear it. */
export function showPreview(view, name) {
  view.preview.replaceChildren();
  const board = view.board;
  if (!board || !name) return;
  const from = indexOf(board, board.robot);
  const to = indexOf(board, name);
  if (from < 0 || to < 0 || from === to) return;
  view.preview.append(segment(view, from, to, "mr-preview-line", view.prefix));
  view.root.dataset.preview = name;
}

/**
 * Draw `board` on `view` with `opts`: legal (square names the robot may jump to now), hint (a square), last (the
 * last move's square), events (the last move's: its trail is drawn faintly), path ({moves, step}: a line of moves
 * to follow from the robot, `step` of them shown done: the ghost robot stands where they lead).
 */
export function update(view, board, opts) {
  view.board = board;
  const colours = colourTable(opts.client);
  const legal = new Set(opts.legal || []);
  const interactive = !view.compact && !!opts.onSquare && legal.size > 0;
  view.root.classList.toggle("interactive", interactive);
  view.root.dataset.robot = board.robot || "";
  view.root.dataset.used = String(board.used ?? 0);
  const path = opts.path && Array.isArray(opts.path.moves) ? opts.path : null;
  const steps = new Map(); // square -> the steps of the path that reach it (a path may come back to a square)
  (path?.moves || []).forEach((m, k) => steps.set(m, [...(steps.get(m) || []), k + 1]));
  let firstLegal = -1;
  view.squares.forEach((parts, i) => {
    const sq = board.squares[i];
    const colour = colours.get(sq.colour);
    const key = `${sq.name}`;
    const g = parts.g;
    if (parts.key !== key) {
      parts.key = key;
      g.dataset.colour = sq.colour;
      g.style.setProperty("--sq", `var(--mr-${sq.colour}, #888)`);
      const pattern = colour?.pattern || "plain";
      const ink = LIGHT_INK.has(sq.colour) ? "light" : "dark";
      parts.pattern.setAttribute("fill", pattern === "plain" ? "none" : `url(#${view.prefix}-${pattern}-${ink})`);
      g.dataset.pattern = pattern;
      parts.number.textContent = String(sq.number);
      parts.letter.textContent = colour?.letter || sq.name.charAt(0);
      g.dataset.square = sq.name;
      g.dataset.coordinates = sq.coordinates;
      if (!view.compact) g.setAttribute("data-testid", `square-${sq.name}`);
    }
    const name = sq.name;
    const isLegal = legal.has(name);
    if (isLegal && firstLegal < 0) firstLegal = i;
    const robot = board.robot === name;
    const start = board.start === name;
    const target = board.target === name;
    const waypoint = board.waypoint === name;
    g.classList.toggle("legal", isLegal && interactive);
    g.classList.toggle("hint", opts.hint === name);
    g.classList.toggle("last", opts.last === name);
    g.classList.toggle("robot", robot);
    g.classList.toggle("start", start);
    g.classList.toggle("target", target);
    g.classList.toggle("waypoint", waypoint);
    g.classList.toggle("visited", waypoint && !!board.visited);
    const reached = steps.get(name) || [];
    const step = reached.length ? reached[0] : 0;
    g.classList.toggle("on-path", step > 0);
    g.classList.toggle("path-done", step > 0 && !!path && reached.some((k) => k <= (path.step || 0)));
    const label = reached.join(",");
    const width = label.length > 1 ? 6 + 6 * label.length : 16; // a pill for a square the path comes back to
    parts.step.firstChild.setAttribute("x", String(SIZE - 1 - width));
    parts.step.firstChild.setAttribute("width", String(width));
    parts.step.lastChild.setAttribute("x", String(SIZE - 1 - width / 2));
    parts.step.lastChild.textContent = label;
    Object.assign(g.dataset, {
      legal: String(isLegal), robot: String(robot), start: String(start), target: String(target),
      waypoint: String(waypoint), visited: String(waypoint && !!board.visited), step: label || "0",
    });
    if (!view.compact) {
      const marks = [];
      if (robot) marks.push(tk("board.mark.robot"));
      if (start && !robot) marks.push(tk("board.mark.start"));
      if (target) marks.push(tk("board.mark.target"));
      if (waypoint) marks.push(board.visited ? tk("board.mark.waypoint_visited") : tk("board.mark.waypoint_to_visit"));
      if (isLegal) marks.push(tk("board.mark.legal"));
      if (step) {
        marks.push(tk("board.mark.step", { count: reached.length, steps: reached.join(tk("board.mark.step_and")) }));
      }
      g.setAttribute("aria-label", squareLabel(board, i, colours, marks));
      if (interactive) g.setAttribute("aria-disabled", String(!isLegal));
      else g.removeAttribute("aria-disabled");
    }
  });
  view.firstLegal = firstLegal;
  place(view, view.robot, board.robot, board);
  drawTrail(view, board, opts);
  drawPath(view, board, path);
  if (!interactive || !legal.has(view.root.dataset.preview)) {
    view.preview.replaceChildren();
    delete view.root.dataset.preview;
  }
  view.afterDraw?.(view);
}

/** The last jump, from the events the server sent with the board: a faint line from where the robot was. */
function drawTrail(view, board, opts) {
  view.trail.replaceChildren();
  const jump = (opts.events || []).find((e) => e.type === "jump");
  if (!jump || view.compact) return;
  const from = indexOf(board, jump.from);
  const to = indexOf(board, jump.to);
  if (from >= 0 && to >= 0 && from !== to) view.trail.append(segment(view, from, to, "mr-trail-line", view.prefix));
}

/** A line of moves to follow (a hint's whole path, a solution): arrows square to square from the robot, the steps
 * done solid, and the ghost robot where the steps done lead. */
function drawPath(view, board, path) {
  view.pathLayer.replaceChildren();
  view.ghost.g.style.display = "none";
  if (!path || !path.moves.length) return;
  const squares = [board.robot, ...path.moves].map((name) => indexOf(board, name));
  const done = Math.max(0, Math.min(path.step || 0, path.moves.length));
  for (let k = 1; k < squares.length; k++) {
    if (squares[k - 1] < 0 || squares[k] < 0) continue;
    const cls = `mr-path-line${k <= done ? " done" : ""}${k === done ? " current" : ""}`;
    view.pathLayer.append(segment(view, squares[k - 1], squares[k], cls, view.prefix, "path"));
  }
  if (done > 0) place(view, view.ghost, path.moves[done - 1], board);
}
