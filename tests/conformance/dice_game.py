"""A test fixture, not a real game: a tiny two-player dice race ("pig") that gives the conformance suite chance nodes.

On your turn you roll a die as often as you like, adding each roll to a turn total, then hold to bank it.
Rolling a 1 loses the turn total and passes the turn. The first to bank ``target`` points wins. Every roll is a
chance node whose outcomes (the faces 1 to 6, probability 1/6 each) are moves chosen by the caller, as the
contract asks. The conformance conftest registers it as ``test-dice`` for the tests and removes it after.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from damier.core.errors import IllegalMoveError, ParseError, StateError
from damier.core.game import CHANCE, TERMINAL, Game, Outcome, State, Termination
from damier.core.options import Option, OptionSet
from damier.core.registry import GameInfo

ROLL, HOLD = 0, 1
FACE_1 = 2  # the move of face k is FACE_1 + k - 1
FACES = 6
NAMES = ("roll", "hold", *(str(face) for face in range(1, FACES + 1)))

OPTIONS = OptionSet((Option("target", int, 12, "points needed to win", None, 2, 100),))

INFO = GameInfo(
    name="test-dice",
    title="Test dice race",
    description="A tiny dice race used by the conformance tests to exercise chance nodes.",
    options=OPTIONS,
    factory="tests.conformance.dice_game:DiceGame",
    players="2",
    has_chance=True,
)


@dataclass(frozen=True)
class Position:
    """Everything about a moment of the game; immutable, so undo is a pop and copies share safely."""

    scores: tuple[int, int] = (0, 0)
    turn_total: int = 0
    current: int = 0  # whose turn it is (also during their roll)
    rolling: bool = False  # True at a chance node: the die is in the air
    winner: int | None = None


class DiceGame(Game):
    """Pig to ``target`` points for two players (a test fixture)."""

    info = INFO

    @property
    def num_players(self) -> int:
        return 2

    @property
    def board_shape(self) -> tuple[int, int]:
        return (1, 2)  # one score track per player

    @property
    def num_moves(self) -> int:
        return len(NAMES)

    @property
    def num_chance_outcomes(self) -> int:
        return len(NAMES)  # the faces are named 1 to 6 in the same space as roll and hold

    def new_state(self, seed: int | None = None) -> DiceState:
        return DiceState(self, Position(), seed=seed, start=None)

    def state_from_position(self, position: str, seed: int | None = None) -> DiceState:
        return DiceState(self, parse_position(position), seed=seed, start=position.strip())


class DiceState(State):
    """A position of the dice race with its history."""

    game: DiceGame

    def __init__(self, game: DiceGame, pos: Position, seed: int | None, start: str | None) -> None:
        self.game = game
        self.seed = seed
        self.start = start
        self.history = []
        self._pos = pos
        self._stack: list[tuple[Position, list[dict[str, Any]]]] = []
        self._events: list[dict[str, Any]] = []

    @property
    def player(self) -> int:
        if self._pos.winner is not None:
            return TERMINAL
        return CHANCE if self._pos.rolling else self._pos.current

    def legal_moves(self) -> list[int]:
        pos = self._pos
        if pos.winner is not None:
            return []
        if pos.rolling:
            return list(range(FACE_1, FACE_1 + FACES))
        return [ROLL, HOLD] if pos.turn_total > 0 else [ROLL]

    def is_legal(self, move: int) -> bool:
        return move in self.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(move, 1 / FACES) for move in self.legal_moves()] if self.player == CHANCE else []

    def _apply(self, move: int) -> None:
        pos, me = self._pos, self._pos.current
        self._stack.append((pos, self._events))
        if move == ROLL:
            new, events = replace(pos, rolling=True), [{"type": "roll", "player": me}]
        elif move == HOLD:
            scores = list(pos.scores)
            scores[me] += pos.turn_total
            won = scores[me] >= self.game.options["target"]
            new = Position((scores[0], scores[1]), 0, me if won else 1 - me, False, me if won else None)
            events = [{"type": "hold", "player": me, "banked": pos.turn_total}]
            if won:
                events.append({"type": "win", "player": me})
        else:
            face = move - FACE_1 + 1
            events = [{"type": "die", "player": me, "face": face}]
            if face == 1:
                new = Position(pos.scores, 0, 1 - me, False)
            else:
                new = replace(pos, turn_total=pos.turn_total + face, rolling=False)
        self._pos, self._events = new, events
        self.history.append(move)

    def undo(self) -> None:
        if not self._stack:
            raise StateError("there is no move to undo")
        self._pos, self._events = self._stack.pop()
        self.history.pop()

    def copy(self) -> DiceState:
        other = DiceState(self.game, self._pos, self.seed, self.start)
        other.history = list(self.history)
        other._stack = list(self._stack)
        other._events = self._events
        return other

    def outcome(self) -> Outcome | None:
        winner = self._pos.winner
        if winner is None:
            return None
        returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        return Outcome(winner, returns, f"{self.game.player_names[winner]} reached {self.game.options['target']}",
                       Termination.GOAL)

    def move_to_str(self, move: int) -> str:
        if not isinstance(move, int | np.integer) or not 0 <= move < len(NAMES):
            raise IllegalMoveError(f"{move!r} is not a move of this game (0 to {len(NAMES) - 1})")
        return NAMES[int(move)]

    def parse_move(self, text: str) -> int:
        word = text.strip().lower() if isinstance(text, str) else None
        if word not in NAMES:
            raise ParseError(f"{text!r} is not a move: write roll, hold, or a die face 1 to 6")
        move = NAMES.index(word)
        if not self.is_legal(move):
            raise IllegalMoveError(f"{word!r} is not legal now; legal: {self._legal_summary()}")
        return move

    def position(self) -> str:
        pos = self._pos
        phase = "-" if pos.winner is not None else "?" if pos.rolling else "."
        return f"{pos.scores[0]},{pos.scores[1]} {pos.turn_total} {pos.current} {phase}"

    def render_text(self) -> str:
        names = self.game.player_names
        lines = [f"{names[q]}: {self._pos.scores[q]}" for q in range(2)]
        lines.append(f"turn total {self._pos.turn_total}; {self.outcome_reason()}")
        return "\n".join(lines)

    def observation(self) -> np.ndarray:
        """float32 [own score, opponent score, turn total, rolling], scores relative to the target."""
        pos, me = self._pos, self._pos.current
        target = self.game.options["target"]
        return np.array(
            [pos.scores[me] / target, pos.scores[1 - me] / target, pos.turn_total / target, float(pos.rolling)],
            dtype=np.float32,
        )

    def events(self) -> list[dict[str, Any]]:
        return [dict(e) for e in self._events]

    def key(self) -> bytes:
        return self.position().encode()


def parse_position(text: str) -> Position:
    """The inverse of ``DiceState.position``: ``"scores turn_total current phase"``."""
    fields = text.split() if isinstance(text, str) else []
    try:
        scores_text, total_text, current_text, phase = fields
        scores = tuple(int(x) for x in scores_text.split(","))
        total, current = int(total_text), int(current_text)
    except ValueError:
        raise ParseError(f"{text!r} is not a dice position like '3,5 4 0 .'") from None
    if len(scores) != 2 or current not in (0, 1) or phase not in ".?-" or min(*scores, total) < 0:
        raise ParseError(f"{text!r} is not a dice position like '3,5 4 0 .'")
    return Position((scores[0], scores[1]), total, current, phase == "?", current if phase == "-" else None)
