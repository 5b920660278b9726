// The race page's elements and what fills them from a race's view (GET /api/races/<id>, the race WebSocket): the
// status line and the round's timer, the claim box or the demonstration bar, the judgement of the last claim and
// the chips it moved, the players with their chips, the supply, the lobby (join, start), the rounds so far and the
// end. Every word about the rules comes from the view and the game's client description; the page knows no game.

import { h, icon, replace } from "../../dom.js";
import { raceUrl } from "../../api.js";
import { seatColour } from "../../players.js";
import { copyLink } from "../game/controls.js";
import { clock } from "../game/puzzle.js";
import { howtoLink } from "../game/skeleton.js";

/** Claim buttons offered at once (more through the number box). */
const QUICK_CLAIMS = 9;

export function buildSkeleton(root, page) {
  const el = {};
  el.title = h("h1", {}, "Race");
  el.sub = h("span", { class: "sub-options", "data-testid": "game-options" });
  el.conn = h("span", { class: "conn", "data-state": "connecting" }, "connecting…");
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
  el.link = h("input", { class: "link-input", readonly: true, "data-testid": "race-link", "aria-label": "Link to this race" });
  el.rounds = h("ol", { class: "race-history", "data-testid": "race-rounds" });
  el.rules = h("ul", { class: "race-rules" });
  replace(root, h("div", { class: "page game-page race-page" },
    h("div", { class: "game-head" }, h("div", {}, el.title, h("p", { class: "sub" }, el.sub, el.conn)), el.howto),
    h("div", { class: "game-layout" },
      h("section", { class: "board-col", "aria-label": "Board" },
        el.status, el.bar, el.result, el.lobby, el.action, el.bids, el.verdict, el.board, el.info),
      h("aside", { class: "side-col" },
        h("section", { class: "panel players", "aria-labelledby": "race-players-title" },
          h("h2", { id: "race-players-title" }, "Players"), el.players),
        h("section", { class: "panel", "aria-labelledby": "race-share-title" },
          h("h2", { id: "race-share-title" }, "Invite"),
          h("p", { class: "muted small" }, "Send this link: anyone who opens it may join with a name, or watch."),
          h("div", { class: "link-row" }, el.link,
            h("button", { type: "button", class: "btn small", "data-testid": "race-link-copy", onclick: (e) => copyLink(el.link.value, el.link, e.currentTarget) },
              icon("copy"), "Copy"))),
        h("section", { class: "panel", "aria-labelledby": "race-rounds-title" },
          h("h2", { id: "race-rounds-title" }, "Rounds"), el.rounds),
        h("details", { class: "panel race-rules-panel" },
          h("summary", {}, "The rules"), el.rules)))));
  el.link.value = raceUrl(page.id);
  return el;
}

