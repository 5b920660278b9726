// Playing on the Ricochet Robots board: pick a robot (click or tap it, its button in the bar under the board, or its
// letter key R G B Y S T), then a direction: an arrow key, a swipe (or a drag) on the board, a click on one of the
// squares it can reach (ringed, with a chevron the way it slides), or one of the bar's move buttons. Pointing at a
// square it can reach, or at a move button, draws the slide. The transparent robot may stop at several squares one
// way (passing walls, each a move more): an arrow key takes the nearest, a second press of it within a moment the
// next one; each is also a square and a button. Which moves there are, and where each ends, is the server's
// `legal` list: nothing here knows the rules.

import { h } from "../../dom.js";
import { gameT } from "../../i18n.js";
import { clearPreview, indexOf, robotTable, showPreview, update, views } from "./draw.js";

const KEYS = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W" };
const ARROWS = { N: "↑", E: "→", S: "↓", W: "←" };
const SWIPE_PX = 24; // a pointer moved this far (screen pixels) is a swipe, not a tap
const REPEAT_MS = 900; // a second press of the same arrow within this: the transparent robot's next stop

const tk = gameT("ricochet");

export function attachInput(view, container) {
  const { root } = view;
  root.setAttribute("tabindex", "0");
  view.bar = {
    robots: h("span", { class: "rr-robot-buttons", role: "group", "aria-label": tk("input.group.robots") }),
    moves: h("span", { class: "rr-move-buttons", role: "group", "aria-label": tk("input.group.moves") }),
    text: h("span", { class: "rr-bar-text", "data-testid": "ricochet-bar-text", "aria-live": "polite" }),
  };
  view.bar.root = h("div", { class: "board-bar rr-bar", "data-testid": "ricochet-bar" },
    h("div", { class: "board-bar-row" }, view.bar.robots, view.bar.moves), view.bar.text);
  view.host = h("div", { class: "rr-view" }, root, view.bar.root);
  container.replaceChildren(view.host);

  root.addEventListener("click", (event) => {
    if (view.swiped) {
      view.swiped = false;
      return;
    }
    const token = event.target.closest?.(".rr-robot");
    if (token && !token.classList.contains("rr-ghost")) {
      select(view, token.dataset.robot);
      return;
    }
    const sq = event.target.closest?.(".rr-sq");
    if (!sq) return;
    const i = Number(sq.dataset.index);
    const dest = destinationAt(view, i);
    if (dest) {
      play(view, dest);
      return;
    }
    const robot = Object.entries(view.board?.robots || {}).find(([, cell]) => indexOf(view, cell) === i);
    if (robot) select(view, robot[0]);
  });
  root.addEventListener("pointerover", (event) => {
    if (event.pointerType === "touch") return;
    const sq = event.target.closest?.(".rr-sq");
    const dest = sq ? destinationAt(view, Number(sq.dataset.index)) : null;
    if (dest) showPreview(view, dest);
    else clearPreview(view);
  });
  root.addEventListener("pointerleave", () => clearPreview(view));

  // a swipe (or a drag) moves a robot: the one it starts on, else the one selected
  root.addEventListener("pointerdown", (event) => {
    if (!view.interactive || event.button > 0) return;
    const token = event.target.closest?.(".rr-robot:not(.rr-ghost)");
    view.press = { x: event.clientX, y: event.clientY, robot: token?.dataset.robot || null, id: event.pointerId };
  });
  root.addEventListener("pointermove", (event) => {
    const press = view.press;
    if (!press || press.id !== event.pointerId || press.captured) return;
    if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < SWIPE_PX / 2) return;
    // a swipe under way ends where it ends, on the board or off it (a tap is not captured: its click keeps its square)
    press.captured = true;
    try {
      root.setPointerCapture(event.pointerId);
    } catch {
      // a pointer that cannot be captured still swipes while it stays on the board
    }
  });
  root.addEventListener("pointerup", (event) => {
    const press = view.press;
    view.press = null;
    if (!press || press.id !== event.pointerId || !view.interactive) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_PX) return;
    if (Math.abs(dx) < 1.6 * Math.abs(dy) && Math.abs(dy) < 1.6 * Math.abs(dx)) return; // diagonal: no direction
    const dir = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "E" : "W") : (dy > 0 ? "S" : "N");
    view.swiped = true;
    setTimeout(() => { view.swiped = false; }, 400);
    if (press.robot) view.selected = press.robot;
    move(view, dir);
  });
  root.addEventListener("pointercancel", () => { view.press = null; });
  root.addEventListener("keydown", (event) => {
    if (handleKey(view, event)) {
      event.preventDefault();
      event.stopPropagation();
    }
  });
  view.afterDraw = drawBar;
}

