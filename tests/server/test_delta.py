"""The JSON diff of broadcast views (``damier.server.rooms.delta``): a patch is an RFC 6902 JSON Patch that turns
the old value into the new one, whatever the values, as the ``jsonpatch`` package applies it (a well-kept JSON
Patch library, independent of ours), and says little when little changed."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonpatch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from damier.server.rooms.delta import COPY_SIZE, diff, pointer

KEYS = st.sampled_from(["a", "b", "c", "moves", "board", "", "0", "a/b", "~1"])
LEAVES = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "x", "y"])
#: JSON-like values, with few keys and small numbers so that two of them often share parts (and long arrays,
#: so that ``copy`` is tried)
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=COPY_SIZE + 2)
                      | st.dictionaries(KEYS, inner, max_size=5), max_leaves=40)


def json_equal(a: Any, b: Any) -> bool:
    """Equal as JSON values: a boolean is never a number (``True == 1`` in Python)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(json_equal, a, b))
    return type(a) is type(b) and a == b


def patched(old: Any, patch: list[dict[str, Any]]) -> Any:
    """``old`` with the patch applied by ``jsonpatch``, as sent: through JSON text."""
    return jsonpatch.apply_patch(old, json.loads(json.dumps(patch)))


@settings(max_examples=400, deadline=None)
@given(VALUES, VALUES)
@example(old=[[None] * 10], new=[None] * 10)  # once a copy to the root, which jsonpatch cannot apply
def test_a_patch_turns_the_old_value_into_the_new(old: Any, new: Any) -> None:
    before, wanted = copy.deepcopy(old), copy.deepcopy(new)
    patch = diff(old, new)
    assert json_equal(patched(old, patch), new)
    assert json_equal(old, before) and json_equal(new, wanted)  # neither changed by the diff or the patch
    if json_equal(old, new):
        assert patch == []


def swapped(value: Any) -> tuple[Any, Any]:
    """Two large parts that trade places, one of them inside an array: copies whose sources the others write."""
    mine = [{"m": i, "targets": list(range(10))} for i in range(COPY_SIZE)]
    yours = [{"y": i, "targets": list(range(10))} for i in range(COPY_SIZE)]
    old = {"p": mine, "q": yours, "rows": [mine, yours, value]}
    new = {"p": yours, "q": mine, "rows": [yours, mine, value]}
    return old, new


@settings(max_examples=100, deadline=None)
@given(VALUES)
def test_parts_that_trade_places_are_copied_as_they_were(value: Any) -> None:
    old, new = swapped(value)
    patch = diff(old, new)
    assert json_equal(patched(old, patch), new)
    assert all(op["op"] in ("copy", "remove") for op in patch)  # no part sent whole: each copied from where it was
    assert len(json.dumps(patch)) < len(json.dumps(new)) // 2


@settings(max_examples=200, deadline=None)
@given(VALUES, st.lists(VALUES, max_size=3))
def test_a_grown_list_is_an_add_of_each_new_item_at_its_end(old: Any, grown: list[Any]) -> None:
    moves = [old, {"ply": 1}]
    assert diff({"moves": moves}, {"moves": moves + grown}) == [
        {"op": "add", "path": "/moves/-", "value": item} for item in grown]


def test_null_and_booleans_are_values_like_any_other() -> None:
    assert diff({"draw": 1, "result": 0}, {"draw": None, "result": False}) == [
        {"op": "replace", "path": "/draw", "value": None}, {"op": "replace", "path": "/result", "value": False}]
    assert diff({"a": None}, {}) == [{"op": "replace", "path": "", "value": {}}]
    assert diff({"a": None, "b": 1, "c": 2}, {"b": 1, "c": 2}) == [{"op": "remove", "path": "/a"}]


def test_a_part_that_moved_is_copied_and_then_changed() -> None:
    mine = {f"m{i}": [i, None] for i in range(COPY_SIZE)}
    old = {"board": {"previews": {}}, "premove": {"board": {"previews": mine}}}
    new = {"board": {"previews": mine}, "premove": {"board": {"previews": {"x": 1}}}}
    patch = diff(old, new)
    assert patch[0] == {"op": "copy", "from": "/premove/board/previews", "path": "/board/previews"}
    assert patched(old, patch) == new


def test_a_part_like_one_elsewhere_is_copied_from_there_and_changed() -> None:
    mine = {f"m{i}": [i, None] for i in range(COPY_SIZE)}
    old = {"board": {"previews": mine}, "premove": {"board": {"previews": {"x": 1}}}}
    new = {"board": {"previews": {"y": 2}}, "premove": {"board": {"previews": {**mine, "m0": [0, True]}}}}
    patch = diff(old, new)
    assert patch[0] == {"op": "copy", "from": "/board/previews", "path": "/premove/board/previews"}
    assert patch[-1] == {"op": "replace", "path": "/premove/board/previews/m0/1", "value": True}
    assert patched(old, patch) == new


def test_keys_are_written_as_json_pointers() -> None:
    assert pointer(["a/b", "~1", 0, ""]) == "/a~1b/~01/0/"
    assert patched({"a/b": {"~1": 0}}, diff({"a/b": {"~1": 0}}, {"a/b": {"~1": 1}})) == {"a/b": {"~1": 1}}
