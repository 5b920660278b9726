// #/game/<id> : the live game. The view comes from GET /api/games/<id>, then from the WebSocket (every change);
// moves, undo, hint, resign, rematch go through the API with this browser's seat tokens.
import { h, icon, replace } from "../dom.js";
import { api, seats, recent, socketUrl, inviteUrl, watchUrl, recordUrl } from "../api.js";
import { boardModule } from "../games/index.js";
import { replaceAddress, navigate } from "../router.js";
import { showMessage, showError } from "../messages.js";
import { seatColour } from "../players.js";
import { seatOfToken } from "../session.js";

export function mount(root, { params, query }) {
  const page = new GamePage(root, params.id, query);
  page.start();
  return () => page.destroy();
}

const POLL_MS = 3000;

class GamePage {
  constructor(root, id, query) {
    this.root = root;
    this.id = id;
    this.latest = null; // the newest view received
    this.shown = null; // the view whose board is drawn (animations may lag behind `latest`)
    this.queue = [];
    this.pumping = false; // views are being shown (set and cleared by pump itself)
    this.pumped = Promise.resolve(); // the running pump, to wait for
    this.anim = null; // {controller, hurry}
    this.skip = false;
    this.busy = false; // a move is on its way
    this.hint = null; // {square, version}
    this.ws = null;
    this.backoff = 500;
    this.timers = new Set();
    this.destroyed = false;
    this.resignArmed = false;
    this.claimInvitation(query);
    this.onKey = (e) => this.keydown(e);
    this.onVisible = () => { if (!document.hidden) this.refresh(); };
  }

  // ---- life cycle ------------------------------------------------------------------------------------------------

  claimInvitation(query) {
    const token = query.get("token");
    if (!token) return;
    const seat = Number(query.get("seat"));
    this.invited = Number.isInteger(seat) ? seat : null;
    seats.add(this.id, { [Number.isInteger(seat) ? seat : 0]: token }, Number.isInteger(seat) ? seat : null);
    replaceAddress(`/game/${encodeURIComponent(this.id)}`); // the token leaves the address bar (and history)
  }

  async start() {
    this.buildSkeleton();
    let view;
    const token = seats.primaryToken(this.id);
    try {
      view = await api.game(this.id, token);
    } catch (err) {
      if (this.destroyed) return;
      replace(this.root, h("div", { class: "page narrow" }, h("div", { class: "panel empty-state" },
        h("h1", {}, err.status === 404 ? "No such game" : "The game could not be loaded"),
        h("p", {}, err.message),
        h("a", { class: "btn primary", href: "#/" }, "See the games"))));
      if (err.status === 404) recent.remove(this.id);
      return;
    }
    if (this.destroyed) return;
    if (view.status === "replay") {
      navigate(`/replay/${encodeURIComponent(this.id)}`, { replace: true });
      return;
    }
    if (token && !Number.isInteger(view.you)) {
      const primary = seats.get(this.id).primary;
      seats.forget(this.id, primary);
      showMessage("This seat link is not valid for this game (or no longer): you are watching.", "error");
    } else if (Number.isInteger(view.you) && this.invited !== undefined && this.invited !== null && view.you !== this.invited) {
      // the link's seat number was wrong: the server knows which seat the token is for
      const tok = seats.token(this.id, this.invited);
      seats.forget(this.id, this.invited);
      seats.add(this.id, { [view.you]: tok }, view.you);
    }
    this.mod = boardModule(view.game);
    this.root.querySelector(".game-page")?.classList.add(`game-${view.game}`);
    this.el.flip.hidden = !this.mod.canFlip;
    renderKeys(this.el.keys, this.mod.keyHelp || DEFAULT_KEYS);
    const local = seats.local(this.id);
    if (local.length) {
      recent.add({ id: this.id, game: view.game, title: view.title, options: view.options, start: view.start, seat: local[0] });
    }
    this.receive(view, "load");
    this.connect();
    document.addEventListener("keydown", this.onKey);
    document.addEventListener("visibilitychange", this.onVisible);
  }

  destroy() {
    this.destroyed = true;
    this.anim?.controller.abort();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("visibilitychange", this.onVisible);
  }

  later(fn, ms) {
    const t = setTimeout(() => { this.timers.delete(t); if (!this.destroyed) fn(); }, ms);
    this.timers.add(t);
    return t;
  }

