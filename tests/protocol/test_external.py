"""The ``ext:COMMAND`` agent: spec parsing, games against ``damier engine khet``, and forfeits by fake engines
that crash, hang, or answer moves that are not legal (each loses the game, and the result says why)."""

from __future__ import annotations

import gc
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import damier
from damier.agents import make_agent
from damier.agents.spec import describe_kinds, parse
from damier.ai import RandomAgent
from damier.ai.base import Agent, AgentFailure, close_agent
from damier.arena import play_match, tournament
from damier.core import registry
from damier.core.game import State
from damier.protocol import external
from damier.protocol.external import ExternalAgent, position_command
from tests.conformance.conftest import DICE_INFO
from tests.protocol.conftest import ENGINE

FakeEngine = Callable[[str], tuple[str, Path]]
#: games end soon: 12 plies without a removal is a draw
QUICK = {"quiet_ply_limit": 12}
OWN_ENGINE = shlex.join(ENGINE)
#: from the Classic setup, back and forth twice: the start position a third time, Silver to move
THIRD_TIME = "h2h3 c7c6 h3h2 c6c7 h2h3 c7c6 h3h2 c6c7"


def khet(**options: object) -> damier.Game:
    return damier.load("khet", **options)


def pid_gone(pid: int, timeout: float = 10.0) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting for its parent counts as ended)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:
            if Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z":
                return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


# ----- specs ------------------------------------------------------------------------------------------------
def test_ext_takes_the_rest_of_the_spec_as_a_command_line() -> None:
    kind, values = parse("ext:./my engine --hash 64 'a b'", "khet")
    assert kind == "ext"
    assert values == {"time": 1.0, "margin": 1.0, "startup": 60.0, "clock": "engine", "untold": "forfeit",
                      "command": ["./my", "engine", "--hash", "64", "a b"]}
    kind, values = parse("ext(time=0.25,margin=3):damier engine khet -o setup=imhotep", "khet")
    assert (values["time"], values["margin"], values["command"]) == (0.25, 3.0, ["damier", "engine", "khet", "-o",
                                                                                 "setup=imhotep"])
    assert parse("EXT:x:y=1,z", "khet")[1]["command"] == ["x:y=1,z"]  # colons and commas belong to the command
    assert "ext(time=...,margin=...,startup=...,clock=engine|wall,untold=forfeit|play):COMMAND" in describe_kinds()


@pytest.mark.parametrize(("spec", "words"), [
    ("ext:", "give the engine's command line after the colon, e.g. ext:./my-engine --fast"),
    ("ext:   ", "give the engine's command line after the colon"),
    ("ext(time=0.5)", "write an external engine as ext:COMMAND or ext(time=1.0):COMMAND"),
    ("ext(speed=2):x", "'speed=2' is not a parameter of ext (accepted: time, margin, startup, clock, untold)"),
    ("ext(clock=cpu):x", "clock='cpu' is not one of: engine, wall"),
    ("ext(untold=ignore):x", "untold='ignore' is not one of: forfeit, play"),
    ("ext(time=0):x", "time=0 is out of range"),
    ("ext(time=1e7):x", "time=1e7 is out of range (0.001 to 1000000.0)"),
    ("ext(margin=1e300):x", "margin=1e300 is out of range"),
    ("ext(margin=soon):x", "margin='soon' is not a number"),
    ("ext:engine 'unclosed", "the command line does not split into words (No closing quotation)"),
    ("ext:/no/such/engine --fast", "cannot run '/no/such/engine' (no such program, or not executable)"),
    ("exe:engine", "unknown agent 'exe:engine'; known agents: random, mcts, solver, alphabeta, easy, medium, hard, "
                   "ext:"),
])
def test_bad_ext_specs_say_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(damier.AgentSpecError) as caught:
        make_agent(spec, khet())
    assert words in str(caught.value)


