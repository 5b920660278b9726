// Playing on the Jewels and Lasers board. Placing: the squares the server offers (moves of type "place") are
// marked; pointing at one shows where the other man goes (its mirror square); a click places. Moving: click (or
// Enter on) your man to select him; his slides (moves of type "slide") are marked with a dot, the walls he may blow
// up (type "explode") with a burst, and the squares he may not reach (board.forbidden) with a cross and the reason;
// pointing at a target shows the path or the squares the explosion clears; a click plays. A pass is a button. The
// bar under the board says what to do and what is pointed at, and holds the rays and piece-set switches.
//
// The man may also be dragged (mouse, pen or finger: games/drag.js) onto one of his targets, which shows its path
// or the squares its explosion clears on the way; a drop elsewhere or Esc puts him back.
//
// Every move is the server's (board.moves, by notation): this module computes none.

import { h, svg } from "../../dom.js";
import { gameT, said } from "../../i18n.js";
import { attachDrag } from "../drag.js";
import { attachGridKeyboard } from "../grid.js";
import { drawRays, manFigure, prefs, seatNames, squareWords, update, views } from "./draw.js";

const tk = gameT("jewels");

export function attachInput(view, container) {
  const { root } = view;
  const bar = {
    info: h("span", { class: "board-info jw-info", "data-testid": "jewels-info", "aria-live": "polite" }),
    play: h("span", { class: "board-turns" }),
    rays: h("button", {
      type: "button", class: "btn small ghost", "data-testid": "btn-rays", title: tk("input.rays.title"),
      onclick: () => toggleRays(view),
    }),
    set: h("button", {
      type: "button", class: "btn small ghost", "data-testid": "btn-piece-set", title: tk("input.set.title"),
      onclick: () => toggleSet(view),
    }),
  };
  bar.row = h("div", { class: "board-bar-row" }, bar.info, bar.play, h("span", { class: "board-extra" }, bar.rays, bar.set));
  bar.root = h("div", { class: "board-bar", "data-testid": "jewels-bar" }, bar.row);
  view.bar = bar;
  view.host = h("div", { class: "jewels-view" }, root, bar.root);
  container.replaceChildren(view.host);
  Object.assign(view, { selected: false, pointed: null });
  root.addEventListener("click", (event) => {
    const sq = event.target.closest?.(".sq");
    if (!sq) return;
    setRoving(view, Number(sq.dataset.index));
    activate(view, sq.dataset.square);
  });
  root.addEventListener("pointerover", (event) => {
    const sq = event.target.closest?.(".sq");
    point(view, sq ? sq.dataset.square : null);
  });
  root.addEventListener("pointerleave", () => point(view, null));
  root.addEventListener("focusin", (event) => {
    const sq = event.target.closest?.(".sq");
    if (sq) point(view, sq.dataset.square);
  });
  root.addEventListener("focusout", () => point(view, null));
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && view.selected) {
      event.preventDefault();
      select(view, false);
    } else if (boardKey(view, event.key)) {
      event.preventDefault();
    }
  });
  attachGridKeyboard(root, {
    rows: view.geo.rows, cols: view.geo.cols,
    element: (i) => view.squares.get(view.geo.names.name(i))?.g,
    activate: (i) => activate(view, view.geo.names.name(i)),
    moved: (i) => { view.focus = i; },
  });
  view.drag = attachDrag(root, {
    grab: (square) => !!view.moves?.man && square === view.moves.man && !root.classList.contains("animating"),
    lift: (square) => {
      if (!view.selected) select(view, true);
      return root.querySelector(`.jw-piece.man[data-square='${square}']`);
    },
    hover: (square) => point(view, square),
    drop: (square) => {
      const target = offered(view).get(square);
      if (target) {
        commit(view, target.move);
        return true;
      }
      point(view, null);
      if (square !== view.moves.man) select(view, false);
      return false;
    },
    cancel: () => {
      point(view, null);
      select(view, false);
    },
  });
  view.afterDraw = refresh;
}

/** A key for the board from anywhere on the page: R shows or hides the rays. True when used. */
export function boardKey(view, key) {
  if (key === "r" || key === "R") {
    toggleRays(view);
    return true;
  }
  return false;
}

function toggleRays(view) {
  prefs.rays = !prefs.rays;
  drawRays(view, view.board);
  renderBar(view);
}

function toggleSet(view) {
  prefs.set = prefs.set === "colourful" ? "classic" : "colourful";
  update(view, view.board, view.opts);
}

// ---- the moves, by square --------------------------------------------------------------------------------------

