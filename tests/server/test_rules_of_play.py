"""The rooms' rules of play as plain functions (issue 37: rooms as functional cores): a game room's commands
(``rooms.game.rules``) and a race's (``rooms.race.rules``), tried on rooms and logs made in memory, with no server,
no storage, no lock and no clock; the room they read is left as it was."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.core import registry
from damier.core.game import Termination
from damier.core.record import now_iso
from damier.server.rooms.errors import Conflict, Invalid
from damier.server.rooms.game import clocks
from damier.server.rooms.game import rules as game_rules
from damier.server.rooms.game.room import GameRoom
from damier.server.rooms.race import rules as race_rules
from damier.server.rooms.race.log import RaceLog, Settings
from damier.server.storage import GameRow, SeatRow


def room_of(game_name: str, moves: list[str], kinds: list[str], **options: Any) -> GameRoom:
    """A game room in memory: ``moves`` played from the start by the seats of ``kinds`` (``human``, ``computer``)."""
    game = damier.load(game_name, **options)
    state = game.new_state()
    played = []
    for text in moves:
        played.append((text, state.player))
        state.play(state.parse_move(text))
    now = now_iso()
    row = GameRow(id="g", game=game.name, options=dict(game.options), seed=None, start=None, status="active",
                  result=None, draw_offer=None, undo_request=[], rematch=None, created_at=now, updated_at=now,
                  seats=[SeatRow(i, kind, "easy" if kind == "computer" else None) for i, kind in enumerate(kinds)],
                  moves=played)
    return GameRoom(row, game, state)


def random_line(game_name: str, plies: int, seed: int, **options: Any) -> list[str]:
    state = damier.load(game_name, **options).new_state()
    rng = random.Random(seed)
    line = []
    while len(line) < plies and not state.is_over():
        move = rng.choice(state.legal_moves())
        line.append(state.move_to_str(move))
        state.play(move)
    return line


def unchanged(room: GameRoom) -> tuple[Any, ...]:
    return (copy.deepcopy(room.row), room.state.position(), len(room.state.history))


# ----- a game room --------------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(plies=st.integers(0, 12), seed=st.integers(0, 10_000), asker=st.integers(0, 2))
def test_a_takeback_keeps_the_position_before_the_askers_last_move(plies: int, seed: int, asker: int) -> None:
    room = room_of("atoms", random_line("atoms", plies, seed, players=3), ["human"] * 3, players=3)
    # naive: the last ply the asker played, counted from the start (plies before it are kept)
    naive = max((ply for ply, (_, player) in enumerate(room.row.moves) if player == asker), default=None)
    assert game_rules.undo_target(room, asker) == naive
    before = unchanged(room)
    if naive is None:
        with pytest.raises(Conflict, match="no move to undo"):
            game_rules.undo(room, asker)
    else:  # between people a takeback is asked first, and happens once every other person agreed
        asked = game_rules.undo(room, asker)
        assert asked.fields == {"undo_request": [asker]} and asked.keep is None
        room.row.undo_request = [asker]
        others = [seat for seat in range(3) if seat != asker]
        assert game_rules.undo(room, others[0]).fields == {"undo_request": [asker, others[0]]}
        room.row.undo_request = [asker, others[0]]
        assert game_rules.undo(room, others[1]).keep == naive
        room.row.undo_request = []
    assert unchanged(room) == before  # the rules decide; the room is not touched


def test_against_the_computer_a_takeback_is_at_once_and_a_reset_takes_back_everything() -> None:
    room = room_of("atoms", ["A1", "C3", "A2", "C2"], ["human", "computer"], rows=3, cols=3)
    assert game_rules.undo(room, 0).keep == 2  # the person's last move and the computer's reply
    assert game_rules.undo(room, 0, everything=True).keep == 0
    people = room_of("atoms", ["A1", "C3"], ["human", "human"], rows=3, cols=3)
    with pytest.raises(Conflict, match="one human seat"):
        game_rules.undo(people, 0, everything=True)
    with pytest.raises(Conflict, match="there is no takeback request to decline"):
        game_rules.decline_undo(people, 1)
    people.row.undo_request = [0]
    with pytest.raises(Conflict, match="you asked for this takeback yourself"):
        game_rules.decline_undo(people, 0)
    assert game_rules.decline_undo(people, 1).fields == {"undo_request": []}


def test_a_move_is_checked_against_the_turn_the_version_and_the_rules() -> None:
    room = room_of("atoms", ["A1"], ["human", "human"], rows=3, cols=3)
    before = unchanged(room)
    with pytest.raises(Conflict, match="it is not your turn: Blue is to move"):
        game_rules.move(room, 0, "B1", None)
    with pytest.raises(Conflict, match="the game has moved on"):
        game_rules.move(room, 1, "B1", 0)
    with pytest.raises(Invalid):
        game_rules.move(room, 1, "A1", 1)  # Blue may not play on Red's atoms
    change = game_rules.move(room, 1, "B1", 1)
    assert change.play == ((room.state.parse_move("B1"), 1),) and change.outcome is None
    assert unchanged(room) == before
    room.row.status = "finished"
    room.row.result = {"reason": "Blue resigned"}
    with pytest.raises(Conflict, match=r"the game is over \(Blue resigned\)"):
        game_rules.move(room, 1, "B1", 1)


def test_abort_before_every_seat_moved_then_claims_once_the_others_left_long_enough() -> None:
    fresh = room_of("atoms", ["A1"], ["human", "human"], rows=3, cols=3)
    aborted = game_rules.abort(fresh, 1)
    assert aborted.outcome is not None and aborted.outcome.termination is Termination.ABORTED
    with pytest.raises(Conflict, match="abort the game instead"):
        game_rules.claim(fresh, 0, False, {1: 10_000.0})
    both = room_of("atoms", ["A1", "C3"], ["human", "human"], rows=3, cols=3)
    with pytest.raises(Conflict, match="aborted only until every player has made a first move"):
        game_rules.abort(both, 0)
    wait = clocks.leave_seconds(both.row.clock)
    with pytest.raises(Conflict, match="Blue is still here"):
        game_rules.claim(both, 0, False, {})
    with pytest.raises(Conflict, match=f"once they have been gone {wait:.0f} s"):
        game_rules.claim(both, 0, False, {1: wait - 1})
    won = game_rules.claim(both, 0, False, {1: wait})
    assert won.outcome is not None and won.outcome.winner == 0
    assert won.outcome.termination is Termination.ABANDONMENT
    drawn = game_rules.claim(both, 0, True, {1: wait})
    assert drawn.outcome is not None and drawn.outcome.winner is None


def test_draws_offered_accepted_declined_and_the_computers_answer() -> None:
    line = random_line("khet", 1, 3)
    people = room_of("khet", line, ["human", "human"])
    assert game_rules.draw(people, 0, "offer").fields == {"draw_offer": 0}
    with pytest.raises(Conflict, match="no draw offer from another seat"):
        game_rules.draw(people, 1, "accept")
    people.row.draw_offer = 0
    with pytest.raises(Conflict, match="no draw offer from another seat"):
        game_rules.draw(people, 0, "accept")
    agreed = game_rules.draw(people, 1, "accept")
    assert agreed.outcome is not None and agreed.outcome.termination is Termination.AGREEMENT
    assert game_rules.draw(people, 1, "decline").fields == {"draw_offer": None}
    with pytest.raises(Invalid, match="action must be"):
        game_rules.draw(people, 1, "maybe")
    computer = room_of("khet", line, ["human", "computer"])
    assert game_rules.asks_computers(computer, 0, "offer") and not game_rules.asks_computers(people, 0, "offer")
    with pytest.raises(ValueError, match="needs their answer"):
        game_rules.draw(computer, 0, "offer")
    assert game_rules.draw(computer, 0, "offer", computers_agree=False).empty
    accepted = game_rules.draw(computer, 0, "offer", computers_agree=True).outcome
    assert accepted is not None and accepted.termination is Termination.AGREEMENT
    for no_draws in (room_of("micro", [], ["human"]), room_of("atoms", ["A1"], ["human", "human"], rows=3, cols=3)):
        with pytest.raises(Conflict, match="has no draws"):
            game_rules.draw(no_draws, 0, "offer")


def test_a_rematch_shifts_the_seats_and_keeps_or_draws_the_board() -> None:
    room = room_of("atoms", ["A1"], ["human", "computer"], rows=3, cols=3)
    with pytest.raises(Conflict, match="once the game is over"):
        game_rules.rematch_board(room, "same")
    room.row.status = "finished"
    assert game_rules.rematch_seats(room) == [{"kind": "computer", "level": "easy"}, {"kind": "human", "level": None}]
    assert game_rules.rematch_board(room, "same") == (None, None)
    with pytest.raises(Invalid, match="has no seeded setup"):
        game_rules.rematch_board(room, "new")
    with pytest.raises(Invalid, match="board must be 'same' or 'new'"):
        game_rules.rematch_board(room, "other")


# ----- a race -------------------------------------------------------------------------------------------------
def draft(claim: str = "exact", players: int = 3, now: float = 1000.0) -> race_rules.Draft:
    """A race of Micro Robots under way in its first round, ``players`` joined, made of events alone."""
    game = damier.load("micro")
    race = registry.info("micro").hook("race")
    rules = replace(race.rules(game), claim=claim)
    chosen = Settings.read({}, rules)
    log = RaceLog(game, rules, chosen)
    first = race.first_round(game, 7)
    d = race_rules.Draft(log, chosen, rules, now)
    for name in ["Ann", "Bob", "Cy"][:players]:
        race_rules.join(d, name)
    race_rules.start(d, 0)
    race_rules.next_round(d, 1, first)
    return d


def test_joining_and_starting_a_race() -> None:
    d = draft(now=5.0)
    with pytest.raises(Conflict, match="taken in this race"):
        race_rules.join(d, "ann")
    lobby = race_rules.Draft(RaceLog(d.log.game, d.rules, d.settings), d.settings, d.rules, 5.0)
    race_rules.join(lobby, "Ann")
    with pytest.raises(Conflict, match="at least 2 players"):
        race_rules.start(lobby, 0)
    assert race_rules.join(lobby, "Bob") == 1
    with pytest.raises(Conflict, match="only the host"):
        race_rules.start(lobby, 1)
    race_rules.start(lobby, 0)
    assert [step.kind for step in lobby.steps] == ["join", "join", "start"]
    assert [step.seq for step in lobby.steps] == [1, 2, 3] and lobby.log.status == "playing"


def test_an_exact_claim_demonstrates_at_once_and_its_moves_are_judged() -> None:
    d = draft()
    done = len(d.steps)
    race_rules.claim(d, 1, 3, 1)
    assert [(s.kind, s.seat) for s in d.steps[done:]] == [("claim", 1), ("demo", 1)]
    assert d.steps[-1].data["deadline"] == d.now + d.settings.demo_seconds
    with pytest.raises(Conflict, match="Bob is demonstrating a claim of 3"):
        race_rules.claim(d, 2, 2, 1)
    with pytest.raises(Conflict, match="round 2 is over: this is round 1"):
        race_rules.claim(d, 2, 2, 2)
    with pytest.raises(Conflict, match="Bob is demonstrating, not you"):
        race_rules.read_moves(d.log, d.log.game, 2, ["a1"], 1)
    with pytest.raises(Invalid, match="you claimed 3 moves and 3 remain; 4 were sent"):
        race_rules.read_moves(d.log, d.log.game, 1, ["a1"] * 4, 1)
    with pytest.raises(Invalid, match="is not a move of Micro Robots"):
        race_rules.read_moves(d.log, d.log.game, 1, ["nonsense!"], 1)
    # giving up is a wrong claim: no chip to hand over yet, and an exact race's round is to close
    assert race_rules.play_moves(d, 1, [], "gave up") == "missed"
    assert d.steps[-1].kind == "verdict" and d.steps[-1].data["correct"] is False
    assert d.steps[-1].data["transfer"] is None


def test_bids_go_lower_and_the_lowest_demonstrates_when_bidding_closes() -> None:
    d = draft(claim="at_most")
    race_rules.claim(d, 1, 9, 1)
    assert d.steps[-1].data == {"count": 9, "bid_deadline": d.now + d.settings.bid_seconds}
    with pytest.raises(Conflict, match="your bid is 9; a new bid must be lower"):
        race_rules.claim(d, 1, 9, 1)
    race_rules.claim(d, 2, 7, 1)
    race_rules.claim(d, 1, 6, 1)
    assert "bid_deadline" not in d.steps[-1].data
    assert race_rules.expire(d) is None and not race_rules.due(d)  # nothing ran out yet
    late = race_rules.Draft(d.log, d.settings, d.rules, d.now + d.settings.bid_seconds + 1)
    assert race_rules.due(late) and race_rules.expire(late) is None
    assert (late.steps[-1].kind, late.steps[-1].seat, late.steps[-1].data["count"]) == ("demo", 1, 6)
    # the lowest bidder's demonstration runs out: wrong, and the next bidder demonstrates
    later = race_rules.Draft(late.log, d.settings, d.rules, late.now + d.settings.demo_seconds + 1)
    assert race_rules.expire(later) is None
    assert [(s.kind, s.seat) for s in later.steps] == [("verdict", 1), ("demo", 2)]
    with pytest.raises(Conflict, match="only the player demonstrating a claim can give it up"):
        race_rules.demonstrator(later.log, 1, None, giving_up=True)


def test_a_wrong_claim_hands_a_chip_to_the_player_with_the_fewest() -> None:
    d = draft()
    for player in d.log.players:
        player.chips = 0
    d.log.players[1].chips = 2
    race_rules.claim(d, 1, 3, 1)
    assert race_rules.verdict(d, {"correct": False, "reason": "wrong", "cost": None}) == "missed"
    assert d.steps[-1].data["transfer"] == {"from": 1, "to": 2}  # the first with the fewest after the claimant
    assert [p.chips for p in d.log.players] == [0, 1, 1]
    assert race_rules.close(d, "missed", None, None) is True  # the race goes on: a next round is to be drawn
