"""The Khet commands: ``damier perft``, ``damier engine``, the laser lines of ``damier play``, and external engines
(``ext:``) in ``play`` and ``arena`` with their forfeits."""

from __future__ import annotations

import json
import re
import shlex
import sys
import textwrap
from pathlib import Path

import pytest

import damier
from damier.cli import split_specs
from damier.core.record import Record
from tests.cli.test_cli import assert_clean_error, contains, invoke

#: the rules file's reference counts from the Classic setup
CLASSIC_PERFT = {1: 77, 2: 5_920, 3: 451_859}


# ----- perft ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("depth", "nodes"), CLASSIC_PERFT.items())
def test_perft_counts_the_classic_reference_nodes(depth: int, nodes: int) -> None:
    result = invoke("perft", "khet", "--depth", str(depth), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report) == {"nodes", "seconds", "nps"}
    assert report["nodes"] == nodes
    assert report["seconds"] >= 0 and report["nps"] >= 0


def test_perft_bulk_counts_the_same_leaves() -> None:
    for depth, nodes in CLASSIC_PERFT.items():
        result = invoke("perft", "khet", "-d", str(depth), "--bulk", "--json")
        assert json.loads(result.stdout)["nodes"] == nodes


def test_perft_divide_splits_the_count_by_first_move() -> None:
    result = invoke("perft", "khet", "--depth", "3", "--divide", "--json")
    report = json.loads(result.stdout)
    divide = report["divide"]
    state = damier.load("khet").new_state()
    assert list(divide) == [state.move_to_str(m) for m in state.legal_moves()]
    assert sum(divide.values()) == report["nodes"] == 451_859
    assert {move: divide[move] for move in ("c1c2", "j1-", "c4+", "c5c6", "d6+")} == {
        "c1c2": 6_150, "j1-": 5_537, "c4+": 5_456, "c5c6": 5_141, "d6+": 5_914}


def test_perft_prints_the_count_and_the_speed() -> None:
    result = invoke("perft", "khet", "--depth", "2", "--divide")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("c1c2: ") and len(lines) == 78
    assert contains(lines[-1], "perft 2 from classic: 5,920 nodes in")
    assert "nodes/s (every leaf played)" in lines[-1]


def test_perft_from_another_setup_or_a_position() -> None:
    imhotep = json.loads(invoke("perft", "khet", "--setup", "imhotep", "-d", "2", "--json").stdout)["nodes"]
    same = json.loads(invoke("perft", "khet", "-o", "setup=imhotep", "-d", "2", "--json").stdout)["nodes"]
    position = damier.load("khet", setup="imhotep").new_state().position()
    given = json.loads(invoke("perft", "khet", "--position", position, "-d", "2", "--json").stdout)["nodes"]
    assert imhotep == same == given
    assert imhotep != CLASSIC_PERFT[2]


@pytest.mark.parametrize(("args", "words"), [
    (["perft", "chess", "-d", "2"], "unknown game 'chess'"),
    (["perft", "atoms", "-d", "2", "--setup", "classic"], "--setup: atoms has no setup option (its options: rows,"),
    (["perft", "khet", "-d", "2", "--setup", "pyramids"], "option 'setup': 'pyramids' is not accepted"),
    (["perft", "khet", "-d", "2", "--setup", "imhotep", "--position", "x"], "give --setup or --position, not both"),
    (["perft", "khet", "-d", "2", "--setup", "imhotep", "-o", "setup=dynasty"],
     "--setup imhotep and --opt setup=dynasty disagree; give the setup once"),
    (["perft", "khet", "-d", "2", "--position", "xs9 s 0"], "the board needs 8 ranks"),
    (["perft", "khet", "-d", "2", "-o", "laser=green"], "khet has no option 'laser'"),
    (["engine", "chess"], "unknown game 'chess'"),
    (["engine", "khet", "-o", "setup=pyramids"], "option 'setup': 'pyramids' is not accepted"),
])
def test_bad_options_are_one_error_line(args: list[str], words: str) -> None:
    assert_clean_error(invoke(*args), words)


def test_perft_depth_is_required_and_bounded() -> None:
    for args in (["perft", "khet"], ["perft", "khet", "-d", "0"], ["perft", "khet", "-d", "two"]):
        result = invoke(*args)
        assert result.exit_code == 2
        assert "Traceback" not in result.output


