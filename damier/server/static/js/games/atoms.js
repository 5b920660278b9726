// The Exploding Atoms board: an SVG grid (A1 top-left), atoms drawn as orbs in the owner's colour, a capacity
// meter of pips per square, critical squares glowing, legal squares highlighted, explosion waves animated.
//
// Board modules share one interface (see games/index.js):
//   render(container, board, opts)            draw or update the board inside `container`
//   animate(container, events, before, opts)   play the last move's events from the board `before` it; a promise
//   sampleBoard() / emptyBoard(options)        boards for pictures (home page, new-game preview)
//   stats(board, players)                      per-seat figures for the players panel
//   presets, seatNames(options)                what the new-game form offers
//
// The board, as the server sends it: {kind: "atoms", rows, cols, counts: [...], owners: [...], capacity: [...]},
// flat row-major arrays; owners[i] is -1 for an empty square.

import { svg, wait, prefersReducedMotion } from "../dom.js";
import { SEAT_NAMES } from "../players.js";
import { squareName, squareIndex, neighbours, attachGridKeyboard, LETTERS } from "./grid.js";

export const name = "atoms";

/** Board sizes players know (rules/atoms.md). */
export const presets = [
  { label: "8×8", id: "8x8", options: { rows: 8, cols: 8 }, note: "1992 rules" },
  { label: "9×6", id: "9x6", options: { rows: 9, cols: 6 }, note: "mobile" },
  { label: "6×6", id: "6x6", options: { rows: 6, cols: 6 } },
  { label: "4×4", id: "4x4", options: { rows: 4, cols: 4 } },
  { label: "10×10", id: "10x10", options: { rows: 10, cols: 10 } },
];

export function seatNames(options = {}) {
  return SEAT_NAMES.slice(0, Number(options.players) || 2);
}

export function describeOptions(options = {}) {
  const players = Number(options.players) || 2;
  return `${options.rows ?? 8}×${options.cols ?? 8} · ${players} players`;
}

// ---- boards ---------------------------------------------------------------------------------------------------

function capacities(rows, cols) {
  const out = [];
  for (let i = 0; i < rows * cols; i++) out.push(neighbours(i, rows, cols).length);
  return out;
}

export function emptyBoard({ rows = 8, cols = 8 } = {}) {
  rows = clampSide(rows);
  cols = clampSide(cols);
  return {
    kind: "atoms", rows, cols,
    counts: new Array(rows * cols).fill(0),
    owners: new Array(rows * cols).fill(-1),
    capacity: capacities(rows, cols),
  };
}

function clampSide(n) {
  n = Number(n);
  return Number.isFinite(n) ? Math.min(26, Math.max(2, Math.round(n))) : 8;
}

/** A board from the position notation's first field: rows "/"-separated, squares ","-separated ("2r" or "."). */
export function boardFromPosition(text) {
  const rowsText = text.trim().split(/\s+/)[0].split("/");
  const grid = rowsText.map((r) => r.split(","));
  const board = emptyBoard({ rows: grid.length, cols: grid[0].length });
  grid.flat().forEach((cell, i) => {
    const m = /^(\d+)([rbgypocw])$/i.exec(cell.trim());
    if (m) {
      board.counts[i] = Number(m[1]);
      board.owners[i] = "rbgypocw".indexOf(m[2].toLowerCase());
    }
  });
  return board;
}

/** A mid-game position for the home page's picture. */
export function sampleBoard() {
  return boardFromPosition([
    "1r,.,.,.,.,.,.,1b",
    ".,2r,.,.,1b,2b,.,.",
    ".,3r,1r,.,.,3b,.,.",
    ".,.,2r,.,.,1b,.,.",
    ".,.,.,.,2b,.,.,.",
    ".,1r,.,.,.,.,2b,.",
    ".,.,2r,.,.,.,.,.",
    "1b,.,.,.,.,.,.,1r",
  ].join("/"));
}

function cloneBoard(b) {
  return { ...b, counts: [...b.counts], owners: [...b.owners], capacity: [...b.capacity] };
}

export function isCritical(board, i) {
  return board.owners[i] >= 0 && board.counts[i] === board.capacity[i] - 1;
}

