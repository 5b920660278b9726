// Drawing the Ricochet Robots board: 16 x 16 squares, the walls as thick lines on the squares' edges, the centre
// block (showing the round's target chip), the 17 targets (each colour's circle, triangle, square and hexagon with
// the colour's letter inside, and the many-coloured vortex: shape and letter, never colour alone), the round's
// target ringed and the others dimmed, the robots as lettered tokens (the transparent one see-through), the squares
// the selected robot can reach (from the server's `legal`), a hinted move, a path to follow and the last slide.
//
// The board comes from the server (view.board_json): {kind, position, puzzle, board_id, walls: ["NW", ...] (per
// square, row-major from a1), blocked, targets: [{cell, colour, shape}], robots: {red: "j2", ...}, target: {cell,
// colour, shape}, legal: [{move, to}], used}; the robots' letters and names, the shapes and the directions from the
// game's client description (opts.client). Nothing here knows the rules: where a move ends is the server's `to`.

import { svg } from "../../dom.js";
import { gameT } from "../../i18n.js";

const tk = gameT("ricochet");

export const CELL = 40;
const LABEL = 22; // room for the coordinates
const PAD = 8;
const WALL = 5.5;

export const views = new WeakMap(); // container -> view state

/** The robots of the description ([{letter, name, label}]), with a fallback for a description without them. */
export function robotTable(client) {
  const list = client?.robots || ["red", "green", "blue", "yellow", "silver", "transparent"].map((name) => ({
    letter: name[0].toUpperCase(), name, label: name[0].toUpperCase() + name.slice(1),
  }));
  return {
    list,
    byLetter: new Map(list.map((r) => [r.letter, r])),
    byName: new Map(list.map((r) => [r.name, r])),
  };
}

/** The geometry of a direction letter: its step [dx, dy] and its name (north, east, ...). */
export const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const OPPOSITE = { N: "S", E: "W", S: "N", W: "E" };

/** A move in notation (`RN`, `TE2`): its robot letter, direction and walls passed. */
export function parseMove(move) {
  const text = String(move || "");
  return { letter: text.charAt(0), dir: text.charAt(1), passes: Number(text.slice(2) || 0) };
}

/** The square names of the description (`a1` is the top-left corner), index <-> name. */
function squareNames(client, size) {
  const files = client?.squares?.files || "abcdefghijklmnop";
  const names = Array.from({ length: size * size }, (_, i) => `${files[i % size]}${Math.floor(i / size) + 1}`);
  const index = new Map(names.map((n, i) => [n, i]));
  return { names, index: (name) => (name ? index.get(String(name)) ?? -1 : -1), files };
}

/** The top-left corner of square `i`, in SVG units. */
export function corner(view, i) {
  return [view.margin + (i % view.size) * CELL, view.margin + Math.floor(i / view.size) * CELL];
}

/** The centre of square `i`, in SVG units. */
export function centre(view, i) {
  const [x, y] = corner(view, i);
  return [x + CELL / 2, y + CELL / 2];
}

/** The view drawn in `container`, built anew when there is none or its kind changed; `attach(view)` adds input. */
export function ensureView(container, board, opts, attach) {
  let view = views.get(container);
  const size = Number(opts.client?.size) || Math.round(Math.sqrt((board?.walls || []).length)) || 16;
  if (!view || !container.contains(view.root) || view.compact !== !!opts.compact || view.size !== size) {
    view = build(container, size, opts);
    if (!view.compact) attach(view, container);
  }
  view.opts = opts;
  return view;
}

