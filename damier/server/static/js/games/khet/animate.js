// Animating a Khet move from its events (KhetState.events): the piece steps, swaps or turns (drawn with the board
// the server sent for after the move), the laser crosses the board square by square, the piece it hits fades out
// (then the board the server sent for after the removal is drawn).

import { svg, wait, prefersReducedMotion } from "../../dom.js";
import { beamPoints, hitMark, pointsAttr, update, views } from "./draw.js";

/** Milliseconds per square of the beam: about 45, quicker for long beams (a shot lasts at most ~1 s). */
export function beamStep(length) {
  return length <= 20 ? 45 : Math.max(12, Math.round(900 / length));
}

/** `board` with a step's `changes` ({square: piece or null}) applied: the board the server says follows. */
function withChanges(board, changes) {
  const changed = changes || {};
  return {
    ...board,
    pieces: [...(board.pieces || []).filter((p) => !(p.square in changed)), ...Object.values(changed).filter(Boolean)],
  };
}

/** The pieces the action moves and how, to animate: from the square it left, or by the quarter turn it made. */
function motions(action) {
  if (action.type === "rotate") return [{ square: action.square, turn: action.clockwise ? -90 : 90 }];
  const out = [{ square: action.to, from: action.from }];
  if (action.type === "swap") out.push({ square: action.from, from: action.to });
  return out;
}

async function movePieces(view, action, pace, signal) {
  const duration = pace(240);
  for (const { square, from, turn } of motions(action)) {
    const el = view.piecesLayer.querySelector(`[data-square='${square}'] .pc-move`);
    if (!el) continue;
    const [x, y] = view.geo.centre(square);
    const [fx, fy] = from ? view.geo.centre(from) : [x, y];
    const frames = from
      ? [{ transform: `translate(${fx - x}px, ${fy - y}px)` }, { transform: "translate(0px, 0px)" }]
      : [{ transform: `rotate(${turn}deg)` }, { transform: "rotate(0deg)" }];
    el.animate(frames, { duration, easing: "cubic-bezier(.3,.7,.3,1)" });
  }
  await wait(duration + 30, signal);
}

async function shoot(view, laser, reduced, pace, signal) {
  const pts = beamPoints(laser, view.geo);
  if (!pts.length) return;
  const beam = svg("g", {
    class: "beam shot", "data-testid": "laser-beam", "data-squares": (laser.squares || []).join(" "),
    "data-stop": laser.stop || "", "data-removed": laser.removed ? laser.removed.square : "",
  });
  const glow = svg("polyline", { class: "beam-glow", points: pointsAttr(pts.slice(0, 1)) });
  const core = svg("polyline", { class: "beam-core", points: pointsAttr(pts.slice(0, 1)) });
  const head = svg("circle", { class: "beam-head", r: 5, cx: pts[0][0], cy: pts[0][1] });
  beam.append(glow, core, head);
  view.fx.append(beam);
  view.piecesLayer.querySelector(`[data-square='${laser.from}']`)?.classList.add("firing");
  for (let i = 1; i < pts.length; i++) {
    if (signal?.aborted) return;
    await wait(reduced ? 0 : pace(beamStep(pts.length)), signal);
    const shown = pointsAttr(pts.slice(0, i + 1));
    glow.setAttribute("points", shown);
    core.setAttribute("points", shown);
    head.setAttribute("cx", pts[i][0]);
    head.setAttribute("cy", pts[i][1]);
  }
  if (laser.removed && view.geo.isSquare(laser.removed.square)) beam.append(hitMark(view.geo, laser.removed.square, "beam-hit"));
}

async function fade(view, square, reduced, pace, signal) {
  const el = view.piecesLayer.querySelector(`[data-square='${square}']`);
  if (el) {
    el.classList.add("hit");
    if (!reduced) {
      el.querySelector(".pc-move").animate(
        [{ opacity: 1, transform: "scale(1)" }, { opacity: 1, transform: "scale(1.15)", offset: 0.25 }, { opacity: 0, transform: "scale(0.4)" }],
        { duration: pace(520), easing: "ease-in", fill: "forwards" });
    }
  }
  await wait(pace(540), signal);
}

/**
 * Play a move's events from the board `before` it. Resolves when done, at once when opts.signal aborts;
 * opts.fast() (another position is waiting) speeds the rest up, but only by about half: a shot is short, and
 * one's own shot should still be seen when the computer answers at once. The caller draws the final board.
 */
export async function animate(container, events, before, opts = {}) {
  const view = views.get(container);
  if (!view || view.compact || !Array.isArray(events) || !events.length) return;
  const { signal } = opts;
  const reduced = prefersReducedMotion();
  const action = events.find((e) => e.type === "step" || e.type === "swap" || e.type === "rotate");
  const laser = events.find((e) => e.type === "laser");
  const removed = events.find((e) => e.type === "remove");
  let board = before && before.kind === view.board?.kind ? before : view.board;
  const base = { ...view.opts, legal: [], hint: null, events: action ? [action] : [], turn: laser ? laser.player : -1 };
  const pace = (ms) => Math.round(reduced ? Math.min(ms, 60) : opts.fast?.() ? ms * 0.55 : ms);
  view.root.classList.add("animating");
  Object.assign(view, { selected: null, pointed: null, pinned: null }); // the input's selection ends with the move
  try {
    if (action) {
      board = withChanges(board, action.changes);
      update(view, board, base);
      if (!reduced) await movePieces(view, action, pace, signal);
    }
    if (signal?.aborted || !laser) return;
    await shoot(view, laser, reduced, pace, signal);
    if (signal?.aborted) return;
    if (removed) {
      await fade(view, removed.square, reduced, pace, signal);
      if (signal?.aborted) return;
      update(view, withChanges(board, removed.changes), base);
    } else {
      await wait(pace(260), signal);
    }
  } finally {
    view.fx.replaceChildren();
    view.root.classList.remove("animating");
    view.piecesLayer.querySelectorAll(".firing").forEach((el) => el.classList.remove("firing"));
  }
}