/** The move of the selected robot that ends on square `i`, or null. */
function destinationAt(view, i) {
  if (!view.interactive) return null;
  return (view.moves?.get(view.selected) || []).find((m) => m.index === i) || null;
}

function redraw(view) {
  if (view.board) update(view, view.board, view.opts);
}

/** Select robot `name` (it stays selected from move to move). */
export function select(view, name) {
  if (!name || !view.board?.robots?.[name]) return false;
  view.selected = name;
  clearTimeout(view.repeat?.timer);
  view.repeat = null;
  redraw(view);
  return true;
}

function play(view, entry) {
  clearPreview(view);
  clearTimeout(view.repeat?.timer);
  view.repeat = null;
  if (view.opts.onMove) view.opts.onMove(entry.move);
  else view.opts.onSquare?.(entry.move, { legal: true });
}

/** Move the selected robot towards `dir`: its nearest stop that way; the transparent robot's next one when the same
 * arrow is pressed again at once (then the previous choice is only shown, and played when the key is let be). */
function move(view, dir) {
  const options = (view.moves?.get(view.selected) || []).filter((m) => m.dir === dir);
  if (!options.length) {
    const label = robotTable(view.opts.client).byName.get(view.selected)?.label;
    flash(view, tk("robot.cannot_move", { robot: label ? view.selected : "none", label, dir, way: words(view, dir) }));
    return false;
  }
  if (options.length === 1) {
    play(view, options[0]);
    return true;
  }
  // several stops one way (the transparent robot passing walls): each press shows the next, a pause plays it
  const now = Date.now();
  const again = view.repeat && view.repeat.dir === dir && view.repeat.robot === view.selected && now - view.repeat.at < REPEAT_MS;
  const k = again ? (view.repeat.k + 1) % options.length : 0;
  clearTimeout(view.repeat?.timer);
  const choice = options[k];
  showPreview(view, choice);
  flash(view, tk("input.stop", {
    move: choice.move, square: choice.to, walls: choice.passes, moves: 1 + choice.passes, arrow: ARROWS[dir],
  }));
  view.repeat = {
    dir, robot: view.selected, at: now, k,
    timer: setTimeout(() => { if (view.repeat?.k === k && view.repeat.dir === dir) play(view, choice); }, REPEAT_MS),
  };
  return true;
}

function words(view, dir) {
  return view.opts.client?.directions?.find((d) => d.letter === dir)?.name || dir;
}

function flash(view, text) {
  if (!view.bar) return;
  view.bar.text.textContent = text;
  view.bar.flashed = Date.now();
}

/** A key on the board (or anywhere on the page: `pageKey`): arrows move the selected robot, letters pick one. */
export function handleKey(view, event) {
  if (!view || view.compact || !view.board) return false;
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  if (KEYS[event.key]) {
    if (!view.interactive) return false;
    move(view, KEYS[event.key]);
    return true;
  }
  const robot = robotTable(view.opts.client).byLetter.get(event.key.toUpperCase());
  if (robot && event.key.length === 1 && view.board.robots?.[robot.name]) {
    select(view, robot.name);
    return true;
  }
  if ((event.key === "Enter" || event.key === " ") && view.repeat) {
    const { dir, k, robot } = view.repeat;
    clearTimeout(view.repeat.timer);
    const choice = (view.moves?.get(robot) || []).filter((m) => m.dir === dir)[k];
    if (choice) play(view, choice);
    return !!choice;
  }
  if (event.key === "Escape" && view.repeat) {
    clearTimeout(view.repeat.timer);
    view.repeat = null;
    clearPreview(view);
    return true;
  }
  return false;
}

