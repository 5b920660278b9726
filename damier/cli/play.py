"""``damier games``, ``damier play`` (terminal play, any mix of people and computers) and ``damier record show``."""

from __future__ import annotations

import contextlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from damier.cli.common import JsonArg, OptArg, app, console, fail, load_game, record_app, show_board
from damier.core import registry
from damier.core.errors import DamierError


@app.command()
def games(as_json: JsonArg = False) -> None:
    """List the games with their options, defaults and accepted values."""
    infos = registry.all_infos()
    if as_json:
        print(json.dumps([info.to_json() for info in infos], indent=2))
        return
    for info in infos:
        console.print(f"[bold]{info.name}[/]  {info.title}  ({info.players_text})")
        console.print(f"  {info.description}")
        for option in info.options.options:
            console.print(f"  --opt {option.name}=...  default {option.default!r}; {option.accepted()}. {option.help}")
        levels = ", ".join(info.levels) or "easy, medium, hard"
        named = ", ".join(info.agents)
        console.print(f"  computer levels: {levels}" + (f"; named agents: {named}" if named else ""))
        features = [*sorted(info.features), *(["engine"] if info.engine else [])]
        console.print(f"  features: {', '.join(features) or 'none'}; rules version {info.rules_version}")


def split_specs(text: str) -> list[str]:
    """Split ``human,hard,mcts:time=1.0,c=0.5`` into seats; a ``key=value`` piece continues the spec before it,
    and so does any piece inside the parentheses of ``ext(time=0.5,margin=2):COMMAND``.

    >>> split_specs("human,mcts:time=1.0,c=0.5,hard")
    ['human', 'mcts:time=1.0,c=0.5', 'hard']
    >>> split_specs("ext(time=0.5,margin=2):./engine --fast,human")
    ['ext(time=0.5,margin=2):./engine --fast', 'human']
    """
    seats: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        unclosed = bool(seats) and seats[-1].count("(") > seats[-1].count(")")
        if seats and (unclosed or ("=" in piece and ":" not in piece)):
            seats[-1] += "," + piece
        elif piece:
            seats.append(piece)
    return seats


def play_help(state: Any) -> str:
    """The command summary of ``play``, with a move of this game as the example, and the moves that are words
    (Khet's ``claim`` of a repetition draw) when one is legal now."""
    texts = [state.move_to_str(m) for m in state.legal_moves()] if state.player >= 0 else []
    example = f" (e.g. {texts[len(texts) // 2]})" if texts else ""
    words = sorted({t for t in texts if t.isalpha() and t.islower()})
    now = f" | {' | '.join(words)} (a move now)" if words else ""
    hint = "hint (again for more)" if state.game.info.has("hints") else "hint"
    return (f"Commands: a move in notation{example}{now} | preview MOVE | moves | undo | {hint} | save FILE | "
            "resign | help")


@app.command()
def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game name (see `damier games`).")],
    opt: OptArg = None,
    players: Annotated[str | None, typer.Option(
        "--players", "-p", help="One seat per player, comma separated: human or an agent spec (random, easy, "
        "medium, hard, mcts:time=1.0, ext:COMMAND, ...). Default: human against hard.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for chance events and computer players.")] = None,
    save: Annotated[Path | None, typer.Option(help="Write the game record to this file when the game ends.")] = None,
    start: Annotated[str | None, typer.Option(help="Start from this position, in the game's notation (as "
                                                   "`damier record show` and the arcade print it).")] = None,
) -> None:
    """Play in the terminal: any mix of human and computer seats (ext:COMMAND seats an external engine)."""
    from damier.agents.spec import make_agent
    from damier.ai.base import close_agent

    try:
        game = load_game(game_name, opt)
        seats = split_specs(players) if players else ["human"] + ["hard"] * (game.num_players - 1)
        if len(seats) != game.num_players:
            raise fail(f"--players lists {len(seats)} seats; {game.name} with these options has "
                       f"{game.num_players} players ({', '.join(game.player_names)})")
    except DamierError as exc:
        raise fail(str(exc)) from None
    try:
        state = game.start_state(start, seed)
    except DamierError as exc:
        raise fail(f"--start: {exc}") from None
    if state.is_over():
        raise fail(f"--start: the game is already over in that position ({state.outcome_reason()})")
    try:  # last: an external engine's process is started here
        agents = {i: make_agent(spec, game, seed=None if seed is None else seed + i)
                  for i, spec in enumerate(seats) if spec.lower() != "human"}
    except DamierError as exc:
        raise fail(str(exc)) from None
    try:
        play_game(game, seats, agents, seed, save, state)
    finally:
        for agent in agents.values():
            close_agent(agent)


