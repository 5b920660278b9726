// The game page's panels: the status line and thinking indicator, the result banner, the players with their
// colours and scores, the move list and the record links. Each reads the view and the page's seats.

import { openAnalysis } from "../analysis.js";
import { h, icon, replace } from "../../dom.js";
import { recordUrl, seats } from "../../api.js";
import { seatColour } from "../../players.js";
import { clock, isPuzzle } from "./puzzle.js";

/** The status line for `view`. `animating`: its last move is still being drawn, so the board takes no input yet
 * (nor while this page's own move is on its way, `page.busy`, and the reply came first): the line says what was
 * played, and "your turn" only once the board is ready for your move. */
export function renderStatus(page, view, { animating = false } = {}) {
  const el = page.el;
  const local = page.localSeats();
  const over = view.status !== "active" || !!view.result || view.player < 0;
  const seat = view.seats?.[view.player];
  const thinking = (view.seats || []).find((s) => s.thinking);
  const ready = !animating && !page.busy;
  const mine = page.isMyTurn(view) && ready;
  let text = "";
  if (over) {
    // the banner tells everyone the same result; the status line says what it means for you
    const plies = (view.moves || []).length;
    const winner = view.result && Number.isInteger(view.result.winner) ? view.result.winner : null;
    const personal = local.length === 1 && view.result ? (winner === local[0] ? "You win! " : winner === null ? "" : "You lost. ") : "";
    text = `${personal}Game over after ${plies} move${plies === 1 ? "" : "s"}`;
    if (isPuzzle(view)) {
      const solved = view.result?.termination === "solved";
      text = solved ? `Solved in ${plies} move${plies === 1 ? "" : "s"}` : "The puzzle was given up";
    }
  } else if (page.isMyTurn(view) && !ready) {
    text = playedWords(view, local);
  } else if (mine && isPuzzle(view)) {
    const used = (view.moves || []).length;
    text = used ? `Your move (${used} played)` : "Your move: reach the target";
  } else if (mine) {
    text = local.length > 1 ? `${seat.name} to play: your turn` : `Your turn (${seat.name})`;
  } else if (seat && seat.kind === "computer") {
    text = thinking ? "" : `${seat.name} to play (computer)`; // the thinking indicator says the rest
  } else if (seat) {
    text = local.length ? `Waiting for ${seat.name}` : `${seat.name} to play`;
  }
  el.statusText.textContent = text;
  el.statusText.hidden = !text;
  el.statusDot.style.setProperty("--c", over ? "var(--muted)" : seatColour(view.player));
  el.statusDot.hidden = over;
  el.status.dataset.turn = mine ? "mine" : over ? "over" : "other";
  el.status.style.setProperty("--c-turn", over ? "var(--border)" : seatColour(view.player));
  el.thinking.hidden = !thinking || over;
  el.thinking.querySelector(".thinking-text").textContent = thinking ? `${thinking.name} is thinking…` : "";
  if (thinking) el.thinking.style.setProperty("--c", seatColour(thinking.index ?? view.seats.indexOf(thinking)));
  el.watching.hidden = local.length > 0;
  page.clocks?.status(view, over);
  document.title = `${over ? "Game over" : mine ? "Your turn" : text} · ${view.title} · damier`;
}

/** What the last move was, while it is drawn: "Red played h8g7", "You played C3". */
function playedWords(view, local) {
  const last = (view.moves || []).filter((m) => m.player >= 0).at(-1);
  if (!last) return "";
  return `${local.includes(last.player) && local.length === 1 ? "You" : seatName(view, last.player)} played ${last.move}`;
}

/** " · board 1234" after the options of a game whose board was drawn from a seed (the view's `seed`; not a game
 * from a position of its own): the number to copy, a link to the new-game form with this board and these options,
 * to play it again or send it. */
export function boardSeed(view) {
  if (view.seed === null || view.seed === undefined || view.start) return null;
  const options = encodeURIComponent(JSON.stringify(view.options || {}));
  return [" · ", h("a", {
    class: "board-seed", "data-testid": "board-seed", href: `#/new/${encodeURIComponent(view.game)}?seed=${view.seed}&options=${options}`,
    title: "This board's number: the link opens a new game on it (send it to play the same board elsewhere)",
  }, `board ${view.seed}`)];
}