  // ---- connection ----------------------------------------------------------------------------------------------

  connect() {
    if (this.destroyed) return;
    this.setConnection("connecting");
    let ws;
    try {
      ws = new WebSocket(socketUrl(this.id));
    } catch {
      this.reconnectLater();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      this.setConnection("live");
    };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "state" && msg.state) this.receive(msg.state, "ws");
      else if (msg.type === "error" && msg.error) showMessage(msg.error, "error");
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (event.code === 4404) { // the server does not know this game: trying again will not help
        this.setConnection("offline");
        return;
      }
      this.reconnectLater();
    };
  }

  reconnectLater() {
    if (this.destroyed) return;
    this.setConnection("offline");
    const delay = this.backoff;
    this.backoff = Math.min(this.backoff * 2, 10000);
    this.later(() => this.connect(), delay);
    // while the socket is down, keep the view fresh by asking now and then
    if (!this.pollTimer) {
      const poll = () => {
        this.pollTimer = null;
        if (this.ws && this.ws.readyState === WebSocket.OPEN) return;
        this.refresh();
        this.pollTimer = this.later(poll, POLL_MS);
      };
      this.pollTimer = this.later(poll, POLL_MS);
    }
  }

  async refresh() {
    try {
      const view = await api.game(this.id, seats.primaryToken(this.id));
      this.receive(view, "poll");
    } catch { /* the next try will tell */ }
  }

  setConnection(state) {
    const el = this.el?.conn;
    if (!el) return;
    el.dataset.state = state;
    el.textContent = { live: "live", connecting: "connecting…", offline: "reconnecting…" }[state];
    el.title = state === "live" ? "Updates arrive as they happen" : "Trying to reach the server again";
  }

  // ---- views arriving --------------------------------------------------------------------------------------------

  receive(next, source) {
    if (this.destroyed || !next || (next.id && next.id !== this.id)) return;
    const last = this.latest;
    if (last) {
      if ((source === "move" || source === "poll") && next.version < last.version) return; // an older answer
      if (comparable(last) === comparable(next)) return; // the socket repeating what a reply already said
    }
    this.latest = next;
    this.queue.push(next);
    if (!this.pumping) this.pumped = this.pump();
    else if (this.anim) this.anim.hurry = true;
  }

  async pump() {
    this.pumping = true;
    try {
      while (this.queue.length && !this.destroyed) {
        const next = this.queue.shift();
        const prev = this.shown;
        if (prev && !this.skip && canAnimate(prev, next)) {
          this.renderPanels(next);
          this.drawBoard(prev, { still: true });
          const controller = new AbortController();
          this.anim = { controller, hurry: this.queue.length > 0 };
          try {
            await this.mod.animate(this.el.board, next.events, prev.board, {
              signal: controller.signal,
              fast: () => this.anim?.hurry || this.queue.length > 0,
            });
          } catch (err) {
            console.error(err);
          }
          this.anim = null;
        }
        this.shown = next;
        if (this.hint && this.hint.version !== next.version) this.hint = null;
        this.renderAll();
      }
    } finally {
      this.skip = false;
      this.pumping = false;
    }
  }

  /** Finish what is being animated at once (a click or key wants the current position). */
  async settle() {
    if (!this.pumping) return;
    this.skip = true;
    this.anim?.controller.abort();
    await this.pumped;
  }

  // ---- seats -----------------------------------------------------------------------------------------------------

  localSeats() {
    return seats.local(this.id);
  }

  isMyTurn(view = this.shown) {
    return !!view && view.status === "active" && !view.result && view.player >= 0 && this.localSeats().includes(view.player);
  }

  /** The token to act with: the seat to move when it is ours, else our primary seat. */
  actingToken(view = this.shown) {
    if (view && this.localSeats().includes(view.player)) return seats.token(this.id, view.player);
    return seats.primaryToken(this.id);
  }

  // ---- actions ---------------------------------------------------------------------------------------------------

  /** A move chosen on the board (for Atoms the square played, for Khet a move such as c1c2 or c4+). */
  async onMove(move) {
    if (this.pumping) await this.settle();
    const view = this.shown;
    if (!view || view.status !== "active" || view.result) return;
    if (!this.isMyTurn(view)) {
      if (this.localSeats().length) showMessage(`Wait for ${seatName(view, view.player)} to play.`, "info");
      return;
    }
    if (!(view.legal_moves || []).includes(move)) {
      showMessage(view.game === "atoms"
        ? `${move} is not a legal move: play on an empty square or one of your own.`
        : `${move} is not a legal move here.`, "info");
      return;
    }
    await this.play(move);
  }

  async play(square) {
    if (this.busy) return;
    const view = this.shown;
    this.busy = true;
    this.hint = null;
    this.drawBoard(view);
    try {
      const next = await api.move(this.id, square, view.version, this.actingToken(view));
      this.receive(next, "move");
    } catch (err) {
      showError(err);
      if (err.status === 409 || err.status === 422) this.refresh();
    } finally {
      this.busy = false;
      if (!this.pumping) this.renderAll();
    }
  }

  async undo() {
    const view = this.latest;
    if (!view || !this.canUndo(view)) return;
    await this.settle();
    const asked = new Set((view.undo_request || []).map(Number));
    const mine = this.localSeats().filter((s) => !asked.has(s));
    this.el.undo.disabled = true;
    try {
      let answer = null;
      for (const seat of mine.length ? mine : this.localSeats().slice(0, 1)) {
        answer = await api.undo(this.id, seats.token(this.id, seat));
      }
      if (answer && answer.board) this.receive(answer, "undo");
      else this.refresh();
      if (answer && answer.board && (answer.undo_request || []).length && answer.version === view.version) {
        showMessage("Undo asked: it happens when every player agrees.", "info");
      }
    } catch (err) {
      showError(err);
    } finally {
      this.renderControls(this.latest);
    }
  }

  async askHint() {
    const view = this.shown;
    if (!this.isMyTurn(view) || this.hintPending) return;
    this.hintPending = true;
    this.renderControls(view);
    try {
      const answer = await api.hint(this.id, this.actingToken(view));
      if (this.shown && this.shown.version === view.version && answer && answer.move) {
        this.hint = { square: answer.move, version: view.version };
        this.drawBoard(this.shown);
        const depth = answer.info && answer.info.depth ? ` (searched ${answer.info.depth} plies)` : "";
        showMessage(`Hint: the computer would play ${answer.move}${depth}.`, "info");
      }
    } catch (err) {
      showError(err);
    } finally {
      this.hintPending = false;
      this.renderControls(this.shown);
    }
  }

  async resign() {
    const view = this.latest;
    if (!view || view.status !== "active" || !this.localSeats().length) return;
    if (!this.resignArmed) {
      this.resignArmed = true;
      this.renderControls(view);
      this.later(() => { this.resignArmed = false; this.renderControls(this.latest); }, 4000);
      return;
    }
    this.resignArmed = false;
    try {
      const answer = await api.resign(this.id, this.actingToken(view));
      if (answer && answer.board) this.receive(answer, "resign");
      else this.refresh();
    } catch (err) {
      showError(err);
    }
  }

  async draw(action) {
    try {
      const answer = await api.draw(this.id, action, this.actingToken(this.latest));
      if (answer && answer.board) this.receive(answer, "draw");
      else this.refresh();
    } catch (err) {
      showError(err);
    }
  }

  async rematch(button) {
    const local = this.localSeats();
    if (!local.length) return;
    const primary = seats.get(this.id).primary;
    if (button) button.disabled = true;
    try {
      let newId = null;
      const tokens = {};
      let newPrimary = null;
      for (const seat of local) {
        const answer = await api.rematch(this.id, seats.token(this.id, seat));
        newId = answer.id;
        const { seat: newSeat } = await seatOfToken(answer.id, answer.token);
        const key = newSeat === null ? seat : newSeat;
        tokens[key] = answer.token;
        if (seat === primary || newPrimary === null) newPrimary = key;
      }
      seats.add(newId, tokens, newPrimary);
      const view = this.latest;
      recent.add({ id: newId, game: view.game, title: view.title, options: view.options, start: view.start, seat: newPrimary });
      navigate(`/game/${encodeURIComponent(newId)}`);
    } catch (err) {
      showError(err);
      if (button) button.disabled = false;
    }
  }

  keydown(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const key = event.key.toLowerCase();
    if (key === "u") {
      event.preventDefault();
      this.undo();
    } else if (key === "h") {
      event.preventDefault();
      this.askHint();
    } else if (event.key.startsWith("Arrow") && !this.el.board.contains(event.target)) {
      // arrows anywhere else bring the keyboard cursor to the board
      const current = this.el.board.querySelector("[tabindex='0']");
      if (current) {
        event.preventDefault();
        current.focus();
      }
    }
  }

  /** The seat whose side is at the bottom of the board: the one this browser plays when it plays one seat, else
   * seat 0; "Flip board" turns it round. */
  perspective() {
    const local = this.localSeats();
    const own = local.length === 1 ? local[0] : 0;
    return this.flipped ? (own === 0 ? 1 : 0) : own;
  }

  flip() {
    this.flipped = !this.flipped;
    this.el.flip.setAttribute("aria-pressed", String(this.flipped));
    if (!this.pumping) this.renderAll();
  }

  canUndo(view) {
    return !!view && view.status === "active" && !view.result && this.localSeats().length > 0
      && view.can_undo !== false && (view.moves || []).length > 0;
  }

  // ---- drawing ---------------------------------------------------------------------------------------------------

  buildSkeleton() {
    const el = {};
    el.title = h("h1", {}, "Loading…");
    el.sub = h("span", { class: "sub-options", "data-testid": "game-options" });
    el.conn = h("span", { class: "conn", "data-state": "connecting" }, "connecting…");
    el.statusText = h("span", { class: "status-text" });
    el.statusDot = h("span", { class: "swatch status-dot" });
    el.thinking = h("span", { class: "thinking", "data-testid": "thinking", hidden: true, role: "status" },
      h("span", { class: "thinking-dots", "aria-hidden": "true" }, h("i"), h("i"), h("i")),
      h("span", { class: "thinking-text" }));
    el.watching = h("span", { class: "watching", "data-testid": "watching", hidden: true }, icon("eye"), "You are watching");
    el.status = h("div", { class: "status", "data-testid": "status", "aria-live": "polite" },
      el.statusDot, el.statusText, el.thinking, el.watching);
    el.banner = h("div", { class: "result-banner", "data-testid": "result-banner", hidden: true, role: "status" });
    el.board = h("div", { class: "board-wrap", "data-testid": "board" }, h("div", { class: "board-loading" }));
    el.undo = h("button", { type: "button", class: "btn", "data-testid": "btn-undo", title: "Take back (U)", onclick: () => this.undo() },
      icon("undo"), h("span", { class: "label" }, "Undo"));
    el.hint = h("button", { type: "button", class: "btn", "data-testid": "btn-hint", title: "The hard computer's suggestion (H)", onclick: () => this.askHint() },
      icon("hint"), h("span", { class: "label" }, "Hint"));
    el.resign = h("button", { type: "button", class: "btn", "data-testid": "btn-resign", title: "Resign the game", onclick: () => this.resign() },
      icon("flag"), h("span", { class: "label" }, "Resign"));
    el.drawBox = h("span", { class: "draw-box" });
    el.flip = h("button", { type: "button", class: "btn", "data-testid": "btn-flip", title: "Turn the board round", "aria-pressed": "false", hidden: true, onclick: () => this.flip() },
      icon("repeat"), h("span", { class: "label" }, "Flip board"));
    el.controls = h("div", { class: "controls", role: "toolbar", "aria-label": "Game actions" }, el.undo, el.hint, el.resign, el.drawBox, el.flip);
    el.keys = h("p", { class: "keys-help" });
    el.share = h("div", { class: "share-bar", "aria-hidden": "true" });
    el.players = h("ul", { class: "player-list" });
    el.invite = h("section", { class: "panel invite", hidden: true, "aria-labelledby": "invite-title" });
    el.moves = h("ol", { class: "move-list", "data-testid": "move-list", "aria-label": "Moves" });
    el.moves.addEventListener("scroll", () => {
      this.movesScrolledUp = el.moves.scrollTop + el.moves.clientHeight < el.moves.scrollHeight - 8;
    }, { passive: true });
    el.movesEmpty = h("p", { class: "muted small" }, "No move yet.");
    el.more = h("div", { class: "more-actions" });
    el.watchInput = h("input", { class: "link-input", readonly: true, "aria-label": "Link to watch this game" });
    this.el = el;
    replace(this.root, h("div", { class: "page game-page" },
      h("div", { class: "game-head" },
        h("div", {}, el.title, h("p", { class: "sub" }, el.sub, el.conn))),
      h("div", { class: "game-layout" },
        h("section", { class: "board-col", "aria-label": "Board" },
          el.status, el.banner, el.board, el.controls, el.keys),
        h("aside", { class: "side-col" },
          h("section", { class: "panel players", "data-testid": "players", "aria-labelledby": "players-title" },
            h("h2", { id: "players-title" }, "Players"), el.share, el.players),
          el.invite,
          h("section", { class: "panel moves", "aria-labelledby": "moves-title" },
            h("h2", { id: "moves-title" }, "Moves"), el.movesEmpty, el.moves),
          h("section", { class: "panel", "aria-labelledby": "share-title" },
            h("h2", { id: "share-title" }, "Share and keep"),
            h("p", { class: "muted small" }, "Anyone with this link can watch the game."),
            h("div", { class: "link-row" }, el.watchInput,
              h("button", { type: "button", class: "btn small", "data-testid": "watch-link", onclick: (e) => this.copy(watchUrl(this.id), el.watchInput, e.currentTarget) },
                icon("copy"), "Copy")),
            el.more)))));
  }

  renderAll() {
    const view = this.shown;
    if (!view || this.destroyed) return;
    this.renderPanels(view);
    this.drawBoard(view);
  }

  drawBoard(view, { still = false } = {}) {
    const mine = !still && !this.busy && this.isMyTurn(view);
    const last = (view.moves || []).at(-1);
    this.mod.render(this.el.board, view.board, {
      legal: mine ? view.legal_moves || [] : [],
      turn: view.status === "active" && !view.result ? view.player : -1,
      hint: this.hint && this.hint.version === view.version ? this.hint.square : null,
      last: last ? last.move : null,
      seatNames: (view.seats || []).map((s) => s.name),
      onSquare: (square) => this.onMove(square),
      onMove: (move) => this.onMove(move),
      events: view.events || [],
      perspective: this.perspective(),
      label: `${view.title} board`,
    });
    this.el.board.dataset.version = String(view.version);
    this.el.board.classList.toggle("my-turn", mine);
  }

  renderPanels(view) {
    const el = this.el;
    el.title.textContent = view.title;
    el.sub.textContent = this.mod.describeOptions(view.options || {}, { start: view.start });
    this.renderStatus(view);
    this.renderBanner(view);
    this.renderControls(view);
    this.renderPlayers(view);
    this.renderInvite(view);
    this.renderMoves(view);
    this.renderMore(view);
    el.watchInput.value = watchUrl(this.id);
  }

  renderStatus(view) {
    const el = this.el;
    const local = this.localSeats();
    const over = view.status !== "active" || !!view.result || view.player < 0;
    const seat = view.seats?.[view.player];
    const thinking = (view.seats || []).find((s) => s.thinking);
    let text;
    if (over) {
      // the banner tells everyone the same result; the status line says what it means for you
      const plies = (view.moves || []).length;
      const winner = view.result && Number.isInteger(view.result.winner) ? view.result.winner : null;
      const personal = local.length === 1 && view.result ? (winner === local[0] ? "You win! " : winner === null ? "" : "You lost. ") : "";
      text = `${personal}Game over after ${plies} move${plies === 1 ? "" : "s"}`;
    } else if (this.isMyTurn(view)) {
      text = local.length > 1 ? `${seat.name} to play: your turn` : `Your turn (${seat.name})`;
    } else if (seat && seat.kind === "computer") {
      text = thinking ? "" : `${seat.name} to play (computer)`; // the thinking indicator says the rest
    } else if (seat) {
      text = local.length ? `Waiting for ${seat.name}` : `${seat.name} to play`;
    } else {
      text = "";
    }
    el.statusText.textContent = text;
    el.statusText.hidden = !text;
    el.statusDot.style.setProperty("--c", over ? "var(--muted)" : seatColour(view.player));
    el.statusDot.hidden = over;
    el.status.dataset.turn = this.isMyTurn(view) ? "mine" : over ? "over" : "other";
    el.status.style.setProperty("--c-turn", over ? "var(--border)" : seatColour(view.player));
    el.thinking.hidden = !thinking || over;
    el.thinking.querySelector(".thinking-text").textContent = thinking ? `${thinking.name} is thinking…` : "";
    if (thinking) el.thinking.style.setProperty("--c", seatColour(thinking.index ?? view.seats.indexOf(thinking)));
    el.watching.hidden = local.length > 0;
    document.title = `${over ? "Game over" : this.isMyTurn(view) ? "Your turn" : text} · ${view.title} · damier`;
  }

  renderBanner(view) {
    const el = this.el;
    if (!view.result) {
      el.banner.hidden = true;
      el.banner.replaceChildren();
      return;
    }
    const local = this.localSeats();
    const winner = Number.isInteger(view.result.winner) ? view.result.winner : null;
    const actions = h("div", { class: "result-actions" });
    if (local.length) {
      const rematch = h("button", { type: "button", class: "btn primary", "data-testid": "btn-rematch" },
        icon("repeat"), view.rematch ? "Join the rematch" : "Rematch");
      rematch.addEventListener("click", () => this.rematch(rematch));
      actions.append(rematch);
    } else if (view.rematch) {
      const rid = typeof view.rematch === "string" ? view.rematch : view.rematch.id;
      if (rid) actions.append(h("a", { class: "btn primary", href: `#/game/${encodeURIComponent(rid)}` }, icon("eye"), "Watch the rematch"));
    }
    actions.append(
      h("a", { class: "btn", href: `#/replay/${encodeURIComponent(this.id)}`, "data-testid": "btn-replay" }, icon("film"), "Replay"),
      h("a", { class: "btn ghost", href: `#/new/${encodeURIComponent(view.game)}` }, icon("plus"), "New game"));
    el.banner.dataset.winner = winner === null ? "none" : String(winner);
    el.banner.style.setProperty("--c", winner === null ? "var(--muted)" : seatColour(winner));
    const mine = winner !== null && local.includes(winner);
    el.banner.classList.toggle("won", local.length > 0 && mine);
    el.banner.classList.toggle("lost", local.length > 0 && !mine && local.length < (view.seats || []).length);
    replace(el.banner,
      h("div", { class: "result-main" },
        h("span", { class: "result-medal", "aria-hidden": "true" }, winner === null ? "=" : "★"),
        h("div", {},
          h("strong", {}, resultHeadline(view)),
          h("span", {}, resultDetail(view)))),
      actions);
    el.banner.hidden = false;
  }

  renderControls(view) {
    if (!view) return;
    const el = this.el;
    const local = this.localSeats();
    const playing = local.length > 0;
    const active = view.status === "active" && !view.result;
    el.controls.hidden = !playing && !this.mod?.canFlip; // a watcher may still turn the board round
    for (const b of [el.undo, el.hint, el.resign]) b.hidden = !playing;
    el.keys.hidden = !playing || !active;
    // undo
    const asked = (view.undo_request || []).map(Number);
    const waitingOthers = asked.length > 0 && local.every((s) => asked.includes(s));
    const othersAsked = asked.length > 0 && !waitingOthers;
    el.undo.disabled = !this.canUndo(view) || waitingOthers;
    el.undo.querySelector(".label").textContent = waitingOthers ? "Undo asked" : othersAsked ? "Agree to undo" : "Undo";
    el.undo.classList.toggle("attention", othersAsked);
    // hint
    el.hint.disabled = !this.isMyTurn(view) || !!this.hintPending;
    el.hint.querySelector(".label").textContent = this.hintPending ? "Thinking…" : "Hint";
    el.hint.classList.toggle("pending", !!this.hintPending);
    // resign
    el.resign.disabled = !active || !playing;
    el.resign.classList.toggle("danger", this.resignArmed);
    el.resign.querySelector(".label").textContent = this.resignArmed ? "Really resign?" : "Resign";
    // draws (games that have them)
    el.drawBox.replaceChildren();
    if (view.has_draws && active && playing) {
      const offer = view.draw_offer;
      const offerSeat = offer === null || offer === undefined ? null : Number(typeof offer === "object" ? offer.seat ?? offer.by : offer);
      if (offerSeat !== null && !local.includes(offerSeat)) {
        el.drawBox.append(
          h("button", { type: "button", class: "btn", "data-testid": "btn-draw-accept", onclick: () => this.draw("accept") }, "Accept draw"),
          h("button", { type: "button", class: "btn ghost", "data-testid": "btn-draw-decline", onclick: () => this.draw("decline") }, "Decline"));
      } else {
        el.drawBox.append(h("button", {
          type: "button", class: "btn", "data-testid": "btn-draw", disabled: offerSeat !== null,
          onclick: () => this.draw("offer"),
        }, offerSeat !== null ? "Draw offered" : "Offer a draw"));
      }
    }
  }

  renderPlayers(view) {
    const el = this.el;
    const n = (view.seats || []).length;
    const scores = this.mod.score(view.board, n);
    const total = scores.reduce((sum, s) => sum + (s ? s.value : 0), 0);
    const local = this.localSeats();
    const store = seats.get(this.id);
    const moved = new Set((view.moves || []).map((m) => m.player));
    replace(el.share, total > 0 ? scores.map((s, i) => s && s.value > 0
      ? h("span", { style: { "--c": seatColour(i), "flex-grow": String(s.value) }, title: `${view.seats[i].name}: ${s.value}` })
      : null) : h("span", { class: "empty" }));
    replace(el.players, (view.seats || []).map((seat, i) => {
      const s = scores[i];
      const out = !!view.moves?.length && moved.has(i) && s && s.value === 0;
      const toMove = view.status === "active" && !view.result && view.player === i;
      let who;
      if (local.includes(i)) who = "You";
      else if (seat.kind === "computer") who = `Computer · ${seat.level || "?"}`;
      else if (store.remote.includes(i)) who = "Invited";
      else who = "Person";
      const winner = view.result && view.result.winner === i;
      return h("li", {
        class: `player${toMove ? " to-move" : ""}${out ? " out" : ""}${winner ? " winner" : ""}`,
        "data-testid": `player-${i}`, "aria-current": toMove ? "true" : null,
      },
        h("span", { class: "swatch", style: { "--c": seatColour(i) } }),
        h("span", { class: "player-name" }, seat.name, h("small", {}, who)),
        seat.thinking && toMove ? h("span", { class: "spinner", title: "thinking", "aria-label": "thinking" }) : null,
        winner ? h("span", { class: "badge win" }, "winner") : out ? h("span", { class: "badge" }, "out") : null,
        s ? h("span", { class: "player-score", "data-testid": `atoms-${i}` },
          h("b", {}, String(s.value)), h("small", {}, s.unit)) : null);
    }));
  }

  renderInvite(view) {
    const el = this.el;
    const store = seats.get(this.id);
    const primary = store.primary;
    const humans = (view.seats || []).filter((s) => s.kind === "human");
    const others = humans.map((s) => s.index ?? view.seats.indexOf(s)).filter((i) => i !== primary && store.tokens[String(i)]);
    if (humans.length < 2 || !others.length || view.status !== "active") {
      el.invite.hidden = true;
      return;
    }
    el.invite.hidden = false;
    replace(el.invite,
      h("h2", { id: "invite-title" }, "Invite"),
      h("p", { class: "muted small" }, "Send each person the link to their seat, or play a seat here (one device for several people)."),
      others.map((i) => {
        const link = inviteUrl(this.id, i, store.tokens[String(i)]);
        const input = h("input", { class: "link-input", readonly: true, value: link, "data-testid": `invite-link-${i}`, "aria-label": `Invitation link for ${view.seats[i].name}` });
        const remote = store.remote.includes(i);
        return h("div", { class: "invite-row" },
          h("div", { class: "invite-head" },
            h("span", { class: "swatch", style: { "--c": seatColour(i) } }),
            h("strong", {}, view.seats[i].name),
            h("small", { class: "muted" }, remote ? "invited" : "played here"),
            h("button", {
              type: "button", class: "link-btn", "data-testid": `invite-local-${i}`,
              onclick: () => {
                if (remote) seats.add(this.id, { [i]: store.tokens[String(i)] }, primary);
                else seats.markRemote(this.id, i);
                this.renderAll();
              },
            }, remote ? "play it here" : "let them play")),
          h("div", { class: "link-row" }, input,
            h("button", { type: "button", class: "btn small", "data-testid": `invite-copy-${i}`,
              onclick: (e) => this.copy(link, input, e.currentTarget, () => { seats.markRemote(this.id, i); this.renderAll(); }) },
            icon("copy"), "Copy")));
      }));
  }

  renderMoves(view) {
    const el = this.el;
    const moves = view.moves || [];
    el.movesEmpty.hidden = moves.length > 0;
    const atBottom = !this.movesScrolledUp;
    const finished = view.status !== "active" || !!view.result;
    replace(el.moves, moves.map((m, k) => {
      const content = [h("span", { class: "ply" }, String(m.ply ?? k + 1)), h("span", { class: "swatch", style: { "--c": seatColour(m.player) } }), h("span", { class: "mv" }, m.move)];
      return h("li", { "data-testid": `move-${m.ply ?? k + 1}`, class: k === moves.length - 1 ? "current" : null, title: `${view.seats?.[m.player]?.name || ""} ${m.move}` },
        finished ? h("a", { href: `#/replay/${encodeURIComponent(this.id)}?ply=${m.ply ?? k + 1}` }, content) : content);
    }));
    if (atBottom || moves.length <= 1) el.moves.scrollTop = el.moves.scrollHeight;
  }

  renderMore(view) {
    replace(this.el.more,
      h("a", { class: "btn small", href: recordUrl(this.id), download: `${view.game}-${this.id}.json`, "data-testid": "btn-record" }, icon("download"), "Download record"),
      h("a", { class: "btn small", href: `#/replay/${encodeURIComponent(this.id)}`, "data-testid": "btn-replay-side" }, icon("film"), "Replay"));
  }

  async copy(text, input, button, done) {
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      input.focus();
      input.select();
      try { ok = document.execCommand("copy"); } catch { ok = false; }
    }
    if (ok) {
      showMessage("Link copied.", "success", 2000);
      if (button) {
        button.classList.add("copied");
        setTimeout(() => button.classList.remove("copied"), 1500);
      }
      done?.();
    } else {
      input.focus();
      input.select();
      showMessage("Copy the selected link by hand (the browser refused).", "info");
    }
  }
}