def play_game(game: Any, seats: list[str], agents: dict[int, Any], seed: int | None, save: Path | None,
              state: Any = None) -> None:
    """The terminal game of ``play`` (seat ``i`` is ``agents[i]``, or a person when it has no agent), from
    ``state`` (None: the game's usual start)."""
    from damier.agents.spec import hint_agent
    from damier.ai.base import AgentFailure, AgentResigned
    from damier.core.game import CHANCE, forfeit, resignation
    from damier.core.record import Record, now_iso

    state = game.new_state(seed) if state is None else state
    started = now_iso()
    names = [f"{game.player_names[i]} ({seats[i]})" for i in range(game.num_players)]
    console.print(f"[bold]{game.title}[/]: " + " vs ".join(names) + f". {play_help(state)}")
    show_board(state)
    chance_rng = random.Random(seed)
    hints_given: dict[str, int] = {}
    while not state.is_over():
        if state.player == CHANCE:
            move = state.sample_chance(chance_rng)
            console.print(f"Chance: {state.move_to_str(move)}")
            state.play(move)
            show_board(state)
            continue
        me = state.player
        if me in agents:
            try:
                with console.status(f"{names[me]} is thinking..."), quiet_keyboard():
                    move = agents[me].choose(state)
            except AgentFailure as failure:
                cause = f"{game.player_names[me]}'s {failure.reason}"
                finish_early(state, forfeit(state, [me], cause), names, started, save)
                return
            except AgentResigned as gave_up:
                console.print(Text(f"{names[me]} resigns: {gave_up.reason}"), soft_wrap=True)
                finish_early(state, resignation(state, me), names, started, save)
                return
            console.print(f"{names[me]} plays [bold]{state.move_to_str(move)}[/]")
            state.play(move)
            describe_events(state)
            show_board(state)
            continue
        try:
            line = console.input(f"{names[me]} to move> ").strip()
        except EOFError:
            console.print("\nInput closed: the game is left unfinished.")
            return
        if not line:
            continue
        command, _, argument = line.partition(" ")
        command = command.lower()
        if command in ("help", "?"):
            console.print(play_help(state))
        elif command == "preview":
            preview(state, argument)
        elif command == "moves":
            console.print("Legal moves: " + " ".join(state.move_to_str(m) for m in state.legal_moves()))
        elif command == "undo":
            undo_to_human(state, agents)
            show_board(state)
        elif command == "hint":
            if game.info.has("hints"):  # graded: each hint in the same position says more
                level = hints_given.get(state.position(), 0) + 1
                hint = game.info.hook("hints")(state, min(level, 4))
                hints_given[state.position()] = level
                console.print(Text(f"Hint {min(level, 4)}: {hint['text']}"), soft_wrap=True)
                continue
            with console.status("Thinking of a hint..."):
                move = hint_agent(game).choose(state)
            console.print(f"Hint: {state.move_to_str(move)}")
        elif command == "save":
            if not argument:
                console.print("save needs a file name: save game.json")
                continue
            Record.from_state(state, players=names, started_at=started).save(argument)
            console.print(Text(f"Saved to {argument}"))
        elif command in ("resign", "quit"):
            finish_early(state, resignation(state, me), names, started, save)
            return
        else:
            try:
                move = state.parse_move(line)
            except DamierError as exc:
                console.print(Text(f"{exc}. Type 'moves' for the legal moves, 'help' for commands.", style="red"),
                              soft_wrap=True)
                continue
            if not confirm_losing_move(state, move):
                continue
            state.play(move)
            describe_events(state)
            show_board(state)
    outcome = state.outcome()
    assert outcome is not None
    console.print(f"[bold]Game over:[/] {outcome.reason}.")
    if save:
        save_record(Record.from_state(state, players=names, started_at=started), save)


def preview(state: Any, text: str) -> None:
    """``preview MOVE``: what the move would do (its events, the board after it, the end it brings), played on a
    copy: nothing changes."""
    if not text.strip():
        console.print("preview needs a move: preview " + (state.move_to_str(state.legal_moves()[0])
                                                          if state.legal_moves() else "MOVE"))
        return
    try:
        after = state.copy()
        after.play(after.parse_move(text))
    except DamierError as exc:
        console.print(Text(f"{exc}. Type 'moves' for the legal moves.", style="red"), soft_wrap=True)
        return
    console.print(Text(f"Preview of {text.strip()} (not played):", style="bold"))
    describe_events(after)
    show_board(after)


