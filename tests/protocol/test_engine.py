"""The engine side of the text protocol, in this process: a session fed line by line, and ``serve`` on streams.

The search is real (the Khet engine); depths stay small so the tests are quick.
"""

from __future__ import annotations

import io
import os
import queue
import threading
import time
from typing import Any

import pytest

import damier
from damier.protocol.engine import EngineSession, serve

#: Silver to move; i5j5 hits the Red Pharaoh (found by random play, checked by the test that uses it)
SILVER_WINS_NOW = "xs1as2psas3/3Yw2yw3/6yeyw2/5sn2Ys1/yn1Ys2Asyn3/2SnYsAe1sn3/ys5Sn3/6Pn2Xn s 1"
#: Red to move; h4h5 hits the Silver Pharaoh
RED_WINS_NOW = "xs2YsYwps4/2as7/5yn4/yn9/6sesnys1/2Se7/6Sn3/7Pn1Xn r 3"
#: the game after SILVER_WINS_NOW and i5j5: over, Silver won
FINISHED = "xs1as3as3/3Yw2yw3/6yeyw2/5sn3Ys/yn1Ys2Asyn3/2SnYsAe1sn3/ys5Sn3/6Pn2Xn -P 0"
CLASSIC = "xs3aspsasye2/2ys7/3Yw6/yn1Ys1snse1ye1Yw/ye1Yw1SeSn1yn1Ys/6ye3/7Yn2/2YwAnPnAn3Xn s 0"
#: from the Classic setup, back and forth twice: the start position a third time, Silver to move
THIRD_TIME = "h2h3 c7c6 h3h2 c6c7 h2h3 c7c6 h3h2 c6c7"


class Session:
    """An ``EngineSession`` whose answers are kept in a list (the search thread appends to it too)."""

    def __init__(self, **options: object) -> None:
        self.lines: list[str] = []
        self.engine = EngineSession(damier.load("khet", **options), self.lines.append)

    def send(self, *commands: str) -> list[str]:
        """Send ``commands``; the lines answered since (a search started may still be answering)."""
        start = len(self.lines)
        for command in commands:
            self.engine.handle(command)
        return self.lines[start:]

    def search(self, *commands: str) -> list[str]:
        """Send ``commands`` (ending with a bounded ``go``) and wait for its ``bestmove``."""
        start = len(self.lines)
        for command in commands:
            self.engine.handle(command)
        self.engine.wait(stop=False)
        return self.lines[start:]


def info_fields(line: str) -> dict[str, Any]:
    """The fields of ``info time T depth D score S nodes N nps X pv m1 m2 ...``."""
    words = line.split()
    assert words[0] == "info" and words[1::2][:5] == ["time", "depth", "score", "nodes", "nps"], line
    assert words[11] == "pv", line
    values = {key: int(value) for key, value in zip(words[1:11:2], words[2:11:2], strict=True)}
    return {**values, "pv": words[12:]}


def errors(lines: list[str]) -> list[str]:
    return [line.removeprefix("info string error: ") for line in lines if line.startswith("info string error: ")]


# ----- go ---------------------------------------------------------------------------------------------------
def test_go_depth_reports_every_iteration_then_the_best_move() -> None:
    lines = Session().search("position standard", "go depth 3")
    infos = [info_fields(line) for line in lines[:-1]]
    assert [info["depth"] for info in infos] == [1, 2, 3]
    assert lines[-1].startswith("bestmove ")
    best = lines[-1].split()[1]
    state = damier.load("khet").new_state()
    assert state.parse_move(best) in state.legal_moves()
    for info in infos:
        assert isinstance(info["pv"], list) and 1 <= len(info["pv"]) <= int(info["depth"])
        assert int(info["nodes"]) > 0 and int(info["time"]) >= 0 and int(info["nps"]) >= 0
    assert infos[-1]["pv"][0] == best
    assert int(infos[-1]["nodes"]) >= int(infos[0]["nodes"])


