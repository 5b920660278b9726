// Talking to the damier server (docs/server.md): JSON requests, errors, seat tokens and recent games.
import { language, said, t } from "./i18n.js";
import { learnSeatNames } from "./players.js";

export class ApiError extends Error {
  constructor(message, status, body) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

async function request(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(t("net.unreachable"), 0, null);
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) {
    throw new ApiError(errorText(data, response), response.status, data);
  }
  return data;
}

function errorText(data, response) {
  if (data && typeof data.error === "string") return said(data); // in the page's language when it has a code
  // FastAPI's default validation error shape, in case a route answers with it
  if (data && Array.isArray(data.detail)) {
    return data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
  }
  if (data && typeof data.detail === "string") return data.detail;
  return t("net.answered", { status: String(response.status), text: response.statusText || "" }).trim();
}

let catalogPromise = null;
const howtoPromises = new Map(); // game -> promise of its How to play page

export const api = {
  /** The games: [{name, title, description, players, options, levels, has_draws, client, ...}] */
  catalog() {
    if (!catalogPromise) {
      catalogPromise = request("GET", `/api/catalog?lang=${language()}`)
        .then((data) => (Array.isArray(data) ? data : data.games || []))
        .then((games) => { learnSeatNames(games); return games; });
      catalogPromise.catch(() => { catalogPromise = null; });
    }
    return catalogPromise;
  },
  async catalogEntry(name) {
    return (await this.catalog()).find((g) => g.name === name) || null;
  },
  /** A game's How to play page (GET /api/catalog/<game>/howto): {game, title, summary, sections: [{title, text,
   * items, diagrams}], tutorial}, each diagram's boards and events from the server. Kept once loaded. */
  howto(name) {
    if (!howtoPromises.has(name)) {
      const promise = request("GET", `/api/catalog/${encodeURIComponent(name)}/howto?lang=${language()}`);
      promise.catch(() => howtoPromises.delete(name));
      howtoPromises.set(name, promise);
    }
    return howtoPromises.get(name);
  },
  createGame(body) { return request("POST", "/api/games", { body }); },
  /** This browser's games and races under way (its identity cookie's): {games: [...], races: [...]}. */
  me() { return request("GET", "/api/me"); },
  /** A one-time link's code that carries this browser's identity to another device: {code, expires_in}. */
  makeLink() { return request("POST", "/api/me/links"); },
  /** Take the identity a link carries: {games, races} (404 used or unknown, 410 expired). */
  takeLink(code) { return request("POST", "/api/me/take", { body: { code } }); },
  // the lobby (docs/server.md): seeks everyone sees, joined in one click
  /** {game, options, clock, side?, quick?} -> {seek} (waiting) or {game: {id, seat, token}} (paired at once). */
  offerSeek(body) { return request("POST", "/api/seeks", { body }); },
  joinSeek(id) { return request("POST", `/api/seeks/${enc(id)}/join`); },
  cancelSeek(id) { return request("DELETE", `/api/seeks/${enc(id)}`); },
  /** A few games going on to watch: {games: [{id, game, title, seats, moves, board, ...}]}. */
  liveGames() { return request("GET", "/api/games/live"); },
  /** {status, version, kernels: {ready, done, total, compiling, compiled, seconds} or null}: how far compiling the
   * games' kernels is on a fresh server */
  health() { return request("GET", "/api/health"); },
  /** Check a position of `game` (null: the usual start, drawn from `seed` for a game with a seeded setup):
   * {position, player, legal_moves, board}, or an error; with `moves` (a line from it) also `boards`, the board after
   * each move. */
  position(game, options, position, moves = null, seed = null) {
    const body = { game, options, position, ...(moves ? { moves } : {}), ...(seed !== null ? { seed } : {}) };
    return request("POST", "/api/positions", { body });
  },
  /** The position of a board set up in the editor, checked: {position, valid, error?, player?, legal_moves?}. */
  positionOfBoard(game, options, board) { return request("POST", "/api/positions/board", { body: { game, options, board } }); },
  // the analysis board (docs/server.md): positions to try moves on, and the engine's analysis of one
  /** {game, options, position?, moves?, move?} -> {position, player, legal_moves, board, events, move, result, kind} */
  analysisBoard(body) { return request("POST", "/api/analysis/board", { body }); },
  /** {game, options, position} -> {id, kind, status, iterations, ...}; 429 past the client's limit */
  startAnalysis(body) { return request("POST", "/api/analysis", { body }); },
  readAnalysis(id) { return request("GET", `/api/analysis/${enc(id)}`); },
  stopAnalysis(id) { return request("POST", `/api/analysis/${enc(id)}/stop`); },
  /** The evaluation of every position of game `id` as it is now (started, or joined): {version, plies, status,
   * points: [{ply, player, chances, value, ends_in, best, pv, ...}]}; then read by version as it fills */
  startGraph(id) { return request("POST", `/api/games/${enc(id)}/evaluations`); },
  readGraph(id, version) { return request("GET", `/api/games/${enc(id)}/evaluations?version=${Number(version)}`); },
  game(id, token) { return request("GET", `/api/games/${enc(id)}`, { token }); },
  move(id, move, version, token) {
    const body = { move };
    if (Number.isInteger(version)) body.version = version;
    return request("POST", `/api/games/${enc(id)}/moves`, { body, token });
  },
  undo(id, token) { return request("POST", `/api/games/${enc(id)}/undo`, { token }); },
  declineUndo(id, token) { return request("POST", `/api/games/${enc(id)}/undo/decline`, { token }); },
  undoAll(id, token) { return request("POST", `/api/games/${enc(id)}/undo?all=true`, { token }); },
  resign(id, token) { return request("POST", `/api/games/${enc(id)}/resign`, { token }); },
  /** Call the game off (until every seat has made a first move). */
  abort(id, token) { return request("POST", `/api/games/${enc(id)}/abort`, { token }); },
  /** Claim "win" or "draw" of a game the other players left (the presence message's `left`). */
  claimGame(id, result, token) { return request("POST", `/api/games/${enc(id)}/claim`, { body: { result }, token }); },
  draw(id, action, token) { return request("POST", `/api/games/${enc(id)}/draw`, { body: { action }, token }); },
  /** The hint agent's move, or with `level` (1, the vaguest, to 4) a puzzle's graded hint {level, kind, text, ...}. */
  hint(id, token, level = null) {
    const query = Number.isInteger(level) ? `?level=${level}` : "";
    return request("POST", `/api/games/${enc(id)}/hint${query}`, { token });
  },
  /** The rematch {id, token, seed}: `board` "same" (the game's board again) or "new" (a new seeded board). */
  rematch(id, token, board = "same") {
    return request("POST", `/api/games/${enc(id)}/rematch?board=${enc(board)}`, { token });
  },
  record(id) { return request("GET", `/api/games/${enc(id)}/record`); },
  /** A page of a game's positions: {frames, from, total, ...} (the server's page size unless `count` is given). */
  replay(id, from = 0, count = null) {
    const query = `?from=${from}${count ? `&count=${count}` : ""}`;
    return request("GET", `/api/games/${enc(id)}/replay${query}`);
  },
  importRecord(record) { return request("POST", "/api/records", { body: record }); },
  /** A solo puzzle (a one-player game): {game, options?, puzzle?, seed?, daily?} -> {id, token, state}. */
  createPuzzle(body) { return request("POST", "/api/puzzles", { body }); },
  /** The puzzle of the day of `game` (UTC): {game, title, date, options, position, board}. */
  daily(game) { return request("GET", `/api/puzzles/${enc(game)}/daily`); },
  // race rooms (docs/server.md): people race on a puzzle game's puzzles
  createRace(game, options, name, settings = {}) {
    return request("POST", "/api/races", { body: { game, options, name, settings } });
  },
  joinRace(id, name) { return request("POST", `/api/races/${enc(id)}/join`, { body: { name } }); },
  race(id, token) { return request("GET", `/api/races/${enc(id)}`, { token }); },
  startRace(id, token) { return request("POST", `/api/races/${enc(id)}/start`, { token }); },
  claim(id, count, round, token) {
    return request("POST", `/api/races/${enc(id)}/claim`, { body: { count, round }, token });
  },
  demonstrate(id, moves, round, token) {
    return request("POST", `/api/races/${enc(id)}/demonstrate`, { body: { moves, round }, token });
  },
  giveUp(id, token) { return request("POST", `/api/races/${enc(id)}/giveup`, { token }); },
};

