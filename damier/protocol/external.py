"""The ``ext:COMMAND`` agent: a player whose moves come from another program speaking the text protocol.

The program runs as a child process with pipes; it starts at the first move and serves game after game
(``newgame`` between them, then ``setoption`` for each rule of the game that is not the default, then
``isready``). A move is asked with ``position ...`` and ``go movetime MS`` (``clock=wall``: ``go infinite``,
then ``stop`` when the move time has passed on the wall clock). An engine that does not answer in time, exits,
or answers a move that is not legal loses the game: ``choose`` raises ``AgentFailure`` saying which, and the
match records the forfeit. An engine that answers ``bestmove none`` while moves remain resigns
(``AgentResigned``). An engine that refuses a rule's ``setoption`` forfeits too, unless ``untold="play"``: then
it plays on by its own rules, and ``untold`` lists the rules it was not told. The process is killed on
``close``, on a timeout, and when the agent is garbage-collected or the interpreter exits.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from functools import partial
from types import TracebackType
from typing import IO, Any

from damier.ai.base import AgentFailure, AgentResigned
from damier.core.errors import DamierError, StateError
from damier.core.game import Game, Iteration, State
from damier.protocol.searchers import option_text

#: seconds the engine has to say goodbye after ``quit`` before it is killed
QUIT_GRACE = 0.5
#: lines of the engine's standard error kept to explain a crash
STDERR_LINES = 5
#: how the move time is kept: by the engine (``go movetime``), or by the agent on the wall clock (``go infinite``,
#: then ``stop``)
CLOCKS = ("engine", "wall")
#: what a refused ``setoption`` does: the engine forfeits the game, or plays on by its own rules
UNTOLD = ("forfeit", "play")


class _Late(Exception):
    """No answer before the deadline."""


class _Gone(Exception):
    """The engine's output ended (it exited, or closed it) or its input is closed."""


class EngineProcess:
    """A running engine: its pipes, a thread that queues its output lines, the last lines of its error output."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)
        try:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                encoding="utf-8", errors="replace", bufsize=1, start_new_session=True,
            )
        except OSError as exc:
            raise AgentFailure(f"engine could not start ({shlex.join(self.command)}: {exc.strerror or exc})") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_LINES)
        assert self.process.stdout is not None and self.process.stderr is not None
        self._readers = [
            threading.Thread(target=_pump, args=(self.process.stdout, self.lines.put), daemon=True,
                             name="damier-ext-stdout"),
            threading.Thread(target=_pump, args=(self.process.stderr, partial(_keep, self.stderr_tail)), daemon=True,
                             name="damier-ext-stderr"),
        ]
        for reader in self._readers:
            reader.start()
        self._finalizer = weakref.finalize(self, _kill, self.process)
        self.gone = False

    def send(self, line: str) -> None:
        stdin = self.process.stdin
        try:
            assert stdin is not None
            stdin.write(line + "\n")
            stdin.flush()
        except (OSError, ValueError):
            raise _Gone from None

    def read(self, deadline: float) -> str:
        """The next line of output before ``deadline`` (``time.monotonic``)."""
        if self.gone:
            raise _Gone
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise _Late from None
        if line is None:
            self.gone = True
            raise _Gone
        return line

    def drain(self) -> None:
        """Forget output nobody asked for (left over from an earlier command); notice an exit."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.gone = True
                raise _Gone

    def alive(self) -> bool:
        return not self.gone and not _exited(self.process)

    def exit_description(self) -> str:
        """Why the output ended: the exit code or signal, and the last error line the engine wrote."""
        if not _wait_exit(self.process, 2.0):
            self.kill()
            return "engine closed its output without answering"
        self.kill()  # what the engine started goes with it; this reaps it, so its exit code is known
        code = self.process.returncode
        assert code is not None
        for reader in self._readers:
            reader.join(timeout=1.0)  # the last error lines
        if code < 0:
            try:
                how = f"killed by signal {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exit code {code}"
        what = "crashed" if code != 0 else "exited without answering"
        said = f"; its last error output: {self.stderr_tail[-1][:200]!r}" if self.stderr_tail else ""
        return f"engine {what} ({how}){said}"

    def close(self, grace: float = QUIT_GRACE) -> None:
        """Say ``quit``, give the engine ``grace`` seconds to end, then kill it (and what it started)."""
        if not _exited(self.process):
            with contextlib.suppress(_Gone):
                self.send("quit")
            _wait_exit(self.process, grace)
        self.kill()

    def kill(self) -> None:
        self._finalizer()
        for reader in self._readers:
            reader.join(timeout=1.0)
        if not any(reader.is_alive() for reader in self._readers):  # else a reader holds the stream's lock
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError, ValueError):
                        stream.close()
        self.gone = True


