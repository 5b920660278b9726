"""Exploding Atoms: one test per rule of ``shared/rules/atoms.md``, plus property tests against a naive reference.

The reference below is plain Python written from the rules file alone (its own neighbours, capacities and
position parser), so the numba kernel is checked against an independent reading of the rules.
"""

from __future__ import annotations

import multiprocessing
import random
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import damier
from damier.games.atoms import PRESETS

LETTERS = "rbgypocw"


# ----- a naive reference, from the rules file -----------------------------------------------------------
@dataclass
class Board:
    """A position as the rules describe it: counts and owners (None = empty) row by row from A1."""

    rows: int
    cols: int
    counts: list[int]
    owners: list[int | None]
    to_move: int | None  # None once the game is over
    moved: set[int]
    ply: int

    def neighbours(self, sq: int) -> list[int]:
        r, c = divmod(sq, self.cols)
        steps = ((-1, 0), (0, 1), (1, 0), (0, -1))
        return [
            (r + dr) * self.cols + c + dc for dr, dc in steps if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols
        ]

    def capacity(self, sq: int) -> int:
        return len(self.neighbours(sq))

    def owns(self, player: int) -> bool:
        return player in self.owners

    def total(self) -> int:
        return sum(self.counts)

    def grid(self) -> tuple[tuple[int, int | None], ...]:
        return tuple(zip(self.counts, self.owners, strict=True))


def board_of(state: damier.State) -> Board:
    """Read ``state.position()`` ("2r,./... r rb 5") with a parser of our own."""
    rows, cols = state.game.board_shape
    cells_text, side, moved, ply = state.position().split()
    counts: list[int] = []
    owners: list[int | None] = []
    for row in cells_text.split("/"):
        for cell in row.split(","):
            counts.append(0 if cell == "." else int(cell[:-1]))
            owners.append(None if cell == "." else LETTERS.index(cell[-1]))
    assert len(counts) == rows * cols
    to_move = None if side == "-" else LETTERS.index(side)
    return Board(rows, cols, counts, owners, to_move, {LETTERS.index(x) for x in moved if x != "-"}, int(ply))


def name(board: Board, sq: int) -> str:
    return f"{chr(ord('A') + sq % board.cols)}{sq // board.cols + 1}"


def _explode(board: Board, sq: int, mover: int) -> None:
    board.counts[sq] -= board.capacity(sq)
    if board.counts[sq] == 0:
        board.owners[sq] = None
    for t in board.neighbours(sq):
        board.counts[t] += 1
        board.owners[t] = mover


def _place(board: Board, move: int) -> tuple[Board, int]:
    assert board.to_move is not None
    mover = board.to_move
    after = Board(
        board.rows, board.cols, list(board.counts), list(board.owners), mover, board.moved | {mover}, board.ply
    )
    after.counts[move] += 1
    after.owners[move] = mover
    return after, mover


def _mover_has_won(board: Board, mover: int, players: int) -> bool:
    return all(q in board.moved and not board.owns(q) for q in range(players) if q != mover)


def resolve_in_waves(
    board: Board, move: int, players: int, stop_on_win: bool, max_waves: int = 5000
) -> tuple[Board, list[list[int]], bool]:
    """Wave by wave: every full square explodes once per wave. Returns (board, waves, settled)."""
    after, mover = _place(board, move)
    waves: list[list[int]] = []
    fired: set[int] = set()
    while len(waves) < max_waves and len(fired) < len(after.counts):  # all fired: it never settles (below)
        full = [sq for sq in range(len(after.counts)) if after.counts[sq] >= after.capacity(sq)]
        if not full:
            return after, waves, True
        for sq in full:
            _explode(after, sq, mover)
        waves.append(full)
        fired.update(full)
        if stop_on_win and _mover_has_won(after, mover, players):
            return after, waves, False
    return after, waves, False


