// Playing on the Khet board: click (or Enter on) one of your pieces to select it; its step and swap targets are
// marked and its turn buttons appear in the bar under the board; pointing at a target or a turn button shows the
// laser preview; a click plays it. A touch screen cannot point: there the first tap on a target or a turn button
// pins its preview (the bar says what the shot does and offers "Play <move>"), and a second tap on it, or Play,
// makes the move. Esc drops the selection, [ and ] bring the focus to the turn buttons.
// A piece may also be dragged (mouse, pen or finger): it follows the pointer, its targets are marked, the shot of
// the target under it is previewed, and dropping it on a target plays the move; anywhere else (or Esc) puts it back.
// While the other side is to move, the page may offer a premove (opts.premove: the moves the server lists as if it
// were one's turn, and the board that describes them): chosen the same ways, it is marked and the page sends it when
// the turn comes; a click on the board or Esc cancels it. A premove shows no shot: the position will have changed.
//
// What each legal move does comes from the server (board.moves: {from, to} or {square, turn, facing}), and its
// shot too (board.previews): this module reads no move notation.

import { h, icon } from "../../dom.js";
import { gameT } from "../../i18n.js";
import { attachDrag } from "../drag.js";
import { attachGridKeyboard } from "../grid.js";
import { beamElement, beamVerdict, kindLabel, moveSquares, pieceAt, pieceWords, views } from "./draw.js";

const tk = gameT("khet");

const NO_MOVES = { steps: new Map(), turns: [] };

export function attachInput(view, container) {
  const { root } = view;
  view.bar = {
    info: h("span", { class: "board-info", "data-testid": "khet-info" }),
    buttons: h("span", { class: "board-turns", role: "group", "aria-label": tk("input.turn_group") }),
    extra: h("span", { class: "board-extra" }),
    preview: h("p", { class: "khet-preview-text", "data-testid": "laser-preview-text", "aria-live": "polite" }),
    counters: h("p", { class: "khet-counters muted small", "data-testid": "khet-counters" }),
  };
  const bar = view.bar;
  bar.row = h("div", { class: "board-bar-row" }, bar.info, bar.buttons, bar.extra);
  bar.root = h("div", { class: "board-bar", "data-testid": "khet-bar" }, bar.row, bar.preview, bar.counters);
  view.host = h("div", { class: "khet-view" }, root, bar.root);
  container.replaceChildren(view.host);
  Object.assign(view, { selected: null, pointed: null, pinned: null, lastPointer: "mouse", legal: new Set(), bySquare: new Map() });
  // which kind of pointer pressed last (board and bar), for clicks that do not say it themselves (Safari's)
  view.host.addEventListener("pointerdown", (event) => { view.lastPointer = event.pointerType || "mouse"; }, true);
  root.addEventListener("click", (event) => {
    if (view.opts.premove?.move) { // a click on the board drops the premove waiting to be sent
      view.opts.premove.cancel();
      return;
    }
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
    if (event.key === "Escape" && view.opts.premove?.move && !view.selected) {
      event.preventDefault();
      view.opts.premove.cancel();
    } else if (event.key === "Escape" && view.selected) {
      event.preventDefault();
      select(view, null);
    } else if ((event.key === "[" || event.key === "]") && view.selected) {
      const button = bar.buttons.querySelector(`[data-testid='rotate-${event.key === "[" ? "ccw" : "cw"}']`);
      if (button) { event.preventDefault(); button.focus(); }
    }
  });
  attachGridKeyboard(root, {
    rows: view.geo.rows, cols: view.geo.cols,
    element: (i) => view.squares.get(view.order[i])?.g,
    activate: (i) => activate(view, view.order[i]),
    moved: (i) => { view.focus = i; },
  });
  view.drag = attachDrag(root, {
    grab: (square) => !view.opts.edit && !view.premove?.move && movesOf(view, square).steps.size > 0,
    lift: (square) => {
      if (view.selected !== square) select(view, square);
      return view.piecesLayer.querySelector(`.piece[data-square='${square}']`);
    },
    hover: (square) => {
      dragOver(view, targetMove(view, square) ? square : null);
      point(view, targetMove(view, square));
    },
    drop: (square) => {
      dragOver(view, null);
      const move = targetMove(view, square);
      if (move) {
        commit(view, move);
        return true;
      }
      point(view, null);
      if (square !== view.selected) select(view, null);
      return false;
    },
    cancel: () => {
      dragOver(view, null);
      point(view, null);
      select(view, null);
    },
  });
  view.afterDraw = refresh;
}

