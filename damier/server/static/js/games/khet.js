// The Khet 2.0 board: 10 x 8 squares in SVG (rank 8 at the top for Silver, turned round for Red), reserved
// squares tinted with their colour, pieces drawn with their facing, and the laser: a preview of the shot that
// follows the move under the pointer (or keyboard focus), and the shot of the last move animated square by square.
//
// Same interface as atoms.js (see games/index.js). The board comes from the server (KhetState.board_json):
//   {kind: "khet", rows: 8, cols: 10, position, to_move, pieces: [{square, kind, colour, facing}],
//    reserved: {square: colour}, previews: {move: beam}, repetitions, can_claim, quiet, quiet_limit}
// and a beam is {player, from, facing, squares, directions, turns, stop: left|absorbed|removed, at, removed}.
// Every rule (legal moves, where the laser goes) comes from the server; this module only draws.
//
// Playing: click (or Enter on) one of your pieces to select it; its step and swap targets are marked and the
// turn buttons appear under the board; pointing at a target or a turn button shows the laser preview; a click
// plays it. A touch screen cannot point: there the first tap on a target or a turn button pins its preview (the
// bar says what the shot does and offers "Play <move>"), and a second tap on it, or Play, makes the move.
// Esc drops the selection, [ and ] bring the focus to the turn buttons.

import { h, svg, icon, wait, prefersReducedMotion } from "../dom.js";
import { attachGridKeyboard } from "./grid.js";

export const name = "khet";
/** The board can be seen from either side (the game page offers a flip button). */
export const canFlip = true;
/** The game has a position editor (#/editor/khet). */
export const hasEditor = true;

export const FILES = "abcdefghij";
export const COLS = 10;
export const ROWS = 8;
export const COLOUR_NAMES = ["Silver", "Red"];
export const KINDS = ["sphinx", "pharaoh", "anubis", "pyramid", "scarab"];
export const KIND_LABELS = { sphinx: "Sphinx", pharaoh: "Pharaoh", anubis: "Anubis", pyramid: "Pyramid", scarab: "Scarab" };
/** How many of each piece a side has at most (the rules file); the editor's palette offers what is left. */
export const PIECE_LIMITS = { sphinx: 1, pharaoh: 1, anubis: 2, pyramid: 7, scarab: 2 };
const KIND_LETTERS = { sphinx: "X", pharaoh: "P", anubis: "A", pyramid: "Y", scarab: "S" };
const FACINGS = "NESW";
const ANGLE = { N: 0, E: 90, S: 180, W: 270 };
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };

/** The three setups' positions (damier.games.khet.notation.setup_position), for pictures and the editor. */
export const SETUPS = {
  classic: "xs3aspsasye2/2ys7/3Yw6/yn1Ys1snse1ye1Yw/ye1Yw1SeSn1yn1Ys/6ye3/7Yn2/2YwAnPnAn3Xn s 0",
  imhotep: "xs3aspsasse2/10/3Yw2yn3/ynYs2Yese2yeYw/yeYw2Seyw2ynYs/3Ys2ye3/10/2SeAnPnAn3Xn s 0",
  dynasty: "xs3ysasye3/5ps4/yn3ysasse3/ye1sn1Yw1Ye3/3yw1ye1Sn1Yw/3SeAnYn3Ys/4Pn5/3YwAnYn3Xn s 0",
};

/** Reserved squares (square -> the colour that alone may enter), for boards drawn without the server. */
export const RESERVED = (() => {
  const out = {};
  for (let rank = 1; rank <= 8; rank++) {
    out[`a${rank}`] = 1;
    out[`j${rank}`] = 0;
  }
  Object.assign(out, { i1: 1, i8: 1, b1: 0, b8: 0 });
  return out;
})();

export const presets = [
  { label: "Classic", id: "classic", options: { setup: "classic" } },
  { label: "Imhotep", id: "imhotep", options: { setup: "imhotep" } },
  { label: "Dynasty", id: "dynasty", options: { setup: "dynasty" } },
];

export const keyHelp = [
  [["←", "↑", "→", "↓"], "move"], [["Enter"], "select / play"], [["[", "]"], "turn"], [["Esc"], "cancel"],
  [["U"], "undo"], [["H"], "hint"],
];

export function seatNames() {
  return COLOUR_NAMES.slice();
}

/** The options in words; `start` is the position a game began from (the view's `start`; null: the setup). */
export function describeOptions(options = {}, { start = null } = {}) {
  const capital = (id) => `${id.charAt(0).toUpperCase()}${id.slice(1)} setup`;
  let first = capital(String(options.setup || "classic"));
  if (start) {
    // a setup given by its position (or its name) is still that setup; anything else was set up by hand
    const given = String(start).trim().split(/\s+/).join(" ");
    const named = Object.keys(SETUPS).find((id) => id === given.toLowerCase() || SETUPS[id] === given);
    first = named ? capital(named) : "Custom position";
  }
  const parts = [first];
  if (options.repetition === "claim") parts.push("repetition draws claimed");
  const quiet = Number(options.quiet_ply_limit ?? 100);
  parts.push(quiet > 0 ? `draw after ${quiet} quiet plies` : "no quiet-ply limit");
  if (options.pharaoh_rotation) parts.push("Pharaoh turns");
  return parts.join(" · ");
}

