"""Agent spec strings, used everywhere a computer player is named (CLI, arena, server).

A spec is a name and optional parameters: ``random``, ``mcts:time=1.0``, ``mcts:playouts=20000``,
``alphabeta:depth=4``, ``alphabeta:time=1.0,eval=strong``, ``solver`` (puzzles: the first move of the game's
exact solver); a level of the game (``easy``, ``medium``,
``hard``); or an agent the game names (``atoms-classic``).

An external engine speaking the text protocol is ``ext:COMMAND`` (everything after ``ext:`` is the command
line, split like a shell does), with optional parameters in parentheses before the colon:
``ext(time=0.5,margin=2):./my-engine --hash 64``, ``ext(clock=wall,untold=play):./khet``.
"""

from __future__ import annotations

import math
import re
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from damier.ai.alphabeta import MAX_DEPTH, AlphaBetaAgent
from damier.ai.base import Agent
from damier.ai.mcts import MCTSAgent
from damier.ai.policy import PolicyAgent, policies
from damier.ai.random_player import RandomAgent
from damier.ai.solver import SolverAgent
from damier.core import registry
from damier.core.errors import AgentSpecError
from damier.core.game import Game
from damier.protocol.external import ExternalAgent

LEVELS = ("easy", "medium", "hard")
#: levels of a game that declares none
DEFAULT_LEVELS = {"easy": "mcts:playouts=300", "medium": "mcts:playouts=3000", "hard": "mcts:time=1.0"}


_KIND_WORDS = {float: "a number", int: "an integer", bool: "true or false", str: "a name"}


@dataclass(frozen=True)
class Param:
    name: str
    kind: type
    help: str
    minimum: float | None = None
    maximum: float | None = None
    #: the accepted words of a ``str`` parameter (any word when empty)
    choices: tuple[str, ...] = ()

    def parse(self, text: str, spec: str) -> Any:
        if self.choices:
            if text.lower() not in self.choices:
                raise AgentSpecError(f"agent {spec!r}: {self.name}={text!r} is not one of: {', '.join(self.choices)}")
            return text.lower()
        try:
            if self.kind is bool:
                lowered = text.lower()
                if lowered not in ("true", "false", "yes", "no", "1", "0"):
                    raise ValueError(text)
                return lowered in ("true", "yes", "1")
            value = self.kind(text)
        except ValueError:
            raise AgentSpecError(f"agent {spec!r}: {self.name}={text!r} is not {_KIND_WORDS[self.kind]}") from None
        if self.kind is float and not math.isfinite(value):
            raise AgentSpecError(f"agent {spec!r}: {self.name}={text} must be a finite number")
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise AgentSpecError(f"agent {spec!r}: {self.name}={text} is out of range ({self.describe_range()})")
        return value

    def describe_range(self) -> str:
        if self.maximum is None:
            return f">= {self.minimum}" if self.minimum is not None else "any"
        return f"{self.minimum} to {self.maximum}"


KINDS: dict[str, tuple[Param, ...]] = {
    "random": (Param("seed", int, "random seed"),),
    "mcts": (
        Param("time", float, "seconds per move", 0.001),
        Param("playouts", int, "playouts per move", 1),
        Param("c", float, "UCT exploration constant", 0.0),
        Param("seed", int, "random seed"),
        Param("reuse", bool, "keep the tree between moves"),
    ),
    "solver": (
        Param("nodes", int, "node limit of each solve", 1),
        Param("cost", int, "the longest solution looked for", 0),
    ),
    "policy": (
        Param("name", str, "the game's policy (its declared simple players)"),
        Param("seed", int, "random seed (ties)"),
    ),
    "alphabeta": (
        Param("depth", int, "search depth in plies", 1, MAX_DEPTH),
        Param("time", float, "seconds per move (iterative deepening)", 0.001),
        Param("eval", str, "evaluation function of the game"),
        Param("kernel", bool, "use the game's kernel search when it has one"),
    ),
}


#: the longest wait of ``ext(...)`` (seconds, about 11.6 days: ``go movetime`` takes at most 10^9 ms)
EXT_MAX_SECONDS = 1e6
#: parameters of ``ext(...):COMMAND``
EXT_PARAMS = (
    Param("time", float, "seconds per move (go movetime)", 0.001, EXT_MAX_SECONDS),
    Param("margin", float, "seconds past the move time before the engine loses on time", 0.0, EXT_MAX_SECONDS),
    Param("startup", float, "seconds to start and answer isready", 0.001, EXT_MAX_SECONDS),
    Param("clock", str, "engine: go movetime, timed by the engine; wall: go infinite, then stop after time "
                        "(for engines whose movetime is not wall-clock time)", choices=("engine", "wall")),
    Param("untold", str, "when the engine refuses a rule's setoption: forfeit, or play on by its own rules "
                         "(the match result says so)", choices=("forfeit", "play")),
)
EXT_DEFAULTS: dict[str, Any] = {"time": 1.0, "margin": 1.0, "startup": 60.0, "clock": "engine", "untold": "forfeit"}
_EXT = re.compile(r"^ext(?:\((?P<params>[^)]*)\))?:(?P<command>.*)$", re.IGNORECASE | re.DOTALL)


