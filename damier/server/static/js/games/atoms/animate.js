// Animating an Exploding Atoms move from its events (AtomsState.events): the atom placed, then each explosion wave
// (the exploding squares flash and send an orb to each square the server lists as a target), each step drawn with
// the board the server sent for it (the event's `changes`): the client never computes an explosion.

import { svg, wait, prefersReducedMotion } from "../../dom.js";
import { CELL, ORB, centre, update, views } from "./draw.js";

/** Milliseconds per wave: ~210 ms, faster beyond 10 waves so a long chain stays short (capped near 3 s). */
export function waveDuration(waves) {
  if (waves <= 10) return 210;
  return Math.max(30, Math.round(3000 / waves));
}

/** `board` with a step's `changes` ({square: {count, owner}}) applied: the board the server says follows. */
function withChanges(view, board, changes) {
  const next = { ...board, counts: [...board.counts], owners: [...board.owners] };
  for (const [square, now] of Object.entries(changes || {})) {
    const i = view.names.index(square);
    if (i >= 0) {
      next.counts[i] = now.count;
      next.owners[i] = now.owner;
    }
  }
  return next;
}

function explode(view, i, targets, mover, duration) {
  const [cx, cy] = centre(view, i);
  const colour = `var(--p${mover})`;
  const parts = view.squares[i];
  parts.g.classList.add("exploding");
  setTimeout(() => parts.g.classList.remove("exploding"), duration);
  const burst = svg("circle", { class: "fx-burst", cx, cy, r: CELL * 0.5, style: { "--c": colour } });
  view.fx.append(burst);
  burst.animate(
    [{ transform: "scale(0.25)", opacity: 0.85 }, { transform: "scale(1.2)", opacity: 0 }],
    { duration: duration * 1.2, easing: "cubic-bezier(.2,.7,.3,1)", fill: "forwards" },
  ).onfinish = () => burst.remove();
  for (const n of targets) {
    const [nx, ny] = centre(view, n);
    const flyer = svg("circle", { class: "fx-orb", cx, cy, r: ORB * 0.9, style: { "--c": colour } });
    view.fx.append(flyer);
    flyer.animate(
      [{ transform: "translate(0px, 0px)", opacity: 1 }, { transform: `translate(${nx - cx}px, ${ny - cy}px)`, opacity: 1 }],
      { duration: duration * 0.9, easing: "cubic-bezier(.4,0,.2,1)", fill: "forwards" },
    ).onfinish = () => flyer.remove();
  }
}

function pop(view, i) {
  view.squares[i].inner.animate(
    [{ transform: "scale(0.4)", opacity: 0.3 }, { transform: "scale(1.15)", opacity: 1, offset: 0.7 }, { transform: "scale(1)" }],
    { duration: 220, easing: "ease-out" },
  );
}

/**
 * Play the last move's events from the board `before` it: the atom placed, then each wave. Without a `before` of
 * this board's shape the waves only flash on the current drawing. Resolves when done, at once when opts.signal
 * aborts; opts.fast() (optional) is asked before each wave and, when true, speeds the rest up. The caller draws
 * the final board afterwards.
 */
export async function animate(container, events, before, opts = {}) {
  const view = views.get(container);
  if (!view || view.compact || !Array.isArray(events) || events.length === 0) return;
  const { signal } = opts;
  const reduced = prefersReducedMotion();
  const place = events.find((e) => e.type === "place");
  const waves = events.filter((e) => e.type === "wave" && Array.isArray(e.squares));
  const mover = place ? place.player : Math.max(0, view.opts.turn ?? 0);
  let board = before && before.rows === view.rows && before.cols === view.cols ? before : null;
  const base = { ...view.opts, legal: [], hint: null, last: place?.square, turn: mover };
  view.root.classList.add("animating");
  try {
    if (place && board) {
      board = withChanges(view, board, place.changes);
      update(view, board, base);
      const i = view.names.index(place.square);
      if (!reduced && i >= 0) pop(view, i);
    }
    if (!waves.length) return;
    await wait(reduced ? 80 : 170, signal);
    for (const wave of waves) {
      if (signal?.aborted) return;
      const duration = opts.fast?.() ? 45 : reduced ? 90 : waveDuration(waves.length);
      if (!reduced) {
        wave.squares.forEach((square, k) => {
          const i = view.names.index(square);
          const targets = (wave.targets?.[k] || []).map((t) => view.names.index(t)).filter((t) => t >= 0);
          if (i >= 0) explode(view, i, targets, mover, duration);
        });
      }
      await wait(duration, signal);
      if (signal?.aborted) return;
      if (board) {
        board = withChanges(view, board, wave.changes);
        update(view, board, base);
      }
    }
    await wait(reduced ? 0 : 90, signal);
  } finally {
    view.fx.replaceChildren();
    view.root.classList.remove("animating");
    view.squares.forEach((s) => s.g.classList.remove("exploding"));
  }
}