/** After every drawing: the legal moves by square, the selection (dropped when the position changed), targets,
 * labels, the keyboard cursor, the bar and the preview. */
function refresh(view, previous) {
  const { board, opts } = view;
  // one's own moves, or (the other side to move) the premoves the page offers
  view.premove = !(opts.legal || []).length && opts.premove ? opts.premove : null;
  view.legal = new Set(view.premove ? view.premove.legal : opts.legal || []);
  view.bySquare = movesBySquare(movesBoard(view).moves || {}, view.legal);
  if (previous && previous.position !== board.position) {
    view.drag.cancel();
    view.selected = null;
    view.pointed = null;
    view.pinned = null;
  }
  if (view.selected && !view.bySquare.has(view.selected)) view.selected = null;
  if (view.pinned && (!view.selected || !view.legal.has(view.pinned))) view.pinned = null;
  view.root.classList.toggle("interactive", view.legal.size > 0 || !!opts.edit);
  view.root.classList.toggle("premoving", !!view.premove);
  view.root.dataset.premove = view.premove?.move || "";
  paintTargets(view);
  for (const [name, s] of view.squares) s.g.setAttribute("aria-label", squareLabel(view, name));
  if (view.focus < 0) {
    const first = [...view.squares.values()].find((s) => s.g.dataset.legal === "true");
    const sphinx = view.squares.get(board.sphinx?.[String(board.to_move)]);
    setRoving(view, first ? first.index : sphinx ? sphinx.index : 0);
  }
  if (view.pointed && !board.previews?.[view.pointed]) view.pointed = null;
  renderBar(view);
  renderPreview(view);
}

function setRoving(view, index) {
  view.focus = index;
  for (const { g, index: i } of view.squares.values()) g.setAttribute("tabindex", i === index ? "0" : "-1");
}

// ---- dragging (games/drag.js follows the pointer) ------------------------------------------------------------

/** Highlight the target under a dragged piece (null: none). */
function dragOver(view, square) {
  for (const s of view.squares.values()) s.g.classList.toggle("drag-over", s.g.dataset.square === square);
}

// ---- selection, targets and previews ---------------------------------------------------------------------------

/** The board whose `moves` describe the moves offered: the premoves' while a premove may be chosen. */
function movesBoard(view) {
  return view.premove?.board || view.board || {};
}

/** What `move` does ({from, to} or {square, turn, facing}), as the server describes it. */
function described(view, move) {
  return move ? movesBoard(view).moves?.[move] || null : null;
}

/** The legal moves by square: Map(square -> {steps: Map(to -> move), turns: [{move, turn, facing}]}). */
function movesBySquare(moves, legal) {
  const out = new Map();
  const entry = (square) => {
    if (!out.has(square)) out.set(square, { steps: new Map(), turns: [] });
    return out.get(square);
  };
  for (const move of legal) {
    const m = moves[move];
    if (m?.type === "rotate") entry(m.square).turns.push({ move, turn: m.turn, facing: m.facing });
    else if (m?.from && m?.to) entry(m.from).steps.set(m.to, move);
  }
  return out;
}