/** The legal moves of the board by what they do: targets Map(square -> {move, what}), the man's square, the pass. */
function legalTargets(view) {
  const { board, opts } = view;
  const legal = new Set(opts.legal || []);
  const targets = new Map();
  let pass = null;
  for (const move of legal) {
    const what = board.moves?.[move];
    if (!what) continue;
    if (what.type === "place") targets.set(what.square, { move, what });
    else if (what.type === "slide") targets.set(what.to, { move, what });
    else if (what.type === "explode") targets.set(what.wall, { move, what });
    else if (what.type === "pass") pass = move;
  }
  const mover = board.to_move;
  const man = board.phase === "men" && (mover === 0 || mover === 1) ? board.men?.[mover] : null;
  return { targets, pass, man: targets.size ? man : null, placing: board.phase === "place" };
}

/** After every drawing: drop the selection when the position changed, mark the targets, label the squares. */
function refresh(view, previous) {
  view.moves = legalTargets(view);
  if (previous && previous.position !== view.board.position) {
    view.drag.cancel();
    view.selected = false;
    view.pointed = null;
  }
  if (!view.moves.man) view.selected = false;
  view.root.classList.toggle("interactive", view.moves.targets.size > 0 || !!view.moves.pass);
  if (view.focus < 0 || !view.squares.get(view.geo.names.name(view.focus))) {
    const start = view.moves.man || [...view.moves.targets.keys()][0] || view.board.men?.[0];
    setRoving(view, Math.max(0, view.geo.names.index(start)));
  }
  paint(view);
  renderBar(view);
}

function setRoving(view, index) {
  view.focus = index;
  for (const { g, index: i } of view.squares.values()) g.setAttribute("tabindex", i === index ? "0" : "-1");
}

/** The targets offered now: the placements, or the selected man's moves. */
function offered(view) {
  const { moves } = view;
  return moves.placing || view.selected ? moves.targets : new Map();
}

/** The squares the selected man may not reach, each with why: in the page's language when the server gave its code
 * (said), else its English as sent. */
function forbiddenOf(view) {
  const out = new Map();
  if (!view.selected) return out;
  const seats = seatNames(view.opts);
  for (const f of view.board.forbidden || []) out.set(f.square, said(f, seats) || f.reason);
  return out;
}

function activate(view, square) {
  if (!square || view.root.classList.contains("animating")) return;
  const target = offered(view).get(square);
  if (target) {
    commit(view, target.move);
  } else if (view.moves.man && square === view.moves.man) {
    select(view, !view.selected);
  } else if (view.selected) {
    const reason = forbiddenOf(view).get(square);
    if (reason) say(view, tk("input.square_note", { square, text: reason }));
    else select(view, false);
  } else if (view.moves.man) {
    say(view, tk("input.click_man_first", { square: view.moves.man }));
  }
}

function commit(view, move) {
  view.selected = false;
  view.pointed = null;
  const { opts } = view;
  if (opts.onMove) opts.onMove(move);
  else opts.onSquare?.(move, { legal: true });
}

function select(view, on) {
  view.selected = on;
  paint(view);
  renderBar(view);
}

function point(view, square) {
  if (view.pointed === square) return;
  view.pointed = square;
  paint(view);
  renderBar(view);
}

function say(view, text) {
  view.bar.info.textContent = text;
}

// ---- marks and words -------------------------------------------------------------------------------------------

/** What pointing at `square` shows: a placement's mirror, a slide's path, an explosion's cleared squares. */
function pointedEffect(view) {
  const target = offered(view).get(view.pointed);
  const what = target?.what;
  if (!what) return { mirror: null, path: [], doomed: [] };
  if (what.type === "place") return { mirror: what.mirror, path: [], doomed: [] };
  if (what.type === "slide") return { mirror: null, path: what.path || [], doomed: [] };
  return { mirror: null, path: [], doomed: (what.destroyed || []).filter((sq) => sq !== what.wall) };
}

function paint(view) {
  const targets = offered(view);
  const forbidden = forbiddenOf(view);
  const effect = pointedEffect(view);
  const seats = seatNames(view.opts);
  for (const [name, s] of view.squares) {
    const target = targets.get(name);
    const type = target?.what.type || "";
    const isMan = !!view.moves.man && name === view.moves.man;
    const reason = forbidden.get(name) || "";
    const g = s.g;
    g.classList.toggle("target", !!target);
    g.classList.toggle("explode", type === "explode");
    g.classList.toggle("jewel-target", type === "slide" && !!target.what.jewel);
    g.classList.toggle("movable", isMan);
    g.classList.toggle("selected", isMan && view.selected);
    g.classList.toggle("forbidden", !!reason);
    g.classList.toggle("mirror", name === effect.mirror);
    g.classList.toggle("path", effect.path.includes(name));
    g.classList.toggle("doomed", effect.doomed.includes(name));
    g.dataset.legal = String(!!target || isMan);
    g.dataset.target = target ? type : "";
    g.dataset.move = target ? target.move : "";
    g.dataset.forbidden = reason;
    g.dataset.selected = String(isMan && view.selected);
    const words = squareWords(view, name);
    if (target) words.push(targetWords(target, seats));
    else if (isMan) words.push(view.selected ? tk("cell.man_selected") : tk("cell.man_select"));
    if (reason) words.push(tk("cell.forbidden", { reason }));
    const label = words.join(", ");
    g.setAttribute("aria-label", label);
    s.title.textContent = label;
  }
  drawMarks(view, targets, forbidden, effect);
  view.root.classList.toggle("has-selection", view.selected);
}

