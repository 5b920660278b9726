// Drawing the Khet 2.0 board: the squares in SVG (rank 8 at the top for Silver, turned round for Red), reserved
// squares tinted with their colour, pieces drawn with their facing, laser beams (a shot or a preview) and the
// last shot drawn faintly.
//
// The board comes from the server (KhetState.board_json): {kind: "khet", rows, cols, position, to_move,
// pieces: [{square, kind, colour, facing}], reserved: {square: colour}, moves: {move: what it does},
// previews: {move: beam}, repetitions, can_claim, quiet, quiet_limit}; a beam is {player, from, facing, squares,
// directions, turns, stop: left|absorbed|removed, at, removed}. Square names and piece names come from the game's
// client description (opts.client). Nothing here knows a rule: what moves where, and where a laser goes, is sent.

import { svg } from "../../dom.js";
import { gameT, has } from "../../i18n.js";
import { squareNames } from "../grid.js";

const tk = gameT("khet");

export const CELL = 60;
const GAP = 3;
const SIZE = CELL - GAP;
const ANGLE = { N: 0, E: 90, S: 180, W: 270 };
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] }; // a direction on the screen (Silver's side down)

/** Where the squares are: names in drawing order (rank 8 first for Silver) and each square's centre. */
export function geometry(client, rows, cols) {
  const names = squareNames(client?.squares, rows, cols);
  return {
    rows, cols, names, width: cols * CELL, height: rows * CELL,
    isSquare: (square) => names.index(square) >= 0,
    /** The centre of `square` in board units (origin at the top-left corner as Silver sees the board). */
    centre(square) {
      const i = names.index(square);
      return [(i % cols) * CELL + CELL / 2, Math.floor(i / cols) * CELL + CELL / 2];
    },
  };
}

// ---- pieces ----------------------------------------------------------------------------------------------------

/** The drawing of a piece facing N, centred on (0, 0); the caller turns it to its facing. */
function pieceShape(kind) {
  const s = 21;
  switch (kind) {
    case "pyramid": // the mirror is the diagonal facing NE; the body fills the SW half
      return [
        svg("path", { class: "pc-body", d: `M${-s} ${-s + 3} L${s - 3} ${s} L${-s} ${s} Z`, "stroke-linejoin": "round" }),
        svg("path", { class: "pc-mirror", d: `M${-s + 1} ${-s + 1} L${s - 1} ${s - 1}` }),
        svg("circle", { class: "pc-mark", cx: -s / 2, cy: s / 2, r: 3.2 }),
      ];
    case "anubis": // the front (shield) looks N
      return [
        svg("rect", { class: "pc-body", x: -15, y: -9, width: 30, height: 29, rx: 7 }),
        svg("path", { class: "pc-mark", d: "M-10 12 L-6 3 L-2 12 Z M2 12 L6 3 L10 12 Z" }),
        svg("path", { class: "pc-shield", d: "M-21 -9 Q0 -27 21 -9 L17 -5 Q0 -19 -17 -5 Z" }),
      ];
    case "scarab": // a two-sided mirror along the diagonal NW-SE ("\")
      return [
        svg("ellipse", { class: "pc-body", cx: 0, cy: 0, rx: 18, ry: 12, transform: "rotate(-45)" }),
        svg("rect", { class: "pc-mirror-bar", x: -28, y: -4.5, width: 56, height: 9, rx: 3, transform: "rotate(45)" }),
        svg("circle", { class: "pc-mark", cx: -9, cy: 9, r: 2.6 }),
        svg("circle", { class: "pc-mark", cx: 9, cy: -9, r: 2.6 }),
      ];
    case "pharaoh":
      return [
        svg("circle", { class: "pc-body", cx: 0, cy: 0, r: 20 }),
        svg("circle", { class: "pc-ring", cx: 0, cy: 0, r: 15 }),
        svg("path", { class: "pc-crown", d: "M-10 7 L-10 -5 L-5 1 L0 -9 L5 1 L10 -5 L10 7 Z" }),
      ];
    case "sphinx": // the beam leaves towards N
      return [
        svg("rect", { class: "pc-body", x: -17, y: -13, width: 34, height: 31, rx: 6 }),
        svg("path", { class: "pc-lens", d: "M-9 -13 L0 -25 L9 -13 Z" }),
        svg("circle", { class: "pc-eye", cx: 0, cy: -3, r: 5 }),
      ];
    default:
      return [svg("circle", { class: "pc-body", r: 18 })];
  }
}