function build(container, size, opts) {
  const compact = !!opts.compact;
  const margin = compact ? PAD : LABEL + 4;
  const span = size * CELL;
  const root = svg("svg", {
    class: `board ricochet-board${compact ? " compact" : ""}`,
    viewBox: `0 0 ${margin + span + PAD} ${margin + span + PAD}`,
    role: "img",
    "aria-label": opts.label || tk("board.label"),
  });
  const names = squareNames(opts.client, size);
  const view = {
    root, size, margin, compact, names, opts, board: null, squares: [], robots: new Map(), ghosts: new Map(),
    selected: null, wallsKey: null, targetsKey: null,
  };
  root.append(svg("rect", {
    class: "board-frame rr-frame", x: margin - 8, y: margin - 8, width: span + 16, height: span + 16, rx: 10,
  }));
  if (!compact) {
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    for (let c = 0; c < size; c++) {
      labels.append(svg("text", { x: margin + (c + 0.5) * CELL, y: margin - 13, "text-anchor": "middle" }, names.files[c]));
    }
    for (let r = 0; r < size; r++) {
      labels.append(svg("text", {
        x: margin - 16, y: margin + (r + 0.5) * CELL, "text-anchor": "middle", "dominant-baseline": "central",
      }, String(r + 1)));
    }
    root.append(labels);
  }
  const grid = svg("g", { class: "rr-squares" });
  for (let i = 0; i < size * size; i++) {
    const [x, y] = corner(view, i);
    const parts = {
      g: svg("g", {
        class: "sq rr-sq", transform: `translate(${x} ${y})`, "data-index": i,
        "data-testid": compact ? null : `square-${names.names[i]}`, "data-square": names.names[i],
      }),
      bg: svg("rect", { class: "rr-bg", width: CELL, height: CELL }),
      mark: svg("g", { class: "rr-mark", transform: `translate(${CELL / 2} ${CELL / 2})` }),
      step: svg("g", { class: "rr-step" }),
    };
    parts.g.append(parts.bg, parts.mark, parts.step);
    view.squares.push(parts);
    grid.append(parts.g);
  }
  view.targetsLayer = svg("g", { class: "rr-targets", "pointer-events": "none" });
  view.centreLayer = svg("g", { class: "rr-centre", "pointer-events": "none" });
  view.wallsLayer = svg("g", { class: "rr-walls", "pointer-events": "none" });
  view.trail = svg("g", { class: "rr-trail", "aria-hidden": "true", "pointer-events": "none" });
  view.pathLayer = svg("g", { class: "rr-path", "aria-hidden": "true", "pointer-events": "none" });
  view.hintLayer = svg("g", { class: "rr-hint", "aria-hidden": "true", "pointer-events": "none" });
  view.preview = svg("g", { class: "rr-preview", "aria-hidden": "true", "pointer-events": "none" });
  view.ghostLayer = svg("g", { class: "rr-ghosts", "aria-hidden": "true", "pointer-events": "none" });
  view.robotLayer = svg("g", { class: "rr-robots" });
  view.fx = svg("g", { class: "fx", "aria-hidden": "true", "pointer-events": "none" });
  root.append(grid, view.targetsLayer, view.centreLayer, view.trail, view.pathLayer, view.hintLayer, view.preview,
    view.wallsLayer, view.ghostLayer, view.robotLayer, view.fx);
  for (const robot of robotTable(opts.client).list) {
    const token = robotToken(robot, compact ? null : `robot-${robot.name}`);
    view.robots.set(robot.name, token);
    view.robotLayer.append(token.g);
    const ghost = robotToken(robot, null, "rr-ghost");
    view.ghosts.set(robot.name, ghost);
    view.ghostLayer.append(ghost.g);
  }
  container.replaceChildren(root);
  views.set(container, view);
  return view;
}

/** A robot token, drawn at (0, 0): a round body in its colour with its letter (see-through for the transparent). */
function robotToken(robot, testid, extra = "") {
  const body = svg("g", { class: "rr-robot-body" },
    svg("circle", { class: "rr-robot-rim", r: 15.5 }),
    svg("circle", { class: "rr-robot-fill", r: 13.2 }),
    svg("circle", { class: "rr-robot-head", r: 8.6 }),
    svg("path", { class: "rr-robot-shine", d: "M-10 -3.5 A10.6 10.6 0 0 1 -2.5 -10.4" }),
    svg("text", { class: "rr-robot-letter", x: 0, y: 0.8, "text-anchor": "middle", "dominant-baseline": "central" }, robot.letter));
  const ring = svg("circle", { class: "rr-robot-ring", r: 18.5 });
  const move = svg("g", { class: "rr-robot-move" }, ring, body);
  const g = svg("g", {
    class: `rr-robot ${extra}`.trim(), "data-robot": robot.name, "data-letter": robot.letter,
    "data-testid": testid, style: { "--rc": `var(--rr-${robot.name})` },
  }, move);
  return { g, move, robot };
}

