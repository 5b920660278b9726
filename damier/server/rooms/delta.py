"""A small JSON diff: what changed from one JSON value to the next, as a list of operations a client applies to
the value it holds (``static/js/delta.js`` is the same patcher in the page). A room sends one when its view is
large and a move changes little of it (``Room.broadcast``).

A path is a list of keys (objects) and indices (arrays) from the root; the operations are

- ``["set", path, value]``: the value at ``path`` becomes ``value`` (an object's new key too; ``[]``: the root);
- ``["del", path]``: the object key at the end of ``path`` is removed;
- ``["push", path, items]``: the array at ``path`` grew, its old items unchanged at its start;
- ``["trim", path, length]``: the array at ``path`` shrank to its first ``length`` items;
- ``["copy", path, source]``: the value at ``path`` becomes (a copy of) the value that was at ``source`` before
  the patch (a view's part that moved: what a player could do next becomes what the other can do now).

Objects are compared key by key and arrays of one length item by item, down to ``MAX_DEPTH`` levels; any other
change sets the whole value, and so does a change of most of an object's keys. A changed object or array of at
least ``COPY_SIZE`` items that was elsewhere in the old value (looked for down to ``COPY_DEPTH`` levels, among
those with the same keys or length) is copied from there; one that resembles an old one under the same name
elsewhere more than the old one in its place (more items alike) is copied from there, then changed. Unlike a JSON
merge patch, ``null`` is a value like any other, and ``true`` is never mistaken for ``1`` (nor ``false`` for
``0``).

>>> diff({"moves": [1, 2], "player": 0, "draw": None}, {"moves": [1, 2, 3], "player": 1, "draw": None})
[['push', ['moves'], [3]], ['set', ['player'], 1]]
>>> apply({"a": 1}, [["set", ["a"], None]])
{'a': None}
"""

from __future__ import annotations

import copy
import json
from typing import Any

#: how deep ``diff`` looks into objects and arrays (views are shallow): a change below it sets the whole value
MAX_DEPTH = 12

#: objects and arrays of at least this many items, down to this depth, are looked for elsewhere (``copy``)
COPY_SIZE = 8
COPY_DEPTH = 3

Op = list[Any]


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


def diff(old: Any, new: Any) -> list[Op]:
    """The operations that turn the JSON value ``old`` into ``new`` (none when they are the same); neither is
    changed, and the operations share no object with ``old`` (they may share ``new``'s).

    >>> diff([1, 2, 3], [1, 2])
    [['trim', [], 2]]
    >>> diff({"a": {"b": 1, "c": 2, "d": 3}}, {"a": {"b": 1, "d": 3}})
    [['del', ['a', 'c']]]
    >>> diff({"a": 1}, [1])
    [['set', [], [1]]]
    >>> diff({"mine": list(range(8)), "yours": [0]}, {"mine": [0], "yours": list(range(8))})
    [['trim', ['mine'], 1], ['copy', ['yours'], ['mine']]]
    """
    ops: list[Op] = []
    places: dict[Any, list[list[Any]]] = {}
    _places(old, [], places, COPY_DEPTH)
    _diff(old, new, [], ops, MAX_DEPTH, (old, places))
    return ops


def _shape(value: Any) -> tuple[Any, ...] | None:
    """What an object or array large enough to be copied is looked up by (its keys, or its length); None for
    other values."""
    if isinstance(value, dict) and len(value) >= COPY_SIZE:
        return ("{}", *value)
    if isinstance(value, list) and len(value) >= COPY_SIZE:
        return ("[]", len(value))
    return None


def _places(value: Any, path: list[Any], places: dict[Any, list[list[Any]]], depth: int) -> None:
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


def _found(new: Any, path: list[Any], root: Any, places: dict[Any, list[list[Any]]]) -> list[Any] | None:
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


def _resembled(old: Any, new: Any, path: list[Any], root: Any, places: dict[Any, list[list[Any]]]) -> list[Any] | None:
    """An old object or array under ``path``'s name elsewhere that has more items alike ``new`` than ``old`` (the
    one at ``path``) has; None if none has."""
    best, most = None, _alike(old, new)
    for source in places.get(("name", path[-1]), ()) if path else ():
        alike = _alike(_at(root, source), new) if source != path else 0
        if alike > most:
            best, most = source, alike
    return best


def _at(root: Any, path: list[Any]) -> Any:
    for key in path:
        root = root[key]
    return root


