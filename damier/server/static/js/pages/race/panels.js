// The race page's elements and what fills them from a race's view (GET /api/races/<id>, the race WebSocket): the
// status line and the round's timer, the claim box or the demonstration bar, the judgement of the last claim and
// the chips it moved, the players with their chips, the supply, the lobby (join, start), the rounds so far and the
// end. Every word about the rules comes from the view and the game's client description; the page knows no game.

import { h, icon, replace } from "../../dom.js";
import { raceUrl } from "../../api.js";
import { seatColour, titleWord } from "../../players.js";
import { copyLink } from "../game/controls.js";
import { clock } from "../game/puzzle.js";
import { howtoLink } from "../game/skeleton.js";
import { said, t } from "../../i18n.js";

/** Claim buttons offered at once (more through the number box). */
const QUICK_CLAIMS = 9;

export function buildSkeleton(root, page) {
  const el = {};
  el.title = h("h1", {}, t("race.title"));
  el.sub = h("span", { class: "sub-options", "data-testid": "game-options" });
  el.conn = h("span", { class: "conn", "data-state": "connecting" }, t("race.connecting"));
  el.howto = howtoLink();
  el.statusText = h("span", { class: "status-text", "data-testid": "race-status-text" });
  el.status = h("div", { class: "status race-status", "data-testid": "race-status", "aria-live": "polite" }, el.statusText);
  el.round = h("span", { class: "race-round", "data-testid": "race-round" });
  el.timer = h("span", { class: "race-timer", "data-testid": "race-timer", role: "timer" });
  el.supply = h("span", { class: "race-supply", "data-testid": "race-supply" });
  el.bar = h("div", { class: "race-bar" }, el.round, el.timer, el.supply);
  el.result = h("div", { class: "result-banner race-result", "data-testid": "race-result", hidden: true, role: "status" });
  el.verdict = h("div", { class: "race-verdict", "data-testid": "race-verdict", hidden: true, "aria-live": "polite" });
  el.board = h("div", { class: "board-wrap", "data-testid": "board" });
  el.info = h("p", { class: "board-info", "data-testid": "board-info", hidden: true });
  el.action = h("div", { class: "race-action", "data-testid": "race-action" });
  el.bids = h("section", { class: "race-bids", "data-testid": "race-bids", hidden: true, "aria-live": "polite" });
  el.lobby = h("section", { class: "panel race-lobby", "data-testid": "race-lobby", hidden: true });
  el.players = h("ul", { class: "player-list race-players", "data-testid": "race-players" });
  el.link = h("input", {
    class: "link-input", readonly: true, "data-testid": "race-link", "aria-label": t("race.invite.link_label") });
  el.rounds = h("ol", { class: "race-history", "data-testid": "race-rounds" });
  el.rules = h("ul", { class: "race-rules" });
  replace(root, h("div", { class: "page game-page race-page" },
    h("div", { class: "game-head" }, h("div", {}, el.title, h("p", { class: "sub" }, el.sub, el.conn)), el.howto),
    h("div", { class: "game-layout" },
      h("section", { class: "board-col", "aria-label": t("race.board") },
        el.status, el.bar, el.result, el.lobby, el.action, el.bids, el.verdict, el.board, el.info),
      h("aside", { class: "side-col" },
        h("section", { class: "panel players", "aria-labelledby": "race-players-title" },
          h("h2", { id: "race-players-title" }, t("race.players")), el.players),
        h("section", { class: "panel", "aria-labelledby": "race-share-title" },
          h("h2", { id: "race-share-title" }, t("race.invite.title")),
          h("p", { class: "muted small" }, t("race.invite.help")),
          h("div", { class: "link-row" }, el.link,
            h("button", { type: "button", class: "btn small", "data-testid": "race-link-copy", onclick: (e) => copyLink(el.link.value, el.link, e.currentTarget) },
              icon("copy"), t("race.invite.copy")))),
        h("section", { class: "panel", "aria-labelledby": "race-rounds-title" },
          h("h2", { id: "race-rounds-title" }, t("race.rounds.title")), el.rounds),
        h("details", { class: "panel race-rules-panel" },
          h("summary", {}, t("race.rules.title")), el.rules)))));
  el.link.value = raceUrl(page.id);
  return el;
}

