"""What a game room shows: the view a client draws, the replay frames of every position, and the record
export (with the stored result, so a resigned or agreed game's record says how it ended)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from damier.core.game import CHANCE, TERMINAL, Game, Outcome, Termination
from damier.core.record import Record, now_iso
from damier.server.rooms.game import clocks, rules

if TYPE_CHECKING:
    from damier.server.rooms.game.room import GameRoom


def view(room: GameRoom, you: int | None = None, *, spectator: bool = False) -> dict[str, Any]:
    """The game as a client draws it; ``you`` is the seat of the asker (None: unknown). The board carries what
    only a player about to move needs (Khet's laser previews) only while a person is to move, and not for a
    ``spectator`` (an asker known to hold no seat): the WebSocket's watchers are anonymous, so what they
    receive has them whenever a person is to move."""
    state = room.state
    row = room.row
    active = room.active
    player = state.player if active else TERMINAL
    previews = not spectator and player >= 0 and row.seats[player].kind == "human"
    return {
        "id": row.id,
        "game": room.game.name,
        "title": room.game.title,
        "options": dict(room.game.options),
        "status": row.status,
        "seats": seats(room),
        "start": row.start,
        # the seed the usual start was drawn from (a game with a seeded setup): the board to share or play again
        "seed": row.seed if room.game.info.seeded_setup else None,
        "start_position": room.start_position(),
        "you": you,
        "player": player,
        "version": room.version,
        "legal_moves": [state.move_to_str(m) for m in state.legal_moves()] if active and player >= 0 else [],
        "moves": [{"ply": i + 1, "move": m, "player": p, "mark": mark}
                  for i, ((m, p), mark) in enumerate(zip(row.moves, room.move_marks(), strict=True))],
        "events": turn_events(room),
        "board": state.board_json(previews=previews),
        "premove": premove(room, player, spectator),
        "position": state.position(),
        # the seats out of the game (``State.eliminated``: they move no more), shown out beside the board
        "out": state.eliminated(),
        "result": row.result,
        "has_draws": room.game.has_draws,
        "draw_offer": row.draw_offer,
        "undo_request": list(row.undo_request),
        "can_undo": active and bool(state.history) and rules.undo_target(room) is not None,
        # a takeback asked: how many moves the game keeps if the others accept (the position before the asker's
        # last move); null when none is asked
        "undo_keep": rules.undo_target(room, row.undo_request[0]) if active and row.undo_request else None,
        # the game may still be aborted (some seat has not made its first move): nobody wins, it does not count
        "abortable": room.abortable,
        "rematch": row.rematch,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "finished_at": row.finished_at,
        "seconds": seconds_taken(row.created_at, row.finished_at),
        "hints": row.hints,
        "hints_allowed": room.hints_allowed(),  # a hint may be asked (refused with 403 otherwise)
        "hints_on": row.hints_on,  # a casual game between people created with hints on
        "solution": solution(room) if not active else None,
        "clock": clocks.view(room, room.now()),
        "now": now_iso(),
    }


def premove(room: GameRoom, player: int, spectator: bool) -> dict[str, Any] | None:
    """For a game whose rules offer premoves (the ``premoves`` feature), while a person waits for the other seat
    to move: that person's moves as if it were their turn (``legal_moves``), with the board that describes them.
    A premove chosen from these is sent when the turn comes, and the server judges it then, like any move."""
    info = room.game.info
    if spectator or player < 0 or room.game.num_players != 2 or not info.has("premoves"):
        return None
    waiting = 1 - player
    if room.row.seats[waiting].kind != "human":
        return None
    ahead = info.hook("premoves")(room.state)
    return {
        "player": waiting,
        "legal_moves": [ahead.move_to_str(m) for m in ahead.legal_moves()],
        "board": ahead.board_json(previews=True),
    }


def turn_events(room: GameRoom) -> list[dict[str, Any]]:
    """The events of the last move, and when it was a chance event, of the player's move it followed and of every
    chance event between: the moves stored together (a move and the chance events after it) are drawn together.

    >>> from types import SimpleNamespace
    >>> import damier
    >>> state = damier.load("atoms").new_state()
    >>> state.play(state.parse_move("B2"))
    >>> [e["type"] for e in turn_events(SimpleNamespace(state=state, row=SimpleNamespace(moves=[("B2", 0)])))]
    ['place']
    """
    state, moves = room.state, room.row.moves
    chance = 0
    while chance < len(moves) - 1 and moves[-1 - chance][1] == CHANCE:
        chance += 1
    if not chance:
        return state.events()
    scratch = state.copy()
    turns = []
    for _ in range(chance + 1):
        turns.append(scratch.events())
        scratch.undo()
    return [event for events in reversed(turns) for event in events]


def solution(room: GameRoom) -> list[str] | None:
    """A finished puzzle's optimal line from its start, once searched in the worker pool (``turns.solve``; None
    for other games, until it is found, or when the solver finds nothing within its bound)."""
    return room.solution or None


def seconds_taken(created_at: str, finished_at: str | None) -> int | None:
    """Whole seconds from a game's creation to its end (a puzzle's time), None while it goes on."""
    if finished_at is None:
        return None
    try:
        return max(0, round((datetime.fromisoformat(finished_at) - datetime.fromisoformat(created_at)).total_seconds()))
    except ValueError:
        return None


def seats(room: GameRoom) -> list[dict[str, Any]]:
    names = room.game.player_names
    return [{"index": s.index, "name": names[s.index], "kind": s.kind, "level": s.level,
             "thinking": room.thinking == s.index} for s in room.row.seats]


def stored_outcome(room: GameRoom) -> Outcome | None:
    """The stored result as an ``Outcome``. A result stored before results had a termination code, of a game
    its moves did not end, was a resignation or an agreed draw: it gets that code, so its record replays."""
    if room.row.result is None:
        return None
    outcome = Outcome.from_json(room.row.result)
    if outcome.termination is Termination.UNKNOWN and not room.state.is_over():
        agreed = outcome.winner is None and not any(outcome.returns)
        code = Termination.AGREEMENT if agreed else Termination.RESIGNATION
        outcome = Outcome(outcome.winner, outcome.returns, outcome.reason, code)
    return outcome


def record(room: GameRoom) -> dict[str, Any]:
    """The game record (JSON), with the room's result when it ended outside the rules."""
    players = [f"{room.game.player_names[s.index]} ({s.level or 'human'})" for s in room.row.seats]
    obj = Record.from_state(room.state, players=players, started_at=room.row.created_at,
                            result=stored_outcome(room)).to_json()
    control = time_control(room)
    if control is not None:
        obj["time_control"] = control  # beside the record's fields (an import reads past it)
    return obj