/** A target symbol at (0, 0): its shape in its colour with the colour's letter, or the vortex's four blades. */
export function targetSymbol(target, scale = 1) {
  const g = svg("g", {
    class: `rr-target-symbol shape-${target.shape}`, "data-colour": target.colour,
    transform: scale === 1 ? null : `scale(${scale})`, style: { "--tc": `var(--rr-${target.colour}, #888)` },
  });
  const shapes = {
    circle: () => svg("circle", { class: "rr-shape", r: 11.5 }),
    triangle: () => svg("path", { class: "rr-shape", d: "M0 -13 L12.5 9 L-12.5 9 Z", "stroke-linejoin": "round" }),
    square: () => svg("rect", { class: "rr-shape", x: -10.5, y: -10.5, width: 21, height: 21, rx: 2 }),
    hexagon: () => svg("path", {
      class: "rr-shape", "stroke-linejoin": "round",
      d: `M${[0, 1, 2, 3, 4, 5].map((k) => {
        const a = (Math.PI / 3) * k;
        return `${(12.5 * Math.cos(a)).toFixed(2)} ${(12.5 * Math.sin(a)).toFixed(2)}`;
      }).join(" L")} Z`,
    }),
  };
  if (target.shape === "vortex") {
    const colours = ["red", "green", "blue", "yellow"];
    g.append(svg("circle", { class: "rr-vortex-back", r: 12.5 }));
    colours.forEach((c, k) => {
      g.append(svg("path", {
        class: "rr-vortex-blade", style: { fill: `var(--rr-${c})` }, transform: `rotate(${k * 90})`,
        d: "M0 0 C 1 -6, 7 -10, 12 -6 C 8 -7, 4 -4, 0 0 Z M0 0 C 3 -3, 9 -3, 12 -6 L 12.3 -2.5 C 8 -1, 4 -1, 0 0 Z",
      }));
    });
    g.append(svg("circle", { class: "rr-vortex-eye", r: 2.6 }));
    return g;
  }
  g.append(shapes[target.shape]?.() || shapes.circle());
  g.append(svg("text", {
    class: "rr-target-letter", x: 0, y: target.shape === "triangle" ? 3 : 0.8, "text-anchor": "middle",
    "dominant-baseline": "central",
  }, String(target.colour || "?").charAt(0).toUpperCase()));
  return g;
}

/** The index of square `name` on the view's board, or -1. */
export function indexOf(view, name) {
  return view.names.index(name);
}

/** The squares a slide crosses from square `a` to square `b` on one row or column (b included), in order. */
export function lineBetween(view, a, b) {
  const [ax, ay] = [a % view.size, Math.floor(a / view.size)];
  const [bx, by] = [b % view.size, Math.floor(b / view.size)];
  if (ax !== bx && ay !== by) return [b];
  const dx = Math.sign(bx - ax);
  const dy = Math.sign(by - ay);
  const out = [];
  for (let x = ax + dx, y = ay + dy, k = 0; k < 64; x += dx, y += dy, k++) {
    out.push(y * view.size + x);
    if (x === bx && y === by) break;
  }
  return out;
}

/** The direction letter of a straight line from square `a` to square `b`, or "". */
export function directionOf(view, a, b) {
  const [dx, dy] = [b % view.size - a % view.size, Math.floor(b / view.size) - Math.floor(a / view.size)];
  if (dx && dy) return "";
  if (dy < 0) return "N";
  if (dx > 0) return "E";
  if (dy > 0) return "S";
  if (dx < 0) return "W";
  return "";
}

/** The colour a robot's lines are drawn in (the see-through robot's and the pale ones' are darker than the robot). */
export function lineColour(robot) {
  return `var(--rr-line-${robot}, var(--rr-${robot}))`;
}

/** Whether square `i` of `board` has a wall on its side `dir` (drawing data: the server's walls). */
export function hasWall(board, i, dir) {
  return String(board?.walls?.[i] || "").includes(dir);
}

