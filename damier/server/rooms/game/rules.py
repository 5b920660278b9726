"""A game room's rules of play, pure: from the room as it is (its stored game and position, read only) and a seat's
command, the change to make (``Change``), or a ``RoomError`` saying why not. No storage, no lock, no clock read, no
arcade: ``commands`` is the shell that takes the lock, applies a change (stores it, then shows it) and starts what
follows (a computer's turn); ``clocks`` is the clocks' arithmetic, pure too.

Each function is ``(room, seat, command...) -> Change``: the takeback's rule (the position before the asker's last
move), who may abort, claim or offer a draw and when, what ends a game and how."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from damier.core import messages
from damier.core.errors import IllegalMoveError, ParseError
from damier.core.game import Outcome, abandonment, aborted, agreement, resignation
from damier.server.rooms.errors import Conflict, Invalid
from damier.server.rooms.game import clocks
from damier.server.words import say

if TYPE_CHECKING:
    from damier.server.rooms.game.room import GameRoom

#: what a rematch's board may be: the same as the game's (the default), or a new one drawn from a new seed
REMATCH_BOARDS = ("same", "new")
#: what a draw command may do
DRAW_ACTIONS = ("offer", "accept", "decline")


@dataclass(frozen=True)
class Change:
    """What a command decided, for the shell to store and then show (at most one of these):

    - ``play``: the seat's moves (the chance events after them, the clocks and the outcome the moves reach are
      the shell's: ``moves.commit``);
    - ``keep``: take back every move after this many plies;
    - ``outcome``: the game ends so (a resignation, an agreed draw, an abort, a claim);
    - ``fields``: stored fields set (``draw_offer``, ``undo_request``).

    An empty change changes nothing (a draw offer the computers declined with none standing)."""

    play: tuple[tuple[int, int], ...] = ()  # (move, seat) pairs
    keep: int | None = None
    outcome: Outcome | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.play and self.keep is None and self.outcome is None and not self.fields


def ended(room: GameRoom) -> str:
    """How the game ended (its result's reason, else its status)."""
    return str((room.row.result or {}).get("reason", room.row.status))


def going_on(room: GameRoom) -> None:
    """``Conflict`` if the game is over."""
    if not room.active:
        raise Conflict(say("error.game.already_over"))


def move(room: GameRoom, seat: int, text: str, version: int | None) -> Change:
    """Play ``text`` (notation) for ``seat``; ``version`` (the moves the client saw) refuses stale clicks."""
    if not room.active:
        raise Conflict(say("error.game.over_reason", reason=ended(room)))
    if version is not None and version != room.version:
        raise Conflict(say("error.game.moved_on", version=str(room.version), sent=str(version)))
    if room.state.player != seat:
        raise Conflict(say("error.game.not_your_turn", room.game,
                           player={"seat": room.state.player}))
    try:
        played = room.state.parse_move(text)
    except (ParseError, IllegalMoveError) as exc:
        raise Invalid(messages.said_of(exc)) from None
    return Change(play=((played, seat),))


def undo_target(room: GameRoom, asker: int | None = None) -> int | None:
    """How many plies to keep when a takeback is granted: the position before ``asker``'s last move (so the replies
    after it go too); None when ``asker`` has no move to take back. Without ``asker``, before the last move of any
    person (whether someone could ask)."""
    askers = set(room.human_seats()) if asker is None else {asker}
    players = [p for _, p in room.row.moves]
    for ply in range(len(players) - 1, -1, -1):
        if players[ply] in askers:
            return ply
    return None


def undo(room: GameRoom, seat: int, everything: bool = False) -> Change:
    """A takeback: the position before the asker's last move (on the asker's turn, the other players' replies go
    too). Against the computer it happens at once; between people ``seat`` asks, or accepts the takeback another
    asked, and it happens once every person agreed (the asker is first in ``undo_request``). ``everything`` (a
    puzzle's reset) takes back every move, with one human seat only."""
    if not room.active:
        raise Conflict(say("error.game.over_nothing_to_undo"))
    humans = room.human_seats()
    asked = list(room.row.undo_request)
    asker = asked[0] if asked else seat
    keep = undo_target(room, asker)
    if everything:
        if len(humans) > 1:
            raise Conflict(say("error.game.undo_everything_one_human"))
        keep = 0 if room.row.moves else None
    if keep is None:
        raise Conflict(say("error.game.no_move_to_undo_yet") if asker == seat and not asked
                       else say("error.game.no_move_to_undo"))
    agreed = [*asked, seat] if seat not in asked else asked
    if len(humans) > 1 and set(agreed) != set(humans):
        return Change(fields={"undo_request": agreed}) if agreed != asked else Change()
    return Change(keep=keep)


def decline_undo(room: GameRoom, seat: int) -> Change:
    """Refuse the other players' request to take back a move: the request is gone."""
    if not room.active:
        raise Conflict(say("error.game.over_no_takeback_to_decline"))
    asked = room.row.undo_request
    if not asked:
        raise Conflict(say("error.game.no_takeback_to_decline"))
    if seat in asked:
        raise Conflict(say("error.game.own_takeback"))
    return Change(fields={"undo_request": []})


def abort(room: GameRoom, seat: int) -> Change:
    """``seat`` calls the game off, which is allowed until every seat has made a first move (as on lichess): nobody
    wins or loses, and the game does not count (``damier.core.game.aborted``)."""
    going_on(room)
    if not room.abortable:
        raise Conflict(say("error.game.abort_too_late"))
    return Change(outcome=aborted(room.state, messages.say("outcome.aborted_by", room.game,
                                                           seat={"seat": seat})))


def claim(room: GameRoom, seat: int, draw: bool, absent: Mapping[int, float]) -> Change:
    """``seat`` claims the win (or, with ``draw``, a draw) of a game under way that every other person has left
    for ``clocks.leave_seconds`` (lichess's "opponent left the game"; ``absent``: the people's seats nobody plays,
    with the seconds since someone did): each of them loses as one who resigns (``damier.core.game.abandonment``).
    """
    going_on(room)
    others = [other for other in room.human_seats() if other != seat]
    if not others:
        raise Conflict(say("error.game.claim_nobody_else"))
    if room.abortable:
        raise Conflict(say("error.game.claim_before_first_moves"))
    wait = clocks.leave_seconds(room.row.clock)
    for other in others:
        if other not in absent:
            raise Conflict(say("error.game.claim_player_here", room.game, player={"seat": other}))
        if absent[other] < wait:
            raise Conflict(say("error.game.claim_too_soon", room.game, player={"seat": other},
                               left=round(absent[other]), wait=round(wait)))
    return Change(outcome=abandonment(room.state, others, seat, draw=draw))


def resign(room: GameRoom, seat: int) -> Change:
    """``seat`` resigns (``damier.core.game.resignation``: the one rule for every number of players)."""
    going_on(room)
    return Change(outcome=resignation(room.state, seat))


def other_seats(room: GameRoom, seat: int) -> list[int]:
    """Every seat of the game but ``seat``."""
    return [s.index for s in room.row.seats if s.index != seat]


def asks_computers(room: GameRoom, seat: int, action: str) -> bool:
    """Whether ``seat``'s draw ``action`` is an offer to computers only, which they answer at once (by their
    evaluation: the shell asks them, ``other_seats``, and ``draw`` is given their answer)."""
    return action == "offer" and all(room.computer_level(s) is not None for s in other_seats(room, seat))


def draws_allowed(room: GameRoom) -> None:
    """``Conflict`` when the game has no draws (or is over)."""
    going_on(room)
    if not room.game.has_draws or room.game.num_players == 1:
        raise Conflict(say("error.game.no_draws", game=messages.title_of(room.game)))


def draw(room: GameRoom, seat: int, action: str, computers_agree: bool | None = None) -> Change:
    """Offer, accept or decline a draw; an accepted offer ends the game (``damier.core.game.agreement``). An offer
    to computers only (``asks_computers``) is answered by ``computers_agree``: accepted (the game ends) or declined
    (no offer stands)."""
    draws_allowed(room)
    if action not in DRAW_ACTIONS:
        raise Invalid(say("error.game.draw_action", accepted="'offer', 'accept' or 'decline'"))
    offer = room.row.draw_offer
    if asks_computers(room, seat, action):
        if computers_agree is None:
            raise ValueError("an offer to computers only needs their answer (asks_computers)")
        if computers_agree:
            return Change(outcome=agreement(room.state))
        return Change(fields={"draw_offer": None}) if offer is not None else Change()
    if action == "offer":
        return Change(fields={"draw_offer": seat})
    if action == "accept":
        if offer is None or offer == seat:
            raise Conflict(say("error.game.no_draw_offer_to_accept"))
        return Change(outcome=agreement(room.state))
    return Change(fields={"draw_offer": None})


def board_word(board: str) -> None:
    """``Invalid`` unless ``board`` is one of ``REMATCH_BOARDS``."""
    if board not in REMATCH_BOARDS:
        raise Invalid(say("error.game.rematch_board", accepted=" or ".join(map(repr, REMATCH_BOARDS)),
                          board=repr(board)))


def rematch_board(room: GameRoom, board: str) -> tuple[str | None, int | None]:
    """The start and the seed of ``room``'s rematch on the ``same`` board or a ``new`` one (``Invalid`` for another
    word, or a new board of a game whose start no seed draws); the game must be over."""
    board_word(board)
    if room.active:
        raise Conflict(say("error.game.rematch_while_on"))
    if board == "new":
        if not room.game.info.seeded_setup:
            raise Invalid(say("error.game.rematch_no_seeded_setup", game=messages.title_of(room.game)))
        return None, None
    if not room.game.info.seeded_setup:
        return room.row.start, None
    if room.row.start is None and room.row.seed is None:  # stored before seeds were drawn: the start it had
        return room.start_position(), None
    return room.row.start, room.row.seed


def rematch_seats(room: GameRoom, shift: int = 1) -> list[dict[str, Any]]:
    """The rematch's seats: the game's, shifted by ``shift`` (each kind and level moves to the next seat)."""
    old = room.row.seats
    count = len(old)
    return [{"kind": old[(i - shift) % count].kind, "level": old[(i - shift) % count].level} for i in range(count)]
