// Playing on the Micro Robots board: a click, Enter or Space on a square tells the page (opts.onSquare); pointing
// at a legal jump, or moving the keyboard cursor onto one, draws the jump from the robot. Which squares the robot
// may jump to is the server's legal list (opts.legal): nothing here knows the rule. The robot may also be dragged
// (mouse, pen or finger: games/drag.js) onto a legal jump, drawn as the pointer crosses it; dropped anywhere else
// (or Esc) it goes back.

import { attachDrag } from "../drag.js";
import { attachGridKeyboard } from "../grid.js";
import { showPreview, views } from "./draw.js";

export function attachInput(view) {
  const { root, size, squares } = view;
  const nameOf = (i) => view.board?.squares?.[i]?.name;
  const isLegal = (i) => squares[i]?.g.dataset.legal === "true";
  const activate = (i) => view.opts.onSquare?.(nameOf(i), { legal: isLegal(i) });
  const point = (i) => showPreview(view, i >= 0 && isLegal(i) && root.classList.contains("interactive") ? nameOf(i) : null);
  root.addEventListener("click", (event) => {
    const sq = event.target.closest?.(".sq");
    if (!sq) return;
    const i = Number(sq.dataset.index);
    setRoving(view, i);
    activate(i);
  });
  root.addEventListener("pointerover", (event) => {
    const sq = event.target.closest?.(".sq");
    point(sq ? Number(sq.dataset.index) : -1);
  });
  root.addEventListener("pointerleave", () => point(view.focusInside ? view.focus : -1));
  root.addEventListener("focusin", (event) => {
    view.focusInside = true;
    const sq = event.target.closest?.(".sq");
    if (sq) point(Number(sq.dataset.index));
  });
  root.addEventListener("focusout", () => { view.focusInside = false; point(-1); });
  attachGridKeyboard(root, {
    rows: size, cols: size,
    element: (i) => squares[i]?.g,
    activate,
    moved: (i) => { view.focus = i; point(i); },
  });
  const indexOfName = (name) => (name ? view.board?.squares?.findIndex((s) => s.name === name) ?? -1 : -1);
  view.drag = attachDrag(root, {
    grab: (name) => name === view.board?.robot && root.classList.contains("interactive"),
    lift: () => view.robot.g,
    hover: (name) => point(indexOfName(name)),
    drop: (name) => {
      const i = indexOfName(name);
      point(-1);
      if (i < 0 || !isLegal(i)) return false;
      activate(i);
      return true;
    },
    cancel: () => point(-1),
  });
  view.afterDraw = placeCursor;
}

/** The keyboard cursor starts on the hinted square, else the first legal jump, else the robot. */
function placeCursor(view) {
  if (view.focus >= 0 && view.squares[view.focus]) return;
  const byName = (name) => (name ? view.board.squares.findIndex((s) => s.name === name) : -1);
  const hint = byName(view.opts.hint);
  const robot = byName(view.board.robot);
  setRoving(view, hint >= 0 ? hint : view.firstLegal >= 0 ? view.firstLegal : Math.max(0, robot));
}

function setRoving(view, index) {
  view.focus = index;
  view.squares.forEach((s, i) => s.g.setAttribute("tabindex", i === index ? "0" : "-1"));
}

/** Move the keyboard cursor to square `name` (e.g. "R5") and focus it (pages use it, e.g. after a hint). */
export function focusSquare(container, name) {
  const view = views.get(container);
  if (!view || view.compact || !view.board) return;
  const i = view.board.squares.findIndex((s) => s.name === name);
  if (i < 0) return;
  setRoving(view, i);
  view.squares[i].g.focus();
}