function pieceAngle(piece) {
  return piece.kind === "pharaoh" ? 0 : ANGLE[piece.facing] || 0;
}

/** A piece as an SVG group: <g transform=translate> <g class=pc-move (animated)> <g rotate> shape. */
export function pieceElement(piece, geo, { testid = true } = {}) {
  const [x, y] = geo.centre(piece.square);
  const turn = svg("g", { class: "pc-turn", transform: `rotate(${pieceAngle(piece)})` }, pieceShape(piece.kind));
  return svg("g", {
    class: `piece ${piece.kind} c${piece.colour}`, transform: `translate(${x} ${y})`,
    "data-testid": testid ? `piece-${piece.square}` : null, "data-square": piece.square,
    "data-kind": piece.kind, "data-colour": piece.colour, "data-facing": piece.facing,
  }, svg("g", { class: "pc-move" }, turn));
}

/** A small picture of a piece for buttons and the editor's palette. */
export function pieceIcon(kind, colour, facing = "N") {
  return svg("svg", { class: "piece-icon", viewBox: "-30 -30 60 60", "aria-hidden": "true" },
    svg("g", { class: `piece ${kind} c${colour}` },
      svg("g", { class: "pc-turn", transform: `rotate(${pieceAngle({ kind, facing })})` }, pieceShape(kind))));
}

/** The name of a kind of piece, as the game's catalogue (else its palette) calls it ("Pyramid"). */
export function kindLabel(client, kind) {
  if (has(`khet.piece.${kind}`)) return tk(`piece.${kind}`);
  const named = client?.palette?.pieces?.find((p) => p.kind === kind);
  return named?.label || `${String(kind).charAt(0).toUpperCase()}${String(kind).slice(1)}`;
}

/** "Red Pyramid, facing west" (a Scarab says its mirror, a Pharaoh no facing). */
export function pieceWords(piece, names, client) {
  const who = String((names || client?.seats)?.[piece.colour] || "");
  const params = { who, piece: kindLabel(client, piece.kind), facing: String(piece.facing) };
  const key = piece.kind === "scarab" ? (piece.facing === "N" || piece.facing === "S" ? "piece.words.mirror_backslash"
    : "piece.words.mirror_slash") : piece.kind === "pharaoh" ? "piece.words.plain" : "piece.words.facing";
  return tk(key, params).trim();
}

export function pieceAt(board, square) {
  return (board?.pieces || []).find((p) => p.square === square) || null;
}

/** The squares a move touches, from its description in `board.moves` ({from, to} or {square}). */
export function moveSquares(described) {
  return described ? [described.from, described.to, described.square].filter(Boolean) : [];
}

// ---- reserved-square marks -------------------------------------------------------------------------------------

function reservedMark(colour, flipped) {
  // Red's squares carry an ankh, Silver's an eye (as on the real board), both faint and upright on the screen
  const transform = `translate(${SIZE / 2} ${SIZE / 2})${flipped ? " rotate(180)" : ""}`;
  if (colour === 1) {
    return svg("g", { class: "res-mark", transform },
      svg("ellipse", { cx: 0, cy: -9, rx: 5.5, ry: 7, fill: "none" }),
      svg("path", { d: "M0 -2 L0 16 M-10 2 L10 2", fill: "none" }));
  }
  return svg("g", { class: "res-mark", transform },
    svg("path", { d: "M-13 0 Q0 -11 13 0 Q0 11 -13 0 Z", fill: "none" }),
    svg("circle", { cx: 0, cy: 0, r: 3.5 }),
    svg("path", { d: "M-4 6 L-7 15 M4 7 Q9 13 5 16", fill: "none" }));
}

