// Drawing the Exploding Atoms board: an SVG grid, atoms as orbs in the owner's colour, a capacity meter of pips per
// square, critical squares glowing, legal squares highlighted.
//
// The board, as the server sends it (AtomsState.board_json): {kind: "atoms", rows, cols, counts: [...],
// owners: [...], capacity: [...]}, flat row-major arrays; owners[i] is -1 for an empty square. Square names come
// from the game's client description (`opts.client.squares`).

import { svg } from "../../dom.js";
import { gameT } from "../../i18n.js";
import { squareNames } from "../grid.js";

const tk = gameT("atoms");

export const CELL = 60; // one square and its gap, in SVG units
const GAP = 4;
export const SIZE = CELL - GAP;
const LABEL = 26; // room for the coordinates
const PAD = 8;
export const ORB = 8.2;
export const ORB_Y = 25; // orbs centre inside the 56-unit square (pips below)

// orb offsets from the square's centre for 1 to 4 atoms (more are drawn as one big orb with a number)
const LAYOUTS = [
  [],
  [[0, 0]],
  [[-8.5, 0], [8.5, 0]],
  [[-8.5, 5], [8.5, 5], [0, -9.5]],
  [[-8.5, -8.5], [8.5, -8.5], [-8.5, 8.5], [8.5, 8.5]],
];

export const views = new WeakMap(); // container -> view state

/** The view drawn in `container`, built anew when there is none or its shape changed; `attach(view)` adds input. */
export function ensureView(container, board, opts, attach) {
  let view = views.get(container);
  if (!view || !container.contains(view.root) || view.rows !== board.rows || view.cols !== board.cols
      || view.compact !== !!opts.compact) {
    view = build(container, board, opts);
    if (!view.compact) attach(view);
  }
  view.opts = opts;
  return view;
}

function build(container, board, opts) {
  const { rows, cols } = board;
  const compact = !!opts.compact;
  const names = squareNames(opts.client?.squares, rows, cols);
  const margin = compact ? PAD : LABEL;
  const root = svg("svg", {
    class: `board atoms-board${compact ? " compact" : ""}`,
    viewBox: `0 0 ${margin + cols * CELL + PAD} ${margin + rows * CELL + PAD}`,
    role: compact ? "img" : "grid",
    "aria-label": opts.label || tk("board.label", { rows, cols }),
    "data-rows": rows,
    "data-cols": cols,
  });
  root.append(svg("rect", {
    class: "board-frame", x: margin - 5, y: margin - 5, width: cols * CELL + 10, height: rows * CELL + 10, rx: 14,
  }));
  if (!compact) {
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    names.files.forEach((file, c) => labels.append(svg("text", {
      x: margin + c * CELL + CELL / 2, y: margin - 11, "text-anchor": "middle",
    }, file)));
    names.ranks.forEach((rank, r) => labels.append(svg("text", {
      x: margin - 12, y: margin + r * CELL + CELL / 2, "text-anchor": "middle", "dominant-baseline": "central",
    }, rank)));
    root.append(labels);
  }
  const squares = [];
  for (let r = 0; r < rows; r++) {
    const row = svg("g", { role: compact ? null : "row" });
    for (let c = 0; c < cols; c++) {
      const parts = square(names.name(r * cols + c), r * cols + c, margin + c * CELL + GAP / 2, margin + r * CELL + GAP / 2, compact);
      row.append(parts.g);
      squares.push(parts);
    }
    root.append(row);
  }
  const fx = svg("g", { class: "fx", "aria-hidden": "true" });
  root.append(fx);
  container.replaceChildren(root);
  const view = { root, rows, cols, names, compact, squares, fx, opts, board: null, focus: -1 };
  views.set(container, view);
  return view;
}

function square(name, i, x, y, compact) {
  const g = svg("g", {
    class: "sq", transform: `translate(${x} ${y})`, "data-index": i, "data-square": name,
    "data-testid": compact ? null : `square-${name}`, role: compact ? null : "gridcell", tabindex: compact ? null : "-1",
  });
  const parts = {
    g, x, y,
    bg: svg("rect", { class: "sq-bg", width: SIZE, height: SIZE, rx: 9 }),
    tint: svg("rect", { class: "sq-tint", width: SIZE, height: SIZE, rx: 9 }),
    ring: svg("rect", { class: "sq-ring", x: 2, y: 2, width: SIZE - 4, height: SIZE - 4, rx: 7.5 }),
    glow: svg("rect", { class: "sq-glow", x: 1.5, y: 1.5, width: SIZE - 3, height: SIZE - 3, rx: 8 }),
    hint: svg("rect", { class: "sq-hint", x: 2.5, y: 2.5, width: SIZE - 5, height: SIZE - 5, rx: 7 }),
    pips: svg("g", { class: "pips" }),
    orbs: svg("g", { class: "orbs", transform: `translate(${SIZE / 2} ${ORB_Y})` }),
    last: svg("circle", { class: "sq-last", cx: 8, cy: 8, r: 3 }),
    focus: svg("rect", { class: "sq-focus", x: -1.5, y: -1.5, width: SIZE + 3, height: SIZE + 3, rx: 10.5 }),
    inner: svg("g", { class: "orbs-inner" }),
    key: null,
  };
  parts.orbs.append(parts.inner);
  g.append(parts.bg, parts.tint, parts.ring, parts.glow, parts.hint, parts.pips, parts.orbs, parts.last, parts.focus);
  return parts;
}

