"""The running server: the event loop's side of the games.

The event loop only moves bytes. Everything that touches the database or the engine runs
off it: the moves, undos and bot moves of every game in the writer thread (mover.py,
which stores them a batch at a time; on PostgreSQL, which commits concurrent
transactions together itself, in a pool of threads), the other writes (new games,
joins) and the reads (views, sockets opening, polls) in two thread pools — so a database
that makes writes wait never holds up reads, and nothing holds up the loop. Bots think
in worker processes (`bots.bot_pool`).

Each socket has a sender that only ever has the newest state to send: a slow client
delays nobody else and costs one pending message. Writes to one game are serialised by
a lock that exists only while someone holds or waits for it, so unknown game ids leave
nothing behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from kamon.server import faults
from kamon.server.bots import bot_decision, bot_pool, bot_seed
from kamon.server.cluster import Peers
from kamon.server.guard import Send
from kamon.server.mover import Mover
from kamon.server.service import GameService, Loaded, Pending, ServiceError
from kamon.server.store import Store
from kamon.server.views import payload_json, state_message
from kamon.server.workers import Workers

log = logging.getLogger("kamon.server")
T = TypeVar("T")

POLL_SECONDS = 2.0  # sockets learn of moves stored by another server process this often
SEND_TIMEOUT = 20.0  # a socket that takes longer to accept one message is closed
MAX_SOCKETS_PER_GAME = 64
MAX_SOCKETS = 10_000
READ_THREADS = 4
WRITE_THREADS = 16  # new games and joins; on PostgreSQL also the moves (waiting on commits)
RETRY_CAP = 30.0  # the longest a bot driver waits before it tries a busy database again


class Conn:
    """One socket (its ASGI `send`): the seat it views as, and what it still has to be
    sent."""

    def __init__(self, send: Send, seat: int | None) -> None:
        """A socket that has been sent nothing yet."""
        self.send = send
        self.seat = seat
        self.version = -1  # the newest version queued or sent
        self.state: str | None = None  # the newest state not yet sent
        self.other: list[str] = []  # other messages (pongs), in order
        self.sender: asyncio.Task[None] | None = None
        self.sending_since = 0.0  # loop time the current send started (0: none)
        self.closed = False

    def push(self, version: int, message: str) -> None:
        """Queue the state at `version` (replacing an older one not yet sent)."""
        if version <= self.version or self.closed:
            return
        self.version = version
        self.state = message
        self._wake()

    def push_other(self, message: str) -> None:
        """Queue a message that is not a state."""
        if not self.closed and len(self.other) < 8:
            self.other.append(message)
            self._wake()

    def _wake(self) -> None:
        """Start the sender if it is not running."""
        if self.sender is None or self.sender.done():
            self.sender = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        """Send what is queued; a socket that fails is closed (one that stalls is closed
        by the watchdog, `stalled`)."""
        loop = asyncio.get_running_loop()
        try:
            while not self.closed and (self.other or self.state is not None):
                if self.other:
                    message = self.other.pop(0)
                else:
                    message, self.state = self.state, None  # type: ignore[assignment]
                self.sending_since = loop.time()
                await self.send({"type": "websocket.send", "text": message})
                self.sending_since = 0.0
        except Exception:
            self.closed = True
            await self.close(1011, "could not send")

    async def close(self, code: int, reason: str) -> None:
        """Close the socket, whatever state it is in."""
        with contextlib.suppress(Exception):
            await self.send({"type": "websocket.close", "code": code, "reason": reason})

    def stalled(self, now: float) -> bool:
        """Has one message been on its way for longer than SEND_TIMEOUT?"""
        return self.sending_since > 0 and now - self.sending_since > SEND_TIMEOUT


class Hub:
    """The live sockets of each game."""

    def __init__(self) -> None:
        """No sockets yet."""
        self.games: dict[str, dict[Conn, None]] = {}
        self.count = 0

    def add(self, game_id: str, send: Send, seat: int | None) -> Conn | None:
        """Register a socket (None: too many sockets, on this game or in all)."""
        conns = self.games.setdefault(game_id, {})
        if len(conns) >= MAX_SOCKETS_PER_GAME or self.count >= MAX_SOCKETS:
            if not conns:
                del self.games[game_id]
            return None
        conn = Conn(send, seat)
        conns[conn] = None
        self.count += 1
        return conn

    def remove(self, game_id: str, conn: Conn) -> None:
        """Forget a socket."""
        conns = self.games.get(game_id)
        if conns is not None and conn in conns:
            del conns[conn]
            conn.closed = True
            self.count -= 1
            if not conns:
                del self.games[game_id]

    def conns(self, game_id: str) -> list[Conn]:
        """The sockets of a game."""
        return list(self.games.get(game_id, ()))

    def seats(self, game_id: str) -> set[int | None]:
        """The seats (None: spectators) that have a socket on the game."""
        return {c.seat for c in self.games.get(game_id, ())}

    def version(self, game_id: str) -> int:
        """The newest version any socket of the game has been queued."""
        return max((c.version for c in self.games.get(game_id, ())), default=-1)


class GameLocks:
    """One asyncio lock per game being written to, dropped when nobody holds or waits
    for it (so the map holds only games with a write in progress)."""

    def __init__(self) -> None:
        """No locks."""
        self.locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    def hold(self, game_id: str) -> _Hold:
        """`async with locks.hold(game_id)`: hold the game's lock."""
        return _Hold(self, game_id)

    def __len__(self) -> int:
        """Games with a write in progress."""
        return len(self.locks)