/** The seats' names by seat number. */
export function nameOf(view, seat) {
  return view.players?.find((p) => p.seat === seat)?.name || `player ${seat + 1}`;
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
  const what = kind === "demonstration" ? "to demonstrate" : kind === "bids" ? "to bid" : "left";
  el.timer.replaceChildren(icon("clock"), h("b", {}, clock(Math.ceil(left))), ` ${what}`);
  el.timer.dataset.seconds = String(Math.ceil(left));
  el.timer.dataset.kind = kind;
  el.timer.classList.toggle("low", left <= 15);
  const bidsLeft = el.bids.querySelector("[data-testid='bids-timer']");
  if (bidsLeft) {
    const open = kind === "bids";
    bidsLeft.textContent = open ? `bidding closes in ${clock(Math.ceil(left))}` : "";
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
    text = n < 2 ? "Waiting for players: send the link" : `${n} players in the room`
      + (me === view.host ? ": start when everyone is in" : `: ${nameOf(view, view.host)} starts the race`);
  } else if (view.status === "finished") {
    text = "The race is over";
  } else if (demo) {
    const bids = view.rules?.claim === "at_most";
    const left = demo.count - movesUsed(page, view);
    const played = demo.moves.length;
    if (bids) {
      text = demo.seat === me
        ? `Show your bid: the target in at most ${demo.count} move${demo.count === 1 ? "" : "s"} (${left} left)`
        : `${nameOf(view, demo.seat)} demonstrates a bid of ${demo.count} (${played} move${played === 1 ? "" : "s"} played)`;
    } else {
      text = demo.seat === me
        ? `Show your ${demo.count} move${demo.count === 1 ? "" : "s"}: ${left} to play`
        : `${nameOf(view, demo.seat)} demonstrates ${demo.count} move${demo.count === 1 ? "" : "s"} (${played} played)`;
    }
  } else if (view.phase === "bidding") {
    const best = orderedBids(view)[0];
    const mine = me === null ? null : orderedBids(view).find((b) => b.seat === me);
    text = `Bids are open: the lowest is ${nameOf(view, best.seat)}'s ${best.count}`
      + (mine ? (mine === best ? " (yours)" : `; yours is ${mine.count}`) : "");
  } else if (round) {
    text = me === null ? "Everyone searches the puzzle" : "Find a path, then claim its number of moves";
  }
  el.statusText.textContent = text;
  el.status.dataset.phase = view.status === "playing" ? view.phase || "" : view.status;
  el.status.dataset.turn = demo && demo.seat === me ? "mine" : "other";
  el.round.textContent = round ? `Round ${round.number}` : view.status === "lobby" ? "Lobby" : "";
  el.round.dataset.round = String(round?.number ?? 0);
  el.supply.replaceChildren(h("span", { class: "chip-dot", "aria-hidden": "true" }),
    `${view.supply} chip${view.supply === 1 ? "" : "s"} in the supply · ${view.rules?.chips_to_win ?? "?"} to win`);
  el.supply.dataset.supply = String(view.supply);
  document.title = `${text || "Race"} · ${view.title} · damier`;
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
        h("small", {}, [p.seat === page.seat ? "You" : null, p.host ? "host" : null].filter(Boolean).join(" · ") || "\u00a0")),
      claimed && !demo ? h("span", { class: "badge", title: "bid" }, `bid ${claimed.count}`) : null,
      demo?.seat === p.seat ? h("span", { class: "badge", title: "demonstrating" }, `claims ${demo.count}`) : null,
      winners.has(p.seat) ? h("span", { class: "badge win" }, "winner") : null,
      change ? h("span", { class: `chip-change ${change > 0 ? "up" : "down"}`, "data-testid": `chip-change-${p.seat}` },
        change > 0 ? `+${change}` : `${change}`) : null,
      chipRow(p.chips, toWin),
      h("span", { class: "player-score", "data-testid": `chips-${p.seat}` },
        h("b", {}, String(p.chips)), h("small", {}, p.chips === 1 ? "chip" : "chips")));
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
    const noun = view.rules?.claim === "at_most" ? "bid" : "claim";
    lines.push(h("strong", {}, v.correct ? `${who} scores: ${v.reason}` : `${who}'s ${noun} of ${demo.count} is wrong: ${v.reason}`));
    if (v.correct) lines.push(h("span", { class: "chip-move" }, h("span", { class: "chip-dot" }), ` a chip from the supply to ${who}`));
    else if (v.transfer) {
      lines.push(h("span", { class: "chip-move", "data-testid": "chip-transfer" }, h("span", { class: "chip-dot" }),
        ` ${nameOf(view, v.transfer.from)} gives a chip to ${nameOf(view, v.transfer.to)}`));
    } else if (view.rules?.wrong_claim === "none") {
      const next = view.round?.demonstration && !result ? nameOf(view, view.round.demonstration.seat) : null;
      lines.push(h("span", { class: "chip-move" }, next ? `The board goes back to the round's start; ${next}, the next lowest bid, shows theirs`
        : "Nothing is handed over; the round's chip stays in the supply"));
    } else lines.push(h("span", { class: "chip-move" }, `${who} has no chip to give; the round's chip goes back to the supply`));
    if (demo.moves?.length) lines.push(h("span", { class: "muted" }, `Path shown: ${demo.moves.join(" ")}`));
  } else if (result?.outcome === "timeout") {
    lines.push(h("strong", {}, `Nobody claimed round ${round.number} in time`));
  }
  if (result && Number.isInteger(result.optimum)) {
    lines.push(h("span", { class: "muted", "data-testid": "race-solution" },
      `Round ${round.number}: the shortest path takes ${result.optimum} move${result.optimum === 1 ? "" : "s"}`
      + (result.solution?.length ? ` (${result.solution.join(" ")})` : "")));
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
    waiting: (k) => (bidding ? (k === 0 ? "shows first" : "") : "waits"),
    demonstrating: () => "demonstrating", right: () => "✓ scored", wrong: () => "✗ failed",
  };
  replace(el.bids,
    h("div", { class: "bids-head" },
      h("h2", {}, bidding ? "Bids" : "Demonstrations, lowest bid first"),
      h("span", { class: "bids-timer", "data-testid": "bids-timer" })),
    h("ol", { class: "bid-list", "data-testid": "bid-list" }, bids.map((b, k) => h("li", {
      class: `bid ${b.state}${b.seat === page.seat ? " mine" : ""}`, "data-testid": `bid-${b.seat}`,
      "data-count": String(b.count), "data-state": b.state, "data-rank": String(k + 1),
    },
      h("span", { class: "bid-rank", "aria-hidden": "true" }, String(k + 1)),
      h("span", { class: "swatch", style: { "--c": seatColour(b.seat % 8) } }),
      h("span", { class: "bid-name" }, nameOf(view, b.seat), b.seat === page.seat ? h("small", {}, " (you)") : null),
      h("span", { class: "bid-count", title: b.earlier.length ? `lowered from ${b.earlier.join(", ")}` : null },
        b.earlier.map((c) => h("s", { class: "muted" }, String(c))), h("b", {}, String(b.count))),
      h("span", { class: "bid-state" }, states[b.state](k))))));
  renderTimer(page, view); // the countdown at once
}