def resolve_in_random_order(
    board: Board, move: int, rng: random.Random, max_explosions: int = 100_000
) -> tuple[Board, Counter[int], bool]:
    """One full square at a time, chosen at random. Returns (board, explosions per square, settled).

    A chip-firing game in which every vertex has fired never ends (Bjorner, Lovasz and Shor), so we stop there.
    """
    after, mover = _place(board, move)
    fired: Counter[int] = Counter()
    while len(fired) < len(after.counts) and sum(fired.values()) < max_explosions:
        full = [sq for sq in range(len(after.counts)) if after.counts[sq] >= after.capacity(sq)]
        if not full:
            return after, fired, True
        sq = rng.choice(full)
        _explode(after, sq, mover)
        fired[sq] += 1
    return after, fired, False


# ----- helpers ------------------------------------------------------------------------------------------
def load(rows: int = 3, cols: int = 3, players: int = 2) -> damier.Game:
    return damier.load("atoms", rows=rows, cols=cols, players=players)


def at(position: str, rows: int = 3, cols: int = 3, players: int = 2) -> damier.State:
    return load(rows, cols, players).state_from_position(position)


def play(state: damier.State, *squares: str) -> damier.State:
    for square in squares:
        state.play(state.parse_move(square))
    return state


def random_state(game: damier.Game, seed: int, plies: int) -> damier.State:
    """A position reached by random play, stopped before the game ends."""
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(plies):
        state.play(rng.choice(state.legal_moves()))
        if state.is_over():
            state.undo()
            break
    return state


def wave_sets(state: damier.State) -> list[set[str]]:
    return [set(e["squares"]) for e in state.events() if e["type"] == "wave"]


def _play_in_child(position: str, shape: tuple[int, int, int], square: str, conn: object) -> None:
    state = at(position, *shape)
    play(state, square)
    conn.send(state.position())  # type: ignore[attr-defined]


def returns_at_all(position: str, shape: tuple[int, int, int], square: str) -> bool:
    """Whether playing ``square`` returns, run in a forked child so that a chain that never stops cannot hang
    the test run (numba holds the GIL, so a thread cannot be abandoned). The limit is a hang guard: a correct
    kernel answers in microseconds."""
    play(load(2, 2).new_state(), "A1")  # compile in this process, so that the child only runs
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    process = ctx.Process(target=_play_in_child, args=(position, shape, square, child), daemon=True)
    process.start()
    done = parent.poll(10)
    process.kill()
    process.join()
    return done


