"""The optimal Ricochet Robots solver (the ``solver``, ``analyse``, ``hints`` and ``puzzle`` features): the fewest
moves, or the least cost with the transparent robot (1 per move plus 1 per wall it passes), for 4, 5 or 6 robots,
coloured targets and the vortex, in every rule mode (ricochet off, if_trivial or strict; rebounds allowed or not).

The search is ``search_kernel.search`` (numba): A* in cost buckets with an admissible, consistent bound per
cell (from the target, the other robots ignored; one more when no robot can finish alone in that many moves), a
table of the cheapest cost of each position keyed on the robots by role (interchangeable robots sorted), stop
tables per cell and direction, and the line traced back through that table. Every line is replayed through
``RicochetState.play`` before it is returned. A search takes at most about 1.8 GiB (the table, the waiting
positions); past that it gives up as if its node limit were reached.

>>> state = puzzle_state("1A2A3A4A.0F00F0FF.v", {})
>>> found = solve(state)
>>> found.cost, found.optimal, len(found.moves)
(14, True, 14)
>>> hint(state, 1)["text"], hint(state, 2)["text"]
('14 to 16 moves', 'under 16 moves')
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
import time
from collections import OrderedDict
from typing import Any

import numpy as np

from damier.core.errors import OptionError, ParseError, StateError
from damier.core.game import TERMINAL, Solution, State
from damier.core.messages import coded, nested, say
from damier.games.ricochet import INFO, notation, search_kernel, setup
from damier.games.ricochet.rules import (
    MOVE_LIMIT,
    ROBOTS,
    TRANSPARENT,
    RicochetGame,
    RicochetState,
    move_of,
    parts_of,
    stops_of,
)

#: the costliest line searched when no ``max_cost`` is given (the hardest known 4-robot puzzles take 25)
MAX_COST = search_kernel.MAX_DEPTH - 8
#: the table of costs starts with 2**(this) entries and doubles (at half full) as a search needs ...
TABLE_LOG2_START = 12
#: ... up to 2**(this) entries: 1 GiB of one-word entries (half of it for two-word ones)
TABLE_LOG2_MAX = 27
#: ``analyse(..., all_paths=True)`` lists at most this many optimal lines (``count`` is exact unless truncated)
MAX_LISTED = 1000
#: the nodes the listing of every optimal line may search
LISTING_NODES = 20_000_000


#: tables per board (stops, coloured targets) and per board and target (bounds), the latest kept
_CACHE: OrderedDict[tuple[str, int, str], np.ndarray] = OrderedDict()
_CACHE_SIZE = 256
_CACHE_LOCK = threading.Lock()  # the server solves in threads too


def _table(board: setup.Board, target: int, kind: str) -> np.ndarray:
    """A board's table of ``kind``: ``stops`` (target unused), ``coloured``, ``robot``, ``robot turning`` (every
    axes, for the ricochet rule) or ``transparent`` (the bounds to ``target``)."""
    key = (board.board_id, target if kind not in ("stops", "coloured") else -1, kind)
    with _CACHE_LOCK:
        out = _CACHE.get(key)
        if out is not None:
            _CACHE.move_to_end(key)
            return out
    if kind == "stops":
        out = stops_of(board)
    elif kind == "coloured":
        out = np.zeros(setup.CELLS, dtype=np.bool_)
        for t in board.targets:
            out[t.cell] = t.shape != "vortex"
    elif kind in ("robot", "robot turning"):
        out = np.empty(setup.CELLS * 4, dtype=np.int64)
        search_kernel.robot_bound(board.walls, target, kind == "robot turning", out)
    else:
        out = np.empty(setup.CELLS * 4, dtype=np.int64)
        search_kernel.transparent_bound(board.walls, board.solid, _table(board, -1, "coloured"), target, out)
    with _CACHE_LOCK:
        _CACHE[key] = out
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return out


@dataclasses.dataclass
class Problem:
    """What the kernels search: one position in slots (the robot that must finish, the pool sorted by cell, the
    transparent robot, then robots that may not move), its rules, the board's tables."""

    walls: np.ndarray
    solid: np.ndarray
    coloured: np.ndarray
    stops: np.ndarray
    bound: np.ndarray
    tbound: np.ndarray
    cells: np.ndarray  # movable slots, then fixed robots
    axes: np.ndarray
    movable: int
    finisher: np.ndarray
    pool: tuple[int, int]
    tslot: int
    layout: np.ndarray
    width: int
    last_slot: int
    last_direction: int
    rebound: bool
    target: int
    alive: int  # a line's positions before its last move cost less than this (the rules' move limit)

    def lower_bound(self) -> int:
        """The bound at the start (``INF`` when no robot can ever finish)."""
        best = search_kernel.INF
        for s in range(self.movable):
            if self.finisher[s]:
                table = self.tbound if s == self.tslot else self.bound
                best = min(best, int(table[int(self.cells[s]) * 4 + int(self.axes[s])]))
        return best

    def search(self, last: int, node_limit: int | None, complete: bool = False,
               log2_start: int = TABLE_LOG2_START, boost: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """(stats, table) of the kernel's search (see ``search_kernel.search``)."""
        stats = np.zeros(12, dtype=np.int64)
        log2_max = TABLE_LOG2_MAX - (self.width - 1)
        with np.errstate(over="ignore"):  # the hashes wrap around (without the JIT, numpy would say so)
            table = search_kernel.search(
                self.walls, self.solid, self.coloured, self.stops, self.bound, self.tbound, self.cells, self.axes,
                self.movable, self.finisher, self.pool[0], self.pool[1], self.tslot, self.layout, self.width,
                self.last_slot, self.last_direction, self.rebound, self.target, last, complete,
                -1 if node_limit is None else node_limit, min(log2_start, log2_max), log2_max, stats, boost,
                self.alive)
        return stats, table

    def walk(self, table: np.ndarray, stats: np.ndarray, cost: int, mode: int, lines: np.ndarray,
             sizes: np.ndarray, counts: np.ndarray) -> int:
        """``search_kernel.walk`` over the search's table."""
        with np.errstate(over="ignore"):
            return int(search_kernel.walk(
                table, int(stats[5]), self.width, self.walls, self.solid, self.coloured, self.stops, self.bound,
                self.tbound, self.cells, self.axes, self.movable, self.finisher, self.pool[0], self.pool[1],
                self.tslot, self.layout, self.last_slot, self.last_direction, self.rebound, self.target, cost, mode,
                lines, sizes, counts))


def problem(state: State, moving: frozenset[int] | None = None) -> Problem:
    """The kernels' view of ``state``: robots in slots (only ``moving`` robots move, when given), each robot's axes
    moved along (for the ricochet rule), the key's layout, the bounds, the last move (for rebounds)."""
    if not isinstance(state, RicochetState):
        raise StateError(f"the Ricochet Robots solver takes a Ricochet Robots state, not {type(state).__name__}")
    puzzle = state.puzzle
    board = puzzle.board
    target = puzzle.target
    vortex = target.shape == "vortex"
    robots = state.robots.tolist()
    present = [r for r in range(ROBOTS) if robots[r] >= 0]
    moves = [r for r in present if moving is None or r in moving]
    trivial = state._trivial if puzzle.ricochet == "if_trivial" else frozenset()

    def finishes(r: int) -> bool:
        return vortex or (r < 4 and notation.ROBOT_NAMES[r] == target.colour)

    def ruled(r: int) -> bool:
        return finishes(r) and (puzzle.ricochet == "strict" or (puzzle.ricochet == "if_trivial" and r in trivial))

    cell = {r: robots[r] for r in present}
    head = [r for r in moves if r != TRANSPARENT and finishes(r) and not vortex]
    pool = sorted((r for r in moves if r != TRANSPARENT and r not in head), key=cell.__getitem__)
    tail = [r for r in moves if r == TRANSPARENT]
    slots = head + pool + tail
    fixed = [r for r in present if r not in slots]
    wide = [ruled(r) for r in slots]
    if any(wide[len(head):len(head) + len(pool)]):
        for s in range(len(head), len(head) + len(pool)):
            wide[s] = True  # the pool's robots are interchangeable: all carry their axes
    layout = np.zeros(len(slots) + 1, dtype=np.int64)
    word = shift = 0
    widths = [10 if w else 8 for w in wide] + ([5] if not puzzle.rebound else [0])
    for s, w in enumerate(widths):
        if word == 0 and shift + w > search_kernel.KEY_BITS:
            word, shift = 1, 0
        layout[s] = word << 16 | shift << 8 | w
        shift += w
    axes = np.full(len(slots), 3, dtype=np.int64)
    for s, r in enumerate(slots):
        if ruled(r) and not state.turned[r]:
            axes[s] = 0 if state.last_dir[r] < 0 else int(search_kernel.AXIS[state.last_dir[r]])
    last_slot, last_direction = -1, 0
    if not puzzle.rebound and state.last_move >= 0:
        r, d, _ = parts_of(state.last_move)
        if r in slots:
            last_slot, last_direction = slots.index(r), d
    return Problem(
        walls=board.walls, solid=board.solid, coloured=_table(board, -1, "coloured"),
        stops=_table(board, -1, "stops"),
        bound=_table(board, target.cell, "robot turning" if any(ruled(r) for r in slots) else "robot"),
        tbound=_table(board, target.cell, "transparent") if vortex and TRANSPARENT in slots else _NO_BOUND,
        cells=np.array([cell[r] for r in slots + fixed], dtype=np.int64), axes=axes, movable=len(slots),
        finisher=np.array([finishes(r) for r in slots], dtype=np.bool_), pool=(len(head), len(head) + len(pool)),
        tslot=slots.index(TRANSPARENT) if TRANSPARENT in slots else -1, layout=layout,
        width=1 if word == 0 else 2, last_slot=last_slot, last_direction=last_direction, rebound=puzzle.rebound,
        target=target.cell, alive=MOVE_LIMIT - state.cost)


_NO_BOUND = np.zeros(1, dtype=np.int64)


def _checked(state: RicochetState, rows: np.ndarray, count: int, cost: int) -> tuple[int, ...]:
    """The moves of a line of (cell moved from, direction, walls passed) rows, the robots found by cell, replayed
    through the rules: legal, solving the puzzle at its last move and costing ``cost``."""
    replay = state.copy()
    moves: list[int] = []
    for i in range(count):
        cell, d, k = (int(v) for v in rows[i])
        robot = next((r for r in range(ROBOTS) if replay.robots[r] == cell), None)
        if robot is None or replay.player == TERMINAL:
            raise RuntimeError(f"solver: move {i + 1} of its line leaves {setup.cell_name(cell)}, where no robot "
                               f"stands, or comes after the puzzle is solved ({_text(state, tuple(moves))})")
        move = move_of(robot, d, k)
        replay.play(move)  # IllegalMoveError if the solver and the rules disagree
        moves.append(move)
    if replay.player != TERMINAL or replay.cost - state.cost != cost:
        raise RuntimeError(f"solver: the line {_text(state, tuple(moves))} does not solve the puzzle at cost {cost} "
                           f"when replayed (cost {replay.cost - state.cost}, solved: {replay.player == TERMINAL})")
    return tuple(moves)


def _text(state: State, moves: tuple[int, ...]) -> str:
    return " ".join(state.move_to_str(m) for m in moves)


def _limits(max_cost: int | None, node_limit: int | None) -> int:
    for name, value in (("max_cost", max_cost), ("node_limit", node_limit)):
        if value is not None and (not isinstance(value, int | np.integer) or isinstance(value, bool) or value < 0):
            raise StateError(f"{name} is a whole number >= 0 or None, not {value!r}")
    return MAX_COST if max_cost is None else min(int(max_cost), MAX_COST)


def solve(state: State, max_cost: int | None = None, node_limit: int | None = None) -> Solution:
    """An optimal line from ``state`` (the ``solver`` feature): ``Solution(moves, cost, optimal, nodes)``.

    ``cost`` counts moves, plus one per wall the transparent robot passes. Nothing is found (cost -1) when no line
    costs ``max_cost`` or less, or none at all (``optimal`` True: that is proven), or when the search needs to
    expand more than ``node_limit`` positions (``optimal`` False). From a solved position the line is empty, of
    cost 0."""
    last = _limits(max_cost, node_limit)
    if state.is_over():
        return Solution((), 0, True, 0) if _solved(state) else Solution((), -1, True, 0)
    prob = problem(state)
    first = prob.lower_bound()
    if first >= search_kernel.INF:
        return Solution((), -1, True, 0)  # no robot that may finish can ever reach the target
    if first > last:
        return Solution((), -1, max_cost is not None, 0)
    stats, table = prob.search(last, node_limit)
    nodes = int(stats[2])
    if stats[0] != search_kernel.FOUND:
        proven = stats[0] == search_kernel.NONE_WITHIN and (
            bool(stats[11]) or (max_cost is not None and max_cost <= MAX_COST))
        return Solution((), -1, proven, nodes)
    cost = int(stats[1])
    assert isinstance(state, RicochetState)
    return Solution(_one_line(prob, state, stats, table, cost), cost, True, nodes)


def _solved(state: State) -> bool:
    """Whether a finished puzzle was solved (not ended by the rules' move limit)."""
    assert isinstance(state, RicochetState)
    return state._finisher() >= 0


def _one_line(prob: Problem, state: RicochetState, stats: np.ndarray, table: np.ndarray,
              cost: int) -> tuple[int, ...]:
    """The optimal line the search found, traced back through its table (or, if the table lost the way, walked
    forward from the start)."""
    lines = np.zeros((1, search_kernel.MAX_DEPTH, 3), dtype=np.int64)
    with np.errstate(over="ignore"):
        count = int(search_kernel.trace(
            table, int(stats[5]), prob.width, prob.walls, prob.solid, prob.coloured, prob.stops, prob.cells,
            prob.movable, prob.pool[0], prob.pool[1], prob.tslot, prob.layout, prob.rebound, stats[8], stats[9],
            int(stats[10]), cost, lines[0]))
    if count == 0:
        count = prob.walk(table, stats, cost, search_kernel.WALK_ONE, lines, np.zeros(1, dtype=np.int64), _NO_BOUND)
    if count == 0:
        raise RuntimeError(f"solver: no line of the optimal cost {cost} could be walked in the search's table")
    return _checked(state, lines[0], count, cost)


# ----- analyse ------------------------------------------------------------------------------------------
def rules_of(state: State) -> dict[str, Any]:
    """The rules a solver answer was found under (named in every answer)."""
    assert isinstance(state, RicochetState)
    puzzle = state.puzzle
    return {"ricochet": puzzle.ricochet, "rebound": puzzle.rebound, "silver": puzzle.silver,
            "transparent": puzzle.transparent}


def all_optimal(state: State, node_limit: int | None = LISTING_NODES,
                limit: int = MAX_LISTED) -> tuple[int, int, list[tuple[int, ...]], int] | None:
    """(cost, how many optimal lines, the first ``limit`` of them, positions expanded), or None when no line was
    found within ``node_limit``. The count saturates at 2**62."""
    if state.is_over():
        return (0, 1, [()], 0) if _solved(state) else None
    assert isinstance(state, RicochetState)
    prob = problem(state)
    if prob.lower_bound() >= search_kernel.INF:
        return None
    stats, table = prob.search(MAX_COST, node_limit, complete=True)
    if stats[0] != search_kernel.FOUND:
        return None
    cost = int(stats[1])
    counts = np.zeros_like(table)
    lines = np.zeros((limit, search_kernel.MAX_DEPTH, 3), dtype=np.int64)
    sizes = np.zeros(limit, dtype=np.int64)
    total = prob.walk(table, stats, cost, search_kernel.WALK_COUNT, lines, sizes, counts)
    listed = prob.walk(table, stats, cost, search_kernel.WALK_LIST, lines, sizes, counts)
    out = [_checked(state, lines[i], int(sizes[i]), cost) for i in range(listed)]
    return cost, total, out, int(stats[2])


def fewest_robots(state: State, cost: int, known: int) -> int:
    """The fewest robots an optimal line (of ``cost``) moves: ``known`` (what some line moves) or fewer, found by
    searching with only a few robots allowed to move (the others are obstacles)."""
    assert isinstance(state, RicochetState)
    robots = state.robots.tolist()
    present = [r for r in range(ROBOTS) if robots[r] >= 0]
    for size in range(1, known):
        for group in itertools.combinations(present, size):
            prob = problem(state, frozenset(group))
            if not prob.finisher.any() or prob.lower_bound() > cost:
                continue
            stats, _ = prob.search(cost, None)
            if stats[0] == search_kernel.FOUND:
                return size
    return known


def analyse(state: State, exact: int | None = None, all_paths: bool = False) -> dict[str, Any]:
    """What ``damier solve`` prints (the ``analyse`` feature): ``{"length", "moves", "nodes", "seconds",
    "rules"}`` (length: the optimal cost; moves in notation; both None when nothing can reach the target), and with
    ``all_paths`` every optimal line (``"all"``, at most ``MAX_LISTED``; ``"count"``: how many there are) and the
    fewest robots an optimal line moves (``"fewest_robots"``). ``exact`` is refused: a line of exactly K moves is
    not a Ricochet Robots question."""
    if exact is not None:
        raise StateError(say("ricochet.error.exact"))
    started = time.perf_counter()
    answer: dict[str, Any] = {"rules": rules_of(state)}
    if all_paths:
        found = all_optimal(state)
        if found is None:
            answer.update({"length": None, "moves": None, "nodes": None, "count": 0, "all": []})
        else:
            cost, total, lines, nodes = found
            robots = min(len({parts_of(m)[0] for m in line}) for line in lines)
            answer.update({"length": cost, "moves": [state.move_to_str(m) for m in lines[0]], "nodes": nodes,
                           "count": total, "all": [[state.move_to_str(m) for m in line] for line in lines],
                           "truncated": total > len(lines),
                           "fewest_robots": robots if total <= len(lines) else fewest_robots(state, cost, robots)})
    else:
        solution = solve(state)
        answer.update({"length": solution.cost if solution.found else None,
                       "moves": [state.move_to_str(m) for m in solution.moves] if solution.found else None,
                       "nodes": solution.nodes})
    answer["seconds"] = round(time.perf_counter() - started, 6)
    return answer


# ----- hints --------------------------------------------------------------------------------------------
#: graded hints, from the vaguest (the web client lists them by these kinds)
HINT_LEVELS = ("band", "under", "length", "solution")


def band(length: int) -> tuple[int, int]:
    """The band of three lengths a length falls in: 2 to 4, 5 to 7, 8 to 10, ... (1 alone).

    >>> band(1), band(2), band(7), band(11)
    ((1, 1), (2, 4), (5, 7), (11, 13))
    """
    if length <= 1:
        return length, length
    low = 2 + (length - 2) // 3 * 3
    return low, low + 2


def under(length: int) -> int:
    """The ``under N moves`` of a hint: the next even number above the length.

    >>> under(7), under(8)
    (8, 10)
    """
    return length + 2 - length % 2


def hint(state: State, level: int) -> dict[str, Any]:
    """A graded hint (the ``hints`` feature), level 1 to 4: the length's band (``5 to 7 moves``), an upper bound
    (``under 8 moves``), the exact length, the whole solution. Each is ``{"level", "kind", "text", ...}``; there is
    no hint from a solved position."""
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= len(HINT_LEVELS):
        raise StateError(say("ricochet.error.hint_level", levels=len(HINT_LEVELS), level=repr(level)))
    if state.is_over():
        raise StateError(say("ricochet.error.hint_solved") if _solved(state) else
                         say("ricochet.error.hint_over", limit=MOVE_LIMIT))
    solution = solve(state)
    kind = HINT_LEVELS[level - 1]
    if not solution.found:
        text = say("ricochet.hint.unreachable")
        return {"level": level, "kind": "none", "text": text, **coded(text)}
    length = solution.cost

    if kind == "band":
        low, high = band(length)
        text = say("ricochet.hint.moves", count=low) if low == high else say("ricochet.hint.band", low=low, high=high)
        return {"level": level, "kind": kind, "text": text, **coded(text), "low": low, "high": high}
    if kind == "under":
        text = say("ricochet.hint.under", moves=under(length))
        return {"level": level, "kind": kind, "text": text, **coded(text), "under": under(length)}
    if kind == "length":
        text = say("ricochet.hint.moves", count=length)
        return {"level": level, "kind": kind, "text": text, **coded(text), "length": length}
    line = [state.move_to_str(m) for m in solution.moves]
    return {"level": level, "kind": kind, "text": " ".join(line), "moves": line, "length": length}


# ----- puzzles ------------------------------------------------------------------------------------------
def puzzle_state(text: str, options: dict[str, Any]) -> RicochetState:
    """The ``puzzle`` feature: a state from one of our puzzle ids, a DriftingDroids game id or the JSON form (a
    position's later fields may follow an id), on a game whose options ricochet, rebound, silver and transparent
    are the puzzle's. An option given in ``options`` wins for ricochet and rebound (``--opt ricochet=strict``
    solves a DriftingDroids puzzle under the strict rule); silver and transparent, given, must be the puzzle's.

    >>> puzzle_state("7650+42+E2302B12+C9", {"ricochet": "strict"}).puzzle.ricochet
    'strict'
    """
    from damier.core import registry

    chosen = INFO.options.validate(options, INFO.name)
    if not isinstance(text, str):
        raise ParseError(say("ricochet.error.puzzle_text_type", type=type(text).__name__))
    words = text.strip().split() if not text.strip().startswith("{") else [text.strip()]
    if not words:
        raise ParseError(say("ricochet.error.puzzle_empty_give"))
    puzzle = notation.parse_puzzle_json(words[0]) if words[0].startswith("{") else notation.parse_puzzle_id(words[0])
    for name in ("silver", "transparent"):
        if name in options and chosen[name] != getattr(puzzle, name):
            robot = nested(say("ricochet.word.robot", robot=name))
            raise OptionError(say("ricochet.error.option_puzzle_has", option=repr(name), robot=robot)
                              if getattr(puzzle, name) else
                              say("ricochet.error.option_puzzle_has_no", option=repr(name), robot=robot))
    ricochet = chosen["ricochet"] if "ricochet" in options else puzzle.ricochet
    rebound = chosen["rebound"] if "rebound" in options else puzzle.rebound
    puzzle = dataclasses.replace(puzzle, ricochet=ricochet, rebound=rebound)
    chosen.update(ricochet=ricochet, rebound=rebound, silver=puzzle.silver, transparent=puzzle.transparent)
    game = registry.load(INFO.name, **chosen)
    assert isinstance(game, RicochetGame)
    return game.state_from_position(" ".join([notation.puzzle_id(puzzle), *words[1:]]))
