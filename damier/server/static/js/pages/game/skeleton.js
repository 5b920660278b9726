// The game page's elements: the head, the board column (status, result banner, board, actions, keys) and the
// side column (players, invitations, moves, sharing). Built once; the panels fill them in.

import { h, icon, replace } from "../../dom.js";
import { watchUrl } from "../../api.js";
import { t } from "../../i18n.js";
import { copyLink } from "./controls.js";

/** Build the page in `root`; `page` gives the actions' handlers. The elements, by name. */
export function buildSkeleton(root, page) {
  const el = {};
  el.title = h("h1", {}, t("play.loading"));
  el.sub = h("span", { class: "sub-options", "data-testid": "game-options" });
  el.conn = h("span", { class: "conn", "data-state": "connecting" }, t("connection.state.connecting"));
  el.howto = howtoLink();
  el.statusText = h("span", { class: "status-text" });
  el.statusDot = h("span", { class: "swatch status-dot" });
  el.thinking = h("span", { class: "thinking", "data-testid": "thinking", hidden: true, role: "status" },
    h("span", { class: "thinking-dots", "aria-hidden": "true" }, h("i"), h("i"), h("i")),
    h("span", { class: "thinking-text" }));
  el.watching = h("span", { class: "watching", "data-testid": "watching", hidden: true }, icon("eye"), t("play.watching"));
  // the running clock beside the turn, for screens where the players panel is below the board (not announced:
  // the players panel's clocks are the timers)
  el.statusClock = h("span", { class: "player-clock running status-clock", "data-testid": "status-clock", hidden: true,
    "aria-hidden": "true" });
  el.status = h("div", { class: "status", "data-testid": "status", "aria-live": "polite" },
    el.statusDot, el.statusText, el.thinking, el.watching, el.statusClock);
  el.browseBar = h("div", { class: "browse-bar", "data-testid": "browse-bar", role: "status", hidden: true });
  el.banner = h("div", { class: "result-banner", "data-testid": "result-banner", hidden: true, role: "status" });
  el.board = h("div", { class: "board-wrap", "data-testid": "board" }, h("div", { class: "board-loading" }));
  el.info = h("p", { class: "board-info", "data-testid": "board-info", hidden: true, "aria-live": "polite" });
  el.undo = h("button", { type: "button", class: "btn", "data-testid": "btn-undo", title: t("play.undo.title"), onclick: () => page.undo() },
    icon("undo"), h("span", { class: "label" }, t("play.undo.button")));
  el.hint = h("button", { type: "button", class: "btn", "data-testid": "btn-hint", title: t("play.hint.title"), onclick: () => page.askHint() },
    icon("hint"), h("span", { class: "label" }, t("play.hint.button")));
  el.resign = h("button", { type: "button", class: "btn", "data-testid": "btn-resign", title: t("play.resign.title"), onclick: () => page.resign() },
    icon("flag"), h("span", { class: "label" }, t("play.resign.button")));
  el.abort = h("button", { type: "button", class: "btn", "data-testid": "btn-abort", hidden: true,
    title: t("play.abort.title"), onclick: () => page.abort() },
  icon("x"), h("span", { class: "label" }, t("play.abort.button")));
  el.drawBox = h("span", { class: "draw-box" });
  // another player's proposal to this browser's seats (a takeback, a draw): what they ask, Accept and Decline; it
  // stands right under the status line and its clock, where it is seen without scrolling
  el.request = h("div", { class: "request-box", "data-testid": "request", role: "status", "aria-live": "polite", hidden: true });
  // before the first moves: whose clock starts when, and when a first move not made aborts the game
  el.startNote = h("p", { class: "start-note", "data-testid": "start-note", hidden: true });
  // the other players left a game under way: how long until this browser may claim it, then Claim buttons
  el.left = h("div", { class: "request-box left-box", "data-testid": "left", role: "status", "aria-live": "polite", hidden: true });
  el.flip = h("button", { type: "button", class: "btn", "data-testid": "btn-flip", title: t("play.flip.title"), "aria-pressed": "false", hidden: true, onclick: () => page.flip() },
    icon("repeat"), h("span", { class: "label" }, t("play.flip.button")));
  el.controls = h("div", { class: "controls", role: "toolbar", "aria-label": t("play.actions") }, el.undo, el.hint, el.abort, el.resign, el.drawBox, el.flip);
  el.keys = h("p", { class: "keys-help" });
  el.share = h("div", { class: "share-bar", "aria-hidden": "true" });
  el.players = h("ul", { class: "player-list" });
  el.invite = h("section", { class: "panel invite", hidden: true, "aria-labelledby": "invite-title" });
  el.moves = h("ol", { class: "move-list", "data-testid": "move-list", "aria-label": t("play.moves.title") });
  el.moves.addEventListener("scroll", () => {
    page.movesScrolledUp = el.moves.scrollTop + el.moves.clientHeight < el.moves.scrollHeight - 8;
  }, { passive: true });
  el.movesEmpty = h("p", { class: "muted small" }, t("play.moves.empty"));
  el.more = h("div", { class: "more-actions" });
  el.watchInput = h("input", { class: "link-input", readonly: true, "aria-label": t("play.watch_link.label") });
  replace(root, h("div", { class: "page game-page" },
    h("div", { class: "game-head" },
      h("div", {}, el.title, h("p", { class: "sub" }, el.sub, el.conn)), el.howto),
    h("div", { class: "game-layout" },
      h("section", { class: "board-col", "aria-label": t("play.board") },
        el.status, el.startNote, el.request, el.left, el.browseBar, el.board, el.info, el.banner, el.controls, el.keys),
      el.side = h("aside", { class: "side-col" },
        el.playersPanel = h("section", { class: "panel players", "data-testid": "players", "aria-labelledby": "players-title" },
          h("h2", { id: "players-title" }, t("play.players")), el.share, el.players),
        el.invite,
        h("section", { class: "panel moves", "aria-labelledby": "moves-title" },
          h("h2", { id: "moves-title" }, t("play.moves.title")), el.movesEmpty, el.moves),
        h("section", { class: "panel", "aria-labelledby": "share-title" },
          h("h2", { id: "share-title" }, t("play.share.title")),
          h("p", { class: "muted small" }, t("play.share.help")),
          h("div", { class: "link-row" }, el.watchInput,
            h("button", { type: "button", class: "btn small", "data-testid": "watch-link", onclick: (e) => copyLink(watchUrl(page.id), el.watchInput, e.currentTarget) },
              icon("copy"), t("play.copy.button"))),
          el.more)))));
  return el;
}

/** The link to the game's How to play page, hidden until `showHowtoLink` knows the game has one. */
export function howtoLink() {
  return h("a", { class: "btn small ghost howto-link", "data-testid": "howto-link", hidden: true },
    icon("hint"), t("play.howto"));
}

/** Show `link` (from `howtoLink`) when catalog `entry` declares a How to play page. */
export function showHowtoLink(link, entry) {
  if (!link || !entry?.features?.includes("howto")) return;
  link.href = `#/howto/${encodeURIComponent(entry.name)}`;
  link.hidden = false;
}

/** The connection state next to the options ("live", "reconnecting…"). */
export function showConnection(el, state) {
  if (!el) return;
  el.dataset.state = state;
  const key = { live: "connection.state.live", connecting: "connection.state.connecting", offline: "connection.state.offline" };
  el.textContent = t(key[state]);
  el.title = state === "live" ? t("connection.title.live") : t("connection.title.offline");
}

/** The keys line under the board: [[keys], words] pairs. */
export function renderKeys(el, pairs) {
  replace(el, pairs.map(([keys, words], i) => [i ? " · " : null, keys.map((k) => h("kbd", {}, k)), ` ${words}`]));
}