function targetWords({ move, what }, seats) {
  if (what.type === "place") return tk("cell.target.place", { move, name: seats[1], mirror: what.mirror });
  if (what.type === "slide") return tk("cell.target.slide", { move, jewel: what.jewel ? "yes" : "no" });
  return tk("cell.target.explode", { move, squares: (what.destroyed || []).join(", ") });
}

/** The marks over the pieces: a dot per slide, a burst per explosion, a cross per forbidden square, the mirror's
 * ghost man. */
function drawMarks(view, targets, forbidden, effect) {
  const layer = view.layers.marks;
  layer.replaceChildren();
  const { geo } = view;
  for (const [square, { what }] of targets) {
    const [x, y] = geo.centre(square);
    if (what.type === "explode") {
      layer.append(svg("path", { class: "jw-mark-explode", d: burstPath(x, y) }));
    } else {
      layer.append(svg("circle", { class: `jw-mark-dot${what.jewel ? " jewel" : ""}`, cx: x, cy: y, r: what.jewel ? 15 : 6 }));
    }
  }
  for (const square of forbidden.keys()) {
    const [x, y] = geo.centre(square);
    layer.append(svg("path", { class: "jw-mark-cross", d: `M${x - 9} ${y - 9} L${x + 9} ${y + 9} M${x + 9} ${y - 9} L${x - 9} ${y + 9}` }));
  }
  if (effect.mirror && view.squares.has(effect.mirror)) {
    const [x, y] = geo.centre(effect.mirror);
    layer.append(svg("g", { class: "jw-ghost", transform: `translate(${x} ${y})`, "data-testid": "mirror-ghost", "data-square": effect.mirror },
      manFigure(1, prefs.set)));
  }
}

function burstPath(x, y) {
  const pts = [];
  for (let k = 0; k < 16; k++) {
    const r = k % 2 ? 7 : 16;
    const a = (Math.PI * k) / 8;
    pts.push(`${(x + r * Math.cos(a)).toFixed(1)} ${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${pts.join(" L")} Z`;
}

function renderBar(view) {
  const { bar, board, moves } = view;
  const seats = seatNames(view.opts);
  bar.rays.textContent = prefs.rays ? tk("input.rays.hide") : tk("input.rays.show");
  bar.rays.setAttribute("aria-pressed", String(prefs.rays));
  bar.set.textContent = prefs.set === "colourful" ? tk("input.set.classic") : tk("input.set.colourful");
  bar.set.dataset.set = prefs.set;
  bar.play.replaceChildren();
  if (moves.pass) {
    bar.play.append(h("button", {
      type: "button", class: "btn small primary", "data-testid": "btn-pass", "data-move": moves.pass,
      onclick: () => commit(view, moves.pass),
    }, tk("input.pass")));
  }
  if (view.selected) {
    bar.play.append(h("button", {
      type: "button", class: "btn small ghost", "data-testid": "select-cancel", title: tk("input.cancel_title"),
      onclick: () => select(view, false),
    }, tk("input.cancel")));
  }
  bar.info.textContent = infoText(view, board, moves, seats);
}

function infoText(view, board, moves, seats) {
  const pointed = view.pointed;
  const target = pointed ? offered(view).get(pointed) : null;
  if (target) return tk("input.square_note", { square: pointed, text: targetWords(target, seats) });
  const reason = pointed ? forbiddenOf(view).get(pointed) : null;
  if (reason) return tk("input.forbidden", { square: pointed, reason });
  const mover = seats[board.to_move] || "";
  if (moves.placing && moves.targets.size) return tk("input.place", { mover, name: seats[1] });
  if (moves.pass) return tk("input.no_move", { mover });
  if (view.selected) {
    const blasts = [...moves.targets.values()].filter((t) => t.what.type === "explode").length;
    return tk("input.selected", { square: moves.man, blast: blasts ? "yes" : "no" });
  }
  if (moves.man) return tk("input.click_man", { mover, square: moves.man });
  return "";
}

/** Move the keyboard cursor to `square` and focus it. */
export function focusSquare(container, square) {
  const view = views.get(container);
  const s = view?.squares.get(String(square));
  if (!s || view.compact) return;
  setRoving(view, s.index);
  s.g.focus();
}