/** Per seat: {atoms, squares, critical}. */
export function stats(board, players) {
  const out = Array.from({ length: players }, () => ({ atoms: 0, squares: 0, critical: 0 }));
  if (!board) return out;
  board.owners.forEach((owner, i) => {
    if (owner >= 0 && owner < players) {
      out[owner].atoms += board.counts[i];
      out[owner].squares += 1;
      if (isCritical(board, i)) out[owner].critical += 1;
    }
  });
  return out;
}

/** The main figure per seat, for the players panel: {value, unit}. */
export function score(board, players) {
  return stats(board, players).map((s) => ({ value: s.atoms, unit: s.atoms === 1 ? "atom" : "atoms", ...s }));
}

// ---- drawing ---------------------------------------------------------------------------------------------------

const CELL = 60; // one square and its gap, in SVG units
const GAP = 4;
const SIZE = CELL - GAP;
const LABEL = 26; // room for the coordinates
const PAD = 8;
const ORB = 8.2;

// orb offsets from the square's centre for 1 to 4 atoms (more are drawn as one big orb with a number)
const LAYOUTS = [
  [],
  [[0, 0]],
  [[-8.5, 0], [8.5, 0]],
  [[-8.5, 5], [8.5, 5], [0, -9.5]],
  [[-8.5, -8.5], [8.5, -8.5], [-8.5, 8.5], [8.5, 8.5]],
];
const ORB_Y = 25; // orbs centre inside the 56-unit square (pips below)

const views = new WeakMap(); // container -> view state

function build(container, board, opts) {
  const { rows, cols } = board;
  const compact = !!opts.compact;
  const margin = compact ? PAD : LABEL;
  const width = margin + cols * CELL + PAD;
  const height = margin + rows * CELL + PAD;
  const root = svg("svg", {
    class: `board atoms-board${compact ? " compact" : ""}`,
    viewBox: `0 0 ${width} ${height}`,
    role: compact ? "img" : "grid",
    "aria-label": opts.label || `Exploding Atoms board, ${rows} rows by ${cols} columns`,
    "data-rows": rows,
    "data-cols": cols,
  });
  const frame = svg("rect", {
    class: "board-frame", x: margin - 5, y: margin - 5,
    width: cols * CELL + 10, height: rows * CELL + 10, rx: 14,
  });
  root.append(frame);
  if (!compact) {
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    for (let c = 0; c < cols; c++) {
      labels.append(svg("text", { x: margin + c * CELL + CELL / 2, y: margin - 11, "text-anchor": "middle" }, LETTERS[c]));
    }
    for (let r = 0; r < rows; r++) {
      labels.append(svg("text", {
        x: margin - 12, y: margin + r * CELL + CELL / 2, "text-anchor": "middle", "dominant-baseline": "central",
      }, String(r + 1)));
    }
    root.append(labels);
  }
  const squares = [];
  for (let r = 0; r < rows; r++) {
    const row = svg("g", { role: compact ? null : "row" });
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      const x = margin + c * CELL + GAP / 2;
      const y = margin + r * CELL + GAP / 2;
      const sqName = squareName(i, cols);
      const g = svg("g", {
        class: "sq", transform: `translate(${x} ${y})`,
        "data-index": i, "data-square": sqName, "data-testid": compact ? null : `square-${sqName}`,
        role: compact ? null : "gridcell",
        tabindex: compact ? null : "-1",
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
        key: null,
      };
      parts.inner = svg("g", { class: "orbs-inner" });
      parts.orbs.append(parts.inner);
      g.append(parts.bg, parts.tint, parts.ring, parts.glow, parts.hint, parts.pips, parts.orbs, parts.last, parts.focus);
      row.append(g);
      squares.push(parts);
    }
    root.append(row);
  }
  const fx = svg("g", { class: "fx", "aria-hidden": "true" });
  root.append(fx);
  container.replaceChildren(root);

  const view = { root, rows, cols, compact, margin, squares, fx, opts, board: null, focus: -1 };
  if (!compact) {
    root.addEventListener("click", (event) => {
      const sq = event.target.closest?.(".sq");
      if (!sq) return;
      const i = Number(sq.dataset.index);
      setRoving(view, i);
      view.opts.onSquare?.(squareName(i, cols), { legal: sq.dataset.legal === "true" });
    });
    attachGridKeyboard(root, {
      rows, cols,
      element: (i) => squares[i]?.g,
      activate: (i) => view.opts.onSquare?.(squareName(i, cols), { legal: squares[i].g.dataset.legal === "true" }),
      moved: (i) => { view.focus = i; },
    });
  }
  views.set(container, view);
  return view;
}

