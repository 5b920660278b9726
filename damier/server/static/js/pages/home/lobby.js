// The home page's lobby (lichess's): quick pairing by game and time control, the open seeks of everyone on the
// arcade (joined in one click), this browser's own seeks (cancelled here; they close when this page does), and a few
// games going on to watch. The list comes from the lobby's WebSocket (/api/lobby/ws), which also tells this page
// when one of its seeks was joined: the game then opens.
import { h, icon, replace } from "../../dom.js";
import { api, seats, recent } from "../../api.js";
import { navigate } from "../../router.js";
import { showError } from "../../messages.js";
import { optionDefaults } from "../../session.js";
import { t } from "../../i18n.js";
import { seatWord, titleWord } from "../../players.js";

/** The time controls quick pairing offers (minutes, increment), among those the catalog's games take. */
const QUICK = [[1, 0], [3, 2], [5, 3], [10, 5]];
const LIVE_MS = 15000;

export class LobbyPanel {
  /** `catalog` and its board `modules` (to say options in words and draw the games to watch). */
  constructor(catalog, modules) {
    this.catalog = catalog;
    this.modules = modules;
    this.mine = new Set(); // ids of this player's open seeks (from any of its pages)
    this.offered = new Set(); // ids of the seeks offered from this page
    this.seeks = [];
    this.closed = false;
    this.backoff = 500;
    this.timers = new Set();
    this.list = h("ul", { class: "seek-list", "data-testid": "seek-list", "aria-label": t("lobby.open_seeks") });
    this.empty = h("p", { class: "muted small", "data-testid": "seek-empty" }, t("lobby.empty"));
    this.watch = h("section", { class: "watch", hidden: true, "aria-labelledby": "watch-title" });
    this.el = h("section", { class: "lobby panel", "data-testid": "lobby", "aria-labelledby": "lobby-title" },
      h("div", { class: "lobby-head" },
        h("h2", { id: "lobby-title" }, t("lobby.title")),
        h("p", { class: "muted small" }, t("lobby.intro"))),
      this.quickGrid(),
      h("h3", { class: "lobby-sub" }, t("lobby.open_seeks")),
      this.empty, this.list);
  }

  entry(name) { return this.catalog.find((c) => c.name === name); }

  describe(game, options) {
    const mod = this.modules[this.catalog.findIndex((c) => c.name === game)];
    return mod ? mod.describeOptions(options || {}, {}) : "";
  }

  /** A button per two-player game and common time control. */
  quickGrid() {
    const games = this.catalog.filter((entry) => Array.isArray(entry.clocks) && /\b2\b/.test(String(entry.players)));
    return h("div", { class: "quick-grid", "data-testid": "quick-pairing" }, games.map((entry) =>
      h("div", { class: "quick-row" },
        h("span", { class: "quick-title" }, entry.title),
        QUICK.filter(([m, i]) => entry.clocks.some(([cm, ci]) => cm === m && ci === i)).map(([m, i]) =>
          h("button", {
            type: "button", class: "btn small", "data-testid": `quick-${entry.name}-${m}+${i}`,
            onclick: (e) => this.quick(entry, `${m}+${i}`, e.currentTarget),
          }, `${m}+${i}`)))));
  }

  async quick(entry, clock, button) {
    button.disabled = true;
    try {
      const answer = await api.offerSeek({ game: entry.name, options: lobbyOptions(entry), clock, quick: true });
      if (answer.game) this.open(answer.game, entry);
      else this.opened(answer.seek);
    } catch (err) {
      showError(err);
    } finally {
      button.disabled = false;
    }
  }

  opened(seek) {
    if (this.closed) { // the page was left while the offer was on its way: its seek goes too
      api.cancelSeek(seek.id).catch(() => {});
      return;
    }
    this.mine.add(seek.id);
    this.offered.add(seek.id);
    if (!this.seeks.some((s) => s.id === seek.id)) this.show([seek, ...this.seeks]);
    // a page whose socket opened before this browser had an identity opens it again: the server then knows whose
    // page it is (it keeps the seek while the page is open, and tells it when the seek is joined)
    if (!this.identified) this.reconnect();
  }

  async join(seek, button) {
    button.disabled = true;
    try {
      const answer = await api.joinSeek(seek.id);
      this.open(answer.game, this.entry(seek.game), seek);
    } catch (err) {
      showError(err);
      button.disabled = false;
    }
  }

  async cancel(seek, button) {
    button.disabled = true;
    try {
      await api.cancelSeek(seek.id);
      this.mine.delete(seek.id);
      this.offered.delete(seek.id);
      this.show(this.seeks.filter((s) => s.id !== seek.id));
    } catch (err) {
      showError(err);
      button.disabled = false;
    }
  }