def _pump(stream: IO[str], put: Callable[[str | None], None]) -> None:
    """Copy ``stream``'s lines to ``put`` until it ends, then put ``None``."""
    try:
        for line in iter(stream.readline, ""):
            put(line.rstrip("\r\n"))
    except (OSError, ValueError):
        pass
    put(None)


def _keep(tail: deque[str], line: str | None) -> None:
    """Keep the last lines of the engine's error output (the readers hold no reference to the ``EngineProcess``,
    so an engine nobody uses any more is collected, and its finalizer kills the process)."""
    if line is not None and line.strip():
        tail.append(line.rstrip())


def _exited(process: subprocess.Popen[str]) -> bool:
    """Whether the engine has ended, without reaping it: an engine that exited stays a zombie, holding its
    process id and so its process group's id, until ``_kill`` has signalled the group."""
    if process.returncode is not None:
        return True
    if not hasattr(os, "waitid"):
        return process.poll() is not None
    try:
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # reaped elsewhere
        return True


def _wait_exit(process: subprocess.Popen[str], timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for the engine to end, without reaping it; whether it ended."""
    deadline = time.monotonic() + timeout
    while not _exited(process):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def _kill(process: subprocess.Popen[str]) -> None:
    """Kill the engine's process group (an engine started through a shell script takes its children along),
    then reap the engine.

    The group is signalled only while the engine is not reaped: until then its process id, which is the
    group's id, cannot be given to another process; after, the id may name an unrelated group."""
    if process.returncode is None:
        try:
            if hasattr(os, "killpg"):
                os.killpg(process.pid, signal.SIGKILL)  # the group outlives a leader that exited: kill it too
            else:
                process.kill()
        except (ProcessLookupError, PermissionError):
            pass
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5.0)
    if process.stdin is not None:
        with contextlib.suppress(OSError, ValueError):
            process.stdin.close()


