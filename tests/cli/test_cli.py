"""The ``damier`` command: real subprocesses for end-to-end checks, Typer's runner for the rest.

Rich wraps long lines at the terminal width, so text checks compare with all whitespace removed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
import typer
from typer.testing import CliRunner

import damier
from damier.cli import app
from damier.core.record import Record

SMALL = ["--opt", "rows=3", "--opt", "cols=3"]


def squash(text: str) -> str:
    return "".join(text.split())


def contains(text: str, words: str) -> bool:
    return squash(words) in squash(text)


def run_cli(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``damier ARGS`` in a fresh interpreter, as a user's shell runs it (a pipe, 80 columns)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LINES", "FORCE_COLOR")}
    env["COLUMNS"] = "80"
    return subprocess.run([sys.executable, "-m", "damier.cli", *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=timeout, check=False)


def invoke(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin)


def assert_clean_error(result: Any, words: str) -> None:
    """Exit code 2, an ``error:`` message saying ``words`` on stderr, and no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert isinstance(result.exception, SystemExit)
    assert result.stderr.startswith("error: ")
    assert contains(result.stderr, words), result.stderr
    assert "Traceback" not in result.output


def finished_record(seed: int = 0) -> Record:
    import random

    rng = random.Random(seed)
    state = damier.load("atoms", rows=3, cols=3).new_state(seed)
    while not state.is_over():
        state.play(rng.choice(state.legal_moves()))
    return Record.from_state(state)


# ----- games ----------------------------------------------------------------------------------------------
def test_games_lists_each_game_with_its_options() -> None:
    result = invoke("games")
    assert result.exit_code == 0
    assert contains(result.stdout, "atoms Exploding Atoms (2 to 8 players)")
    for option in ("--opt rows=... default 8; an integer from 2 to 26", "--opt cols=...", "--opt players=..."):
        assert contains(result.stdout, option)
    assert contains(result.stdout, "computer levels: easy, medium, hard; named agents: atoms-classic")


def test_games_says_one_player_in_the_singular() -> None:
    result = invoke("games")
    assert result.exit_code == 0
    assert contains(result.stdout, "micro Micro Robots (1 player)")
    assert contains(result.stdout, "jewels Jewels and Lasers (2 players)")
    assert "1 players" not in result.stdout


