"""The lobby: open seeks that everyone on the arcade sees (lichess's lobby). A player offers a game (a game between
two people, its options, a time control, the side they take); another joins it in one click, which creates the
game; the seek then leaves every lobby page at once. Quick pairing joins the oldest matching seek of someone else,
or opens one.

The lobby is a room (``rooms.room.Room``): its watchers are the lobby pages, sent the list of open seeks at once
and after each change (one serialisation shared by all, at most one every ``COALESCE`` seconds). The database holds
the seeks and decides each pairing (``storage.seeks``); with several servers on PostgreSQL a change is said on the
notification channel (``lobby changed``, ``lobby paired <seek> <game> <seat>``) and every server reads the seeks
again. A seek lives while its creator's lobby page is open: its creator's server says so again every ``BEAT``
seconds (``alive_until``, ``HOLD`` seconds ahead), and when the creator's last lobby page closes its seeks are
closed after ``GRACE`` seconds (a reload keeps them)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from damier.core import messages, registry
from damier.core.record import now_iso
from damier.server.rooms import Conflict, GameRoom, Invalid, NotFound, TooMany, Unavailable, Watcher
from damier.server.rooms.game import creation
from damier.server.rooms.game.clocks import TimeControl, parse
from damier.server.rooms.room import Room, encode
from damier.server.storage.seeks import Seek, SeekStore
from damier.server.words import say

if TYPE_CHECKING:
    from damier.server.players import Players
    from damier.server.rooms import Arcade

log = logging.getLogger("damier.server")

#: the seeks a lobby page shows at most (the newest), and the most open at once in all
SHOWN = 60
OPEN_IN_ALL = 500
#: the open seeks one identity, and one address group, may have at once
PER_PLAYER = 3
PER_CLIENT = 6
#: seconds: the lobby's pages hear at most one list a COALESCE; a seek holds HOLD seconds unless its creator's
#: server says so again (every BEAT seconds); a creator who left for GRACE seconds loses their seeks
COALESCE = 0.3
HOLD = 40.0
BEAT = 15.0
GRACE = 5.0
#: the sides a seek's creator may take: the first seat, the second, or drawn at random when it is joined
SIDES = ("random", "first", "second")


def public(seek: Seek) -> dict[str, Any]:
    """A seek as every lobby page sees it (it names nobody)."""
    control = TimeControl(seek.clock["minutes"], seek.clock["increment"]).words() if seek.clock else None
    return {"id": seek.id, "game": seek.game, "title": registry.info(seek.game).title, "options": seek.options,
            "clock": seek.clock, "control": control, "side": seek.side, "created_at": seek.created_at}


class Lobby(Room):
    """The arcade's lobby: its open seeks, its pages, and pairing."""

    #: the lobby's list is small and changes seldom: more pages hear each change as it happens than a game's crowd
    live_watchers = 512

    def __init__(self, arcade: Arcade, players: Players) -> None:
        super().__init__("lobby")
        self.arcade = arcade
        self.players = players
        self.store = SeekStore(arcade.storage)
        self.seeks: list[Seek] = []
        #: each identity's lobby pages here (a seek of theirs lives while one is open), and the timers closing the
        #: seeks of those who left
        self.pages: dict[str, set[Watcher]] = {}
        self._owner_of: dict[Watcher, str] = {}
        self._leaving: dict[str, asyncio.TimerHandle] = {}
        self._reloading: asyncio.Task[None] | None = None
        self._again = False
        self.tasks: set[asyncio.Task[Any]] = set()

    def snapshot(self) -> dict[str, Any]:
        return {"seeks": [public(seek) for seek in self.seeks]}

    # ----- the list, read again and told ------------------------------------------------------------------------
    async def reload(self) -> None:
        """Read the open seeks again; the pages are told when they changed, and the pages of a new seek's creator
        that it is theirs (offered from another page or tab of theirs, or read before their page opened here)."""
        seeks = await asyncio.to_thread(self.store.open, time.time(), SHOWN)
        if [seek.id for seek in seeks] != [seek.id for seek in self.seeks]:
            known = {seek.id for seek in self.seeks}
            self.seeks = seeks
            self.broadcast()
            for owner in {seek.owner for seek in seeks if seek.id not in known} & self.pages.keys():
                told = self._yours(owner)
                for watcher in self.pages[owner]:
                    watcher.offer(told)

    def changed(self, tell_others: bool = True) -> None:
        """The seeks changed (here, or on another server): read them again soon (changes close together are read
        once, ``COALESCE``), and tell the other servers when the change was this one's."""
        if tell_others:
            self._in_background(asyncio.to_thread(self.arcade.storage.notifications.announce, "lobby changed"))
        if self._reloading is not None and not self._reloading.done():
            self._again = True
            return
        self._reloading = asyncio.create_task(self._reload_soon())

    async def _reload_soon(self) -> None:
        try:
            while True:
                self._again = False
                await self.reload()
                await asyncio.sleep(COALESCE)
                if not self._again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("reading the lobby's seeks failed")

    def heard(self, rest: str) -> None:
        """Another server's word on the notification channel: ``changed``, or ``paired <seek> <game> <seat>``."""
        word, _, details = rest.partition(" ")
        if word == "paired":
            parts = details.split(" ")
            if len(parts) == 3 and parts[2].isdigit():
                self._in_background(self._tell_paired(parts[0], parts[1], int(parts[2])))
        self.changed(tell_others=False)

    # ----- the creators' pages ----------------------------------------------------------------------------------
    def arrive(self, identity: str | None, watcher: Watcher) -> None:
        """A lobby page opened, of ``identity`` (None: a page without one): it is told which open seeks are its own
        (``{"type": "you", "identified", "seeks"}``: a page without an identity opens its socket again once it has
        one, after offering its first seek)."""
        if identity is None:
            watcher.offer(encode({"type": "you", "identified": False, "seeks": []}))
            return
        watcher.offer(self._yours(identity))
        self._owner_of[watcher] = identity
        self.pages.setdefault(identity, set()).add(watcher)
        timer = self._leaving.pop(identity, None)
        if timer is not None:
            timer.cancel()

    def _yours(self, identity: str) -> str:
        """The message telling ``identity``'s pages which open seeks are theirs."""
        mine = [seek.id for seek in self.seeks if seek.owner == identity]
        return encode({"type": "you", "identified": True, "seeks": mine})

    def depart(self, watcher: Watcher) -> None:
        """A lobby page closed: when it was its creator's last one, that creator's seeks close in ``GRACE``."""
        identity = self._owner_of.pop(watcher, None)
        if identity is None or identity not in self.pages:
            return
        self.pages[identity].discard(watcher)
        if self.pages[identity]:
            return
        del self.pages[identity]
        loop = asyncio.get_running_loop()
        self._leaving[identity] = loop.call_later(GRACE, self._left, identity)

    def _left(self, identity: str) -> None:
        self._leaving.pop(identity, None)
        if identity in self.pages:
            return
        mine = [seek.id for seek in self.seeks if seek.owner == identity]
        if mine:
            self._in_background(self._close(mine, identity))

    async def _close(self, seek_ids: list[str], owner: str | None) -> list[str]:
        closed: list[str] = await asyncio.wrap_future(self.store.cancel(seek_ids, owner))
        if closed:
            self.changed()
        return closed

    async def beat(self) -> None:
        """Forever, every ``BEAT`` seconds: the seeks of the creators whose lobby pages are open here hold on, the
        old closed ones are forgotten, and the list is read again (the seeks of a server that stopped run out)."""
        while True:
            await asyncio.sleep(BEAT)
            try:
                now = time.time()
                if self.pages:
                    await asyncio.wrap_future(self.store.keep_alive(list(self.pages), now + HOLD))
                await asyncio.wrap_future(self.store.forget_closed(now - 3600))
                await self.reload()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("keeping the lobby's seeks failed")

    # ----- seeks ------------------------------------------------------------------------------------------------
    async def offer(self, owner: str, client: str, game: str, options: dict[str, Any], clock: Any,
                    side: str) -> Seek:
        """Open a seek (``Invalid`` for a game, options, clock or side the lobby cannot pair; ``TooMany`` past the
        player's or the lobby's share)."""
        if side not in SIDES:
            raise Invalid(say("error.lobby.side", accepted=", ".join(SIDES), side=repr(side[:20])))
        loaded, control = await asyncio.to_thread(_checked, game, options, clock)
        now = time.time()
        mine, theirs, everyone = await asyncio.to_thread(self._counts, owner, client, now)
        if mine >= PER_PLAYER or theirs >= PER_CLIENT:
            raise TooMany(say("error.lobby.too_many_seeks", count=max(mine, theirs)), 10)
        if everyone >= OPEN_IN_ALL:
            raise Unavailable(say("error.lobby.full", seeks=OPEN_IN_ALL))
        seek = Seek(id=secrets.token_urlsafe(9), game=loaded[0], options=loaded[1],
                    clock={"minutes": control.minutes, "increment": control.increment} if control else None,
                    side=side, owner=owner, client=client, status="open", game_id=None, created_at=now_iso(),
                    alive_until=now + HOLD)
        await asyncio.wrap_future(self.store.add(seek))
        # a creator who just left the lobby (for the new-game form, say) and offers a seek is here: the seeks it
        # had are not closed under the new one; it holds ``HOLD`` seconds, kept while the creator's lobby page opens
        timer = self._leaving.pop(owner, None)
        if timer is not None:
            timer.cancel()
        self.changed()
        return seek

    def _counts(self, owner: str, client: str, now: float) -> tuple[int, int, int]:
        return (self.store.count_open(now, owner=owner), self.store.count_open(now, client=client),
                self.store.count_open(now))

    async def quick(self, joiner: str, client: str, game: str, options: dict[str, Any],
                    clock: Any) -> tuple[GameRoom, int] | Seek:
        """Quick pairing: join the oldest open seek of someone else for this game, options and time control, or
        open one (side random)."""
        loaded, control = await asyncio.to_thread(_checked, game, options, clock)
        wanted = {"minutes": control.minutes, "increment": control.increment} if control else None
        for _ in range(3):  # another may take the one found first: look again
            found = await asyncio.to_thread(self.store.match, loaded[0], loaded[1], wanted, joiner, time.time())
            if found is None:
                break
            with contextlib.suppress(Conflict):
                return await self.join(found.id, joiner)
        return await self.offer(joiner, client, loaded[0], loaded[1], clock, "random")

    async def cancel(self, seek_id: str, owner: str | None) -> None:
        """The creator closes a seek (``NotFound`` for none open of theirs)."""
        if owner is None or not await self._close([seek_id], owner):
            raise NotFound(say("error.lobby.no_seek_of_yours"))

    async def join(self, seek_id: str, joiner: str) -> tuple[GameRoom, int]:
        """Join a seek: the game is created between its creator and ``joiner``; the room and the joiner's seat.
        ``Conflict`` when it is one's own seek or another took it first; ``NotFound`` for no such seek."""
        seek = await asyncio.to_thread(self.store.get, seek_id)
        if seek is None:
            raise NotFound(say("error.lobby.no_seek", seek=repr(seek_id[:40])))
        if seek.owner == joiner:
            raise Conflict(say("error.lobby.own_seek"))
        game_id = creation.new_room_id()
        if seek.status != "open" or not await asyncio.wrap_future(self.store.take(seek_id, game_id, time.time())):
            raise Conflict(say("error.lobby.seek_gone"))
        creator = {"first": 0, "second": 1}.get(seek.side, secrets.randbelow(2))
        try:
            room, _ = await creation.create(self.arcade, seek.game, dict(seek.options),
                                            [{"kind": "human"}, {"kind": "human"}], None, clock=seek.clock,
                                            owner=seek.owner, client=seek.client, game_id=game_id)
        except Exception:
            log.exception("the game of seek %s could not be created", seek_id)
            raise Unavailable(say("error.lobby.game_not_created")) from None
        await self.players.hold(seek.owner, "game", game_id, creator)
        await self.players.hold(joiner, "game", game_id, 1 - creator)
        await self._tell_paired(seek_id, game_id, creator)
        self._in_background(asyncio.to_thread(self.arcade.storage.notifications.announce,
                                              f"lobby paired {seek_id} {game_id} {creator}"))
        self.changed()
        return room, 1 - creator

    async def _tell_paired(self, seek_id: str, game_id: str, seat: int) -> None:
        """Tell the seek's creator, on their lobby pages here, the game it became and their seat's token."""
        owner = next((seek.owner for seek in self.seeks if seek.id == seek_id), None)
        if owner is None:
            found = await asyncio.to_thread(self.store.get, seek_id)
            owner = found.owner if found is not None else None
        pages = self.pages.get(owner or "", set())
        if not pages:
            return
        text = encode({"type": "paired", "seek": seek_id, "game": game_id, "seat": seat,
                       "token": self.arcade.keys.token(game_id, seat)})
        for page in list(pages):
            page.offer(text)

    def _in_background(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self._reloading is not None:
            self._reloading.cancel()
        for timer in self._leaving.values():
            timer.cancel()
        super().close()


def _checked(game: str, options: dict[str, Any], clock: Any) -> tuple[tuple[str, dict[str, Any]], TimeControl | None]:
    """The game's name and its options as the game reads them, and the time control, of a seek (``Invalid`` saying
    what the lobby cannot pair)."""
    loaded = creation.load_game(game, options)
    if loaded.num_players != 2:
        raise Invalid(say("error.lobby.two_players", game=messages.title_of(loaded), count=str(loaded.num_players)))
    return (loaded.name, dict(loaded.options)), parse(clock, loaded)
