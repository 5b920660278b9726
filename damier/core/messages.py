"""Messages in the player's language: the catalogues, the languages the arcade speaks, and ICU-style formatting.

A catalogue is a plain JSON object, key -> message, one file per language: the web client's shared words in
``damier/server/static/i18n/<lang>.json``, each game's in its own folder (``damier/games/<game>/messages/<lang>.json``,
the package its ``GameInfo.messages`` names), where a game's keys carry no prefix. English is complete; another
language falls back to English key by key. Notation never changes with the language: only names and help do.

Messages use the ICU MessageFormat subset the client reads too (``static/js/i18n.js``): named placeholders
``{name}``, plurals ``{n, plural, =0 {none} one {# move} other {# moves}}`` (CLDR's categories for each language,
``#`` the number) and choices ``{side, select, red {...} other {...}}``; ``'{'`` quotes a brace, ``''`` is an
apostrophe. A parameter may be a seat, ``{"seat": 1}`` (or several, ``{"seats": [0, 2]}``), said with the game's
name for it in the language (``seats``), or a message of its own, ``{"code": ..., "params": ...}``, said first.

A message the rules or the server give a player is ``say(code, **params)``: a ``Said``, the English ``str`` that
carries its ``code`` and ``params`` (the core's words in ``damier/core/i18n/<lang>.json``, a game's under its
name: ``khet.outcome.pharaoh_hit``), so that records and programs keep the English and the client says it again
in its player's language.

>>> format_message("{n, plural, one {# move} other {# moves}} by {who}", {"n": 1, "who": "Red"})
'1 move by Red'
>>> format_message("{n, plural, one {# coup} other {# coups}}", {"n": 0}, "fr")
'0 coup'
>>> format_message("{n, plural, one {# jugada} other {# jugadas}}", {"n": 12345}, "es")
'12.345 jugadas'
>>> negotiate("es-MX,es;q=0.9"), negotiate("de"), negotiate(None)
('es', 'en', 'en')
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from typing import Any

#: the languages the arcade speaks, by code, each named in itself; English first (the fallback)
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español", "fr": "Français"}
DEFAULT = "en"
#: where the web client's shared catalogues are (a package folder)
SHARED = ("damier.server", "static/i18n")
#: the core's words (how games end): the rules' own messages that belong to no game
CORE = ("damier.core", "i18n")
#: how a list of seats is joined, by language ("Red and Blue")
AND = {"en": " and ", "es": " y ", "fr": " et "}


def supported(lang: object) -> str | None:
    """``lang`` as one of ``LANGUAGES`` ("es-MX" -> "es"), or None.

    >>> supported("FR_ca"), supported("xx"), supported(3)
    ('fr', None, None)
    """
    if not isinstance(lang, str):
        return None
    base = lang.strip().lower().replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else None


def negotiate(header: str | None) -> str:
    """The language to answer in: the first of ``header`` (a ``lang`` parameter or an ``Accept-Language`` list)
    that the arcade speaks, else English. A malformed value is English, never an error."""
    if not header or len(header) > 200:
        return DEFAULT
    ranked = []
    for order, part in enumerate(header.split(",")):
        tag, _, rest = part.partition(";")
        quality = 1.0
        if rest.strip().lower().startswith("q="):
            try:
                quality = float(rest.strip()[2:])
            except ValueError:
                quality = 0.0
        code = supported(tag)
        if code and quality > 0:  # q=0: "not this one"
            ranked.append((-quality, order, code))
    return min(ranked)[2] if ranked else DEFAULT


# ---- plural categories (CLDR 44, the three languages) ----


def plural_category(n: float, lang: str) -> str:
    """CLDR's plural category of ``n`` in ``lang`` (what ``Intl.PluralRules`` answers in the browser).

    >>> [plural_category(n, "en") for n in (0, 1, 2, 1.5)]
    ['other', 'one', 'other', 'other']
    >>> [plural_category(n, "fr") for n in (0, 1, 1.5, 2, 1_000_000)]
    ['one', 'one', 'one', 'other', 'many']
    >>> [plural_category(n, "es") for n in (0, 1, 2, 2_000_000)]
    ['other', 'one', 'other', 'many']
    """
    if not math.isfinite(n):
        return "other"
    whole = float(n).is_integer()
    i = int(abs(n))
    if lang == "fr":
        if i in (0, 1):
            return "one"
        return "many" if whole and i != 0 and i % 1_000_000 == 0 else "other"
    if lang == "es":
        if n == 1:
            return "one"
        return "many" if whole and i != 0 and i % 1_000_000 == 0 else "other"
    return "one" if whole and i == 1 else "other"


def format_number(value: object, lang: str = DEFAULT) -> str:
    """A number as ``lang`` writes it (what ``Intl.NumberFormat`` gives): 12,345 in English, 12.345 in Spanish
    (1234 with no separator: four digits are not grouped), 12 345 in French (a narrow no-break space).

    >>> format_number(1234567, "en"), format_number(1234, "es"), format_number(12345, "es"), format_number(1234, "fr")
    ('1,234,567', '1234', '12.345', '1\\u202f234')
    >>> format_number(2.5, "fr"), format_number("e4", "fr")
    ('2,5', 'e4')
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return _js_text(value)
    if not math.isfinite(value):
        return "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"
    sign = "-" if value < 0 else ""
    # a float in plain decimals, as the browser writes it (never 1e+21)
    text = format(Decimal(repr(abs(value))), "f") if isinstance(value, float) else str(abs(value))
    whole, _, fraction = text.partition(".")
    if isinstance(value, float) and fraction == "0":
        fraction = ""
    group, decimal, minimum = {"en": (",", ".", 4), "es": (".", ",", 5), "fr": ("\u202f", ",", 4)}.get(
        lang, (",", ".", 4))
    if len(whole) >= minimum:
        head = len(whole) % 3 or 3
        whole = whole[:head] + "".join(group + whole[k:k + 3] for k in range(head, len(whole), 3))
    return sign + whole + (decimal + fraction if fraction else "")