// ---- beams -----------------------------------------------------------------------------------------------------

/** The polyline of a beam in board units: from the Sphinx through the centre of each square it crosses. */
export function beamPoints(beam, geo) {
  if (!beam || !geo.isSquare(beam.from) || !Array.isArray(beam.squares)) return [];
  const pts = [geo.centre(beam.from)];
  for (const sq of beam.squares) if (geo.isSquare(sq)) pts.push(geo.centre(sq));
  const last = (beam.directions || []).at(-1);
  const end = pts.at(-1);
  if (beam.stop === "left" && STEP[last]) {
    pts.push([end[0] + STEP[last][0] * CELL / 2, end[1] + STEP[last][1] * CELL / 2]);
  } else if (beam.stop === "absorbed" && pts.length >= 2) {
    // stop at the surface that took it (an Anubis's shield, a Sphinx), not in the middle of the piece
    const prev = pts.at(-2);
    const dx = Math.sign(end[0] - prev[0]);
    const dy = Math.sign(end[1] - prev[1]);
    pts[pts.length - 1] = [end[0] - dx * CELL * 0.3, end[1] - dy * CELL * 0.3];
  }
  return pts;
}

export function pointsAttr(pts) {
  return pts.map(([x, y]) => `${x},${y}`).join(" ");
}

/** What a shot does, for the mover: {level: "win" | "lose" | "own" | "take" | "safe", text}. */
export function beamVerdict(beam, names, client) {
  if (!beam) return { level: "safe", text: "" };
  const mover = beam.player;
  const removed = beam.removed;
  if (!removed) {
    const after = beam.stop === "left" && beam.squares?.length ? String(beam.squares.at(-1)) : null;
    const text = beam.stop === "absorbed" ? tk("bar.verdict.stopped", { square: String(beam.at) })
      : after ? tk("bar.verdict.leaves_after", { square: after }) : tk("bar.verdict.leaves");
    return { level: "safe", text };
  }
  const params = {
    who: String((names || client?.seats)?.[removed.colour] || ""), piece: kindLabel(client, removed.kind),
    square: String(removed.square),
  };
  if (removed.kind === "pharaoh") {
    return removed.colour === mover
      ? { level: "lose", text: tk("bar.verdict.lose", params) }
      : { level: "win", text: tk("bar.verdict.win", params) };
  }
  return removed.colour === mover
    ? { level: "own", text: tk("bar.verdict.own", params) }
    : { level: "take", text: tk("bar.verdict.take", params) };
}

export function beamElement(view, beam, cls, testid) {
  const pts = beamPoints(beam, view.geo);
  const verdict = beamVerdict(beam, view.opts.seatNames, view.opts.client);
  const g = svg("g", {
    class: `beam ${cls} v-${verdict.level}`, "data-testid": testid,
    "data-squares": (beam.squares || []).join(" "), "data-stop": beam.stop || "",
    "data-removed": beam.removed ? beam.removed.square : "", "data-warning": verdict.level,
  },
  svg("polyline", { class: "beam-glow", points: pointsAttr(pts) }),
  svg("polyline", { class: "beam-core", points: pointsAttr(pts) }));
  if (beam.removed && view.geo.isSquare(beam.removed.square)) g.append(hitMark(view.geo, beam.removed.square, "beam-hit"));
  return g;
}

export function hitMark(geo, square, cls) {
  const [x, y] = geo.centre(square);
  return svg("g", { class: cls, transform: `translate(${x} ${y})` },
    svg("circle", { r: 24 }),
    svg("path", { d: "M-9 -9 L9 9 M9 -9 L-9 9" }));
}

// ---- the view --------------------------------------------------------------------------------------------------

export const views = new WeakMap(); // container -> view

