// #/replay/<id>[?ply=N] : step through a game's frames (GET /api/games/<id>/replay, a page at a time: the first
// page is shown at once, the others are loaded after it), each step forward animated.
import { h, icon, replace, wait } from "../dom.js";
import { api, recordUrl } from "../api.js";
import { boardModule } from "../games/index.js";
import { levelWord, seatColour, seatWord, titleWord } from "../players.js";
import { openAnalysis } from "./analysis.js";
import { isPuzzle } from "./game/puzzle.js";
import { resultReason, t } from "../i18n.js";

const PAUSE_MS = 650; // between two moves when playing

export function mount(root, { params, query }) {
  const page = new ReplayPage(root, params.id, query);
  page.start();
  return () => page.destroy();
}

class ReplayPage {
  constructor(root, id, query) {
    this.root = root;
    this.id = id;
    this.query = query;
    this.index = 0;
    this.playing = false;
    this.controller = null;
    this.destroyed = false;
    this.onKey = (e) => this.keydown(e);
  }

  async start() {
    this.root.append(h("div", { class: "page" }, h("div", { class: "panel empty-state" }, h("p", {}, t("replay.loading")))));
    let data;
    let view = null;
    try {
      [data, view] = await Promise.all([api.replay(this.id), api.game(this.id).catch(() => null)]);
    } catch (err) {
      if (this.destroyed) return;
      replace(this.root, h("div", { class: "page narrow" }, h("div", { class: "panel empty-state" },
        h("h1", {}, t(err.status === 404 ? "replay.no_game" : "replay.load_error")),
        h("p", {}, err.message),
        h("a", { class: "btn primary", href: "#/" }, t("home.see_games")))));
      return;
    }
    if (this.destroyed) return;
    this.frames = (data.frames || []).filter((f) => f && f.board);
    this.total = Math.max(Number(data.total) || 0, this.frames.length);
    this.result = data.result || view?.result || null;
    this.view = view;
    // the replay names its game, options and seats; the game's view (if any) says whether it is still live
    this.seats = data.seats || view?.seats || null;
    this.options = data.options || view?.options || {};
    this.start = data.start ?? view?.start ?? null;
    // the position the moves are played from (a seeded deal's too): where the analysis board replays them
    this.startPosition = data.start_position ?? view?.start_position ?? this.start;
    const control = data.time_control;
    this.clock = control ? ` · ${t("replay.clock", { control: `${control.minutes}+${control.increment}` })}` : "";
    const game = data.game || view?.game;
    this.entry = await api.catalogEntry(game).catch(() => null);
    this.mod = await boardModule(this.entry);
    if (this.destroyed) return;
    this.game = game;
    const players = this.seats?.length || Number(this.options.players) || maxPlayer(this.frames) + 1;
    this.names = this.seats?.map((s, i) => seatWord(game, i, s.name)) || this.mod.seatNames(players);
    this.title = titleWord(game, data.title || view?.title) || t("replay.default_title");
    document.title = `${t("replay.doc_title", { title: this.title })} · damier`;
    if (!this.frames.length) {
      replace(this.root, h("div", { class: "page narrow" }, h("div", { class: "panel empty-state" }, h("p", {}, t("replay.no_position")))));
      return;
    }
    this.build();
    const ply = Number(this.query.get("ply"));
    const wanted = Number.isInteger(ply) && this.query.has("ply") ? ply : 0;
    const found = this.frames.findIndex((f) => f.ply === wanted);
    this.show(found >= 0 ? found : 0, false);
    document.addEventListener("keydown", this.onKey);
    await this.loadRest(wanted > 0 && found < 0 ? wanted : null);
  }

