// Animating a Ricochet Robots move from its events (RicochetState.events): `slide` {robot, from, to, cells,
// walls_passed} glides the robot square by square along `cells` (each lights up as it is crossed; a wall the
// transparent robot passes through ripples as it goes through it), `solved` {moves, optimum} bursts on the target.
// The squares come from the server; the walls passed are found on the board's drawn walls between those squares.
// The board before the move is drawn first, and the caller draws the board after it.

import { svg, wait, prefersReducedMotion } from "../../dom.js";
import { CELL, centre, directionOf, indexOf, lineBetween, update, views, wallSegment, hasWall } from "./draw.js";

/** Milliseconds for a slide over `squares` squares: quick, longer slides a little longer. */
export function slideDuration(squares) {
  return 120 + 42 * Math.max(1, squares);
}

async function glide(view, before, slide, opts) {
  const token = view.robots.get(slide.robot);
  const a = indexOf(view, slide.from);
  const b = indexOf(view, slide.to);
  if (!token || a < 0 || b < 0 || a === b) return;
  const cells = (slide.cells || []).map((n) => indexOf(view, n)).filter((i) => i >= 0);
  const path = cells.length ? cells : lineBetween(view, a, b);
  const [x1, y1] = centre(view, a);
  const [x2, y2] = centre(view, b);
  const fast = opts.fast?.();
  const duration = prefersReducedMotion() ? 60 : fast ? 110 : slideDuration(path.length);
  token.g.classList.add("sliding");
  const run = token.move.animate(
    [{ transform: "translate(0px, 0px)" }, { transform: `translate(${x2 - x1}px, ${y2 - y1}px)` }],
    { duration, easing: "cubic-bezier(.3,.05,.3,1)", fill: "forwards" },
  );
  // each square lights up as the robot crosses it; a wall passed through ripples
  const dir = directionOf(view, a, b);
  const total = path.length || 1;
  const timers = [];
  let from = a;
  path.forEach((i, k) => {
    const at = duration * ((k + 0.5) / (total + 0.3));
    const parts = view.squares[i];
    timers.push(setTimeout(() => {
      parts.g.classList.add("passed");
      setTimeout(() => parts.g.classList.remove("passed"), 240);
    }, at));
    if (dir && (hasWall(before, from, dir) || hasWall(before, i, { N: "S", S: "N", E: "W", W: "E" }[dir]))) {
      const wall = [from, dir];
      timers.push(setTimeout(() => ripple(view, ...wall), duration * (k / (total + 0.3))));
    }
    from = i;
  });
  const aborted = new Promise((resolve) => opts.signal?.addEventListener("abort", resolve, { once: true }));
  await Promise.race([run.finished.catch(() => {}), aborted]);
  if (opts.signal?.aborted) timers.forEach(clearTimeout);
  token.g.classList.remove("sliding");
  const [cx, cy] = centre(view, b);
  token.g.setAttribute("transform", `translate(${cx} ${cy})`); // where the slide ends, until the caller draws the board after it
  token.g.dataset.square = slide.to;
  run.cancel();
}

/** A wall passed through by the transparent robot: it glows and ripples. */
function ripple(view, i, dir) {
  if (prefersReducedMotion()) return;
  const [x1, y1, x2, y2] = wallSegment(view, i, dir);
  const mark = svg("line", { class: "fx-pass", x1, y1, x2, y2, "data-testid": "wall-pass" });
  const ring = svg("circle", { class: "fx-pass-ring", cx: (x1 + x2) / 2, cy: (y1 + y2) / 2, r: CELL * 0.3 });
  view.fx.append(mark, ring);
  mark.animate([{ opacity: 1 }, { opacity: 1, offset: 0.5 }, { opacity: 0 }], { duration: 650, fill: "forwards" })
    .onfinish = () => mark.remove();
  ring.animate(
    [{ transform: "scale(0.4)", opacity: 0.9 }, { transform: "scale(1.6)", opacity: 0 }],
    { duration: 520, easing: "cubic-bezier(.2,.7,.3,1)", fill: "forwards" },
  ).onfinish = () => ring.remove();
}

function burst(view, name, cls, duration) {
  const i = indexOf(view, name);
  if (i < 0 || prefersReducedMotion()) return;
  const [cx, cy] = centre(view, i);
  const ring = svg("circle", { class: `fx-burst ${cls}`, cx, cy, r: CELL * 0.6 });
  view.fx.append(ring);
  ring.animate(
    [{ transform: "scale(0.3)", opacity: 0.95 }, { transform: "scale(2.2)", opacity: 0 }],
    { duration, easing: "cubic-bezier(.2,.7,.3,1)", fill: "forwards" },
  ).onfinish = () => ring.remove();
}

/**
 * Play a move's `events` from the board `before` it. Resolves when done, at once when opts.signal aborts;
 * opts.fast() (optional) speeds it up when the next position is already waiting.
 */
export async function animate(container, events, before, opts = {}) {
  const view = views.get(container);
  if (!view || view.compact || !Array.isArray(events) || !events.length || !before?.robots) return;
  const slide = events.find((e) => e.type === "slide");
  const solved = events.find((e) => e.type === "solved");
  await play(view, before, slide, solved, opts);
}

/**
 * Moves known only by their notation (a race's last demonstration move, when the round closed at once and the next
 * round's board came instead of its events): the first slides from where the board `before` them says it ends
 * (the server's `legal`); the later ones are not known here, and the next board shows where they led.
 */
export async function animateMove(container, before, moves, opts = {}) {
  const view = views.get(container);
  const first = (Array.isArray(moves) ? moves : [moves])[0];
  const entry = (before?.legal || []).find((m) => m.move === first);
  if (!view || view.compact || !entry || !before?.robots) return;
  const letter = String(first).charAt(0);
  const robot = (opts.client?.robots || view.opts.client?.robots || []).find((r) => r.letter === letter)?.name;
  if (!robot || !before.robots[robot]) return;
  const from = before.robots[robot];
  const cells = lineBetween(view, indexOf(view, from), indexOf(view, entry.to)).map((i) => view.names.names[i]);
  const slide = { type: "slide", robot, from, to: entry.to, cells, walls_passed: 0 };
  const reached = before.target && before.target.cell === entry.to;
  await play(view, before, slide, reached ? { type: "solved" } : null, opts);
}

async function play(view, before, slide, solved, opts) {
  const { signal } = opts;
  view.root.classList.add("animating"); // (first: the bar under the board stays as it is meanwhile)
  try {
    update(view, before, { ...view.opts, legal: [], hint: null, path: null, events: [] });
    if (slide) await glide(view, before, slide, opts);
    if (signal?.aborted) return;
    if (solved) {
      burst(view, slide?.to || before.target?.cell, "solved-burst", 700);
      await wait(opts.fast?.() ? 60 : 300, signal);
    }
  } finally {
    view.root.classList.remove("animating");
  }
}
