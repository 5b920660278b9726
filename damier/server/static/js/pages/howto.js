// #/howto/<game> : a game's How to play page (GET /api/catalog/<game>/howto). It knows no game: the texts, the
// diagrams and the examples are the game's declaration, each board and each example's events made by the server
// from a real position played by the rules, and drawn (and animated) by the game's own board module.
import { h, icon, replace, wait } from "../dom.js";
import { api } from "../api.js";
import { boardModule } from "../games/index.js";
import { showError } from "../messages.js";
import { defaultLevel, isPuzzleGame, optionDefaults, seatCount, startGame } from "../session.js";
import { markTutorial } from "./game/tutorial.js";
import { t } from "../i18n.js";

const FIRST_PAUSE_MS = 400; // before an example plays by itself, once it is on the screen

export function mount(root, { params }) {
  const page = new HowToPage(root, params.game);
  page.start();
  return () => page.destroy();
}

class HowToPage {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.destroyed = false;
    this.examples = [];
    this.observer = null;
  }

  async start() {
    this.root.append(h("div", { class: "page narrow" }, h("div", { class: "panel empty-state" }, h("p", {}, t("howto.loading")))));
    let entry;
    let doc;
    try {
      [entry, doc] = await Promise.all([api.catalogEntry(this.game), api.howto(this.game)]);
    } catch (err) {
      if (this.destroyed) return;
      replace(this.root, h("div", { class: "page narrow" }, h("div", { class: "panel empty-state", "data-testid": "howto-error" },
        h("h1", {}, t(err.status === 404 ? "howto.none" : "howto.load_error")),
        h("p", {}, err.message),
        h("a", { class: "btn primary", href: "#/" }, t("home.see_games")))));
      return;
    }
    this.mod = await boardModule(entry);
    if (this.destroyed) return;
    this.entry = entry;
    document.title = `${t("howto.title", { title: doc.title })} · damier`;
    this.build(doc);
  }

  destroy() {
    this.destroyed = true;
    this.observer?.disconnect();
    for (const example of this.examples) example.controller?.abort();
  }

  build(doc) {
    let count = 0;
    const sections = doc.sections.map((section, s) => h("section", { class: "panel howto-section", "aria-labelledby": `howto-s${s}` },
      h("h2", { id: `howto-s${s}` }, section.title),
      section.text.map((p) => h("p", {}, p)),
      section.items.length ? h("dl", { class: "howto-items" },
        section.items.map((item) => [h("dt", {}, item.term), h("dd", {}, item.text)])) : null,
      section.diagrams.map((d) => this.diagram(d, count++))));
    replace(this.root, h("div", { class: `page howto game-${doc.game}`, "data-testid": "howto-page", "data-game": doc.game },
      h("div", { class: "howto-head" },
        h("h1", {}, t("howto.title", { title: doc.title })),
        h("p", { class: "lead", "data-testid": "howto-summary" }, doc.summary),
        h("div", { class: "howto-actions" },
          h("a", { class: "btn primary", href: `#/new/${encodeURIComponent(doc.game)}`, "data-testid": "howto-play" },
            icon("play"), t(isPuzzleGame(this.entry) ? "howto.solve" : "howto.play")),
          doc.tutorial.length ? h("button", { type: "button", class: "btn", "data-testid": "howto-tutorial",
            title: t("howto.tutorial_title"),
            onclick: (e) => this.tutorial(e.currentTarget) }, icon("hint"), t("howto.tutorial")) : null,
          h("a", { class: "btn ghost", href: "#/" }, t("howto.all_games")))),
      sections));
    this.watchExamples();
  }

  /** A diagram: the board drawn by the game's module; an example also plays its move and has a replay button. */
  diagram(d, index) {
    const board = h("div", { class: "board-wrap howto-board", "data-testid": `howto-board-${index}` });
    const figure = h("figure", { class: "howto-diagram", "data-testid": `howto-diagram-${index}`,
      "data-animated": String(d.animated) }, board);
    const caption = h("figcaption", {}, d.caption);
    if (!d.animated) {
      this.mod.render(board, d.board, this.drawOpts(d, t("howto.diagram", { caption: d.caption }), d.events));
      figure.append(caption);
      return figure;
    }
    const example = { d, board, figure, controller: null, played: false };
    const replay = h("button", { type: "button", class: "btn small", "data-testid": `howto-replay-${index}`,
      onclick: () => this.play(example) }, icon("repeat"), t("howto.replay"));
    example.replay = replay;
    figure.dataset.state = "ready";
    this.mod.render(board, d.board, this.drawOpts(d, t("howto.example_before", { caption: d.caption })));
    figure.append(h("div", { class: "howto-example-bar" },
      h("span", { class: "howto-moves" }, t("howto.moves", { count: d.moves.length }),
        d.moves.map((m, i) => [i ? ", " : null, h("code", {}, m)])),
      d.result ? h("span", { class: "muted small howto-result" }, d.result) : null,
      replay), caption);
    this.examples.push(example);
    return figure;
  }

  drawOpts(d, label, events = null) {
    const players = Number(d.options?.players) || seatCount(this.entry, d.options || {}) || 2;
    return { legal: [], turn: -1, events: events || [], last: null, perspective: 0, label,
      seatNames: this.mod.seatNames(players) };
  }

  /** Each example plays once by itself when it comes into view. */
  watchExamples() {
    if (!("IntersectionObserver" in window)) {
      for (const example of this.examples) this.play(example);
      return;
    }
    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const example = this.examples.find((x) => x.figure === entry.target);
        if (entry.isIntersecting && example && !example.played) {
          example.played = true;
          this.observer.unobserve(entry.target);
          this.play(example, FIRST_PAUSE_MS);
        }
      }
    }, { threshold: 0.25 }); // a quarter of it on the screen: a tall diagram on a small screen plays too
    for (const example of this.examples) this.observer.observe(example.figure);
  }

  /** Draw the position before the move, animate the move's events, then draw the board after it. */
  async play(example, pause = 0) {
    example.controller?.abort();
    const controller = new AbortController();
    example.controller = controller;
    example.played = true;
    const { d, board, figure } = example;
    figure.dataset.state = "playing";
    this.mod.render(board, d.board, this.drawOpts(d, t("howto.example_before", { caption: d.caption })));
    await wait(pause, controller.signal);
    try {
      if (!controller.signal.aborted) await this.mod.animate(board, d.events, d.board, { signal: controller.signal });
    } catch (err) {
      console.error("the example could not be animated", err);
    }
    if (controller.signal.aborted || this.destroyed) return;
    this.mod.render(board, d.after, this.drawOpts(d, t("howto.example_after", { caption: d.caption }), d.events));
    figure.dataset.state = "done";
    figure.dataset.plays = String(Number(figure.dataset.plays || 0) + 1);
  }

  /** A game against the computer (the usual options), whose page shows the first-game tutorial again. */
  async tutorial(button) {
    button.disabled = true;
    markTutorial(this.entry.name, false);
    try {
      const options = optionDefaults(this.entry);
      const level = defaultLevel(this.entry);
      await startGame(this.entry, options, Array.from({ length: seatCount(this.entry, options) },
        (_, i) => (i === 0 ? { kind: "human" } : { kind: "computer", level })));
    } catch (err) {
      showError(err);
      button.disabled = false;
    }
  }
}