def test_the_principal_variation_replays_from_the_position() -> None:
    lines = Session().search("position standard j1- a8-", "go depth 4")
    pv = info_fields(lines[-2])["pv"]
    assert len(pv) >= 2 and pv[0] == lines[-1].split()[1]  # a real line, starting with the best move
    state = damier.load("khet").new_state()
    for text in ["j1-", "a8-", *pv]:
        state.play(state.parse_move(text))


def test_a_forced_win_scores_a_large_number_from_silvers_view() -> None:
    silver = Session().search(f"position {SILVER_WINS_NOW}", "go depth 3")
    assert silver[-1] == "bestmove i5j5"
    assert int(info_fields(silver[-2])["score"]) == 100_000 - 1
    red = Session().search(f"position {RED_WINS_NOW}", "go depth 3")
    assert red[-1] == "bestmove h4h5"
    assert int(info_fields(red[-2])["score"]) == -(100_000 - 1)


def test_go_movetime_answers() -> None:
    lines = Session().search("position imhotep", "go movetime 100")
    assert lines[-1].startswith("bestmove ")
    assert all(line.startswith("info time ") for line in lines[:-1])


def test_go_infinite_searches_until_stop() -> None:
    session = Session()
    session.send("position standard", "go infinite")
    time.sleep(0.3)
    assert session.engine.searching
    assert not any(line.startswith("bestmove") for line in session.lines)
    session.send("stop")
    assert session.lines[-1].startswith("bestmove ")
    assert sum(line.startswith("bestmove") for line in session.lines) == 1
    assert not session.engine.searching


def test_an_infinite_search_that_finds_a_win_still_waits_for_stop() -> None:
    session = Session()
    session.send(f"position {SILVER_WINS_NOW}", "go infinite")
    deadline = time.monotonic() + 30
    while not any(line.startswith("info") for line in session.lines) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)
    assert not any(line.startswith("bestmove") for line in session.lines)
    session.send("stop")
    assert session.lines[-1] == "bestmove i5j5"


def test_stop_without_a_search_does_nothing() -> None:
    assert Session().send("stop") == []


def test_bestmove_none_in_a_finished_position() -> None:
    session = Session()
    assert session.send(f"position {FINISHED}", "go depth 2") == ["bestmove none"]
    assert session.send(f"position {SILVER_WINS_NOW} i5j5", "go infinite") == ["bestmove none"]
    assert not session.engine.searching


# ----- position ---------------------------------------------------------------------------------------------
def test_position_takes_a_setup_name_or_a_position_string_then_moves() -> None:
    session = Session()
    for command in ("position standard", "position classic", "position startpos", f"position {CLASSIC}"):
        assert session.send(command) == []
        assert session.engine.state.position() == CLASSIC
    session.send("position dynasty j1- a8-")
    dynasty = damier.load("khet", setup="dynasty").new_state()
    for text in ("j1-", "a8-"):
        dynasty.play(dynasty.parse_move(text))
    assert session.engine.state.position() == dynasty.position()
    session.send(f"position {CLASSIC} moves j1-")  # a 'moves' keyword is tolerated
    assert session.engine.state.moves_in_notation() == ["j1-"]


def test_d_prints_the_board_the_position_and_the_legal_moves() -> None:
    lines = Session().send("position standard j1-", "d")
    assert any(line.strip().startswith("a  b  c") for line in lines)
    assert "moves j1-" in lines
    position = next(line for line in lines if line.startswith("position "))
    state = damier.load("khet").new_state()
    state.play(state.parse_move("j1-"))
    assert position == f"position {state.position()}"
    legal = next(line for line in lines if line.startswith("legal ")).split()[1:]
    assert legal == [state.move_to_str(m) for m in state.legal_moves()]


def test_newgame_returns_to_the_start() -> None:
    session = Session()
    session.send("position standard j1- a8-", "newgame")
    assert session.engine.state.position() == CLASSIC and session.engine.state.history == []


def test_the_engine_plays_with_its_game_options() -> None:
    session = Session(setup="imhotep")
    assert session.engine.state.position() == damier.load("khet", setup="imhotep").new_state().position()
    session.send("position standard")
    assert session.engine.state.position() == CLASSIC
    assert session.engine.state.game.options["setup"] == "classic"


