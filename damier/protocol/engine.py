"""The engine side of the text protocol: read one command per line, search in a background thread, answer.

The commands and answers are described in ``docs/protocol.md``. Bad input is answered with one line
``info string error: ...`` and the engine keeps running; every ``go`` gets exactly one ``bestmove``.

>>> import io, damier
>>> out = io.StringIO()
>>> serve(damier.load("khet"), io.StringIO("position standard j1- a8-\\ngo depth 1\\n"), out)
>>> out.getvalue().splitlines()[-1].startswith("bestmove ")
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from damier.ai.deepening import Deepening
from damier.core import registry
from damier.core.errors import DamierError
from damier.core.game import Game, Iteration, State
from damier.core.registry import EngineInfo
from damier.protocol.searchers import make_searcher, option_text, protocol_game

COMMANDS = ("newgame", "position", "go", "stop", "setoption", "isready", "d", "help", "quit")
#: the commands, as ``help`` lists them (``{max_depth}``: the game's deepest search, its ``EngineInfo.max_depth``)
HELP = (
    "newgame | position <setup>|<position> [moves...] | go depth N (1 to {max_depth}) | go movetime MS | "
    "go infinite | stop | setoption name <option> value <value> | isready | d | quit"
)
#: the longest ``go movetime`` (ms, about 11.6 days): a wait beyond what a timer can wait is refused
MAX_MOVETIME = 10**9


class CommandError(ValueError):
    """A command the engine cannot follow; the message is sent as ``info string error: ...``."""


@dataclass
class _Search:
    """One ``go``: its thread, whether it was asked to stop, whether its ``bestmove`` was sent."""

    state: State
    infinite: bool
    thread: threading.Thread | None = None
    stop_requested: threading.Event = field(default_factory=threading.Event)
    answered: bool = False


class EngineSession:
    """One conversation with a client: ``handle`` each line; answers go to ``write`` (one line, no newline).

    ``write`` is called from the search thread too, always under a lock, one whole line at a time.
    """

    def __init__(self, game: Game, write: Callable[[str], None]) -> None:
        self.game = game
        self.protocol: EngineInfo = protocol_game(game.name)
        self._write = write
        self._lock = threading.Lock()
        self._searcher: Deepening | None = None
        self._warm = False
        self._search: _Search | None = None
        self.state: State = game.new_state()
        self.closed = False

    # ----- input ----------------------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Follow one command line; False once the client said ``quit`` (or the output is gone)."""
        words = line.split()
        if not words or self.closed:
            return not self.closed
        command, args = words[0].lower(), words[1:]
        try:
            if command == "quit":
                self.close()
                return False
            handler = self._handlers().get(command)
            if handler is None:
                raise CommandError(f"unknown command {words[0]!r}; commands: {', '.join(COMMANDS)}")
            handler(args)
        except (CommandError, DamierError) as exc:
            self.send(f"info string error: {exc}")
        except Exception as exc:  # a bug must not end the conversation
            self.send(f"info string error: internal error ({type(exc).__name__}: {exc})")
        return not self.closed

    def _handlers(self) -> dict[str, Callable[[list[str]], None]]:
        return {"newgame": self._newgame, "position": self._position, "go": self._go, "stop": self._stop,
                "setoption": self._setoption, "isready": self._isready, "d": self._display, "print": self._display,
                "help": self._help}

    # ----- output ---------------------------------------------------------------------------------------
    def send(self, line: str) -> None:
        with self._lock:
            self._send_locked(line)

    def _send_locked(self, line: str) -> None:
        if self.closed:
            return
        try:
            self._write(line)
        except (OSError, ValueError):  # the client closed our output: nobody listens any more
            self.closed = True
            if self._search is not None:
                self._search.stop_requested.set()
                self._stop_searcher()

    # ----- commands -------------------------------------------------------------------------------------
    def _newgame(self, args: list[str]) -> None:
        self._refuse_while_searching("newgame")
        self._no_arguments("newgame", args)
        self._get_searcher().new_game()
        self.state = self.game.new_state()

    def _position(self, args: list[str]) -> None:
        self._refuse_while_searching("position")
        if not args:
            raise CommandError(f"position needs a setup ({self._setup_words()}) or a position string, then the "
                               f"moves played from it")
        word = args[0].lower()
        if word in self.protocol.setups or word == "startpos":
            state = self._setup_state(word)
            moves = args[1:]
        else:
            fields = self.protocol.count_position_words(args)
            text = " ".join(args[:fields])
            try:
                state = self.game.state_from_position(text)
            except DamierError as exc:
                raise CommandError(f"{exc} (or name a setup: {self._setup_words()})") from None
            moves = args[fields:]
        if moves and moves[0].lower() == "moves":
            moves = moves[1:]
        for ply, text in enumerate(moves, start=1):
            try:
                state.play(state.parse_move(text))
            except DamierError as exc:
                raise CommandError(f"position: move {ply} ({text}): {exc}; the position is unchanged") from None
        self.state = state

    def _go(self, args: list[str]) -> None:
        self._refuse_while_searching("go")
        depth, movetime, infinite = _go_limits(args, self.protocol.max_depth)
        self.wait(stop=False)  # the last search has answered; its thread is ending
        state = self.state.copy()
        if state.is_over() or not state.legal_moves():
            self.send("bestmove none")
            return
        searcher = self._get_searcher()
        self._warm = True  # this search compiles the kernels: no warm-up (which forgets the game) after it
        search = _Search(state=state, infinite=infinite)
        search.thread = threading.Thread(target=self._think, args=(searcher, search, depth, movetime),
                                         name="damier-engine-search", daemon=True)
        self._search = search
        search.thread.start()

    def _stop(self, args: list[str]) -> None:
        self._no_arguments("stop", args)
        self.wait(stop=True)

    def _setoption(self, args: list[str]) -> None:
        """``setoption name <option> value <value>``: a game option (a rule), checked by the game; it applies from
        the next ``newgame`` or ``position`` (the position set now keeps the rules it was set up with)."""
        self._refuse_while_searching("setoption")
        usage = "setoption name <option> value <value>"
        lowered = [word.lower() for word in args]
        if len(args) < 4 or lowered[0] != "name" or "value" not in lowered[2:]:
            names = ", ".join(self.game.option_set.defaults())
            raise CommandError(f"setoption takes {usage} (options: {names}), got {' '.join(args)!r}")
        split = lowered.index("value", 2)
        name, value = " ".join(args[1:split]), " ".join(args[split + 1:])
        known = {option.lower(): option for option in self.game.option_set.defaults()}
        if not value:
            raise CommandError(f"setoption name {name}: give a value ({usage})")
        options = {**self.game.options, known.get(name.lower(), name): value}
        try:
            game = registry.load(self.game.name, **options)
        except DamierError as exc:  # an unknown option or a bad value
            raise CommandError(f"setoption: {exc}") from None
        if game.options != self.game.options:
            self.game = game
            self._searcher = None  # a search is built for one game's rules and board: the next is built for these

    def _isready(self, args: list[str]) -> None:
        if not self.searching:
            self._warm_up()
        self.send("readyok")

    def _display(self, args: list[str]) -> None:
        state = self.state
        with self._lock:
            for line in state.render_text().splitlines():
                self._send_locked(line)
            self._send_locked(f"position {state.position()}")
            self._send_locked(" ".join(["moves", *state.moves_in_notation()]))
            legal = "none" if state.is_over() else " ".join(state.move_to_str(m) for m in state.legal_moves())
            self._send_locked(f"legal {legal}")

    def _help(self, args: list[str]) -> None:
        self.send(f"info string commands: {HELP.format(max_depth=self.protocol.max_depth)}")
        self.send(f"info string setups: {self._setup_words()}; scores are from {self.game.player_names[0]}'s view")
        options = " ".join(f"{name}={option_text(value)}" for name, value in self.game.options.items())
        self.send(f"info string options: {options}")

    # ----- searching ------------------------------------------------------------------------------------
    @property
    def searching(self) -> bool:
        """Whether a ``go`` has not been answered yet."""
        return self._search is not None and not self._search.answered

    def wait(self, stop: bool) -> None:
        """Wait for the running search (if any) to answer; with ``stop``, stop it first. An infinite search is
        always stopped (it would never end)."""
        search = self._search
        if search is None or search.thread is None:
            return
        if stop or search.infinite:
            search.stop_requested.set()
        while search.thread.is_alive():
            if search.stop_requested.is_set():
                self._stop_searcher()  # repeated: a search that was just starting clears the flag once
            search.thread.join(0.02)
        self._search = None

    def close(self) -> None:
        """Stop any search and end the session (``quit``)."""
        self.wait(stop=True)
        self.closed = True

    def _think(self, searcher: Deepening, search: _Search, depth: int | None, movetime: int | None) -> None:
        state = search.state
        move = state.legal_moves()[0]
        try:
            seconds = None if movetime is None else movetime / 1000
            # a search by time or until stop goes as deep as ``go depth`` may, and no deeper
            found = searcher.think(state, depth or self.protocol.max_depth, seconds,
                                   on_iteration=lambda found: self._report(state, found))
            if found.move is not None:
                move = found.move
        except Exception as exc:  # answer anyway: a client waiting for bestmove must not hang
            self.send(f"info string error: the search failed ({type(exc).__name__}: {exc})")
        if search.infinite:
            search.stop_requested.wait()
        with self._lock:
            search.answered = True
            self._send_locked(f"bestmove {state.move_to_str(move)}")

    def _report(self, state: State, found: Iteration) -> None:
        score = int(found.score if state.player == 0 else -found.score)
        millis = int(found.seconds * 1000)
        nps = int(found.nodes / found.seconds) if found.seconds > 0 else 0
        self.send(f"info time {millis} depth {found.depth} score {score} nodes {found.nodes} nps {nps} pv "
                  + " ".join(_line(state, found.pv)))

    def _stop_searcher(self) -> None:
        if self._searcher is not None:
            self._searcher.stop()

    # ----- helpers --------------------------------------------------------------------------------------
    def _get_searcher(self) -> Deepening:
        if self._searcher is None:
            self._searcher = make_searcher(self.game)
        return self._searcher

    def _warm_up(self) -> None:
        """Build the searcher and compile (or load) its kernels now, so the first ``go`` wastes no time.

        Once only, before any ``go``: the warm-up search is forgotten afterwards, which must never forget a game
        being played (an ``isready`` between moves keeps the transposition table and the move ordering)."""
        if self._warm:
            return
        searcher = self._get_searcher()
        start = self.game.new_state()
        if start.player >= 0 and start.legal_moves():
            searcher.think(start, 1)
        searcher.new_game()
        self._warm = True

    def _setup_state(self, word: str) -> State:
        if word == "startpos":
            return self.game.new_state()
        options = {**self.game.options, "setup": self.protocol.setups[word]}
        return registry.load(self.game.name, **options).new_state()

    def _setup_words(self) -> str:
        return ", ".join(["startpos", *self.protocol.setups])

    def _refuse_while_searching(self, command: str) -> None:
        if self.searching:
            raise CommandError(f"{command}: a search is running; send stop first")

    @staticmethod
    def _no_arguments(command: str, args: list[str]) -> None:
        if args:
            raise CommandError(f"{command} takes no arguments, got {' '.join(args)!r}")