def capacity_by_play(rows: int, cols: int, square: str) -> int:
    """The number of atoms at which ``square`` explodes, found by playing on it (not by asking the code)."""
    game = load(rows, cols)
    target = game.new_state().parse_move(square)
    tr, tc = divmod(target, cols)
    blue = max(range(rows * cols), key=lambda sq: abs(sq // cols - tr) + abs(sq % cols - tc))
    for atoms in range(0, 6):
        cells = ["."] * (rows * cols)
        cells[blue] = "1b"
        if atoms:
            cells[target] = f"{atoms}r"
        board = "/".join(",".join(cells[r * cols : (r + 1) * cols]) for r in range(rows))
        moved = "rb" if atoms else "b"
        state = play(game.state_from_position(f"{board} r {moved} {atoms + 1}"), square)
        if wave_sets(state):
            assert wave_sets(state)[0] == {square}
            return atoms + 1
    raise AssertionError(f"{square} never exploded")


# ----- board and players --------------------------------------------------------------------------------
def test_default_board_is_8x8_for_two_players() -> None:
    game = damier.load("atoms")
    assert game.board_shape == (8, 8)
    assert game.num_players == 2


def test_presets_are_offered() -> None:
    assert {"8x8": (8, 8), "9x6": (9, 6), "6x6": (6, 6), "4x4": (4, 4), "10x10": (10, 10)}.items() <= PRESETS.items()
    for rows, cols in PRESETS.values():
        assert load(rows, cols).board_shape == (rows, cols)


@pytest.mark.parametrize("options", [{"rows": 1}, {"cols": 1}, {"rows": 0}, {"rows": 1, "cols": 1}, {"cols": -3}])
def test_board_smaller_than_2_rejected(options: dict[str, int]) -> None:
    with pytest.raises(damier.OptionError, match="rows" if "rows" in options else "cols"):
        damier.load("atoms", **options)


def test_board_of_2x2_accepted() -> None:
    assert load(2, 2).board_shape == (2, 2)


@pytest.mark.parametrize("players", [0, 1, 9, 100])
def test_players_out_of_range_rejected(players: int) -> None:
    with pytest.raises(damier.OptionError, match="players"):
        damier.load("atoms", players=players)


def test_two_to_eight_players_accepted() -> None:
    for players in range(2, 9):
        assert load(4, 4, players).num_players == players


def test_red_moves_first_then_blue() -> None:
    game = load()
    assert game.player_names[:2] == ("Red", "Blue")
    state = game.new_state()
    assert state.player == 0
    play(state, "A1")
    assert state.player == 1
    play(state, "C3")
    assert state.player == 0


def test_colours_move_in_a_fixed_seat_order() -> None:
    game = load(3, 3, 8)
    assert len(set(game.player_names)) == 8
    state = game.new_state()
    seen = []
    for square in ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3"]:
        seen.append(state.player)
        play(state, square)
    assert seen == list(range(8))
    assert state.player == 0


def test_square_names_a1_top_left() -> None:
    state = load(3, 4).new_state()
    assert state.move_to_str(0) == "A1"
    play(state, "A2")  # below A1
    assert board_of(state).counts[4] == 1
    play(state, "B1")  # right of A1
    assert board_of(state).counts[1] == 1
    play(state, "D3")  # bottom-right
    assert board_of(state).counts[11] == 1
    assert [capacity_by_play(3, 4, sq) for sq in ("A1", "A2", "B2")] == [2, 3, 4]


def test_corner_capacity_is_2() -> None:
    for square in ("A1", "E1", "A4", "E4"):
        assert capacity_by_play(4, 5, square) == 2


def test_edge_capacity_is_3() -> None:
    for square in ("B1", "D1", "A2", "A3", "E3", "C4"):
        assert capacity_by_play(4, 5, square) == 3


def test_inside_capacity_is_4() -> None:
    for square in ("B2", "D2", "C3", "D3"):
        assert capacity_by_play(4, 5, square) == 4


# ----- a move -------------------------------------------------------------------------------------------
def test_can_play_on_empty_or_own_square() -> None:
    state = play(load().new_state(), "B2", "C3")
    assert state.legal_moves() == [0, 1, 2, 3, 4, 5, 6, 7]  # empty squares and Red's B2, not Blue's C3
    play(state, "B2")
    assert board_of(state).grid()[4] == (2, 0)


def test_cannot_play_on_enemy_square() -> None:
    state = play(load().new_state(), "A1")
    before = state.position()
    assert 0 not in state.legal_moves()
    assert not state.is_legal(0)
    with pytest.raises(damier.IllegalMoveError, match="Red"):
        state.parse_move("A1")
    with pytest.raises(damier.IllegalMoveError):
        state.play(0)
    assert state.position() == before


def test_moves_case_insensitive() -> None:
    state = load(4, 4).new_state()
    for text in ("c3", "C3", " c3 ", "C3\n"):
        assert state.parse_move(text) == state.parse_move("C3") == 10
    assert state.parse_move("d4") == 15


def test_placing_below_capacity_adds_one_atom() -> None:
    state = play(at(".,1r,./.,.,./.,.,1b r rb 2"), "B1")
    assert board_of(state).grid()[1] == (2, 0)
    assert wave_sets(state) == []


def test_explosion_sends_one_atom_to_each_neighbour() -> None:
    state = play(at(".,1b,./1r,3r,./.,1b,1b r rb 7"), "B2")
    after = board_of(state)
    assert [after.counts[sq] for sq in (1, 3, 5, 7)] == [2, 2, 1, 2]  # B1, A2, C2, B3: one atom each
    assert after.counts[8] == 1  # C3 is not a neighbour of B2
    assert after.total() == 8  # no atom is lost


def test_explosion_converts_enemy_neighbours() -> None:
    state = play(at(".,1b,./1r,3r,./.,1b,1b r rb 7"), "B2")
    after = board_of(state)
    assert after.owners[1] == 0 and after.owners[7] == 0  # B1 and B3 were Blue's
    assert after.owners[5] == 0  # C2 was empty
    assert after.owners[8] == 1  # C3 was not touched
    assert not state.is_over() and state.player == 1


def test_explosion_converts_every_colour() -> None:
    state = play(at(".,1g,./1b,3r,1y/.,1b,1g r rbgy 8", players=4), "B2")
    after = board_of(state)
    assert [after.owners[sq] for sq in (1, 3, 5, 7)] == [0, 0, 0, 0]
    assert after.owners[8] == 2


def test_square_left_empty_becomes_unowned() -> None:
    state = play(at(".,1b,./1r,3r,./.,1b,1b r rb 7"), "B2")
    assert board_of(state).grid()[4] == (0, None)
    assert state.player == 1 and state.is_legal(4)  # Blue may play on it now
    corner = play(at("1r,.,./.,.,./.,.,1b r rb 2"), "A1")
    assert board_of(corner).grid()[0] == (0, None)


def test_excess_atoms_stay_after_explosion() -> None:
    # B2 explodes; B1 and A2 explode together and give A1 two atoms: A1 holds 3 >= 2 and keeps 1 after exploding
    state = play(at("1r,2r,./2r,3r,./.,.,1b r rb 9"), "B2")
    assert wave_sets(state) == [{"B2"}, {"B1", "A2"}, {"A1"}]
    assert state.position() == "1r,1r,1r/1r,2r,1r/1r,1r,1b b rb 10"


def test_neighbours_reaching_capacity_explode_in_turn() -> None:
    state = play(at("1r,2r,1r/.,.,./.,.,1b r rb 5"), "A1")
    # A1 explodes into B1 (3 atoms: explodes in turn) and A2; B1 into A1, C1 (2: explodes) and B2; C1 into
    # B1 and C2, where the chain stops (C2 holds 1 of 3)
    assert wave_sets(state) == [{"A1"}, {"B1"}, {"C1"}]
    assert state.position() == "1r,1r,./1r,1r,1r/.,.,1b b rb 6"


# ----- elimination and the end --------------------------------------------------------------------------
def test_no_elimination_before_first_move() -> None:
    state = play(load().new_state(), "A1")  # Blue owns nothing, but has not moved yet
    assert not state.is_over() and state.outcome() is None
    assert state.player == 1
    assert [e["type"] for e in state.events()] == ["place"]
    four = load(3, 3, 4).new_state()
    for seat, square in enumerate(["A1", "C1", "A3", "C3"]):
        assert four.player == seat and not four.is_over()
        play(four, square)
    assert four.player == 0


def test_game_ends_when_opponent_has_no_atoms() -> None:
    state = play(load().new_state(), "A1", "B1", "A1")  # A1 explodes and captures Blue's only square
    assert state.is_over()
    assert state.player == damier.TERMINAL
    assert state.legal_moves() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.returns == (1.0, -1.0)
    assert "Red" in outcome.reason
    assert state.events()[-1] == {"type": "win", "player": 0}


def test_winning_move_stops_resolving_explosions() -> None:
    # Blue's A1 explodes; B1 becomes Blue's with 3 atoms (its capacity) but the game is already won
    state = play(load().new_state(), "B1", "A1", "B1", "A1")
    assert state.outcome() is not None and state.outcome().winner == 1
    assert wave_sets(state) == [{"A1"}]
    assert state.position() == ".,3b,./1b,.,./.,.,. - rb 4"


def test_three_player_game_skips_eliminated_player() -> None:
    state = play(load(3, 3, 3).new_state(), "A1", "B1", "C3", "A1")  # Red takes Blue's only square
    assert {"type": "eliminate", "player": 1} in state.events()
    assert not state.is_over()
    assert state.player == 2  # Green, not the eliminated Blue
    order = []
    for square in ["C3", "A2", "B3", "A1", "C1"]:
        order.append(state.player)
        play(state, square)
    assert order == [2, 0, 2, 0, 2]
    assert not state.is_over()


def test_four_player_game_skips_two_eliminated_players() -> None:
    state = play(load(3, 3, 4).new_state(), "A1", "B1", "A2", "C3", "A1")  # Red takes Blue's and Green's squares
    eliminated = {e["player"] for e in state.events() if e["type"] == "eliminate"}
    assert eliminated == {1, 2}
    assert state.player == 3
    play(state, "C3")
    assert state.player == 0
    play(state, "B2")
    assert state.player == 3


def test_four_player_game_ends_when_one_colour_is_left() -> None:
    state = play(load(2, 2, 4).new_state(), "A1", "B1", "A2", "B2", "A1")
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.returns == (1.0, -1.0, -1.0, -1.0)
    types = [e["type"] for e in state.events()]
    assert types == ["place", "wave", "wave", "eliminate", "eliminate", "eliminate", "win"]
    assert state.position() == "2r,./.,3r - rbgy 5"  # over-full squares are left behind


def test_winning_chain_on_saturated_board_ends_game_at_once() -> None:
    rows = cols = 8
    cells = []
    for sq in range(rows * cols):
        r, c = divmod(sq, cols)
        capacity = 4 - (r in (0, rows - 1)) - (c in (0, cols - 1))
        cells.append(f"{capacity - 1}r")
    cells[-1] = "1b"  # H8: Blue's only square, critical
    position = "/".join(",".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)) + " r rb 100"
    before = board_of(at(position, rows, cols))
    # the chain can never settle: every square explodes before any rest
    _, _, settles = resolve_in_random_order(before, 0, random.Random(0))
    assert not settles
    assert returns_at_all(position, (rows, cols, 2), "A1")
    state = play(at(position, rows, cols), "A1")
    assert state.is_over() and state.outcome() is not None and state.outcome().winner == 0
    # a square at distance d from A1 first explodes in wave d: G8 and H7 (distance 13) take H8 in wave 13
    assert len(wave_sets(state)) == 14
    after = board_of(state)
    assert any(after.counts[sq] >= after.capacity(sq) for sq in range(rows * cols))  # over-full squares remain
    expected, _, _ = resolve_in_waves(before, 0, 2, stop_on_win=True)
    assert after.grid() == expected.grid()
    assert after.total() == before.total() + 1


def test_random_8x8_games_often_end_with_a_chain_that_would_not_settle() -> None:
    unsettled = 0
    for seed in range(10):
        state = damier.load("atoms").new_state()
        rng = random.Random(seed)
        while not state.is_over():
            state.play(rng.choice(state.legal_moves()))
        last = state.history[-1]
        state.undo()
        _, _, settles = resolve_in_random_order(board_of(state), last, random.Random(seed))
        unsettled += not settles
    assert unsettled > 5  # "most games"


# ----- errors the package should raise (and properties of positions) ------------------------------------
@pytest.mark.parametrize("shape", [(2, 2, 5), (2, 2, 8), (2, 3, 7)])
def test_every_player_to_move_has_a_legal_move(shape: tuple[int, int, int]) -> None:
    """More players than squares: either the options are refused, or nobody is ever left without a move."""
    rows, cols, players = shape
    try:
        game = load(rows, cols, players)
    except damier.OptionError:
        return
    for seed in range(5):
        rng = random.Random(seed)
        state = game.new_state()
        while not state.is_over():
            assert state.legal_moves(), f"{state.position()!r}: not over, yet no legal move"
            state.play(rng.choice(state.legal_moves()))
        assert len(game.random_playout(game.new_state(), seed)) == players


def test_position_where_every_opponent_is_out_is_not_in_progress() -> None:
    """Blue has moved and owns nothing: the game is over, so the position must not say Red is to move."""
    game = load(2, 2)
    try:
        state = game.state_from_position("1r,./.,. r rb 2")
    except damier.ParseError:
        return
    assert state.is_over() and state.outcome() is not None and state.outcome().winner == 0


def test_finished_position_requires_the_losers_to_have_moved() -> None:
    with pytest.raises(damier.ParseError):
        load(2, 2).state_from_position("1r,./.,. - r 1")  # nobody is eliminated before their first move


def test_saturated_position_with_an_unmoved_opponent_does_not_hang() -> None:
    """Blue has not moved, so no chain can win; a saturated board's chain then never ends. Such a position
    cannot arise in play (Red cannot move twice before Blue's first move): reject it, or at least return."""
    try:
        load(2, 2).state_from_position("1r,1r/1r,1r r r 4")
    except damier.ParseError:
        return
    assert returns_at_all("1r,1r/1r,1r r r 4", (2, 2, 2), "A1")


@pytest.mark.parametrize(
    "position",
    [
        "99999999999r,./.,1b r rb 2",  # does not fit the kernel's int32
        "1r,./.,1b r rb 99999999999",
        "1r,./.,1b r rb ²",  # str.isdigit() says yes, int() says no
        "²r,./.,1b r rb 2",
        "1r,./.,1b r rb ٣",  # an Arabic-Indic 3: not our notation (it would not print back)
    ],
)
def test_position_with_bad_numbers_raises_parse_error(position: str) -> None:
    with pytest.raises(damier.ParseError):
        load(2, 2).state_from_position(position)


@pytest.mark.parametrize(
    "position",
    [
        "2r,./.,1b r rb 3",  # an over-full square in a game that goes on
        "1r,./.,1b r r 2",  # Blue has atoms but has not moved
        "1r,./.,1b b r 2",
        "1r,./.,1x r rb 2",  # no such colour
        "1r,./.,1g r rbg 2",  # Green does not play in a two-player game
        "1r,. r rb 2",  # one row short
        "1r,.,./.,1b r rb 2",  # a row too long
        "0r,./.,1b r rb 2",  # a count of 0 is written '.'
        "1r,./.,1b - rb 2",  # finished with two colours on the board
        "1r,./.,1b r rb",
        "1r,./.,1b r rb -1",
    ],
)
def test_invalid_position_raises_parse_error(position: str) -> None:
    with pytest.raises(damier.ParseError):
        load(2, 2).state_from_position(position)


def test_copy_keeps_its_undo_history_when_the_original_undoes_and_plays() -> None:
    original = play(load().new_state(), "A1", "C3", "B2")
    copy = original.copy()
    original.undo()
    play(original, "C1")
    copy.undo()
    assert copy.position() == play(load().new_state(), "A1", "C3").position()


# ----- views and evaluation -----------------------------------------------------------------------------
def test_events_of_a_move() -> None:
    state = load().new_state()
    assert state.events() == []
    play(state, "B2")
    assert state.events() == [{"type": "place", "player": 0, "square": "B2",
                               "changes": {"B2": {"count": 1, "owner": 0}}}]
    state = play(at("1r,2r,./2r,3r,./.,.,1b r rb 9"), "B2")
    events = state.events()
    assert events[0] == {"type": "place", "player": 0, "square": "B2", "changes": {"B2": {"count": 4, "owner": 0}}}
    assert [e["index"] for e in events[1:]] == [0, 1, 2]
    state.undo()
    assert state.events() == []


def test_observation_planes() -> None:
    state = at("1r,.,./.,2g,./.,.,1b g rbg 4", players=3)
    obs = state.observation()
    assert obs.shape == (4, 3, 3) and obs.dtype == np.float32
    expected = np.zeros((4, 3, 3))
    expected[0, 1, 1] = 2  # Green is to move: its atoms come first
    expected[1, 0, 0] = 1  # then the next seat, Red
    expected[2, 2, 2] = 1  # then Blue
    expected[3] = [[2, 3, 2], [3, 4, 3], [2, 3, 2]]  # capacities
    np.testing.assert_array_equal(obs, expected)


def test_observation_turns_with_the_player_to_move() -> None:
    state = play(load().new_state(), "A1")
    obs = state.observation()
    assert obs[0].sum() == 0 and obs[1, 0, 0] == 1  # Blue to move: plane 0 is Blue's (nothing yet)


def test_render_text_shows_coordinates() -> None:
    state = play(load(3, 4).new_state(), "A1", "D3", "B2")
    lines = state.render_text().splitlines()
    assert lines[0].split() == ["A", "B", "C", "D"]
    assert [line.split()[0] for line in lines[1:4]] == ["1", "2", "3"]
    assert lines[1].split()[1:] == ["1R", ".", ".", "."]  # a corner with 1 atom is critical: upper case
    assert lines[2].split()[1:] == [".", "1r", ".", "."]
    assert lines[3].split()[1:] == [".", ".", ".", "1B"]
    assert "Blue" in state.render_text()


def evaluate(position: str, player: int, kind: str = "classic", rows: int = 3, cols: int = 3) -> float:
    game = load(rows, cols)
    return game.evaluate(game.state_from_position(position), player, kind)


def test_evaluate_counts_atoms_corners_edges_and_critical_squares() -> None:
    # Red A1 (corner, 1 atom, critical): 1 + 3 + 2 = 6.  Blue B3 (edge, 1 atom): 1 + 2 = 3
    assert evaluate("1r,.,./.,.,./.,1b,. r rb 2", 0) == 6
    assert evaluate("1r,.,./.,.,./.,1b,. r rb 2", 1) == 3
    # Red B2 (inside, 2 atoms, not critical): 2; nothing else
    assert evaluate(".,.,./.,2r,./.,.,1b r rb 3", 0) == 2


def test_evaluate_penalises_squares_next_to_enemy_critical_squares() -> None:
    # Red A1 1 + 3 + 2 = 6; Red B1 (edge, critical) next to Blue's critical C1: 2 - (5 - 3) = 0;
    # Red's group A1-B1 of two critical squares: + 2 x 2.  Blue C1 next to Red's critical B1: 1 - (5 - 2) = -2
    position = "1r,2r,1b/.,.,./.,.,. r rb 4"
    assert evaluate(position, 0) == 10
    assert evaluate(position, 1) == -2
    # an inside square next to an enemy critical square: 1 - (5 - 4) = 0 for Red; Blue B1: 2 + 2 + 2 = 6
    assert evaluate(".,2b,./.,1r,./.,.,. r rb 3", 0) == 0
    assert evaluate(".,2b,./.,1r,./.,.,. r rb 3", 1) == 6


def test_evaluate_counts_only_groups_of_two_or_more_critical_squares() -> None:
    # Red A1 and C1, both critical corners but not connected: 6 + 6, no group bonus
    assert evaluate("1r,.,1r/.,.,./.,.,1b r rb 3", 0) == 12
    # A1, B1, C1 all critical and connected: 6 + (2 + 2 + 2) + 6 + 2 x 3
    assert evaluate("1r,2r,1r/.,.,./.,.,1b r rb 5", 0) == 24


def test_evaluate_strong_is_own_score_minus_best_opponent() -> None:
    position = "1r,2r,1b/.,.,./.,.,. r rb 4"
    assert evaluate(position, 0, "strong") == 10 - (-2)
    assert evaluate(position, 1, "strong") == -2 - 10


def test_evaluate_decided_positions() -> None:
    state = play(load().new_state(), "A1", "B1", "A1")
    game = state.game
    assert game.evaluate(state, 0) > 1000
    assert game.evaluate(state, 1) == -game.evaluate(state, 0)


# ----- properties ---------------------------------------------------------------------------------------
SHAPES = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 3), (6, 6), (8, 8)]