def test_making_the_agent_starts_no_process(fake_engine: FakeEngine) -> None:
    command, pid_file = fake_engine("hang")
    agent = make_agent(f"ext:{command}", khet())
    assert isinstance(agent, ExternalAgent) and agent.spec == f"ext:{command}"
    assert not pid_file.exists()


def test_a_game_with_chance_events_cannot_have_an_external_engine() -> None:
    registry.register(DICE_INFO)
    try:
        with pytest.raises(damier.AgentSpecError, match="cannot play test-dice, a game with chance events"):
            make_agent(f"ext:{OWN_ENGINE}", damier.load("test-dice"))
    finally:
        registry.unregister(DICE_INFO.name)


# ----- what the engine is told ------------------------------------------------------------------------------
def test_the_position_names_the_setup_or_gives_the_start_position() -> None:
    state = khet().new_state()
    assert position_command(state) == "position standard"
    state.play(state.parse_move("j1-"))
    state.play(state.parse_move("a8-"))
    assert position_command(state) == "position standard j1- a8-"
    assert position_command(khet(setup="dynasty").new_state()) == "position dynasty"
    start = "xs1as2psas3/3Yw2yw3/6yeyw2/5sn2Ys1/yn1Ys2Asyn3/2SnYsAe1sn3/ys5Sn3/6Pn2Xn s 1"
    from_position = khet().state_from_position(start)
    from_position.play(from_position.parse_move("i5j5"))
    assert position_command(from_position) == f"position {start} i5j5"


# ----- playing against damier's own engine ------------------------------------------------------------------
@pytest.fixture(scope="module")
def own_engine() -> Iterator[ExternalAgent]:
    agent = make_agent(f"ext(time=0.05,margin=5):{OWN_ENGINE}", khet(**QUICK))
    assert isinstance(agent, ExternalAgent)
    with agent:
        yield agent


def test_a_match_against_damiers_engine_plays_to_the_end(own_engine: ExternalAgent) -> None:
    game = khet(**QUICK)
    result = play_match(game, [make_agent("easy", game), own_engine], [0, 1], seed=3, opening_plies=2)
    assert result.forfeit is None
    assert damier.Record.from_json(result.record).replay().outcome() == result.outcome
    assert own_engine.info.depth >= 1 and own_engine.info.nodes > 0 and own_engine.info.pv
    assert own_engine.info.pv[0] == own_engine.info.move


def test_the_engine_serves_game_after_game(own_engine: ExternalAgent) -> None:
    game = khet(**QUICK)
    engine = own_engine.engine
    for seed in (4, 5):
        result = play_match(game, [own_engine, RandomAgent(seed=seed)], [0, 1], seed=seed, opening_plies=1)
        assert result.forfeit is None and result.plies > 1
    assert own_engine.engine is engine and engine is not None and engine.alive()


def test_an_arena_in_worker_processes_against_damiers_engine() -> None:
    spec = f"ext(time=0.05,margin=5):{OWN_ENGINE}"
    result = tournament.run("khet", ["easy", spec], games_per_pair=2, seed=0, opening=2, options=QUICK, workers=2)
    assert [game["forfeit"] for game in result.games] == [None, None]
    assert sum(s.games for s in result.standings) == 4
    for game in result.games:
        assert game["seats"] in (["easy", spec], [spec, "easy"])
        damier.Record.from_json(game["record"]).replay()


class OpensWith:
    """An agent that plays ``opening`` (moves in notation) first, then lets ``then`` choose."""

    def __init__(self, opening: list[str], then: Agent) -> None:
        self.opening, self.then, self.spec, self.info = opening, then, then.spec, then.info
        self._left: list[str] = []

    def reset(self) -> None:
        self._left = list(self.opening)
        self.then.reset()

    def choose(self, state: State) -> int:
        if self._left:
            return state.parse_move(self._left.pop(0))
        return self.then.choose(state)