/** The segment of wall on side `dir` of square `i` ([x1, y1, x2, y2], SVG units). */
export function wallSegment(view, i, dir) {
  const [x, y] = corner(view, i);
  return {
    N: [x, y, x + CELL, y], S: [x, y + CELL, x + CELL, y + CELL],
    W: [x, y, x, y + CELL], E: [x + CELL, y, x + CELL, y + CELL],
  }[dir];
}

function drawWalls(view, board) {
  const key = (board.walls || []).join(",");
  if (view.wallsKey === key) return;
  view.wallsKey = key;
  const size = view.size;
  const parts = [];
  const blocked = new Set((board.blocked || []).map((n) => indexOf(view, n)));
  for (let i = 0; i < size * size; i++) {
    const x = i % size;
    const y = Math.floor(i / size);
    // each inner wall is listed on both squares it separates: draw it from the square below or to the right
    // (none inside the centre block, which is drawn whole)
    if (y > 0 && hasWall(board, i, "N") && !(blocked.has(i) && blocked.has(i - size))) parts.push(wallSegment(view, i, "N"));
    if (x > 0 && hasWall(board, i, "W") && !(blocked.has(i) && blocked.has(i - 1))) parts.push(wallSegment(view, i, "W"));
  }
  const d = parts.map(([x1, y1, x2, y2]) => `M${x1} ${y1} L${x2} ${y2}`).join(" ");
  const span = size * CELL;
  view.wallsLayer.replaceChildren(
    svg("path", { class: "rr-wall", d, "stroke-width": WALL, "stroke-linecap": "square" }),
    svg("rect", { class: "rr-edge", x: view.margin, y: view.margin, width: span, height: span, "stroke-width": WALL }));
}

function drawTargets(view, board) {
  const key = JSON.stringify([board.targets, board.target]);
  if (view.targetsKey === key) return;
  view.targetsKey = key;
  const layer = view.targetsLayer;
  layer.replaceChildren();
  const round = board.target || null;
  for (const t of board.targets || []) {
    const i = indexOf(view, t.cell);
    if (i < 0) continue;
    const [cx, cy] = centre(view, i);
    const current = !!round && round.cell === t.cell;
    const holder = svg("g", {
      class: `rr-target${current ? " current" : ""}`, transform: `translate(${cx} ${cy})`,
      "data-cell": t.cell, "data-testid": view.compact ? null : (current ? "round-target" : null),
    });
    if (current) {
      holder.append(svg("rect", { class: "rr-target-halo", x: -CELL / 2 + 2, y: -CELL / 2 + 2, width: CELL - 4, height: CELL - 4, rx: 5 }));
    }
    holder.append(targetSymbol(t));
    layer.append(holder);
  }
  // the centre block shows the round's target chip, as the printed game does
  const ids = (view.opts.client?.centre || board.blocked || []).map((n) => indexOf(view, n)).filter((i) => i >= 0);
  view.centreLayer.replaceChildren();
  if (ids.length) {
    const xs = ids.map((i) => corner(view, i));
    const x0 = Math.min(...xs.map((p) => p[0]));
    const y0 = Math.min(...xs.map((p) => p[1]));
    const x1 = Math.max(...xs.map((p) => p[0])) + CELL;
    const y1 = Math.max(...xs.map((p) => p[1])) + CELL;
    view.centreLayer.append(svg("rect", { class: "rr-block", x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 4 }));
    if (round) {
      const chip = svg("g", { transform: `translate(${(x0 + x1) / 2} ${(y0 + y1) / 2})`, "data-testid": view.compact ? null : "centre-target" },
        svg("circle", { class: "rr-chip", r: (x1 - x0) / 2 - 7 }),
        targetSymbol(round, 1.55));
      view.centreLayer.append(chip);
    }
  }
}

/** Put `token` on square `name` (hidden when there is none). */
export function place(view, token, name) {
  const i = indexOf(view, name);
  token.g.style.display = i < 0 ? "none" : "";
  if (i < 0) {
    delete token.g.dataset.square;
    return;
  }
  const [cx, cy] = centre(view, i);
  token.g.setAttribute("transform", `translate(${cx} ${cy})`);
  token.g.dataset.square = name;
}