/** The seats' names by seat number. */
export function nameOf(view, seat) {
  return view.players?.find((p) => p.seat === seat)?.name || t("race.player.default_name", { number: seat + 1 });
}

/** The moves the demonstration under way has used: the board module's count (a move may cost more than one: the
 * module's `score`), else the moves sent. */
export function movesUsed(page, view) {
  const demo = view.round?.demonstration;
  if (!demo) return 0;
  const figure = page.mod?.score?.(view.round.board, 1)?.[0]?.value;
  return Number.isInteger(figure) && figure >= demo.moves.length ? figure : demo.moves.length;
}

/**
 * The round's bids (`at_most` races) in the order they demonstrate: each player's last bid, the lowest first, equal
 * bids in the order they were made (the server's order; docs/server.md). Each: {seat, count, earlier: [counts
 * lowered from], order, demo (its judged demonstration, or the one under way), state: waiting, demonstrating, right,
 * wrong}.
 */
export function orderedBids(view) {
  const round = view.round;
  if (!round) return [];
  const last = new Map();
  (round.claims || []).forEach((claim, order) => {
    const before = last.get(claim.seat);
    last.set(claim.seat, { seat: claim.seat, count: claim.count, at: claim.at, order,
      earlier: before ? [...before.earlier, before.count] : [] });
  });
  const judged = new Map((round.demonstrations || []).map((d) => [d.seat, d]));
  const current = round.demonstration;
  return [...last.values()]
    .sort((a, b) => a.count - b.count || a.order - b.order)
    .map((bid) => {
      const demo = current && current.seat === bid.seat ? current : judged.get(bid.seat) || null;
      const state = demo?.verdict ? (demo.verdict.correct ? "right" : "wrong") : demo ? "demonstrating" : "waiting";
      return { ...bid, demo, state };
    });
}

/** The time left before the view's deadline, in seconds (the server's clock through `offset`), or null. */
export function timeLeft(view, offset) {
  const at = Date.parse(view?.deadline?.at || "");
  if (!Number.isFinite(at)) return null;
  return Math.max(0, (at - (Date.now() + offset)) / 1000);
}

export function renderTimer(page, view) {
  const el = page.el;
  const left = view.status === "playing" ? timeLeft(view, page.offset) : null;
  el.timer.hidden = left === null;
  if (left === null) return;
  const kind = view.deadline.kind;
  const what = kind === "demonstration" ? t("race.timer.to_demonstrate")
    : kind === "bids" ? t("race.timer.to_bid") : t("race.timer.left");
  el.timer.replaceChildren(icon("clock"), h("b", {}, clock(Math.ceil(left))), ` ${what}`);
  el.timer.dataset.seconds = String(Math.ceil(left));
  el.timer.dataset.kind = kind;
  el.timer.classList.toggle("low", left <= 15);
  const bidsLeft = el.bids.querySelector("[data-testid='bids-timer']");
  if (bidsLeft) {
    const open = kind === "bids";
    bidsLeft.textContent = open ? t("race.bids.closes_in", { time: clock(Math.ceil(left)) }) : "";
    bidsLeft.dataset.seconds = open ? String(Math.ceil(left)) : "";
  }
}

export function renderStatus(page, view) {
  const el = page.el;
  const me = page.seat;
  const round = view.round;
  const demo = round?.demonstration;
  let text = "";
  if (view.status === "lobby") {
    const n = (view.players || []).length;
    text = n < 2 ? t("race.status.waiting_players")
      : me === view.host ? t("race.status.lobby_host", { count: n })
        : t("race.status.lobby_guest", { count: n, host: nameOf(view, view.host) });
  } else if (view.status === "finished") {
    text = t("race.status.over");
  } else if (demo) {
    const bids = view.rules?.claim === "at_most";
    const left = demo.count - movesUsed(page, view);
    const played = demo.moves.length;
    if (bids) {
      text = demo.seat === me
        ? t("race.status.show_bid", { count: demo.count, left })
        : t("race.status.demonstrates_bid", { name: nameOf(view, demo.seat), count: demo.count, played });
    } else {
      text = demo.seat === me
        ? t("race.status.show_moves", { count: demo.count, left })
        : t("race.status.demonstrates_moves", { name: nameOf(view, demo.seat), count: demo.count, played });
    }
  } else if (view.phase === "bidding") {
    const best = orderedBids(view)[0];
    const mine = me === null ? null : orderedBids(view).find((b) => b.seat === me);
    const lowest = { name: nameOf(view, best.seat), count: best.count };
    text = !mine ? t("race.status.bids_open", lowest)
      : mine === best ? t("race.status.bids_open_yours_lowest", lowest)
        : t("race.status.bids_open_yours", { ...lowest, yours: mine.count });
  } else if (round) {
    text = me === null ? t("race.status.searching") : t("race.status.find_path");
  }
  el.statusText.textContent = text;
  el.status.dataset.phase = view.status === "playing" ? view.phase || "" : view.status;
  el.status.dataset.turn = demo && demo.seat === me ? "mine" : "other";
  el.round.textContent = round ? t("race.round", { number: round.number })
    : view.status === "lobby" ? t("race.lobby") : "";
  el.round.dataset.round = String(round?.number ?? 0);
  el.supply.replaceChildren(h("span", { class: "chip-dot", "aria-hidden": "true" }),
    t("race.supply", { count: view.supply, to_win: view.rules?.chips_to_win ?? "?" }));
  el.supply.dataset.supply = String(view.supply);
  document.title = t("race.document_title", { status: text || t("race.title"), title: titleWord(view.game, view.title) });
}