export function renderBanner(page, view) {
  const el = page.el;
  if (!view.result) {
    el.banner.hidden = true;
    el.banner.replaceChildren();
    return;
  }
  const local = page.localSeats();
  const winner = Number.isInteger(view.result.winner) ? view.result.winner : null;
  const actions = h("div", { class: "result-actions" });
  const puzzle = isPuzzle(view);
  if (local.length) {
    // a board drawn from a seed: the rematch on the same board (each player has played it from each side) or a new
    // one; once a rematch is made, the others join it
    const seeded = !puzzle && !view.rematch && view.seed !== null && view.seed !== undefined && !view.start;
    const again = puzzle ? "Try it again" : seeded ? "Rematch, same board" : "Rematch";
    const rematch = h("button", { type: "button", class: "btn primary", "data-testid": "btn-rematch" },
      icon("repeat"), view.rematch ? `Join the ${puzzle ? "new try" : "rematch"}` : again);
    rematch.addEventListener("click", () => page.rematch(rematch, "same"));
    actions.append(rematch);
    if (seeded) {
      const fresh = h("button", { type: "button", class: "btn", "data-testid": "btn-rematch-new" },
        icon("repeat"), "Rematch, new board");
      fresh.addEventListener("click", () => page.rematch(fresh, "new"));
      actions.append(fresh);
    }
  } else if (view.rematch) {
    const rid = typeof view.rematch === "string" ? view.rematch : view.rematch.id;
    if (rid) actions.append(h("a", { class: "btn primary", href: `#/game/${encodeURIComponent(rid)}` }, icon("eye"), "Watch the rematch"));
  }
  actions.append(
    h("a", { class: "btn", href: `#/replay/${encodeURIComponent(page.id)}`, "data-testid": "btn-replay" }, icon("film"), "Replay"),
    h("a", { class: "btn ghost", href: `#/new/${encodeURIComponent(view.game)}` }, icon("plus"), puzzle ? "New puzzle" : "New game"));
  el.banner.dataset.winner = winner === null ? "none" : String(winner);
  for (const key of ["cost", "optimum"]) {
    if (Number.isInteger(view.result[key])) el.banner.dataset[key] = String(view.result[key]);
    else delete el.banner.dataset[key];
  }
  // a solved puzzle: whether it took the fewest moves possible
  if (Number.isInteger(view.result.cost) && Number.isInteger(view.result.optimum)) {
    el.banner.dataset.optimal = String(view.result.cost <= view.result.optimum);
  } else {
    delete el.banner.dataset.optimal;
  }
  const solved = puzzle && view.result.termination === "solved";
  el.banner.style.setProperty("--c", solved ? "var(--success)" : winner === null || puzzle ? "var(--muted)" : seatColour(winner));
  const mine = winner !== null && local.includes(winner);
  el.banner.classList.toggle("won", local.length > 0 && mine);
  el.banner.classList.toggle("lost", local.length > 0 && !mine && local.length < (view.seats || []).length);
  // a finished puzzle: an optimal line from its start, as the server's solver found it
  const line = Array.isArray(view.solution) && view.solution.length
    ? h("span", { class: "result-solution", "data-testid": "result-solution" }, `An optimal line: ${view.solution.join(" ")}`)
    : null;
  replace(el.banner,
    h("div", { class: "result-main" },
      h("span", { class: "result-medal", "aria-hidden": "true" }, winner === null ? "=" : "★"),
      h("div", {}, h("strong", {}, resultHeadline(view)), h("span", {}, resultDetail(view)), line)),
    actions);
  el.banner.hidden = false;
}

