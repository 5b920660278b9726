"""A race room: people race on the same puzzle of a puzzle game, round after round (the game's ``race`` feature:
``damier.core.race``). The room holds its stored row, the game with its race and rules, the log its events fold
into, and the timer that enforces the deadline running now."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from damier.core import registry
from damier.core.game import Game
from damier.core.race import Race, RaceRules
from damier.server.rooms.race import views as race_views
from damier.server.rooms.race.log import RaceLog, Settings, epoch
from damier.server.rooms.room import Room
from damier.server.storage import RaceRow


class RaceRoom(Room):
    """The room of one race: ``row`` is what the database holds (its events applied to ``log``)."""

    def __init__(self, row: RaceRow, game: Game, race: Race, rules: RaceRules, settings: Settings,
                 clock: Callable[[], float]) -> None:
        super().__init__(row.id)
        self.row = row
        self.game = game
        self.race = race
        self.rules = rules
        self.settings = settings
        self.log = RaceLog(game, rules, settings)
        self.clock = clock  # seconds since the epoch (the arcade's clock: tests may move it)
        self.timer: asyncio.Task[None] | None = None
        self.timer_deadline: float | None = None

    def seats(self) -> list[int]:
        return self.log.seats()

    def snapshot(self) -> dict[str, Any]:
        return race_views.view(self)

    def stop_timer(self) -> None:
        if self.timer is not None and not self.timer.done():
            self.timer.cancel()
        self.timer = None
        self.timer_deadline = None

    def release(self) -> None:
        """Stop the timer (the room leaves memory; the next request loads it and enforces what ran out) and
        disconnect the watchers."""
        self.stop_timer()
        super().release()

    def close(self) -> None:
        self.stop_timer()
        super().close()


def race_of(game: Game) -> Race:
    """The game's race (its ``race`` feature)."""
    race: Race = registry.info(game.name).hook("race")
    return race


def build(row: RaceRow, clock: Callable[[], float]) -> RaceRoom:
    """A stored race's room: its events applied in order (each round's puzzle made again from its start)."""
    game = registry.load(row.game, **row.options)
    race = race_of(game)
    rules = race.rules(game)
    settings = Settings.read(row.settings, rules)
    room = RaceRoom(row, game, race, rules, settings, clock)
    for event in row.events:
        room.log.apply(event.kind, event.seat, event.data, epoch(event.at))
    return room
