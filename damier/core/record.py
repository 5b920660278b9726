"""Game records: a JSON file with the game, its options, seed, players, moves in notation and the result.

A record replays to exactly the same final state (OpenSpiel's rule: the game string plus the moves is enough).
Files are written atomically: a crash never leaves half a record behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from damier.core import registry
from damier.core.errors import DamierError, RecordError
from damier.core.game import Outcome, State, check_header
from damier.core.messages import cause_of, nested, say

RECORD_FORMAT = "damier.record"
RECORD_VERSION = 1


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Record:
    """A finished or unfinished game, as people and programs exchange it."""

    game: str
    options: dict[str, Any]
    moves: list[str]
    players: list[str] = field(default_factory=list)
    seed: int | None = None
    start: str | None = None
    result: Outcome | None = None
    started_at: str = field(default_factory=now_iso)
    finished_at: str | None = None
    rules_version: int = 1

    @classmethod
    def from_state(cls, state: State, players: list[str] | None = None, started_at: str | None = None,
                   result: Outcome | None = None) -> Record:
        """The record of the game that led to ``state``; ``result`` for a game that ended outside its rules
        (resignation, agreement, forfeit: ``damier.core.game.resignation`` ...) before the moves ended it."""
        outcome = state.outcome() or result
        return cls(
            game=state.game.name,
            rules_version=state.game.rules_version,
            options=dict(state.game.options),
            moves=state.moves_in_notation(),
            players=list(players) if players else list(state.game.player_names),
            seed=state.seed,
            start=state.start,
            result=outcome,
            started_at=started_at or now_iso(),
            finished_at=now_iso() if outcome else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": self.options,
            "seed": self.seed,
            "start": self.start,
            "players": self.players,
            "moves": self.moves,
            "result": self.result.to_json() if self.result else None,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
        }

    @classmethod
    def from_json(cls, obj: Any) -> Record:
        """Check and read a record object; ``RecordError`` says what is wrong."""
        check_header(obj, "record", RECORD_FORMAT, RECORD_VERSION)
        for key, kind in (("game", str), ("options", Mapping), ("moves", list), ("players", list)):
            if not isinstance(obj.get(key), kind):
                raise RecordError(say("rules.record.field", field=repr(key), kind=kind.__name__))
        if not all(isinstance(m, str) for m in obj["moves"]):
            raise RecordError(say("rules.record.moves"))
        seed = obj.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError(say("rules.record.seed", value=repr(seed)))
        result = Outcome.from_json(obj["result"]) if obj.get("result") is not None else None
        rules_version = obj.get("rules_version", 1)
        if not isinstance(rules_version, int) or isinstance(rules_version, bool) or rules_version < 1:
            raise RecordError(say("rules.record.positive_version", value=repr(rules_version)))
        return cls(
            rules_version=rules_version,
            game=obj["game"],
            options=dict(obj["options"]),
            moves=list(obj["moves"]),
            players=[str(p) for p in obj["players"]],
            seed=seed,
            start=obj.get("start"),
            result=result,
            started_at=str(obj.get("started_at") or ""),
            finished_at=obj.get("finished_at"),
        )

    def replay(self) -> State:
        """Replay the moves; the final state. ``RecordError`` if the game, an option or a move is bad."""
        try:
            game = registry.load(self.game, **self.options)
        except DamierError as exc:
            raise RecordError(say("rules.record.game", error=cause_of(exc))) from None
        game.check_rules_version({"rules_version": self.rules_version}, "record")
        state = game.replay(self.moves, seed=self.seed, start=self.start)
        if self.result is not None:
            final = state.outcome()
            if final is None and self.result.is_early:
                return state  # resigned, agreed or forfeited before the moves ended the game
            if final is None or final.winner != self.result.winner or final.cost != self.result.cost:
                raise RecordError(say("rules.record.result", said=repr(self.result.reason),
                                      reason=nested(state.outcome_reason())))
        return state

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record to ``path`` atomically (a temporary file renamed into place)."""
        write_json_atomic(Path(path), self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Record:
        """Read a record file; ``RecordError`` if it is missing, not JSON, or not a record."""
        return cls.from_json(read_json(Path(path)))


def read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(say("rules.file.missing", path=str(path))) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(say("rules.file.unreadable", path=str(path), error=str(exc))) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(say("rules.file.not_json", path=str(path), line=str(exc.lineno), column=str(exc.colno),
                              error=exc.msg)) from None


def write_json_atomic(path: Path, obj: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(obj, handle, indent=2)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
