// Playing on the Exploding Atoms board: a click, Enter or Space on a square tells the page (opts.onSquare); arrow
// keys move a roving keyboard cursor. Whether a square may be played is the server's legal list (opts.legal).

import { attachGridKeyboard } from "../grid.js";
import { views } from "./draw.js";

export function attachInput(view) {
  const { root, rows, cols, squares } = view;
  const activate = (i) => view.opts.onSquare?.(view.names.name(i), { legal: squares[i].g.dataset.legal === "true" });
  root.addEventListener("click", (event) => {
    const sq = event.target.closest?.(".sq");
    if (!sq) return;
    setRoving(view, Number(sq.dataset.index));
    activate(Number(sq.dataset.index));
  });
  attachGridKeyboard(root, {
    rows, cols,
    element: (i) => squares[i]?.g,
    activate,
    moved: (i) => { view.focus = i; },
  });
  view.afterDraw = placeCursor;
}

/** The first drawing puts the keyboard cursor on the hinted square, else the first legal one. */
function placeCursor(view) {
  if (view.focus >= 0) return;
  const hint = view.opts.hint ? view.names.index(view.opts.hint) : -1;
  setRoving(view, hint >= 0 ? hint : Math.max(0, view.firstLegal));
}

function setRoving(view, index) {
  view.focus = index;
  view.squares.forEach((s, i) => s.g.setAttribute("tabindex", i === index ? "0" : "-1"));
}

/** Move the keyboard cursor to square `name` and focus it (pages use it, e.g. after a hint). */
export function focusSquare(container, name) {
  const view = views.get(container);
  if (!view || view.compact) return;
  const i = view.names.index(name);
  if (i < 0) return;
  setRoving(view, i);
  view.squares[i].g.focus();
}
