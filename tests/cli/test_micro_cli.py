"""The Micro Robots commands: ``damier micro stats`` (the sides' facts), ``damier solve micro`` (ids, positions,
the JSON form, ``--exact``, ``--all``, ``--json``, bad input) and ``damier play micro`` in the terminal (moves
and graded hints over stdin)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import damier
from damier.games.micro import search, setup
from damier.games.micro.rules import MicroState
from tests.cli.test_cli import assert_clean_error, contains, invoke, run_cli
from tests.games.micro import reference

PUZZLE = "A-1234-0000_R5_B1"
B_DATA = Path(setup.__file__).parent / "data" / "side_b.json"


def solve_json(*args: str) -> dict[str, Any]:
    result = invoke("solve", "micro", *args, "--json")
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


# ----- damier micro stats -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stats() -> dict[str, dict[str, Any]]:
    out = {}
    for side in setup.SIDES:
        result = invoke("micro", "stats", "--side", side, "--json")
        assert result.exit_code == 0, result.output
        out[side] = json.loads(result.stdout)
    return out


def test_stats_reproduce_side_a_diameters_exactly(stats: dict[str, dict[str, Any]]) -> None:
    report = stats["A"]
    assert (report["side"], report["arrangements"], report["disconnected"]) == ("A", 6144, 0)
    assert report["diameters"] == {str(k): v for k, v in reference.SIDE_A_DIAMETERS.items()}
    assert report["puzzles"] == 6144 * 36 * 35 == sum(report["optimal_lengths"].values())


def test_stats_reproduce_side_a_optimal_length_shares(stats: dict[str, dict[str, Any]]) -> None:
    shares = stats["A"]["optimal_length_share_percent"]
    assert {k: shares[k] for k in "123456"} == {"1": 9.7, "2": 19.4, "3": 29.8, "4": 25.3, "5": 11.3, "6": 3.4}
    # the rules' "7+: 1.2%" adds the data file's rounded 7: 0.9, 8: 0.2, 9+: 0.1 (exactly 1.12%)
    lengths, puzzles = stats["A"]["optimal_lengths"], stats["A"]["puzzles"]
    assert (shares["7"], shares["8"]) == (0.9, 0.2)
    assert round(100 * sum(n for k, n in lengths.items() if int(k) >= 9) / puzzles, 1) == 0.1
    assert round(100 * sum(n for k, n in lengths.items() if int(k) >= 7) / puzzles, 2) == 1.12


def test_stats_side_b_has_no_disconnected_arrangement_and_its_recorded_facts(
    stats: dict[str, dict[str, Any]],
) -> None:
    report = stats["B"]
    assert (report["arrangements"], report["disconnected"], report["puzzles"]) == (6144, 0, 6144 * 36 * 35)
    facts = json.loads(B_DATA.read_text("utf-8"))["facts"]
    assert report["diameters"] == facts["arrangement_diameters"]
    assert report["optimal_length_share_percent"] == facts["optimal_length_share_percent"]
    shares_a, shares_b = stats["A"]["optimal_length_share_percent"], report["optimal_length_share_percent"]
    assert all(abs(shares_a[k] - shares_b[k]) < 1 for k in "123456")  # close to side A's


def test_stats_prints_the_diameters_and_shares() -> None:
    result = invoke("micro", "stats", "--side", "a")
    assert result.exit_code == 0, result.output
    assert contains(result.stdout, "Micro Robots side A: 6,144 arrangements, 0 not connected")
    assert contains(result.stdout, "diameters: 5: 288, 6: 2000, 7: 2160, 8: 1168, 9: 400, 10: 112, 12: 16")
    assert contains(result.stdout, "optimal lengths over 7,741,440 puzzles (%): 1: 9.7, 2: 19.4, 3: 29.8")


def test_stats_of_an_unknown_side_is_a_one_line_error() -> None:
    done = run_cli("micro", "stats", "--side", "C")
    assert done.returncode == 2
    assert done.stderr == "error: --side 'C': the sides are A and B\n"
    assert done.stdout == ""


# ----- damier solve micro -------------------------------------------------------------------------------
def test_solve_prints_the_length_the_count_and_a_line() -> None:
    result = invoke("solve", "micro", "--puzzle", PUZZLE)
    assert result.exit_code == 0, result.output
    assert result.stdout == "2 moves (1 optimal line): B5 B1\n"


def test_solve_json_shape() -> None:
    report = solve_json("--puzzle", PUZZLE, "--exact", "5")
    assert set(report) == {"length", "count", "moves", "exact", "seconds"}
    assert (report["length"], report["count"], report["moves"]) == (2, 1, ["B5", "B1"])
    assert report["exact"]["k"] == 5 and len(report["exact"]["moves"]) == 5 and report["exact"]["moves"][-1] == "B1"
    assert set(solve_json("--puzzle", PUZZLE)) == {"length", "count", "moves", "seconds"}


def test_solve_exact_k_gives_a_line_that_replays_in_exactly_k_moves() -> None:
    for k in range(2, 12):
        line = solve_json("--puzzle", PUZZLE, "--exact", str(k))["exact"]["moves"]
        state = damier.load("micro").state_from_position(PUZZLE)
        for move in line:
            state.play(state.parse_move(move))
        assert state.is_over() and state.outcome().cost == k  # type: ignore[union-attr]


def test_solve_an_impossible_exact_k_answers_null() -> None:
    report = solve_json("--puzzle", PUZZLE, "--exact", "1")  # B1 is not one jump from R5
    assert report["exact"] == {"k": 1, "moves": None} and report["length"] == 2
    result = invoke("solve", "micro", "--puzzle", PUZZLE, "--exact", "1")
    assert result.exit_code == 0 and "no line of exactly 1 move" in result.stdout


def test_solve_all_lists_every_optimal_line() -> None:
    puzzle = "A-1234-0000_R5_G4"
    report = solve_json("--puzzle", puzzle, "--all")
    state = damier.load("micro").state_from_position(puzzle)
    assert isinstance(state, MicroState)
    assert report["count"] == len(report["all"]) > 1
    board = [setup.square_text(int(c)) for c in state.puzzle.board]
    expected = reference.Puzzle(board, state.puzzle.start, state.puzzle.target)
    assert {tuple(line) for line in report["all"]} == {
        tuple(board[s] for s in line) for line in expected.sequences(report["length"])}
    text = invoke("solve", "micro", "--puzzle", puzzle, "--all").stdout
    assert all(f"{n}. {' '.join(line)}" in text for n, line in enumerate(report["all"], start=1))


def test_solve_a_waypoint_puzzle_by_id_position_and_coordinates() -> None:
    assert solve_json("--puzzle", "A-1234-0000_R5_B1_B3")["moves"] == ["B5", "B3", "B1"]
    assert solve_json("--puzzle", "A-1234-0000_a1_f6_d6", "--opt", "waypoint_pass=true")["length"] == 2
    assert solve_json("--puzzle", "A-1234-0000_R5_B1 B5 1 -")["moves"] == ["B1"]


def test_solve_the_json_puzzle_form() -> None:
    rows = [["R5", "G6", "R1", "P1", "W4", "P2"], ["G2", "W2", "Y1", "G5", "W5", "G3"],
            ["W3", "G1", "Y3", "G4", "W1", "P4"], ["P3", "R6", "R2", "B2", "Y6", "P5"],
            ["B6", "Y2", "R3", "B4", "W6", "P6"], ["B5", "Y5", "R4", "B3", "Y4", "B1"]]
    puzzle = {"board": rows, "start": "R5", "target": "B1", "waypoint": "B3", "waypoint_pass": True}
    report = solve_json("--puzzle", json.dumps(puzzle), "--exact", "4")
    assert (report["length"], report["moves"]) == (2, ["B5", "B1"])  # passing over B3 counts
    assert report["exact"]["k"] == 4 and len(report["exact"]["moves"]) == 4
    puzzle["waypoint_pass"] = False
    assert solve_json("--puzzle", json.dumps(puzzle))["moves"] == ["B5", "B3", "B1"]


def test_solve_a_target_out_of_reach_says_there_is_no_solution() -> None:
    rows = ["B1P2Y5R2P6Y1", "R1P3R3P4R6B5", "G3B6G5Y2W1G4", "B4B2G6Y6W5R5", "W4P5R4W3W2B3", "Y4P1G2Y3G1W6"]
    board = [row[i : i + 2] for row in rows for i in range(0, 12, 2)]
    assert reference.Puzzle(board, 0, 35).shortest() is None  # W6 in f6 is the one square B1 cannot reach
    puzzle = json.dumps({"board": rows, "start": "a1", "target": "f6"})
    result = invoke("solve", "micro", "--puzzle", puzzle)
    assert result.exit_code == 0, result.output
    assert result.stdout == "No solution: the target cannot be reached.\n"
    report = solve_json("--puzzle", puzzle, "--exact", "3")
    assert report == {**report, "length": None, "count": 0, "moves": None, "exact": {"k": 3, "moves": None}}


@pytest.mark.parametrize(("puzzle", "words"), [
    ("A-1234-0000_R5_Q1", "'Q1' is not a square: write its colour letter and number (R5, in capitals) or its "
                          "coordinates"),
    ("A-1234-0000_R5_g7", "'g7' is not a square"),
    ("A-1234-9999_R5_B1", "'A-1234-9999' is not a board id: write SIDE-ORDER-TURNS"),
    ("A-1233-0000_R5_B1", "the tile order must use each of the tiles 1, 2, 3, 4 once"),
    ("random:seven_R5_B1", "a random board id is random:<seed>"),
    ("A-1234-0000_R5", "is not a puzzle id: write BOARD_START_TARGET[_WAYPOINT]"),
    ("A-1234-0000_R5_R5", "the start and the target must differ (both are R5)"),
    ("A-1234-0000_R5_a1", "the start and the target must differ"),
    ("A-1234-0000_R5_B1_R5", "the waypoint must differ from the start and the target"),
    ('{"board": "A-1234-0000", "start": "R5"}', "the JSON puzzle needs 'target'"),
    ('{"board": "A-1234-0000", "start": "R5", "target": "R5"}', "the start and the target must differ"),
    ('{"board": "A-1234-0000", "start": "R5", "target": "B1"', "the puzzle is not valid JSON"),
])
def test_solve_bad_input_is_a_one_line_error(puzzle: str, words: str) -> None:
    result = invoke("solve", "micro", "--puzzle", puzzle)
    assert_clean_error(result, words)
    assert result.stderr.count("\n") == 1


def test_solve_a_bad_option_is_a_one_line_error() -> None:
    assert_clean_error(invoke("solve", "micro", "--puzzle", PUZZLE, "--opt", "board=Z"), "option 'board'")


def test_solve_in_a_subprocess_as_a_user_runs_it() -> None:
    done = run_cli("solve", "micro", "--puzzle", "A-1234-0000_R5_B1_B3", "--exact", "6", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["length"] == 3 and report["exact"]["k"] == 6
    bad = run_cli("solve", "micro", "--puzzle", "A-1234-0000_R5_R5")
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1


# ----- damier play micro --------------------------------------------------------------------------------
def test_play_solves_a_puzzle_with_graded_hints_from_stdin(tmp_path: Path) -> None:
    seed = 4
    state = damier.load("micro").new_state(seed)
    line = [state.move_to_str(m) for m in search.solve(state).moves]
    saved = tmp_path / "micro.json"
    lines = ["moves", "Z9", "hint", "hint", "hint", "hint", "hint", *line]
    result = invoke("play", "micro", "--seed", str(seed), "--save", str(saved), stdin="\n".join(lines) + "\n")
    out = result.stdout
    assert result.exit_code == 0, out
    assert "Micro Robots: Player (human)" in out
    assert contains(out, "Legal moves: " + " ".join(state.move_to_str(m) for m in state.legal_moves()))
    assert contains(out, "'Z9' is not a square")
    length = len(line)
    low = length - (length + 1) % 2 if length > 2 else 1
    band = "1 or 2 moves" if low == 1 else f"{low} to {low + 1} moves"
    assert contains(out, f"Hint 1: {band}")
    assert contains(out, f"Hint 2: {length} moves")
    assert contains(out, f"Hint 3: start with {line[0]}")
    assert out.count(f"Hint 4: {' '.join(line)}") == 2  # the last hint is the whole line, asked again
    assert contains(out, f"jump {state.move_to_str(state.puzzle.start)} -> {line[0]}")  # type: ignore[attr-defined]
    assert contains(out, f"solved in {length} (the optimum is {length})")
    assert contains(out, f"Game over: solved in {length} moves (optimal).")
    record = json.loads(saved.read_text("utf-8"))
    assert record["moves"] == line and record["result"]["cost"] == length


def test_play_a_longer_line_says_the_optimum_and_hints_start_again_after_a_move() -> None:
    seed = 4
    state = damier.load("micro").new_state(seed)
    optimum = search.solve(state).cost
    state.play(next(m for m in state.legal_moves() if search.solve(state).moves[0] != m))  # off the optimal line
    moves = [state.move_to_str(m) for m in (*state.history, *search.solve(state).moves)]
    stdin = "\n".join(["hint", "hint", moves[0], "hint", *moves[1:]]) + "\n"
    out = invoke("play", "micro", "--seed", str(seed), stdin=stdin).stdout
    assert out.count("Hint 1:") == 2 and out.count("Hint 2:") == 1  # a new position starts at the vaguest hint
    assert len(moves) > optimum
    assert contains(out, f"Game over: solved in {len(moves)} moves (the optimum is {optimum}).")