/** A row of chips for `count` (drawn up to the number needed to win, then a number). */
function chipRow(count, toWin) {
  const shown = Math.min(count, Math.max(toWin, 1));
  const chips = Array.from({ length: shown }, () => h("span", { class: "chip-dot" }));
  if (count > shown) chips.push(h("small", {}, `+${count - shown}`));
  return h("span", { class: "chip-row", "aria-hidden": "true" }, chips);
}

export function renderPlayers(page, view, moved = {}) {
  const el = page.el;
  const demo = view.round?.demonstration;
  const winners = new Set(view.result?.winners || []);
  const toWin = view.rules?.chips_to_win ?? 5;
  replace(el.players, (view.players || []).map((p) => {
    const change = moved[p.seat] || 0;
    const claimed = view.round?.claims?.filter((c) => c.seat === p.seat).at(-1);
    return h("li", {
      class: `player${demo?.seat === p.seat ? " to-move" : ""}${winners.has(p.seat) ? " winner" : ""}${change > 0 ? " gained" : change < 0 ? " lost" : ""}`,
      "data-testid": `race-player-${p.seat}`, "data-chips": String(p.chips),
    },
      h("span", { class: "swatch", style: { "--c": seatColour(p.seat % 8) } }),
      h("span", { class: "player-name" }, p.name,
        h("small", {}, [p.seat === page.seat ? t("race.player.you") : null, p.host ? t("race.player.host") : null]
          .filter(Boolean).join(" · ") || "\u00a0")),
      claimed && !demo ? h("span", { class: "badge", title: t("race.player.bid_title") },
        t("race.player.bid", { count: claimed.count })) : null,
      demo?.seat === p.seat ? h("span", { class: "badge", title: t("race.player.demonstrating_title") },
        t("race.player.claims", { count: demo.count })) : null,
      winners.has(p.seat) ? h("span", { class: "badge win" }, t("race.player.winner")) : null,
      change ? h("span", { class: `chip-change ${change > 0 ? "up" : "down"}`, "data-testid": `chip-change-${p.seat}` },
        change > 0 ? `+${change}` : `${change}`) : null,
      chipRow(p.chips, toWin),
      h("span", { class: "player-score", "data-testid": `chips-${p.seat}` },
        h("b", {}, String(p.chips)), h("small", {}, t("race.player.chips", { count: p.chips }))));
  }));
}

/** The last judgement: the current round's judged demonstrations (bids), else the last round played. */
export function lastJudgement(view) {
  const current = view.round?.demonstrations || [];
  if (current.length) return { round: view.round, demo: current.at(-1), result: null };
  const past = (view.rounds || []).at(-1);
  if (!past) return null;
  return { round: past, demo: (past.demonstrations || []).at(-1) || null, result: past.result };
}

