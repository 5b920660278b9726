// Animating a Micro Robots jump from its events (MicroState.events): `jump` {from, to, passed} glides the robot from
// one square to the other over the squares it passes (they light up as it crosses them), `waypoint` {square} makes
// the waypoint's mark pulse, `solved` {moves, optimum} bursts on the target. The squares come from the server; the
// board before the jump is drawn first, and the caller draws the board after it.

import { svg, wait, prefersReducedMotion } from "../../dom.js";
import { SIZE, centre, indexOf, place, update, views } from "./draw.js";

/** Milliseconds for a jump over `squares` squares: quick, longer jumps a little longer. */
export function jumpDuration(squares) {
  return 160 + 55 * Math.max(1, squares);
}

async function glide(view, board, from, to, passed, opts) {
  const a = indexOf(board, from);
  const b = indexOf(board, to);
  if (a < 0 || b < 0) return;
  const [x1, y1] = centre(view, a);
  const [x2, y2] = centre(view, b);
  const crossed = (passed || []).map((name) => indexOf(board, name)).filter((i) => i >= 0);
  const fast = opts.fast?.();
  const duration = prefersReducedMotion() ? 60 : fast ? 90 : jumpDuration(crossed.length + 1);
  const move = view.robot.move;
  const hop = move.animate(
    [
      { transform: "translate(0px, 0px) scale(1)" },
      { transform: `translate(${(x2 - x1) / 2}px, ${(y2 - y1) / 2 - 10}px) scale(1.12)`, offset: 0.5 },
      { transform: `translate(${x2 - x1}px, ${y2 - y1}px) scale(1)` },
    ],
    { duration, easing: "cubic-bezier(.45,.05,.35,1)", fill: "forwards" },
  );
  // each square passed over lights up as the robot crosses it
  const total = Math.hypot(x2 - x1, y2 - y1) || 1;
  for (const i of crossed) {
    const [cx, cy] = centre(view, i);
    const at = (Math.hypot(cx - x1, cy - y1) / total) * duration;
    const parts = view.squares[i];
    const flash = () => {
      parts.g.classList.add("passed");
      setTimeout(() => parts.g.classList.remove("passed"), 260);
    };
    setTimeout(flash, at);
  }
  const aborted = new Promise((resolve) => opts.signal?.addEventListener("abort", resolve, { once: true }));
  await Promise.race([hop.finished.catch(() => {}), aborted]);
  place(view, view.robot, to, board); // where the jump ends, until the caller draws the board after it
  hop.cancel();
}

function burst(view, board, name, cls, duration) {
  const i = indexOf(board, name);
  if (i < 0 || prefersReducedMotion()) return;
  const [cx, cy] = centre(view, i);
  const ring = svg("circle", { class: `fx-burst ${cls}`, cx, cy, r: SIZE * 0.55 });
  view.fx.append(ring);
  ring.animate(
    [{ transform: "scale(0.3)", opacity: 0.9 }, { transform: "scale(1.5)", opacity: 0 }],
    { duration, easing: "cubic-bezier(.2,.7,.3,1)", fill: "forwards" },
  ).onfinish = () => ring.remove();
}

/**
 * Play a move's `events` from the board `before` it. Resolves when done, at once when opts.signal aborts;
 * opts.fast() (optional) speeds it up when the next position is already waiting.
 */
export async function animate(container, events, before, opts = {}) {
  const view = views.get(container);
  if (!view || view.compact || !Array.isArray(events) || !events.length || !before?.squares) return;
  const jump = events.find((e) => e.type === "jump");
  const waypoint = events.find((e) => e.type === "waypoint");
  const solved = events.find((e) => e.type === "solved");
  await play(view, before, jump, { waypoint, solved }, opts);
}

/**
 * Moves known only by the squares they reach (a race's last demonstration moves, when the round closed at once and
 * the next round's board came instead of their events): the robot glides from where it stood on `before`, square
 * to square.
 */
export async function animateMove(container, before, moves, opts = {}) {
  const view = views.get(container);
  const line = (Array.isArray(moves) ? moves : [moves]).filter((m) => indexOf(before, m) >= 0);
  if (!view || view.compact || !before?.squares || !before.robot || !line.length) return;
  let from = before.robot;
  for (const to of line) {
    if (opts.signal?.aborted) return;
    await play(view, { ...before, robot: from }, { type: "jump", from, to, passed: [] }, {}, opts);
    from = to;
  }
}

async function play(view, before, jump, { waypoint, solved }, opts) {
  const { signal } = opts;
  view.root.classList.add("animating");
  try {
    update(view, before, { ...view.opts, legal: [], hint: null, path: null, events: [] });
    if (jump) await glide(view, before, jump.from, jump.to, jump.passed, opts);
    if (signal?.aborted) return;
    if (waypoint) burst(view, before, waypoint.square, "waypoint-burst", 420);
    if (solved) {
      burst(view, before, jump?.to || before.target, "solved-burst", 650);
      await wait(opts.fast?.() ? 60 : 280, signal);
    }
  } finally {
    view.root.classList.remove("animating");
  }
}
