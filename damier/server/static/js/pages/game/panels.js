// The game page's panels: the status line and thinking indicator, the result banner, the players with their
// colours and scores, the move list and the record links. Each reads the view and the page's seats.

import { openAnalysis } from "../analysis.js";
import { h, icon, replace } from "../../dom.js";
import { recordUrl, seats } from "../../api.js";
import { levelWord, seatColour, seatWord, seatWords, titleWord } from "../../players.js";
import { isDraw, resultReason, said, t } from "../../i18n.js";
import { clock, isPuzzle } from "./puzzle.js";

/** The status line for `view`. `animating`: its last move is still being drawn, so the board takes no input yet
 * (nor while this page's own move is on its way, `page.busy`, and the reply came first): the line says what was
 * played, and "your turn" only once the board is ready for your move. */
export function renderStatus(page, view, { animating = false } = {}) {
  const el = page.el;
  const local = page.localSeats();
  const over = view.status !== "active" || !!view.result || view.player < 0;
  const seat = view.seats?.[view.player];
  const name = seat ? seatName(view, view.player) : "";
  const thinking = (view.seats || []).find((s) => s.thinking);
  const ready = !animating && !page.busy;
  const mine = page.isMyTurn(view) && ready;
  let text = "";
  if (over) {
    // the banner tells everyone the same result; the status line says what it means for you
    const plies = (view.moves || []).length;
    const winner = view.result && Number.isInteger(view.result.winner) ? view.result.winner : null;
    const result = local.length === 1 && view.result ? (winner === local[0] ? "win" : winner === null ? "none" : "loss") : "none";
    text = t("panel.status.over", { result, count: plies });
    if (isPuzzle(view)) {
      const solved = view.result?.termination === "solved";
      text = solved ? t("panel.status.solved", { count: plies }) : t("panel.status.given_up");
    }
  } else if (page.isMyTurn(view) && !ready) {
    text = playedWords(view, local);
  } else if (mine && isPuzzle(view)) {
    const used = (view.moves || []).length;
    text = used ? t("panel.status.puzzle_move", { count: used }) : t("panel.status.puzzle_start");
  } else if (mine) {
    text = t(local.length > 1 ? "panel.status.to_play_yours" : "panel.status.your_turn", { name });
  } else if (seat && seat.kind === "computer") {
    // the thinking indicator says the rest
    text = thinking ? "" : t("panel.status.to_play_computer", { name });
  } else if (seat) {
    text = t(local.length ? "panel.status.waiting" : "panel.status.to_play", { name });
  }
  el.statusText.textContent = text;
  el.statusText.hidden = !text;
  el.statusDot.style.setProperty("--c", over ? "var(--muted)" : seatColour(view.player));
  el.statusDot.hidden = over;
  el.status.dataset.turn = mine ? "mine" : over ? "over" : "other";
  el.status.style.setProperty("--c-turn", over ? "var(--border)" : seatColour(view.player));
  el.thinking.hidden = !thinking || over;
  const thinkingText = thinking ? t("panel.status.thinking", { name: thinking.name }) : "";
  el.thinking.querySelector(".thinking-text").textContent = thinkingText;
  if (thinking) el.thinking.style.setProperty("--c", seatColour(thinking.index ?? view.seats.indexOf(thinking)));
  el.watching.hidden = local.length > 0;
  page.clocks?.status(view, over);
  document.title = `${over ? t("panel.game_over") : mine ? t("panel.your_turn") : text} · ${titleWord(view.game, view.title)} · damier`;
}

/** What the last move was, while it is drawn: "Red played h8g7", "You played C3". */
function playedWords(view, local) {
  const last = (view.moves || []).filter((m) => m.player >= 0).at(-1);
  if (!last) return "";
  if (local.includes(last.player) && local.length === 1) return t("panel.status.you_played", { move: last.move });
  return t("panel.status.played", { name: seatName(view, last.player), move: last.move });
}

