// The first-game tutorial: a few steps a game declares (the `tutorial` of its How to play page, from the server),
// each pointing at part of the board. It opens on the first game page of that game this browser plays a seat of
// (remembered in localStorage under damier.tutorial.<game>), never blocks the board or the buttons (the card sits
// beside the board, or under the buttons on a narrow screen, and the rings let clicks through), closes with its ×
// button, Done or Escape, and when the game ends, and is reopened from the How to play page. No game is named here:
// the steps and what they point at come from the game's declaration.

import { h, icon, replace } from "../../dom.js";
import { t } from "../../i18n.js";

const SPOTS = 24; // at most this many rings at once (a side's pieces fit)
const FOLLOW_MS = 300; // the board redraws (a selection, a move): the rings follow it this often

function key(game) {
  return `damier.tutorial.${game}`;
}

/** Whether this browser has already been shown the tutorial of `game`. */
export function tutorialSeen(game) {
  try { return localStorage.getItem(key(game)) === "seen"; } catch { return true; }
}

/** Remember (or forget, `seen` false: the next game page shows it again) that the tutorial of `game` was shown. */
export function markTutorial(game, seen = true) {
  try {
    if (seen) localStorage.setItem(key(game), "seen");
    else localStorage.removeItem(key(game));
  } catch { /* private browsing: for this page only */ }
}

export class Tutorial {
  /** `board`: the board's container; `steps`: [{title, text, point}]; `seats`: {you, opponent} for the points;
   * `host`: where the card goes (the game page's side column: beside the board on a wide screen, under the board and
   * its buttons on a narrow one). */
  constructor(board, game, steps, seats, host = document.body) {
    this.board = board;
    this.host = host;
    this.game = game;
    this.steps = steps;
    this.seats = seats;
    this.index = 0;
    this.timer = null;
    // Escape closes the card unless it already cancelled something on the page (a drag, a premove, a selection,
    // browsing): heard last, on the window as the key bubbles up, and only when no one took it before
    this.onKey = (event) => {
      if (event.key !== "Escape" || event.defaultPrevented || !this.card?.isConnected) return;
      event.preventDefault();
      this.close();
    };
    this.onMove = () => this.place();
  }

  get open() { return !!this.card?.isConnected; }

  /** Show step `index`; `focus` moves the keyboard to the card (Back, Next: not when it opens by itself, which
   * leaves the keyboard on the board). */
  show(index = 0, { focus = false } = {}) {
    markTutorial(this.game);
    if (!this.open) {
      this.spots = h("div", { class: "tutorial-spots", "aria-hidden": "true" });
      this.body = h("div", { class: "tutorial-body" });
      this.card = h("section", {
        class: "tutorial-card panel", role: "dialog", "aria-modal": "false", "aria-labelledby": "tutorial-title",
        "data-testid": "tutorial",
      }, this.body);
      document.body.append(this.spots);
      this.host.prepend(this.card);
      window.addEventListener("keydown", this.onKey);
      addEventListener("resize", this.onMove);
      addEventListener("scroll", this.onMove, { passive: true });
      this.timer = setInterval(() => this.place(), FOLLOW_MS);
    }
    const opening = !this.card.dataset.step;
    this.index = Math.max(0, Math.min(index, this.steps.length - 1));
    this.draw();
    if (opening) this.card.scrollIntoView({ block: "nearest" }); // under the buttons of a phone: brought into sight
    if (focus) this.card.querySelector("[data-testid='tutorial-next']")?.focus({ preventScroll: true });
  }

  draw() {
    const step = this.steps[this.index];
    const last = this.index === this.steps.length - 1;
    replace(this.body,
      h("div", { class: "tutorial-head" },
        h("span", { class: "muted small", "data-testid": "tutorial-step" },
          t("tutorial.step", { step: this.index + 1, total: this.steps.length })),
        h("button", { type: "button", class: "btn small ghost icon-only", "data-testid": "tutorial-close",
          "aria-label": t("tutorial.close.label"), title: t("tutorial.close.title"),
          onclick: () => this.close() }, icon("x"))),
      h("h2", { id: "tutorial-title" }, step.title),
      h("p", { "aria-live": "polite" }, step.text),
      h("div", { class: "tutorial-actions" },
        h("button", { type: "button", class: "btn small", "data-testid": "tutorial-back", disabled: this.index === 0,
          onclick: () => this.show(this.index - 1, { focus: true }) }, t("tutorial.back")),
        h("button", { type: "button", class: "btn small primary", "data-testid": "tutorial-next",
          onclick: () => (last ? this.close() : this.show(this.index + 1, { focus: true })) },
        t(last ? "tutorial.done" : "tutorial.next"))));
    this.card.dataset.step = String(this.index);
    this.place();
  }

  /** The elements the step points at: the first of its `||` alternatives that finds any on the board; else the
   * board itself. */
  targets() {
    const point = this.steps[this.index]?.point || "";
    for (const alternative of point.split("||")) {
      const selector = alternative.trim()
        .replaceAll("{you}", String(this.seats.you)).replaceAll("{opponent}", String(this.seats.opponent));
      if (!selector) continue;
      let found = [];
      try { found = [...this.board.querySelectorAll(selector)]; } catch { found = []; }
      found = found.filter((el) => el.getClientRects().length);
      if (found.length) return found.slice(0, SPOTS);
    }
    return [this.board];
  }

  /** Ring what the step points at (the rings are fixed over the page and let every click through); the rings
   * drawn are moved, not made again, so they stay the same elements while the board does not change. */
  place() {
    if (!this.open) return;
    const targets = this.targets();
    while (this.spots.children.length > targets.length) this.spots.lastChild.remove();
    while (this.spots.children.length < targets.length) this.spots.append(h("div", { class: "tutorial-spot" }));
    const pad = 3;
    targets.forEach((el, i) => {
      const r = el.getBoundingClientRect();
      const ring = this.spots.children[i];
      ring.style.setProperty("left", `${r.left - pad}px`);
      ring.style.setProperty("top", `${r.top - pad}px`);
      ring.style.setProperty("width", `${r.width + 2 * pad}px`);
      ring.style.setProperty("height", `${r.height + 2 * pad}px`);
    });
    this.spots.dataset.count = String(targets.length);
  }

  close() {
    markTutorial(this.game);
    clearInterval(this.timer);
    this.timer = null;
    window.removeEventListener("keydown", this.onKey);
    removeEventListener("resize", this.onMove);
    removeEventListener("scroll", this.onMove);
    this.spots?.remove();
    this.card?.remove();
    this.spots = this.card = null;
  }
}
