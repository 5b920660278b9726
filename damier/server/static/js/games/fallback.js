// A plain grid for games without a board module yet: squares named A1.. (or as the game's description says), the
// legal moves that are square names clickable.
import { svg } from "../dom.js";
import { squareNames } from "./grid.js";
import { t } from "../i18n.js";

export function describeOptions(options = {}) {
  return Object.entries(options).map(([k, v]) => `${k} ${v}`).join(" · ");
}

export function sampleBoard() {
  return { kind: "grid", rows: 8, cols: 8 };
}

export function score(board, players) {
  return Array.from({ length: players }, () => null);
}

export function render(container, board, opts = {}) {
  const rows = board?.rows || 8;
  const cols = board?.cols || 8;
  const names = squareNames(opts.client?.squares, rows, cols);
  const cell = 60;
  const m = opts.compact ? 8 : 26;
  const legal = new Set(opts.legal || []);
  const root = svg("svg", {
    class: `board fallback-board${opts.compact ? " compact" : ""}`,
    viewBox: `0 0 ${m + cols * cell + 8} ${m + rows * cell + 8}`,
    role: "img", "aria-label": opts.label || t("board.grid_label", { rows, cols }),
  });
  root.append(svg("rect", { class: "board-frame", x: m - 5, y: m - 5, width: cols * cell + 10, height: rows * cell + 10, rx: 14 }));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const sq = names.name(r * cols + c);
      const g = svg("g", {
        class: `sq${legal.has(sq) ? " legal" : ""}`, transform: `translate(${m + c * cell + 2} ${m + r * cell + 2})`,
        "data-testid": opts.compact ? null : `square-${sq}`, "data-legal": String(legal.has(sq)), "data-square": sq,
      }, svg("rect", { class: "sq-bg", width: 56, height: 56, rx: 9 }));
      if (legal.has(sq) && opts.onSquare) g.addEventListener("click", () => opts.onSquare(sq, { legal: true }));
      root.append(g);
    }
  }
  if (!opts.compact) {
    names.files.forEach((file, c) => root.append(svg("text", { class: "coords", x: m + c * cell + 30, y: m - 11, "text-anchor": "middle" }, file)));
  }
  container.replaceChildren(root);
  return root;
}

export async function animate() {}
