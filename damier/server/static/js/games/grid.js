// Rectangular grid geometry shared by board modules: square names from the game's description of its squares,
// and keyboard navigation with a roving focus. Squares are indexed row-major from the top-left corner of the
// drawing (index = row * cols + col).

export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * The names of a rows x cols board's squares, index -> name and name -> index. `scheme` is the `squares` of a
 * client description: `files` (the column letters, left to right) and `first_rank` ("top": rank 1 is the top
 * row; "bottom": rank 1 is the bottom row). Without one, columns A.. and rows 1.. from the top.
 */
export function squareNames(scheme, rows, cols) {
  const files = scheme?.files || LETTERS;
  const fromTop = (scheme?.first_rank || "top") === "top";
  const names = [];
  for (let i = 0; i < rows * cols; i++) {
    const row = Math.floor(i / cols);
    names.push(`${files[i % cols]}${fromTop ? row + 1 : rows - row}`);
  }
  const index = new Map(names.map((name, i) => [name, i]));
  return {
    names,
    name: (i) => names[i],
    /** The index of square `name`, or -1. */
    index: (name) => index.get(String(name ?? "").trim()) ?? index.get(String(name ?? "").trim().toUpperCase()) ?? -1,
    /** The column letters and the row labels, as drawn along the edges. */
    files: [...files].slice(0, cols),
    ranks: Array.from({ length: rows }, (_, r) => String(fromTop ? r + 1 : rows - r)),
  };
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
