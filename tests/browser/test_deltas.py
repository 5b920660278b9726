"""Views sent as deltas (a large view's change, ``damier.server.rooms.delta``, an RFC 6902 JSON Patch) in a real
browser: the page's applier (``static/js/delta.js``) agrees with the ``jsonpatch`` package on many random pairs of
values and refuses what does not fit, a page watching a game with a
large view (Khet's, with its laser previews) is sent deltas and draws every move from them, and a delta on a view
the page does not hold makes it reconnect (and get the whole view again)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import jsonpatch
import pytest
from playwright.sync_api import Page, expect

from damier.server.rooms.delta import COPY_SIZE, diff
from tests.browser import http
from tests.server.conftest import ServerProcess

pytestmark = pytest.mark.slow

#: keys a random object draws from: few, so that two values share parts; "__proto__" is an own key in JSON
KEYS = ["a", "b", "c", "d", "e", "moves", "board", "previews", "", "__proto__"]


def random_value(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value: null, booleans, small numbers, strings, and arrays (some long) and objects, nested."""
    kind = rng.randrange(7 if depth < 4 else 4)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, 1, -1, 2, 0.5])
    if kind in (2, 3):
        return rng.choice(["", "x", "y", "é"])
    if kind == 4:
        return [random_value(rng, depth + 1) for _ in range(rng.choice([0, 1, 2, COPY_SIZE, COPY_SIZE + 1]))]
    return {rng.choice(KEYS): random_value(rng, depth + 1) for _ in range(rng.randrange(COPY_SIZE + 2))}


def changed(rng: random.Random, value: Any) -> Any:
    """``value`` changed here and there (or another value altogether): pairs that share parts, as views do."""
    if rng.random() < 0.2:
        return random_value(rng)
    if isinstance(value, dict):
        out = {k: changed(rng, v) if rng.random() < 0.3 else v for k, v in value.items()}
        if rng.random() < 0.3:
            out[rng.choice(KEYS)] = random_value(rng, 2)
        if out and rng.random() < 0.2:
            out.pop(rng.choice(list(out)))
        return out
    if isinstance(value, list):
        out = [changed(rng, v) if rng.random() < 0.3 else v for v in value]
        if rng.random() < 0.3:
            out += [random_value(rng, 2) for _ in range(rng.randrange(1, 3))]
        elif out and rng.random() < 0.2:
            out = out[:rng.randrange(len(out))]
        return out
    return value


def large(rng: random.Random) -> Any:
    """A random object or array large enough to be copied when it moves (``COPY_SIZE``)."""
    if rng.random() < 0.5:
        return [random_value(rng, 2) for _ in range(COPY_SIZE + rng.randrange(2))]
    return {key: random_value(rng, 2) for key in rng.sample(KEYS, COPY_SIZE + rng.randrange(2))}


def moved(rng: random.Random) -> tuple[Any, Any]:
    """Two views where large parts moved, as a player's previews do from one move to the next: one as it was,
    one changed a bit, under the same name."""
    mine, yours = large(rng), large(rng)
    old = {"board": {"previews": mine}, "premove": {"board": {"previews": yours}}, "a": random_value(rng)}
    new = {"board": {"previews": yours if rng.random() < 0.5 else changed(rng, yours)},
           "premove": {"board": {"previews": changed(rng, mine)}}, "a": changed(rng, old["a"])}
    return old, new


DIFFERENTIAL = """async (cases) => {
  const { applyPatch } = await import("/static/js/delta.js");
  return JSON.stringify(JSON.parse(cases).map(([old, patch]) => {
    const before = JSON.stringify(old);
    const result = applyPatch(old, patch);
    return [result, JSON.stringify(old) === before];
  }));
}"""


def test_the_pages_patcher_agrees_with_the_servers(page: Page, live_server: ServerProcess) -> None:
    rng = random.Random(13)
    pairs = []
    for i in range(400):
        old = random_value(rng)
        pairs.append((old, changed(rng, old)) if i % 4 else moved(rng))
    patches = [diff(old, new) for old, new in pairs]
    used = [sum(any(op["op"] == name for op in patch) for patch in patches)
            for name in ("add", "remove", "replace", "copy")]
    assert min(used) >= 10, used  # every operation is tried
    page.goto(f"{live_server.url}/#/")
    results = json.loads(page.evaluate(DIFFERENTIAL, json.dumps([[old, patch] for (old, _), patch in
                                                                 zip(pairs, patches, strict=True)])))
    for (old, new), patch, (result, unchanged) in zip(pairs, patches, results, strict=True):
        assert unchanged, (old, patch)
        assert result == new == jsonpatch.apply_patch(old, patch), (old, patch)
        # booleans stay booleans and null stays null (an object's keys may come in another order)
        assert json.dumps(result, sort_keys=True) == json.dumps(new, sort_keys=True)