# ----- bad input --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("command", "words"), [
    ("fly", "unknown command 'fly'; commands: newgame, position, go"),
    ("position", "position needs a setup (startpos, standard, classic, imhotep, dynasty) or a position string"),
    ("position nonsense", "a Khet position has 3 fields"),
    ("position standrd j1-", "(or name a setup: startpos, standard, classic, imhotep, dynasty)"),
    ("position standard j1- zz", "position: move 2 (zz): 'zz' is not a Khet move"),
    ("position standard a8-", "position: move 1 (a8-): a8-: the Sphinx on a8 is Red's; Silver is to move"),
    (f"position {FINISHED} j1-", "the game is over"),
    ("go", "go needs a limit: go depth N, go movetime MS or go infinite"),
    ("go depth", "go depth needs a number"),
    ("go depth x", "go depth: 'x' is not a whole number of plies >= 1"),
    ("go movetime -5", "go movetime: '-5' is not a whole number of milliseconds >= 1"),
    ("go nodes 1000", "go: unknown parameter 'nodes'"),
    ("go infinite depth 3", "go infinite searches until stop; it takes no depth or movetime"),
    ("go movetime 999999999999999999", "go movetime: 999999999999999999 is more than the 1000000000 milliseconds "
                                       "the engine can search (from 1 to 1000000000)"),
    ("go depth 81", "go depth: 81 is more than the 80 plies the engine can search (from 1 to 80)"),
    ("go depth 5 movetime 1000000001", "go movetime: 1000000001 is more than the 1000000000 milliseconds"),
    ("go depth \u00b2", "go depth: '\u00b2' is not a whole number of plies >= 1"),
    ("newgame now", "newgame takes no arguments, got 'now'"),
    ("setoption pharaoh_rotation true", "setoption takes setoption name <option> value <value> (options: setup, "
                                        "pharaoh_rotation, strict_swap_reserved, repetition, quiet_ply_limit)"),
    ("setoption name pharaoh_rotation value", "setoption takes setoption name <option> value <value>"),
    ("setoption name colour value red", "setoption: khet has no option 'colour'; its options are: setup, "),
    ("setoption name quiet_ply_limit value soon",
     "setoption: option 'quiet_ply_limit': 'soon' is not accepted; expected an integer from 0 to 10000"),
    ("setoption name repetition value never", "setoption: option 'repetition': 'never' is not accepted"),
])
def test_bad_input_gets_one_error_line_and_changes_nothing(command: str, words: str) -> None:
    session = Session()
    session.send("position standard j1-")
    before = session.engine.state.position()
    lines = session.send(command)
    assert len(lines) == 1 and lines[0].startswith("info string error: "), lines
    assert words in lines[0]
    assert session.engine.state.position() == before
    assert session.engine.game.options == damier.load("khet").options
    assert not session.engine.searching
    assert session.send("isready") == ["readyok"]


def test_commands_that_need_a_quiet_engine_are_refused_while_it_searches() -> None:
    session = Session()
    session.send("position standard", "go infinite")
    try:
        for command in ("position imhotep", "go depth 1", "newgame", "setoption name quiet_ply_limit value 0"):
            assert errors(session.send(command)) == [f"{command.split()[0]}: a search is running; send stop first"]
        assert session.send("isready") == ["readyok"]
        assert session.engine.state.position() == CLASSIC
    finally:
        session.send("stop")
    assert session.lines[-1].startswith("bestmove ")


def test_quit_stops_the_search_and_ends_the_session() -> None:
    session = Session()
    session.send("position standard", "go infinite")
    assert session.engine.handle("quit") is False
    assert session.engine.closed and not session.engine.searching
    assert session.engine.handle("isready") is False  # nothing more is answered


def test_help_lists_the_commands() -> None:
    lines = Session().send("help")
    assert lines[0].startswith("info string commands: newgame | position")
    assert "setoption name <option> value <value>" in lines[0]
    assert lines[2] == ("info string options: setup=classic pharaoh_rotation=false strict_swap_reserved=true "
                        "repetition=automatic quiet_ply_limit=100")