// ---- positions (notation only: the server checks every rule) -----------------------------------------------------

/** A board from a position string (`xs3aspsasye2/... s 0`); null when the text is not one. */
export function boardFromPosition(text) {
  const fields = String(text || "").trim().split(/\s+/);
  if (fields.length !== 3) return null;
  const ranks = fields[0].split("/");
  if (ranks.length !== ROWS) return null;
  const pieces = [];
  for (let i = 0; i < ROWS; i++) {
    const rank = ROWS - i;
    let file = 0;
    const tokens = ranks[i].match(/10|[1-9]|[xpaysXPAYS][nesw]|./g) || [];
    for (const token of tokens) {
      if (/^\d+$/.test(token)) {
        file += Number(token);
      } else if (/^[xpays][nesw]$/i.test(token)) {
        if (file >= COLS) return null;
        const kind = KINDS["xpays".indexOf(token[0].toLowerCase())];
        let facing = token[1].toUpperCase();
        if (kind === "scarab") facing = facing === "S" ? "N" : facing === "W" ? "E" : facing;
        pieces.push({ square: `${FILES[file]}${rank}`, kind, colour: token[0] === token[0].toUpperCase() ? 0 : 1, facing });
        file += 1;
      } else {
        return null;
      }
    }
    if (file !== COLS) return null;
  }
  const side = fields[1];
  if (!/^\d+$/.test(fields[2])) return null;
  return {
    kind: "khet", rows: ROWS, cols: COLS, position: String(text).trim(),
    to_move: side === "s" ? 0 : side === "r" ? 1 : -2,
    pieces, reserved: { ...RESERVED }, previews: {},
    repetitions: 1, can_claim: false, quiet: Number(fields[2]), quiet_limit: 100,
  };
}

/** The position string of `pieces` with `toMove` (0 Silver, 1 Red) to move and `quiet` quiet plies. */
export function formatPosition(pieces, toMove = 0, quiet = 0) {
  const at = new Map(pieces.map((p) => [p.square, p]));
  const ranks = [];
  for (let rank = ROWS; rank >= 1; rank--) {
    let out = "";
    let empty = 0;
    for (let f = 0; f < COLS; f++) {
      const p = at.get(`${FILES[f]}${rank}`);
      if (!p) { empty += 1; continue; }
      if (empty) { out += String(empty); empty = 0; }
      const letter = KIND_LETTERS[p.kind];
      out += (p.colour === 0 ? letter : letter.toLowerCase()) + p.facing.toLowerCase();
    }
    if (empty) out += String(empty);
    ranks.push(out);
  }
  return `${ranks.join("/")} ${toMove === 1 ? "r" : "s"} ${quiet}`;
}

export function emptyBoard(options = {}) {
  return boardFromPosition(SETUPS[options.setup] || SETUPS.classic);
}

export function sampleBoard() {
  const board = boardFromPosition(SETUPS.classic);
  // a shot across the board for the home page picture: Silver's opening laser, out at j8
  board.sample_beam = {
    player: 0, from: "j1", facing: "N", stop: "left", at: null, removed: null,
    squares: ["j2", "j3", "j4", "i4", "h4", "h5", "i5", "j5", "j6", "j7", "j8"],
    directions: ["N", "N", "W", "W", "N", "E", "E", "N", "N", "N", "N"],
  };
  return board;
}

/** Per seat: the pieces left (the Sphinx, which cannot be removed, not counted). */
export function score(board, players) {
  const out = Array.from({ length: players }, () => ({ value: 0, unit: "pieces" }));
  for (const p of board?.pieces || []) {
    if (p.kind !== "sphinx" && out[p.colour]) out[p.colour].value += 1;
  }
  for (const s of out) if (s.value === 1) s.unit = "piece";
  return out;
}

// ---- geometry --------------------------------------------------------------------------------------------------

const CELL = 60;
const GAP = 3;
const SIZE = CELL - GAP;
const BOARD_W = COLS * CELL;
const BOARD_H = ROWS * CELL;

function fileOf(square) { return FILES.indexOf(square[0]); }
function rankOf(square) { return Number(square.slice(1)); }
function isSquare(square) { return typeof square === "string" && /^[a-j][1-8]$/.test(square); }

/** The centre of `square` in board units (origin at the top-left corner of rank 8, file a). */
function centreOf(square) {
  return [fileOf(square) * CELL + CELL / 2, (ROWS - rankOf(square)) * CELL + CELL / 2];
}

/** Squares in screen order (top-left first) for the side at the bottom: 0 Silver, 1 Red. */
function screenSquares(flipped) {
  const out = [];
  for (let row = 0; row < ROWS; row++) {
    for (let col = 0; col < COLS; col++) {
      out.push(flipped ? `${FILES[COLS - 1 - col]}${row + 1}` : `${FILES[col]}${ROWS - row}`);
    }
  }
  return out;
}

