"""A small JSON diff, sent as an RFC 6902 JSON Patch: what changed from one JSON value to the next, as the
operations a client applies to the value it holds, with any JSON Patch library (the page's small applier is
``static/js/delta.js``). A room sends one when its view is large and a move changes little of it
(``Room.broadcast``).

The operations, applied in order, are RFC 6902's, their paths JSON pointers (RFC 6901):

- ``add``: an object's new key (``{"op": "add", "path": "/a/b", "value": ...}``), or an item at the end of an
  array (``"path": "/moves/-"``, one operation an item);
- ``remove``: an object's key, or an array's last items (from the end);
- ``replace``: the value at ``path`` (``""``: the whole value);
- ``copy``: ``path`` becomes what is at ``from``: a view's part that moved (what a player could do next becomes what
  the other can do now). The copies come first, while every ``from`` still holds what it held before the patch; a
  copy into an array's item is followed by the removal of the item it pushed on (a JSON Patch copy inserts there).
  When two parts trade places, one is first copied under a key of its own at the root, removed after the copies.

Objects are compared key by key and arrays of one length item by item, down to ``MAX_DEPTH`` levels; any other
change replaces the whole value, and so does a change of most of an object's keys. A changed object or array of
at least ``COPY_SIZE`` items that was elsewhere in the old value (looked for down to ``COPY_DEPTH`` levels, among
those with the same keys or length) is copied from there; one that resembles an old one under the same name
elsewhere more than the old one in its place (more items alike) is copied from there, then changed. Unlike a JSON
merge patch, ``null`` is a value like any other, and ``true`` is never mistaken for ``1`` (nor ``false`` for
``0``). The diff is ours rather than the ``jsonpatch`` package's ``make_patch``: it measured faster on the views
and finds the parts that moved (``benchmarks/broadcast.py``); the patches are checked with ``jsonpatch`` in the
tests.

>>> diff({"moves": [1, 2], "player": 0, "draw": None}, {"moves": [1, 2, 3], "player": 1, "draw": None})
[{'op': 'add', 'path': '/moves/-', 'value': 3}, {'op': 'replace', 'path': '/player', 'value': 1}]
"""

from __future__ import annotations

import copy
import json
from typing import Any

#: how deep ``diff`` looks into objects and arrays (views are shallow): a change below it replaces the whole value
MAX_DEPTH = 12

#: objects and arrays of at least this many items, down to this depth, are looked for elsewhere (``copy``)
COPY_SIZE = 8
COPY_DEPTH = 3

Op = dict[str, Any]
Path = list[Any]


def same(a: Any, b: Any) -> bool:
    """Whether two JSON values are surely equal as JSON: equal (``==``) and written alike, so that a boolean
    equals only a boolean (Python has ``True == 1``; JSON does not). Both are compared in C: fast on whole views.
    Values equal as JSON but written otherwise (``1`` and ``1.0``, keys in another order) are not the same:
    ``diff`` then says more than it needs to, never less.

    >>> same({"a": [1, None]}, {"a": [1, None]}), same([True], [1]), same(0, False)
    (True, False, False)
    """
    return a is b or (a == b and _text(a) == _text(b))


_text = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def pointer(path: Path) -> str:
    """The JSON pointer (RFC 6901) of a path of keys and indices: ``~`` written ``~0``, ``/`` written ``~1``.

    >>> pointer([]), pointer(["moves", 3]), pointer(["a/b", "~"])
    ('', '/moves/3', '/a~1b/~0')
    """
    return "".join("/" + str(key).replace("~", "~0").replace("/", "~1") for key in path)


def diff(old: Any, new: Any) -> list[Op]:
    """The JSON Patch that turns the JSON value ``old`` into ``new`` (empty when they are the same); neither is
    changed, and the operations share no object with ``old`` (they may share ``new``'s).

    >>> diff([1, 2, 3], [1, 2])
    [{'op': 'remove', 'path': '/2'}]
    >>> diff({"a": {"b": 1, "c": 2, "d": 3}}, {"a": {"b": 1, "d": 3}})
    [{'op': 'remove', 'path': '/a/c'}]
    >>> diff({"a": 1}, [1])
    [{'op': 'replace', 'path': '', 'value': [1]}]
    >>> diff({"mine": list(range(8)), "yours": [0]}, {"mine": [0], "yours": list(range(8))})
    [{'op': 'copy', 'from': '/mine', 'path': '/yours'}, {'op': 'replace', 'path': '/mine', 'value': [0]}]
    """
    ops: list[Op] = []
    copies: list[tuple[Path, Path]] = []
    places: dict[Any, list[Path]] = {}
    _places(old, [], places, COPY_DEPTH)
    _diff(old, new, [], ops, copies, MAX_DEPTH, (old, places))
    return _copies(copies, old, new) + ops