# ---- parsing and formatting ----


@dataclass(frozen=True)
class Argument:
    """A placeholder: ``{name}``, or a plural or select with its options (each a list of parts)."""

    name: str
    kind: str = ""  # "", "plural" or "select"
    options: tuple[tuple[str, tuple[Part, ...]], ...] = ()


class Pound:
    """``#`` in a plural's option: the number."""


Part = str | Argument | Pound
POUND = Pound()


class MessageError(ValueError):
    """A message that does not parse (unbalanced braces, a plural without ``other``)."""


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.i = text, 0

    def literal(self, in_plural: bool) -> str:
        text, out = self.text, []
        while self.i < len(text):
            c = text[self.i]
            if c == "'":
                nxt = text[self.i + 1] if self.i + 1 < len(text) else ""
                if nxt == "'":
                    out.append("'")
                    self.i += 2
                    continue
                if nxt in ("{", "}") or (in_plural and nxt == "#"):
                    end = text.find("'", self.i + 1)
                    if end < 0:
                        out.append(text[self.i + 1:])
                        self.i = len(text)
                        break
                    out.append(text[self.i + 1:end].replace("''", "'"))
                    self.i = end + 1
                    continue
                out.append(c)
                self.i += 1
                continue
            if c in "{}" or (in_plural and c == "#"):
                break
            out.append(c)
            self.i += 1
        return "".join(out)

    def parts(self, in_plural: bool) -> tuple[Part, ...]:
        found: list[Part] = []
        while self.i < len(self.text) and self.text[self.i] != "}":
            s = self.literal(in_plural)
            if s:
                found.append(s)
            if self.i >= len(self.text) or self.text[self.i] == "}":
                break
            if self.text[self.i] == "#":
                found.append(POUND)
                self.i += 1
                continue
            self.i += 1  # "{"
            found.append(self.argument())
        return tuple(found)

    def word(self) -> str:
        text = self.text
        while self.i < len(text) and text[self.i] == " ":
            self.i += 1
        start = self.i
        while self.i < len(text) and text[self.i] not in " ,{}":
            self.i += 1
        w = text[start:self.i]
        while self.i < len(text) and text[self.i] == " ":
            self.i += 1
        return w

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def argument(self) -> Argument:
        name = self.word()
        if not name:
            raise MessageError(f"an empty placeholder in {self.text!r}")
        if self.peek() == "}":
            self.i += 1
            return Argument(name)
        if self.peek() != ",":
            raise MessageError(f"bad placeholder {{{name} in {self.text!r}")
        self.i += 1
        kind = self.word()
        if kind not in ("plural", "select"):
            raise MessageError(f"unknown type {kind!r} in {self.text!r}; known: plural, select")
        if self.peek() != ",":
            raise MessageError(f"a {kind} needs options in {self.text!r}")
        self.i += 1
        options: list[tuple[str, tuple[Part, ...]]] = []
        while True:
            key = self.word()
            if not key:
                break
            if self.peek() != "{":
                raise MessageError(f"option {key!r} needs {{...}} in {self.text!r}")
            self.i += 1
            options.append((key, self.parts(kind == "plural")))
            if self.peek() != "}":
                raise MessageError(f"unclosed option {key!r} in {self.text!r}")
            self.i += 1
        if self.peek() != "}":
            raise MessageError(f"unclosed {kind} in {self.text!r}")
        self.i += 1
        if "other" not in dict(options):
            raise MessageError(f'a {kind} needs an "other" option in {self.text!r}')
        return Argument(name, kind, tuple(options))