  /** The pages after the first, one request at a time; the slider and the move list grow as they come. With
   * `ply`, the page holding it is shown once it arrives. */
  async loadRest(ply) {
    while (!this.destroyed && this.frames.length < this.total) {
      let page;
      try {
        page = await api.replay(this.id, this.frames.length);
      } catch (err) {
        console.error("a page of the replay could not be loaded", err);
        return;
      }
      if (this.destroyed) return;
      const frames = (page.frames || []).filter((f) => f && f.board);
      if (!frames.length) return;
      const offset = this.frames.length;
      this.frames.push(...frames);
      this.addMoves(frames, offset);
      this.el.slider.max = String(this.frames.length - 1);
      if (ply !== null) {
        const found = this.frames.findIndex((f) => f.ply === ply);
        if (found >= 0) {
          ply = null;
          await this.show(found, false);
          continue;
        }
      }
      this.updateChrome();
    }
  }

  /** The move list's entries of `frames`, which start at index `offset` of all the frames. */
  addMoves(frames, offset) {
    frames.forEach((f, k) => {
      const i = offset + k;
      if (i === 0) return;
      this.el.moves.append(h("li", { "data-testid": `move-${f.ply}`, "data-index": i },
        h("button", { type: "button", class: "move-btn", onclick: () => this.go(i) },
          h("span", { class: "ply" }, String(f.ply)),
          h("span", { class: "swatch", style: { "--c": seatColour(f.player) } }),
          h("span", { class: "mv" }, f.move))));
    });
  }

  destroy() {
    this.destroyed = true;
    this.playing = false;
    this.controller?.abort();
    document.removeEventListener("keydown", this.onKey);
  }

  build() {
    const el = {};
    const button = (name, testid, label, onclick, extra = "") => h("button", {
      type: "button", class: `btn icon-only ${extra}`.trim(), "data-testid": testid, "aria-label": label, title: label, onclick,
    }, icon(name));
    el.first = button("first", "replay-first", t("replay.first"), () => this.go(0));
    el.prev = button("prev", "replay-prev", t("replay.prev"), () => this.go(this.index - 1));
    el.play = button("play", "replay-play", t("replay.play"), () => this.togglePlay(), "primary");
    el.next = button("next", "replay-next", t("replay.next"), () => this.go(this.index + 1, true));
    el.last = button("last", "replay-last", t("replay.last"), () => this.go(this.frames.length - 1));
    el.slider = h("input", {
      type: "range", min: 0, max: this.frames.length - 1, step: 1, value: 0, class: "replay-slider",
      "data-testid": "replay-slider", "aria-label": t("replay.slider"),
    });
    el.slider.addEventListener("input", () => this.go(Number(el.slider.value)));
    el.ply = h("span", { class: "replay-ply", "data-testid": "replay-ply", "aria-live": "polite" });
    el.board = h("div", { class: "board-wrap", "data-testid": "board" });
    el.caption = h("div", { class: "status" });
    el.banner = h("div", { class: "result-banner", "data-testid": "result-banner", hidden: true });
    el.moves = h("ol", { class: "move-list", "data-testid": "move-list", "aria-label": t("replay.moves") });
    el.players = h("ul", { class: "player-list" });
    this.el = el;
    this.addMoves(this.frames, 0);
    const gameLink = this.view && this.view.status !== "replay"
      ? h("a", { class: "btn small", href: `#/game/${encodeURIComponent(this.id)}` }, icon("prev"), t("replay.back_to_game")) : null;
    replace(this.root, h("div", { class: `page game-page replay-page game-${this.game}` },
      h("div", { class: "game-head" },
        h("div", {},
          h("h1", {}, t("replay.heading", { title: this.title })),
          h("p", { class: "sub" }, h("span", { class: "sub-options", "data-testid": "game-options" }, `${this.mod.describeOptions(this.options, { start: this.start })}${this.clock}`)))),
      h("div", { class: "game-layout" },
        h("section", { class: "board-col", "aria-label": t("replay.board") },
          el.caption, el.banner, el.board,
          h("div", { class: "replay-controls", role: "toolbar", "aria-label": t("replay.controls") },
            h("div", { class: "replay-buttons" }, el.first, el.prev, el.play, el.next, el.last),
            el.slider, el.ply),
          h("p", { class: "keys-help" }, h("kbd", {}, "←"), h("kbd", {}, "→"), ` ${t("replay.keys.step")} · `,
            h("kbd", {}, t("replay.key.space")), ` ${t("replay.keys.play")} · `,
            h("kbd", {}, t("replay.key.home")), h("kbd", {}, t("replay.key.end")), ` ${t("replay.keys.ends")}`)),
        h("aside", { class: "side-col" },
          h("section", { class: "panel players", "aria-labelledby": "rp-players" }, h("h2", { id: "rp-players" }, t("replay.players")), el.players),
          h("section", { class: "panel moves", "aria-labelledby": "rp-moves" }, h("h2", { id: "rp-moves" }, t("replay.moves")), el.moves),
          h("section", { class: "panel" },
            h("div", { class: "more-actions" },
              gameLink,
              this.analyseButton(),
              h("a", { class: "btn small", href: recordUrl(this.id), download: `record-${this.id}.json`, "data-testid": "btn-record" }, icon("download"), t("replay.download"))))))));
  }