/** An arrow from (x1, y1) to (x2, y2), shortened at both ends, with its head: a group of class `cls`. */
export function arrow(x1, y1, x2, y2, cls, { start = 14, end = 10, head = 9 } = {}) {
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const ax = x1 + ux * start;
  const ay = y1 + uy * start;
  const bx = x2 - ux * end;
  const by = y2 - uy * end;
  const hx = bx - ux * head;
  const hy = by - uy * head;
  const px = -uy * head * 0.62;
  const py = ux * head * 0.62;
  return svg("g", { class: cls },
    svg("line", { class: "rr-arrow-line", x1: ax, y1: ay, x2: hx + ux * 1.5, y2: hy + uy * 1.5 }),
    svg("path", { class: "rr-arrow-head", d: `M${bx} ${by} L${hx + px} ${hy + py} L${hx - px} ${hy - py} Z` }));
}

/** The legal moves of `board` (the server's [{move, to}]) that `opts.legal` allows now, by robot name. */
export function movesByRobot(view, board, opts) {
  const allowed = new Set(opts.legal || []);
  const robots = robotTable(opts.client);
  const out = new Map();
  for (const entry of board.legal || []) {
    if (!allowed.has(entry.move)) continue;
    const { letter, dir, passes } = parseMove(entry.move);
    const robot = robots.byLetter.get(letter);
    if (!robot) continue;
    if (!out.has(robot.name)) out.set(robot.name, []);
    out.get(robot.name).push({ ...entry, robot: robot.name, dir, passes, index: indexOf(view, entry.to) });
  }
  const order = "NESW";
  for (const list of out.values()) list.sort((a, b) => order.indexOf(a.dir) - order.indexOf(b.dir) || a.passes - b.passes);
  return out;
}

/** The robot selected by default: the one the round's target asks for, else the first that can move. */
function defaultSelection(view, board, moves) {
  const wanted = board.target?.colour;
  if (wanted && board.robots?.[wanted] && (moves.has(wanted) || !moves.size)) return wanted;
  const first = robotTable(view.opts.client).list.find((r) => moves.has(r.name));
  return first?.name || Object.keys(board.robots || {})[0] || null;
}

/**
 * Draw `board` on `view` with `opts`: legal (the moves playable now, in notation), hint (a move), events (the last
 * move's: its slide is drawn faintly), path ({moves, step, boards?}: a line of moves to follow; `boards` are the
 * boards after each move, the server's, so the ghosts stand where the moves lead), client.
 */
export function update(view, board, opts) {
  view.board = board;
  drawWalls(view, board);
  drawTargets(view, board);
  const moves = movesByRobot(view, board, opts);
  view.moves = moves;
  const interactive = !view.compact && moves.size > 0 && (!!opts.onMove || !!opts.onSquare);
  view.interactive = interactive;
  view.root.classList.toggle("interactive", interactive);
  if (!view.selected || !board.robots?.[view.selected]) view.selected = defaultSelection(view, board, moves);
  const selected = interactive ? view.selected : null;
  const destinations = new Map((moves.get(selected) || []).map((m) => [m.index, m]));
  const robotsAt = new Map(Object.entries(board.robots || {}).map(([name, cell]) => [cell, name]));
  const steps = pathSteps(view, board, opts.path);
  const targetCell = board.target?.cell;
  view.squares.forEach((parts, i) => {
    const name = view.names.names[i];
    const dest = destinations.get(i);
    const g = parts.g;
    g.classList.toggle("legal", !!dest);
    g.classList.toggle("blocked", (board.blocked || []).includes(name));
    const key = dest ? `${dest.move}` : "";
    if (parts.markKey !== key) {
      parts.markKey = key;
      parts.mark.replaceChildren(...(dest ? destinationMark(dest) : []));
    }
    const reached = steps.get(i) || [];
    const label = reached.join(",");
    if (parts.stepKey !== label) {
      parts.stepKey = label;
      const width = label.length > 1 ? 6 + 6 * label.length : 15;
      parts.step.replaceChildren(...(label ? [
        svg("rect", { class: "rr-step-dot", x: CELL - width - 1, y: 1, width, height: 15, rx: 7.5 }),
        svg("text", { class: "rr-step-text", x: CELL - 1 - width / 2, y: 9, "text-anchor": "middle", "dominant-baseline": "central" }, label),
      ] : []));
    }
    if (!view.compact) {
      Object.assign(g.dataset, {
        legal: String(!!dest), move: dest ? dest.move : "", robot: robotsAt.get(name) || "",
        target: String(targetCell === name), walls: board.walls?.[i] || "", step: label || "0",
      });
    }
  });
  for (const [name, token] of view.robots) {
    place(view, token, board.robots?.[name]);
    const on = name === selected;
    token.g.classList.toggle("selected", on);
    token.g.classList.toggle("movable", interactive && moves.has(name));
    if (!view.compact) token.g.dataset.selected = String(on);
  }
  drawTrail(view, board, opts);
  drawHint(view, board, opts);
  drawPath(view, board, opts.path);
  const description = describeBoard(board, opts.client);
  view.root.setAttribute("aria-label", tk("board.aria", { label: opts.label || tk("board.label"), description }));
  if (!interactive) clearPreview(view);
  view.afterDraw?.(view);
}

