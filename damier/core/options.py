"""Game options: declared once per game, validated in one place.

An option has a name, a default and either a set of allowed values or an integer range; ``validate`` turns a
mapping of user values (possibly strings from a command line) into a complete, checked dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from damier.core.errors import OptionError
from damier.core.messages import nested, say


@dataclass(frozen=True)
class Option:
    """One option of a game.

    >>> Option("rows", int, 8, minimum=2, maximum=26).accepted()
    'an integer from 2 to 26'
    >>> Option("setup", str, "classic", choices=("classic", "imhotep")).accepted()
    "one of 'classic', 'imhotep'"
    """

    name: str
    type: type
    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def accepted(self) -> str:
        """Describe the accepted values in words, for error messages and ``damier games``."""
        if self.choices is not None:
            return say("rules.option.accepted.choices", choices=", ".join(repr(c) for c in self.choices))
        if self.type is bool:
            return say("rules.option.accepted.bool")
        if self.type is int:
            if self.minimum is not None and self.maximum is not None:
                return say("rules.option.accepted.range", min=str(self.minimum), max=str(self.maximum))
            if self.minimum is not None:
                return say("rules.option.accepted.minimum", min=str(self.minimum))
            return say("rules.option.accepted.integer")
        return say("rules.option.accepted.type", type=self.type.__name__)

    def coerce(self, value: Any) -> Any:
        """Return ``value`` converted to the option's type and checked, or raise :class:`OptionError`."""
        converted = _convert(self, value)
        if self.choices is not None and converted not in self.choices:
            raise _not_accepted(self, value)
        if self.type is int and (
            (self.minimum is not None and converted < self.minimum)
            or (self.maximum is not None and converted > self.maximum)
        ):
            raise OptionError(say("rules.option.out_of_range", name=repr(self.name), value=str(converted),
                                  accepted=nested(self.accepted())))
        return converted

    def to_json(self) -> dict[str, Any]:
        """A JSON description of the option (name, type, default, accepted values)."""
        out: dict[str, Any] = {"name": self.name, "type": self.type.__name__, "default": self.default}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["min"] = self.minimum
        if self.maximum is not None:
            out["max"] = self.maximum
        out["help"] = self.help
        return out


def _not_accepted(option: Option, value: Any) -> OptionError:
    """The error for ``value``, which ``option`` does not accept."""
    return OptionError(say("rules.option.not_accepted", name=repr(option.name), value=repr(value),
                           accepted=nested(option.accepted())))


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _convert(option: Option, value: Any) -> Any:
    if option.type is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise _not_accepted(option, value)
    if option.type is int:
        if isinstance(value, bool):
            raise _not_accepted(option, value)
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise _not_accepted(option, value)
    if option.type is str:
        if isinstance(value, str):
            return value.strip()
        raise _not_accepted(option, value)
    raise TypeError(f"unsupported option type {option.type!r}")  # a declaration bug, not user input


@dataclass(frozen=True)
class OptionSet:
    """The options of one game, in declaration order."""

    options: tuple[Option, ...] = field(default_factory=tuple)

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def validate(self, values: Mapping[str, Any], game: str) -> dict[str, Any]:
        """Complete ``values`` with defaults and check each one.

        >>> opts = OptionSet((Option("rows", int, 8, minimum=2),))
        >>> opts.validate({"rows": "5"}, "atoms")
        {'rows': 5}
        >>> opts.validate({"colour": 1}, "atoms")
        Traceback (most recent call last):
        ...
        damier.core.errors.OptionError: atoms has no option 'colour'; its options are: rows
        """
        known = {o.name: o for o in self.options}
        for name in values:
            if name not in known:
                if not known:
                    raise OptionError(say("rules.option.unknown_none", game=game, name=repr(name)))
                raise OptionError(say("rules.option.unknown", game=game, name=repr(name), names=", ".join(known)))
        return {o.name: o.coerce(values[o.name]) if o.name in values else o.default for o in self.options}


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """Parse ``key=value`` strings from a command line.

    >>> parse_option_pairs(["rows=9", "cols = 6"])
    {'rows': '9', 'cols': '6'}
    """
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(say("rules.option.pair", pair=repr(pair)))
        out[key.strip()] = value.strip()
    return out
