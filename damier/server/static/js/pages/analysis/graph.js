// The graph of a game's evaluation on the analysis board (as lichess draws it): one point per position of the game,
// filled in as the server evaluates them (GET /api/games/<id>/evaluations). With two players, the first seat's
// winning chance, its colour below the curve and the other's above; with more, each colour's chance at its own
// turns, a line per colour. A click (or the arrows, Home and End on the focused graph) picks a move: `onPick(ply)`.
import { h, replace, svg } from "../../dom.js";
import { seatColour } from "../../players.js";
import { drawnChance, scoreText } from "./scores.js";
import { t } from "../../i18n.js";

const WIDTH = 1000;
const HEIGHT = 200;

export class EvalGraph {
  /** `entry` is the game's catalog entry, `names` its seats' names; `onPick(ply)` goes to the position after `ply`
   * moves. */
  constructor(entry, names, onPick) {
    this.entry = entry;
    this.names = names;
    this.onPick = onPick;
    this.plies = 0;
    this.points = [];
    this.current = 0;
    this.hovered = null;
    this.drawing = svg("svg", { class: "eval-graph-svg", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: "none",
      "aria-hidden": "true" });
    this.caption = h("p", { class: "eval-graph-caption", "data-testid": "eval-graph-caption", "aria-live": "polite" });
    this.status = h("p", { class: "analysis-status", "data-testid": "eval-graph-status", "aria-live": "polite" });
    this.el = h("div", {
      class: "eval-graph", "data-testid": "eval-graph", tabindex: "0", role: "slider", "aria-valuemin": "0",
      "aria-label": t("analysis.graph.label"), "data-state": "waiting",
      onclick: (e) => this.pick(this.plyAt(e.clientX)),
      onmousemove: (e) => { this.hovered = this.plyAt(e.clientX); this.describe(); },
      onmouseleave: () => { this.hovered = null; this.describe(); },
      onkeydown: (e) => this.key(e),
    }, this.drawing);
  }

  /** The graph's parts to place on the page: the drawing, the words under it and its status. */
  get parts() { return [this.el, this.caption, this.status]; }

  setStatus(state, text) {
    this.el.dataset.state = state;
    this.status.dataset.state = state;
    this.status.textContent = text;
  }

  /** The server's view of the evaluation: how many moves it covers, and the positions evaluated so far. */
  show(view) {
    this.plies = view.plies;
    this.points = view.points || [];
    this.el.dataset.plies = String(this.plies);
    this.el.dataset.points = String(this.points.length);
    this.el.setAttribute("aria-valuemax", String(this.plies));
    this.draw();
  }

  /** Mark the position after `ply` moves as the one on the board. */
  setCurrent(ply) {
    this.current = ply;
    this.el.dataset.current = String(ply);
    this.el.setAttribute("aria-valuenow", String(ply));
    this.draw();
  }

  plyAt(clientX) {
    const box = this.el.getBoundingClientRect();
    const share = box.width > 0 ? (clientX - box.left) / box.width : 0;
    return Math.max(0, Math.min(this.plies, Math.round(share * this.plies)));
  }

  pick(ply) {
    if (!this.plies || ply === this.current) return;
    this.onPick(Math.max(0, Math.min(this.plies, ply)));
  }

  key(e) {
    const to = { ArrowLeft: this.current - 1, ArrowRight: this.current + 1, Home: 0, End: this.plies }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    this.pick(to);
  }

  x(ply) { return this.plies ? (ply / this.plies) * WIDTH : 0; }

  /** The points with a chance to draw: [{ply, seat, chance}]. */
  drawn() {
    const seats = this.names.length;
    return this.points.map((p) => ({ ply: p.ply, ...(drawnChance(p, seats) || {}) })).filter((p) => Number.isFinite(p.chance));
  }

  draw() {
    const drawn = this.drawn();
    const parts = [svg("line", { class: "eval-graph-mid", x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2 })];
    const y = (chance) => (1 - chance) * HEIGHT;
    if (this.names.length === 2 && drawn.length) {
      const line = drawn.map((p) => `${this.x(p.ply).toFixed(1)},${y(p.chance).toFixed(1)}`).join(" L");
      const first = this.x(drawn[0].ply).toFixed(1);
      const last = this.x(drawn[drawn.length - 1].ply).toFixed(1);
      parts.unshift(
        svg("rect", { class: "eval-graph-high", x: first, y: 0, width: Math.max(0, last - first), height: HEIGHT, style: { fill: seatColour(1) } }),
        svg("path", { class: "eval-graph-low", d: `M${first},${HEIGHT} L${line} L${last},${HEIGHT} Z`, style: { fill: seatColour(0) } }));
      parts.push(svg("path", { class: "eval-graph-line", d: `M${line}` }));
    } else {
      for (let seat = 0; seat < this.names.length; seat += 1) {
        const own = drawn.filter((p) => p.seat === seat);
        if (own.length) {
          parts.push(svg("path", { class: "eval-graph-line seat", d: `M${own.map((p) => `${this.x(p.ply).toFixed(1)},${y(p.chance).toFixed(1)}`).join(" L")}`,
            style: { stroke: seatColour(seat) } }));
        }
      }
    }
    parts.push(svg("line", { class: "eval-graph-cursor", x1: this.x(this.current), x2: this.x(this.current), y1: 0, y2: HEIGHT }));
    replace(this.drawing, ...parts);
    this.describe();
  }

  /** The words under the graph: the move hovered, else the one on the board. */
  describe() {
    const ply = this.hovered ?? this.current;
    const point = this.points.find((p) => p.ply === ply);
    const where = ply === 0 ? t("analysis.graph.start") : t("analysis.graph.move", { ply });
    let text = t("analysis.graph.not_yet", { where });
    if (point && point.player === -1) text = t("analysis.graph.chance", { where });
    else if (point && point.result) text = t("analysis.graph.result", { where, result: point.result });
    else if (point && point.chances) {
      const score = scoreText(this.entry, point, this.names);
      text = point.best ? t("analysis.graph.score_best", { where, score, best: point.best })
        : t("analysis.graph.score", { where, score });
    }
    replace(this.caption, text);
  }
}

/** The graph's panel: a heading and the graph's parts. */
export function graphPanel(graph) {
  return h("section", { class: "panel eval-graph-panel", "aria-labelledby": "an-graph", "data-testid": "eval-graph-panel" },
    h("h2", { id: "an-graph" }, t("analysis.graph.title")), ...graph.parts);
}