@lru_cache(maxsize=4096)
def parse_message(text: str) -> tuple[Part, ...]:
    """``text`` as parts: strings, ``Argument`` and ``Pound``; ``MessageError`` if it does not parse."""
    parser = _Parser(text)
    parts = parser.parts(False)
    if parser.i < len(text):
        raise MessageError(f"unbalanced braces in {text!r}")
    return parts


def _value(value: Any, lang: str, seats: tuple[str, ...], words: Mapping[str, str] | None) -> str:
    """A placeholder's value in words: a seat by its name, a message said in ``lang``, a number as it writes them."""
    if isinstance(value, Mapping):
        if "list" in value:  # words of no game (players' own names): joined as the language joins them
            return AND.get(lang, AND[DEFAULT]).join(str(item) for item in value["list"])
        if "title" in value:  # a game's title: the game's own in this language (its catalogue), else as sent
            key = f"{value.get('game')}.info.title"
            return words[key] if words is not None and key in words else str(value["title"])
        if "seat" in value or "seats" in value:
            indices = [value["seat"]] if "seat" in value else list(value["seats"])
            names = [value["name"]] if "name" in value else list(value.get("names") or ())
            game = value.get("game")

            def named(k: int, i: Any) -> str:
                # the names given, else the game's in this language (``words``: its catalogue), else those sent
                if isinstance(i, int) and 0 <= i < len(seats):
                    return seats[i]
                if game and words is not None and f"{game}.client.seats.{i}" in words:
                    return words[f"{game}.client.seats.{i}"]
                return str(names[k]) if k < len(names) else str(i)

            return AND.get(lang, AND[DEFAULT]).join(named(k, i) for k, i in enumerate(indices))
        if "code" in value:
            try:
                return say_in(str(value["code"]), value.get("params") or {}, lang, seats, words)
            except KeyError:  # a message this catalogue does not know (a record from elsewhere): its code
                return str(value["code"])
    return format_number(value, lang)


def _render(parts: tuple[Part, ...], params: Mapping[str, Any], lang: str, number: Any,
            seats: tuple[str, ...] = (), words: Mapping[str, str] | None = None) -> str:
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Pound):
            out.append(format_number(number, lang))
        elif not part.kind:
            value = params.get(part.name)
            out.append("{" + part.name + "}" if value is None else _value(value, lang, seats, words))
        else:
            options = dict(part.options)
            value = params.get(part.name)
            if part.kind == "plural":
                n = _number(value)
                chosen = next((options[key] for key in (f"={_js_text(n)}", plural_category(n, lang)) if key in options),
                              options["other"])
                out.append(_render(chosen, params, lang, n, seats, words))
            else:
                key = _js_text(value)
                out.append(_render(options[key] if key in options else options["other"], params, lang, number, seats,
                                   words))
    return "".join(out)


def _number(value: Any) -> float:
    """A plural's value as a number, as the browser's ``Number(value)`` reads it (NaN for what is none)."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value).strip() or "0") if value is not None else math.nan
    except ValueError:
        return math.nan


def _js_text(value: Any) -> str:
    """``value`` as the browser's ``String(value)`` writes it: a choice's key (``true``, ``1`` for 1.0)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "undefined"
    if isinstance(value, float):
        if not math.isfinite(value):
            return format_number(value)
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        return repr(value)
    return str(value)