class ExternalAgent:
    """A player that asks an external engine for its moves (``ext:COMMAND``).

    ``time_limit`` is the time per move (seconds); the engine loses if no ``bestmove`` comes within
    ``time_limit + margin`` seconds. With ``clock="engine"`` the engine is sent ``go movetime`` and keeps the time
    itself; with ``clock="wall"`` it is sent ``go infinite`` and, when ``time_limit`` has passed on the wall clock
    without an answer, ``stop`` (then ``margin`` more seconds to answer): for engines that count their move time
    in CPU time, which overruns the wall-clock deadline on a loaded machine. ``startup`` bounds the answer to
    ``isready`` (start-up, a new game). ``untold`` says what a refused ``setoption`` does: ``"forfeit"`` the game,
    or ``"play"`` on by the engine's own rules (the rules it was not told are then in ``untold``).
    """

    def __init__(self, command: Sequence[str], time_limit: float = 1.0, margin: float = 1.0, startup: float = 60.0,
                 spec: str = "ext", clock: str = "engine", untold: str = "forfeit") -> None:
        if not command:
            raise ValueError("an external engine needs a command line")
        if clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, not {clock!r}")
        if untold not in UNTOLD:
            raise ValueError(f"untold must be one of {', '.join(UNTOLD)}, not {untold!r}")
        self.command = list(command)
        self.time_limit = time_limit
        self.margin = margin
        self.startup = startup
        self.clock = clock
        self.play_untold = untold == "play"
        #: the rules of the current game the engine refused to be told (``untold="play"``): name -> value in force
        self.untold: dict[str, Any] = {}
        self.spec = spec
        self.info = Iteration()
        self._engine: EngineProcess | None = None
        self._new_game = True
        self._errors: deque[str] = deque(maxlen=3)
        #: the last ``info`` line of the current move (not an ``info string``), as the engine wrote it
        self._last_info = ""
        #: the options the running engine was told with ``setoption``, and for which game
        self._options: dict[str, Any] = {}
        self._options_game: str | None = None

    # ----- the Agent protocol ---------------------------------------------------------------------------
    @property
    def engine(self) -> EngineProcess | None:
        """The engine's running process (``None`` before the first move and after ``close``)."""
        return self._engine

    @property
    def engine_options(self) -> dict[str, Any]:
        """The game options the running engine was told with ``setoption`` (those that differ from its defaults)."""
        return dict(self._options)

    def reset(self) -> None:
        """A new game starts: the engine hears ``newgame`` before the next move (a dead engine is restarted)."""
        self._new_game = True
        self.untold = {}

    def choose(self, state: State) -> int:
        if state.player < 0:
            raise StateError("an external engine chooses moves for a player; this state is a chance node or over")
        engine = self._ready_engine(state.game)
        started = time.monotonic()
        info = Iteration()
        self._last_info = ""
        try:
            engine.drain()
            engine.send(position_command(state))
            if self.clock == "wall":
                words = self._think_on_wall_clock(engine, state, started, info)
            else:
                millis = max(1, round(self.time_limit * 1000))
                engine.send(f"go movetime {millis}")
                try:
                    words = self._await_bestmove(engine, state, started + self.time_limit + self.margin, info)
                except _Late:
                    raise _Late(f"no bestmove {self.time_limit + self.margin:g} s after go movetime {millis}") from None
        except _Late as late:
            engine.kill()  # it may still be thinking; a late answer must not be read as the next move
            raise AgentFailure(f"engine timed out: {late}") from None
        except _Gone:
            raise AgentFailure(engine.exit_description()) from None
        move = self._legal_move(words, state)
        info.move = move
        info.seconds = time.monotonic() - started
        self.info = info
        return move

    def close(self) -> None:
        """End the engine process (``quit``, then kill); a later ``choose`` starts a new one."""
        if self._engine is not None:
            self._engine.close()
            self._engine = None
            self._options = {}

    def __enter__(self) -> ExternalAgent:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    # ----- the conversation -----------------------------------------------------------------------------
    def _ready_engine(self, game: Game) -> EngineProcess:
        """The running engine; at a new game, after ``newgame``, the game's rules (``setoption``) and
        ``isready`` have been answered."""
        engine = self._engine
        if engine is not None and self._new_game and not engine.alive():
            engine.kill()  # it ended between games: start afresh
            engine = self._engine = None
        if engine is None:
            engine = self._engine = EngineProcess(self.command)
            self._options = {}
            self._new_game = True
        if self._new_game:
            self._errors.clear()
            self.untold = {}
            deadline = time.monotonic() + self.startup
            try:
                engine.drain()
                engine.send("newgame")
                changes = self._option_changes(game)
                for name, value in changes.items():
                    self._set_option(engine, name, value, deadline)
                if not changes:
                    self._await_ready(engine, deadline)
            except _Late:
                engine.kill()
                raise AgentFailure(f"engine timed out: no readyok {self.startup:g} s after isready") from None
            except _Gone:
                raise AgentFailure(engine.exit_description()) from None
            self._new_game = False
        return engine

    def _option_changes(self, game: Game) -> dict[str, Any]:
        """The game's options the engine must be told: those that differ from what it plays with now (the
        defaults, for an engine that was told nothing), leaving out what every ``position`` conveys."""
        if self._options_game != game.name:
            self._options, self._options_game = {}, game.name
        described = game.info.engine
        conveyed = described.position_options if described is not None else ()
        defaults = game.option_set.defaults()
        return {name: value for name, value in game.options.items()
                if name not in conveyed and value != self._options.get(name, defaults.get(name))}

    def _set_option(self, engine: EngineProcess, name: str, value: Any, deadline: float) -> None:
        """``setoption name NAME value VALUE``, then ``isready``: an engine that complains before ``readyok``
        does not play by that rule, and loses the game (it would be blamed for moves the game does not allow);
        with ``untold="play"`` it plays on, and the rule is noted in ``untold``."""
        text = option_text(value)
        engine.send(f"setoption name {name} value {text}")
        refusal = self._await_ready(engine, deadline)
        if refusal is None:
            self._options[name] = value
        elif self.play_untold:
            self.untold[name] = value
        else:
            raise AgentFailure(f"engine does not support option {name}={text} (it answered: {refusal[:200]!r})")

    @staticmethod
    def _await_ready(engine: EngineProcess, deadline: float) -> str | None:
        """Send ``isready`` and read up to its ``readyok``; the first complaint read on the way (an ``info string
        error: ...``, or an ``info string`` naming ``setoption``), or None.

        An engine that does not know ``isready`` is taken as ready once it says so in an ``info string`` that
        names ``isready`` (Khet2-AI answers ``info string Unrecognised message type: isready``): it has read
        everything sent before."""
        engine.send("isready")
        refusal: str | None = None
        while True:
            words = engine.read(deadline).split()
            if words[:1] == ["readyok"]:
                return refusal
            if words[:2] != ["info", "string"]:
                continue
            said = " ".join(words[2:])
            lowered = [word.lower().strip(".:;,'\"") for word in words[2:]]
            if "isready" in lowered:
                return refusal
            if refusal is None and (lowered[:1] == ["error"] or "setoption" in lowered):
                refusal = said.removeprefix("error: ")

    def _think_on_wall_clock(self, engine: EngineProcess, state: State, started: float, info: Iteration) -> list[str]:
        """``go infinite``; ``stop`` once ``time_limit`` has passed on the wall clock without an answer (an engine
        may answer before, e.g. on finding a forced result); then ``margin`` seconds for its ``bestmove``."""
        engine.send("go infinite")
        try:
            return self._await_bestmove(engine, state, started + self.time_limit, info)
        except _Late:
            engine.send("stop")
        try:
            return self._await_bestmove(engine, state, time.monotonic() + self.margin, info)
        except _Late:
            raise _Late(f"no bestmove {self.margin:g} s after stop (sent {self.time_limit:g} s after "
                        "go infinite)") from None

    def _await_bestmove(self, engine: EngineProcess, state: State, deadline: float, info: Iteration) -> list[str]:
        """The words of the engine's ``bestmove`` line, read before ``deadline``; its ``info`` lines fill ``info``."""
        while True:
            words = engine.read(deadline).split()
            if not words:
                continue
            if words[0] == "bestmove":
                return words
            if words[:3] == ["info", "string", "error:"]:
                self._errors.append(" ".join(words[3:]))
            elif words[0] == "info":
                _read_info(words[1:], state, info)
                if words[1:2] != ["string"]:
                    self._last_info = " ".join(words)

    def _legal_move(self, words: list[str], state: State) -> int:
        said = f" (it had reported: {'; '.join(self._errors)})" if self._errors else ""
        if len(words) < 2:
            raise AgentFailure(f"engine answered 'bestmove' without a move{said}")
        text = words[1]
        if text == "none":
            if self._errors:  # it could not follow what it was told: not a choice of its own
                raise AgentFailure(f"engine answered bestmove none in a position with legal moves{said}")
            # it has nothing to play: it sees every move lose (Khet2-AI's way of resigning, after "info ... mate -3")
            last = f" (its last report: {self._last_info[:200]})" if self._last_info else ""
            raise AgentResigned(f"engine answered bestmove none with {len(state.legal_moves())} legal moves "
                                f"left{last}")
        try:
            return state.parse_move(text)
        except DamierError as exc:
            raise AgentFailure(f"engine played the illegal move {text} ({exc}){said}") from None