  /** A game this page was paired in: keep its seat's token, and open it. */
  open(game, entry, seek = null) {
    if (seek) this.offered.delete(seek.id); // joined: not this page's to cancel when it goes
    seats.add(game.id, { [game.seat]: game.token }, game.seat);
    recent.add({ id: game.id, game: entry?.name || seek?.game, title: entry?.title || seek?.title,
      options: seek?.options || lobbyOptions(entry), start: null, seat: game.seat });
    navigate(`/game/${encodeURIComponent(game.id)}`);
  }

  show(seeks) {
    this.seeks = seeks;
    this.empty.hidden = seeks.length > 0;
    replace(this.list, seeks.map((seek) => {
      const mine = this.mine.has(seek.id);
      const action = mine
        ? h("button", { type: "button", class: "btn small ghost", "data-testid": `cancel-seek-${seek.id}`, onclick: (e) => this.cancel(seek, e.currentTarget) }, t("lobby.cancel"))
        : h("button", { type: "button", class: "btn small primary", "data-testid": `join-seek-${seek.id}`, onclick: (e) => this.join(seek, e.currentTarget) }, t("lobby.join"));
      return h("li", { class: `seek${mine ? " mine" : ""}`, "data-testid": `seek-${seek.id}`, "data-game": seek.game },
        h("strong", {}, titleWord(seek.game, seek.title)),
        h("span", { class: "seek-options" }, this.describe(seek.game, seek.options)),
        h("span", { class: "pill" }, icon("clock"), seek.control || t("lobby.no_clock")),
        h("span", { class: "seek-side muted small" }, mine ? t("lobby.yours_waiting") : sideWords(seek.side)),
        action);
    }));
  }

  /** Start listening (the list, and this page's pairings) and showing games to watch. */
  start() {
    this.connect();
    this.live();
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/api/lobby/ws`);
    this.ws = ws;
    ws.onopen = () => { this.backoff = 500; };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "state" && msg.state) this.show(msg.state.seeks || []);
      else if (msg.type === "you") {
        this.identified = !!msg.identified;
        for (const id of msg.seeks || []) this.mine.add(id);
        this.show(this.seeks);
      }
      else if (msg.type === "paired" && this.mine.has(msg.seek)) {
        const seek = this.seeks.find((s) => s.id === msg.seek);
        this.open({ id: msg.game, seat: msg.seat, token: msg.token }, seek && this.entry(seek.game), seek);
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;
      this.later(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 10000);
    };
  }

  reconnect() {
    if (this.ws) { this.ws.onclose = null; this.ws.close(); }
    this.connect();
  }

  /** A few games going on (GET /api/games/live), each drawn small, a link to watch it; asked again now and then. */
  async live() {
    if (this.closed) return;
    try {
      const { games } = await api.liveGames();
      replace(this.watch, games.length ? [h("h2", { id: "watch-title" }, t("lobby.watch")),
        h("ul", { class: "watch-list", "data-testid": "watch-list" }, games.map((g) => this.liveItem(g)))] : []);
      this.watch.hidden = !games.length;
    } catch { /* the next look tells */ }
    this.later(() => this.live(), LIVE_MS);
  }

  liveItem(g) {
    const mod = this.modules[this.catalog.findIndex((c) => c.name === g.game)];
    const picture = h("span", { class: "watch-picture", "aria-hidden": "true" });
    if (mod) mod.render(picture, g.board, { compact: true, label: t("home.board_label", { title: titleWord(g.game, g.title) }) });
    const names = (g.seats || []).map((s, i) => {
      const name = seatWord(g.game, i, s.name);
      return s.kind === "computer" ? t("lobby.seat_computer", { name }) : name;
    }).join(" – ");
    return h("li", {},
      h("a", { href: `#/game/${encodeURIComponent(g.id)}`, "data-testid": `watch-${g.id}` }, picture,
        h("span", { class: "watch-text" }, h("strong", {}, titleWord(g.game, g.title)), h("small", {}, names),
          h("small", { class: "muted" },
            `${t("lobby.watch_moves", { count: g.moves })}${g.control ? ` · ${g.control.minutes}+${g.control.increment}` : ""}`))));
  }

  later(fn, ms) {
    const t = setTimeout(() => { this.timers.delete(t); if (!this.closed) fn(); }, ms);
    this.timers.add(t);
  }

  /** The home page is left for another of the arcade's pages: the seeks offered from it go at once (a tab closed
   * or reloaded is the server's to see: its socket closes). */
  close() {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    if (this.ws) { this.ws.onclose = null; this.ws.close(); }
    for (const id of this.offered) api.cancelSeek(id).catch(() => {}); // joined or gone already: nothing to do
    this.offered.clear();
  }
}

/** The options a lobby game is played with: the game's defaults, for two players. */
function lobbyOptions(entry) {
  const options = optionDefaults(entry || {});
  if ("players" in options) options.players = 2;
  return options;
}

function sideWords(side) {
  const key = { first: "lobby.side.first", second: "lobby.side.second", random: "lobby.side.random" }[side];
  return key ? t(key) : "";
}