def test_the_engine_plays_by_the_games_rules(own_engine: ExternalAgent) -> None:
    """A Pharaoh rotation is legal only with pharaoh_rotation=true: the engine is told, and follows the game."""
    game = khet(pharaoh_rotation=True, **QUICK)
    easy = OpensWith(["e1+"], make_agent("easy", game))
    result = play_match(game, [easy, own_engine], [0, 1], seed=6)
    assert result.forfeit is None, result.forfeit
    assert result.record["moves"][0] == "e1+" and result.plies > 2
    # the next game is played by the default rules again: the engine is told so
    default = khet(**QUICK)
    result = play_match(default, [make_agent("easy", default), own_engine], [1, 0], seed=7)
    assert result.forfeit is None, result.forfeit
    assert own_engine.engine_options == {"pharaoh_rotation": False, "quiet_ply_limit": 12}


def told(pid_file: Path) -> list[str]:
    """What a fake engine was sent."""
    return Path(f"{pid_file}.log").read_text().splitlines()


def test_the_engine_is_told_each_rule_that_is_not_the_default(fake_engine: FakeEngine) -> None:
    command, pid_file = fake_engine("legal")
    with ExternalAgent(shlex.split(command)) as agent:
        agent.choose(khet(setup="imhotep", pharaoh_rotation=True, repetition="claim").new_state())
        assert told(pid_file) == ["newgame", "setoption name pharaoh_rotation value true", "isready",
                                  "setoption name repetition value claim", "isready", "position imhotep",
                                  "go movetime 1000"]
        agent.reset()
        agent.choose(khet(repetition="claim").new_state())  # back to the default: said once, not repeated
        assert told(pid_file)[7:] == ["newgame", "setoption name pharaoh_rotation value false", "isready",
                                      "position standard", "go movetime 1000"]
        agent.reset()
        agent.choose(khet(repetition="claim").new_state())
        assert told(pid_file)[12:] == ["newgame", "isready", "position standard", "go movetime 1000"]


@pytest.mark.parametrize(("mode", "answer"), [
    ("no-options", "unknown command 'setoption'"),
    ("khet2ai", "Unrecognised message type: setoption name quiet_ply_limit value 40"),
])
def test_an_engine_that_does_not_know_a_rule_loses(fake_engine: FakeEngine, mode: str, answer: str) -> None:
    command, pid_file = fake_engine(mode)
    game = khet(quiet_ply_limit=40)
    agent = make_agent(f"ext:{command}", game)
    try:
        result = play_match(game, [agent, RandomAgent(seed=1)], [0, 1], seed=0)
    finally:
        close_agent(agent)
    assert result.forfeit is not None and result.forfeit.agent == 0
    assert result.forfeit.reason == f"engine does not support option quiet_ply_limit=40 (it answered: {answer!r})"
    assert result.outcome.reason.startswith("Silver's engine does not support option quiet_ply_limit=40")
    assert "go movetime 1000" not in told(pid_file)


def test_an_engine_without_isready_plays(fake_engine: FakeEngine) -> None:
    """Khet2-AI has no isready: its answer that it does not know the command shows that it is ready."""
    command, pid_file = fake_engine("khet2ai")
    with ExternalAgent(shlex.split(command), startup=5.0) as agent:
        state = khet(setup="dynasty").new_state()
        assert state.move_to_str(agent.choose(state)) == "j1-"
    assert told(pid_file)[:4] == ["newgame", "isready", "position dynasty", "go movetime 1000"]


def test_an_engine_may_claim_a_repetition_draw(fake_engine: FakeEngine) -> None:
    command, pid_file = fake_engine("claim")
    state = khet(repetition="claim").new_state()
    for text in THIRD_TIME.split():
        state.play(state.parse_move(text))
    with ExternalAgent(shlex.split(command)) as agent:
        move = agent.choose(state)
    assert state.move_to_str(move) == "claim"
    assert f"position standard {THIRD_TIME}" in told(pid_file)
    state.play(move)
    assert state.outcome() is not None and state.outcome().winner is None  # type: ignore[union-attr]