def _go_limits(args: list[str], max_depth: int) -> tuple[int | None, int | None, bool]:
    """(depth, movetime in ms, infinite) of ``go``'s arguments; depth at most ``max_depth``, movetime at most
    ``MAX_MOVETIME``."""
    depth: int | None = None
    movetime: int | None = None
    infinite = False
    i = 0
    while i < len(args):
        key = args[i].lower()
        if key == "infinite":
            infinite = True
            i += 1
            continue
        if key not in ("depth", "movetime"):
            raise CommandError(f"go: unknown parameter {args[i]!r}; use go depth N, go movetime MS or go infinite")
        if i + 1 >= len(args):
            raise CommandError(f"go {key} needs a number")
        text = args[i + 1]
        unit = "plies" if key == "depth" else "milliseconds"
        if not (text.isascii() and text.isdigit()) or int(text) < 1:
            raise CommandError(f"go {key}: {text!r} is not a whole number of {unit} >= 1")
        value = int(text)
        limit = max_depth if key == "depth" else MAX_MOVETIME
        if value > limit:
            raise CommandError(f"go {key}: {value} is more than the {limit} {unit} the engine can search (from 1 "
                               f"to {limit})")
        if key == "depth":
            depth = value
        else:
            movetime = value
        i += 2
    if infinite and (depth is not None or movetime is not None):
        raise CommandError("go infinite searches until stop; it takes no depth or movetime")
    if not infinite and depth is None and movetime is None:
        raise CommandError("go needs a limit: go depth N, go movetime MS or go infinite")
    return depth, movetime, infinite


def _line(state: State, moves: list[int]) -> list[str]:
    """``moves`` in notation, each written in the position it is played from (the legal prefix)."""
    scratch = state.copy()
    words = []
    for move in moves:
        if scratch.is_over() or not scratch.is_legal(move):
            break
        words.append(scratch.move_to_str(move))
        scratch.play(move)
    return words


def serve(game: Game, source: TextIO, sink: TextIO) -> None:
    """Run the protocol for ``game`` on ``source`` (commands) and ``sink`` (answers) until ``quit`` or the end
    of the input; at the end of the input a bounded search still answers, an infinite one is stopped."""

    def write(line: str) -> None:
        sink.write(line + "\n")
        sink.flush()

    session = EngineSession(game, write)
    try:
        for line in iter(source.readline, ""):
            if not session.handle(line):
                return
        session.wait(stop=False)
    finally:
        session.close()