class _Hold:
    """Holding one game's lock (a plain context manager object: every write takes one,
    and a generator-based one cost more than the lock itself)."""

    __slots__ = ("locks", "game_id", "entry")

    def __init__(self, locks: GameLocks, game_id: str) -> None:
        """Not held yet."""
        self.locks = locks
        self.game_id = game_id
        self.entry: tuple[asyncio.Lock, list[int]] | None = None

    async def __aenter__(self) -> None:
        """Wait for the lock (made if nobody has it)."""
        entry = self.locks.locks.get(self.game_id)
        if entry is None:
            entry = self.locks.locks[self.game_id] = (asyncio.Lock(), [0])
        self.entry = entry
        entry[1][0] += 1
        try:
            await entry[0].acquire()
        except BaseException:
            self._leave()
            raise

    async def __aexit__(self, *exc: object) -> None:
        """Release it (and forget it if nobody waits)."""
        assert self.entry is not None
        self.entry[0].release()
        self._leave()

    def _leave(self) -> None:
        """One user fewer; the last one drops the lock from the map."""
        assert self.entry is not None
        users = self.entry[1]
        users[0] -= 1
        if users[0] == 0 and self.locks.locks.get(self.game_id) is self.entry:
            del self.locks.locks[self.game_id]


class Server:
    """State shared by the routes: the service, pools, locks, sockets, the bots."""

    def __init__(self, db: str, bot_workers: int, bot_delay: float) -> None:
        """Open the store; bot_workers 0 runs bots in a thread (for small machines)."""
        self.store = Store(db)
        self.service = GameService(self.store)
        self.hub = Hub()
        self.locks = GameLocks()
        self.driving: set[str] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.pool: Executor | None = None
        self.reads = Workers(READ_THREADS, "kamon-read")
        self.writes = Workers(WRITE_THREADS, "kamon-write")
        self.mover = Mover(self.service) if self.store.dialect == "sqlite" else None
        self.peers: Peers | None = None  # the other workers (`kamon serve --workers N`)

    # --- running work off the loop -------------------------------------------------

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a read (store or engine) in the read pool."""
        return await self.reads.run(fn, *args)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a write (store and engine) in the write pool."""
        return await self.writes.run(fn, *args)

    async def store_write(self, prepare: Callable[[], Loaded | Pending],
                          answer: Callable[[Loaded], T]) -> T:
        """A move, undo or bot move: checked and played by `prepare`, stored, and
        `answer`ed from the new game — in the writer thread (SQLite), or in the write pool
        (PostgreSQL)."""
        if self.mover is not None:
            return await self.mover.run(prepare, answer)
        return await self.write(_write_now, self.service, prepare, answer)

    def executor(self) -> Executor:
        """The bot pool, started on first use."""
        if self.pool is None:
            self.pool = bot_pool(self.bot_workers)
        return self.pool

    # --- what the threads do -----------------------------------------------------------

    def render(self, loaded: Loaded, seats: set[int | None]) -> dict[int | None, str]:
        """The state message of each seat (in a worker thread)."""
        return {s: state_message(loaded, s) for s in seats}

    def answered(self, token: Any, seats: set[int | None], reply: bool, loaded: Loaded
                 ) -> tuple[Loaded, bytes, dict[int | None, str]]:
        """After a move or undo: the new game, the writer's answer (empty if not `reply`:
        a move sent on a socket is answered by that socket's state message) and the
        sockets' messages."""
        answer = payload_json(loaded, self.service.seat_of(loaded, token)) if reply else b""
        return loaded, answer, self.render(loaded, seats)

    def do_view(self, game_id: str, token: Any) -> bytes:
        """A viewer's payload (GET)."""
        loaded = self.service.load(game_id)
        return payload_json(loaded, self.service.seat_of(loaded, token))

    def do_open(self, game_id: str, token: Any) -> tuple[Loaded, int | None, str]:
        """A socket's game, seat and first message."""
        loaded = self.service.load(game_id)
        seat = self.service.seat_of(loaded, token)
        return loaded, seat, state_message(loaded, seat)

    def rendered(self, seats: set[int | None], loaded: Loaded
                 ) -> tuple[Loaded, dict[int | None, str]]:
        """After a bot's move: the new game and the sockets' messages."""
        return loaded, self.render(loaded, seats)

    # --- the requests of every move ------------------------------------------------------

    async def view(self, game_id: str, token: Any) -> bytes:
        """GET a game: the viewer's payload."""
        return await self.read(self.do_view, game_id, token)

    async def play(self, game_id: str, body: dict[str, Any], undo: bool,
                   reply: bool = True) -> bytes:
        """A move or an undo: stored (or refused), then told to the sockets; the writer's
        payload (empty if not `reply`)."""
        token = body.get("token")
        prepare = (functools.partial(self.service.prepare_undo, game_id, token,
                                     body.get("version")) if undo else
                   functools.partial(self.service.prepare_move, game_id, token,
                                     body.get("action"), body.get("version")))
        async with self.locks.hold(game_id):
            loaded, answer, messages = await self.store_write(prepare, functools.partial(
                self.answered, token, self.hub.seats(game_id), reply))
        faults.after_commit()
        await self.publish(loaded, messages)
        if self.service.bot_to_move(loaded) is not None:
            self.spawn(self.drive_bots(game_id))
        return answer

    # --- telling the sockets -------------------------------------------------------------

    async def publish(self, loaded: Loaded, messages: dict[int | None, str]) -> None:
        """Queue the new state for every socket of the game that has not had it (a
        socket whose seat was not rendered yet gets its message rendered now)."""
        gid = loaded.row.id
        for conn in self.hub.conns(gid):
            if conn.version >= loaded.version:
                continue
            message = messages.get(conn.seat)
            if message is None:
                try:
                    message = messages[conn.seat] = await self.read(state_message, loaded,
                                                                    conn.seat)
                except ServiceError:
                    continue
            conn.push(loaded.version, message)
        if self.peers is not None and not self.peers.owns(gid):
            self.peers.tell(gid, loaded.version, _last_row(loaded))

    def after_change(self, loaded: Loaded, messages: dict[int | None, str]) -> None:
        """Tell the sockets, then let a bot decide if one is to move."""
        self.spawn(self.publish(loaded, messages))
        if self.service.bot_to_move(loaded) is not None:
            self.spawn(self.drive_bots(loaded.row.id))

    def spawn(self, coro: Any) -> None:
        """Run a coroutine in the background, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # --- bots ------------------------------------------------------------------------------

    async def drive_bots(self, game_id: str) -> None:
        """Play the bots' decisions of a game until a human (or nobody) is to move. A busy
        database is waited out; a damaged game stops only its own driver."""
        if game_id in self.driving:
            return
        if self.peers is not None and not self.peers.owns(game_id):
            self.peers.tell(game_id, -1, drive=True)  # bots think in the game's owner
            return
        self.driving.add(game_id)
        loop = asyncio.get_running_loop()
        backoff = 1.0
        broken = 0
        try:
            while True:
                try:
                    loaded = await self.read(self.service.load, game_id)
                    bot = self.service.bot_to_move(loaded)
                    if bot is None:
                        return
                    if self.bot_delay:
                        await asyncio.sleep(self.bot_delay)
                    assert bot.level is not None
                    state_json = await self.read(_state_json, loaded)
                    try:
                        aid = await loop.run_in_executor(
                            self.executor(), bot_decision, state_json, loaded.row.game,
                            bot.level, bot_seed(loaded, bot.seat))
                    except BrokenProcessPool:
                        broken += 1
                        log.error("the bot workers died (game %s); starting new ones",
                                  game_id)
                        self._reset_pool()
                        if broken > 3:
                            return
                        continue
                    async with self.locks.hold(game_id):
                        seats = self.hub.seats(game_id)
                        new, messages = await self.store_write(
                            functools.partial(self.service.prepare_bot, loaded, bot.seat,
                                              aid),
                            functools.partial(self.rendered, seats))
                    backoff = 1.0
                    await self.publish(new, messages)
                except ServiceError as exc:
                    if exc.status == 409:
                        continue  # someone undid or moved meanwhile: think again
                    if exc.status == 503:
                        log.warning("bots of game %s wait %.0f s: %s", game_id, backoff,
                                    exc.message)
                        await asyncio.sleep(backoff)
                        backoff = min(RETRY_CAP, backoff * 2)
                        continue
                    log.error("bots of game %s stopped: %s", game_id, exc.message)
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot driver of game %s stopped", game_id)
        finally:
            self.driving.discard(game_id)

    def _reset_pool(self) -> None:
        """Drop a broken bot pool (the next decision starts a new one)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def resume(self) -> None:
        """At start-up: let the bots of every unfinished game carry on."""
        try:
            ids = await self.read(self.store.games_by_status, "playing")
        except Exception as exc:  # the server still serves what it can
            log.error("cannot list the unfinished games: %s", exc)
            return
        for game_id in ids:
            if self.peers is None or self.peers.owns(game_id):
                self.spawn(self.drive_bots(game_id))

    # --- other processes' moves ------------------------------------------------------------

    async def poll(self) -> None:
        """Forever: catch moves another server process stored in a shared database, for
        the games that have sockets here."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(POLL_SECONDS)
            now = loop.time()
            for conns in list(self.hub.games.values()):
                for conn in list(conns):
                    if conn.stalled(now) and conn.sender is not None:
                        conn.closed = True  # a client that stopped reading
                        conn.sender.cancel()
                        self.spawn(conn.close(1011, "too slow to read the moves"))
            ids = list(self.hub.games)
            if not ids:
                continue
            try:
                versions = await self.read(self.store.versions, ids)
            except Exception as exc:
                log.warning("polling the database failed: %s", exc)
                continue
            for gid, v in versions.items():
                if v > self.hub.version(gid):
                    try:
                        loaded = await self.read(self.service.load, gid)
                    except ServiceError:
                        continue
                    await self.publish(loaded, {})

    def elsewhere(self, game_id: str) -> bool:
        """Is the game owned by another worker? (Then an HTTP answer about it closes its
        connection, so that the client's next request reaches the owner: the front
        routes a connection by its first request.)"""
        return self.peers is not None and not self.peers.owns(game_id)

    def on_peer(self, game_id: str, version: int, row: list[Any] | None,
                drive: bool) -> None:
        """Another worker stored a write to a game this one owns (cluster.Peers): tell
        the game's sockets here, and drive its bots if one is to move."""
        if drive:
            self.spawn(self.drive_bots(game_id))
        if game_id in self.hub.games and version > self.hub.version(game_id):
            self.spawn(self._caught_up(game_id, version, row))

    async def _caught_up(self, game_id: str, version: int, row: list[Any] | None) -> None:
        """Bring the game to `version` (applying the told move to the cached game when
        that is the one before it, else reading the store) and tell its sockets."""
        try:
            loaded = await self.read(self.service.advance, game_id, version, row)
        except ServiceError:
            return
        await self.publish(loaded, {})

    def close(self) -> None:
        """Stop the pools and the store. The bot processes are waited for (a decision
        under way ends within its time budget), so that none is left behind and the
        pool's semaphores are released rather than reported leaked at exit."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        if self.mover is not None:
            self.mover.shutdown()
        self.reads.shutdown()
        self.writes.shutdown()
        self.store.close()


def _last_row(loaded: Loaded) -> list[Any] | None:
    """The move that made this version ([kind, seat, action id]), if a move did."""
    if loaded.moves and loaded.moves[-1].idx == loaded.version - 1:
        last = loaded.moves[-1]
        return [last.kind, last.seat, last.action_id]
    return None


def _state_json(loaded: Loaded) -> dict[str, Any]:
    """The game's full state as JSON, for a bot worker."""
    with loaded.lock:
        return loaded.state.to_json()


def _write_now(service: GameService, prepare: Callable[[], Loaded | Pending],
               answer: Callable[[Loaded], T]) -> T:
    """A move, undo or bot move stored in a transaction of its own (in a pool thread)."""
    return answer(service.store_write(prepare()))
