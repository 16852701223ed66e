"""The games live on one server process: the one path of a move (POSTed or sent on a
socket: checked, played and stored in the writer's thread, rendered once committed,
sent to every socket of the game), the reads off the event loop, the bots, and what
other processes sharing the database wrote (docs/server.md).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import orjson

from kamon.learn.review import REVIEW_ITERATIONS
from kamon.server import faults, metrics, open_games, rematch
from kamon.server.bots import BotDriver
from kamon.server.errors import ServiceError
from kamon.server.hub import Hub
from kamon.server.limits import BOT_TIME_LIMIT
from kamon.server.notify import Claims, Listener
from kamon.server.reviews import Reviews
from kamon.server.service import GameService, Loaded
from kamon.server.store import Store
from kamon.server.views import payload_json, state_message
from kamon.server.writer import BatchWriter

log = logging.getLogger("kamon.server")
T = TypeVar("T")

READ_THREADS = 4
HOUSEKEEPING_SECONDS = 2.0  # stalled sockets closed, bots nobody drives taken over


class LiveGames:
    """State shared by the routes: the service, the writer, the sockets, the bots."""

    def __init__(self, db: str, bot_workers: int, bot_delay: float,
                 review_iterations: int = REVIEW_ITERATIONS,
                 bot_time_limit: float = BOT_TIME_LIMIT) -> None:
        """Open the store; bot_workers 0 runs bots in a thread (for small machines);
        `review_iterations`: a post-game review's search budget a decision;
        `bot_time_limit`: a plug-in bot's seconds a decision (0: none)."""
        self.store = Store(db)
        self.service = GameService(self.store)
        self.writer = BatchWriter(self.store)
        self.hub = Hub()
        self.reads = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="kamon-read")
        self.tasks: set[asyncio.Task[Any]] = set()
        shared = self.store.dialect == "postgresql"  # (SQLite: this process alone)
        self.claims = Claims(self.store) if shared else None
        self.listener: Listener | None = None
        self.behind: dict[str, int] = {}  # games being caught up: the newest version told
        self.bots = BotDriver(self.service, self.read, self.bot_move, self.spawn,
                              self.claims, bot_workers, bot_delay, bot_time_limit)
        self.reviews = Reviews(self.service, self.read, self.bots.background, self.spawn,
                               review_iterations)

    # --- life ------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen for other processes' writes, let every waiting bot carry on, and look
        after the sockets and the bots from now on."""
        if self.claims is not None:
            self.listener = Listener(self.store, asyncio.get_running_loop(),
                                     self.on_note, self.on_gap)
            await self.read(self.listener.start)
        await self.bots.sweep(idle=0)
        self.spawn(self.housekeeping())

    def close(self) -> None:
        """Stop the tasks, the listener, the writer (it stores what waits), the bots,
        the threads and the store."""
        for task in list(self.tasks):
            task.cancel()
        if self.listener is not None:
            self.listener.stop()
        self.writer.shutdown()
        self.bots.close()
        self.reads.shutdown(wait=True, cancel_futures=True)
        if self.claims is not None:
            self.claims.close()
        self.store.close()

    def spawn(self, coro: Any) -> None:
        """Run a coroutine in the background, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a read (store or engine) in the read threads."""
        return await asyncio.get_running_loop().run_in_executor(self.reads, fn, *args)

    # --- the requests of every move ------------------------------------------------------

    async def view(self, game_id: str, token: Any) -> bytes:
        """GET a game: the viewer's payload."""
        return await self.read(self._view, game_id, token)

    def _view(self, game_id: str, token: Any) -> bytes:
        """A viewer's payload (in a read thread)."""
        loaded = self.service.load(game_id)
        return payload_json(loaded, self.service.seat_of(loaded, token))

    async def open_socket(self, game_id: str, token: Any) -> tuple[Loaded, int | None, str]:
        """A socket's game, seat and first message (and its bots driven, if one is to
        move and no process drives them: the one that did may have died)."""
        loaded, seat, first = await self.read(self._open, game_id, token)
        if self.service.bot_to_move(loaded) is not None:
            self.bots.drive(game_id)
        return loaded, seat, first

    async def refresh(self, game_id: str) -> None:
        """Read the game's stored version and, if its sockets here have not all had it,
        send it to them (a socket just registered, or one whose page asks with a ping:
        the version may have been stored by another process while nobody here listened).
        One cheap read of the version when nothing is new."""
        try:
            loaded = await self.read(self.service.load, game_id)
        except ServiceError:
            return
        if loaded.version > self.hub.version(game_id):
            await self.publish(loaded)

    def _open(self, game_id: str, token: Any) -> tuple[Loaded, int | None, str]:
        """A socket's game, seat and first message (in a read thread)."""
        loaded = self.service.load(game_id)
        seat = self.service.seat_of(loaded, token)
        return loaded, seat, state_message(loaded, seat)

    @metrics.stored("player")
    async def play(self, game_id: str, body: dict[str, Any], undo: bool,
                   reply: bool = True) -> bytes:
        """A move or an undo: stored (or refused), then told to the sockets; the writer's
        payload (empty if not `reply`: a socket's next state message answers it)."""
        token, version = body.get("token"), body.get("version")
        await self.cached(game_id)
        if undo:
            write = functools.partial(self.service.undo, game_id, token, version)
        else:
            write = functools.partial(self.service.move, game_id, token,
                                      body.get("action"), version)
        new, answer, messages = await self.writer.run(
            write, functools.partial(self._rendered, token if reply else None,
                                     self.hub.seats(game_id)),
            f"store {'an undo' if undo else 'a move'} in game {game_id}")
        faults.after_commit()
        await self.publish(new, messages)
        if self.service.bot_to_move(new) is not None:
            self.bots.drive(game_id)
        return answer

    async def cached(self, game_id: str) -> None:
        """Have the game in the cache before a write: rebuilt (or refused: no game) in a
        read thread here, not inside the writer's transaction."""
        if self.service.cache.get(game_id) is None:
            await self.read(self.service.load, game_id)

    # --- the requests around a game: create, join, name, rematch -------------------------

    async def create(self, body: Any, client: str | None) -> dict[str, Any]:
        """Create a game (open_games.create: public or by invitation) for `client`'s
        address, and start its bots if it has any."""
        made = await self.writer.run(functools.partial(open_games.create, self.service,
                                                       body, client), doing="create a game")
        self._drive_new(made)
        return made

    async def join(self, game_id: str, body: Any) -> dict[str, Any]:
        """Take a free seat of a public game (open_games.join); a seat taken with a
        player's name is told to the game's sockets."""
        joined = await self.writer.run(functools.partial(
            open_games.join, self.service, game_id, body), doing=f"join game {game_id}")
        if joined.get("player") is not None:
            self.named(joined["id"])
        return joined

    async def name(self, game_id: str, body: dict[str, Any]) -> bytes:
        """Name the token's seat ({token, name}; set once): the seat's payload, and the
        game's sockets told."""
        await self.cached(game_id)
        loaded = await self.writer.run(functools.partial(self.service.name, game_id, body),
                                       doing=f"name a seat of game {game_id}")
        answer = await self.read(lambda: payload_json(
            loaded, self.service.seat_of(loaded, body.get("token"))))
        self.named(game_id, loaded)
        return answer

    async def rematch(self, game_id: str, body: dict[str, Any]
                      ) -> tuple[dict[str, Any], bool]:
        """The finished game's rematch (rematch.create) and whether it is new: a new one
        is told to the finished game's sockets and its bots started; joining an existing
        one with a name tells its sockets the name."""
        made, new = await self.writer.run(functools.partial(
            rematch.create, self.service, game_id, body),
            doing=f"make the rematch of {game_id}")
        if new:
            self.rematch_made(game_id, made["id"])
            self._drive_new(made)
        elif body.get("name") is not None:
            self.named(made["id"])
        return made, new

    def _drive_new(self, made: dict[str, Any]) -> None:
        """A game just made: its bots start (if it has any)."""
        if any(s["kind"] == "bot" for s in made["seats"]):
            self.bots.drive(made["id"])

    @metrics.stored("bot")
    async def bot_move(self, game_id: str, seat: int, aid: int, version: int) -> None:
        """Store a bot's move (chosen at `version`) and tell the sockets."""
        new, _, messages = await self.writer.run(
            functools.partial(self.service.bot_move, game_id, seat, aid, version),
            functools.partial(self._rendered, None, self.hub.seats(game_id)),
            f"store a move in game {game_id}")
        await self.publish(new, messages)

    def _rendered(self, token: Any, seats: set[int | None], loaded: Loaded
                  ) -> tuple[Loaded, bytes, dict[int | None, str]]:
        """After a write, in the writer's thread: the new game, the payload of the
        token's seat (empty without a token) and the sockets' messages."""
        answer = b"" if token is None else payload_json(loaded,
                                                        self.service.seat_of(loaded, token))
        return loaded, answer, render(loaded, seats)

    # --- telling the sockets -------------------------------------------------------------

    async def publish(self, loaded: Loaded, messages: dict[int | None, str] | None = None
                      ) -> None:
        """Queue the new state for every socket of the game that has not had it (the
        messages of seats not rendered yet are rendered now)."""
        conns = [c for c in self.hub.conns(loaded.row.id) if c.version < loaded.version]
        messages = messages or {}
        missing = {c.seat for c in conns} - messages.keys()
        if missing:
            try:
                messages = {**messages, **await self.read(render, loaded, missing)}
            except ServiceError:
                return
        for conn in conns:
            conn.push(loaded.version, messages[conn.seat])

    def on_note(self, game_id: str, news: str) -> None:
        """A process sharing the database (or this one) stored a version of a game
        (`news`: the version), or made its rematch (`rematch <id>`): if sockets here have
        not had it, read the game and tell them (one catch-up per game at a time)."""
        if game_id not in self.hub.games:
            return
        if news.startswith("rematch "):
            message = orjson.dumps({"type": "rematch", "id": news[8:]}).decode()
            for conn in self.hub.conns(game_id):
                conn.push_other(message)
            return
        if news == "named":
            self.spawn(self.tell_names(game_id))
            return
        version = int(news) if news.isdigit() else -1
        if version <= self.hub.version(game_id):
            return
        if game_id in self.behind:
            self.behind[game_id] = max(self.behind[game_id], version)
            return
        self.behind[game_id] = version
        self.spawn(self._catch_up(game_id))

    def named(self, game_id: str, loaded: Loaded | None = None) -> None:
        """A seat of the game was named here: tell its sockets (PostgreSQL's notification
        tells every process's, this one's too)."""
        if self.listener is None:
            self.spawn(self.tell_names(game_id, loaded))

    async def tell_names(self, game_id: str, loaded: Loaded | None = None) -> None:
        """A seat was named (no new version): send the game's sockets on this process
        their payload again, which the page redraws with the names."""
        conns = self.hub.conns(game_id)
        if not conns:
            return
        try:
            if loaded is None:
                loaded = await self.read(self.service.load, game_id)
            messages = await self.read(render, loaded, {c.seat for c in conns})
        except ServiceError:
            return
        for conn in conns:
            conn.push_other(messages[conn.seat])

    def rematch_made(self, game_id: str, rematch_id: str) -> None:
        """Tell the finished game's sockets its rematch (PostgreSQL's notification does)."""
        if self.listener is None:
            self.on_note(game_id, f"rematch {rematch_id}")

    def on_gap(self) -> None:
        """Notifications may have been lost (the listener reconnected): re-read them all."""
        for game_id in list(self.hub.games):
            self.on_note(game_id, str(self.hub.version(game_id) + 1))

    async def _catch_up(self, game_id: str) -> None:
        """Read the game until it is at the newest version told, and tell its sockets."""
        try:
            while game_id in self.hub.games:
                try:
                    loaded = await self.read(self.service.load, game_id)
                except ServiceError:
                    return
                await self.publish(loaded)
                if self.behind[game_id] <= loaded.version:
                    return
        finally:
            self.behind.pop(game_id, None)

    async def housekeeping(self) -> None:
        """Forever: close the sockets that stopped reading, and drive the bots of games
        nobody drives (on PostgreSQL: their process died)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(HOUSEKEEPING_SECONDS)
            now = loop.time()
            for conns in list(self.hub.games.values()):
                for conn in list(conns):
                    if conn.stalled(now) and conn.sender is not None:
                        conn.closed = True  # a client that stopped reading
                        conn.sender.cancel()
                        self.spawn(conn.close(1011, "too slow to read the moves"))
            if self.claims is not None:
                await self.bots.sweep()


def render(loaded: Loaded, seats: set[int | None]) -> dict[int | None, str]:
    """The state message of each seat (in a thread)."""
    return {s: state_message(loaded, s) for s in seats}