@st.composite
def settled_positions(draw: st.DrawFn) -> tuple[damier.State, int]:
    rows, cols = draw(st.sampled_from(SHAPES))
    players = draw(st.integers(2, min(4, rows * cols)))
    game = load(rows, cols, players)
    state = random_state(game, draw(st.integers(0, 10**6)), draw(st.integers(0, 3 * rows * cols)))
    moves = state.legal_moves()
    return state, moves[draw(st.integers(0, len(moves) - 1))]


@settings(max_examples=150, deadline=None)
@given(settled_positions(), st.integers(0, 10**6))
def test_explosion_order_does_not_change_the_result(case: tuple[damier.State, int], order_seed: int) -> None:
    state, move = case
    players = state.game.num_players
    before = board_of(state)
    waves, _, settled = resolve_in_waves(before, move, players, stop_on_win=False)
    shuffled, _, shuffled_settled = resolve_in_random_order(before, move, random.Random(order_seed))
    assert shuffled_settled == settled
    if settled:  # chip-firing: the reference agrees with itself in any order
        assert shuffled.grid() == waves.grid()
    state.play(move)
    after = board_of(state)
    if not state.is_over():
        assert settled
        assert after.grid() == waves.grid()
    else:
        assert state.outcome() is not None and state.outcome().winner == before.to_move
        assert not settled or _mover_has_won(waves, before.to_move, players)