/** " · board 1234" after the options of a game whose board was drawn from a seed (the view's `seed`; not a game
 * from a position of its own): the number to copy, a link to the new-game form with this board and these options,
 * to play it again or send it. */
export function boardSeed(view) {
  if (view.seed === null || view.seed === undefined || view.start) return null;
  const options = encodeURIComponent(JSON.stringify(view.options || {}));
  return [" · ", h("a", {
    class: "board-seed", "data-testid": "board-seed", href: `#/new/${encodeURIComponent(view.game)}?seed=${view.seed}&options=${options}`,
    title: t("panel.seed.title"),
  }, t("panel.seed.label", { seed: String(view.seed) }))];
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
    const again = t(puzzle ? "panel.rematch.again" : seeded ? "panel.rematch.same_board" : "panel.rematch.button");
    const rematch = h("button", { type: "button", class: "btn primary", "data-testid": "btn-rematch" },
      icon("repeat"), view.rematch ? (puzzle ? t("panel.rematch.join_try") : t("panel.rematch.join")) : again);
    rematch.addEventListener("click", () => page.rematch(rematch, "same"));
    actions.append(rematch);
    if (seeded) {
      const fresh = h("button", { type: "button", class: "btn", "data-testid": "btn-rematch-new" },
        icon("repeat"), t("panel.rematch.new_board"));
      fresh.addEventListener("click", () => page.rematch(fresh, "new"));
      actions.append(fresh);
    }
  } else if (view.rematch) {
    const rid = typeof view.rematch === "string" ? view.rematch : view.rematch.id;
    if (rid) actions.append(h("a", { class: "btn primary", href: `#/game/${encodeURIComponent(rid)}` }, icon("eye"), t("panel.rematch.watch")));
  }
  actions.append(
    h("a", { class: "btn", href: `#/replay/${encodeURIComponent(page.id)}`, "data-testid": "btn-replay" }, icon("film"), t("panel.replay")),
    h("a", { class: "btn ghost", href: `#/new/${encodeURIComponent(view.game)}` }, icon("plus"), puzzle ? t("panel.new_puzzle") : t("panel.new_game")));
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
    ? h("span", { class: "result-solution", "data-testid": "result-solution" }, t("panel.result.solution", { line: view.solution.join(" ") }))
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
    ? h("span", { style: { "--c": seatColour(i), "flex-grow": String(s.value) }, title: t("panel.share.title", { name: seatName(view, i), value: String(s.value) }) })
    : null) : h("span", { class: "empty" }));
  replace(el.players, (view.seats || []).map((seat, i) => {
    const s = scores[i];
    const out = (view.out || []).includes(i); // the rules say which seats are out (the view's `out`)
    const toMove = view.status === "active" && !view.result && view.player === i;
    const who = local.includes(i) ? t("panel.who.you")
      : seat.kind === "computer" ? t("panel.who.computer", { level: levelWord(seat.level) })
      : store.remote.includes(i) ? t("panel.who.invited") : t("panel.who.person");
    const winner = view.result && view.result.winner === i;
    // a person's seat: online (a page of it in view), away (hidden), offline; this browser's own seats are here
    const here = seat.kind !== "human" ? null : local.includes(i) ? "online" : page.here?.[String(i)] || "offline";
    return h("li", {
      class: `player${toMove ? " to-move" : ""}${out ? " out" : ""}${winner ? " winner" : ""}`,
      "data-testid": `player-${i}`, "aria-current": toMove ? "true" : null,
    },
      h("span", { class: "swatch", style: { "--c": seatColour(i) } }),
      h("span", { class: "player-name" }, seatName(view, i), h("small", {}, who,
        here ? h("span", { class: `presence ${here}`, "data-testid": `presence-${i}`, "data-presence": here }, t("panel.presence", { presence: here })) : null)),
      seat.thinking && toMove
        ? h("span", { class: "spinner", title: t("panel.thinking"), "aria-label": t("panel.thinking") }) : null,
      winner ? h("span", { class: "badge win" }, t("panel.badge.winner"))
        : out ? h("span", { class: "badge" }, t("panel.badge.out")) : null,
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
        const then = m.mark?.includes("x") ? "panel.move.then_took" : "panel.move.then";
        before.title = t(then, { title: before.title, move: m.move });
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
      took ? h("span", { class: "took", "data-testid": `took-${ply}`, title: t("panel.move.took"), "aria-label": t("panel.move.capture") }, "×") : null,
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
  const reason = view.result ? said(view.result, seatWords(view)) : "";
  return h("span", { class: "hit", "data-testid": `hit-${ply}`, title: reason ? t("panel.move.ended_by", { reason }) : t("panel.move.ended"), "aria-label": t("panel.move.ended_label") }, "#");
}

export function renderMore(page, view) {
  replace(page.el.more,
    h("a", { class: "btn small", href: recordUrl(page.id), download: `${view.game}-${page.id}.json`, "data-testid": "btn-record" }, icon("download"), t("panel.record.download")),
    h("a", { class: "btn small", href: `#/replay/${encodeURIComponent(page.id)}`, "data-testid": "btn-replay-side" }, icon("film"), t("panel.replay")),
    analyseButton(page, view));
}

/** "Analyse" opens the analysis board of this game at the position shown (browsed or live): for a game the engine can analyse,
 * once it is over, or where hints are allowed (analysing a live game against another person would be cheating). A
 * puzzle going on has its hints, which are counted: its analysis (the solution) waits until it is over. */
function analyseButton(page, view) {
  const over = view.status !== "active" || !!view.result;
  if (!page.entry?.analysis || !(over || (view.hints_allowed && !isPuzzle(view)))) return null;
  return h("button", {
    type: "button", class: "btn small", "data-testid": "btn-analyse", title: t("panel.analyse.title"),
    onclick: () => {
      const browsed = page.browsing?.active ? page.browsing.ply : null;
      const ply = browsed ?? (view.moves || []).length;
      openAnalysis({ game: view.game, options: view.options, gameId: page.id, ply, from: `/game/${encodeURIComponent(page.id)}` });
    },
  }, icon("cpu"), t("panel.analyse.button"));
}

export function seatName(view, i) {
  return seatWord(view.game, i, view.seats?.[i]?.name) || t("panel.player", { number: i + 1 });
}

function resultHeadline(view) {
  if (isPuzzle(view)) {
    const r = view.result || {};
    if (r.termination !== "solved") return t("panel.result.given_up");
    return Number.isInteger(r.optimum) && r.cost <= r.optimum ? t("panel.result.optimal") : t("panel.result.solved");
  }
  const winner = view.result && Number.isInteger(view.result.winner) ? view.result.winner : null;
  if (winner === null) return t(isDraw(view.result) ? "panel.result.draw" : "panel.game_over");
  return t("panel.result.wins", { name: seatName(view, winner) });
}

function resultDetail(view) {
  const r = view.result || {};
  if (isPuzzle(view)) {
    const parts = [resultReason(r, seatWords(view))];
    if (Number.isFinite(view.seconds)) parts.push(t("panel.result.time", { time: clock(view.seconds) }));
    parts.push(t("panel.result.hints", { count: view.hints ?? 0 }));
    return parts.filter(Boolean).join(" · ");
  }
  const plies = (view.moves || []).length;
  const after = t("panel.result.moves", { count: plies });
  // the server's reasons are sentences ("Red wins: Blue has nothing left"): the headline says who won
  const reason = resultReason(r, seatWords(view), Number.isInteger(r.winner) ? view.seats?.[r.winner]?.name : null);
  if (!reason) return t("panel.result.over_after", { count: plies });
  return `${reason} · ${after}`;
}
