"""The Ricochet Robots commands: ``damier play ricochet`` in the terminal (moves, errors, undo, hints, a record) and
``damier solve ricochet`` (our ids, DriftingDroids ids, positions, the JSON form with its rules, ``--json``, and bad
input as one ``error:`` line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import damier
from damier.games.ricochet import setup
from damier.games.ricochet.rules import RicochetState
from tests.cli.test_cli import assert_clean_error, contains, invoke, run_cli

#: seed 24 draws 2B1B3B4B.BABE18C4.gc: green, on o12, reaches the green circle in two moves (GS GW)
SEED = 24
HARD = "7650+42+E2302B12+C9"  # DriftingDroids' 25-move puzzle


def shortest(state: RicochetState, depth: int) -> list[str]:
    """A shortest line of at most ``depth`` moves, breadth first through the state (small puzzles only)."""
    frontier: list[tuple[RicochetState, list[str]]] = [(state, [])]
    for _ in range(depth):
        after = []
        for here, line in frontier:
            for move in here.legal_moves():
                there = here.copy()
                there.play(move)
                if there.is_over():
                    return [*line, here.move_to_str(move)]
                after.append((there, [*line, here.move_to_str(move)]))
        frontier = after
    raise AssertionError(f"no line of {depth} moves or fewer")


def solve_json(*args: str) -> dict[str, Any]:
    result = invoke("solve", "ricochet", *args, "--json")
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


# ----- damier play ricochet -----------------------------------------------------------------------------
def test_play_solves_a_puzzle_typed_on_stdin_and_saves_the_record(tmp_path: Path) -> None:
    state = damier.load("ricochet").new_state(SEED)
    assert isinstance(state, RicochetState)
    line = shortest(state, 2)
    saved = tmp_path / "ricochet.json"
    stdin = "\n".join(["moves", "XN", "SN", "undo", *line]) + "\n"
    result = invoke("play", "ricochet", "--seed", str(SEED), "--save", str(saved), stdin=stdin)
    out = result.stdout
    assert result.exit_code == 0, out
    assert "Ricochet Robots: Player (human)" in out
    assert contains(out, "Legal moves: " + " ".join(state.move_to_str(m) for m in state.legal_moves()))
    assert contains(out, "'XN' is not a move: write a robot (R, G, B, Y, S silver, T transparent)")
    assert contains(out, "there is no silver robot in this puzzle")
    assert contains(out, "Nothing to undo.")
    target = state.puzzle.target
    assert contains(out, f"Target: the {target.name} on {setup.cell_name(target.cell)}; 0 moves used.")
    after = state.copy()
    after.play(after.parse_move(line[0]))
    assert contains(out, f"green robot {setup.cell_name(int(state.robots[1]))} -> "
                         f"{setup.cell_name(int(after.robots[1]))}")
    assert contains(out, f"Game over: solved in {len(line)} moves")
    record = json.loads(saved.read_text("utf-8"))
    assert record["moves"] == line and record["result"]["cost"] == len(line)
    assert record["result"]["termination"] == "solved"


def test_play_undo_takes_the_last_move_back() -> None:
    state = damier.load("ricochet").new_state(SEED)
    first = state.move_to_str(state.legal_moves()[0])
    stdin = "\n".join([first, "undo", "moves"]) + "\n"
    out = invoke("play", "ricochet", "--seed", str(SEED), stdin=stdin).stdout
    assert contains(out, "1 move used.") and contains(out, "Input closed: the game is left unfinished.")
    assert out.count("Legal moves: " + " ".join(state.move_to_str(m) for m in state.legal_moves())) == 1


def test_play_with_the_transparent_robot_and_silver_options() -> None:
    out = invoke("play", "ricochet", "--seed", "3", "--opt", "transparent=true", "--opt", "silver=true",
                 stdin="moves\n").stdout
    state = damier.load("ricochet", transparent=True, silver=True).new_state(3)
    legal = [state.move_to_str(m) for m in state.legal_moves()]
    assert any(m.startswith("T") for m in legal) and any(m.startswith("S") for m in legal)
    assert contains(out, "Legal moves: " + " ".join(legal))


def test_play_hints_come_from_the_solver() -> None:
    out = invoke("play", "ricochet", "--seed", str(SEED), stdin="hint\nhint\nhint\nhint\n").stdout
    assert "Hint" in out and "error" not in out.lower()


# ----- damier solve ricochet ----------------------------------------------------------------------------
def test_solve_a_puzzle_id_a_position_and_a_driftingdroids_id() -> None:
    state = damier.load("ricochet").new_state(SEED)
    report = solve_json("--puzzle", state.position())
    assert report["length"] == 2 and len(report["moves"]) == 2
    replay = damier.load("ricochet").state_from_position(state.position())
    for move in report["moves"]:
        replay.play(replay.parse_move(move))
    assert replay.is_over()
    assert solve_json("--puzzle", "1A2A3A4A.94FFF08F.rc")["moves"] == ["RN"]  # red e10 up to e2
    assert solve_json("--puzzle", "1A2A3A4A.94FFF08F.rc A4FFF08F---- 1 s----- RS")["length"] == 1  # from e11


def test_solve_reads_the_rules_from_the_puzzle() -> None:
    assert solve_json("--puzzle", "1A2A3A4A.94FFF08F.rc.s")["length"] == 3  # a turn: RN RE RW
    obj = {"quadrants": ["1A", "2A", "3A", "4A"],
           "robots": {"red": [4, 9], "green": [15, 15], "blue": [0, 15], "yellow": [15, 8]},
           "target": {"color": "red", "cell": [4, 1]}, "ricochet": "if_trivial"}
    assert solve_json("--puzzle", json.dumps(obj))["length"] == 3
    obj["ricochet"] = "off"
    assert solve_json("--puzzle", json.dumps(obj))["length"] == 1


@pytest.mark.slow
def test_solve_driftingdroids_25_move_puzzle() -> None:
    report = solve_json("--puzzle", HARD)
    assert report["length"] == 25


BAD_INPUT = [
    ("1A2A3A4E.94FFF08F.rc", "'1A2A3A4E' is not a board"),
    ("1A1B3A4A.94FFF08F.rc", "a board takes one side of each group 1, 2, 3, 4"),
    ("1A2A3A4A.9494F08F.rc", "two robots cannot stand on the same square"),
    ("1A2A3A4A.9477F08F.rc", "a robot cannot stand in the centre block"),
    ("1A2A3A4A.94FFF08F.zz", "'zz' is not a target"),
    ("1A2A3A4A.94FFF0.rc", "the robots are 4, 5 or 6 cells"),
    ("garbage", "'garbage' is not a puzzle id"),
    ("7650+40+E2302B12+C9", "says the target is for the red robot, but cell C9 (j13) holds the blue triangle"),
    ("7650+42+E2302B12+00", "cell 00 is not a target square of this board"),
    ('{"quadrants": ["1A", "2A", "3A", "4A"]', "the puzzle is not valid JSON"),
    ('{"quadrants": ["1A", "2A", "3A", "4A"], "robots": {"red": [4, 9], "green": [15, 15], "blue": [0, 15], '
     '"yellow": [15, 8]}, "target": {"color": "red", "cell": [4, 2]}}', "the target cell e3 is not a target square"),
    ("1A2A3A4A.94FFF08F.rc A4FFF08F---- 1 s----- RN", "the last move RN does not fit the memory"),
]


@pytest.mark.parametrize(("puzzle", "words"), BAD_INPUT)
def test_solve_bad_input_is_a_one_line_error(puzzle: str, words: str) -> None:
    result = invoke("solve", "ricochet", "--puzzle", puzzle)
    assert_clean_error(result, words)
    assert result.stderr.count("\n") == 1


def test_solve_in_a_subprocess_as_a_user_runs_it() -> None:
    done = run_cli("solve", "ricochet", "--puzzle", "1A2A3A4A.94FFF08F.rc", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["moves"] == ["RN"]
    bad = run_cli("solve", "ricochet", "--puzzle", "1A2A3A4A.9494F08F.rc")
    assert bad.returncode == 2 and bad.stderr == "error: two robots cannot stand on the same square\n"


