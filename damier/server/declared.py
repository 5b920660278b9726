"""The words a game declares in Python and the arcade shows (its title and description, its options' help, its
client description's labels, notes, seat names and race rules), in the player's language.

They are written once, in English, where the game declares them (``GameInfo``, its ``client`` feature); each has a
key from where it stands in the catalogue entry (``info.title``, ``info.options.rows.help``,
``client.presets.easy.note``, ``client.seats.0``: an object in a list by its ``id``, ``kind`` or ``letter``, else
its index), and a game's catalogue translates it under that key (``messages/es.json``). English needs no entry:
the declaration is its text. The catalogue test builds the English keys from here.

>>> entry = {"name": "g", "title": "Lasers", "options": [{"name": "size", "help": "rows", "default": 8}],
...          "client": {"seats": ["Red", "Blue"], "presets": [{"id": "easy", "label": "Easy", "options": {}}]}}
>>> sorted(declared_words(entry).items())  # doctest: +NORMALIZE_WHITESPACE
[('client.presets.easy.label', 'Easy'), ('client.seats.0', 'Red'), ('client.seats.1', 'Blue'),
 ('info.options.size.help', 'rows'), ('info.title', 'Lasers')]
>>> localize_entry(entry, {"client.seats.0": "Rojo", "info.title": "Láseres"})["client"]["seats"]
['Rojo', 'Blue']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from damier.core.messages import format_message

if TYPE_CHECKING:
    from damier.core.registry import GameInfo

#: the fields that hold words (each a string, or a list of strings: the seats, a race's rules)
TEXT_FIELDS = frozenset({"title", "description", "label", "note", "help", "pattern_label", "seats", "words"})
#: objects whose every string is words (a game's offer to stop: its buttons and sentences)
TEXT_OBJECTS = frozenset({"agreement"})
#: what names an object in a list, before its index
NAMES = ("id", "name", "kind", "letter")
#: what is never words: notation, positions, boards, samples
SKIP = frozenset({"board", "boards", "position", "sample", "squares", "reserved", "tile", "options", "setups_boards"})


def _part(text: object) -> str:
    return re.sub(r"[^a-z0-9_]+", "_", str(text).lower()).strip("_") or "_"


def _walk(value: Any, path: str, change: Callable[[str, str], str], words: bool) -> Any:
    if isinstance(value, str):
        return change(path, value) if words else value
    if isinstance(value, list):
        out = []
        for index, item in enumerate(value):
            name = next((item[k] for k in NAMES if isinstance(item, dict) and isinstance(item.get(k), str | int)
                         and not isinstance(item.get(k), bool)), index)
            out.append(_walk(item, f"{path}.{_part(name)}", change, words))
        return out
    if isinstance(value, dict):
        return {key: item if key in SKIP and path.startswith("client") else
                _walk(item, f"{path}.{_part(key)}", change, words or key in TEXT_FIELDS or key in TEXT_OBJECTS)
                for key, item in value.items()}
    return value


def _entry_walk(entry: Mapping[str, Any], change: Callable[[str, str], str]) -> dict[str, Any]:
    out = dict(entry)
    for key in ("title", "description"):
        if isinstance(entry.get(key), str):
            out[key] = change(f"info.{key}", entry[key])
    if isinstance(entry.get("options"), list):
        out["options"] = [dict(o, help=change(f"info.options.{_part(o.get('name'))}.help", o["help"]))
                          if isinstance(o, dict) and isinstance(o.get("help"), str) else o for o in entry["options"]]
    if isinstance(entry.get("client"), dict):
        out["client"] = _walk(entry["client"], "client", change, False)
    return out


def declared_words(entry: Mapping[str, Any]) -> dict[str, str]:
    """The English words of a catalogue entry (``/api/catalog``'s, the client description in it), by key."""
    found: dict[str, str] = {}

    def note(key: str, text: str) -> str:
        found[key] = text
        return text

    _entry_walk(entry, note)
    return found


def localize_entry(entry: Mapping[str, Any], words: Mapping[str, str]) -> dict[str, Any]:
    """The entry with each declared word the game's catalogue ``words`` translates (the others as declared)."""
    return _entry_walk(entry, lambda key, text: format_message(words[key]) if key in words else text)


def english_words(info: GameInfo) -> dict[str, str]:
    """Game ``info``'s declared words in English, by key (its catalogue's other languages translate them). Makes
    its client description: plays its rules, off the event loop."""
    from damier.server.descriptions import describe

    entry = info.to_json()
    entry["client"] = describe(info)["client"]
    return declared_words(entry)
