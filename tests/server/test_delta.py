"""The JSON diff of broadcast views (``damier.server.rooms.delta``): a patch turns the old value into the new one,
whatever the values, and says little when little changed."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from damier.server.rooms.delta import COPY_SIZE, apply, diff

KEYS = st.sampled_from(["a", "b", "c", "moves", "board", "", "0"])
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


@settings(max_examples=400, deadline=None)
@given(VALUES, VALUES)
def test_a_patch_turns_the_old_value_into_the_new(old: Any, new: Any) -> None:
    before, wanted = copy.deepcopy(old), copy.deepcopy(new)
    patch = diff(old, new)
    assert json_equal(apply(old, patch), new)
    assert json_equal(old, before) and json_equal(new, wanted)  # neither changed by the diff or the patch
    if json_equal(old, new):
        assert patch == []


@settings(max_examples=200, deadline=None)
@given(VALUES, st.lists(VALUES, max_size=3))
def test_a_grown_list_is_a_push_of_the_new_items(old: Any, grown: list[Any]) -> None:
    moves = [old, {"ply": 1}]
    assert diff({"moves": moves}, {"moves": moves + grown}) == ([["push", ["moves"], grown]] if grown else [])


def test_null_and_booleans_are_values_like_any_other() -> None:
    assert diff({"draw": 1, "result": 0}, {"draw": None, "result": False}) == [
        ["set", ["draw"], None], ["set", ["result"], False]]
    assert apply({"draw": 1}, [["set", ["draw"], None]]) == {"draw": None}
    assert diff({"a": None}, {}) == [["set", [], {}]] and diff({"a": None, "b": 1, "c": 2}, {"b": 1, "c": 2}) == [
        ["del", ["a"]]]


def test_a_part_that_moved_is_copied_and_then_changed() -> None:
    mine = {f"m{i}": [i, None] for i in range(COPY_SIZE)}
    old = {"board": {"previews": {}}, "premove": {"board": {"previews": mine}}}
    new = {"board": {"previews": mine}, "premove": {"board": {"previews": {"x": 1}}}}
    patch = diff(old, new)
    assert ["copy", ["board", "previews"], ["premove", "board", "previews"]] in patch
    assert apply(old, patch) == new


def test_a_part_like_one_elsewhere_is_copied_from_there_and_changed() -> None:
    mine = {f"m{i}": [i, None] for i in range(COPY_SIZE)}
    old = {"board": {"previews": mine}, "premove": {"board": {"previews": {"x": 1}}}}
    new = {"board": {"previews": {"y": 2}}, "premove": {"board": {"previews": {**mine, "m0": [0, True]}}}}
    patch = diff(old, new)
    assert patch[-2:] == [["copy", ["premove", "board", "previews"], ["board", "previews"]],
                          ["set", ["premove", "board", "previews", "m0", 1], True]]
    assert apply(old, patch) == new


@pytest.mark.parametrize(("value", "patch", "error"), [
    ({"a": 1}, [["del", ["b"]]], "no key 'b'"),
    ([1], [["set", [3], 0]], "no item 3 in an array of 1"),
    ({"a": 1}, [["push", ["a"], [2]]], "not an array"),
    ([1, 2], [["trim", [], 5]], "bad trim"),
    ({}, [["move", ["a"], 1]], "not an operation"),
    ({}, [["copy", ["a"], ["b"]]], "bad copy"),
])
def test_a_patch_that_does_not_fit_is_refused(value: Any, patch: list[Any], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        apply(value, patch)