/** The legal moves of the piece on `square`: {steps: Map(to -> move), turns: [{move, turn, facing}]}. */
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
    if (touch && !view.premove && view.pinned !== move) pin(view, move);
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
    const mover = movesBoard(view).to_move;
    say(view, piece && piece.colour === mover
      ? tk("bar.no_move", { piece: kindLabel(view.opts.client, piece.kind), square: String(square) })
      : tk("bar.choose_own", { who: String(view.opts.seatNames?.[mover] || "") }));
  }
}

/** A turn button pressed: a click plays its move, a first tap pins its preview. */
function turnPressed(view, move, event) {
  if (isTouch(view, event) && !view.premove && view.pinned !== move) pin(view, move);
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
  if (view.premove) {
    paintTargets(view);
    view.premove.choose(move);
    return;
  }
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

function say(view, text) {
  view.bar.info.textContent = text;
}

/** The move whose preview is drawn: the one pointed at, else the one pinned (a first tap), else the hint. */
function previewMove(view) {
  if (view.premove) return null;
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
    const g = beamElement(view, beam, "preview", "laser-preview");
    g.dataset.move = move;
    view.previewLayer.append(g);
  }
  const verdict = beamVerdict(beam, view.opts.seatNames, view.opts.client);
  view.bar.preview.textContent = beam ? tk("bar.preview", { move: String(move), verdict: verdict.text }) : "";
  view.bar.preview.dataset.level = beam ? verdict.level : "";
  view.bar.preview.hidden = !beam;
  syncBarFrame(view);
}

function paintTargets(view) {
  const { steps } = view.selected ? movesOf(view, view.selected) : NO_MOVES;
  const pinned = described(view, view.pinned);
  const premove = moveSquares(view.premove ? described(view, view.premove.move) : null);
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
    g.classList.toggle("premove", premove.includes(name));
    g.dataset.premove = String(premove.includes(name));
    g.dataset.target = String(target);
    g.dataset.selected = String(selected);
    g.dataset.legal = String(target || movable);
  }
  view.root.classList.toggle("has-selection", !!view.selected);
}