/** A key pressed elsewhere on the page (the page asks the module first): arrows and robot letters act on the board
 * while the player may move. Whether it was used. */
export function pageKey(container, event) {
  const view = views.get(container);
  if (!view || !view.interactive) return false;
  return handleKey(view, event);
}

/** The bar under the board: a button per robot, the selected robot's moves (each says where it ends), a line. */
function drawBar(view) {
  const bar = view.bar;
  if (!bar || view.root.classList.contains("animating")) return; // a slide is drawn: the bar waits for the next board
  const board = view.board;
  const robots = robotTable(view.opts.client).list.filter((r) => board.robots?.[r.name]);
  const key = JSON.stringify([robots.map((r) => r.name), view.selected, view.interactive, [...(view.moves || new Map()).keys()]]);
  if (bar.robotsKey !== key) {
    bar.robotsKey = key;
    bar.robots.replaceChildren(...robots.map((r) => {
      const button = h("button", {
        type: "button", class: `btn small rr-pick${r.name === view.selected ? " on" : ""}`,
        "data-testid": `select-${r.name}`, "aria-pressed": String(r.name === view.selected),
        title: tk("robot.button.title", { robot: r.name, label: r.label, letter: r.letter }),
        "aria-label": tk("robot.on", { robot: r.name, label: r.label, square: board.robots[r.name] }),
        disabled: !view.interactive || !view.moves.has(r.name),
        style: { "--rc": `var(--rr-${r.name})` },
      }, h("span", { class: `rr-pick-dot rr-pick-${r.name}`, "aria-hidden": "true" }, r.letter));
      button.addEventListener("click", () => select(view, r.name));
      return button;
    }));
  }
  const moves = view.interactive ? view.moves.get(view.selected) || [] : [];
  const movesKey = JSON.stringify(moves.map((m) => m.move + m.to));
  if (bar.movesKey !== movesKey) {
    bar.movesKey = movesKey;
    bar.moves.replaceChildren(...moves.map((m) => {
      const pass = m.passes ? ` +${m.passes}` : "";
      const params = {
        move: m.move, dir: m.dir, way: words(view, m.dir), square: m.to, walls: m.passes, moves: 1 + m.passes,
      };
      const button = h("button", {
        type: "button", class: "btn small rr-move", "data-testid": `move-${m.move}`,
        title: m.passes ? tk("input.move.to_passing", params) : tk("input.move.to", params),
        "aria-label": m.passes ? tk("input.move.to_moves", params) : tk("input.move.to", params),
      }, h("b", { "aria-hidden": "true" }, ARROWS[m.dir] || m.dir), ` ${m.to}${pass}`);
      button.addEventListener("click", () => play(view, m));
      button.addEventListener("pointerenter", () => showPreview(view, m));
      button.addEventListener("focus", () => showPreview(view, m));
      button.addEventListener("pointerleave", () => clearPreview(view));
      button.addEventListener("blur", () => clearPreview(view));
      return button;
    }));
  }
  if (!bar.flashed || Date.now() - bar.flashed > 2500) {
    const label = robotTable(view.opts.client).byName.get(view.selected)?.label;
    const touch = matchMedia("(pointer: coarse)").matches;
    bar.text.textContent = view.interactive && label ? tk("robot.bar", {
      robot: view.selected, label, square: board.robots[view.selected], input: touch ? "touch" : "keys",
    }) : "";
    bar.flashed = 0;
  }
  bar.root.hidden = !view.interactive; // nothing to pick or play: watching, or the puzzle is over
}