def test_games_json_is_valid_and_lists_atoms_options() -> None:
    result = invoke("games", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    atoms = next(game for game in data if game["name"] == "atoms")
    options = {option["name"]: option for option in atoms["options"]}
    assert list(options) == ["rows", "cols", "players"]
    assert options["rows"] == {**options["rows"], "type": "int", "default": 8, "min": 2, "max": 26}
    assert atoms["levels"]["hard"] == "alphabeta:time=1.0,eval=strong"
    assert atoms["has_chance"] is False


# ----- play -----------------------------------------------------------------------------------------------
def computer_moves(output: str) -> list[str]:
    return re.findall(r"\((?:random|alphabeta[^)]*)\) plays (\w+)", output)


def test_play_a_human_session_from_stdin(tmp_path: Path) -> None:
    saved = tmp_path / "session.json"
    lines = ["A1", "moves", "Z9", "undo", "B2", "moves", f"save {saved}", "resign"]
    result = invoke("play", "atoms", *SMALL, "--players", "human,random", "--seed", "1", stdin="\n".join(lines) + "\n")
    out = result.stdout
    assert result.exit_code == 0, out
    assert "Traceback" not in out

    # a board with column letters and row numbers
    assert re.search(r"^\s+A\s+B\s+C\s*$", out, re.MULTILINE)
    for row in "123":
        assert re.search(rf"^\s+{row}\s+", out, re.MULTILINE)

    # 'moves' lists exactly the legal moves of the position after A1 and the computer's reply
    replies = computer_moves(out)
    assert len(replies) == 2
    state = damier.load("atoms", rows=3, cols=3).new_state(1)
    state.play(state.parse_move("A1"))
    state.play(state.parse_move(replies[0]))
    listed = re.findall(r"Legal moves: ([A-C1-3 ]+)", out)
    assert listed[0].split() == [state.move_to_str(m) for m in state.legal_moves()]

    assert contains(out, "square 'Z9' is off the 3x3 board; squares run from A1 to C3")
    assert contains(out, "Type 'moves' for the legal moves")

    # undo took back A1 and the reply: the saved game starts with B2
    record = Record.load(saved)
    assert record.moves == ["B2", replies[1]]
    assert record.result is None  # saved before the resignation
    final = record.replay()
    assert final.position() == listed_position_after(["B2", replies[1]])
    assert contains(out, "Game over: Red resigned: Blue wins.")


def listed_position_after(moves: list[str]) -> str:
    state = damier.load("atoms", rows=3, cols=3).new_state(1)
    for move in moves:
        state.play(state.parse_move(move))
    return state.position()


def test_play_refuses_an_opponent_square_and_goes_on() -> None:
    args = ["play", "atoms", *SMALL, "--players", "human,random", "--seed", "1"]
    first = invoke(*args, stdin="A1\n")
    [reply] = computer_moves(first.stdout)
    second = invoke(*args, stdin=f"A1\n{reply}\nmoves\nresign\n")
    assert computer_moves(second.stdout) == [reply]  # the seed makes the computer's answer reproducible
    assert second.exit_code == 0
    refusal = f"{reply} belongs to Blue; Red may play on an empty square or on a square of its own"
    assert contains(second.stdout, refusal)
    assert contains(second.stdout, "Legal moves:")  # the session goes on after the refused move


def test_play_ends_quietly_when_input_closes() -> None:
    result = invoke("play", "atoms", *SMALL, "--players", "human,random", "--seed", "1", stdin="A1\n")
    assert result.exit_code == 0
    assert contains(result.stdout, "Input closed: the game is left unfinished.")


def test_play_two_computers_to_the_end_and_save(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = invoke("play", "atoms", *SMALL, "--players", "random,random", "--seed", "3", "--save", str(path))
    assert result.exit_code == 0, result.output
    record = Record.load(path)
    assert record.moves == computer_moves(result.stdout)
    assert record.players == ["Red (random)", "Blue (random)"]
    assert record.seed == 3 and record.options == {"rows": 3, "cols": 3, "players": 2}
    state = record.replay()
    outcome = state.outcome()
    assert outcome is not None and record.result == outcome
    assert contains(result.stdout, f"Game over: {outcome.reason}.")

    again = tmp_path / "again.json"
    invoke("play", "atoms", *SMALL, "--players", "random,random", "--seed", "3", "--save", str(again))
    assert Record.load(again).moves == record.moves  # the seed makes the game reproducible


def test_play_end_to_end_in_a_subprocess(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    done = run_cli("play", "atoms", *SMALL, "--players", "random,alphabeta:depth=1", "--seed", "5",
                   "--save", str(path))
    assert done.returncode == 0, done.stderr
    record = Record.load(path)
    state = record.replay()
    assert state.is_over() and record.result == state.outcome()
    assert contains(done.stdout, "Game over:")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "chess"], "unknown game 'chess'; known games: atoms"),
        (["play", "atoms", "--opt", "colour=red"],
         "atoms has no option 'colour'; its options are: rows, cols, players"),
        (["play", "atoms", "--opt", "rows=1"], "option 'rows': 1 is out of range; expected an integer from 2 to 26"),
        (["play", "atoms", "--opt", "rows"], "option 'rows' is not of the form key=value"),
        (["play", "atoms", "--players", "human,random,random"], "--players lists 3 seats; atoms with these options "
         "has 2 players (Red, Blue)"),
        (["play", "atoms", "--opt", "players=3", "--players", "human,random"], "--players lists 2 seats"),
        (["play", "atoms", "--players", "human,nosuch"], "unknown agent 'nosuch'"),
        (["play", "atoms", "--players", "human,alphabeta:depth=0"], "depth=0 is out of range"),
        (["arena", "chess", "--agents", "random", "--agents", "hard"], "unknown game 'chess'"),
        (["arena", "atoms", "--agents", "random"], "--agents needs at least two agent specs"),
        (["bench", "chess"], "unknown game 'chess'"),
        (["bench", "atoms", "--opt", "rows=1"], "option 'rows': 1 is out of range"),
    ],
)
def test_bad_input_exits_2_with_a_clear_error(args: list[str], words: str) -> None:
    assert_clean_error(invoke(*args), words)