function renderBar(view) {
  const { bar, board, opts } = view;
  const client = opts.client;
  bar.buttons.replaceChildren();
  bar.extra.replaceChildren();
  bar.root.hidden = !!opts.edit; // the editor has its own bar
  if (opts.edit) return;
  if (view.selected) {
    const piece = pieceAt(board, view.selected);
    const { steps, turns } = movesOf(view, view.selected);
    const pinned = described(view, view.pinned);
    bar.info.textContent = pinned
      ? (pinned.to ? tk("bar.pinned.square", { move: String(view.pinned), square: String(pinned.to) })
        : tk("bar.pinned.button", { move: String(view.pinned) }))
      : tk("bar.selected", {
        piece: kindLabel(client, piece?.kind), square: String(view.selected),
        action: steps.size && turns.length ? "both" : steps.size ? "step" : "turn",
        premove: view.premove ? "yes" : "no",
      });
    for (const turn of [...turns].sort((a, b) => (a.turn === "ccw" ? -1 : 1) - (b.turn === "ccw" ? -1 : 1))) {
      bar.buttons.append(turnButton(view, piece, turn));
    }
    if (pinned) {
      bar.extra.append(h("button", {
        type: "button", class: "btn small primary", "data-testid": "preview-play", "data-move": view.pinned,
        title: tk("bar.play_title", { move: String(view.pinned) }), onclick: () => commit(view, view.pinned),
      }, icon("play"), tk("bar.play", { move: String(view.pinned) })));
      // a swap target that is one of the mover's own pieces: it may be that piece one meant to pick
      const other = pinned.to && pieceAt(board, pinned.to);
      if (other && movesOf(view, pinned.to) !== NO_MOVES) {
        bar.extra.append(h("button", {
          type: "button", class: "btn small ghost", "data-testid": "select-instead",
          onclick: () => select(view, pinned.to),
        }, tk("bar.select_instead", { piece: kindLabel(client, other.kind), square: String(pinned.to) })));
      }
    }
    bar.buttons.append(h("button", {
      type: "button", class: "btn small ghost", "data-testid": "select-cancel", title: tk("bar.cancel_title"),
      onclick: () => select(view, null),
    }, tk("bar.cancel")));
  } else if (view.premove?.move) {
    bar.info.textContent = tk("bar.premove_chosen", { move: String(view.premove.move) });
  } else if (view.premove) {
    bar.info.textContent = tk("bar.premove_offer");
  } else if (view.legal.size) {
    bar.info.textContent = tk("bar.choose", { who: String(opts.seatNames?.[board.to_move] || "") });
  } else {
    bar.info.textContent = "";
  }
  const claim = view.premove ? null : [...view.legal].find((move) => board.moves?.[move]?.type === "claim");
  if (claim) {
    bar.extra.append(h("button", {
      type: "button", class: "btn small attention", "data-testid": "btn-claim",
      title: tk("bar.claim_title"),
      onclick: () => commit(view, claim),
    }, tk("bar.claim")));
  }
  const counters = [];
  if (board.repetitions > 1) counters.push(tk("bar.counter.repetitions", { count: board.repetitions }));
  if (board.quiet_limit > 0 && board.quiet > 0) {
    counters.push(tk("bar.counter.quiet", { quiet: board.quiet, limit: board.quiet_limit }));
  }
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

function turnButton(view, piece, { move, turn, facing }) {
  const clockwise = turn === "cw";
  const label = piece?.kind === "sphinx" ? tk("input.turn.aim", { facing: String(facing) })
    : piece?.kind === "scarab" ? tk("input.turn.flip")
      : clockwise ? tk("input.turn.cw") : tk("input.turn.ccw");
  const button = h("button", {
    type: "button", class: "btn small turn-btn", "data-testid": `rotate-${clockwise ? "cw" : "ccw"}`,
    "data-move": move, title: tk("input.turn.title", { label, move: String(move), key: clockwise ? "]" : "[" }),
    "aria-label": `${label}, ${move}`, "aria-pressed": view.pinned === move ? "true" : null,
    onclick: (event) => turnPressed(view, move, event),
  }, icon(clockwise ? "turn-cw" : "turn-ccw"), label);
  button.classList.toggle("pinned", view.pinned === move);
  for (const type of ["pointerenter", "focus"]) {
    button.addEventListener(type, (event) => { if (event.pointerType !== "touch") point(view, move); });
  }
  for (const type of ["pointerleave", "blur"]) {
    button.addEventListener(type, (event) => { if (event.pointerType !== "touch") point(view, null); });
  }
  return button;
}

function squareLabel(view, name) {
  const { board, opts } = view;
  const piece = pieceAt(board, name);
  const parts = [name, piece ? pieceWords(piece, opts.seatNames, opts.client) : tk("board.square.empty")];
  const res = board.reserved?.[name];
  if (res === 0 || res === 1) {
    parts.push(tk("board.square.reserved", { who: String(opts.seatNames?.[res] || opts.client?.seats?.[res] || "") }));
  }
  const s = view.squares.get(name);
  if (s.g.classList.contains("target")) {
    const move = targetMove(view, name);
    const verdict = beamVerdict(view.premove ? null : board.previews?.[move], opts.seatNames, opts.client);
    parts.push(view.premove ? tk("board.square.premove", { move: String(move) })
      : verdict.text ? tk("board.square.play_verdict", { move: String(move), verdict: verdict.text })
        : tk("board.square.play", { move: String(move) }));
  } else if (s.g.classList.contains("movable")) {
    parts.push(tk("board.square.movable"));
  }
  return parts.join(", ");
}

/** Move the keyboard cursor to `square` and focus it. */
export function focusSquare(container, square) {
  const view = views.get(container);
  const s = view?.squares.get(String(square));
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