function setRoving(view, index) {
  if (view.compact) return;
  view.focus = index;
  view.squares.forEach((s, i) => s.g.setAttribute("tabindex", i === index ? "0" : "-1"));
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

function squareLabel(board, i, names) {
  const count = board.counts[i];
  const owner = board.owners[i];
  const parts = [squareName(i, board.cols)];
  if (owner >= 0 && count > 0) {
    parts.push(`${count} ${names[owner] || `player ${owner + 1}`} atom${count === 1 ? "" : "s"}`);
  } else {
    parts.push("empty");
  }
  parts.push(`capacity ${board.capacity[i]}`);
  if (isCritical(board, i)) parts.push("critical");
  return parts.join(", ");
}

function update(view, board, opts) {
  view.board = board;
  const legal = new Set(opts.legal || []);
  const names = opts.seatNames || SEAT_NAMES;
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
    const sqName = squareName(i, view.cols);
    const isLegal = legal.has(sqName);
    if (isLegal && firstLegal < 0) firstLegal = i;
    const critical = isCritical(board, i);
    g.classList.toggle("owned", owner >= 0);
    g.classList.toggle("critical", critical);
    g.classList.toggle("over", owner >= 0 && count >= capacity);
    g.classList.toggle("legal", isLegal && interactive);
    g.classList.toggle("hint", opts.hint === sqName);
    g.classList.toggle("last", opts.last === sqName);
    g.dataset.count = String(count);
    g.dataset.owner = String(owner);
    g.dataset.capacity = String(capacity);
    g.dataset.critical = String(critical);
    g.dataset.legal = String(isLegal);
    if (!view.compact) {
      g.setAttribute("aria-label", squareLabel(board, i, names));
      if (interactive) g.setAttribute("aria-disabled", String(!isLegal));
      else g.removeAttribute("aria-disabled");
    }
  });
  if (!view.compact && view.focus < 0) {
    const hint = opts.hint ? squareIndex(opts.hint, view.cols, view.rows) : -1;
    setRoving(view, hint >= 0 ? hint : firstLegal >= 0 ? firstLegal : 0);
  }
}

/**
 * Draw `board` in `container`, or update the drawing already there (focus and keyboard cursor are kept).
 * opts: legal (square names clickable now), onSquare(name, {legal}) (clicks, Enter/Space), turn (seat to move,
 * colours the frame), hint (a square to point at), last (the last move's square), seatNames (aria labels),
 * compact (a small picture: no coordinates, no input), label (the SVG's aria-label).
 */
export function render(container, board, opts = {}) {
  let view = views.get(container);
  if (!view || !container.contains(view.root) || view.rows !== board.rows || view.cols !== board.cols
      || view.compact !== !!opts.compact) {
    view = build(container, board, opts);
  }
  view.opts = opts;
  update(view, board, opts);
  return view.root;
}

/** Move the keyboard cursor to `name` and focus it (used by pages, e.g. after a hint). */
export function focusSquare(container, name) {
  const view = views.get(container);
  if (!view || view.compact) return;
  const i = squareIndex(name, view.cols, view.rows);
  if (i < 0) return;
  setRoving(view, i);
  view.squares[i].g.focus();
}

// ---- animation -------------------------------------------------------------------------------------------------

function centre(view, i) {
  const parts = view.squares[i];
  return [parts.x + SIZE / 2, parts.y + ORB_Y];
}

/** Milliseconds per wave: ~210 ms, faster beyond 10 waves so a long chain stays short (capped near 3 s). */
export function waveDuration(waves) {
  if (waves <= 10) return 210;
  return Math.max(30, Math.round(3000 / waves));
}

