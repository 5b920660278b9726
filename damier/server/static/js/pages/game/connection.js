// Keeping a room's view fresh (a game's, or a race's with `url` and `fetch`): the WebSocket (every change, as it
// happens), reconnecting with backoff (0.5 s doubling to 10 s) and asking over HTTP every 3 s while it is down; a
// close with code 4404 (unknown room) stops. The socket (opened with `?deltas=1`) sends a view whole ("state",
// numbered `seq`) or, when it is large, what changed since the view numbered `base` ("delta"): a delta on any
// other view than the last one received (a gap) reconnects, and the server starts again with the whole view.

import { api, seats, socketUrl } from "../../api.js";
import { applyPatch } from "../../delta.js";
import { showMessage } from "../../messages.js";

const POLL_MS = 3000;

export class Connection {
  /** receive(view, source): a view arrived; status(state): "connecting", "live" or "offline"; url(id): the
   * socket's address (a game's by default); fetch(id): the view over HTTP (a game's, with the primary token). */
  /** hello(): the seats this page plays, [{token, away}], said to the socket when it opens and by `hello()`
   * (a game's page; a race says nothing); presence(seats, message): who is here, {seat: "online" | "away"}
   * (and the whole message: a game's says who left, `left`, and when they may be claimed against, `claim_after`). */
  constructor(id, { receive, status, url = socketUrl, fetch = null, hello = null, presence = null }) {
    this.id = id;
    this.receive = receive;
    this.status = status;
    this.url = url;
    this.fetch = fetch || ((gameId) => api.game(gameId, seats.primaryToken(gameId)));
    this.ws = null;
    this.backoff = 500;
    this.timers = new Set();
    this.pollTimer = null;
    this.closed = false;
    this.hellos = hello;
    this.presence = presence;
    this.last = null; // the last view the socket sent, and its number (the base of the next delta)
    this.seq = null;
  }

  /** Tell the server which seats this page plays, and whether it is in view (when the socket is open). */
  hello() {
    if (!this.hellos || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    for (const message of this.hellos()) this.ws.send(JSON.stringify({ type: "hello", ...message }));
  }

  later(fn, ms) {
    const t = setTimeout(() => { this.timers.delete(t); if (!this.closed) fn(); }, ms);
    this.timers.add(t);
    return t;
  }

  connect() {
    if (this.closed) return;
    this.status("connecting");
    let ws;
    try {
      const url = this.url(this.id);
      ws = new WebSocket(`${url}${url.includes("?") ? "&" : "?"}deltas=1`); // this page applies deltas
    } catch {
      this.reconnectLater();
      return;
    }
    this.ws = ws;
    this.last = null;
    this.seq = null;
    ws.onopen = () => {
      this.backoff = 500;
      this.status("live");
      this.hello();
    };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "state" && msg.state) this.take(msg.state, msg.seq);
      else if (msg.type === "delta") this.patch(ws, msg);
      else if (msg.type === "presence" && msg.seats) this.presence?.(msg.seats, msg);
      else if (msg.type === "error" && msg.error) showMessage(msg.error, "error");
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (event.code === 4404) { // the server does not know this game: trying again will not help
        this.status("offline");
        return;
      }
      this.reconnectLater();
    };
  }

  /** A view from the socket, numbered `seq`: kept (a copy: what `receive` does with its own cannot change the
   * base of the next delta) and shown. */
  take(view, seq) {
    this.last = structuredClone(view);
    this.seq = seq ?? null;
    this.receive(view, "ws");
  }

  /** A delta from the socket `ws`: applied to the last view when that is its base; else (a message missed, or
   * a patch that does not fit) the socket is dropped and opened again, which sends the whole view. */
  patch(ws, msg) {
    let view = null;
    if (this.last !== null && this.seq !== null && msg.base === this.seq) {
      try { view = applyPatch(this.last, msg.patch); } catch (err) { console.error(err); }
    }
    if (view === null) {
      this.last = null;
      this.seq = null;
      ws.onclose = null;
      ws.close();
      if (this.ws === ws) this.ws = null;
      this.reconnectLater();
      return;
    }
    this.take(view, msg.seq);
  }

  reconnectLater() {
    if (this.closed) return;
    this.status("offline");
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

  /** Ask for the view over HTTP now (a game's with the primary seat's token, so `you` is set). */
  async refresh() {
    try {
      const view = await this.fetch(this.id);
      this.receive(view, "poll");
    } catch { /* the next try will tell */ }
  }

  close() {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
  }
}