@settings(max_examples=150, deadline=None)
@given(settled_positions())
def test_events_list_the_explosion_waves(case: tuple[damier.State, int]) -> None:
    state, move = case
    players = state.game.num_players
    before = board_of(state)
    expected, waves, _ = resolve_in_waves(before, move, players, stop_on_win=True)
    state.play(move)
    events = state.events()
    place = {key: value for key, value in events[0].items() if key != "changes"}  # the boards: test_client_catalog
    assert place == {"type": "place", "player": before.to_move, "square": name(before, move)}
    wave_events = [e for e in events if e["type"] == "wave"]
    assert [e["index"] for e in wave_events] == list(range(len(wave_events)))
    assert [set(e["squares"]) for e in wave_events] == [{name(before, sq) for sq in w} for w in waves]
    assert all(len(e["squares"]) == len(set(e["squares"])) for e in wave_events)
    assert board_of(state).grid() == expected.grid()
    wins = [e for e in events if e["type"] == "win"]
    assert (wins == [{"type": "win", "player": before.to_move}]) == state.is_over()
    assert len(wins) == int(state.is_over())
    out_before = {q for q in before.moved if not before.owns(q)}
    out_after = {q for q in range(players) if q in expected.moved and not expected.owns(q)}
    assert {e["player"] for e in events if e["type"] == "eliminate"} == out_after - out_before


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SHAPES), st.integers(0, 10**6))
def test_atoms_are_conserved(shape: tuple[int, int], seed: int) -> None:
    state = load(*shape).new_state()
    rng = random.Random(seed)
    while not state.is_over():
        assert board_of(state).total() == len(state.history) == state.atoms()
        state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 3), (4, 4), (8, 8), (9, 6)])