export function renderPlayers(page, view) {
  const el = page.el;
  const n = (view.seats || []).length;
  const scores = page.mod.score(view.board, n);
  const total = scores.reduce((sum, s) => sum + (s ? s.value : 0), 0);
  const local = page.localSeats();
  const store = seats.get(page.id);
  replace(el.share, total > 0 ? scores.map((s, i) => s && s.value > 0
    ? h("span", { style: { "--c": seatColour(i), "flex-grow": String(s.value) }, title: `${view.seats[i].name}: ${s.value}` })
    : null) : h("span", { class: "empty" }));
  replace(el.players, (view.seats || []).map((seat, i) => {
    const s = scores[i];
    const out = (view.out || []).includes(i); // the rules say which seats are out (the view's `out`)
    const toMove = view.status === "active" && !view.result && view.player === i;
    const who = local.includes(i) ? "You" : seat.kind === "computer" ? `Computer · ${seat.level || "?"}`
      : store.remote.includes(i) ? "Invited" : "Person";
    const winner = view.result && view.result.winner === i;
    // a person's seat: online (a page of it in view), away (hidden), offline; this browser's own seats are here
    const here = seat.kind !== "human" ? null : local.includes(i) ? "online" : page.here?.[String(i)] || "offline";
    return h("li", {
      class: `player${toMove ? " to-move" : ""}${out ? " out" : ""}${winner ? " winner" : ""}`,
      "data-testid": `player-${i}`, "aria-current": toMove ? "true" : null,
    },
      h("span", { class: "swatch", style: { "--c": seatColour(i) } }),
      h("span", { class: "player-name" }, seat.name, h("small", {}, who,
        here ? h("span", { class: `presence ${here}`, "data-testid": `presence-${i}`, "data-presence": here }, here) : null)),
      seat.thinking && toMove ? h("span", { class: "spinner", title: "thinking", "aria-label": "thinking" }) : null,
      winner ? h("span", { class: "badge win" }, "winner") : out ? h("span", { class: "badge" }, "out") : null,
      s ? h("span", { class: "player-score", "data-testid": `score-${i}` },
        h("b", {}, String(s.value)), h("small", {}, s.unit)) : null,
      page.clocks?.element(view, i) ?? null);
  }));
}

/** The move list. Between two players it reads in pairs, a numbered row per move of each (`1. c1d2 h8g7`), the
 * first player's move on the left; chance moves (a die's steps) are kept out of the rows and named in the title of
 * the move they follow. With more players, one numbered cell per move. */
export function renderMoves(page, view) {
  const el = page.el;
  const moves = view.moves || [];
  el.movesEmpty.hidden = moves.length > 0;
  const atBottom = !page.movesScrolledUp;
  const finished = view.status !== "active" || !!view.result;
  const paired = (view.seats || []).length === 2;
  el.moves.classList.toggle("paired", paired);
  let number = 0;
  let open = false; // the current row has its left cell and waits for the right one
  const items = [];
  moves.forEach((m, k) => {
    const ply = m.ply ?? k + 1;
    const chance = m.player < 0;
    let label = String(ply);
    let cls = "";
    if (paired && chance) {
      cls = "chance";
      const before = items[items.length - 1];
      if (before) {
        before.title = `${before.title} · then ${m.move}${m.mark?.includes("x") ? " (took something)" : ""}`;
        // the chance move that ended the game (with the game's sign): the move before it carries the sign
        if (m.mark?.includes("#")) before.querySelector(".mv")?.after(hitSign(ply, view));
      }
    } else if (paired && m.player === 0) {
      number += 1;
      label = `${number}.`;
      open = true;
    } else if (paired) {
      if (!open) number += 1;
      label = open ? "" : `${number}…`;
      cls = "right";
      open = false;
    }
    const took = m.mark?.includes("x"); // the move took something (what, each game says: State.took_marks)
    const content = [h("span", { class: "ply" }, label), h("span", { class: "swatch", style: { "--c": seatColour(m.player) } }), h("span", { class: "mv" }, m.move),
      took ? h("span", { class: "took", "data-testid": `took-${ply}`, title: "took something", "aria-label": "a capture" }, "×") : null,
      m.mark?.includes("#") ? hitSign(ply, view) : null];
    const browsed = page.browsing?.ply;
    const current = browsed === null || browsed === undefined ? k === moves.length - 1 : ply === browsed;
    const classes = [cls, current ? "current" : ""].filter(Boolean).join(" ") || null;
    // a finished game's moves open the replay there; a game going on shows the position after the move clicked
    items.push(h("li", { "data-testid": `move-${ply}`, "data-ply": ply, class: classes, title: `${ply}. ${view.seats?.[m.player]?.name || ""} ${m.move}` },
      finished ? h("a", { href: `#/replay/${encodeURIComponent(page.id)}?ply=${ply}` }, content)
        : h("button", { type: "button", class: "move-btn", onclick: () => page.browsing.show(ply) }, content)));
  });
  const shown = items.filter((item) => !item.classList.contains("chance"));
  if (!page.browsing?.active && items.length && items[items.length - 1].classList.contains("chance") && shown.length) shown[shown.length - 1].classList.add("current");
  replace(el.moves, items);
  if (atBottom || moves.length <= 1) el.moves.scrollTop = el.moves.scrollHeight;
}