/** The parts of a move in notation: {from, to, turn} (turn "+" or "-"). */
export function parseMove(move) {
  const m = /^([a-j][1-8])(?:([a-j][1-8])|([+-]))$/.exec(String(move || ""));
  return m ? { from: m[1], to: m[2] || null, turn: m[3] || null } : null;
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
function pieceElement(piece, { testid = true } = {}) {
  const [x, y] = centreOf(piece.square);
  const turn = svg("g", { class: "pc-turn", transform: `rotate(${pieceAngle(piece)})` }, pieceShape(piece.kind));
  const moving = svg("g", { class: "pc-move" }, turn);
  return svg("g", {
    class: `piece ${piece.kind} c${piece.colour}`, transform: `translate(${x} ${y})`,
    "data-testid": testid ? `piece-${piece.square}` : null, "data-square": piece.square,
    "data-kind": piece.kind, "data-colour": piece.colour, "data-facing": piece.facing,
  }, moving);
}

/** A small picture of a piece for buttons and the editor's palette. */
export function pieceIcon(kind, colour, facing = "N") {
  const p = { kind, colour, facing, square: "a8" };
  return svg("svg", { class: `piece-icon`, viewBox: "-30 -30 60 60", "aria-hidden": "true" },
    svg("g", { class: `piece ${kind} c${colour}` },
      svg("g", { class: "pc-turn", transform: `rotate(${pieceAngle(p)})` }, pieceShape(kind))));
}

function pieceWords(piece, names = COLOUR_NAMES) {
  const facing = piece.kind === "scarab" ? (piece.facing === "N" || piece.facing === "S" ? "mirror \\" : "mirror /")
    : piece.kind === "pharaoh" ? "" : `facing ${({ N: "north", E: "east", S: "south", W: "west" })[piece.facing]}`;
  return `${names[piece.colour] || COLOUR_NAMES[piece.colour]} ${KIND_LABELS[piece.kind] || piece.kind}${facing ? `, ${facing}` : ""}`;
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
export function beamPoints(beam) {
  if (!beam || !isSquare(beam.from) || !Array.isArray(beam.squares)) return [];
  const pts = [centreOf(beam.from)];
  for (const sq of beam.squares) if (isSquare(sq)) pts.push(centreOf(sq));
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

function pointsAttr(pts) {
  return pts.map(([x, y]) => `${x},${y}`).join(" ");
}

/** What a shot does, for the mover: {level: "win" | "lose" | "own" | "take" | "safe", text}. */
export function beamVerdict(beam, names = COLOUR_NAMES) {
  if (!beam) return { level: "safe", text: "" };
  const mover = beam.player;
  const removed = beam.removed;
  if (!removed) {
    const text = beam.stop === "absorbed" ? `the laser is stopped on ${beam.at}` : "the laser leaves the board";
    return { level: "safe", text: `Harmless: ${text}${beam.stop === "left" && beam.squares?.length ? ` after ${beam.squares.at(-1)}` : ""}.` };
  }
  const whose = names[removed.colour] || COLOUR_NAMES[removed.colour];
  const what = `${whose} ${KIND_LABELS[removed.kind] || removed.kind} on ${removed.square}`;
  if (removed.kind === "pharaoh") {
    return removed.colour === mover
      ? { level: "lose", text: `Danger: the laser hits your own Pharaoh on ${removed.square}: you would lose.` }
      : { level: "win", text: `Wins the game: the laser hits the ${what}.` };
  }
  return removed.colour === mover
    ? { level: "own", text: `Careful: the laser would remove your own ${KIND_LABELS[removed.kind]} on ${removed.square}.` }
    : { level: "take", text: `The laser removes the ${what}.` };
}

function beamElement(beam, cls, testid) {
  const pts = beamPoints(beam);
  const verdict = beamVerdict(beam);
  const g = svg("g", {
    class: `beam ${cls} v-${verdict.level}`, "data-testid": testid,
    "data-squares": (beam.squares || []).join(" "), "data-stop": beam.stop || "",
    "data-removed": beam.removed ? beam.removed.square : "", "data-warning": verdict.level,
  },
  svg("polyline", { class: "beam-glow", points: pointsAttr(pts) }),
  svg("polyline", { class: "beam-core", points: pointsAttr(pts) }));
  if (beam.removed && isSquare(beam.removed.square)) g.append(hitMark(beam.removed.square, "beam-hit"));
  return g;
}

function hitMark(square, cls) {
  const [x, y] = centreOf(square);
  return svg("g", { class: cls, transform: `translate(${x} ${y})` },
    svg("circle", { r: 24 }),
    svg("path", { d: "M-9 -9 L9 9 M9 -9 L-9 9" }));
}

// ---- drawing -----------------------------------------------------------------------------------------------------

const views = new WeakMap(); // container -> view

function build(container, opts) {
  const compact = !!opts.compact;
  const ml = compact ? 6 : 26;
  const mt = compact ? 6 : 8;
  const mb = compact ? 6 : 26;
  const mr = compact ? 6 : 8;
  const width = ml + BOARD_W + mr;
  const height = mt + BOARD_H + mb;
  const flipped = !compact && opts.perspective === 1;
  const root = svg("svg", {
    class: `board khet-board${compact ? " compact" : ""}`, viewBox: `0 0 ${width} ${height}`,
    role: compact ? "img" : "grid", "aria-label": opts.label || "Khet board",
    "data-flipped": String(flipped),
  });
  root.append(svg("rect", { class: "board-frame", x: ml - 5, y: mt - 5, width: BOARD_W + 10, height: BOARD_H + 10, rx: 12 }));
  const order = screenSquares(flipped);
  if (!compact) {
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    for (let col = 0; col < COLS; col++) {
      labels.append(svg("text", { x: ml + col * CELL + CELL / 2, y: mt + BOARD_H + 18, "text-anchor": "middle" }, order[col][0]));
    }
    for (let row = 0; row < ROWS; row++) {
      labels.append(svg("text", {
        x: ml - 13, y: mt + row * CELL + CELL / 2, "text-anchor": "middle", "dominant-baseline": "central",
      }, order[row * COLS].slice(1)));
    }
    root.append(labels);
  }
  const inner = svg("g", {
    class: "khet-inner",
    transform: flipped ? `translate(${ml} ${mt}) rotate(180 ${BOARD_W / 2} ${BOARD_H / 2})` : `translate(${ml} ${mt})`,
  });
  const squaresLayer = svg("g", { class: "squares" });
  const lastLayer = svg("g", { class: "last-layer", "aria-hidden": "true" });
  const piecesLayer = svg("g", { class: "pieces", "aria-hidden": "true" });
  const previewLayer = svg("g", { class: "preview-layer", "aria-hidden": "true" });
  const fx = svg("g", { class: "fx", "aria-hidden": "true" });
  inner.append(squaresLayer, lastLayer, piecesLayer, previewLayer, fx);
  root.append(inner);

  const squares = new Map();
  const rows = Array.from({ length: ROWS }, () => svg("g", { role: compact ? null : "row" }));
  squaresLayer.append(...rows);
  order.forEach((name, index) => {
    const [cx, cy] = centreOf(name);
    const x = cx - SIZE / 2;
    const y = cy - SIZE / 2;
    const g = svg("g", {
      class: `sq ${(fileOf(name) + rankOf(name)) % 2 ? "light" : "dark"}`, transform: `translate(${x} ${y})`,
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
    rows[Math.floor(index / COLS)].append(g);
    squares.set(name, { g, index, res: g.querySelector(".sq-res"), reserved: undefined });
  });

  let bar = null;
  let host = root;
  if (!compact) {
    bar = {
      info: h("span", { class: "khet-info", "data-testid": "khet-info" }),
      buttons: h("span", { class: "khet-turns", role: "group", "aria-label": "Turn the selected piece" }),
      extra: h("span", { class: "khet-extra" }),
      preview: h("p", { class: "khet-preview-text", "data-testid": "laser-preview-text", "aria-live": "polite" }),
      counters: h("p", { class: "khet-counters muted small", "data-testid": "khet-counters" }),
    };
    bar.row = h("div", { class: "khet-bar-row" }, bar.info, bar.buttons, bar.extra);
    bar.root = h("div", { class: "khet-bar", "data-testid": "khet-bar" }, bar.row,
      bar.preview, bar.counters);
    host = h("div", { class: "khet-view" }, root, bar.root);
  }
  container.replaceChildren(host);

  const view = {
    root, host, inner, squares, order, piecesLayer, lastLayer, previewLayer, fx, bar, compact, flipped,
    opts, board: null, selected: null, pointed: null, pinned: null, lastPointer: "mouse", piecesKey: null, focus: -1,
    legal: new Set(), bySquare: new Map(),
  };
  if (!compact) attachInput(view);
  views.set(container, view);
  return view;
}

function attachInput(view) {
  const { root } = view;
  // which kind of pointer pressed last (board and bar), for clicks that do not say it themselves (Safari's)
  view.host.addEventListener("pointerdown", (event) => { view.lastPointer = event.pointerType || "mouse"; }, true);
  root.addEventListener("click", (event) => {
    const sq = event.target.closest?.(".sq");
    if (!sq) return;
    setRoving(view, Number(sq.dataset.index));
    activate(view, sq.dataset.square, { touch: isTouch(view, event) });
  });
  // a finger "hovers" only while it presses: on touch screens the preview is pinned by a tap instead
  root.addEventListener("pointerover", (event) => {
    if (event.pointerType === "touch") return;
    const sq = event.target.closest?.(".sq");
    point(view, sq ? targetMove(view, sq.dataset.square) : null);
  });
  root.addEventListener("pointerleave", (event) => { if (event.pointerType !== "touch") point(view, null); });
  root.addEventListener("focusin", (event) => {
    const sq = event.target.closest?.(".sq");
    if (sq) point(view, targetMove(view, sq.dataset.square));
  });
  root.addEventListener("focusout", () => point(view, null));
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && view.selected) {
      event.preventDefault();
      select(view, null);
    } else if ((event.key === "[" || event.key === "]") && view.selected) {
      const button = view.bar.buttons.querySelector(`[data-testid='rotate-${event.key === "[" ? "ccw" : "cw"}']`);
      if (button) { event.preventDefault(); button.focus(); }
    }
  });
  attachGridKeyboard(root, {
    rows: ROWS, cols: COLS,
    element: (i) => view.squares.get(view.order[i])?.g,
    activate: (i) => activate(view, view.order[i]),
    moved: (i) => { view.focus = i; },
  });
}

function setRoving(view, index) {
  view.focus = index;
  for (const { g, index: i } of view.squares.values()) g.setAttribute("tabindex", i === index ? "0" : "-1");
}

// ---- selection, targets and previews ---------------------------------------------------------------------------

/** The legal moves by square: Map(from -> {steps: Map(to -> move), turns: [{move, turn}]}). */
function movesBySquare(legal) {
  const out = new Map();
  for (const move of legal) {
    const m = parseMove(move);
    if (!m) continue;
    if (!out.has(m.from)) out.set(m.from, { steps: new Map(), turns: [] });
    const entry = out.get(m.from);
    if (m.to) entry.steps.set(m.to, move);
    else entry.turns.push({ move, turn: m.turn });
  }
  return out;
}

const NO_MOVES = { steps: new Map(), turns: [] };

/** The legal moves of the piece on `square`: {steps: Map(to -> move), turns: [{move, turn}]}. */
function movesOf(view, square) {
  return view.bySquare.get(square) || NO_MOVES;
}

function targetMove(view, square) {
  if (!view.selected || !square) return null;
  return movesOf(view, view.selected).steps.get(square) || null;
}

/** Was `event` (a click) made by a finger? Not when it came from the keyboard (detail 0). */
function isTouch(view, event) {
  if (!event || event.detail === 0) return false;
  return (event.pointerType || view.lastPointer) === "touch";
}

/**
 * A square clicked, tapped or Entered. A target plays its move, except for a first tap (`touch`): that pins the
 * move's preview, and only a second tap on the same target (or the bar's Play button) plays it.
 */
function activate(view, square, { touch = false } = {}) {
  if (!square) return;
  if (view.opts.edit) {
    view.opts.edit.onSquare?.(square);
    return;
  }
  const move = targetMove(view, square);
  if (move) {
    if (touch && view.pinned !== move) pin(view, move);
    else commit(view, move);
    return;
  }
  if (square === view.selected) {
    select(view, null);
    return;
  }
  const { steps, turns } = movesOf(view, square);
  if (steps.size || turns.length) {
    select(view, square);
  } else if (view.selected) {
    select(view, null);
  } else if (view.legal.size) {
    const piece = pieceAt(view.board, square);
    say(view, piece && piece.colour === view.board.to_move
      ? `The ${KIND_LABELS[piece.kind]} on ${square} has no move.`
      : `Choose one of your own pieces (${COLOUR_NAMES[view.board.to_move] || ""}).`);
  }
}

/** A turn button pressed: a click plays its move, a first tap pins its preview. */
function turnPressed(view, move, event) {
  if (isTouch(view, event) && view.pinned !== move) pin(view, move);
  else commit(view, move);
}

/** Show `move`'s shot until the move is played or another is chosen (touch screens: the first tap). */
function pin(view, move) {
  view.pinned = move;
  paintTargets(view);
  renderBar(view);
  renderPreview(view);
}

function commit(view, move) {
  const opts = view.opts;
  view.selected = null;
  view.pinned = null;
  point(view, null);
  if (opts.onMove) opts.onMove(move);
  else opts.onSquare?.(move, { legal: true });
}

function select(view, square) {
  view.selected = square;
  view.pointed = null;
  view.pinned = null;
  paintTargets(view);
  renderBar(view);
  renderPreview(view);
}

function point(view, move) {
  if (view.pointed === move) return;
  view.pointed = move;
  renderPreview(view);
}

function pieceAt(board, square) {
  return (board?.pieces || []).find((p) => p.square === square) || null;
}

function say(view, text) {
  if (view.bar) view.bar.info.textContent = text;
}

/** The move whose preview is drawn: the one pointed at, else the one pinned (a first tap), else the hint. */
function previewMove(view) {
  if (view.pointed) return view.pointed;
  if (view.pinned && view.board?.previews?.[view.pinned]) return view.pinned;
  const hint = view.opts.hint;
  return hint && view.board?.previews?.[hint] && !view.selected ? hint : null;
}

function renderPreview(view) {
  view.previewLayer.replaceChildren();
  const move = previewMove(view);
  const beam = move ? view.board?.previews?.[move] : null;
  view.root.classList.toggle("previewing", !!beam);
  if (beam) {
    const g = beamElement(beam, "preview", "laser-preview");
    g.dataset.move = move;
    view.previewLayer.append(g);
  }
  if (view.bar) {
    const verdict = beamVerdict(beam, view.opts.seatNames || COLOUR_NAMES);
    view.bar.preview.textContent = beam ? `${move}: ${verdict.text}` : "";
    view.bar.preview.dataset.level = beam ? verdict.level : "";
    view.bar.preview.hidden = !beam;
    syncBarFrame(view);
  }
}

function paintTargets(view) {
  const { steps } = view.selected ? movesOf(view, view.selected) : NO_MOVES;
  const pinned = parseMove(view.pinned);
  for (const [name, s] of view.squares) {
    const g = s.g;
    const target = steps.has(name);
    const movable = !view.opts.edit && view.bySquare.has(name);
    const selected = name === (view.opts.edit ? view.opts.edit.selected : view.selected);
    g.classList.toggle("target", target);
    g.classList.toggle("swap", target && !!pieceAt(view.board, name));
    g.classList.toggle("movable", movable);
    g.classList.toggle("selected", selected);
    g.classList.toggle("pinned", target && pinned?.to === name);
    g.dataset.target = String(target);
    g.dataset.selected = String(selected);
    g.dataset.legal = String(target || movable);
  }
  view.root.classList.toggle("has-selection", !!view.selected);
}

function renderBar(view) {
  if (!view.bar) return;
  const { bar, board, opts } = view;
  const names = opts.seatNames || COLOUR_NAMES;
  bar.buttons.replaceChildren();
  bar.extra.replaceChildren();
  bar.root.hidden = !!opts.edit; // the editor has its own bar
  if (opts.edit) return;
  const mover = board.to_move;
  if (view.selected) {
    const piece = pieceAt(board, view.selected);
    const { steps, turns } = movesOf(view, view.selected);
    const pinned = view.pinned ? parseMove(view.pinned) : null;
    bar.info.textContent = pinned
      ? `${view.pinned}: tap ${pinned.to ? pinned.to : "the button"} again, or Play, to make the move.`
      : `${KIND_LABELS[piece?.kind] || "Piece"} on ${view.selected}: `
        + (steps.size && turns.length ? "move to a marked square or turn it" : steps.size ? "move to a marked square" : "turn it");
    for (const { move, turn } of [...turns].sort((a, b) => (a.turn === "-" ? -1 : 1) - (b.turn === "-" ? -1 : 1))) {
      bar.buttons.append(turnButton(view, piece, move, turn));
    }
    if (pinned) {
      bar.extra.append(h("button", {
        type: "button", class: "btn small primary", "data-testid": "preview-play", "data-move": view.pinned,
        title: `Make the move ${view.pinned}`, onclick: () => commit(view, view.pinned),
      }, icon("play"), `Play ${view.pinned}`));
      // a swap target that is one of the mover's own pieces: it may be that piece one meant to pick
      const other = pinned.to && pieceAt(board, pinned.to);
      if (other && movesOf(view, pinned.to) !== NO_MOVES) {
        bar.extra.append(h("button", {
          type: "button", class: "btn small ghost", "data-testid": "select-instead",
          onclick: () => select(view, pinned.to),
        }, `Pick the ${KIND_LABELS[other.kind]} on ${pinned.to} instead`));
      }
    }
    bar.buttons.append(h("button", {
      type: "button", class: "btn small ghost", "data-testid": "select-cancel", title: "Drop the selection (Esc)",
      onclick: () => select(view, null),
    }, "Cancel"));
  } else if (view.legal.size) {
    bar.info.textContent = `Choose one of your pieces (${names[mover] || COLOUR_NAMES[mover]}), then where it goes.`;
  } else {
    bar.info.textContent = "";
  }
  if (view.legal.has("claim")) {
    bar.extra.append(h("button", {
      type: "button", class: "btn small attention", "data-testid": "btn-claim",
      title: "The position occurred for the third time: you may claim a draw",
      onclick: () => commit(view, "claim"),
    }, "Claim draw"));
  }
  const counters = [];
  if (board.repetitions > 1) counters.push(`this position occurred ${board.repetitions} times (a third is a draw)`);
  if (board.quiet_limit > 0 && board.quiet > 0) counters.push(`${board.quiet} of ${board.quiet_limit} plies without a piece removed`);
  bar.counters.textContent = counters.length ? `${counters.join(" · ").replace(/^./, (c) => c.toUpperCase())}.` : "";
  bar.counters.hidden = counters.length === 0;
  bar.row.hidden = !bar.info.textContent && !bar.buttons.childElementCount && !bar.extra.childElementCount;
  syncBarFrame(view);
}

/** An empty bar keeps its place (the page does not jump) but shows no box. */
function syncBarFrame(view) {
  const { bar } = view;
  bar.root.classList.toggle("empty", bar.row.hidden && bar.preview.hidden && bar.counters.hidden);
}

function turnButton(view, piece, move, turn) {
  let label;
  if (piece?.kind === "sphinx") {
    const i = FACINGS.indexOf(piece.facing);
    const next = FACINGS[(i + (turn === "+" ? 1 : 3)) % 4];
    label = `Aim the laser ${({ N: "north", E: "east", S: "south", W: "west" })[next]}`;
  } else if (piece?.kind === "scarab") {
    label = "Turn (flip the mirror)";
  } else {
    label = turn === "+" ? "Turn clockwise" : "Turn anticlockwise";
  }
  const glyph = icon(turn === "+" ? "turn-cw" : "turn-ccw");
  const button = h("button", {
    type: "button", class: "btn small turn-btn", "data-testid": `rotate-${turn === "+" ? "cw" : "ccw"}`,
    "data-move": move, title: `${label} (${move}; key ${turn === "+" ? "]" : "["})`,
    "aria-label": `${label}, ${move}`, "aria-pressed": view.pinned === move ? "true" : null,
    onclick: (event) => turnPressed(view, move, event),
  }, glyph, label);
  button.classList.toggle("pinned", view.pinned === move);
  for (const type of ["pointerenter", "focus"]) {
    button.addEventListener(type, (event) => { if (event.pointerType !== "touch") point(view, move); });
  }
  for (const type of ["pointerleave", "blur"]) {
    button.addEventListener(type, (event) => { if (event.pointerType !== "touch") point(view, null); });
  }
  return button;
}

function drawPieces(view, board) {
  const key = (board.pieces || []).map((p) => `${p.square}${p.kind}${p.colour}${p.facing}`).join(",");
  if (key === view.piecesKey) return;
  view.piecesKey = key;
  view.piecesLayer.replaceChildren(...(board.pieces || []).map((p) => pieceElement(p, { testid: !view.compact })));
}

function drawLast(view, opts) {
  view.lastLayer.replaceChildren();
  const events = Array.isArray(opts.events) ? opts.events : [];
  const laser = events.find((e) => e && e.type === "laser");
  if (laser) view.lastLayer.append(beamElement(laser, "last", view.compact ? null : "last-beam"));
  else if (view.board.sample_beam) view.lastLayer.append(beamElement(view.board.sample_beam, "shot", null));
  const removed = events.find((e) => e && e.type === "remove");
  if (removed && isSquare(removed.square)) {
    const ghost = pieceElement({ ...removed }, { testid: false });
    ghost.classList.add("ghost");
    const mark = svg("g", { class: "removed-mark", "data-testid": view.compact ? null : "removed-mark", "data-square": removed.square },
      ghost, hitMark(removed.square, "removed-x"));
    view.lastLayer.append(mark);
  }
}

function squareLabel(view, name) {
  const piece = pieceAt(view.board, name);
  const parts = [name, piece ? pieceWords(piece, view.opts.seatNames) : "empty"];
  const res = view.board.reserved?.[name];
  if (res === 0 || res === 1) parts.push(`reserved for ${(view.opts.seatNames || COLOUR_NAMES)[res]}`);
  const s = view.squares.get(name);
  if (s.g.classList.contains("target")) {
    const move = targetMove(view, name);
    const verdict = beamVerdict(view.board.previews?.[move], view.opts.seatNames);
    parts.push(`play ${move}${verdict.text ? `: ${verdict.text}` : ""}`);
  } else if (s.g.classList.contains("movable")) {
    parts.push("yours to move");
  }
  return parts.join(", ");
}

function update(view, board, opts) {
  const previous = view.board;
  view.board = board;
  view.opts = opts;
  view.legal = new Set(opts.legal || []);
  view.bySquare = movesBySquare(view.legal);
  if (previous && previous.position !== board.position) {
    view.selected = null;
    view.pointed = null;
    view.pinned = null;
  }
  if (view.selected && !view.bySquare.has(view.selected)) view.selected = null;
  if (view.pinned && (!view.selected || !view.legal.has(view.pinned))) view.pinned = null;
  if (!view.compact) {
    view.root.style.setProperty("--turn", opts.turn === 0 || opts.turn === 1 ? `var(--khet-c${opts.turn})` : "var(--frame)");
  }
  view.root.classList.toggle("interactive", !view.compact && (view.legal.size > 0 || !!opts.edit));
  const last = parseMove(opts.last);
  const hint = parseMove(opts.hint);
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
    s.g.classList.toggle("last", !!last && (last.from === name || last.to === name));
    s.g.classList.toggle("hint", !!hint && (hint.from === name || hint.to === name));
    s.g.classList.toggle("marked", !!opts.edit?.marks?.includes(name));
  }
  drawPieces(view, board);
  drawLast(view, opts);
  paintTargets(view);
  if (!view.compact) {
    for (const name of view.squares.keys()) view.squares.get(name).g.setAttribute("aria-label", squareLabel(view, name));
    if (view.focus < 0) {
      const first = [...view.squares.values()].find((s) => s.g.dataset.legal === "true");
      setRoving(view, first ? first.index : view.order.indexOf(board.sphinx?.[String(board.to_move)] || "a1"));
    }
  }
  if (view.pointed && !view.board.previews?.[view.pointed]) view.pointed = null;
  renderBar(view);
  renderPreview(view);
}

/**
 * Draw `board` in `container`, or update the drawing there (the selection, focus and cursor are kept while the
 * position stays). opts (see games/index.js): legal (moves in notation), onMove(move) (a move chosen; else
 * onSquare(move)), turn, hint (a move), last (the last move), events (the last move's events: its beam is drawn
 * faintly), perspective (the seat at the bottom: 1 turns the board round), seatNames, compact, label;
 * edit: {onSquare(square), selected, marks} for the position editor (any square is clickable, no moves).
 */
export function render(container, board, opts = {}) {
  if (!board || board.kind !== "khet") board = emptyBoard();
  let view = views.get(container);
  const flipped = !opts.compact && opts.perspective === 1;
  if (!view || !container.contains(view.root) || view.compact !== !!opts.compact || view.flipped !== flipped) {
    view = build(container, opts);
  }
  update(view, board, opts);
  return view.root;
}

/** Move the keyboard cursor to `square` and focus it. */
export function focusSquare(container, square) {
  const view = views.get(container);
  const s = view?.squares.get(String(square).slice(0, 2));
  if (!s || view.compact) return;
  setRoving(view, s.index);
  s.g.focus();
}

/** The square (or null) under a client point, for the editor's dragging. */
export function squareAtPoint(container, clientX, clientY) {
  const view = views.get(container);
  if (!view) return null;
  const el = document.elementFromPoint(clientX, clientY)?.closest?.(".sq");
  return el && view.root.contains(el) ? el.dataset.square : null;
}

// ---- animation -------------------------------------------------------------------------------------------------

/** Milliseconds per square of the beam: about 45, quicker for long beams (a shot lasts at most ~1 s). */
export function beamStep(length) {
  return length <= 20 ? 45 : Math.max(12, Math.round(900 / length));
}

/**
 * Play a move's events from the board `before` it: the piece steps, swaps or turns, then the laser crosses the
 * board square by square, then the piece it hits fades out. Resolves when done, at once when opts.signal
 * aborts; opts.fast() (another position is waiting) speeds the rest up, but only by about half: a shot is short,
 * and one's own shot should still be seen when the computer answers at once. The caller draws the final board.
 */
export async function animate(container, events, before, opts = {}) {
  const view = views.get(container);
  if (!view || view.compact || !Array.isArray(events) || !events.length) return;
  const { signal } = opts;
  const reduced = prefersReducedMotion();
  const action = events.find((e) => e.type === "step" || e.type === "swap" || e.type === "rotate");
  const laser = events.find((e) => e.type === "laser");
  const removed = events.find((e) => e.type === "remove");
  const board = before && before.kind === "khet" ? { ...before, pieces: (before.pieces || []).map((p) => ({ ...p })) } : view.board;
  const base = { ...view.opts, legal: [], hint: null, events: [], last: action?.move || null, turn: laser ? laser.player : -1 };
  const pace = (ms) => Math.round(reduced ? Math.min(ms, 60) : opts.fast?.() ? ms * 0.55 : ms);
  view.root.classList.add("animating");
  view.selected = null;
  view.pointed = null;
  view.pinned = null;
  try {
    if (action) {
      const moved = applyAction(board, action);
      update(view, board, base);
      if (!reduced) {
        const duration = pace(240);
        for (const { square, from, turn } of moved) {
          const el = view.piecesLayer.querySelector(`[data-square='${square}'] .pc-move`);
          if (!el) continue;
          const frames = from
            ? [{ transform: `translate(${centreOf(from)[0] - centreOf(square)[0]}px, ${centreOf(from)[1] - centreOf(square)[1]}px)` }, { transform: "translate(0px, 0px)" }]
            : [{ transform: `rotate(${turn}deg)` }, { transform: "rotate(0deg)" }];
          el.animate(frames, { duration, easing: "cubic-bezier(.3,.7,.3,1)" });
        }
        await wait(duration + 30, signal);
      }
    }
    if (signal?.aborted || !laser) return;
    // the beam, square by square
    const pts = beamPoints(laser);
    const beam = svg("g", {
      class: "beam shot", "data-testid": "laser-beam", "data-squares": (laser.squares || []).join(" "),
      "data-stop": laser.stop || "", "data-removed": laser.removed ? laser.removed.square : "",
    });
    const glow = svg("polyline", { class: "beam-glow", points: pointsAttr(pts.slice(0, 1)) });
    const core = svg("polyline", { class: "beam-core", points: pointsAttr(pts.slice(0, 1)) });
    const head = svg("circle", { class: "beam-head", r: 5, cx: pts[0][0], cy: pts[0][1] });
    beam.append(glow, core, head);
    view.fx.append(beam);
    view.piecesLayer.querySelector(`[data-square='${laser.from}']`)?.classList.add("firing");
    for (let i = 1; i < pts.length; i++) {
      if (signal?.aborted) return;
      await wait(reduced ? 0 : pace(beamStep(pts.length)), signal);
      const shown = pointsAttr(pts.slice(0, i + 1));
      glow.setAttribute("points", shown);
      core.setAttribute("points", shown);
      head.setAttribute("cx", pts[i][0]);
      head.setAttribute("cy", pts[i][1]);
    }
    if (removed && isSquare(removed.square)) {
      beam.append(hitMark(removed.square, "beam-hit"));
      const el = view.piecesLayer.querySelector(`[data-square='${removed.square}']`);
      if (el) {
        el.classList.add("hit");
        if (!reduced) {
          el.querySelector(".pc-move").animate(
            [{ opacity: 1, transform: "scale(1)" }, { opacity: 1, transform: "scale(1.15)", offset: 0.25 }, { opacity: 0, transform: "scale(0.4)" }],
            { duration: pace(520), easing: "ease-in", fill: "forwards" });
        }
      }
      await wait(pace(540), signal);
    } else {
      await wait(pace(260), signal);
    }
  } finally {
    view.fx.replaceChildren();
    view.root.classList.remove("animating");
    view.piecesLayer.querySelectorAll(".firing").forEach((el) => el.classList.remove("firing"));
  }
}

/** Apply a step, swap or rotate event to `board` (pieces only); the squares that changed, to animate. */
function applyAction(board, action) {
  const pieces = board.pieces;
  if (action.type === "rotate") {
    const p = pieces.find((q) => q.square === action.square);
    if (!p) return [];
    const turn = action.clockwise ? -90 : 90; // animate from the old facing
    p.facing = action.facing;
    return [{ square: p.square, turn }];
  }
  const a = pieces.find((q) => q.square === action.from);
  const b = pieces.find((q) => q.square === action.to);
  if (!a) return [];
  a.square = action.to;
  const out = [{ square: action.to, from: action.from }];
  if (b) {
    b.square = action.from;
    out.push({ square: action.from, from: action.to });
  }
  return out;
}