function explode(view, i, mover, duration) {
  const [cx, cy] = centre(view, i);
  const colour = `var(--p${mover})`;
  const parts = view.squares[i];
  parts.g.classList.add("exploding");
  setTimeout(() => parts.g.classList.remove("exploding"), duration);
  const burst = svg("circle", { class: "fx-burst", cx, cy, r: CELL * 0.5, style: `--c:${colour}` });
  view.fx.append(burst);
  burst.animate(
    [{ transform: "scale(0.25)", opacity: 0.85 }, { transform: "scale(1.2)", opacity: 0 }],
    { duration: duration * 1.2, easing: "cubic-bezier(.2,.7,.3,1)", fill: "forwards" },
  ).onfinish = () => burst.remove();
  for (const n of neighbours(i, view.rows, view.cols)) {
    const [nx, ny] = centre(view, n);
    const flyer = svg("circle", { class: "fx-orb", cx, cy, r: ORB * 0.9, style: `--c:${colour}` });
    view.fx.append(flyer);
    flyer.animate(
      [{ transform: "translate(0px, 0px)", opacity: 1 }, { transform: `translate(${nx - cx}px, ${ny - cy}px)`, opacity: 1 }],
      { duration: duration * 0.9, easing: "cubic-bezier(.4,0,.2,1)", fill: "forwards" },
    ).onfinish = () => flyer.remove();
  }
}

function pop(view, i) {
  const inner = view.squares[i].inner;
  inner.animate(
    [{ transform: "scale(0.4)", opacity: 0.3 }, { transform: "scale(1.15)", opacity: 1, offset: 0.7 }, { transform: "scale(1)" }],
    { duration: 220, easing: "ease-out" },
  );
}

/**
 * Play the last move's events: the atom placed, then each explosion wave (the exploding squares flash and send
 * orbs to their neighbours). `before` is the board before the move; without it (or of another shape) the waves
 * only flash on the current drawing. Resolves when done, at once when opts.signal aborts; opts.fast() (optional)
 * is asked before each wave and, when true, speeds the rest up. The caller draws the final board afterwards.
 */
export async function animate(container, events, before, opts = {}) {
  const view = views.get(container);
  if (!view || view.compact || !Array.isArray(events) || events.length === 0) return;
  const { signal } = opts;
  const reduced = prefersReducedMotion();
  const place = events.find((e) => e.type === "place");
  const waves = events.filter((e) => e.type === "wave" && Array.isArray(e.squares));
  const mover = place ? place.player : Math.max(0, view.opts.turn ?? 0);
  let board = before && before.rows === view.rows && before.cols === view.cols ? cloneBoard(before) : null;
  const base = { ...view.opts, legal: [], hint: null, last: place?.square, turn: mover };
  view.root.classList.add("animating");
  try {
    if (place && board) {
      const i = squareIndex(place.square, view.cols, view.rows);
      if (i >= 0) {
        board.counts[i] += 1;
        board.owners[i] = mover;
        update(view, board, base);
        if (!reduced) pop(view, i);
      }
    }
    if (!waves.length) return;
    await wait(reduced ? 80 : 170, signal);
    for (const wave of waves) {
      if (signal?.aborted) return;
      const duration = opts.fast?.() ? 45 : reduced ? 90 : waveDuration(waves.length);
      const exploding = wave.squares.map((n) => squareIndex(n, view.cols, view.rows)).filter((i) => i >= 0);
      if (!reduced) for (const i of exploding) explode(view, i, mover, duration);
      await wait(duration, signal);
      if (signal?.aborted) return;
      if (board) {
        for (const i of exploding) {
          board.counts[i] -= board.capacity[i];
          if (board.counts[i] <= 0) { board.counts[i] = 0; board.owners[i] = -1; }
          for (const n of neighbours(i, view.rows, view.cols)) {
            board.counts[n] += 1;
            board.owners[n] = mover;
          }
        }
        update(view, board, base);
      }
    }
    await wait(reduced ? 0 : 90, signal);
  } finally {
    view.fx.replaceChildren();
    view.root.classList.remove("animating");
    view.squares.forEach((s) => s.g.classList.remove("exploding"));
  }
}
