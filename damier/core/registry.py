"""The registry of games: names, metadata and options, available without importing any rules kernel.

A game declares a ``GameInfo`` in its package ``__init__`` (cheap to import); ``load`` imports the rules
module only when a game is actually created, so ``damier games`` starts fast and compiles nothing.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from damier.core.errors import UnknownGameError
from damier.core.options import OptionSet

if TYPE_CHECKING:
    from damier.core.game import Game


@dataclass(frozen=True)
class GameInfo:
    """Everything known about a game before its rules are imported."""

    name: str
    title: str
    description: str
    options: OptionSet
    factory: str  # "package.module:ClassName" of the Game subclass
    players: str = "2"  # how many players, in words ("2", "2 to 8")
    has_chance: bool = False
    #: computer levels, each an agent spec string (``easy``, ``medium``, ``hard``) for this game
    levels: dict[str, str] = field(default_factory=dict)
    #: named agents specific to this game (``atoms-classic``), each an agent spec string
    agents: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "players": self.players,
            "has_chance": self.has_chance,
            "options": [o.to_json() for o in self.options.options],
            "levels": dict(self.levels),
            "agents": dict(self.agents),
        }

    def game_class(self) -> type[Game]:
        module_name, _, class_name = self.factory.partition(":")
        cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
        return cls


_REGISTRY: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    """Add a game (built-in games register themselves; tests and plug-ins may add more)."""
    _REGISTRY[info.name] = info


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)


def info(name: str) -> GameInfo:
    """The ``GameInfo`` of a registered game, or ``UnknownGameError`` listing the known names."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in _REGISTRY:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[key]


def all_infos() -> list[GameInfo]:
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def load(name: str, **options: Any) -> Game:
    """Create the game ``name`` with ``options`` (validated; unknown options raise ``OptionError``)."""
    return info(name).game_class()(**options)
