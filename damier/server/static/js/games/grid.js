// Rectangular grid geometry shared by board modules: square names (A1 top-left, columns A.. left to right, rows
// 1.. top to bottom, index = row * cols + col) and keyboard navigation with a roving focus.

export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export function squareName(index, cols) {
  const row = Math.floor(index / cols);
  return `${LETTERS[index % cols]}${row + 1}`;
}

/** Index of square `name` ("C4", case-insensitive), or -1 when it is not on a rows x cols board. */
export function squareIndex(name, cols, rows = Infinity) {
  const m = /^\s*([A-Za-z])\s*(\d{1,2})\s*$/.exec(String(name));
  if (!m) return -1;
  const col = LETTERS.indexOf(m[1].toUpperCase());
  const row = Number(m[2]) - 1;
  if (col < 0 || col >= cols || row < 0 || row >= rows) return -1;
  return row * cols + col;
}

/** Orthogonal neighbours of square `index`: north, east, south, west (those on the board). */
export function neighbours(index, rows, cols) {
  const row = Math.floor(index / cols);
  const col = index % cols;
  const out = [];
  if (row > 0) out.push(index - cols);
  if (col < cols - 1) out.push(index + 1);
  if (row < rows - 1) out.push(index + cols);
  if (col > 0) out.push(index - 1);
  return out;
}

const STEPS = {
  ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
};

/**
 * Keyboard use of a board: arrow keys move the focus cursor (one square element has tabindex 0, the others -1),
 * Home/End jump to the row's ends, Enter or Space activates the focused square.
 *   element(index) -> the focusable square element; activate(index) -> called on Enter/Space;
 *   moved(index) -> told when the cursor moves (optional).
 */
export function attachGridKeyboard(root, { rows, cols, element, activate, moved }) {
  const indexOf = (target) => {
    const sq = target.closest?.("[data-index]");
    return sq ? Number(sq.dataset.index) : -1;
  };
  root.addEventListener("keydown", (event) => {
    const current = indexOf(event.target);
    if (current < 0) return;
    let row = Math.floor(current / cols);
    let col = current % cols;
    if (event.key in STEPS) {
      const [dr, dc] = STEPS[event.key];
      row = Math.min(rows - 1, Math.max(0, row + dr));
      col = Math.min(cols - 1, Math.max(0, col + dc));
    } else if (event.key === "Home") {
      col = 0;
      if (event.ctrlKey) row = 0;
    } else if (event.key === "End") {
      col = cols - 1;
      if (event.ctrlKey) row = rows - 1;
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      activate(current);
      return;
    } else {
      return;
    }
    event.preventDefault();
    focusSquare(row * cols + col);
  });

  function focusSquare(index) {
    const next = element(index);
    if (!next) return;
    for (const el of root.querySelectorAll("[data-index][tabindex='0']")) {
      if (el !== next) el.setAttribute("tabindex", "-1");
    }
    next.setAttribute("tabindex", "0");
    next.focus({ preventScroll: false });
    moved?.(index);
  }

  return { focusSquare };
}