def describe_kinds() -> list[str]:
    """One line per kind of agent with its parameters, for help texts."""
    lines = [f"{kind}:" + ",".join(map(_param_form, params)) for kind, params in KINDS.items()]
    return [*lines, "ext(" + ",".join(map(_param_form, EXT_PARAMS)) + "):COMMAND"]


def _param_form(param: Param) -> str:
    """``time=...``, or the accepted words of a parameter that has them: ``clock=engine|wall``."""
    return f"{param.name}={'|'.join(param.choices) if param.choices else '...'}"


def is_external(spec: str) -> bool:
    """Whether ``spec`` names an external engine (``ext:COMMAND`` or ``ext(...):COMMAND``)."""
    head = spec.strip()[:4].lower()
    return head in ("ext:", "ext(")


def resolve(spec: str, game_name: str) -> str:
    """Turn a level or a game's named agent into a plain spec (``hard`` -> ``alphabeta:time=1.0,...``)."""
    name = spec.strip()
    info = registry.info(game_name)
    if name.lower() in LEVELS or name.lower() in info.agents:
        name = name.lower()
    if name in LEVELS:
        return info.levels.get(name, DEFAULT_LEVELS[name])
    if name in info.agents:
        return info.agents[name]
    return name


#: the kinds of agent whose thinking a ``time=`` parameter bounds
TIMED_KINDS = ("mcts", "alphabeta")


def within(spec: str, game_name: str, seconds: float) -> str:
    """``spec`` (a level or named agent resolved) thinking at most ``seconds`` a move: its ``time=`` lowered to
    ``seconds`` (an alpha-beta of fixed depth deepens iteratively up to it, an MCTS of fixed playouts stops at
    either bound); unchanged for agents that do not search (random, policies, solvers, external engines).
    (Tested in tests/ai/test_analysis_engine.py.)
    """
    plain = resolve(spec, game_name)
    if is_external(plain):
        return plain
    kind, _, rest = plain.partition(":")
    if kind.strip().lower() not in TIMED_KINDS:
        return plain
    parts = [part.strip() for part in rest.split(",") if part.strip()]
    kept = [part for part in parts if part.partition("=")[0].strip().lower() != "time"]
    current = next((part.partition("=")[2] for part in parts if part.partition("=")[0].strip().lower() == "time"),
                   None)
    try:
        if current is not None and float(current) <= seconds:
            return plain
    except ValueError:
        return plain  # a malformed spec: making the agent says what is wrong with it
    return f"{kind}:{','.join([*kept, f'time={seconds:.3g}'])}"