  /** "Analyse": the analysis board at the position shown, for a game the engine analyses. A game still going on
   * against another person is not analysed (that would be cheating): only where its hints are allowed, and not a
   * puzzle going on (as on the game page). */
  analyseButton() {
    const live = this.view && this.view.status === "active" && !this.view.result;
    // a puzzle going on is not analysed either: the solver's answer would be an uncounted hint
    if (!this.entry?.analysis || (live && (!this.view.hints_allowed || isPuzzle(this.view)))) return null;
    return h("button", {
      type: "button", class: "btn small", "data-testid": "replay-analyse", title: t("replay.analyse_title"),
      onclick: () => {
        const frame = this.frames[this.index];
        const moves = this.frames.slice(1, this.index + 1).map((f) => f.move);
        openAnalysis({ game: this.game, options: this.options, start: this.startPosition, moves, gameId: this.id,
          ply: moves.length, from: `/replay/${encodeURIComponent(this.id)}?ply=${frame.ply ?? this.index}` });
      },
    }, icon("cpu"), t("replay.analyse"));
  }

  /** Go to frame `index`; `animated` plays the move's waves when it is the next frame. */
  async go(index, animated = false) {
    if (!this.frames) return;
    index = Math.max(0, Math.min(this.frames.length - 1, index));
    if (!animated || index !== this.index + 1) this.stop();
    await this.show(index, animated && index === this.index + 1);
  }

  async show(index, animated) {
    this.controller?.abort();
    const from = this.frames[this.index];
    const to = this.frames[index];
    this.index = index;
    this.updateChrome();
    if (animated && from && to.events?.length) {
      const controller = new AbortController();
      this.controller = controller;
      this.draw(from);
      await this.mod.animate(this.el.board, to.events, from.board, { signal: controller.signal });
      if (controller.signal.aborted || this.destroyed) return false;
      this.controller = null;
    }
    if (this.index === index) this.draw(to);
    return true;
  }

  draw(frame) {
    const i = this.frames.indexOf(frame);
    const next = this.frames[i + 1];
    this.mod.render(this.el.board, frame.board, {
      last: frame.move || null,
      events: frame.events || [],
      turn: next ? next.player : -1,
      seatNames: this.names,
      label: t("replay.board_after", { title: this.title, ply: frame.ply }),
    });
    this.renderPlayers(frame);
  }

