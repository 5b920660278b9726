"""The layers: outer layers name no game (that imports only point down is import-linter's check, in
``pyproject.toml``, run by ``scripts/test``).

A game is one folder and one declaration: ``core``, ``ai``, ``protocol``, ``agents``, ``arena``, ``server``,
``cli`` and the page scripts and styles outside ``static/js/games/<game>/`` must not name a registered game, nor
the things only a game has (``GAME_WORDS``: a Pharaoh, a laser, a jewel, a robot...). Python is checked as code
(identifiers and string literals; docstrings, whose doctest examples may load a game, and comments are not code);
JavaScript, HTML and CSS are checked as text with their comments removed.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

import damier

PACKAGE = Path(damier.__file__).parent
OUTER = ("core", "ai", "protocol", "agents", "arena", "server", "cli")
GAMES = [info.name for info in damier.games()]
#: a game's own folders: its package and its board module in the web client
OWN = ("games/{name}/", "server/static/js/games/{name}/")
#: what only a game has: a shared layer that says one of these knows that game (plurals too)
GAME_WORDS = ("pharaoh", "pyramid", "scarab", "anubis", "sphinx", "laser", "jewel", "robot", "atom")


def outer_files(suffixes: tuple[str, ...]) -> list[Path]:
    files = []
    for layer in OUTER:
        root = PACKAGE / layer
        if root.is_dir():
            files += [p for p in root.rglob("*") if p.suffix in suffixes and "__pycache__" not in p.parts]
        elif (PACKAGE / f"{layer}.py").exists() and ".py" in suffixes:
            files.append(PACKAGE / f"{layer}.py")
    return sorted(files)


def code_of(path: Path) -> str:
    """The Python of ``path`` without docstrings and comments."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(
                body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            body[0] = ast.Pass()
    return ast.unparse(tree)


def text_of(path: Path) -> str:
    """A script or page without its comments."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    return re.sub(r"(?<![:\"'])//.*", "", text)


def named(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, flags=re.IGNORECASE) is not None


def is_own(path: Path, name: str) -> bool:
    relative = path.relative_to(PACKAGE).as_posix()
    return any(relative.startswith(own.format(name=name)) for own in OWN)


@pytest.mark.parametrize("name", GAMES)
def test_outer_python_names_no_game(name: str) -> None:
    offenders = [p.relative_to(PACKAGE).as_posix() for p in outer_files((".py",)) if named(code_of(p), name)]
    assert offenders == [], f"{name} is named outside its folder in: {offenders}"


@pytest.mark.parametrize("name", GAMES)
def test_page_scripts_name_no_game_outside_its_folder(name: str) -> None:
    files = [p for p in outer_files((".js", ".html")) if not is_own(p, name)]
    assert files, "no page scripts found"
    offenders = [p.relative_to(PACKAGE).as_posix() for p in files if named(text_of(p), name)]
    assert offenders == [], f"{name} is named outside its folder in: {offenders}"


def said(text: str, word: str) -> bool:
    """Whether ``word`` (or its plural) stands in ``text`` as a word or a part of a name (``laser``, ``--laser-glow``,
    ``.khet-board``; not ``lasering``)."""
    return re.search(rf"(?<![a-z]){re.escape(word)}s?(?![a-z])", text, flags=re.IGNORECASE) is not None


def outer_client_files(suffixes: tuple[str, ...]) -> list[Path]:
    """The web client's files outside every game's own folder."""
    return [p for p in outer_files(suffixes) if not any(is_own(p, name) for name in GAMES)]


@pytest.mark.parametrize("name", GAMES)
def test_shared_styles_name_no_game(name: str) -> None:
    files = outer_client_files((".css",))
    assert any(p.name == "styles.css" for p in files), "no shared style sheet found"
    offenders = [p.relative_to(PACKAGE).as_posix() for p in files if said(text_of(p), name)]
    assert offenders == [], f"{name} is named outside its folder in: {offenders}"


@pytest.mark.parametrize("word", GAME_WORDS)
def test_outer_layers_say_no_game_word(word: str) -> None:
    python = [p for p in outer_files((".py",)) if said(code_of(p), word)]
    client = [p for p in outer_client_files((".js", ".html", ".css")) if said(text_of(p), word)]
    offenders = [p.relative_to(PACKAGE).as_posix() for p in python + client]
    assert offenders == [], f"{word!r}, a thing of one game, is said outside the games' folders in: {offenders}"


def test_each_games_look_is_in_its_own_folder() -> None:
    # the board modules' style sheets exist, and the shared sheet has none of their rules
    sheets = sorted((PACKAGE / "server/static/js/games").glob("*/style.css"))
    assert {p.parent.name for p in sheets} >= {"khet", "micro", "ricochet", "jewels"}
    shared = text_of(PACKAGE / "server/static/styles.css")
    for sheet in sheets:
        selectors = set(re.findall(r"\.([a-z][\w-]*-board)\b", text_of(sheet)))
        assert not [s for s in selectors if f".{s}" in shared], sheet


def test_the_check_sees_a_name_in_code_and_not_in_docs(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text('"""Loads khet in an example."""\n# khet in a comment\nx = 1\n', encoding="utf-8")
    assert not named(code_of(source), "khet")
    source.write_text('"""Docs."""\nif game.name == "khet":\n    pass\n', encoding="utf-8")
    assert named(code_of(source), "khet")
    script = tmp_path / "page.js"
    script.write_text("// khet\nconst a = 1; /* atoms */\n", encoding="utf-8")
    assert not named(text_of(script), "khet") and not named(text_of(script), "atoms")
    script.write_text('import * as x from "./games/khet/index.js";\n', encoding="utf-8")
    assert named(text_of(script), "khet")
    sheet = tmp_path / "a.css"
    sheet.write_text("/* a robot */\n.board { color: red; }\n", encoding="utf-8")
    assert not said(text_of(sheet), "robot")
    sheet.write_text(".khet-board .sq { fill: var(--laser-glow); }\n", encoding="utf-8")
    assert said(text_of(sheet), "khet") and said(text_of(sheet), "laser") and not said(text_of(sheet), "micro")


ROOM_SHELLS = sorted((PACKAGE / "server" / "rooms" / "game").glob("*.py")) + sorted(
    (PACKAGE / "server" / "rooms" / "race").glob("*.py"))


def arcade_references(path: Path) -> list[str]:
    """Where ``path``'s code imports the server's arcade module or names its ``Arcade`` (type-checking imports
    included, which import-linter leaves out)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("rooms.arcade"):
            found.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Import) and any(a.name.endswith("rooms.arcade") for a in node.names):
            found.append(f"line {node.lineno}: import ...rooms.arcade")
        elif isinstance(node, ast.Name) and node.id == "Arcade":
            found.append(f"line {node.lineno}: Arcade")
    return found