# ----- forfeits ---------------------------------------------------------------------------------------------
def forfeit_against_random(spec: str, seat: int = 1) -> tuple[damier.Outcome, str]:
    """Play ``spec`` against a random player (``spec`` in ``seat``); the outcome and the forfeit's reason."""
    game = khet()
    agent = make_agent(spec, game)
    try:
        result = play_match(game, [RandomAgent(seed=1), agent], [0, 1] if seat == 1 else [1, 0], seed=0)
    finally:
        close_agent(agent)
    assert result.forfeit is not None and result.forfeit.agent == 1 and result.forfeit.seat == seat
    assert result.outcome.winner == 1 - seat
    assert result.outcome.returns == ((1.0, -1.0) if seat == 1 else (-1.0, 1.0))
    # the moves themselves do not end the game; the record's result is the forfeit
    assert damier.Outcome.from_json(result.record["result"]) == result.outcome
    assert result.outcome.termination == damier.Termination.FORFEIT
    return result.outcome, result.forfeit.reason


def test_an_engine_that_crashes_loses(fake_engine: FakeEngine) -> None:
    command, _ = fake_engine("crash")
    outcome, reason = forfeit_against_random(f"ext:{command}")
    assert reason == "engine crashed (exit code 3); its last error output: 'ZeroDivisionError: boom'"
    assert outcome.reason == f"Red's {reason}; Red loses by forfeit: Silver wins"


def test_an_engine_that_exits_at_start_loses(fake_engine: FakeEngine) -> None:
    command, _ = fake_engine("exit-at-once")
    outcome, reason = forfeit_against_random(f"ext:{command}", seat=0)
    assert reason == "engine crashed (exit code 5); its last error output: 'cannot open my opening book'"
    assert outcome.reason.startswith("Silver's engine crashed (exit code 5)")
    assert outcome.reason.endswith("; Silver loses by forfeit: Red wins")


def test_an_engine_that_cannot_be_started_loses(tmp_path: Path) -> None:
    script = tmp_path / "not-executable"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    agent = ExternalAgent([str(script)])
    script.chmod(0o644)
    with pytest.raises(AgentFailure, match=r"engine could not start \(.*: Permission denied\)"):
        agent.choose(khet().new_state())


def test_an_engine_that_hangs_loses_on_time_and_is_killed(fake_engine: FakeEngine) -> None:
    command, pid_file = fake_engine("hang")
    outcome, reason = forfeit_against_random(f"ext(time=0.1,margin=0.3):{command}")
    assert reason == "engine timed out: no bestmove 0.4 s after go movetime 100"
    assert outcome.reason == ("Red's engine timed out: no bestmove 0.4 s after go movetime 100; "
                              "Red loses by forfeit: Silver wins")
    assert pid_gone(int(pid_file.read_text()))


def test_an_engine_that_never_answers_isready_loses(fake_engine: FakeEngine) -> None:
    command, pid_file = fake_engine("mute")
    _, reason = forfeit_against_random(f"ext(startup=0.5):{command}")
    assert reason == "engine timed out: no readyok 0.5 s after isready"
    assert pid_gone(int(pid_file.read_text()))


@pytest.mark.parametrize(("mode", "reason"), [
    ("illegal", "engine played the illegal move x9 ('x9' is not a Khet move"),
    ("wrong-side", "engine played the illegal move a8- (a8-: the Sphinx on a8 is Red's; Silver is to move)"),
    ("empty", "engine answered 'bestmove' without a move"),
])
def test_an_engine_that_answers_no_legal_move_loses(fake_engine: FakeEngine, mode: str, reason: str) -> None:
    command, _ = fake_engine(mode)
    outcome, said = forfeit_against_random(f"ext:{command}", seat=0)
    assert said.startswith(reason)
    assert outcome.reason.startswith(f"Silver's {reason}")