  updateChrome() {
    const el = this.el;
    const frame = this.frames[this.index];
    const total = this.frames.length - 1;
    el.slider.value = String(this.index);
    el.ply.textContent = t("replay.ply", { ply: frame.ply ?? this.index, total: this.total - 1 });
    el.ply.dataset.ply = String(frame.ply ?? this.index);
    // dimmed, not disabled: at an end a click simply has nothing to do (and the buttons keep their focus)
    for (const b of [el.first, el.prev]) b.classList.toggle("at-end", this.index === 0);
    for (const b of [el.next, el.last]) b.classList.toggle("at-end", this.index === total);
    replace(el.play, icon(this.playing ? "pause" : "play"));
    el.play.setAttribute("aria-label", t(this.playing ? "replay.pause" : "replay.play"));
    el.play.title = el.play.getAttribute("aria-label");
    el.play.setAttribute("aria-pressed", String(this.playing));
    for (const li of el.moves.children) {
      const on = Number(li.dataset.index) === this.index;
      li.classList.toggle("current", on);
      if (on) {
        li.setAttribute("aria-current", "step");
        const box = el.moves;
        const top = li.offsetTop - box.offsetTop;
        if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - li.offsetHeight) {
          box.scrollTop = top - box.clientHeight / 2;
        }
      } else {
        li.removeAttribute("aria-current");
      }
    }
    // caption
    const name = frame.player !== null && frame.player !== undefined ? this.names[frame.player] : null;
    replace(el.caption,
      name ? h("span", { class: "swatch status-dot", style: { "--c": seatColour(frame.player) } }) : null,
      h("span", { class: "status-text" }, this.index === 0 ? t("replay.start")
        : name ? t("replay.played", { name, move: frame.move }) : t("replay.played_unnamed", { move: frame.move })));
    // result at the end
    const atEnd = this.index === this.total - 1 && this.result;
    el.banner.hidden = !atEnd;
    if (atEnd) {
      const w = Number.isInteger(this.result.winner) ? this.result.winner : null;
      const reason = resultReason(this.result, this.names, w !== null ? this.seats?.[w]?.name ?? this.names[w] : null);
      el.banner.style.setProperty("--c", w === null ? "var(--muted)" : seatColour(w));
      replace(el.banner, h("div", { class: "result-main" },
        h("span", { class: "result-medal", "aria-hidden": "true" }, w === null ? "=" : "★"),
        h("div", {}, h("strong", {}, w === null ? t("replay.draw") : t("replay.wins", { name: this.names[w] })),
          h("span", {}, reason))));
    }
  }

  renderPlayers(frame) {
    const n = this.names.length;
    const scores = this.mod.score(frame.board, n);
    replace(this.el.players, this.names.map((nm, i) => h("li", { class: "player" },
      h("span", { class: "swatch", style: { "--c": seatColour(i) } }),
      h("span", { class: "player-name" }, nm,
        this.seats?.[i] ? h("small", {}, this.seats[i].kind === "computer" ? t("replay.computer", { level: levelWord(this.seats[i].level) }) : t("replay.person")) : null),
      scores[i] ? h("span", { class: "player-score" }, h("b", {}, String(scores[i].value)), h("small", {}, scores[i].unit)) : null)));
  }

  togglePlay() {
    if (this.playing) this.stop();
    else this.play();
  }

  stop() {
    if (!this.playing) return;
    this.playing = false;
    this.updateChrome();
  }

  async play() {
    if (this.index >= this.frames.length - 1) await this.show(0, false);
    this.playing = true;
    this.updateChrome();
    while (this.playing && !this.destroyed && this.index < this.frames.length - 1) {
      const done = await this.show(this.index + 1, true);
      if (!this.playing || !done) break;
      await wait(PAUSE_MS);
    }
    this.playing = false;
    if (!this.destroyed) this.updateChrome();
  }

  keydown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = event.target?.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      if (!(tag === "INPUT" && event.target.type === "range")) return;
      if (event.key === "ArrowLeft" || event.key === "ArrowRight") return; // the slider handles them itself
    }
    if (event.key === "ArrowRight") { event.preventDefault(); this.go(this.index + 1, true); }
    else if (event.key === "ArrowLeft") { event.preventDefault(); this.go(this.index - 1); }
    else if (event.key === "Home") { event.preventDefault(); this.go(0); }
    else if (event.key === "End") { event.preventDefault(); this.go(this.frames.length - 1); }
    else if (event.key === " " && tag !== "BUTTON" && tag !== "A") { event.preventDefault(); this.togglePlay(); }
  }
}

function maxPlayer(frames) {
  return frames.reduce((m, f) => (Number.isInteger(f.player) ? Math.max(m, f.player) : m), 1);
}