def time_control(room: GameRoom) -> dict[str, Any] | None:
    """The game's time control, ``{"minutes", "increment"}``, None without clocks."""
    clock = room.row.clock
    return {"minutes": clock["minutes"], "increment": clock["increment"]} if clock else None


#: frames a replay page holds by default, and at most
REPLAY_PAGE = 100
MAX_REPLAY_PAGE = 500


def replay_frames(room: GameRoom, first: int = 0, count: int = REPLAY_PAGE) -> dict[str, Any]:
    """A page of the game's positions: the frames ``first`` to ``first + count - 1`` (frame 0 is the start,
    frame N the position after move N) and ``total``, how many there are. Slow for long games (the moves before
    the page are played too): call it off the event loop (the arcade has ``rendering.replay_page`` do it in another
    process, from ``replay_page``'s words of the game)."""
    page = replay_page(room, first)
    return {**page, "frames": frames(room.game, room.job_start(), room.row.seed, list(room.row.moves), page["from"],
                                     count)}


def replay_page(room: GameRoom, first: int) -> dict[str, Any]:
    """What a replay's page says of the game (all but its frames), from ``first``."""
    total = len(room.row.moves) + 1
    return {"id": room.id, "game": room.game.name, "title": room.game.title, "options": dict(room.game.options),
            "start": room.row.start, "start_position": room.start_position(), "seats": seats(room),
            "result": room.row.result, "time_control": time_control(room), "total": total,
            "from": max(0, min(first, total))}


def frames(game: Game, start: str | None, seed: int | None, moves: list[tuple[str, int]], first: int,
           count: int) -> list[dict[str, Any]]:
    """The frames ``first`` to ``first + count - 1`` of a game of ``game`` from ``start`` (or its usual start drawn
    from ``seed``) with ``moves`` ((notation, player) by ply). No laser previews (or the like) in the frames:
    nobody moves in a replay, and they would be most of every frame."""
    total = len(moves) + 1
    last = min(total, first + max(0, min(count, MAX_REPLAY_PAGE)))
    state = game.start_state(start, seed)
    out: list[dict[str, Any]] = []
    if first == 0 and last > 0:
        out.append({"ply": 0, "move": None, "player": None, "board": state.board_json(previews=False),
                    "events": []})
    for ply, (text, player) in enumerate(moves[:max(0, last - 1)], start=1):
        state.play(state.parse_move(text))
        if ply >= first:
            out.append({"ply": ply, "move": text, "player": player, "board": state.board_json(previews=False),
                        "events": state.events()})
    return out
