"""The built-in games, one package each; a package's ``__init__`` declares its ``GameInfo`` (no kernels)."""

from __future__ import annotations

import importlib

from damier.core import registry

BUILTIN_GAMES = (
    "damier.games.atoms", "damier.games.khet", "damier.games.micro", "damier.games.ricochet", "damier.games.jewels",
)


def register_builtin_games() -> None:
    for module_name in BUILTIN_GAMES:
        registry.register(importlib.import_module(module_name).INFO)