def position_command(state: State) -> str:
    """``position <start> <moves...>``: a setup's name when the game started from one, else its position string.

    >>> import damier
    >>> state = damier.load("khet", setup="imhotep").new_state()
    >>> state.play(state.parse_move("j1-"))
    >>> position_command(state)
    'position imhotep j1-'
    """
    game: Game = state.game
    if state.start is not None:
        start = state.start
    else:
        described = game.info.engine
        setup = game.options.get("setup")
        if described is not None and isinstance(setup, str) and setup in described.setups.values():
            start = described.setup_word(setup)
        else:
            start = game.new_state(state.seed).position()
    return " ".join(["position", start, *state.moves_in_notation()])


def _read_info(words: list[str], state: State, info: Iteration) -> None:
    """Fill ``info`` from an ``info`` line's fields (``time``, ``depth``, ``score``, ``nodes``, ``pv``); the score
    is turned to the mover's view. Fields that do not parse are ignored: ``info`` is only for show."""
    i = 0
    while i < len(words):
        key = words[i]
        if key == "pv":
            info.pv = _parse_line(state, words[i + 1:])
            return
        value = words[i + 1] if i + 1 < len(words) else ""
        with contextlib.suppress(ValueError):
            if key == "depth":
                info.depth = int(value)
            elif key == "score":
                score = float(value)
                info.score = score if state.player == 0 else -score
            elif key == "nodes":
                info.nodes = int(value)
        i += 2


def _parse_line(state: State, texts: list[str]) -> list[int]:
    scratch = state.copy()
    moves = []
    for text in texts:
        try:
            move = scratch.parse_move(text)
        except DamierError:
            break
        moves.append(move)
        scratch.play(move)
    return moves
