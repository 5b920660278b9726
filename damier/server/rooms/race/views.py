"""What a race room shows: everything a client draws (players and chips, the supply, the puzzle as it stands,
the claims, the demonstration so far, the deadlines, past rounds, the result), so the client only draws."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from damier.server.rooms.race.log import Demonstration, Round, iso

if TYPE_CHECKING:
    from damier.server.rooms.race.room import RaceRoom


def view(room: RaceRoom, you: int | None = None) -> dict[str, Any]:
    """The race as a client draws it; ``you`` is the asker's seat (None: a watcher, or unknown)."""
    log = room.log
    row = room.row
    deadline = log.deadline()
    current = log.current
    return {
        "id": room.id,
        "kind": "race",
        "game": room.game.name,
        "title": room.game.title,
        "options": dict(room.game.options),
        "settings": room.settings.to_json(),
        "rules": {"claim": room.rules.claim, "wrong_claim": room.rules.wrong_claim,
                  "chips_total": room.settings.chips_total, "chips_to_win": room.settings.chips_to_win},
        "status": log.status,
        "host": 0,
        "you": you,
        "players": [{"seat": p.seat, "name": p.name, "chips": p.chips, "host": p.seat == 0} for p in log.players],
        "can_join": log.status != "finished" and len(log.players) < room.settings.max_players,
        "supply": log.supply,
        "idle_rounds": log.idle,
        "version": log.version,
        "phase": log.phase(),
        "deadline": None if deadline is None else {"kind": deadline[0], "at": iso(deadline[1])},
        "round": None if current is None else round_view(room, current),
        "rounds": [past_round(r) for r in log.rounds if r.closed],
        "result": _result(room),
        "now": iso(room.clock()),
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }


def round_view(room: RaceRoom, now: Round) -> dict[str, Any]:
    """The round being played, with the puzzle as it stands (the demonstration's position during one)."""
    demo = now.demonstration
    state = demo.state if demo is not None and demo.state is not None else now.first
    assert state is not None
    return {
        "number": now.number,
        "position": now.position,
        "start": now.start,
        "started_at": iso(now.started_at),
        "deadline": iso(now.deadline),
        "bid_deadline": None if now.bid_deadline is None else iso(now.bid_deadline),
        "board": state.board_json(previews=demo is not None),
        "events": state.events() if demo is not None and demo.moves else [],
        "claims": [{"seat": c.seat, "count": c.count, "at": iso(c.at)} for c in now.claims],
        "demonstration": None if demo is None else demonstration(demo),
        "demonstrations": [demonstration(d) for d in now.demos if d.verdict is not None],
    }


def demonstration(demo: Demonstration) -> dict[str, Any]:
    return {"seat": demo.seat, "count": demo.count, "moves": list(demo.moves), "started_at": iso(demo.started_at),
            "deadline": iso(demo.deadline), "verdict": demo.verdict,
            "ended_at": None if demo.ended_at is None else iso(demo.ended_at)}


def past_round(past: Round) -> dict[str, Any]:
    """A round that is over: its puzzle, claims, demonstrations and result (no board: the client asks for none)."""
    return {
        "number": past.number,
        "position": past.position,
        "start": past.start,
        "started_at": iso(past.started_at),
        "ended_at": None if past.ended_at is None else iso(past.ended_at),
        "claims": [{"seat": c.seat, "count": c.count, "at": iso(c.at)} for c in past.claims],
        "demonstrations": [demonstration(d) for d in past.demos],
        "result": past.result,
    }


def _result(room: RaceRoom) -> dict[str, Any] | None:
    result = room.log.result
    if result is None:
        return None
    return {**result, "names": [room.log.name(s) for s in result["winners"]]}
