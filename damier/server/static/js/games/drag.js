// Dragging a piece on an SVG board (what board modules whose pieces move from square to square share): mouse, pen
// and finger through one pointer-event path. A press on a square the module says can be dragged becomes a drag once
// the pointer has moved DRAG_START pixels (less is a click, left to the module's click handler); the piece then
// follows the pointer, the module hears which square is under it, and the drop is the module's to judge. Esc, a
// cancelled pointer, or the module (the position changed) put the piece back. Which squares are targets, and what
// a move does, stay the module's (and so the server's): nothing here knows a rule.
//
// Squares are the board's `.sq` elements with `data-square`; the piece is any SVG element placed by a
// `translate(x y)` transform in its parent's units.

/** How far (in CSS pixels) a press moves before it is a drag; less is a click or a tap. */
export const DRAG_START = 6;

/**
 * Let pieces on `root` (the board's SVG) be dragged. hooks:
 * - `grab(square)`: may a drag start from this square now (a piece of the side to move with moves)?
 * - `lift(square)`: the press became a drag (select the piece); returns the element to move, or null;
 * - `hover(square)`: the square under the pointer changed (null: none, or off the board);
 * - `drop(square)`: the piece was let go over `square` (or null); true when that played a move (the piece then
 *   stays where it was dropped until the board is drawn again), false to put it back;
 * - `cancel()`: Esc or a cancelled pointer put the piece back.
 * Returns {cancel(): put a drag under way back, active(): whether one is}.
 */
export function attachDrag(root, hooks) {
  let drag = null;
  let dropped = false; // the click that ends a drag is not a click on a square
  root.addEventListener("click", (event) => {
    if (!dropped) return;
    dropped = false;
    event.stopImmediatePropagation();
  }, true);
  root.addEventListener("pointerdown", (event) => {
    dropped = false;
    if (drag || (event.pointerType === "mouse" && event.button !== 0)) return;
    const square = squareOf(root, event.target);
    if (!square || !hooks.grab(square)) return;
    const listening = new AbortController();
    drag = { square, pointerId: event.pointerId, x: event.clientX, y: event.clientY, moving: false, over: null, listening };
    const signal = listening.signal;
    document.addEventListener("pointermove", moved, { signal, passive: false });
    document.addEventListener("pointerup", released, { signal });
    document.addEventListener("pointercancel", (e) => { if (e.pointerId === drag?.pointerId) cancel(); }, { signal });
    // on the window, capturing: a drag under way takes Escape before anything of the page (a tutorial's card)
    window.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || !drag?.moving) return;
      e.preventDefault();
      e.stopPropagation();
      cancel();
    }, { signal, capture: true });
  });
  // a finger that pressed on a piece drags it rather than scroll the page (elsewhere on the board it scrolls):
  // CSS touch-action is not honoured on SVG squares, so the touch's moves are refused their scrolling
  root.addEventListener("touchmove", (event) => { if (drag) event.preventDefault(); }, { passive: false });

  function moved(event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    if (!drag.moving) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START) return;
      drag.moving = true;
      drag.piece = hooks.lift(drag.square) || null;
      if (drag.piece) {
        drag.home = drag.piece.getAttribute("transform");
        drag.piece.classList.add("dragging");
        drag.piece.parentNode?.append(drag.piece); // drawn above the other pieces
      }
      root.classList.add("dragging");
    }
    event.preventDefault();
    const at = localPoint(drag.piece?.parentNode, event.clientX, event.clientY);
    if (at) drag.piece.setAttribute("transform", `translate(${at.x} ${at.y})`);
    const over = squareUnder(root, event.clientX, event.clientY);
    if (over !== drag.over) {
      drag.over = over;
      hooks.hover(over);
    }
  }

  function released(event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const { moving } = drag;
    const over = moving ? squareUnder(root, event.clientX, event.clientY) : null;
    const piece = drag.piece;
    const home = drag.home;
    stop();
    if (!moving) return; // a click (or a tap): the module's click handler takes it
    dropped = true;
    const played = hooks.drop(over);
    if (!played && piece && home) piece.setAttribute("transform", home);
  }

  function cancel() {
    if (!drag) return;
    const { moving, piece, home } = drag;
    stop();
    if (!moving) return;
    if (piece && home) piece.setAttribute("transform", home);
    hooks.cancel();
  }

  function stop() {
    drag.listening.abort();
    drag.piece?.classList.remove("dragging");
    drag = null;
    root.classList.remove("dragging");
  }

  return { cancel, active: () => !!drag?.moving };
}

function squareOf(root, element) {
  const sq = element?.closest?.(".sq");
  return sq && root.contains(sq) ? sq.dataset.square : null;
}

function squareUnder(root, clientX, clientY) {
  return squareOf(root, document.elementFromPoint(clientX, clientY));
}

/** A point of the screen in `element`'s own units (the board may be scaled, or turned round). */
function localPoint(element, clientX, clientY) {
  const matrix = element?.getScreenCTM?.();
  if (!matrix) return null;
  return new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
}