export function renderVerdict(page, view) {
  const el = page.el;
  const found = lastJudgement(view);
  if (!found || view.status === "lobby") {
    el.verdict.hidden = true;
    return;
  }
  const { round, demo, result } = found;
  const lines = [];
  let tone = "neutral";
  if (demo?.verdict) {
    const who = nameOf(view, demo.seat);
    const v = demo.verdict;
    tone = v.correct ? "correct" : "wrong";
    const wrong = { name: who, count: demo.count, reason: said(v) };
    lines.push(h("strong", {}, v.correct ? t("race.verdict.scores", { name: who, reason: said(v) })
      : view.rules?.claim === "at_most" ? t("race.verdict.wrong_bid", wrong) : t("race.verdict.wrong_claim", wrong)));
    if (v.correct) {
      lines.push(h("span", { class: "chip-move" }, h("span", { class: "chip-dot" }),
        ` ${t("race.verdict.chip_from_supply", { name: who })}`));
    }
    else if (v.transfer) {
      lines.push(h("span", { class: "chip-move", "data-testid": "chip-transfer" }, h("span", { class: "chip-dot" }),
        ` ${t("race.verdict.chip_given", { from: nameOf(view, v.transfer.from), to: nameOf(view, v.transfer.to) })}`));
    } else if (view.rules?.wrong_claim === "none") {
      const next = view.round?.demonstration && !result ? nameOf(view, view.round.demonstration.seat) : null;
      lines.push(h("span", { class: "chip-move" }, next ? t("race.verdict.board_back", { name: next })
        : t("race.verdict.nothing_handed")));
    } else lines.push(h("span", { class: "chip-move" }, t("race.verdict.no_chip_to_give", { name: who })));
    if (demo.moves?.length) {
      lines.push(h("span", { class: "muted" }, t("race.verdict.path_shown", { moves: demo.moves.join(" ") })));
    }
  } else if (result?.outcome === "timeout") {
    lines.push(h("strong", {}, t("race.verdict.timeout", { round: round.number })));
  }
  if (result && Number.isInteger(result.optimum)) {
    lines.push(h("span", { class: "muted", "data-testid": "race-solution" },
      result.solution?.length
        ? t("race.verdict.shortest_solution",
          { round: round.number, count: result.optimum, solution: result.solution.join(" ") })
        : t("race.verdict.shortest", { round: round.number, count: result.optimum })));
  }
  el.verdict.dataset.tone = tone;
  el.verdict.dataset.round = String(round.number);
  el.verdict.dataset.correct = demo?.verdict ? String(!!demo.verdict.correct) : "";
  replace(el.verdict, lines);
  el.verdict.hidden = !lines.length;
}

/** The bids of the round (`at_most` races): who bid what (a lowered bid shows the ones before it), in the order they
 * demonstrate, each one's state; the time left to bid. */
export function renderBids(page, view) {
  const el = page.el;
  const bids = view.rules?.claim === "at_most" && view.status === "playing" ? orderedBids(view) : [];
  el.bids.hidden = !bids.length;
  if (!bids.length) {
    el.bids.replaceChildren();
    return;
  }
  const bidding = view.phase === "bidding";
  const states = {
    waiting: (k) => (bidding ? (k === 0 ? t("race.bids.shows_first") : "") : t("race.bids.waits")),
    demonstrating: () => t("race.bids.demonstrating"),
    right: () => t("race.bids.scored"),
    wrong: () => t("race.bids.failed"),
  };
  replace(el.bids,
    h("div", { class: "bids-head" },
      h("h2", {}, bidding ? t("race.bids.title") : t("race.bids.demonstrations_title")),
      h("span", { class: "bids-timer", "data-testid": "bids-timer" })),
    h("ol", { class: "bid-list", "data-testid": "bid-list" }, bids.map((b, k) => h("li", {
      class: `bid ${b.state}${b.seat === page.seat ? " mine" : ""}`, "data-testid": `bid-${b.seat}`,
      "data-count": String(b.count), "data-state": b.state, "data-rank": String(k + 1),
    },
      h("span", { class: "bid-rank", "aria-hidden": "true" }, String(k + 1)),
      h("span", { class: "swatch", style: { "--c": seatColour(b.seat % 8) } }),
      h("span", { class: "bid-name" }, nameOf(view, b.seat),
        b.seat === page.seat ? h("small", {}, ` ${t("race.bids.you")}`) : null),
      h("span", { class: "bid-count",
        title: b.earlier.length ? t("race.bids.lowered_from", { bids: b.earlier.join(", ") }) : null },
        b.earlier.map((c) => h("s", { class: "muted" }, String(c))), h("b", {}, String(b.count))),
      h("span", { class: "bid-state" }, states[b.state](k))))));
  renderTimer(page, view); // the countdown at once
}