def parse(spec: str, game_name: str) -> tuple[str, dict[str, Any]]:
    """The kind and parameters of ``spec`` (levels and named agents resolved)."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError("an agent spec must be a non-empty string like 'random', 'hard' or 'mcts:time=1.0'")
    plain = resolve(spec, game_name)
    if is_external(plain):
        return "ext", _parse_external(plain, spec)
    kind, _, rest = plain.partition(":")
    kind = kind.strip().lower()
    if kind not in KINDS:
        info = registry.info(game_name)
        kinds = [name for name in KINDS if name != "policy" or info.has("policies")]
        known = [*kinds, *LEVELS, *info.agents, "ext:COMMAND"]
        raise AgentSpecError(f"unknown agent {spec!r}; known agents: {', '.join(known)} (e.g. mcts:time=1.0)")
    return kind, _parse_params(kind, KINDS[kind], rest, spec)


def _parse_external(plain: str, spec: str) -> dict[str, Any]:
    """The parameters and the command line (``command``, a list of words) of an ``ext`` spec."""
    match = _EXT.match(plain.strip())
    if match is None:
        raise AgentSpecError(f"agent {spec!r}: write an external engine as ext:COMMAND or ext(time=1.0):COMMAND")
    values = {**EXT_DEFAULTS, **_parse_params("ext", EXT_PARAMS, match.group("params") or "", spec)}
    try:
        command = shlex.split(match.group("command"))
    except ValueError as exc:
        raise AgentSpecError(f"agent {spec!r}: the command line does not split into words ({exc})") from None
    if not command:
        raise AgentSpecError(f"agent {spec!r}: give the engine's command line after the colon, "
                             "e.g. ext:./my-engine --fast")
    values["command"] = command
    return values


def _parse_params(kind: str, known: tuple[Param, ...], rest: str, spec: str) -> dict[str, Any]:
    params = {p.name: p for p in known}
    values: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, text = item.partition("=")
        key = key.strip().lower()
        if key in params and not sep:
            raise AgentSpecError(f"agent {spec!r}: parameter {key!r} needs a value ({key}=...)")
        if not sep or key not in params:
            accepted = ", ".join(params)
            raise AgentSpecError(f"agent {spec!r}: {item!r} is not a parameter of {kind} (accepted: {accepted})")
        values[key] = params[key].parse(text.strip(), spec)
    return values


def make_agent(spec: str, game: Game, seed: int | None = None) -> Agent:
    """Build the agent ``spec`` for ``game``; ``seed`` seeds it unless the spec sets its own.

    >>> import damier
    >>> make_agent("hard", damier.load("atoms")).spec
    'hard'
    >>> make_agent("mcts:budget=3", damier.load("atoms"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    damier.core.errors.AgentSpecError: agent 'mcts:budget=3': 'budget=3' is not a parameter of mcts (accepted: ...)
    """
    kind, values = parse(spec, game.name)
    builder = _BUILDERS[kind]
    return builder(values, game, seed, spec.strip())


def _random(values: dict[str, Any], game: Game, seed: int | None, spec: str) -> Agent:
    return RandomAgent(seed=values.get("seed", seed), spec=spec)


def _mcts(values: dict[str, Any], game: Game, seed: int | None, spec: str) -> Agent:
    return MCTSAgent(
        time_limit=values.get("time"),
        playouts=values.get("playouts"),
        exploration=values.get("c", 1.0),
        seed=values.get("seed", seed),
        reuse=values.get("reuse", True),
        spec=spec,
    )


def _solver(values: dict[str, Any], game: Game, seed: int | None, spec: str) -> Agent:
    if not game.info.has("solver"):
        raise AgentSpecError(f"agent {spec!r}: {registry.missing_message(game.name, 'solver')}")
    return SolverAgent(node_limit=values.get("nodes"), max_cost=values.get("cost"), spec=spec)


def hint_agent(game: Game) -> Agent:
    """The agent that gives hints to people in ``game`` (its declared ``hint`` spec)."""
    return make_agent(game.info.hint, game)


def _alphabeta(values: dict[str, Any], game: Game, seed: int | None, spec: str) -> Agent:
    evaluation = values.get("eval")
    if evaluation is not None and evaluation not in game.evaluations:
        offered = ", ".join(game.evaluations) or "none"
        raise AgentSpecError(f"agent {spec!r}: {game.name} has no evaluation {evaluation!r} (it has: {offered})")
    agent = AlphaBetaAgent(
        depth=values.get("depth"),
        time_limit=values.get("time"),
        evaluation=evaluation,
        use_kernel=values.get("kernel", True),
        spec=spec,
    )
    if agent.time_limit is not None:
        agent.prepare(game)  # a timed move's time is the search's alone, from the first move
    return agent


def _policy(values: dict[str, Any], game: Game, seed: int | None, spec: str) -> Agent:
    if "name" not in values:
        offered = ", ".join(sorted(policies(game))) or "none"
        raise AgentSpecError(f"agent {spec!r}: name the policy, policy:name=... ({game.name} has: {offered})")
    return PolicyAgent(game, values["name"], seed=values.get("seed", seed), spec=spec)


def _external(values: dict[str, Any], game: Game, seed: int | None, spec: str) -> Agent:
    if game.has_chance:
        raise AgentSpecError(f"agent {spec!r}: an external engine cannot play {game.name}, a game with chance events")
    program = values["command"][0]
    if shutil.which(program) is None:
        raise AgentSpecError(f"agent {spec!r}: cannot run {program!r} (no such program, or not executable)")
    return ExternalAgent(values["command"], time_limit=values["time"], margin=values["margin"],
                         startup=values["startup"], clock=values["clock"], untold=values["untold"], spec=spec)


_BUILDERS: dict[str, Callable[[dict[str, Any], Game, int | None, str], Agent]] = {
    "random": _random,
    "mcts": _mcts,
    "alphabeta": _alphabeta,
    "solver": _solver,
    "policy": _policy,
    "ext": _external,
}