/** The marks on a square the selected robot can reach: a ring, a chevron the way it slides, the walls it passes. */
function destinationMark(dest) {
  const rot = { N: 0, E: 90, S: 180, W: 270 }[dest.dir] || 0;
  const out = [
    svg("circle", { class: "rr-dest-ring", r: 12 }),
    svg("path", { class: "rr-dest-chevron", d: "M-6 3 L0 -4 L6 3", transform: `rotate(${rot})` }),
  ];
  if (dest.passes) {
    out.push(svg("g", { class: "rr-pass-badge", transform: "translate(10 -11)" },
      svg("rect", { x: -9, y: -6.5, width: 18, height: 13, rx: 6.5 }),
      svg("text", { x: 0, y: 0.5, "text-anchor": "middle", "dominant-baseline": "central" }, `+${dest.passes}`)));
  }
  return out;
}

/** The last slide, from the events the server sent with the board: a faint line from where the robot was. */
function drawTrail(view, board, opts) {
  view.trail.replaceChildren();
  const slide = (opts.events || []).find((e) => e.type === "slide");
  if (!slide || view.compact) return;
  const a = indexOf(view, slide.from);
  const b = indexOf(view, slide.to);
  if (a < 0 || b < 0 || a === b) return;
  view.trail.append(arrow(...centre(view, a), ...centre(view, b), "rr-trail-line", { start: 4, end: 17 }));
  view.trail.lastChild.style.setProperty("--rc", lineColour(slide.robot));
}

/** The hinted move (a move in notation): its robot ringed and a dashed arrow to where it ends (the server's `to`). */
function drawHint(view, board, opts) {
  view.hintLayer.replaceChildren();
  for (const s of view.squares) s.g.classList.remove("hint");
  if (!opts.hint || view.compact) return;
  const entry = (board.legal || []).find((m) => m.move === opts.hint);
  const robot = robotTable(opts.client).byLetter.get(parseMove(opts.hint).letter);
  if (!entry || !robot) return;
  const a = indexOf(view, board.robots?.[robot.name]);
  const b = indexOf(view, entry.to);
  if (a < 0 || b < 0) return;
  view.squares[b].g.classList.add("hint");
  const [ax, ay] = centre(view, a);
  view.hintLayer.append(svg("circle", { class: "rr-hint-ring", cx: ax, cy: ay, r: 19 }),
    arrow(ax, ay, ...centre(view, b), "rr-hint-line", { start: 20, end: 8 }));
}

/** The squares each step of a path ends on (index -> [step numbers]), from the boards after each move when the
 * page has them, else the first move's `to`. */
function pathSteps(view, board, path) {
  const out = new Map();
  if (!path || !Array.isArray(path.moves)) return out;
  pathLegs(view, board, path).forEach((leg, k) => {
    if (leg && leg.to >= 0) out.set(leg.to, [...(out.get(leg.to) || []), k + 1]);
  });
  return out;
}