def test_a_watching_page_draws_each_move_from_the_deltas_it_is_sent(page: Page, live_server: ServerProcess) -> None:
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "khet", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    game_id, tokens = created["id"], created["tokens"]
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))))
    page.goto(f"{live_server.url}/#/game/{game_id}")  # a page that plays no seat: it watches
    expect(page.get_by_test_id("square-e1")).to_be_visible()
    played = []
    for ply in range(1, 4):
        view = http.get(f"{live_server.url}/api/games/{game_id}").json()
        move = view["legal_moves"][-1]
        answer = http.post(f"{live_server.url}/api/games/{game_id}/moves",
                            json={"move": move, "version": view["version"]},
                            headers={"X-Seat-Token": tokens[str(view["player"])]})
        assert answer.status_code == 200, answer.text
        played.append(move)
        expect(page.get_by_test_id(f"move-{ply}")).to_have_attribute("title", re.compile(f" {re.escape(move)}$"))
    views = [f for f in frames if f.get("type") in ("state", "delta")]
    # the view on arrival, the first move's whole (the page's view was not the one broadcast), then deltas
    assert [f["type"] for f in views] == ["state", "state", "delta", "delta"]
    assert [f["seq"] for f in views] == [0, 1, 2, 3] and [f["base"] for f in views[2:]] == [1, 2]
    shown = page.get_by_test_id("move-3").get_attribute("title")
    assert shown is not None and shown.endswith(played[-1])


GAP = """async ([id]) => {
  const { Connection } = await import("/static/js/pages/game/connection.js");
  const seen = [];
  return await new Promise((resolve) => {
    const connection = new Connection(id, {
      receive: (view, source) => {
        seen.push([view.version, source]);
        if (seen.length === 1) {
          // a delta on a view this page never had: it drops the socket and opens another
          const patch = [{ op: "replace", path: "/version", value: -1 }];
          connection.patch(connection.ws, { type: "delta", seq: 99, base: 98, patch });
        } else {
          connection.close();
          resolve(seen);
        }
      },
      status: () => {},
    });
    connection.connect();
  });
}"""


def test_a_delta_on_a_view_the_page_does_not_hold_reconnects(page: Page, live_server: ServerProcess) -> None:
    created = http.post(f"{live_server.url}/api/games", json={
        "game": "khet", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    page.goto(f"{live_server.url}/#/")
    # the patch is never applied: the page shows the whole view the new socket sends
    assert page.evaluate(GAP, [created["id"]]) == [[0, "ws"], [0, "ws"]]


REFUSED = """async (cases) => {
  const { applyPatch } = await import("/static/js/delta.js");
  return JSON.parse(cases).map(([value, patch]) => {
    const before = JSON.stringify(value);
    try {
      applyPatch(value, patch);
      return "applied";
    } catch (err) {
      return JSON.stringify(value) === before ? err.message : "changed";
    }
  });
}"""


def test_the_pages_applier_refuses_what_does_not_fit_as_jsonpatch_does(page: Page, live_server: ServerProcess) -> None:
    cases = [
        ({"a": 1}, [{"op": "remove", "path": "/b"}]),
        ([1], [{"op": "replace", "path": "/3", "value": 0}]),
        ([1], [{"op": "add", "path": "/01", "value": 0}]),
        ({"a": 1}, [{"op": "add", "path": "/a/b", "value": 2}]),
        ({"a": 1}, [{"op": "replace", "path": "/b", "value": 2}]),
        ({}, [{"op": "copy", "from": "/b", "path": "/a"}]),
        ({"a": {"b": 1}}, [{"op": "move", "from": "/a", "path": "/a/b/c"}]),
        ({"a": 1}, [{"op": "test", "path": "/a", "value": 2}]),
        ({}, [{"op": "set", "path": "/a", "value": 1}]),
        ({}, [{"op": "add", "path": "a", "value": 1}]),
        ({"a": 1}, [{"op": "replace", "path": "/a", "value": 2}, {"op": "remove", "path": "/zz"}]),
    ]
    for value, patch in cases:  # the library refuses each too
        with pytest.raises((jsonpatch.JsonPatchException, jsonpatch.JsonPointerException)):
            jsonpatch.apply_patch(value, patch)
    page.goto(f"{live_server.url}/#/")
    answers = page.evaluate(REFUSED, json.dumps(cases))
    assert "applied" not in answers and "changed" not in answers, answers
    assert all(answers), answers  # each says why
    # and what fits, it applies as the library does
    fits = [({"a": [1, 2]}, [{"op": "move", "from": "/a/0", "path": "/a/-"},
                             {"op": "test", "path": "/a", "value": [2, 1]}]),
            ({"a~/b": {}}, [{"op": "add", "path": "/a~0~1b/c", "value": None},
                            {"op": "copy", "from": "/a~0~1b", "path": "/d"}])]
    applied = page.evaluate("""async (cases) => {
      const { applyPatch } = await import("/static/js/delta.js");
      return JSON.parse(cases).map(([value, patch]) => applyPatch(value, patch));
    }""", json.dumps(fits))
    assert applied == [jsonpatch.apply_patch(value, patch) for value, patch in fits]