# ----- setoption: the rules -----------------------------------------------------------------------------------
def test_setoption_changes_the_rules_from_the_next_position() -> None:
    session = Session()
    assert errors(session.send("position standard e1+"))[0].startswith("position: move 1 (e1+):")
    assert session.send("setoption name pharaoh_rotation value true") == []
    assert session.engine.state.game.options["pharaoh_rotation"] is False  # the position keeps its rules
    assert session.send("position standard e1+") == []
    assert session.engine.state.moves_in_notation() == ["e1+"]
    assert session.engine.state.game.options["pharaoh_rotation"] is True
    lines = session.search("go depth 2")
    assert lines[-1].startswith("bestmove ")
    assert session.send("setoption name Quiet_Ply_Limit value 7", "newgame") == []  # names in any case
    assert session.engine.state.game.options["quiet_ply_limit"] == 7
    assert session.engine.state.game.options["pharaoh_rotation"] is True


def test_setoption_of_the_board_searches_the_new_board() -> None:
    # the arena sets a board option by option, each with an isready that builds the search: a search built for
    # the board before (9 x 8 here) once ran its kernel on the 9 x 6 position's squares and never answered
    lines: list[str] = []
    engine = EngineSession(damier.load("atoms"), lines.append)
    for command in ("newgame", "setoption name rows value 9", "isready", "setoption name cols value 6", "isready",
                    "position startpos B8 B9", "go depth 3"):
        engine.handle(command)
    waiting = threading.Thread(target=engine.wait, args=(False,), daemon=True)
    waiting.start()
    waiting.join(120)  # a bound on a search that never ends, not a performance figure (it takes milliseconds)
    assert not waiting.is_alive(), f"no answer to go depth 3: {lines}"
    fresh: list[str] = []
    reference = EngineSession(damier.load("atoms", rows=9, cols=6), fresh.append)
    for command in ("position startpos B8 B9", "go depth 3"):
        reference.handle(command)
    reference.wait(stop=False)
    assert lines[-1].startswith("bestmove ") and lines[-1] == fresh[-1]
    state = damier.load("atoms", rows=9, cols=6).new_state()
    for move in ("B8", "B9", lines[-1].split()[1]):
        state.play(state.parse_move(move))


def test_a_search_refuses_a_position_of_another_board() -> None:
    from damier.protocol.searchers import make_searcher

    searcher = make_searcher(damier.load("atoms", rows=9, cols=8))
    with pytest.raises(ValueError, match=r"built for atoms .*'cols': 8.* not for the position's atoms .*'cols': 6"):
        searcher.think(damier.load("atoms", rows=9, cols=6).new_state(), 2)


def test_setoption_repetition_claim_lets_the_engine_claim() -> None:
    session = Session()
    session.send("setoption name repetition value claim", f"position standard {THIRD_TIME}", "d")
    assert session.lines[-1].split()[-1] == "claim"  # the last legal move
    assert session.engine.state.can_claim_draw()


def test_setoption_setup_is_the_start_of_newgame_and_startpos() -> None:
    session = Session()
    session.send("setoption name setup value dynasty", "newgame")
    dynasty = damier.load("khet", setup="dynasty").new_state().position()
    assert session.engine.state.position() == dynasty
    session.send("position standard", "position startpos")
    assert session.engine.state.position() == dynasty


def test_the_engine_claims_a_draw_it_cannot_better() -> None:
    """The Classic start is symmetric: at an even depth it scores 0, no better than the draw the engine may claim
    there the third time (``go depth 2``)."""
    session = Session()
    lines = session.search("setoption name repetition value claim", f"position standard {THIRD_TIME}", "go depth 2")
    assert lines[-1] == "bestmove claim"
    assert Session().search(f"position standard {THIRD_TIME}", "go depth 2")[-1] != "bestmove claim"  # automatic


#: Silver is two Pyramids down and shuffles its Pyramid while Red does the same: the third occurrence comes
BEHIND = "xs4ps4/2ysysys5/10/10/10/10/2Yn7/4Pn4Xn s 0"
SHUFFLE = "c2c3 f8g8 c3c2 g8f8 c2c3 f8g8 c3c2 g8f8"