def test_the_engines_own_complaints_explain_its_illegal_move(fake_engine: FakeEngine) -> None:
    command, _ = fake_engine("complain")
    game = khet()
    state = game.new_state()
    state.play(state.parse_move("j1-"))  # the fake answers j1-, legal for Silver only
    with ExternalAgent(shlex.split(command)) as agent, pytest.raises(AgentFailure) as caught:
        agent.choose(state)
    assert caught.value.reason.endswith("(it had reported: I only know the standard setup)")


def test_close_ends_the_engine_and_what_it_started(fake_engine: FakeEngine) -> None:
    command, pid_file = fake_engine("spawn")
    agent = ExternalAgent(shlex.split(command), time_limit=0.05, margin=0.05)
    with pytest.raises(AgentFailure, match="timed out"):
        agent.choose(khet().new_state())
    agent.close()
    assert pid_gone(int(pid_file.read_text()))
    assert pid_gone(int(Path(f"{pid_file}.child").read_text()))


def test_an_engine_that_exits_leaves_nothing_behind(fake_engine: FakeEngine) -> None:
    command, pid_file = fake_engine("spawn-exit")
    with ExternalAgent(shlex.split(command)) as agent:
        agent.choose(khet().new_state())
    assert pid_gone(int(pid_file.read_text()))
    assert pid_gone(int(Path(f"{pid_file}.child").read_text()))  # the engine quit; its helper was killed


def test_a_reaped_engines_group_is_not_signalled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the engine is reaped its process id (its group's id) may belong to another process group."""
    signalled: list[int] = []
    monkeypatch.setattr(os, "killpg", lambda pgid, sig: signalled.append(pgid))
    process = subprocess.Popen([sys.executable, "-c", "pass"], start_new_session=True, stdin=subprocess.PIPE,
                               text=True)
    process.wait()
    external._kill(process)
    assert signalled == []
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True,
                               stdin=subprocess.PIPE, text=True)
    monkeypatch.undo()
    external._kill(running)  # not reaped yet: its group is killed, then it is reaped
    assert running.returncode is not None


def test_an_agent_nobody_holds_takes_its_engine_along(fake_engine: FakeEngine) -> None:
    command, pid_file = fake_engine("legal")
    agent = ExternalAgent(shlex.split(command))
    state = khet().new_state()
    agent.choose(state)
    del agent
    gc.collect()
    assert pid_gone(int(pid_file.read_text()))


def test_a_closed_agent_starts_a_new_engine_when_asked_again(fake_engine: FakeEngine) -> None:
    command, pid_file = fake_engine("legal")
    state = khet().new_state()
    with ExternalAgent(shlex.split(command)) as agent:
        assert state.move_to_str(agent.choose(state)) == "j1-"
        first = int(pid_file.read_text())
        agent.close()
        agent.close()  # closing twice is harmless
        assert pid_gone(first)
        assert state.move_to_str(agent.choose(state)) == "j1-"
        assert int(pid_file.read_text()) != first
        assert agent.info.depth == 1 and agent.info.score == 0.0


def test_a_tournament_counts_forfeits_as_losses(fake_engine: FakeEngine) -> None:
    command, _ = fake_engine("crash")
    spec = f"ext:{command}"
    result = tournament.run("khet", ["random", spec], games_per_pair=2, seed=0, opening=0, workers=1)
    standings = {s.name: (s.wins, s.draws, s.losses) for s in result.standings}
    assert standings == {"random": (2, 0, 0), spec: (0, 0, 2)}
    assert result.pairs == {f"random vs {spec}": {"wins": 2, "draws": 0, "losses": 0}}
    data = result.to_json()
    for game, seat in zip(data["games"], (1, 0), strict=True):
        assert game["winner"] == "random"
        assert game["forfeit"] == {"seat": seat, "agent": spec, "reason": game["forfeit"]["reason"]}
        assert game["forfeit"]["reason"].startswith("engine crashed (exit code 3)")
        assert game["reason"].startswith(("Red's engine crashed", "Silver's engine crashed"))