/** The view drawn in `container`, built anew when there is none or it is turned the other way;
 * `attach(view, container)` adds the input (not to a compact picture). */
export function ensureView(container, board, opts, attach) {
  let view = views.get(container);
  const flipped = !opts.compact && opts.perspective === 1;
  if (!view || !container.contains(view.root) || view.compact !== !!opts.compact || view.flipped !== flipped
      || view.geo.rows !== board.rows || view.geo.cols !== board.cols) {
    view = build(container, board, opts, flipped);
    if (!view.compact) attach(view, container);
  }
  return view;
}

function build(container, board, opts, flipped) {
  const compact = !!opts.compact;
  const geo = geometry(opts.client, board.rows, board.cols);
  const [ml, mt, mb, mr] = compact ? [6, 6, 6, 6] : [26, 8, 26, 8];
  const root = svg("svg", {
    class: `board khet-board${compact ? " compact" : ""}`, viewBox: `0 0 ${ml + geo.width + mr} ${mt + geo.height + mb}`,
    role: compact ? "img" : "grid", "aria-label": opts.label || tk("board.label"), "data-flipped": String(flipped),
  });
  root.append(svg("rect", { class: "board-frame", x: ml - 5, y: mt - 5, width: geo.width + 10, height: geo.height + 10, rx: 12 }));
  // screen order (top-left first): Silver's view, or turned round
  const order = flipped ? [...geo.names.names].reverse() : geo.names.names;
  if (!compact) {
    const files = flipped ? [...geo.names.files].reverse() : geo.names.files;
    const ranks = flipped ? [...geo.names.ranks].reverse() : geo.names.ranks;
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    files.forEach((file, col) => labels.append(svg("text", { x: ml + col * CELL + CELL / 2, y: mt + geo.height + 18, "text-anchor": "middle" }, file)));
    ranks.forEach((rank, row) => labels.append(svg("text", {
      x: ml - 13, y: mt + row * CELL + CELL / 2, "text-anchor": "middle", "dominant-baseline": "central",
    }, rank)));
    root.append(labels);
  }
  const inner = svg("g", {
    class: "khet-inner",
    transform: flipped ? `translate(${ml} ${mt}) rotate(180 ${geo.width / 2} ${geo.height / 2})` : `translate(${ml} ${mt})`,
  });
  const layers = ["squares", "last-layer", "pieces", "preview-layer", "fx"].map((cls) => svg("g", { class: cls, "aria-hidden": cls === "squares" ? null : "true" }));
  inner.append(...layers);
  root.append(inner);
  const [squaresLayer, lastLayer, piecesLayer, previewLayer, fx] = layers;
  const squares = new Map();
  const rows = Array.from({ length: geo.rows }, () => svg("g", { role: compact ? null : "row" }));
  squaresLayer.append(...rows);
  order.forEach((name, index) => {
    const [cx, cy] = geo.centre(name);
    const i = geo.names.index(name);
    const g = svg("g", {
      class: `sq ${(i % geo.cols + Math.floor(i / geo.cols)) % 2 ? "light" : "dark"}`, transform: `translate(${cx - SIZE / 2} ${cy - SIZE / 2})`,
      "data-index": index, "data-square": name, "data-testid": compact ? null : `square-${name}`,
      role: compact ? null : "gridcell", tabindex: compact ? null : "-1",
    },
    svg("rect", { class: "sq-bg", width: SIZE, height: SIZE, rx: 6 }),
    svg("rect", { class: "sq-tint", width: SIZE, height: SIZE, rx: 6 }),
    svg("g", { class: "sq-res" }),
    svg("rect", { class: "sq-last", x: 2, y: 2, width: SIZE - 4, height: SIZE - 4, rx: 5 }),
    svg("rect", { class: "sq-ring", x: 2.5, y: 2.5, width: SIZE - 5, height: SIZE - 5, rx: 5 }),
    svg("rect", { class: "sq-hint", x: 4, y: 4, width: SIZE - 8, height: SIZE - 8, rx: 4 }),
    svg("circle", { class: "sq-dot", cx: SIZE / 2, cy: SIZE / 2, r: 7 }),
    svg("rect", { class: "sq-focus", x: -1.5, y: -1.5, width: SIZE + 3, height: SIZE + 3, rx: 8 }));
    rows[Math.floor(index / geo.cols)].append(g);
    squares.set(name, { g, index, res: g.querySelector(".sq-res"), reserved: undefined });
  });
  container.replaceChildren(root);
  const view = {
    root, host: root, inner, geo, squares, order, piecesLayer, lastLayer, previewLayer, fx, compact, flipped,
    opts, board: null, piecesKey: null, focus: -1,
  };
  views.set(container, view);
  return view;
}