def confirm_losing_move(state: Any, move: Any) -> bool:
    """Whether to play ``move``: yes, unless it ends the game with a loss for the player who makes it (Khet: a
    shot at one's own Pharaoh), when the player is asked first."""
    after = state.copy()
    after.play(move)
    outcome = after.outcome()
    if outcome is None or outcome.returns[state.player] >= 0:
        return True
    console.print(Text(f"Careful: {state.move_to_str(move)} loses the game ({outcome.reason}).", style="bold red"),
                  soft_wrap=True)
    try:
        answer = console.input(Text("Play it anyway? [y/N] ")).strip().lower()
    except EOFError:
        return False
    return answer in ("y", "yes")


@contextlib.contextmanager
def quiet_keyboard() -> Iterator[None]:
    """While a computer thinks: keys typed in the terminal are not echoed into its spinner, and are dropped after
    (nothing is played ahead by accident). Does nothing when the input is not a terminal."""
    try:
        import termios

        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd) if sys.stdin.isatty() else None
    except (ImportError, OSError, ValueError, AttributeError):
        saved = None
    if saved is None:
        yield
        return
    quiet = list(saved)
    quiet[3] &= ~(termios.ECHO | termios.ICANON)
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    try:
        yield
    finally:
        termios.tcflush(fd, termios.TCIFLUSH)
        termios.tcsetattr(fd, termios.TCSANOW, saved)


def finish_early(state: Any, outcome: Any, names: list[str], started: str, save: Path | None) -> None:
    """End the game outside its rules (a resignation, a forfeit): say how, and save the record with that result."""
    from damier.core.record import Record

    console.print(Text(f"Game over: {outcome.reason}.", style="bold"), soft_wrap=True)
    if save:
        save_record(Record.from_state(state, players=names, started_at=started, result=outcome), save)


def save_record(record: Any, path: Path) -> None:
    try:
        record.save(path)
    except OSError as exc:
        raise fail(f"cannot write {path}: {exc}") from None
    console.print(Text(f"Record saved to {path}"))


def describe_events(state: Any) -> None:
    """What the last move did, in the game's own words (its ``describe_events`` feature), one line each."""
    info = state.game.info
    if not info.has("describe_events"):
        return
    for line in info.hook("describe_events")(state):
        console.print(Text(f"  {line}"), soft_wrap=True)


def undo_to_human(state: Any, agents: dict[int, Any]) -> None:
    """Take back the last human move and every computer move after it."""
    if not state.history:
        console.print("Nothing to undo.")
        return
    while state.history:
        state.undo()
        if state.player >= 0 and state.player not in agents:
            break


# ----- record ------------------------------------------------------------------------------------------
@record_app.command("show")
def record_show(
    file: Annotated[Path, typer.Argument(help="A record file written by damier.")],
    as_json: JsonArg = False,
) -> None:
    """Show a record: game, players, result and moves, replayed to its final board."""
    from damier.core.record import Record

    try:
        record = Record.load(file)
        state = record.replay()
    except DamierError as exc:
        raise fail(str(exc)) from None
    if as_json:
        print(json.dumps({"record": record.to_json(), "final_position": state.position()}, indent=2))
        return
    console.print(Text(f"{state.game.title} {record.options}", style="bold"))
    console.print(Text("Players: " + " vs ".join(record.players)))
    console.print(Text(f"Started {record.started_at}"
                       + (f", finished {record.finished_at}" if record.finished_at else "")))
    moves = record.moves
    console.print(Text(f"Moves ({len(moves)}): " + numbered(record)), soft_wrap=True)
    show_board(state)
    outcome = state.outcome() or record.result
    console.print(Text(f"Result: {outcome.reason}" if outcome else "Result: unfinished"))


def numbered(record: Any) -> str:
    """A record's moves as players write them: in numbered pairs between two players (``1. c1d2 h8g7 2. ...``,
    ``1... h8g7`` when the second player begins), chance moves in parentheses; with more players each move
    numbered (``1.A1 2.B2 3.C3``)."""
    from damier.core.game import CHANCE

    state = registry.load(record.game, **record.options).start_state(record.start, record.seed)
    if state.game.num_players != 2:
        return " ".join(f"{i + 1}.{m}" for i, m in enumerate(record.moves))
    words: list[str] = []
    number, waiting = 0, False  # waiting: the row has the first player's move
    for text in record.moves:
        player = state.player
        state.play(state.parse_move(text))
        if player == CHANCE:
            words.append(f"({text})")
        elif player == 0:
            number += 1
            words += [f"{number}.", text]
            waiting = True
        elif waiting:
            words.append(text)
            waiting = False
        else:
            number += 1
            words += [f"{number}...", text]
    return " ".join(words)