def test_two_player_games_never_exceed_2E_minus_V_plus_1_plies(rows: int, cols: int) -> None:
    edges = rows * (cols - 1) + cols * (rows - 1)
    game = load(rows, cols)
    assert game.max_plies == 2 * edges - rows * cols + 1
    for seed in range(25):
        rng = random.Random(seed)
        state = game.new_state()
        while not state.is_over():
            assert len(state.history) < game.max_plies
            state.play(rng.choice(state.legal_moves()))
        assert len(state.history) <= game.max_plies
        assert state.outcome() is not None and state.outcome().winner is not None  # no draws


def test_max_plies_of_the_standard_boards() -> None:
    assert load(8, 8).max_plies == 161
    assert load(9, 6).max_plies == 133


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(SHAPES), st.integers(2, 4), st.integers(0, 10**6), st.integers(0, 200))
def test_position_notation_round_trips(shape: tuple[int, int], players: int, seed: int, plies: int) -> None:
    game = load(*shape, players=min(players, shape[0] * shape[1]))
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(plies):  # may well run to the end: finished positions round-trip too
        if state.is_over():
            break
        state.play(rng.choice(state.legal_moves()))
    restored = game.state_from_position(state.position())
    assert restored.position() == state.position()
    assert restored.legal_moves() == state.legal_moves()
    assert restored.outcome() == state.outcome()
    assert restored.eliminated() == state.eliminated()


# ----- who can still win (the arcade's clocks) ----------------------------------------------------------------
def test_an_eliminated_colour_cannot_win_and_takes_no_share_of_a_flag() -> None:
    game = damier.load("atoms", players=3, rows=3, cols=3)
    state = game.replay(["C1", "B1", "B2", "A1", "A3", "B3", "C2", "C3", "A2", "A1", "A3"])
    assert state.eliminated() == [2] and not state.is_over() and state.player == 0
    assert state.can_win(0) and state.can_win(1) and not state.can_win(2)
    lost = damier.timeout(state, 0)  # Red's clock falls: Blue is the only colour left who can win
    assert lost.winner == 1 and lost.returns == (-1.0, 2.0, -1.0)
    assert lost.reason == "Red ran out of time: Blue wins"