def format_message(pattern: str, params: Mapping[str, Any] | None = None, lang: str = DEFAULT,
                   seats: tuple[str, ...] = (), words: Mapping[str, str] | None = None) -> str:
    """``pattern`` with ``params`` filled in, numbers and plurals as ``lang`` writes them (a missing parameter
    stays ``{name}``); a seat named from ``seats``, a message in a parameter from ``words`` (a whole catalogue
    in ``lang``, games' keys under their names; the rules' catalogues by default).

    >>> format_message("{who} left: {n, plural, one {# seat} other {# seats}}", {"who": {"seats": [0, 1]}, "n": 2},
    ...                "fr", seats=("Rouge", "Bleu"))
    'Rouge et Bleu left: 2 seats'
    """
    return _render(parse_message(pattern), params or {}, lang, None, tuple(seats), words)


def signature(pattern: str) -> dict[str, str]:
    """The arguments ``pattern`` takes, each with its kind ("" for a plain placeholder): what every translation of a
    message must keep (the catalogue test compares them).

    >>> signature("{n, plural, one {# by {who}} other {# by {who}}} {side, select, a {x} other {y}}")
    {'n': 'plural', 'who': '', 'side': 'select'}
    """
    found: dict[str, str] = {}

    def walk(parts: tuple[Part, ...]) -> None:
        for part in parts:
            if isinstance(part, Argument):
                if part.kind or part.name not in found:
                    found[part.name] = part.kind
                for _key, sub in part.options:
                    walk(sub)

    walk(parse_message(pattern))
    return found


# ---- catalogues ----


def _read(package: str, folder: str, lang: str) -> dict[str, str]:
    try:
        text = (resources.files(package) / folder / f"{lang}.json").read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data = json.loads(text)
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError(f"{package}/{folder}/{lang}.json is not an object of strings")
    return data


@lru_cache(maxsize=64)
def catalogue(package: str, folder: str, lang: str) -> Mapping[str, str]:
    """The catalogue of ``lang`` in ``package``'s ``folder``, English beneath it key by key (read once). A game's
    catalogue also translates the words it declares in Python (``damier.server.declared``): keys English has in no
    file."""
    merged = dict(_read(package, folder, DEFAULT))
    if lang != DEFAULT:
        merged.update(_read(package, folder, lang))
    return merged


def raw_catalogue(package: str, folder: str, lang: str) -> dict[str, str]:
    """The file itself, with no fallback (the catalogue test compares languages)."""
    return _read(package, folder, lang)


def game_catalogue(package: str, lang: str) -> Mapping[str, str]:
    """A game's words in ``lang`` (its package's ``messages`` folder), English beneath."""
    return catalogue(package, "messages", lang)


class Words:
    """One catalogue's messages in one language, with English beneath: ``words("key", n=3)``.

    >>> w = Words({"moves": "{n, plural, one {# move} other {# moves}}"}, "en")
    >>> w("moves", n=2), w.get("absent", "Absent")
    ('2 moves', 'Absent')
    """

    def __init__(self, messages: Mapping[str, str], lang: str = DEFAULT) -> None:
        self.messages, self.lang = messages, lang

    def __call__(self, key: str, /, **params: Any) -> str:
        if key not in self.messages:
            raise KeyError(f"no message {key!r} in the catalogue")
        return format_message(self.messages[key], params, self.lang)

    def get(self, key: str, default: str, /, **params: Any) -> str:
        """The message ``key``, or ``default`` (formatted the same way) when the catalogue has none."""
        return format_message(self.messages.get(key, default), params, self.lang)


# ---- messages with a code ----


class Said(str):
    """A message to a player in English (the ``str``), with its catalogue ``code`` and ``params``.

    >>> said = Said("draw agreed", "outcome.draw_agreed", {})
    >>> said == "draw agreed", said.code
    (True, 'outcome.draw_agreed')
    """

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, code: str, params: Mapping[str, Any]) -> Said:
        said = super().__new__(cls, text)
        said.code, said.params = code, dict(params)
        return said

    def __reduce__(self) -> tuple[Any, ...]:
        return Said, (str(self), self.code, self.params)


