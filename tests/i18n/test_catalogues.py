"""The catalogues (damier/server/static/i18n/<lang>.json, and each game's damier/games/<game>/messages/<lang>.json):
every language has every English key with the same placeholders and plural forms, every key the client and the
server use is there, and the shared catalogue holds no game's words (the layer rule: the shared client names no
game)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

import damier
from damier.core import messages, registry
from damier.core.messages import Argument, parse_message, signature
from damier.server.declared import english_words

ROOT = Path(damier.__file__).parent
STATIC = ROOT / "server" / "static"
#: (name, package, folder): the shared client's and each game's
CATALOGUES = [("shared", *messages.SHARED), ("core", *messages.CORE)] + [
    (info.name, info.messages, "messages") for info in registry.all_infos() if info.messages]


def test_every_registered_game_has_its_catalogues() -> None:
    for info in registry.all_infos():
        assert info.messages, f"{info.name} declares no catalogue"
        for lang in messages.LANGUAGES:
            assert messages.raw_catalogue(info.messages, "messages", lang), f"{info.name} has no {lang}.json"


def plural_keys(pattern: str) -> list[set[str]]:
    """The option keys of each plural in ``pattern``, in order."""
    found: list[set[str]] = []

    def walk(parts: tuple[object, ...]) -> None:
        for part in parts:
            if isinstance(part, Argument):
                if part.kind == "plural":
                    found.append({key for key, _ in part.options})
                for _key, sub in part.options:
                    walk(sub)

    walk(parse_message(pattern))
    return found


def english_of(name: str, package: str, folder: str) -> dict[str, str]:
    """A catalogue's English: its en.json, and for a game the words it declares in Python (``server.declared``)."""
    english = messages.raw_catalogue(package, folder, "en")
    if name not in ("shared", "core"):
        declared = english_words(registry.info(name))
        assert not set(declared) & set(english), f"{name}'s en.json repeats words its declaration has"
        english |= declared
    return english


@pytest.mark.parametrize(("name", "package", "folder"), CATALOGUES, ids=[c[0] for c in CATALOGUES])
@pytest.mark.parametrize("lang", [code for code in messages.LANGUAGES if code != messages.DEFAULT])
def test_a_language_has_every_english_key_with_the_same_placeholders(name: str, package: str, folder: str,
                                                                     lang: str) -> None:
    english = english_of(name, package, folder)
    other = messages.raw_catalogue(package, folder, lang)
    assert sorted(set(english) - set(other)) == [], f"{name} {lang}.json lacks these keys"
    assert sorted(set(other) - set(english)) == [], f"{name} {lang}.json has keys English does not"
    for key, text in english.items():
        assert signature(other[key]) == signature(text), f"{name} {lang} {key}: not the same placeholders"
        # the forms the language's numbers need where the English has them (CLDR: "one" and "other" for the
        # three; "many" falls back on "other"; a plural used as a choice of "=0" or not needs no "one")
        for mine, theirs in zip(plural_keys(other[key]), plural_keys(text), strict=False):
            assert {"one", "other"} & theirs <= mine, f"{name} {lang} {key}: a plural lacks a form English has"
        assert other[key].strip(), f"{name} {lang} {key} is empty"


@pytest.mark.parametrize(("name", "package", "folder"), CATALOGUES, ids=[c[0] for c in CATALOGUES])
def test_english_messages_parse_and_are_not_empty(name: str, package: str, folder: str) -> None:
    for key, text in messages.raw_catalogue(package, folder, "en").items():
        assert re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)+", key), f"{name}: key {key!r} is not dotted snake_case"
        parse_message(text)
        assert text.strip(), f"{name} {key} is empty"