def _diff(old: Any, new: Any, path: list[Any], ops: list[Op], depth: int,
          base: tuple[Any, dict[tuple[Any, ...], list[list[Any]]]]) -> None:
    if same(old, new):
        return
    if _shape(new) is not None:
        source = _found(new, path, *base)
        if source is not None:
            ops.append(["copy", path, source])
            return
        source = _resembled(old, new, path, *base)
        if source is not None:
            ops.append(["copy", path, source])
            old = _at(base[0], source)
    if isinstance(old, dict) and isinstance(new, dict) and depth > 0:
        gone = [key for key in old if key not in new]
        if len(gone) + sum(key not in old for key in new) > len(new) // 2:
            ops.append(["set", path, new])  # most keys changed: the whole object says it shorter
            return
        for key in gone:
            ops.append(["del", [*path, key]])
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, [*path, key], ops, depth - 1, base)
            else:
                ops.append(["set", [*path, key], value])
    elif isinstance(old, list) and isinstance(new, list) and depth > 0:
        n, m = len(old), len(new)
        if n == m:
            for i in range(n):
                _diff(old[i], new[i], [*path, i], ops, depth - 1, base)
        elif m > n and all(map(same, old, new)):
            ops.append(["push", path, new[n:]])
        elif m < n and all(map(same, new, old)):
            ops.append(["trim", path, m])
        else:
            ops.append(["set", path, new])
    else:
        ops.append(["set", path, new])


def apply(value: Any, ops: list[Op]) -> Any:
    """``value`` with the operations applied (a changed copy: ``value`` itself is left as it was). An operation
    that does not fit the value (a path to nowhere, an unknown name) raises ``ValueError``.

    >>> apply([1, 2], [["push", [], [3, None]]])
    [1, 2, 3, None]
    >>> apply({"a": [1]}, [["set", ["a", 5], 2]])
    Traceback (most recent call last):
    ...
    ValueError: bad set at ['a', 5]: no item 5 in an array of 1
    """
    result = copy.deepcopy(value)
    for op in ops:
        result = _apply(result, op, value)
    return result


def _apply(root: Any, op: Op, base: Any) -> Any:
    if not isinstance(op, list) or len(op) != (2 if op[:1] == ["del"] else 3) or not isinstance(op[1], list):
        raise ValueError(f"not an operation: {op!r}")
    if op[0] == "copy":  # a set, of what was at the source before the patch
        if not isinstance(op[2], list):
            raise ValueError(f"not an operation: {op!r}")
        op = ["set", op[1], _walk(base, op[2], "copy", op[2])]
    name, path = op[0], op[1]
    if name == "set" and not path:
        return copy.deepcopy(op[2])
    if name in ("push", "trim"):
        target = _walk(root, path, name, path)
        if not isinstance(target, list):
            raise ValueError(f"bad {name} at {path!r}: not an array")
        if name == "push" and isinstance(op[2], list):
            target.extend(copy.deepcopy(op[2]))
        elif name == "trim" and isinstance(op[2], int) and 0 <= op[2] <= len(target):
            del target[op[2]:]
        else:
            raise ValueError(f"bad {name} at {path!r}: {op[2]!r}")
        return root
    if name not in ("set", "del") or not path:
        raise ValueError(f"not an operation: {op!r}")
    parent, key = _walk(root, path[:-1], name, path), path[-1]
    if isinstance(parent, dict) and isinstance(key, str):
        if name == "set":
            parent[key] = copy.deepcopy(op[2])
        elif key in parent:
            del parent[key]
        else:
            raise ValueError(f"bad del at {path!r}: no key {key!r}")
    elif isinstance(parent, list) and name == "set" and _index(parent, key):
        parent[key] = copy.deepcopy(op[2])
    else:
        raise ValueError(f"bad {name} at {path!r}: {_missing(parent, key)}")
    return root


def _walk(root: Any, path: list[Any], name: str, whole: list[Any]) -> Any:
    """The value at ``path`` in ``root``."""
    node = root
    for key in path:
        if (isinstance(node, dict) and isinstance(key, str) and key in node) or (
                isinstance(node, list) and _index(node, key)):
            node = node[key]
        else:
            raise ValueError(f"bad {name} at {whole!r}: {_missing(node, key)}")
    return node


def _index(array: list[Any], key: Any) -> bool:
    return isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(array)


def _missing(node: Any, key: Any) -> str:
    if isinstance(node, list):
        return f"no item {key!r} in an array of {len(node)}"
    if isinstance(node, dict):
        return f"no key {key!r}"
    return f"{key!r} inside a {type(node).__name__}"