export function renderRounds(page, view) {
  const rounds = [...(view.rounds || [])].reverse();
  replace(page.el.rounds, rounds.length ? rounds.map((r) => {
    const demo = (r.demonstrations || []).at(-1);
    const res = r.result || {};
    const claim = demo ? { name: nameOf(view, demo.seat), count: demo.count } : null;
    const what = res.outcome === "scored" && demo ? t("race.rounds.scored", claim)
      : res.outcome === "missed" && demo ? t("race.rounds.missed", claim)
        : res.outcome === "timeout" ? t("race.rounds.nobody_claimed") : res.outcome || "";
    return h("li", { "data-testid": `race-round-${r.number}`, "data-outcome": res.outcome || "" },
      h("span", { class: "ply" }, String(r.number)),
      h("span", {}, what),
      Number.isInteger(res.optimum)
        ? h("small", { class: "muted" }, t("race.rounds.best", { count: res.optimum })) : null);
  }) : h("li", { class: "muted small empty" }, t("race.rounds.none")));
}

export function renderRules(page, view) {
  const words = page.mod?.client?.race?.words || [];
  const r = view.rules || {};
  const extra = [t("race.rules.times", {
    round: clock(view.settings?.round_seconds ?? 0), demo: clock(view.settings?.demo_seconds ?? 0) })];
  if (r.claim === "at_most") {
    extra.push(t("race.rules.bidding_closes", { time: clock(view.settings?.bid_seconds ?? 0) }));
  }
  replace(page.el.rules, [...words, ...extra].map((w) => h("li", {}, w)));
  page.el.rules.dataset.claim = r.claim || "";
}

/** "A and B win", "(you!)" after it if `mine`. */
function winners(names, mine) {
  const params = { count: names.length, names: names.join(t("race.result.names_and")) };
  return mine ? t("race.result.winners_you", params) : t("race.result.winners", params);
}

export function renderResult(page, view) {
  const el = page.el;
  if (view.status !== "finished" || !view.result) {
    el.result.hidden = true;
    return;
  }
  const names = view.result.names || [];
  const mine = (view.result.winners || []).includes(page.seat);
  el.result.classList.toggle("won", mine);
  el.result.style.setProperty("--c", names.length ? "var(--success)" : "var(--muted)");
  el.result.dataset.winners = (view.result.winners || []).join(" ");
  replace(el.result,
    h("div", { class: "result-main" },
      h("span", { class: "result-medal", "aria-hidden": "true" }, names.length ? "★" : "="),
      h("div", {},
        h("strong", {}, names.length ? winners(names, mine) : t("race.result.no_winner")),
        h("span", {}, said(view.result).replace(/^./, (c) => c.toUpperCase())))),
    h("div", { class: "result-actions" },
      h("a", { class: "btn primary", href: `#/new/${encodeURIComponent(view.game)}` },
        icon("plus"), t("race.result.new_race"))));
  el.result.hidden = false;
}

/** The lobby: join with a name (no seat here yet), the host's Start. */
export function renderLobby(page, view) {
  const el = page.el;
  const joinable = page.seat === null && view.can_join && view.status !== "finished";
  const hosting = view.status === "lobby" && page.seat === view.host;
  el.lobby.hidden = !joinable && !hosting;
  if (el.lobby.hidden) return;
  if (joinable) {
    if (el.lobby.dataset.mode === "join") return; // keep what is being typed
    el.lobby.dataset.mode = "join";
    const name = h("input", { type: "text", id: "race-join-name", "data-testid": "race-join-name", maxlength: "24", placeholder: t("race.join.placeholder"), autocomplete: "nickname" });
    const form = h("form", { class: "race-form", novalidate: true },
      h("label", { for: "race-join-name" },
        view.status === "lobby" ? t("race.join.label") : t("race.join.label_under_way")),
      h("div", { class: "link-row" }, name,
        h("button", { type: "submit", class: "btn primary", "data-testid": "race-join" },
          icon("user"), t("race.join.submit"))));
    form.addEventListener("submit", (e) => { e.preventDefault(); page.join(name.value.trim()); });
    replace(el.lobby, h("h2", {}, t("race.join.title")), form, h("p", { class: "muted small" }, t("race.join.watch")));
    return;
  }
  el.lobby.dataset.mode = "host";
  const count = (view.players || []).length;
  replace(el.lobby,
    h("h2", {}, t("race.host.title")),
    h("p", { class: "muted" }, count < 2 ? t("race.host.need_players") : t("race.host.players_in", { count })),
    h("button", { type: "button", class: "btn primary big", "data-testid": "race-start", disabled: count < 2, onclick: () => page.start() },
      icon("play"), t("race.host.start")));
}