def used_in_client() -> dict[str, set[str]]:
    """The keys each catalogue must have for the client: t("...") and data-i18n in the shared files, tk("...")
    in a game's board module (static/js/games/<game>/)."""
    used: dict[str, set[str]] = {"shared": set()}
    for path in [*STATIC.joinpath("js").rglob("*.js"), STATIC / "index.html"]:
        text = path.read_text(encoding="utf-8")
        relative = path.relative_to(STATIC / "js") if path.suffix == ".js" else Path("index.html")
        game = relative.parts[1] if relative.parts[0] == "games" and len(relative.parts) > 2 else None
        shared = set(re.findall(r'\bt\(\s*"([^"]+)"', text)) | set(
            re.findall(r'data-i18n(?:-label|-title)?="([^"]+)"', text))
        used["shared"] |= shared
        own = set(re.findall(r'\btk\(\s*"([^"]+)"', text))
        if own:
            assert game, f"{relative} uses tk() outside a board module"
            used.setdefault(game, set()).update(own)
    return used


def test_every_key_the_client_uses_is_in_english() -> None:
    keys = {name: set(messages.raw_catalogue(package, folder, "en")) for name, package, folder in CATALOGUES}
    for name, wanted in used_in_client().items():
        assert name in keys, f"a board module {name} without a game catalogue"
        assert sorted(wanted - keys[name]) == [], f"keys the client uses that {name}'s en.json lacks"


def test_every_code_said_is_in_english() -> None:
    """The server's ``say`` finds its codes in the shared catalogue, the rules' (``damier.core.messages.say``) in the
    core's or, under a game's name, in that game's."""
    shared = messages.raw_catalogue(*messages.SHARED, "en")
    rules = messages.rules_words("en")
    said: dict[str, set[str]] = {"server": set(), "rules": set()}
    for path in ROOT.rglob("*.py"):
        side = "server" if path.is_relative_to(ROOT / "server") else "rules"
        text = path.read_text(encoding="utf-8")
        said[side] |= set(re.findall(r'(?<![.\w])say\(\s*"([^"]+)"', text))
        said["rules"] |= set(re.findall(r'\bmessages\.say\(\s*"([^"]+)"', text))
    assert said["server"] and said["rules"], "no say() found: the scan is broken"
    assert sorted(said["server"] - set(shared)) == []
    assert sorted(said["rules"] - set(rules)) == []


def test_the_shared_catalogues_hold_no_game_words() -> None:
    """The shared client names no game: no game's title, and none of the words a game's catalogue defines for its
    pieces and robots (its ``piece.*`` and ``robot.*`` keys), in any language of the shared catalogue."""
    for lang in messages.LANGUAGES:
        shared = messages.raw_catalogue(*messages.SHARED, lang)
        assert shared
        for info in registry.all_infos():
            words = {info.title, info.name}
            game = messages.raw_catalogue(info.messages, "messages", lang)
            words |= {text for key, text in game.items()
                      if key.split(".")[0] in ("piece", "robot") and re.fullmatch(r"[\w\u00C0-\u017F -]{4,}", text)}
            for key, text in shared.items():
                assert not any(re.search(rf"\b{re.escape(w)}\b", text, re.IGNORECASE) for w in words), (
                    f"the shared {lang} message {key} names {info.name}'s words: {text!r}")
            assert not any(key.startswith(f"{info.name}.") for key in shared)


def test_a_missing_translation_falls_back_to_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "fallbackgame" / "messages"
    folder.mkdir(parents=True)
    (folder / "en.json").write_text(json.dumps({"a.b": "Board", "a.c": "{n, plural, one {# jewel} other {# jewels}}"}))
    (folder / "fr.json").write_text(json.dumps({"a.b": "Plateau"}, ensure_ascii=False))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        fr = messages.game_catalogue("fallbackgame", "fr")
        assert dict(fr) == {"a.b": "Plateau", "a.c": "{n, plural, one {# jewel} other {# jewels}}"}
        assert dict(messages.game_catalogue("fallbackgame", "es")) == messages.raw_catalogue(
            "fallbackgame", "messages", "en")
    finally:
        messages.catalogue.cache_clear()
        sys.modules.pop("fallbackgame", None)
