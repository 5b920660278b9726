"""New game rooms: a game with its seats (people or computer levels) from the usual start or a position,
a replay room from an imported record, and the position check a position editor asks for."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from damier.core import messages, registry
from damier.core.errors import DamierError, RecordError
from damier.core.game import TERMINAL, Game, State
from damier.core.record import Record, now_iso
from damier.server.rooms.errors import Invalid
from damier.server.rooms.game import clocks, setups, turns
from damier.server.rooms.game.moves import arm, chance_moves
from damier.server.rooms.game.room import GameRoom
from damier.server.storage import GameRow, SeatRow
from damier.server.words import say

if TYPE_CHECKING:
    from damier.server.rooms.game.house import GameHouse

#: the most moves an imported record may have (a replay is paged, but replaying the record is not)
MAX_RECORD_PLIES = 5_000
#: the most a position check's boards of a line may weigh (the JSON text of them all): a short request must not
#: buy a huge answer
MAX_LINE_BYTES = 256 * 1024


def new_room_id() -> str:
    return secrets.token_urlsafe(9)


def load_game(name: str, options: dict[str, Any]) -> Game:
    try:
        return registry.load(name, **options)
    except DamierError as exc:
        raise Invalid(messages.said_of(exc)) from None


#: the seeds the arcade draws a new game's setup from: short enough to read out and type in (0 to 999,999,999)
DRAWN_SEEDS = 10**9
#: the largest seed a new game may be given: the largest whole number a browser's JSON keeps exactly, so the seed
#: a page shows is the game's
MAX_SEED = 2**53 - 1
SEED_WORDS = (f"the seed of a game whose setup is drawn from one (a board, a puzzle): a whole "
              f"number from 0 to {MAX_SEED}; none: a new one")


def game_seed(game: Game, start: str | None, seed: int | None) -> int | None:
    """The seed a new game of ``game`` is stored with: ``seed`` when given, a new one (``DRAWN_SEEDS``) for a game
    whose usual start is drawn from one (``GameInfo.seeded_setup``) from its usual start, else None. ``Invalid``
    for a seed given to a game whose start no seed changes (its chance events are the server's to draw).

    >>> import damier
    >>> game_seed(damier.load("khet"), None, None) is None, game_seed(damier.load("jewels"), None, 7)
    (True, 7)
    >>> 0 <= game_seed(damier.load("jewels"), None, None) < DRAWN_SEEDS
    True
    """
    if not game.info.seeded_setup:
        if seed is not None:
            raise Invalid(say("error.game.no_seeded_setup_seed",
                              game=messages.title_of(game), games=", ".join(seeded_games())))
        return None
    if seed is None and start is None:
        return secrets.randbelow(DRAWN_SEEDS)
    return seed


def seeded_games() -> list[str]:
    """The names of the registered games whose usual start is drawn from a seed."""
    return [info.name for info in registry.all_infos() if info.seeded_setup]


def first_state(game: Game, start: str | None, seed: int | None) -> State:
    """The first state of a new game (``game.start_state``): ``Invalid`` when ``start`` is not a position of
    this game one can play from."""
    try:
        state = game.start_state(start, seed)
    except DamierError as exc:
        if start is None:
            raise Invalid(say("error.game.no_game_with_options",
                              game=messages.title_of(game), reason=messages.cause_of(exc))) from None
        raise Invalid(say("error.game.bad_start",
                          game=messages.title_of(game), reason=messages.cause_of(exc))) from None
    if state.player == TERMINAL:
        raise Invalid(say("error.game.start_already_over",
                          game=messages.title_of(game), reason=messages.nested(state.outcome_reason())))
    return state


def seat_rows(game: Game, seat_specs: list[dict[str, Any]]) -> list[SeatRow]:
    """The seats of a new game from ``{"kind": "human"}`` / ``{"kind": "computer", "level": ...}``."""
    if len(seat_specs) != game.num_players:
        raise Invalid(say("error.game.seat_count", game=game.name, needed=game.num_players, sent=str(len(seat_specs))))
    info = game.info
    if game.num_players == 1 and any(spec.get("kind") != "human" for spec in seat_specs):
        raise Invalid(say("error.game.puzzle_seat_human", game=messages.title_of(game)))
    allowed_levels = [*(info.levels or {"easy": "", "medium": "", "hard": ""}), *info.agents]
    seats = []
    for index, spec in enumerate(seat_specs):
        kind = spec.get("kind")
        if kind == "human":
            seats.append(SeatRow(index, "human", None))
        elif kind == "computer":
            level = spec.get("level") or "hard"
            if level not in allowed_levels:
                raise Invalid(say("error.game.unknown_level", seat=index, level=repr(level),
                                  accepted=", ".join(allowed_levels)))
            seats.append(SeatRow(index, "computer", level))
        else:
            raise Invalid(say("error.game.seat_kind", seat=index, kind=repr(kind)))
    return seats


async def create(house: GameHouse, name: str, options: dict[str, Any], seat_specs: list[dict[str, Any]],
                 seed: int | None, start: str | None = None, hints_on: bool = False,
                 clock: dict[str, Any] | None = None, owner: str | None = None,
                 client: str | None = None, game_id: str | None = None) -> tuple[GameRoom, dict[int, str]]:
    """A new game and the token of each human seat; ``start`` is a position in the game's notation to begin
    from (None: its usual start). A game whose usual start is drawn from a seed (``GameInfo.seeded_setup``: a
    board, a puzzle) gets a new one from its usual start when ``seed`` is None (``game_seed``). ``hints_on``: a
    casual game where people may ask for hints even when they play each other (``GameRoom.hints_allowed``).
    ``clock``: a time control ``{"minutes", "increment"}`` (``clocks.parse``), None for none; each seat's clock
    runs from its first move on (``clocks``). ``owner`` and ``client``: the identity and the address group that
    create it, stored with it (its computer's jobs take that address's share of the pool from the first turn on,
    through restarts). ``game_id``: the new game's id when it was chosen before (a seek paired with it). The rules'
    work (the first state, a seeded setup) runs off the event loop."""
    game = load_game(name, options)
    control = clocks.parse(clock, game)
    seats = seat_rows(game, seat_specs)
    seed = game_seed(game, start, seed)
    await house.rules_ready(game.name)  # its rules compiled (or loaded) first
    drawn = await setups.usual_start(house, game, seed) if start is None else None
    room = await asyncio.to_thread(new_room, house, game, seats, seed, start, hints_on, control, game_id, drawn)
    room.row.owner, room.row.client = owner, client
    await asyncio.wrap_future(house.storage.games.create(room.row))
    house.rooms.add(room)
    arm(house, room)
    turns.schedule(house, room)
    return room, {seat: house.keys.token(room.id, seat) for seat in room.human_seats()}


def new_room(house: GameHouse, game: Game, seats: list[SeatRow], seed: int | None, start: str | None,
             hints_on: bool, control: clocks.TimeControl | None, game_id: str | None = None,
             drawn: str | None = None) -> GameRoom:
    """The room of a new game, not stored yet (``create``; in a thread: it plays the rules). ``drawn``: the
    position its usual start drew from ``seed``, drawn already (``setups``): the game is stored with its seed (and
    no start), as one drawn here."""
    state = first_state(game, start if drawn is None else drawn, seed)
    now = now_iso()
    row = GameRow(id=game_id or new_room_id(), game=game.name, options=dict(game.options), seed=seed,
                  start=state.start if drawn is None else None, status="active", result=None, draw_offer=None,
                  undo_request=[], rematch=None, created_at=now, updated_at=now, seats=seats, hints_on=hints_on)
    row.moves = chance_moves(house, row.id, state)
    if control is not None:
        humans = [seat.index for seat in seats if seat.kind == "human"]
        row.clock = clocks.start(control, game.num_players, state.player, humans, house.now())
    room = GameRoom(row, game, state)
    if drawn is not None:
        room.known_start(drawn)
    return room


async def import_record(house: GameHouse, obj: Any) -> GameRoom:
    """A replay room for a record (``Invalid`` saying what is wrong with it); replayed off the event loop."""
    try:
        record = Record.from_json(obj)
        if len(record.moves) > MAX_RECORD_PLIES:
            raise Invalid(say("error.game.record_too_long", moves=str(len(record.moves)), most=str(MAX_RECORD_PLIES)))
        if record.seed is not None and not 0 <= record.seed < 2**63:
            raise Invalid(say("error.game.record_seed_range", seed=str(record.seed)))
        state = await asyncio.to_thread(record.replay)
    except RecordError as exc:
        raise Invalid(messages.said_of(exc)) from None
    now = now_iso()
    outcome = state.outcome() or record.result
    players, written = await asyncio.to_thread(lambda: (players_by_ply(state), state.moves_in_notation()))
    row = GameRow(id=new_room_id(), game=state.game.name, options=dict(state.game.options), seed=record.seed,
                  start=record.start, status="replay", result=outcome.to_json() if outcome else None,
                  draw_offer=None, undo_request=[], rematch=None, created_at=now, updated_at=now,
                  seats=[imported_seat(i, record.players[i] if i < len(record.players) else "",
                                       state.game.player_names[i]) for i in range(state.game.num_players)],
                  moves=list(zip(written, players, strict=True)))
    await asyncio.wrap_future(house.storage.games.create(row))
    room = GameRoom(row, state.game, state)
    house.rooms.add(room)
    return room


#: the words a record's player text uses for a person (the arcade writes "Red (human)", the terminal "Red (you)")
PEOPLE = ("", "human", "person", "you")


def imported_seat(index: int, player: str, name: str) -> SeatRow:
    """The seat of an imported record's player: a person, or a computer with its level or agent as the record
    names it (``"Red (hard)"``, ``"alphabeta:depth=3"``; the arcade, the terminal and the arena write them so).

    >>> imported_seat(0, "Red (human)", "Red").kind, imported_seat(1, "Blue (hard)", "Blue").level
    ('human', 'hard')
    >>> imported_seat(1, "mcts:time=0.5", "Blue").level, imported_seat(0, "Red", "Red").kind
    ('mcts:time=0.5', 'human')
    """
    text = player.strip()
    inner = text[text.rindex("(") + 1:-1].strip() if text.endswith(")") and "(" in text else text
    if inner.lower() in PEOPLE or inner == name:
        return SeatRow(index, "human", None)
    return SeatRow(index, "computer", inner[:80])


def check_position(name: str, options: dict[str, Any], position: str | None,
                   moves: list[str] | None = None, seed: int | None = None) -> dict[str, Any]:
    """A position of game ``name`` (None: the usual start with these options, drawn from ``seed`` for a game with a
    seeded setup) as the board view draws it, for a position editor and the new-game form's preview; ``Invalid``
    with the reason when it is not one (or for a seed a game with no seeded setup cannot use).

    With ``moves`` (a line to step through, in the game's notation), also ``boards``: the board after each move,
    played through the rules (the page draws where a line leads without knowing them); ``Invalid`` names the first
    move that is not legal where it is played."""
    game = load_game(name, options)
    if seed is not None:
        game_seed(game, position, seed)
    state = first_state(game, position, seed)
    answer = {"game": game.name, "options": dict(game.options), "position": state.position(),
              "player": state.player, "legal_moves": len(state.legal_moves()),
              "board": state.board_json(previews=False)}
    if moves is not None:
        line = state.copy()
        boards, size = [], 0
        for number in play_line(line, moves):
            board = line.board_json(previews=False)
            size += len(json.dumps(board, separators=(",", ":")))
            if size > MAX_LINE_BYTES:
                raise Invalid(say("error.game.line_too_heavy", kb=str(MAX_LINE_BYTES // 1024), number=str(number),
                                  moves=str(len(moves))))
            boards.append(board)
        answer["boards"] = boards
    return answer


def play_line(state: State, moves: list[str]) -> Iterator[int]:
    """Play ``moves`` (in the game's notation) on ``state``, yielding each move's number once it is played;
    ``Invalid`` names the first move that cannot be played where it comes (after the end of the game, or not
    legal there)."""
    for number, text in enumerate(moves, start=1):
        if state.player == TERMINAL:
            raise Invalid(say("error.game.line_after_end", number=str(number), move=repr(text)))
        try:
            state.play(state.parse_move(text))
        except DamierError as exc:
            raise Invalid(say("error.game.line_illegal", number=str(number), move=repr(text),
                              reason=messages.cause_of(exc))) from None
        yield number


def players_by_ply(state: State) -> list[int]:
    """The player who made each move of ``state``'s history (CHANCE for chance events)."""
    replay = state.game.start_state(state.start, state.seed)
    players = []
    for move in state.history:
        players.append(replay.player)
        replay.play(move)
    return players