# ----- engine ---------------------------------------------------------------------------------------------
def test_engine_speaks_the_protocol_on_stdin_and_stdout() -> None:
    # the end of the input lets the bounded search answer before the engine ends
    result = invoke("engine", "khet", stdin="isready\nbogus\nposition standard j1-\ngo depth 2\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "readyok"
    assert lines[1].startswith("info string error: unknown command 'bogus'")
    assert [line.split()[:4] for line in lines[2:4]] == [["info", "time", lines[2].split()[2], "depth"],
                                                          ["info", "time", lines[3].split()[2], "depth"]]
    assert [line.split()[4] for line in lines[2:4]] == ["1", "2"]
    assert lines[4].startswith("bestmove ") and len(lines) == 5


def test_engine_plays_with_the_game_options() -> None:
    result = invoke("engine", "khet", "-o", "setup=dynasty", stdin="d\n")
    position = damier.load("khet", setup="dynasty").new_state().position()
    assert f"position {position}" in result.stdout.splitlines()


def test_engine_refuses_a_move_time_no_timer_can_wait() -> None:
    result = invoke("engine", "khet", stdin="position standard\ngo movetime 999999999999999999\ngo depth 500\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "info string error: go movetime: 999999999999999999 is more than the 1000000000 milliseconds the engine "
        "can search (from 1 to 1000000000)",
        "info string error: go depth: 500 is more than the 80 plies the engine can search (from 1 to 80)",
    ]
    assert result.stderr == ""


def test_engine_takes_the_rules_with_setoption() -> None:
    result = invoke("engine", "khet", "-o", "quiet_ply_limit=30",
                    stdin="setoption name pharaoh_rotation value true\nsetoption name setup value imhotep\nhelp\n"
                          "position standard e1+\nsetoption name speed value 3\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[2] == ("info string options: setup=imhotep pharaoh_rotation=true strict_swap_reserved=true "
                        "repetition=automatic quiet_ply_limit=30")
    assert lines[3].startswith("info string error: setoption: khet has no option 'speed'")
    assert len(lines) == 4


# ----- play: the laser, and who won ------------------------------------------------------------------------
def test_play_describes_each_laser_shot() -> None:
    result = invoke("play", "khet", "--players", "human,easy", stdin="j1-\nj1+\nresign\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    # j1- turns the Sphinx west, along its own rank: the side of its own Anubis on f1
    assert "  Silver's laser: j1 -> f1: removes Silver's Anubis on f1" in out
    # back north: the opening shot of the rules file, which leaves the board at j8
    assert "  Silver's laser: j1 -> j4 -> h4 -> h5 -> j5 -> j8: leaves the board" in out
    assert out.count("  Red's laser: a8 -> ") == 2


def test_play_says_who_won() -> None:
    position = "xs1as2psas3/3Yw2yw3/6yeyw2/5sn2Ys1/yn1Ys2Asyn3/2SnYsAe1sn3/ys5Sn3/6Pn2Xn s 1"
    state = damier.load("khet").state_from_position(position)
    state.play(state.parse_move("i5j5"))
    from damier.cli import console, describe_events

    with console.capture() as captured:
        describe_events(state)
    lines = captured.get().splitlines()
    assert lines[-2].startswith("  Silver's laser: j1 -> ") and lines[-2].endswith(": removes Red's Pharaoh on f8")
    assert lines[-1] == "  Silver wins"


#: two Pharaohs and two Sphinxes: Silver's j1- turns its laser west, onto its own Pharaoh on e1
OWN_GOAL = "xs4pn4/10/10/10/10/10/10/4Pn4Xn s 0"


def test_play_previews_a_move_and_asks_before_an_own_goal() -> None:
    result = invoke("play", "khet", "--players", "human,easy", "--start", OWN_GOAL,
                    stdin="preview j1-\nj1-\nn\nj1-\ny\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    preview = out.index("Preview of j1- (not played):")
    assert out.index("  Silver's laser: j1 -> e1: removes Silver's Pharaoh on e1", preview) > preview
    warnings = [line for line in out.splitlines() if "Careful: j1- loses the game" in line]
    assert len(warnings) == 2 and out.count("Play it anyway? [y/N]") == 2  # declined once, then confirmed
    assert out.count("removes Silver's Pharaoh on e1") == 2  # the preview, then the move played
    assert "Game over: Red wins: the Silver Pharaoh was hit by a laser." in out


def test_play_from_a_bad_start_is_one_error_line() -> None:
    result = invoke("play", "khet", "--start", "xs4pn4/10/10 s 0")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --start: ") and len(result.stderr.strip().splitlines()) == 1


def test_the_board_marks_reserved_squares_unlike_any_piece() -> None:
    result = invoke("play", "khet", "--players", "human,easy", stdin="resign\n")
    board = "\n".join(line for line in result.stdout.splitlines() if re.match(r"\s+[1-8]  ", line))
    assert board.count("\n") == 7 and "()" in board and "[]" in board and "s:" not in board and "r:" not in board


def test_help_names_the_claim_when_a_repetition_can_be_claimed() -> None:
    from damier.cli.play import play_help

    state = damier.load("khet", repetition="claim").state_from_position("xs4pn4/10/10/10/10/10/10/4Pn4Xn s 0")
    for move in ["e1e2", "f8f7", "e2e1", "f7f8"] * 2:
        state.play(state.parse_move(move))
    assert "claim" in [state.move_to_str(m) for m in state.legal_moves()]
    assert "| claim (a move now) |" in play_help(state)
    assert "claim" not in play_help(damier.load("khet").new_state())


def test_play_atoms_events_are_unchanged() -> None:
    result = invoke("play", "atoms", "-o", "rows=3", "-o", "cols=3", "--players", "random,random", "--seed", "3")
    assert "laser" not in result.stdout
    assert "explosion(s) in" in result.stdout


# ----- external engines in play and arena ------------------------------------------------------------------
CRASHING_ENGINE = textwrap.dedent('''
    import sys
    for line in sys.stdin:
        if line.startswith("isready"):
            print("readyok", flush=True)
        elif line.startswith("go"):
            sys.exit(4)
''')


@pytest.fixture()
def crashing_engine(tmp_path: Path) -> str:
    script = tmp_path / "crash.py"
    script.write_text(CRASHING_ENGINE)
    return "ext:" + shlex.join([sys.executable, str(script)])


def test_split_specs_keeps_ext_parameters_together() -> None:
    assert split_specs("ext(time=0.5,margin=2):engine,hard") == ["ext(time=0.5,margin=2):engine", "hard"]
    assert split_specs("human,ext:damier engine khet") == ["human", "ext:damier engine khet"]


def test_play_against_an_engine_that_crashes(crashing_engine: str, tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    result = invoke("play", "khet", "--players", f"easy,{crashing_engine}", "--save", str(saved))
    assert result.exit_code == 0, result.output
    assert contains(result.stdout, "Game over: Red's engine crashed (exit code 4); Red loses by forfeit: Silver wins.")
    record = Record.load(saved)
    assert len(record.moves) == 1 and record.result is not None
    assert record.result.termination == damier.Termination.FORFEIT and record.result.winner == 0
    assert not record.replay().is_over()  # the moves replay; the forfeit ended the game


def test_arena_reports_forfeits(crashing_engine: str) -> None:
    result = invoke("arena", "khet", "--agents", "random", "--agents", crashing_engine, "--games", "2",
                    "--opening", "0", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert contains(result.stdout, f"game 1 forfeited by {crashing_engine}: Red's engine crashed (exit code 4); "
                                   f"Red loses by forfeit: Silver wins")
    assert contains(result.stdout, f"game 2 forfeited by {crashing_engine}: Silver's engine crashed")
    data = json.loads(invoke("arena", "khet", "--agents", "random", "--agents", crashing_engine, "--games", "2",
                             "--opening", "0", "--workers", "1", "--json").stdout)
    assert [game["forfeit"]["seat"] for game in data["games"]] == [1, 0]
    assert [s["losses"] for s in data["standings"]] == [0, 2]


def test_a_feature_the_game_does_not_declare_names_the_games_that_have_it() -> None:
    from damier.core import registry
    from tests.conformance.dice_game import INFO

    registry.register(INFO)
    try:
        result = invoke("engine", "test-dice")
    finally:
        registry.unregister(INFO.name)
    engines = ", ".join(i.name for i in damier.games() if i.engine is not None)
    assert engines and "test-dice" not in engines
    assert_clean_error(result, f"test-dice has no engine; games with one: {engines}")
