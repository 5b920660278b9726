// Animating a Jewels and Lasers turn from its events (the man's move, then the robots' turn the server played after
// it): every step event carries `after`, the pieces, men, lit squares, rays and jewels after that step, and is drawn
// in turn: the man slides along his path, a jewel sparkles into his column, an explosion flashes over the squares it
// clears, robots that cannot step die, a robot steps, a man in a ray is hit. Nothing is computed here: each step's
// board is the server's.

import { svg, wait, prefersReducedMotion } from "../../dom.js";
import { CELL, update, views } from "./draw.js";

/** Milliseconds for a slide over `squares` squares. */
export function slideDuration(squares) {
  return 140 + 50 * Math.max(1, squares);
}

/** The element drawn for a man (`seat`) or the piece on `square`, and its part that moves. */
function moving(view, { seat = null, square = null }) {
  const layer = seat === null ? view.layers.pieces : view.layers.men;
  const el = seat === null ? layer.querySelector(`[data-square='${square}']`) : layer.querySelector(`[data-seat='${seat}']`);
  return el?.querySelector(".jw-move") || null;
}

/** Glide what stands on `to` from the square `from` (it is drawn on `to` already). */
async function glide(view, target, from, to, duration, signal) {
  const el = moving(view, target);
  if (!el || !view.squares.has(from) || !view.squares.has(to)) return;
  const [fx, fy] = view.geo.centre(from);
  const [tx, ty] = view.geo.centre(to);
  el.animate([{ transform: `translate(${fx - tx}px, ${fy - ty}px)` }, { transform: "translate(0px, 0px)" }],
    { duration, easing: "cubic-bezier(.3,.7,.3,1)" });
  await wait(duration + 20, signal);
}

/** A ring that bursts on each of `squares` (class `cls`: jewel, blast, death, hit). */
function burst(view, squares, cls, duration) {
  for (const square of squares) {
    if (!view.squares.has(square)) continue;
    const [cx, cy] = view.geo.centre(square);
    const ring = svg("circle", { class: `jw-burst ${cls}`, cx, cy, r: CELL * 0.45 });
    view.layers.fx.append(ring);
    if (prefersReducedMotion()) continue;
    ring.animate([{ transform: "scale(0.3)", opacity: 0.95 }, { transform: "scale(1.5)", opacity: 0 }],
      { duration, easing: "cubic-bezier(.2,.7,.3,1)", fill: "forwards" });
  }
}

/**
 * Play a turn's `events` from the board `before` it. Resolves when done, at once when opts.signal aborts;
 * opts.fast() (the next position is waiting) speeds the rest up. The caller draws the final board.
 */
export async function animate(container, events, before, opts = {}) {
  const view = views.get(container);
  if (!view || view.compact || !Array.isArray(events) || !events.length) return;
  const { signal } = opts;
  const reduced = prefersReducedMotion();
  const pace = (ms) => Math.round(reduced ? Math.min(ms, 60) : opts.fast?.() ? ms * 0.35 : ms);
  let board = before && before.kind === view.board?.kind ? before : view.board;
  const base = { ...view.opts, legal: [], hint: null, events: [] };
  const show = (after, turn = -1) => {
    board = { ...board, ...after, moves: {}, forbidden: [] };
    update(view, board, { ...base, turn });
  };
  Object.assign(view, { selected: false, pointed: null }); // the input's selection ends with the move
  view.root.classList.add("animating");
  try {
    for (const event of events) {
      if (signal?.aborted) return;
      await step(view, event, show, pace, signal);
    }
  } finally {
    view.layers.fx.replaceChildren();
    view.root.classList.remove("animating");
  }
}

async function step(view, event, show, pace, signal) {
  switch (event.type) {
    case "place":
      show(event.after, 0);
      burst(view, [event.square, event.mirror], "place", pace(420));
      await wait(pace(360), signal);
      break;
    case "slide": {
      show(event.after, event.player);
      const duration = pace(slideDuration((event.path || []).length));
      await glide(view, { seat: event.player }, event.from, event.to, duration, signal);
      break;
    }
    case "jewel":
      burst(view, [event.square], "jewel", pace(480));
      view.columns.querySelector(`[data-testid='column-${event.player}']`)?.classList.add("gained");
      await wait(pace(300), signal);
      break;
    case "explosion": {
      const cleared = (event.destroyed || []).map((d) => d.square);
      burst(view, [event.wall, ...cleared], "blast", pace(520));
      await wait(pace(220), signal);
      show(event.after, event.player);
      await glide(view, { seat: event.player }, event.from, event.wall, pace(200), signal);
      await wait(pace(200), signal);
      break;
    }
    case "pass":
      show(event.after, event.player);
      await wait(pace(300), signal);
      break;
    case "death":
      show(event.after);
      burst(view, event.squares || [], "death", pace(520));
      await wait(pace(420), signal);
      break;
    case "step":
      show(event.after);
      await glide(view, { square: event.to }, event.from, event.to, pace(260), signal);
      break;
    case "stay":
      show(event.after);
      burst(view, [event.square], "death", pace(300));
      await wait(pace(260), signal);
      break;
    case "hit":
      burst(view, [event.square], "hit", pace(700));
      view.layers.men.querySelector(`[data-seat='${event.player}']`)?.classList.add("hit");
      await wait(pace(600), signal);
      break;
    default: // lit (the squares before and after: every board drawn has them), win, draw
      break;
  }
}
