"""The ``ext:`` agent against engines that differ from damier's the ways Khet2-AI does: an engine that resigns by
answering ``bestmove none``, one whose ``go movetime`` runs on a CPU clock (``ext(clock=wall)`` stops it on the
wall clock), and one that knows no ``setoption`` (``ext(untold=play)`` plays on, and the result says which rules it
was not told)."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import damier
from damier.agents import make_agent
from damier.ai import RandomAgent
from damier.ai.base import AgentFailure, AgentResigned, close_agent, untold_rules
from damier.arena import play_match, tournament
from damier.arena.match import Untold
from damier.cli import app
from damier.core.game import Termination
from damier.protocol.external import ExternalAgent
from tests.protocol.conftest import ENGINE

#: games end soon: 12 plies without a removal is a draw
QUICK = {"quiet_ply_limit": 12}

PEER_ENGINE = textwrap.dedent('''
    """A fake engine that speaks like Khet2-AI (no isready, no setoption: "info string Unrecognised message type")
    and behaves as MODE says; every line it reads is appended to LOG."""
    import subprocess, sys, threading, time

    mode, log = sys.argv[1], sys.argv[2]
    stopped = threading.Event()


    def told(line):
        with open(log, "a") as handle:
            handle.write(line)


    def search(seconds):
        """Think until ``seconds`` of CPU time have passed (or ``stop``): waiting costs no CPU time, so on a
        machine that keeps it waiting this clock runs far slower than the wall clock."""
        start = time.process_time()
        while time.process_time() - start < seconds and not stopped.is_set():
            time.sleep(0.005)
        print("info time 5 depth 2 score 40", flush=True)
        print("bestmove j1-", flush=True)


    if mode == "untold":  # damier's engine (the rest of the command line) behind a front that knows no setoption
        engine = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, text=True)
        for line in sys.stdin:
            told(line)
            if line.startswith("setoption"):
                print("info string Unrecognised message type: " + line.strip(), flush=True)
                continue
            engine.stdin.write(line)
            engine.stdin.flush()
            if line.startswith("quit"):
                break
        engine.wait()
        sys.exit()

    for line in sys.stdin:
        told(line)
        words = line.split()
        if not words:
            continue
        if words[0] == "position" and mode == "complain-none":
            print("info string error: I only know the standard setup", flush=True)
        elif words[0] == "go":
            if mode in ("resign", "complain-none"):  # every move loses to a forced mate: nothing to play
                print("info time 3 mate -3", flush=True)
                print("bestmove none", flush=True)
            elif mode == "answer-at-once":
                print("bestmove j1-", flush=True)
            elif mode == "cpu-clock":
                stopped.clear()
                seconds = float("inf") if words[1] == "infinite" else int(words[2]) / 1000
                threading.Thread(target=search, args=(seconds,), daemon=True).start()
            # "deaf": thinks for ever, and does not hear stop
        elif words[0] == "stop":
            if mode != "deaf":
                stopped.set()
        elif words[0] == "quit":
            break
        elif words[0] not in ("newgame", "position"):
            print("info string Unrecognised message type: " + line.strip(), flush=True)
''')

PeerEngine = Callable[..., tuple[str, Path]]


@pytest.fixture()
def peer_engine(tmp_path: Path) -> PeerEngine:
    """``peer_engine(mode, *rest)``: (the command line of a fake engine behaving as ``mode``, the file of what it
    was told)."""
    script = tmp_path / "peer_engine.py"
    script.write_text(PEER_ENGINE)

    def make(mode: str, *rest: str) -> tuple[str, Path]:
        log = tmp_path / f"{mode}.log"
        return shlex.join([sys.executable, str(script), mode, str(log), *rest]), log

    return make


def told(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def khet(**options: object) -> damier.Game:
    return damier.load("khet", **options)


# ----- specs ------------------------------------------------------------------------------------------------
def test_the_clock_and_untold_parameters() -> None:
    agent = make_agent(f"ext(clock=WALL,untold=play,time=0.2):{sys.executable} --fast", khet())
    assert isinstance(agent, ExternalAgent)
    assert (agent.clock, agent.play_untold, agent.time_limit, agent.command) == ("wall", True, 0.2,
                                                                                 [sys.executable, "--fast"])
    default = make_agent(f"ext:{sys.executable}", khet())
    assert isinstance(default, ExternalAgent)
    assert (default.clock, default.play_untold) == ("engine", False)


# ----- resignation: bestmove none with moves left -----------------------------------------------------------
def test_bestmove_none_with_moves_left_is_a_resignation(peer_engine: PeerEngine) -> None:
    command, _ = peer_engine("resign")
    game = khet()
    agent = make_agent(f"ext:{command}", game)
    try:
        result = play_match(game, [RandomAgent(seed=1), agent], [0, 1], seed=0, opening_plies=2)
    finally:
        close_agent(agent)
    assert result.forfeit is None
    assert result.resignation is not None and (result.resignation.seat, result.resignation.agent) == (1, 1)
    assert result.resignation.reason.startswith("engine answered bestmove none with ")
    assert result.resignation.reason.endswith(" legal moves left (its last report: info time 3 mate -3)")
    assert result.outcome.termination == Termination.RESIGNATION
    assert result.outcome.reason == "Red resigned: Silver wins"
    assert result.outcome.winner == 0 and result.winner_agent == 0 and result.loser_agent == 1
    record = damier.Record.from_json(result.record)
    state = record.replay()  # the moves before the resignation replay; the game is not over by its rules
    assert not state.is_over() and len(record.moves) == 3
    assert record.result == result.outcome


def test_an_engine_that_resigns_raises_agent_resigned(peer_engine: PeerEngine) -> None:
    command, _ = peer_engine("resign")
    state = khet().new_state()
    with ExternalAgent(shlex.split(command), startup=10.0) as agent, pytest.raises(AgentResigned) as caught:
        agent.choose(state)
    assert caught.value.reason == (f"engine answered bestmove none with {len(state.legal_moves())} legal moves left "
                                   "(its last report: info time 3 mate -3)")
    assert not isinstance(caught.value, AgentFailure)


def test_bestmove_none_after_the_engine_complained_is_a_forfeit(peer_engine: PeerEngine) -> None:
    """An engine that said it could not follow the position did not choose to resign."""
    command, _ = peer_engine("complain-none")
    with ExternalAgent(shlex.split(command), startup=10.0) as agent, pytest.raises(AgentFailure) as caught:
        agent.choose(khet(setup="dynasty").new_state())
    assert caught.value.reason == ("engine answered bestmove none in a position with legal moves (it had reported: "
                                   "I only know the standard setup)")


def test_a_tournament_counts_a_resignation_as_a_loss(peer_engine: PeerEngine) -> None:
    command, _ = peer_engine("resign")
    spec = f"ext:{command}"
    result = tournament.run("khet", ["random", spec], games_per_pair=2, seed=0, opening=0, workers=1)
    assert {s.name: (s.wins, s.draws, s.losses) for s in result.standings} == {"random": (2, 0, 0), spec: (0, 0, 2)}
    data = result.to_json()
    assert data["terminations"] == {"resignation": 2}
    for game, seat in zip(data["games"], (1, 0), strict=True):
        assert game["termination"] == "resignation" and game["forfeit"] is None and game["winner"] == "random"
        assert game["resignation"] == {"seat": seat, "agent": spec, "reason": game["resignation"]["reason"]}
        assert game["reason"] in ("Red resigned: Silver wins", "Silver resigned: Red wins")
        assert game["untold"] == []
        damier.Record.from_json(game["record"]).replay()


def test_damier_play_records_an_engines_resignation(peer_engine: PeerEngine, tmp_path: Path) -> None:
    command, _ = peer_engine("resign")
    saved = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "khet", "--players", f"easy,ext:{command}", "--save", str(saved)])
    assert result.exit_code == 0, result.output
    out = "".join(result.stdout.split())
    assert "resigns:engineansweredbestmovenonewith" in out
    assert "Gameover:Redresigned:Silverwins." in out
    record = damier.Record.load(saved)
    assert record.result is not None and record.result.termination == Termination.RESIGNATION
    assert len(record.moves) == 1 and not record.replay().is_over()


# ----- the wall clock: go infinite, then stop -----------------------------------------------------------------
def test_an_engine_on_a_cpu_clock_overruns_go_movetime(peer_engine: PeerEngine) -> None:
    command, log = peer_engine("cpu-clock")
    with ExternalAgent(shlex.split(command), time_limit=0.1, margin=0.3, startup=10.0) as agent, \
            pytest.raises(AgentFailure) as caught:
        agent.choose(khet().new_state())
    assert caught.value.reason == "engine timed out: no bestmove 0.4 s after go movetime 100"
    assert "stop" not in told(log)


def test_the_wall_clock_stops_an_engine_on_a_cpu_clock(peer_engine: PeerEngine) -> None:
    command, log = peer_engine("cpu-clock")
    state = khet().new_state()
    with ExternalAgent(shlex.split(command), time_limit=0.1, margin=5.0, startup=10.0, clock="wall") as agent:
        for _ in range(2):  # and again: the engine serves move after move
            assert state.move_to_str(agent.choose(state)) == "j1-"
            assert (agent.info.depth, agent.info.score) == (2, 40.0)
    assert told(log) == ["newgame", "isready", *["position standard", "go infinite", "stop"] * 2, "quit"]


def test_an_answer_before_the_wall_clock_deadline_is_not_stopped(peer_engine: PeerEngine) -> None:
    command, log = peer_engine("answer-at-once")
    state = khet().new_state()
    with ExternalAgent(shlex.split(command), time_limit=0.2, startup=10.0, clock="wall") as agent:
        assert state.move_to_str(agent.choose(state)) == "j1-"
        time.sleep(0.4)  # past the move time: still nothing more is sent
        assert told(log)[-2:] == ["position standard", "go infinite"]


def test_an_engine_that_does_not_stop_loses_on_time(peer_engine: PeerEngine) -> None:
    command, _ = peer_engine("deaf")
    game = khet()
    agent = make_agent(f"ext(clock=wall,time=0.1,margin=0.2,startup=10):{command}", game)
    try:
        result = play_match(game, [agent, RandomAgent(seed=1)], [0, 1], seed=0)
    finally:
        close_agent(agent)
    assert result.forfeit is not None and result.outcome.termination == Termination.FORFEIT
    assert result.forfeit.reason == "engine timed out: no bestmove 0.2 s after stop (sent 0.1 s after go infinite)"


def test_damiers_engine_plays_a_match_on_the_wall_clock() -> None:
    game = khet(**QUICK)
    agent = make_agent(f"ext(clock=wall,time=0.05,margin=5):{shlex.join(ENGINE)}", game)
    try:
        result = play_match(game, [make_agent("easy", game), agent], [1, 0], seed=2, opening_plies=2)
    finally:
        close_agent(agent)
    assert result.forfeit is None and result.resignation is None
    assert damier.Record.from_json(result.record).replay().outcome() == result.outcome


# ----- rules the engine cannot be told ------------------------------------------------------------------------
def test_with_untold_play_the_match_goes_on_by_the_rules_in_force(peer_engine: PeerEngine) -> None:
    """damier's engine behind a front that knows no setoption plays by its default rules; the game's rules (no
    strict swap, a short quiet limit) decide, and the result says the engine was not told them."""
    command, log = peer_engine("untold", *ENGINE)
    game = khet(strict_swap_reserved=False, **QUICK)
    agent = make_agent(f"ext(untold=play,time=0.05,margin=10):{command}", game)
    try:
        result = play_match(game, [make_agent("easy", game), agent], [0, 1], seed=3, opening_plies=2)
        assert result.forfeit is None and result.resignation is None
        assert result.untold == [Untold(agent=1, seats=(1,), rules={"strict_swap_reserved": False,
                                                                     "quiet_ply_limit": 12})]
        record = damier.Record.from_json(result.record)
        assert record.options["strict_swap_reserved"] is False  # the rules in force
        assert record.replay().outcome() == result.outcome
        assert "setoption name strict_swap_reserved value false" in told(log)
        # a game by the default rules: nothing to tell, nothing untold
        default = khet()
        agent.reset()
        assert untold_rules(agent) == {}
        state = default.new_state()
        agent.choose(state)
        assert untold_rules(agent) == {}
    finally:
        close_agent(agent)


def test_the_arena_says_which_rules_an_engine_was_not_told(peer_engine: PeerEngine) -> None:
    command, _ = peer_engine("resign")
    spec = f"ext(untold=play):{command}"
    args = ["arena", "khet", "--agents", "random", "--agents", spec, "--games", "2", "--opening", "0", "--workers",
            "1", "--opt", "strict_swap_reserved=false"]
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0, text.output
    out = " ".join(text.stdout.split())
    assert "games ended by: 2 resignation" in out
    assert f"game 1 resigned by {spec} (engine answered bestmove none with" in out
    assert (f"{spec} was not told strict_swap_reserved=false in 2 of its 2 games: it refused setoption and played by "
            "its own rules (rules in force: setup=classic, pharaoh_rotation=false, strict_swap_reserved=false, "
            "repetition=automatic, quiet_ply_limit=100)") in out
    data = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    assert data["untold"] == [{"agent": spec, "rules": {"strict_swap_reserved": False}, "games": 2}]
    assert [game["untold"] for game in data["games"]] == [
        [{"agent": spec, "seats": [1], "rules": {"strict_swap_reserved": False}}],
        [{"agent": spec, "seats": [0], "rules": {"strict_swap_reserved": False}}]]


def test_without_untold_play_a_refused_rule_still_forfeits(peer_engine: PeerEngine) -> None:
    command, _ = peer_engine("resign")
    game = khet(strict_swap_reserved=False)
    agent = make_agent(f"ext:{command}", game)
    try:
        result = play_match(game, [agent, RandomAgent(seed=1)], [0, 1], seed=0)
    finally:
        close_agent(agent)
    assert result.forfeit is not None and result.untold == []
    assert result.forfeit.reason.startswith("engine does not support option strict_swap_reserved=false")