def test_arena_with_a_bad_spec_prints_only_the_error() -> None:
    # today a "0/10" progress bar is drawn on stderr before the specs are checked, then the error
    result = invoke("arena", "atoms", *SMALL, "--agents", "random", "--agents", "mcts:budget=1")
    assert_clean_error(result, "'budget=1' is not a parameter of mcts")


# ----- record show ----------------------------------------------------------------------------------------
def test_record_show_replays_a_record(tmp_path: Path) -> None:
    record = finished_record(2)
    path = tmp_path / "game.json"
    record.save(path)
    result = invoke("record", "show", str(path))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert contains(out, "Exploding Atoms {'rows': 3, 'cols': 3, 'players': 2}")
    assert contains(out, "Players: Red vs Blue")
    # two players alternate: the moves in numbered pairs, Red's first
    numbered = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(record.moves))
    assert contains(out, f"Moves ({len(record.moves)}): {numbered}")
    assert record.result is not None
    assert contains(out, f"Result: {record.result.reason}")
    assert re.search(r"^\s+A\s+B\s+C\s*$", out, re.MULTILINE)


def test_record_show_numbers_each_move_with_three_players(tmp_path: Path) -> None:
    import random

    rng = random.Random(4)
    state = damier.load("atoms", rows=3, cols=3, players=3).new_state()
    for _ in range(7):
        state.play(rng.choice(state.legal_moves()))
    record = Record.from_state(state)
    record.save(tmp_path / "three.json")
    out = invoke("record", "show", str(tmp_path / "three.json")).stdout
    assert contains(out, "Moves (7): " + " ".join(f"{i + 1}.{m}" for i, m in enumerate(record.moves)))


def test_record_show_json(tmp_path: Path) -> None:
    record = finished_record(4)
    path = tmp_path / "game.json"
    record.save(path)
    result = invoke("record", "show", str(path), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["record"] == json.loads(path.read_text())
    assert data["final_position"] == record.replay().position()


def test_record_show_an_unfinished_record(tmp_path: Path) -> None:
    state = damier.load("atoms", rows=3, cols=3).new_state()
    state.play(state.parse_move("B2"))
    path = tmp_path / "unfinished.json"
    Record.from_state(state).save(path)
    result = invoke("record", "show", str(path))
    assert result.exit_code == 0
    assert contains(result.stdout, "Moves (1): 1.B2")
    assert contains(result.stdout, "Result: unfinished")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "no such file:"),
        ("this is not json", "is not valid JSON (line 1, column 1"),
        ('{"format": "damier.state", "version": 1}', "not a damier record: format is 'damier.state'"),
        ("[1, 2, 3]", "a record must be a JSON object, not list"),
    ],
)
def test_record_show_rejects_bad_files(tmp_path: Path, content: str | None, words: str) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert_clean_error(invoke("record", "show", str(path)), words)


def test_record_show_rejects_an_illegal_move(tmp_path: Path) -> None:
    data = finished_record(1).to_json()
    data["moves"][1] = data["moves"][0]  # Blue plays on Red's square
    data["result"] = None
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_clean_error(invoke("record", "show", str(path)), f"move 2 ('{data['moves'][0]}') does not replay")