def test_a_claim_is_answered_as_bestmove_claim() -> None:
    # the engine claims the draw when it can and its search finds the position worse for it
    session = Session(repetition="claim")
    lines = session.search(f"position {BEHIND} {SHUFFLE}", "go depth 2")
    assert lines[-1] == "bestmove claim"
    assert info_fields(lines[-2])["pv"] == ["claim"]
    state = damier.load("khet", repetition="claim").state_from_position(BEHIND)
    for text in SHUFFLE.split():
        state.play(state.parse_move(text))
    assert state.can_claim_draw() and state.parse_move("claim") == 800


# ----- isready ----------------------------------------------------------------------------------------------
def test_the_first_isready_loads_the_search() -> None:
    session = Session()
    assert session.send("isready") == ["readyok"]
    lines = session.search("position standard", "go depth 2")
    assert [info_fields(line)["depth"] for line in lines[:-1]] == [1, 2] and lines[-1].startswith("bestmove ")


def test_isready_between_moves_keeps_what_the_engine_learnt() -> None:
    # what the engine learnt shows in the nodes it needs: the same search again costs fewer nodes, also after an
    # isready (a warm-up that forgot the game would make it cost as much as the first time)
    def nodes_of(lines: list[str]) -> int:
        return [info_fields(line)["nodes"] for line in lines if line.startswith("info time")][-1]

    first = nodes_of(Session().search("position standard j1-", "go depth 4"))
    session = Session()
    session.search("position standard j1-", "go depth 4")  # no isready first
    assert session.send("isready") == ["readyok"]
    assert session.send("isready") == ["readyok"]
    again = nodes_of(session.search("position standard j1-", "go depth 4"))
    assert 0 < again < first


# ----- serve: the stream loop -------------------------------------------------------------------------------
class LineSink(io.TextIOBase):
    """The engine's output stream: complete lines go to a queue as they are flushed."""

    def __init__(self) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self._partial = ""

    def write(self, text: str) -> int:
        self._partial += text
        *done, self._partial = self._partial.split("\n")
        for line in done:
            self.lines.put(line)
        return len(text)


def test_serve_reads_commands_while_it_searches() -> None:
    read_end, write_end = os.pipe()
    commands = os.fdopen(write_end, "w", buffering=1)
    sink = LineSink()
    thread = threading.Thread(target=serve, args=(damier.load("khet"), os.fdopen(read_end), sink), daemon=True)
    thread.start()
    try:
        commands.write("isready\nposition standard\ngo infinite\n")
        assert sink.lines.get(timeout=60) == "readyok"
        assert sink.lines.get(timeout=60).startswith("info time ")
        commands.write("stop\n")
        while not (line := sink.lines.get(timeout=60)).startswith("bestmove"):
            assert line.startswith("info time ")
        commands.write("quit\n")
        thread.join(timeout=30)
        assert not thread.is_alive()
    finally:
        commands.close()


def test_at_the_end_of_input_a_bounded_search_still_answers() -> None:
    out = io.StringIO()
    serve(damier.load("khet"), io.StringIO("position standard\ngo depth 2\n"), out)
    assert out.getvalue().splitlines()[-1].startswith("bestmove ")


def test_at_the_end_of_input_an_infinite_search_is_stopped() -> None:
    out = io.StringIO()
    serve(damier.load("khet"), io.StringIO("position standard\ngo infinite\n"), out)
    assert out.getvalue().splitlines()[-1].startswith("bestmove ")


class ClosedPipe(io.TextIOBase):
    """An output whose reader went away."""

    def __init__(self) -> None:
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        raise BrokenPipeError(32, "Broken pipe")


def test_serve_ends_quietly_when_its_output_is_gone() -> None:
    sink = ClosedPipe()
    serve(damier.load("khet"), io.StringIO("isready\nposition standard\ngo infinite\nd\nisready\n"), sink)
    assert sink.writes == 1  # the first answer failed; nothing more was tried, the search ended
