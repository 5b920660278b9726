"""Game options: declared once per game, validated in one place.

An option has a name, a default and either a set of allowed values or an integer range; ``validate`` turns a
mapping of user values (possibly strings from a command line) into a complete, checked dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from damier.core.errors import OptionError


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
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.type is bool:
            return "true or false"
        if self.type is int:
            if self.minimum is not None and self.maximum is not None:
                return f"an integer from {self.minimum} to {self.maximum}"
            if self.minimum is not None:
                return f"an integer >= {self.minimum}"
            return "an integer"
        return f"a {self.type.__name__}"

    def coerce(self, value: Any) -> Any:
        """Return ``value`` converted to the option's type and checked, or raise :class:`OptionError`."""
        converted = _convert(self, value)
        if self.choices is not None and converted not in self.choices:
            raise OptionError(f"option {self.name!r}: {value!r} is not accepted; expected {self.accepted()}")
        if self.type is int and (
            (self.minimum is not None and converted < self.minimum)
            or (self.maximum is not None and converted > self.maximum)
        ):
            raise OptionError(f"option {self.name!r}: {converted} is out of range; expected {self.accepted()}")
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


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _convert(option: Option, value: Any) -> Any:
    if option.type is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise OptionError(f"option {option.name!r}: {value!r} is not accepted; expected {option.accepted()}")
    if option.type is int:
        if isinstance(value, bool):
            raise OptionError(f"option {option.name!r}: {value!r} is not accepted; expected {option.accepted()}")
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise OptionError(f"option {option.name!r}: {value!r} is not accepted; expected {option.accepted()}")
    if option.type is str:
        if isinstance(value, str):
            return value.strip()
        raise OptionError(f"option {option.name!r}: {value!r} is not accepted; expected {option.accepted()}")
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
                names = ", ".join(known) or "(none)"
                raise OptionError(f"{game} has no option {name!r}; its options are: {names}")
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
            raise OptionError(f"option {pair!r} is not of the form key=value (for example rows=9)")
        out[key.strip()] = value.strip()
    return out
