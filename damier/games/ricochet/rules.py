"""Ricochet Robots with the transparent robot: the ``Game`` and ``State`` facade of the one-player puzzle.

>>> import damier
>>> state = damier.load("ricochet").state_from_position("1A2A3A4A.0F00F0FF.v")
>>> [state.move_to_str(m) for m in state.legal_moves()][:6]
['RS', 'RW', 'GE', 'GS', 'BN', 'BE']
>>> state.play(state.parse_move("RS")); state.move_to_str(state.history[-1]), state.moves_used
('RS', 1)
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from damier.core.errors import IllegalMoveError, OptionError, ParseError, StateError
from damier.core.game import TERMINAL, Game, Outcome, State, Termination, solved
from damier.core.messages import nested, say
from damier.games.ricochet import INFO, kernel, notation, setup
from damier.games.ricochet.notation import DIRECTIONS, LETTERS, Puzzle
from damier.games.ricochet.setup import Target

ROBOTS = 6
TRANSPARENT = 5
#: a puzzle not solved when this many moves are used ends unsolved (``Termination.MOVE_LIMIT``): far above any
#: optimum (the hardest 4-robot puzzles take 25), it lets random play and RL episodes end
MOVE_LIMIT = 100
#: moves: robot * 4 + direction for the five sliding robots, then the transparent robot's (direction, walls passed)
FIRST_TRANSPARENT = 5 * 4
NUM_MOVES = FIRST_TRANSPARENT + 4 * kernel.MAX_PASS


def move_of(robot: int, direction: int, passes: int = 0) -> int:
    if robot == TRANSPARENT:
        return FIRST_TRANSPARENT + direction * kernel.MAX_PASS + passes
    return robot * 4 + direction


def parts_of(move: int) -> tuple[int, int, int]:
    """(robot, direction, walls passed) of a move."""
    if move >= FIRST_TRANSPARENT:
        direction, passes = divmod(move - FIRST_TRANSPARENT, kernel.MAX_PASS)
        return TRANSPARENT, direction, passes
    return move // 4, move % 4, 0


class RicochetGame(Game):
    """Ricochet Robots puzzles by the options: the board, the rule modes, the silver and transparent robots."""

    info = INFO

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.board_option: str = self.options["board"]
        self.ricochet: str = self.options["ricochet"]
        self.rebound: bool = self.options["rebound"]
        self.silver: bool = self.options["silver"]
        self.transparent: bool = self.options["transparent"]
        self.difficulty: int = self.options["difficulty"]
        if self.difficulty == 1:
            raise OptionError(say("ricochet.error.option_difficulty"))
        if self.board_option != "random":
            try:
                self.board_option = "".join(setup.parse_sides(self.board_option))
            except ParseError as exc:
                cause = exc.args[0] if len(exc.args) == 1 else str(exc)  # its code too, when it has one
                raise OptionError(say("ricochet.error.option_board", error=nested(cause))) from None

    @property
    def num_players(self) -> int:
        return 1

    @property
    def board_shape(self) -> tuple[int, int]:
        return (setup.SIZE, setup.SIZE)

    @property
    def num_moves(self) -> int:
        return NUM_MOVES

    @property
    def player_names(self) -> tuple[str, ...]:
        return ("Player",)

    def draw_puzzle(self, rng: random.Random, robots: tuple[int, ...] | None = None,
                    board_id: str | None = None, difficulty: int | None = None,
                    targets: Sequence[Target] | None = None) -> Puzzle:
        """A puzzle drawn with ``rng`` by the options: robots on free cells that are not target squares (or
        ``robots``), a target (one of ``targets`` when given, else any of the board's) no robot solves in 0 or 1
        moves, of the ``difficulty`` (the option's, unless one is given; 0 for any) when the game has a solver."""
        board = setup.build(board_id or (setup.random_board_id(rng) if self.board_option == "random"
                                          else self.board_option))
        wanted = self.difficulty if difficulty is None else difficulty
        free = [c for c in range(setup.CELLS) if not board.blocked[c] and board.target_at(c) is None]
        # with the robots given (the race's next round), each target is tried once, in a random order
        pool = list(board.targets if targets is None else targets)
        order = rng.sample(pool, len(pool)) if robots is not None else []
        for attempt in range(len(order) or 200):
            if robots is None:
                count = 4 + int(self.silver) + int(self.transparent)
                cells = rng.sample(free, count)
                placed = cells[:4] + ([cells[4]] if self.silver else [-1])
                placed += [cells[-1]] if self.transparent else [-1]
                target = rng.choice(pool)
            else:
                placed, target = list(robots), order[attempt]
            puzzle = notation.check(board, tuple(placed), target, self.ricochet, self.rebound)
            state = RicochetState(self, puzzle, seed=None, start=None)
            if state.is_over() or any(state.solved_after(m) for m in state.legal_moves()):
                continue  # 0- or 1-move puzzles are not puzzles
            if wanted and self.info.has("solver"):
                found = self.info.hook("solver")(state, wanted, None)
                if not found.found or found.cost != wanted:
                    continue
            return puzzle
        raise StateError(say("ricochet.error.no_puzzle", moves=wanted, board=board.board_id) if wanted else
                         say("ricochet.error.no_puzzle_robots", board=board.board_id))

    def new_state(self, seed: int | None = None) -> RicochetState:
        """The puzzle that ``seed`` draws (None is seed 0); its ``start`` is its puzzle id, so records replay it."""
        puzzle = self.draw_puzzle(random.Random(0 if seed is None else seed))
        return RicochetState(self, puzzle, seed=seed, start=notation.puzzle_id(puzzle))

    def state_from_position(self, position: str, seed: int | None = None) -> RicochetState:
        """A state from a position, a puzzle id (ours or DriftingDroids') or the JSON form; the puzzle's robots
        and rules must be those of the game's options."""
        text = position.strip() if isinstance(position, str) else position
        if isinstance(text, str) and text.startswith("{"):
            puzzle = notation.parse_puzzle_json(text)
            return self._state(puzzle, seed, notation.puzzle_id(puzzle))
        if not isinstance(text, str):
            raise ParseError(say("ricochet.error.position_type", type=type(text).__name__))
        fields = text.split()
        if not fields:
            raise ParseError(say("ricochet.error.position_empty"))
        puzzle = notation.parse_puzzle_id(fields[0])
        state = self._state(puzzle, seed, text)
        if len(fields) > 1:
            state.set_progress(fields[1:])
        return state

    def _state(self, puzzle: Puzzle, seed: int | None, start: str) -> RicochetState:
        for name, wanted, has in (("silver", self.silver, puzzle.silver),
                                  ("transparent", self.transparent, puzzle.transparent),
                                  ("ricochet", self.ricochet, puzzle.ricochet),
                                  ("rebound", self.rebound, puzzle.rebound)):
            if wanted != has:
                raise ParseError(say("ricochet.error.puzzle_rules", name=name, has=repr(has), wanted=repr(wanted)))
        return RicochetState(self, puzzle, seed=seed, start=start)


@lru_cache(maxsize=64)
def stops_of(board: setup.Board) -> np.ndarray:
    """The board's table of stops (``kernel.stop_table``), made once per board (the solver's too)."""
    out = np.empty(setup.CELLS * 4, dtype=np.int64)
    kernel.stop_table(board.walls, out)
    return out


class RicochetState(State):
    """A Ricochet Robots puzzle in play: the robots' cells, the cost used, what the ricochet and rebound rules
    remember (each robot's last direction and whether it turned, the last move)."""

    game: RicochetGame

    def __init__(self, game: RicochetGame, puzzle: Puzzle, seed: int | None, start: str | None) -> None:
        self.game = game
        self.seed = seed
        self.start = start
        self.history = []
        self.puzzle = puzzle
        self.robots = np.array(puzzle.robots, dtype=np.int64)
        self.cost = 0
        self.last_dir = [-1] * ROBOTS
        self.turned = [False] * ROBOTS
        self.last_move = -1
        self._trail: list[tuple[int, int, int, int, bool, int]] = []
        board = puzzle.board
        self._coloured = np.array([t is not None and t.shape != "vortex" for t in map(board.target_at,
                                                                                       range(setup.CELLS))])

    # ----- the rules ------------------------------------------------------------------------------------
    @cached_property
    def _trivial(self) -> frozenset[int]:
        """The robots that could finish at the puzzle's start in 0 or 1 straight moves (the ``if_trivial`` rule)."""
        first = RicochetState.__new__(RicochetState)
        first.__dict__.update({k: v for k, v in self.__dict__.items() if k != "_trivial"})
        first.robots = np.array(self.puzzle.robots, dtype=np.int64)
        first.last_dir, first.turned, first.last_move, first.history = [-1] * ROBOTS, [False] * ROBOTS, -1, []
        out = {r for r in range(ROBOTS) if first._on_target(r)}
        for m in first._moves():
            r, _, k = parts_of(m)
            if k == 0 and first._destination(m) == self.puzzle.target.cell and self._may_finish(r):
                out.add(r)
        return frozenset(out)

    def _may_finish(self, robot: int) -> bool:
        target = self.puzzle.target
        if target.shape == "vortex":
            return True
        return robot < 4 and notation.ROBOT_NAMES[robot] == target.colour

    def _on_target(self, robot: int) -> bool:
        return self.robots[robot] == self.puzzle.target.cell and self._may_finish(robot)

    def _rule_met(self, robot: int, turned: bool) -> bool:
        mode = self.puzzle.ricochet
        if mode == "strict":
            return turned
        if mode == "if_trivial" and robot in self._trivial:
            return turned
        return True

    def _finisher(self) -> int:
        """The robot that solved the puzzle, or -1."""
        robots = self.robots.tolist()
        if self.puzzle.target.cell not in robots:
            return -1
        for r in range(ROBOTS):
            if robots[r] >= 0 and self._on_target(r) and self._rule_met(r, self.turned[r]):
                return r
        return -1

    def _generated(self) -> dict[int, int]:
        """Every move of the position and where it takes its robot, from the kernel's one move generator (the
        solver's too): the robots on the board in slots, in order. Kept for the position (a move played asks for
        them again to find where it goes); never changed once made."""
        key = (self.robots.tobytes(), self.last_move)
        kept: tuple[tuple[bytes, int], dict[int, int]] | None = self.__dict__.get("_kept_moves")
        if kept is not None and kept[0] == key:
            return kept[1]
        generated = self._generate()
        self._kept_moves = (key, generated)
        return generated

    def _generate(self) -> dict[int, int]:
        b = self.puzzle.board
        present = [r for r in range(ROBOTS) if self.robots[r] >= 0]
        cells = self.robots[present].copy()
        last_s, last_d = -1, 0
        if self.last_move >= 0:
            last_r, last_d, _ = parts_of(self.last_move)
            last_s = present.index(last_r)
        out = np.empty((kernel.MOVES, 4), dtype=np.int64)
        cbuf = np.empty(kernel.MAX_PASS, dtype=np.int64)
        pbuf = np.empty(kernel.MAX_PASS, dtype=np.int64)
        tslot = present.index(TRANSPARENT) if TRANSPARENT in present else -1
        count = kernel.moves(b.walls, b.solid, self._coloured, stops_of(b), cells, len(present), tslot, last_s, last_d,
                             self.puzzle.rebound, out, cbuf, pbuf)
        return {move_of(present[slot], d, k): dest for slot, d, k, dest in out[:count].tolist()}

    def _destination(self, move: int) -> int:
        """Where ``move`` takes its robot; -1 if it is not a move here."""
        return self._generated().get(move, -1)

    def _moves(self) -> list[int]:
        return sorted(self._generated())

    def solved_after(self, move: int) -> bool:
        """Whether playing ``move`` now solves the puzzle."""
        self._apply(move)
        try:
            return self._finisher() >= 0
        finally:
            self.undo()

    # ----- contract -------------------------------------------------------------------------------------
    @property
    def moves_used(self) -> int:
        """The cost used: one per move, plus one per wall the transparent robot passed."""
        return self.cost

    @property
    def player(self) -> int:
        return TERMINAL if self.cost >= MOVE_LIMIT or self._finisher() >= 0 else 0

    def legal_moves(self) -> list[int]:
        return [] if self.player == TERMINAL else self._moves()

    def is_legal(self, move: int) -> bool:
        return 0 <= move < NUM_MOVES and self.player != TERMINAL and move in self._generated()

    def _apply(self, move: int) -> None:
        r, d, k = parts_of(move)
        self._trail.append((r, int(self.robots[r]), self.last_dir[r], self.last_move, self.turned[r], self.cost))
        self.robots[r] = self._destination(move)
        if self.last_dir[r] >= 0 and self.last_dir[r] % 2 != d % 2:
            self.turned[r] = True
        self.last_dir[r] = d
        self.last_move = move
        self.cost += 1 + k
        self.history.append(move)

    def undo(self) -> None:
        if not self._trail:
            raise StateError(say("ricochet.error.no_undo"))
        r, cell, last_dir, last_move, turned, cost = self._trail.pop()
        self.robots[r], self.last_dir[r], self.last_move, self.turned[r], self.cost = cell, last_dir, last_move, \
            turned, cost
        self.history.pop()

    def copy(self) -> RicochetState:
        other = RicochetState.__new__(RicochetState)
        other.__dict__.update(self.__dict__)
        other.robots = self.robots.copy()
        other.history, other._trail = list(self.history), list(self._trail)
        other.last_dir, other.turned = list(self.last_dir), list(self.turned)
        return other

    @cached_property
    def _optimum(self) -> int | None:
        if not self.game.info.has("solver"):
            return None
        # from the puzzle's start, also when this state was set up from a position later in it
        found = self.game.info.hook("solver")(RicochetState(self.game, self.puzzle, None, None), None, None)
        return found.cost if found.found else None

    def outcome(self) -> Outcome | None:
        if self.player != TERMINAL:
            return None
        if self._finisher() < 0:
            return Outcome(winner=None, returns=(0.0,), reason=say("ricochet.outcome.limit", limit=MOVE_LIMIT),
                           termination=Termination.MOVE_LIMIT, cost=self.cost)
        return solved(self.cost, self._optimum)

    # ----- notation -------------------------------------------------------------------------------------
    def move_to_str(self, move: int) -> str:
        if not isinstance(move, int | np.integer) or isinstance(move, bool) or not 0 <= move < NUM_MOVES:
            raise IllegalMoveError(f"{move!r} is not a move of this game (0 to {NUM_MOVES - 1})")
        r, d, k = parts_of(int(move))
        return f"{LETTERS[r]}{DIRECTIONS[d]}{k if k else ''}"

    def parse_move(self, text: str) -> int:
        word = text.strip().upper() if isinstance(text, str) else ""
        if len(word) < 2 or word[0] not in LETTERS or word[1] not in DIRECTIONS or not (
                word[2:] == "" or (word[2:].isdigit() and word[0] == "T")):
            raise ParseError(say("ricochet.error.not_a_move", text=repr(text)))
        r = LETTERS.index(word[0])
        k = int(word[2:] or 0)
        if k >= kernel.MAX_PASS:
            raise ParseError(say("ricochet.error.too_many_walls", text=repr(text), walls=kernel.MAX_PASS - 1))
        if self.robots[r] < 0:
            robot = nested(say("ricochet.word.robot", robot=notation.ROBOT_NAMES[r]))
            raise IllegalMoveError(say("ricochet.error.no_robot", robot=robot))
        move = move_of(r, DIRECTIONS.index(word[1]), k)
        if self.player == TERMINAL:
            raise IllegalMoveError(say("ricochet.error.puzzle_over", reason=nested(self.outcome_reason())))
        if not self.is_legal(move):
            raise IllegalMoveError(say("ricochet.error.moves_nothing", move=word,
                                       legal=nested(self._legal_summary())))
        return move

    def position(self) -> str:
        """The puzzle id, then, once a move is used, the robots' cells now, the cost used, each robot's memory (its
        last direction, in capitals once it turned; ``-`` before it moved) and the last move. Before the first move
        (and after every move is taken back) the position is the puzzle id alone."""
        if self.cost == 0:
            return notation.puzzle_id(self.puzzle)
        cells = "".join("--" if c < 0 else f"{c:02X}" for c in self.robots)
        memory = "".join("-" if self.last_dir[r] < 0 else (DIRECTIONS[self.last_dir[r]] if self.turned[r]
                                                            else DIRECTIONS[self.last_dir[r]].lower())
                         for r in range(ROBOTS))
        last = self.move_to_str(self.last_move) if self.last_move >= 0 else "-"
        return f"{notation.puzzle_id(self.puzzle)} {cells} {self.cost} {memory} {last}"

    def set_progress(self, fields: list[str]) -> None:
        """The robots, cost and memory of a position's later fields (see ``position``); ``ParseError`` naming what
        is wrong or does not fit together."""
        if self.history or len(fields) != 4:
            raise ParseError(say("ricochet.error.position_fields"))
        cells_text, cost_text, memory, last = fields
        if not re.fullmatch(r"([0-9A-Fa-f]{2}|--){6}", cells_text) or not re.fullmatch(r"[0-9]{1,6}", cost_text) \
                or not re.fullmatch(r"[-neswNESW]{6}", memory):
            raise ParseError(say("ricochet.error.position_syntax"))
        cells = [-1 if cells_text[i:i + 2] == "--" else int(cells_text[i:i + 2], 16) for i in range(0, 12, 2)]
        if [c < 0 for c in cells] != [c < 0 for c in self.puzzle.robots]:
            raise ParseError(say("ricochet.error.position_robots"))
        if any(cells[r] < 0 and memory[r] != "-" for r in range(ROBOTS)):
            raise ParseError(say("ricochet.error.position_no_memory"))
        notation.check(self.puzzle.board, tuple(cells), self.puzzle.target, self.puzzle.ricochet,
                       self.puzzle.rebound)
        cost = int(cost_text)
        last_move = -1 if last == "-" else self.parse_move_text(last)
        if (cost == 0) != (last_move < 0) or (cost == 0 and memory != "-" * ROBOTS):
            raise ParseError(say("ricochet.error.position_start"))
        if cost == 0 and tuple(cells) != self.puzzle.robots:
            raise ParseError(say("ricochet.error.position_start_robots"))
        if last_move >= 0:
            r, d, _ = parts_of(last_move)
            if cells[r] < 0 or memory[r].upper() != DIRECTIONS[d]:
                raise ParseError(say("ricochet.error.position_last", last=last, memory=memory))
        self.robots = np.array(cells, dtype=np.int64)
        self.cost = cost
        self.last_dir = [-1 if ch == "-" else DIRECTIONS.index(ch.upper()) for ch in memory]
        self.turned = [ch.isupper() for ch in memory]
        self.last_move = last_move

    def parse_move_text(self, text: str) -> int:
        """A move's int from its notation, legal or not (a position's last move); ``ParseError`` if malformed."""
        match = re.fullmatch(r"([RGBYS])([NESW])|(T)([NESW])([0-9]{0,2})", text.strip().upper())
        if match is None or (match.group(3) and int(match.group(5) or 0) >= kernel.MAX_PASS):
            raise ParseError(say("ricochet.error.not_a_move_text", text=repr(text), walls=kernel.MAX_PASS - 1))
        if match.group(1):
            return move_of(LETTERS.index(match.group(1)), DIRECTIONS.index(match.group(2)))
        return move_of(TRANSPARENT, DIRECTIONS.index(match.group(4)), int(match.group(5) or 0))

    # ----- views ----------------------------------------------------------------------------------------
    def render_text(self) -> str:
        from damier.games.ricochet import view

        return view.render(self)

    def observation(self) -> np.ndarray:
        """float32 (12, 16, 16): walls N, E, S, W; each robot's cell (6 planes); the target; the centre block."""
        b = self.puzzle.board
        planes = np.zeros((12, setup.SIZE, setup.SIZE), dtype=np.float32)
        flat = planes.reshape(12, setup.CELLS)
        for d in range(4):
            flat[d] = (b.walls & setup.BITS[d]) != 0
        for r in range(ROBOTS):
            if self.robots[r] >= 0:
                flat[4 + r, self.robots[r]] = 1
        flat[10, self.puzzle.target.cell] = 1
        flat[11] = b.blocked
        return planes

    def events(self) -> list[dict[str, Any]]:
        """The last move: ``slide`` (robot, from, to, the cells crossed, the walls passed), then ``solved`` when it
        solved the puzzle."""
        if not self._trail:
            return []
        r, before, *_ = self._trail[-1]
        _, d, k = parts_of(self.history[-1])
        step = int(kernel.STEP[d])
        crossed = [setup.cell_name(c) for c in range(before + step, int(self.robots[r]) + step, step)]
        out: list[dict[str, Any]] = [{"type": "slide", "robot": notation.ROBOT_NAMES[r], "from":
                                      setup.cell_name(before), "to": setup.cell_name(int(self.robots[r])),
                                      "cells": crossed, "walls_passed": k}]
        outcome = self.outcome()
        if outcome is not None and outcome.termination is Termination.SOLVED:
            out.append({"type": "solved", "moves": outcome.cost, "optimum": outcome.optimum})
        return out

    def key(self) -> bytes:
        """The robots, and what the rule modes remember: each robot's last direction and turn, the last move."""
        return self.robots.tobytes() + bytes(self.turned) + bytes(d + 1 for d in self.last_dir) + bytes(
            [self.last_move + 1])

    def board_json(self, previews: bool = True) -> dict[str, Any]:
        from damier.games.ricochet import view

        return view.board_json(self)


def puzzle_state(text: str, options: dict[str, Any]) -> RicochetState:
    """The ``puzzle`` feature: a state from a puzzle id (ours or DriftingDroids'), a position or the JSON form, on a
    game made with ``options`` and the puzzle's own rules (its robots set ``silver`` and ``transparent``, its rule
    modes ``ricochet`` and ``rebound``).

    >>> puzzle_state("1A2A3A4A.0F00F0FF10.v.sx", {}).game.options["ricochet"]
    'strict'
    """
    from damier.core import registry

    if not isinstance(text, str):
        raise ParseError(say("ricochet.error.puzzle_type", type=type(text).__name__))
    word = text.strip()
    if word.startswith("{"):
        puzzle = notation.parse_puzzle_json(word)
    elif word:
        puzzle = notation.parse_puzzle_id(word.split()[0])
    else:
        raise ParseError(say("ricochet.error.puzzle_empty"))
    chosen = {**options, "silver": puzzle.silver, "transparent": puzzle.transparent, "ricochet": puzzle.ricochet,
              "rebound": puzzle.rebound}
    game = registry.load(INFO.name, **chosen)
    assert isinstance(game, RicochetGame)
    return game.state_from_position(word)