@pytest.mark.parametrize("path", ROOM_SHELLS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_room_shells_see_the_server_only_through_their_house(path: Path) -> None:
    """A game room's and a race room's modules are given a narrow interface (``rooms/game/house.py``,
    ``rooms/race/house.py``; mypy checks they use nothing else), never the whole arcade."""
    assert arcade_references(path) == []


def test_the_house_check_sees_an_arcade(tmp_path: Path) -> None:
    shell = tmp_path / "shell.py"
    shell.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from damier.server.rooms.arcade import Arcade\n\ndef f(a: 'Arcade') -> None: ...\n"
                     "def g(a: Arcade) -> None: ...\n")
    assert arcade_references(shell) == ["line 3: from damier.server.rooms.arcade import ...", "line 6: Arcade"]


#: the modules every game package has, by the same names: its rules, their kernel, the notation with every parser,
#: the search (an engine's or a solver's), the text view, what the web client draws with, the How to play page
GAME_MODULES = ("rules", "kernel", "notation", "search", "view", "client", "howto")
#: names the same things once had in some games: ``setup`` holds the starts (where a game has any), ``search`` both
#: engines and solvers
OTHER_NAMES = ("solver", "solver_kernel", "setups", "starts", "parse", "parsers", "engine")


@pytest.mark.parametrize("name", GAMES)
def test_each_game_package_has_the_same_module_names(name: str) -> None:
    modules = {p.stem for p in (PACKAGE / "games" / name).glob("*.py")}
    assert [m for m in GAME_MODULES if m not in modules] == []
    assert [m for m in OTHER_NAMES if m in modules] == []


def shared_catalogues() -> list[Path]:
    """The catalogues of words outside every game's folder: the web client's shared ones and the core's."""
    folders = (PACKAGE / "server" / "static" / "i18n", PACKAGE / "core" / "i18n")
    found = sorted(p for folder in folders for p in folder.glob("*.json"))
    assert len(found) >= 6, "no shared catalogues found"
    return found


@pytest.mark.parametrize("word", [*GAMES, *GAME_WORDS])
def test_shared_catalogues_say_no_game_word(word: str) -> None:
    """The shared words name no game and none of a game's things (the English word, and each game's word for its
    things in the language of the catalogue, by the other tests of tests/i18n)."""
    offenders = [f"{p.relative_to(PACKAGE).as_posix()}: {key}"
                 for p in shared_catalogues() for key, text in json.loads(p.read_text(encoding="utf-8")).items()
                 if said(text, word) or said(key, word)]
    assert offenders == [], f"{word!r}, a thing of one game, is said in the shared catalogues: {offenders}"