def coded(message: object) -> dict[str, Any]:
    """``{"code", "params"}`` of a ``Said`` message, for the JSON beside its English; nothing for plain text."""
    if isinstance(message, Said):
        return {"code": message.code, "params": message.params}
    return {}


def said_of(error: BaseException) -> str:
    """An error's message, still a ``Said`` when the rules said it so (``str(error)`` would drop its code)."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Said) else str(error)


def cause_of(error: BaseException) -> Any:
    """An error's message as another message's parameter (``nested``): said with its code when it has one."""
    return nested(said_of(error))


def title_of(game: Any) -> dict[str, str]:
    """A game's title as a parameter: said with the game's own title in the reader's language.

    >>> import damier
    >>> title_of(damier.load("atoms"))
    {'game': 'atoms', 'title': 'Exploding Atoms'}
    """
    return {"game": game.name, "title": game.title}


def nested(message: str) -> Any:
    """A message as another's parameter: its code and parameters (said in the reader's language), or its words."""
    return {"code": message.code, "params": message.params} if isinstance(message, Said) else str(message)


def from_coded(text: str, obj: Mapping[str, Any]) -> str:
    """``text`` as a ``Said`` when ``obj`` (a JSON object read back) carries a code and parameters."""
    code, params = obj.get("code"), obj.get("params")
    if isinstance(code, str) and isinstance(params, Mapping):
        return Said(text, code, params)
    return text


#: each registered game's catalogue package, by game name (``registry.register`` fills it)
GAMES: dict[str, str] = {}


def rules_words(lang: str) -> dict[str, str]:
    """The rules' catalogue in ``lang``: the core's words, and each registered game's under its name."""
    merged = dict(catalogue(*CORE, lang))
    for name, package in sorted(GAMES.items()):
        merged.update((f"{name}.{key}", text) for key, text in game_catalogue(package, lang).items())
    return merged


def say_in(code: str, params: Mapping[str, Any], lang: str = DEFAULT, seats: tuple[str, ...] = (),
           words: Mapping[str, str] | None = None) -> str:
    """The message ``code`` of ``words`` (the rules' catalogue in ``lang`` by default) with ``params``."""
    text = words.get(code) if words is not None else rules_message(code, lang)
    if text is None:
        raise KeyError(f"no message {code!r} in the catalogue")
    return format_message(text, params, lang, seats, words)


def rules_message(code: str, lang: str) -> str | None:
    """The rules' message ``code`` in ``lang``: a game's (``khet.outcome.pharaoh_hit``) or the core's."""
    head, _, key = code.partition(".")
    if head in GAMES:
        return game_catalogue(GAMES[head], lang).get(key)
    return catalogue(*CORE, lang).get(code)


def seat_refs(params: Mapping[str, Any], seats: Any) -> dict[str, Any]:
    """``params`` with each seat parameter (``{"seat": i}``, ``{"seats": [...]}``) carrying its name in English and,
    when ``seats`` is a game (its ``name`` and ``player_names``), the game's name: so that a client says the seat with
    the game's name for it in its language, with no more to know.

    >>> seat_refs({"who": {"seat": 1}, "n": 2}, ("Red", "Blue"))
    {'who': {'seat': 1, 'name': 'Blue'}, 'n': 2}
    """
    game = getattr(seats, "name", None)
    names = tuple(getattr(seats, "player_names", seats) or ())

    def ref(value: Any) -> Any:
        if not isinstance(value, Mapping) or "code" in value:
            return value
        out = dict(value)
        if "seat" in value and isinstance(value["seat"], int) and 0 <= value["seat"] < len(names):
            out["name"] = names[value["seat"]]
        elif "seats" in value:
            out["names"] = [names[i] if isinstance(i, int) and 0 <= i < len(names) else str(i) for i in value["seats"]]
        else:
            return value
        if game:
            out["game"] = game
        return out

    return {key: ref(value) for key, value in params.items()}


def say(code: str, /, seats: Any = (), **params: Any) -> Said:
    """The rules' message ``code`` (the core's, or a game's as ``game.key``) with ``params``, in English, as a
    ``Said``; a seat parameter (``{"seat": i}``) is said with its name: ``seats`` is the game (or its
    ``player_names``), see ``seat_refs``.

    >>> say("outcome.draw_agreed")
    'draw agreed'
    """
    params = seat_refs(params, seats)
    return Said(say_in(code, params, DEFAULT), code, params)
