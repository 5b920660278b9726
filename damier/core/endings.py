"""Why a game ended: ``Termination`` codes. Core declares the ways any game may end (a resignation, a clock, a
repetition); a game declares its own in its registration (``GameInfo.endings``), with the mark a move list puts
after the move that ended a game so.

>>> Termination.of("resignation") is Termination.RESIGNATION
True
>>> hit = Termination("comet_hit", "a comet hit the planet", mark="#")
>>> declare(hit); Termination.of("comet_hit") is hit
True
>>> Termination.of("nope")
Traceback (most recent call last):
...
ValueError: unknown termination code 'nope'
"""

from __future__ import annotations

from typing import ClassVar

_DECLARED: dict[str, Termination] = {}


class Termination:
    """A way a game ends (python-chess's ``Termination``): the code behind ``Outcome.reason``'s words. ``value`` is
    the code written in records and the API; ``mark`` what a move list adds to the mark of the move that ended a
    game so (``"#"`` after a laser's deciding hit, as chess's mate sign), ``""`` for none. Two with the same code
    are the same ending."""

    __slots__ = ("mark", "meaning", "value")

    ELIMINATION: ClassVar[Termination]
    REPETITION: ClassVar[Termination]
    MOVE_LIMIT: ClassVar[Termination]
    GOAL: ClassVar[Termination]
    SOLVED: ClassVar[Termination]
    RESIGNATION: ClassVar[Termination]
    AGREEMENT: ClassVar[Termination]
    FORFEIT: ClassVar[Termination]
    TIME: ClassVar[Termination]
    ABORTED: ClassVar[Termination]
    ABANDONMENT: ClassVar[Termination]
    UNFINISHED: ClassVar[Termination]
    UNKNOWN: ClassVar[Termination]

    def __init__(self, value: str, meaning: str, mark: str = "") -> None:
        self.value = value
        self.meaning = meaning
        self.mark = mark

    @staticmethod
    def of(code: str) -> Termination:
        """The ending declared with ``code`` (by core or by a registered game); ``ValueError`` if none is."""
        try:
            return _DECLARED[code]
        except (KeyError, TypeError):
            raise ValueError(f"unknown termination code {code!r}") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Termination) and other.value == self.value

    def __hash__(self) -> int:
        return hash(self.value)

    @property
    def name(self) -> str:
        """The code's name as a constant (``PHARAOH_HIT``), as an enum member's."""
        return self.value.upper()

    def __repr__(self) -> str:
        return f"<Termination.{self.name}: {self.value!r}>"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return Termination.of, (self.value,)  # unpickled as the one declared (``is`` keeps working)


def declare(ending: Termination) -> None:
    """Make ``ending`` known by its code (``Termination.of``, records); a game's endings are declared when it is
    registered. Declaring again the same code with another mark is a mistake (``ValueError``)."""
    known = _DECLARED.get(ending.value)
    if known is not None and known is not ending and (known.mark, known.meaning) != (ending.mark, ending.meaning):
        raise ValueError(f"termination code {ending.value!r} is declared already, otherwise")
    if known is None:
        _DECLARED[ending.value] = ending


def declared() -> list[Termination]:
    """Every ending known, core's first."""
    return list(_DECLARED.values())


def _core(name: str, value: str, meaning: str) -> None:
    ending = Termination(value, meaning)
    declare(ending)
    setattr(Termination, name, ending)


_core("ELIMINATION", "elimination", "every other player was eliminated")
_core("REPETITION", "repetition", "a position occurred for the third time (automatic, or claimed)")
_core("MOVE_LIMIT", "move_limit", "a limit of moves was reached (plies with no piece removed, a game's ply cap)")
_core("GOAL", "goal", "a player reached the goal of the game (a race, a score)")
_core("SOLVED", "solved", "a puzzle was solved (single-player games)")
_core("RESIGNATION", "resignation", "a player resigned (or gave a puzzle up)")
_core("AGREEMENT", "agreement", "the players agreed to a draw")
_core("FORFEIT", "forfeit", "a player could not give a move (an engine that crashed, timed out or answered an "
                            "illegal move)")
_core("TIME", "time", "a player's clock ran out (the arcade's time controls)")
_core("ABORTED", "aborted", "the game was called off before every player had made a first move: nobody wins or "
                            "loses (lichess's abort)")
_core("ABANDONMENT", "abandonment", "a player left a game under way, and another claimed the win or a draw")
_core("UNFINISHED", "unfinished", "nobody moved for so long that the game was ended unfinished: nobody wins or "
                                  "loses")
_core("UNKNOWN", "unknown", "a result written before damier recorded why games end")