/** The sign of the move that ended the game as its game marks it (chess's mate sign), titled with the result's
 * reason (the game's own words). */
function hitSign(ply, view) {
  const reason = view.result?.reason;
  return h("span", { class: "hit", "data-testid": `hit-${ply}`, title: reason ? `ended the game: ${reason}` : "ended the game", "aria-label": "the move that ended the game" }, "#");
}

export function renderMore(page, view) {
  replace(page.el.more,
    h("a", { class: "btn small", href: recordUrl(page.id), download: `${view.game}-${page.id}.json`, "data-testid": "btn-record" }, icon("download"), "Download record"),
    h("a", { class: "btn small", href: `#/replay/${encodeURIComponent(page.id)}`, "data-testid": "btn-replay-side" }, icon("film"), "Replay"),
    analyseButton(page, view));
}

/** "Analyse" opens the analysis board of this game at the position shown (browsed or live): for a game the engine can analyse,
 * once it is over, or where hints are allowed (analysing a live game against another person would be cheating). A
 * puzzle going on has its hints, which are counted: its analysis (the solution) waits until it is over. */
function analyseButton(page, view) {
  const over = view.status !== "active" || !!view.result;
  if (!page.entry?.analysis || !(over || (view.hints_allowed && !isPuzzle(view)))) return null;
  return h("button", {
    type: "button", class: "btn small", "data-testid": "btn-analyse", title: "Open the analysis board at the position shown",
    onclick: () => {
      const browsed = page.browsing?.active ? page.browsing.ply : null;
      const ply = browsed ?? (view.moves || []).length;
      openAnalysis({ game: view.game, options: view.options, gameId: page.id, ply, from: `/game/${encodeURIComponent(page.id)}` });
    },
  }, icon("cpu"), "Analyse");
}

export function seatName(view, i) {
  return view.seats?.[i]?.name || `player ${i + 1}`;
}

function resultHeadline(view) {
  if (isPuzzle(view)) {
    const r = view.result || {};
    if (r.termination !== "solved") return "Puzzle given up";
    return Number.isInteger(r.optimum) && r.cost <= r.optimum ? "Solved, optimally!" : "Solved";
  }
  const winner = view.result && Number.isInteger(view.result.winner) ? view.result.winner : null;
  if (winner === null) return view.result && /draw/i.test(String(view.result.reason || "")) ? "Draw" : "Game over";
  return `${seatName(view, winner)} wins`;
}

function resultDetail(view) {
  const r = view.result || {};
  if (isPuzzle(view)) {
    const parts = [String(r.reason || "").replace(/^./, (c) => c.toUpperCase())];
    if (Number.isFinite(view.seconds)) parts.push(`in ${clock(view.seconds)}`);
    const hints = view.hints ?? 0;
    parts.push(hints ? `${hints} hint${hints === 1 ? "" : "s"} asked` : "no hint");
    return parts.filter(Boolean).join(" · ");
  }
  const plies = (view.moves || []).length;
  const after = `${plies} move${plies === 1 ? "" : "s"}`;
  let reason = String(r.reason || "").trim();
  const winner = Number.isInteger(r.winner) ? seatName(view, r.winner) : null;
  if (winner && reason.toLowerCase().startsWith(`${winner} wins:`.toLowerCase())) reason = reason.slice(winner.length + 6).trim();
  if (winner && reason.toLowerCase().endsWith(`: ${winner} wins`.toLowerCase())) reason = reason.slice(0, -(winner.length + 7)).trim();
  // the server's reasons are sentences ("Red wins: Blue has nothing left"); show them as they are
  return reason ? `${reason.charAt(0).toUpperCase()}${reason.slice(1)} · ${after}` : `Game over after ${after}`;
}