/** Under the board: the claim buttons while searching (or bidding), the demonstration bar while one is shown. */
export function renderAction(page, view) {
  const el = page.el;
  const round = view.round;
  const demo = round?.demonstration;
  const me = page.seat;
  if (view.status !== "playing" || !round || me === null) {
    delete el.action.dataset.key;
    replace(el.action);
    return;
  }
  if (demo) {
    delete el.action.dataset.key;
    const mine = demo.seat === me;
    const left = demo.count - movesUsed(page, view);
    const atMost = view.rules?.claim === "at_most";
    replace(el.action, h("div", { class: `demo-bar${mine ? " mine" : ""}`, "data-testid": "demo-bar" },
      h("span", {}, !mine ? t("race.demo.showing", { name: nameOf(view, demo.seat) })
        : atMost ? t("race.demo.play_path_at_most", { count: left }) : t("race.demo.play_path", { count: left })),
      h("span", { class: "demo-moves", "data-testid": "demo-moves" },
        Array.from({ length: demo.count }, (_, k) => h("span", { class: k < demo.moves.length ? "done" : null }, demo.moves[k] || "·"))),
      mine ? h("button", { type: "button", class: "btn small", "data-testid": "demo-giveup", onclick: () => page.giveUp() }, icon("flag"), t("race.demo.give_up")) : null));
    return;
  }
  const mine = (round.claims || []).filter((c) => c.seat === me).at(-1);
  const bidding = view.rules?.claim !== "exact";
  const limit = mine && bidding ? mine.count - 1 : 99;
  // the box stays as it is while what it offers does not change (others' bids arrive while one types)
  const key = `${round.number} ${mine?.count ?? "-"} ${limit} ${page.busy}`;
  const old = el.action.querySelector("[data-testid='claim-count']");
  if (el.action.dataset.key === key && old?.isConnected) return;
  el.action.dataset.key = key;
  const typed = old && old.value && Number(old.value) <= limit && document.activeElement === old ? old.value : "";
  const quick = Array.from({ length: Math.min(QUICK_CLAIMS, limit) }, (_, k) => h("button", {
    type: "button", class: "btn claim-btn", "data-testid": `claim-${k + 1}`, disabled: page.busy,
    onclick: () => page.claim(k + 1),
  }, String(k + 1)));
  const more = h("input", { type: "number", min: "1", max: String(limit), step: "1", "data-testid": "claim-count", "aria-label": t("race.claim.number_label"), placeholder: "10", value: typed || null });
  const form = h("form", { class: "claim-more", novalidate: true },
    h("span", { class: "muted" }, t("race.claim.or")), more,
    h("button", { type: "submit", class: "btn", "data-testid": "claim-submit", disabled: page.busy },
      t("race.claim.submit")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const n = Number(more.value);
    if (Number.isInteger(n) && n >= 1) page.claim(n);
  });
  const words = bidding ? (mine ? t("race.claim.bid_lower", { count: mine.count }) : t("race.claim.bid_at_most"))
    : t("race.claim.exactly");
  const lower = bidding && mine && limit >= 1 && limit > QUICK_CLAIMS
    ? h("button", { type: "button", class: "btn primary", "data-testid": "claim-lower", disabled: page.busy, onclick: () => page.claim(limit) },
      t("race.claim.lower_to", { count: limit }))
    : null;
  if (bidding && limit < 1) {
    replace(el.action, h("div", { class: "claim-box", "data-testid": "claim-box" },
      h("span", { class: "claim-label" }, t("race.claim.cannot_lower", { count: mine.count }))));
    return;
  }
  replace(el.action, h("div", { class: "claim-box", "data-testid": "claim-box" },
    h("span", { class: "claim-label" }, words),
    lower,
    h("div", { class: "claim-buttons", role: "group", "aria-label": t("race.claim.number_label") }, quick),
    form));
  if (typed) more.focus();
}
