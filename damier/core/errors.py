"""Typed errors of damier: every one is a ``ValueError`` whose message says what was wrong and what is accepted.

Like python-chess, parsing failures and illegal moves are different errors, so a caller can tell a typo from
a move the rules forbid.
"""

from __future__ import annotations


class DamierError(ValueError):
    """Base class of every error damier raises on bad input."""


class OptionError(DamierError):
    """An unknown game option, or an option value outside what the game accepts."""


class UnknownGameError(DamierError):
    """A game name that is not registered."""


class ParseError(DamierError):
    """Text that is not valid notation (a move, a square, a position) for this game."""


class IllegalMoveError(DamierError):
    """A well-formed move that the rules do not allow in this position."""


class StateError(DamierError):
    """An operation that the state cannot perform now (undo with no move played, play after the end, ...)."""


class RecordError(DamierError):
    """A game record or saved state that is not valid JSON of the expected format, or does not replay."""


class AgentSpecError(DamierError):
    """An agent spec string (``mcts:time=1.0``, ``hard``, ...) that names no agent or has a bad parameter."""


class FeatureError(DamierError):
    """A feature the game does not declare (``damier engine GAME`` for a game with no engine); the message names
    the games that have it."""