function enc(id) {
  return encodeURIComponent(id);
}

export function recordUrl(id) {
  return `/api/games/${enc(id)}/record`;
}

export function socketUrl(id) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/api/games/${enc(id)}/ws`;
}

export function raceSocketUrl(id) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/api/races/${enc(id)}/ws`;
}

/** The link that opens race `id` (anyone may join it with a name while seats are left). */
export function raceUrl(id) {
  return `${location.origin}/#/race/${enc(id)}`;
}

/** The invitation link for `seat` of game `id`. */
export function inviteUrl(id, seat, token) {
  return `${location.origin}/#/game/${enc(id)}?seat=${seat}&token=${encodeURIComponent(token)}`;
}

export function watchUrl(id) {
  return `${location.origin}/#/game/${enc(id)}`;
}

// ---- seat tokens, per game, in localStorage -------------------------------------------------------------------
// damier.seats.<id> = {tokens: {"0": token, ...}, primary: 0, remote: [1]}
//   primary: the seat this browser plays first (sent with GETs so the view's `you` is set)
//   remote:  seats whose invitation link was copied; this browser stops playing them (a friend does)

function load(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: nothing kept */ }
}

export const seats = {
  get(id) {
    const s = load(`damier.seats.${id}`, null);
    return { tokens: {}, primary: null, remote: [], ...(s || {}) };
  },
  /** Store tokens ({seat: token}) for game `id`; the lowest new seat becomes primary if none is. */
  add(id, tokens, primary = null) {
    const s = this.get(id);
    for (const [seat, token] of Object.entries(tokens || {})) {
      if (token) s.tokens[String(seat)] = token;
      s.remote = s.remote.filter((r) => String(r) !== String(seat));
    }
    const held = Object.keys(s.tokens).map(Number).sort((a, b) => a - b);
    if (primary !== null && primary !== undefined) s.primary = Number(primary);
    else if (s.primary === null || !(String(s.primary) in s.tokens)) s.primary = held.length ? held[0] : null;
    save(`damier.seats.${id}`, s);
    return s;
  },
  markRemote(id, seat) {
    const s = this.get(id);
    if (!s.remote.includes(seat)) s.remote.push(seat);
    save(`damier.seats.${id}`, s);
    return s;
  },
  forget(id, seat) {
    const s = this.get(id);
    delete s.tokens[String(seat)];
    if (s.primary === seat) s.primary = null;
    save(`damier.seats.${id}`, s);
  },
  /** Seats this browser plays (tokens held and not handed to someone else). */
  local(id) {
    const s = this.get(id);
    return Object.keys(s.tokens).map(Number).filter((n) => !s.remote.includes(n)).sort((a, b) => a - b);
  },
  token(id, seat) {
    return this.get(id).tokens[String(seat)] || null;
  },
  primaryToken(id) {
    const s = this.get(id);
    if (s.primary !== null && s.tokens[String(s.primary)]) return s.tokens[String(s.primary)];
    const first = this.local(id)[0];
    return first === undefined ? null : s.tokens[String(first)];
  },
};

// ---- race seats, per race, in localStorage -------------------------------------------------------------------------
// damier.races.<id> = {seat, token, name}: the seat this browser took in race <id>

export const raceSeats = {
  get(id) {
    const s = load(`damier.races.${id}`, null);
    return s && typeof s.token === "string" ? s : null;
  },
  set(id, seat, token, name) {
    save(`damier.races.${id}`, { seat, token, name });
  },
  forget(id) {
    try { localStorage.removeItem(`damier.races.${id}`); } catch { /* nothing kept */ }
  },
};

// ---- recent games (home page) -------------------------------------------------------------------------------------

export const recent = {
  list() {
    return load("damier.recent", []);
  },
  add(entry) {
    const list = this.list().filter((g) => g.id !== entry.id);
    list.unshift({ ...entry, at: Date.now() });
    save("damier.recent", list.slice(0, 12));
  },
  remove(id) {
    save("damier.recent", this.list().filter((g) => g.id !== id));
  },
};