export function renderRounds(page, view) {
  const rounds = [...(view.rounds || [])].reverse();
  replace(page.el.rounds, rounds.length ? rounds.map((r) => {
    const demo = (r.demonstrations || []).at(-1);
    const res = r.result || {};
    const what = res.outcome === "scored" && demo ? `${nameOf(view, demo.seat)} scored with ${demo.count}`
      : res.outcome === "missed" && demo ? `${nameOf(view, demo.seat)} missed (${demo.count})`
        : res.outcome === "timeout" ? "nobody claimed" : res.outcome || "";
    return h("li", { "data-testid": `race-round-${r.number}`, "data-outcome": res.outcome || "" },
      h("span", { class: "ply" }, String(r.number)),
      h("span", {}, what),
      Number.isInteger(res.optimum) ? h("small", { class: "muted" }, `best ${res.optimum}`) : null);
  }) : h("li", { class: "muted small empty" }, "No round played yet."));
}

export function renderRules(page, view) {
  const words = page.mod?.client?.race?.words || [];
  const r = view.rules || {};
  const extra = [`A round lasts ${clock(view.settings?.round_seconds ?? 0)}; a demonstration ${clock(view.settings?.demo_seconds ?? 0)}.`];
  if (r.claim === "at_most") extra.push(`Bidding closes ${clock(view.settings?.bid_seconds ?? 0)} after the first bid.`);
  replace(page.el.rules, [...words, ...extra].map((w) => h("li", {}, w)));
  page.el.rules.dataset.claim = r.claim || "";
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
        h("strong", {}, names.length ? `${names.join(" and ")} win${names.length === 1 ? "s" : ""}${mine ? " (you!)" : ""}` : "No winner"),
        h("span", {}, String(view.result.reason || "").replace(/^./, (c) => c.toUpperCase())))),
    h("div", { class: "result-actions" },
      h("a", { class: "btn primary", href: `#/new/${encodeURIComponent(view.game)}` }, icon("plus"), "A new race")));
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
    const name = h("input", { type: "text", id: "race-join-name", "data-testid": "race-join-name", maxlength: "24", placeholder: "your name", autocomplete: "nickname" });
    const form = h("form", { class: "race-form", novalidate: true },
      h("label", { for: "race-join-name" }, view.status === "lobby" ? "Join this race" : "Join the race under way"),
      h("div", { class: "link-row" }, name,
        h("button", { type: "submit", class: "btn primary", "data-testid": "race-join" }, icon("user"), "Join")));
    form.addEventListener("submit", (e) => { e.preventDefault(); page.join(name.value.trim()); });
    replace(el.lobby, h("h2", {}, "Play"), form, h("p", { class: "muted small" }, "Or just watch: the board and the claims show here live."));
    return;
  }
  el.lobby.dataset.mode = "host";
  const count = (view.players || []).length;
  replace(el.lobby,
    h("h2", {}, "You are the host"),
    h("p", { class: "muted" }, count < 2 ? "A race needs at least 2 players: send the link (Invite)." : `${count} players are in. Start when everyone has joined.`),
    h("button", { type: "button", class: "btn primary big", "data-testid": "race-start", disabled: count < 2, onclick: () => page.start() },
      icon("play"), "Start the race"));
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
    const upTo = view.rules?.claim === "at_most" ? "at most " : "";
    replace(el.action, h("div", { class: `demo-bar${mine ? " mine" : ""}`, "data-testid": "demo-bar" },
      h("span", {}, mine ? `Play your path on the board: ${upTo}${left} move${left === 1 ? "" : "s"} left` : `${nameOf(view, demo.seat)} is showing a path`),
      h("span", { class: "demo-moves", "data-testid": "demo-moves" },
        Array.from({ length: demo.count }, (_, k) => h("span", { class: k < demo.moves.length ? "done" : null }, demo.moves[k] || "·"))),
      mine ? h("button", { type: "button", class: "btn small", "data-testid": "demo-giveup", onclick: () => page.giveUp() }, icon("flag"), "Give up") : null));
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
  const more = h("input", { type: "number", min: "1", max: String(limit), step: "1", "data-testid": "claim-count", "aria-label": "Number of moves", placeholder: "10", value: typed || null });
  const form = h("form", { class: "claim-more", novalidate: true },
    h("span", { class: "muted" }, "or"), more,
    h("button", { type: "submit", class: "btn", "data-testid": "claim-submit", disabled: page.busy }, "Claim"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const n = Number(more.value);
    if (Number.isInteger(n) && n >= 1) page.claim(n);
  });
  const words = bidding ? (mine ? `Your bid is ${mine.count}; bid lower:` : "Bid: I can reach the target in at most")
    : "Claim: I can reach the target in exactly";
  const lower = bidding && mine && limit >= 1 && limit > QUICK_CLAIMS
    ? h("button", { type: "button", class: "btn primary", "data-testid": "claim-lower", disabled: page.busy, onclick: () => page.claim(limit) },
      `Lower to ${limit}`)
    : null;
  if (bidding && limit < 1) {
    replace(el.action, h("div", { class: "claim-box", "data-testid": "claim-box" },
      h("span", { class: "claim-label" }, `Your bid is ${mine.count}: it cannot go lower. Wait for the demonstrations.`)));
    return;
  }
  replace(el.action, h("div", { class: "claim-box", "data-testid": "claim-box" },
    h("span", { class: "claim-label" }, words),
    lower,
    h("div", { class: "claim-buttons", role: "group", "aria-label": "Number of moves" }, quick),
    form));
  if (typed) more.focus();
}