function drawPieces(view, board) {
  const key = (board.pieces || []).map((p) => `${p.square}${p.kind}${p.colour}${p.facing}`).join(",");
  if (key === view.piecesKey) return;
  view.piecesKey = key;
  view.piecesLayer.replaceChildren(...(board.pieces || []).map((p) => pieceElement(p, view.geo, { testid: !view.compact })));
}

/** The last move's shot drawn faintly, and the piece it removed as a crossed-out ghost (a picture: its sample). */
function drawLast(view, opts) {
  view.lastLayer.replaceChildren();
  const events = Array.isArray(opts.events) ? opts.events : [];
  const laser = events.find((e) => e && e.type === "laser");
  if (laser) view.lastLayer.append(beamElement(view, laser, "last", view.compact ? null : "last-beam"));
  else if (view.board.sample_beam) view.lastLayer.append(beamElement(view, view.board.sample_beam, "shot", null));
  const removed = events.find((e) => e && e.type === "remove");
  if (removed && view.geo.isSquare(removed.square)) {
    const ghost = pieceElement({ ...removed }, view.geo, { testid: false });
    ghost.classList.add("ghost");
    view.lastLayer.append(svg("g", {
      class: "removed-mark", "data-testid": view.compact ? null : "removed-mark", "data-square": removed.square,
    }, ghost, hitMark(view.geo, removed.square, "removed-x")));
  }
}

/** The squares of the last move: its piece action's (from its events), for the faint mark. */
function lastSquares(opts) {
  const action = (opts.events || []).find((e) => e && (e.type === "step" || e.type === "swap" || e.type === "rotate"));
  return moveSquares(action);
}

/** Draw `board` on `view`: squares, reserved marks, pieces, the last move and shot, the hint; then the input's
 * refresh (`view.afterDraw`). opts: see index.js. */
export function update(view, board, opts) {
  const previous = view.board;
  view.board = board;
  view.opts = opts;
  if (!view.compact) {
    view.root.style.setProperty("--turn", opts.turn === 0 || opts.turn === 1 ? `var(--khet-c${opts.turn})` : "var(--frame)");
  }
  const last = lastSquares(opts);
  const hint = moveSquares(board.moves?.[opts.hint]);
  for (const [name, s] of view.squares) {
    const res = board.reserved?.[name];
    if (s.reserved !== res) {
      s.reserved = res;
      s.res.replaceChildren();
      if (res === 0 || res === 1) s.res.append(reservedMark(res, view.flipped));
      s.g.classList.toggle("res0", res === 0);
      s.g.classList.toggle("res1", res === 1);
      s.g.dataset.reserved = res === 0 || res === 1 ? String(res) : "";
    }
    const piece = pieceAt(board, name);
    s.g.dataset.piece = piece ? piece.kind : "";
    s.g.dataset.colour = piece ? String(piece.colour) : "";
    s.g.dataset.facing = piece ? piece.facing : "";
    s.g.classList.toggle("last", last.includes(name));
    s.g.classList.toggle("hint", hint.includes(name));
    s.g.classList.toggle("marked", !!opts.edit?.marks?.includes(name));
  }
  drawPieces(view, board);
  drawLast(view, opts);
  view.afterDraw?.(view, previous);
}
