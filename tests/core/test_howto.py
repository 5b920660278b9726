"""Every game's How to play page is played by its rules: each diagram a position of its notation, each move legal
there, each example's events those the state reports; a declaration the rules refuse is a clear error."""

from __future__ import annotations

from typing import Any

import pytest

import damier
from damier.core import messages, registry
from damier.core.howto import Diagram, HowToError, diagram, localize, page


@pytest.mark.parametrize("name", [info.name for info in registry.with_feature("howto")])
def test_every_diagram_is_a_legal_position_and_every_move_legal(name: str) -> None:
    info = registry.info(name)
    for section in info.hook("howto").sections:
        for d in section.diagrams:
            game = damier.load(name, **d.options)
            state = game.start_state(d.position or None, d.seed)
            for move in (*d.before, *d.example):
                assert not state.is_over(), f"{name}: {d.caption!r} plays {move} after the end"
                assert state.parse_move(move) in state.legal_moves()
                state.play(state.parse_move(move))
            if d.example:
                assert state.events(), f"{name}: the example of {d.caption!r} does nothing to animate"


@pytest.mark.parametrize("name", [info.name for info in registry.with_feature("howto")])
def test_every_page_has_an_animated_example(name: str) -> None:
    served = page(registry.info(name))
    assert any(d["animated"] and d["events"] for s in served["sections"] for d in s["diagrams"])


def test_an_illegal_example_move_is_refused_naming_the_diagram() -> None:
    bad = Diagram("Bad", position="1r,.,./.,1b,./.,.,. r rb 2", options={"rows": 3, "cols": 3}, example=("B2",))
    with pytest.raises(HowToError, match=r"'Bad' is not a position and moves of the rules: .*B2"):
        diagram(registry.info("atoms"), bad)


def test_a_bad_position_is_refused() -> None:
    with pytest.raises(HowToError, match="not a position"):
        diagram(registry.info("khet"), Diagram("Bad", position="not a khet position"))


def english(name: str) -> dict[str, Any]:
    """Game ``name``'s page in English, its texts said from the catalogue."""
    info = registry.info(name)
    return localize(page(info), messages.game_catalogue(info.messages, "en"), "en")


def test_the_khet_texts_follow_the_options_defaults() -> None:
    quiet = registry.info("khet").options.defaults()["quiet_ply_limit"]
    texts = [i["text"] for s in english("khet")["sections"] for i in s["items"]]
    assert any(f"After {quiet} moves in a row" in t for t in texts)


def test_the_race_texts_follow_the_race_rules() -> None:
    rules = registry.info("micro").hook("race").rules(damier.load("micro"))
    texts = [t for s in english("micro")["sections"] for t in s["text"]]
    assert any(f"The first player with {rules.chips_to_win} chips wins" in t for t in texts)


def test_the_jewels_texts_follow_the_options_defaults() -> None:
    d = registry.info("jewels").options.defaults()
    texts = " ".join(t for s in english("jewels")["sections"] for t in s["text"])
    assert f"{d['size']} × {d['size']} squares with {d['jewels']} jewels, {d['walls']} walls and {d['robots']}" in texts