/** Each move of a path as {robot, from, to} (square indices), as far as the server's boards tell. */
export function pathLegs(view, board, path) {
  const robots = robotTable(view.opts.client);
  const boards = Array.isArray(path?.boards) ? path.boards : [];
  return (path?.moves || []).map((move, k) => {
    const robot = robots.byLetter.get(parseMove(move).letter);
    if (!robot) return null;
    const before = k === 0 ? board : boards[k];
    const after = boards[k + 1];
    const from = indexOf(view, before?.robots?.[robot.name]);
    let to = indexOf(view, after?.robots?.[robot.name]);
    if (to < 0 && before) to = indexOf(view, (before.legal || []).find((m) => m.move === move)?.to);
    return from >= 0 && to >= 0 ? { robot: robot.name, from, to, move } : null;
  });
}

/** A line of moves to follow: an arrow per move in its robot's colour, the steps done solid; the robots moved by
 * the steps done stand as ghosts where those steps leave them. */
function drawPath(view, board, path) {
  view.pathLayer.replaceChildren();
  view.ghostLayer.style.display = "none";
  if (!path || !Array.isArray(path.moves) || !path.moves.length || view.compact) return;
  const done = Math.max(0, Math.min(path.step || 0, path.moves.length));
  const legs = pathLegs(view, board, path);
  legs.forEach((leg, k) => {
    if (!leg || leg.from === leg.to) return;
    const cls = `rr-path-line${k < done ? " done" : ""}${k === done - 1 ? " current" : ""}`;
    const line = arrow(...centre(view, leg.from), ...centre(view, leg.to), cls, { start: 6, end: 14 });
    line.style.setProperty("--rc", lineColour(leg.robot));
    view.pathLayer.append(line);
  });
  // where the robots stand after the steps done: each step's robot on the square its leg ends on
  const at = { ...(board.robots || {}) };
  legs.slice(0, done).forEach((leg) => { if (leg) at[leg.robot] = view.names.names[leg.to]; });
  view.ghostLayer.style.display = "";
  for (const [name, ghost] of view.ghosts) {
    place(view, ghost, at[name] && at[name] !== board.robots?.[name] ? at[name] : null);
  }
}

/** Draw the slide of `entry` (a legal move {move, to, robot}) from its robot, or clear it. */
export function showPreview(view, entry) {
  clearPreview(view);
  if (!entry || !view.board) return;
  const a = indexOf(view, view.board.robots?.[entry.robot]);
  const b = indexOf(view, entry.to);
  if (a < 0 || b < 0) return;
  const line = arrow(...centre(view, a), ...centre(view, b), "rr-preview-line", { start: 17, end: 13 });
  line.style.setProperty("--rc", lineColour(entry.robot));
  view.preview.append(line);
  // the walls the transparent robot would pass, marked on the way
  if (entry.passes) {
    for (const [i, dir] of wallsCrossed(view, view.board, a, b)) {
      const [x1, y1, x2, y2] = wallSegment(view, i, dir);
      view.preview.append(svg("line", { class: "rr-pass-mark", x1, y1, x2, y2 }));
    }
  }
  view.root.dataset.preview = entry.move;
  view.squares[b]?.g.classList.add("pointed");
}

export function clearPreview(view) {
  view.preview.replaceChildren();
  delete view.root.dataset.preview;
  for (const s of view.squares) s.g.classList.remove("pointed");
}

/** The walls a straight slide from square `a` to square `b` crosses: [[square, side]] (the drawing's walls). */
export function wallsCrossed(view, board, a, b) {
  const dir = directionOf(view, a, b);
  if (!dir) return [];
  const out = [];
  let from = a;
  for (const i of lineBetween(view, a, b)) {
    if (hasWall(board, from, dir) || hasWall(board, i, OPPOSITE[dir])) out.push([from, dir]);
    from = i;
  }
  return out;
}

/** The position in words: the round's target and where each robot stands. */
export function describeBoard(board, client) {
  if (!board?.target) return "";
  const t = board.target;
  const robots = robotTable(client).list.filter((r) => board.robots?.[r.name])
    .map((r) => tk("robot.at", { robot: r.name, label: r.label, square: board.robots[r.name] })).join(", ");
  return t.shape === "vortex" ? tk("board.describe_vortex", { square: t.cell, robots })
    : tk("board.describe", { colour: t.colour, shape: t.shape, square: t.cell, robots });
}