def _copies(copies: list[tuple[Path, Path]], old: Any, new: Any) -> list[Op]:
    """The copies (target, source) as the patch's first operations, in order. A source that an earlier copy wrote
    over (or into), as when two parts trade places, is first kept under a key of its own at the root (a view is an
    object), removed once the copies are made; a value that is not an object sends such a copy as the value."""
    ops: list[Op] = []
    kept: dict[tuple[Any, ...], str] = {}  # a source kept: where
    keeping: list[Op] = []
    written: list[Path] = []
    for path, source in copies:
        origin = pointer(source)
        if any(_overlap(target, source) for target in written):
            if not (isinstance(old, dict) and isinstance(new, dict)):
                ops.append({"op": "replace", "path": pointer(path), "value": copy.deepcopy(_at(old, source))})
                written.append(path)
                continue
            if tuple(source) not in kept:
                kept[tuple(source)] = pointer([_free_key(old, new, len(kept))])
                keeping.append({"op": "copy", "from": origin, "path": kept[tuple(source)]})
            origin = kept[tuple(source)]
        ops.append({"op": "copy", "from": origin, "path": pointer(path)})
        if path and isinstance(path[-1], int):  # a copy inserts into an array: the old item moved on by one
            ops.append({"op": "remove", "path": pointer([*path[:-1], path[-1] + 1])})
        written.append(path)
    return keeping + ops + [{"op": "remove", "path": where} for where in kept.values()]


def _free_key(old: dict[str, Any], new: dict[str, Any], number: int) -> str:
    """A root key that neither value has, to keep a copy's source under while the copies are made."""
    while f"_kept{number}" in old or f"_kept{number}" in new:
        number += 1
    return f"_kept{number}"


def _overlap(a: Path, b: Path) -> bool:
    """Whether one path is the other or inside it."""
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def _shape(value: Any) -> tuple[Any, ...] | None:
    """What an object or array large enough to be copied is looked up by (its keys, or its length); None for
    other values."""
    if isinstance(value, dict) and len(value) >= COPY_SIZE:
        return ("{}", *value)
    if isinstance(value, list) and len(value) >= COPY_SIZE:
        return ("[]", len(value))
    return None


def _places(value: Any, path: Path, places: dict[Any, list[Path]], depth: int) -> None:
    """Record where ``value``'s large objects and arrays are, down to ``depth`` levels: by shape (``_shape``), and
    by name (``("name", last key of the path)``)."""
    shape = _shape(value)
    if shape is not None:
        places.setdefault(shape, []).append(path)
        if path:
            places.setdefault(("name", path[-1]), []).append(path)
    if depth > 0 and isinstance(value, dict):
        for key, item in value.items():
            _places(item, [*path, key], places, depth - 1)
    elif depth > 0 and isinstance(value, list):
        for i, item in enumerate(value):
            _places(item, [*path, i], places, depth - 1)


def _found(new: Any, path: Path, root: Any, places: dict[Any, list[Path]]) -> Path | None:
    """Where in the old value (``root``) ``new`` was whole, other than at ``path``; None if nowhere."""
    shape = _shape(new)
    for source in places.get(shape, ()) if shape is not None else ():
        if source != path and same(_at(root, source), new):
            return source
    return None


def _alike(old: Any, new: Any) -> int:
    """How many items of ``new`` (an object or array) ``old`` has alike (the same key or index, an equal value:
    only a guess of which old value to start from, so Python's ``==`` will do)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return sum(1 for key, value in new.items() if key in old and old[key] == value)
    if isinstance(old, list) and isinstance(new, list):
        return sum(1 for a, b in zip(old, new, strict=False) if a == b)
    return 0


def _resembled(old: Any, new: Any, path: Path, root: Any, places: dict[Any, list[Path]]) -> Path | None:
    """An old object or array under ``path``'s name elsewhere that has more items alike ``new`` than ``old`` (the
    one at ``path``) has; None if none has."""
    best, most = None, _alike(old, new)
    for source in places.get(("name", path[-1]), ()) if path else ():
        alike = _alike(_at(root, source), new) if source != path else 0
        if alike > most:
            best, most = source, alike
    return best


def _at(root: Any, path: Path) -> Any:
    for key in path:
        root = root[key]
    return root


def _diff(old: Any, new: Any, path: Path, ops: list[Op], copies: list[tuple[Path, Path]], depth: int,
          base: tuple[Any, dict[tuple[Any, ...], list[Path]]]) -> None:
    if same(old, new):
        return
    if path and _shape(new) is not None:  # (the whole value is never copied from a part: JSON Patch libraries
        # such as jsonpatch apply no copy to the root, "")
        source = _found(new, path, *base)
        if source is not None:
            copies.append((path, source))
            return
        source = _resembled(old, new, path, *base)
        if source is not None:
            copies.append((path, source))
            old = _at(base[0], source)
    if isinstance(old, dict) and isinstance(new, dict) and depth > 0:
        gone = [key for key in old if key not in new]
        if len(gone) + sum(key not in old for key in new) > len(new) // 2:
            ops.append({"op": "replace", "path": pointer(path), "value": new})  # most keys changed: shorter whole
            return
        for key in gone:
            ops.append({"op": "remove", "path": pointer([*path, key])})
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, [*path, key], ops, copies, depth - 1, base)
            else:
                ops.append({"op": "add", "path": pointer([*path, key]), "value": value})
    elif isinstance(old, list) and isinstance(new, list) and depth > 0:
        n, m = len(old), len(new)
        if n == m:
            for i in range(n):
                _diff(old[i], new[i], [*path, i], ops, copies, depth - 1, base)
        elif m > n and all(map(same, old, new)):
            end = pointer([*path, "-"])
            ops.extend({"op": "add", "path": end, "value": item} for item in new[n:])
        elif n - m <= max(m, 1) and all(map(same, new, old)):
            ops.extend({"op": "remove", "path": pointer([*path, i])} for i in range(n - 1, m - 1, -1))
        else:
            ops.append({"op": "replace", "path": pointer(path), "value": new})
    else:
        ops.append({"op": "replace", "path": pointer(path), "value": new})