function drawOrbs(parts, count, owner) {
  const inner = parts.inner;
  inner.replaceChildren();
  if (count <= 0 || owner < 0) return;
  if (count < LAYOUTS.length) {
    for (const [dx, dy] of LAYOUTS[count]) inner.append(orb(dx, dy, ORB));
  } else {
    inner.append(orb(0, 0, 14.5));
    inner.append(svg("text", { class: "orb-count", x: 0, y: 0.5, "text-anchor": "middle", "dominant-baseline": "central" },
      String(count)));
  }
}

function orb(cx, cy, r) {
  return svg("g", { class: "orb" },
    svg("circle", { class: "orb-body", cx, cy, r }),
    svg("circle", { class: "orb-shine", cx: cx - r * 0.32, cy: cy - r * 0.36, r: r * 0.34 }));
}

function drawPips(parts, count, capacity) {
  parts.pips.replaceChildren();
  const spacing = 7;
  for (let j = 0; j < capacity; j++) {
    parts.pips.append(svg("circle", {
      class: j < count ? "pip on" : "pip",
      cx: SIZE / 2 + (j - (capacity - 1) / 2) * spacing, cy: SIZE - 7.5, r: 2.1,
    }));
  }
}

/** One atom short of its capacity: the next atom makes it explode (the capacity is the server's). */
export function isCritical(board, i) {
  return board.owners[i] >= 0 && board.counts[i] === board.capacity[i] - 1;
}

function squareLabel(view, board, i, names) {
  const count = board.counts[i];
  const owner = board.owners[i];
  const parts = [view.names.name(i)];
  if (owner >= 0 && count > 0) {
    parts.push(names[owner] ? tk("cell.atoms", { count, name: names[owner] })
      : tk("cell.atoms_player", { count, player: owner + 1 }));
  } else {
    parts.push(tk("cell.empty"));
  }
  parts.push(tk("cell.capacity", { capacity: board.capacity[i] }));
  if (isCritical(board, i)) parts.push(tk("cell.critical"));
  return parts.join(", ");
}

/** Draw `board` on `view` with `opts` (legal squares, turn, hint, last, seatNames). */
export function update(view, board, opts) {
  view.board = board;
  const legal = new Set(opts.legal || []);
  const names = opts.seatNames || opts.client?.seats || [];
  const interactive = !view.compact && !!opts.onSquare && legal.size > 0;
  view.root.classList.toggle("interactive", interactive);
  view.root.style.setProperty("--turn", opts.turn >= 0 ? `var(--p${opts.turn})` : "var(--frame)");
  let firstLegal = -1;
  view.squares.forEach((parts, i) => {
    const count = board.counts[i];
    const owner = count > 0 ? board.owners[i] : -1;
    const capacity = board.capacity[i];
    const key = `${count}:${owner}:${capacity}`;
    const g = parts.g;
    if (parts.key !== key) {
      parts.key = key;
      drawOrbs(parts, count, owner);
      drawPips(parts, count, capacity);
      if (owner >= 0) g.style.setProperty("--c", `var(--p${owner})`);
      else g.style.removeProperty("--c");
    }
    const name = view.names.name(i);
    const isLegal = legal.has(name);
    if (isLegal && firstLegal < 0) firstLegal = i;
    const critical = isCritical(board, i);
    g.classList.toggle("owned", owner >= 0);
    g.classList.toggle("critical", critical);
    g.classList.toggle("over", owner >= 0 && count >= capacity);
    g.classList.toggle("legal", isLegal && interactive);
    g.classList.toggle("hint", opts.hint === name);
    g.classList.toggle("last", opts.last === name);
    Object.assign(g.dataset, {
      count: String(count), owner: String(owner), capacity: String(capacity), critical: String(critical), legal: String(isLegal),
    });
    if (!view.compact) {
      g.setAttribute("aria-label", squareLabel(view, board, i, names));
      if (interactive) g.setAttribute("aria-disabled", String(!isLegal));
      else g.removeAttribute("aria-disabled");
    }
  });
  view.firstLegal = firstLegal;
  view.afterDraw?.(view);
}

/** Per seat: {atoms, squares, critical}. */
export function stats(board, players) {
  const out = Array.from({ length: players }, () => ({ atoms: 0, squares: 0, critical: 0 }));
  if (!board?.owners) return out;
  board.owners.forEach((owner, i) => {
    if (owner >= 0 && owner < players) {
      out[owner].atoms += board.counts[i];
      out[owner].squares += 1;
      if (isCritical(board, i)) out[owner].critical += 1;
    }
  });
  return out;
}

/** The centre of square `i`'s orbs, in SVG units (where a flying atom starts and lands). */
export function centre(view, i) {
  const parts = view.squares[i];
  return [parts.x + SIZE / 2, parts.y + ORB_Y];
}