// ---- helpers --------------------------------------------------------------------------------------------------

const DEFAULT_KEYS = [[["←", "↑", "→", "↓"], "move"], [["Enter"], "play"], [["U"], "undo"], [["H"], "hint"]];

/** The keys line under the board: [[keys], words] pairs. */
export function renderKeys(el, pairs) {
  replace(el, pairs.map(([keys, words], i) => [i ? " · " : null, keys.map((k) => h("kbd", {}, k)), ` ${words}`]));
}

function comparable(view) {
  const { you, ...rest } = view;
  return JSON.stringify(rest);
}

function canAnimate(prev, next) {
  return next.version === prev.version + 1
    && Array.isArray(next.events) && next.events.length > 0
    && (next.moves || []).length === (prev.moves || []).length + 1
    && !!prev.board && !!next.board;
}

function seatName(view, i) {
  return view.seats?.[i]?.name || `player ${i + 1}`;
}

function resultHeadline(view) {
  const winner = view.result && Number.isInteger(view.result.winner) ? view.result.winner : null;
  if (winner === null) return view.result && /draw/i.test(String(view.result.reason || "")) ? "Draw" : "Game over";
  return `${seatName(view, winner)} wins`;
}

function resultDetail(view) {
  const r = view.result || {};
  const plies = (view.moves || []).length;
  const after = `${plies} move${plies === 1 ? "" : "s"}`;
  let reason = String(r.reason || "").trim();
  const winner = Number.isInteger(r.winner) ? seatName(view, r.winner) : null;
  if (winner && reason.toLowerCase().startsWith(`${winner} wins:`.toLowerCase())) reason = reason.slice(winner.length + 6).trim();
  if (winner && reason.toLowerCase().endsWith(`: ${winner} wins`.toLowerCase())) reason = reason.slice(0, -(winner.length + 7)).trim();
  // the server's reasons are sentences ("Red wins: Blue has no atoms left"); show them as they are
  return reason ? `${reason.charAt(0).toUpperCase()}${reason.slice(1)} · ${after}` : `Game over after ${after}`;
}