# ----- arena and bench (subprocesses: --agents takes several values only through damier.cli.main) -----------
def test_arena_json_through_the_command_line() -> None:
    done = run_cli("arena", "atoms", *SMALL, "--agents", "random", "alphabeta:depth=1", "--games", "2", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["agents"] == ["random", "alphabeta:depth=1"]
    assert {s["agent"]: s["games"] for s in data["standings"]} == {"random": 2, "alphabeta:depth=1": 2}
    assert sum(s["wins"] for s in data["standings"]) == 2
    assert [r["agent"] for r in data["elo"]] == data["agents"]
    for rating in data["elo"]:
        assert rating["low"] <= rating["elo"] <= rating["high"]
    assert len(data["games"]) == 2
    for game in data["games"]:
        assert Record.from_json(game["record"]).replay().is_over()


def test_arena_table_lists_every_agent(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from damier import cli

    monkeypatch.setattr(sys, "argv", ["damier", "arena", "atoms", *SMALL, "--agents", "random", "alphabeta:depth=1",
                                      "--games", "2", "--workers", "1"])
    with pytest.raises(SystemExit) as caught:
        cli.main()
    assert caught.value.code in (0, None)
    out = capsys.readouterr().out
    assert contains(out, "Exploding Atoms arena: 2 games")
    assert contains(out, "random vs alphabeta:depth=1:")
    for column in ("agent", "games", "W", "D", "L", "score", "Elo", "95% interval"):
        assert column in out
    # the pair's results, and the same split by who moved first (one game each way: seats alternate)
    found = re.search(r"(\d+) W, (\d+) D, (\d+) L \(moving first (\d+)-(\d+)-(\d+), second (\d+)-(\d+)-(\d+)\)",
                      " ".join(out.split()))
    assert found, out
    total, first, second = (tuple(int(x) for x in found.groups()[i:i + 3]) for i in (0, 3, 6))
    assert sum(first) == sum(second) == 1
    assert tuple(f + s for f, s in zip(first, second, strict=True)) == total


def test_bench_json_reports_both_speeds_and_their_ratio() -> None:
    done = run_cli("bench", "atoms", "--opt", "rows=4", "--opt", "cols=4", "--seconds", "0.3", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["game"] == "atoms"
    assert report["options"] == {"rows": 4, "cols": 4, "players": 2}
    jit, nojit, ratio = report["playouts_per_s"], report["nojit_playouts_per_s"], report["ratio"]
    assert jit > 0 and nojit > 0 and ratio > 0
    assert ratio == pytest.approx(jit / nojit, abs=0.05 + 1e-3 * jit / nojit)


# ----- version and help -----------------------------------------------------------------------------------
def test_version() -> None:
    done = run_cli("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"damier {damier.__version__}"
    assert invoke("--version").stdout.strip() == f"damier {damier.__version__}"


# ----- the end of a command (damier.cli.quick_exit) ------------------------------------------------------------
ENDING = """
import atexit, sys, threading, time
import damier.cli
atexit.register(lambda: print("an exit handler ran", flush=True))
if sys.argv[1] == "thread":
    threading.Thread(target=lambda: (time.sleep(0.5), print("the thread ended", flush=True))).start()
if sys.argv[1] == "message":  # a command that ends with sys.exit("...")
    def ends(**_):
        sys.exit("a last word")
    damier.cli.app = ends
sys.argv = ["damier", *sys.argv[2:]]
damier.cli.main()
"""


@pytest.mark.parametrize(("thread", "args", "code"), [
    ("none", ["perft", "khet", "--depth", "2"], 0),
    ("none", ["perft", "khet"], 2),  # typer's usage error: no --depth
    ("none", ["perft", "nogame", "--depth", "1"], 2),  # ours
    ("thread", ["perft", "khet", "--depth", "2"], 0),
    ("message", ["perft", "khet", "--depth", "2"], 1),  # printed, and 1, as Python does
])
def test_a_command_ends_with_its_code_its_output_whole_its_exit_handlers_run_and_its_threads_awaited(
        thread: str, args: list[str], code: int) -> None:
    done = subprocess.run([sys.executable, "-c", ENDING, thread, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == code, done.stderr
    assert done.stdout.rstrip().endswith("an exit handler ran"), done.stdout
    if code == 0:
        assert "perft 2 from classic: 5,920 nodes" in done.stdout, done.stdout
    else:
        assert "Traceback" not in done.stderr and done.stderr.strip(), done.stderr
    assert ("the thread ended" in done.stdout) == (thread == "thread"), done.stdout
    assert (done.stderr.strip() == "a last word") == (thread == "message"), done.stderr


def every_command() -> list[list[str]]:
    """The path of every command and group of the app, hidden ones included."""
    paths: list[list[str]] = [[]]

    def walk(command: click.Command, path: list[str]) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            paths.append([*path, name])
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return paths


@pytest.mark.parametrize("path", every_command(), ids=lambda p: " ".join(p) or "damier")
def test_every_command_has_help(path: list[str]) -> None:
    result = invoke(*path, "--help")
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.stdout
    assert "<bool>" not in result.stdout  # a flag takes no value: no type label beside --help, --json...


def test_the_main_commands_exist() -> None:
    names = {" ".join(p) for p in every_command()}
    assert {"games", "play", "arena", "bench", "record", "record show"} <= names


# ----- bugs: user text must never be read as Rich markup; an error is one line ---------------------------------
def test_a_move_that_looks_like_markup_is_reported_not_crashed_on() -> None:
    result = invoke("play", "atoms", *SMALL, "--players", "human,random", "--seed", "1", stdin="[/]\nresign\n")
    assert result.exception is None, repr(result.exception)
    assert result.exit_code == 0
    assert contains(result.stdout, "'[/]' is not a square")


def test_a_game_name_that_looks_like_markup_gets_a_clean_error() -> None:
    done = run_cli("play", "[/]")
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert contains(done.stderr, "unknown game '[/]'")


def test_record_show_prints_player_names_verbatim(tmp_path: Path) -> None:
    record = finished_record(5)
    record.players = ["[bold]Ann[/bold]", "[/]"]
    path = tmp_path / "names.json"
    record.save(path)
    result = invoke("record", "show", str(path))
    assert result.exception is None, repr(result.exception)
    assert contains(result.stdout, "Players: [bold]Ann[/bold] vs [/]")


@pytest.mark.parametrize(
    "args",
    [
        ["play", "atoms", "--players", "human,nosuch"],
        ["record", "show", "/nonexistent/directory/with/a/rather/long/name/for/a/record/file.json"],
    ],
)
def test_an_error_is_one_line_even_when_long(args: list[str]) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("error: ")
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


# ----- every game's perft and engine (through its declaration) ---------------------------------------------
def naive_perft(state: damier.State, depth: int) -> int:
    """Leaves ``depth`` plies below ``state``, by the contract alone (an independent count)."""
    if depth == 0:
        return 1
    if state.is_over():
        return 0
    total = 0
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        total += naive_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("name", [info.name for info in damier.games()])
def test_perft_works_for_every_game(name: str) -> None:
    game = damier.load(name)
    result = invoke("perft", name, "--depth", "2", "--divide", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    state = game.new_state()
    assert report["nodes"] == naive_perft(state, 2) == sum(report["divide"].values())
    assert list(report["divide"]) == [state.move_to_str(m) for m in state.legal_moves()]


def test_the_engine_of_a_game_without_setups_takes_startpos() -> None:
    done = run_cli("engine", "atoms", "--opt", "rows=4", "--opt", "cols=4",
               stdin="position startpos moves B2\ngo depth 2\nisready\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    bestmove = next(line for line in lines if line.startswith("bestmove "))
    state = damier.load("atoms", rows=4, cols=4).new_state()
    state.play(state.parse_move("B2"))
    assert state.is_legal(state.parse_move(bestmove.split()[1]))
    assert [line.split()[4] for line in lines if line.startswith("info time")] == ["1", "2"]


def test_keys_typed_while_the_computer_thinks_are_neither_echoed_nor_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """``play`` thinks inside ``quiet_keyboard``: on a real terminal (a pty here), keys typed meanwhile are not
    echoed, and are dropped once it ends (nothing is played ahead by accident)."""
    import fcntl
    import pty
    import select

    from damier.cli.play import quiet_keyboard

    leader, follower = pty.openpty()
    for fd in (leader, follower):
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)

    def pending(fd: int) -> bytes:
        got = b""
        while select.select([fd], [], [], 0.3)[0]:
            try:
                chunk = os.read(fd, 1024)
            except BlockingIOError:
                break
            if not chunk:
                break
            got += chunk
        return got

    with open(follower, "rb", closefd=False) as terminal:
        monkeypatch.setattr(sys, "stdin", terminal)
        with quiet_keyboard():
            os.write(leader, b"A1\n")  # typed while the computer thinks
            assert pending(leader) == b""  # not echoed
        assert pending(follower) == b""  # dropped: nothing left for the next prompt to read
        os.write(leader, b"B2\n")  # typed at the prompt: echoed and read as usual
        assert b"B2" in pending(leader) and pending(follower) == b"B2\n"
    os.close(leader)
    os.close(follower)


def test_numbered_writes_two_players_moves_in_pairs() -> None:
    from damier.cli.play import numbered

    record = Record(game="atoms", options={"rows": 3, "cols": 3}, moves=["A1", "C3", "A1"])
    assert numbered(record) == "1. A1 C3 2. A1"
