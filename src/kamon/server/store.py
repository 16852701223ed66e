"""The game store: one row per game, one append-only row per action (SQLite or PostgreSQL).

A game is its record. `games` holds how it was set up, its version (the number of action
rows) and a digest of everything stored for it; `actions` holds every move and every
undo, in order, never updated or deleted; `seats` holds who sits where, with a hash of
each seat's token (the token itself is only ever in the invite link). The same schema runs
on an SQLite file (WAL, the default) and on PostgreSQL (`postgresql://...`).

A move is stored by bumping the version only if it is still the one the move was checked
against, and inserting its row, in one transaction: two servers sharing a database cannot
both store a move at one version. The digest chains the setup, the seats and every action
row, so a row changed behind the server's back (without a version bump) is detected when
the game is next rebuilt from the store.

SQLAlchemy creates (and migrates) the schema; the queries themselves go straight to the
driver on one connection per thread, because they run on every request and the server
answers a move in well under a millisecond of CPU. Driver errors become `StoreError`s
that say what went wrong (busy, read-only, unreachable) and whether a retry may help.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    inspect,
    text,
)
from sqlalchemy.engine import Engine

metadata = MetaData()

games_table = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", JSON, nullable=False),
    Column("version", Integer, nullable=False),
    Column("status", String(16), nullable=False),  # "playing" or "over"
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    # "practice" (the creator chose the seed), "casual" or "rated" (the server drew it)
    Column("mode", String(8), nullable=False, server_default="casual"),
    Column("digest", String(64)),  # sha256 chain over setup, seats and action rows
)

seats_table = Table(
    "seats", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "human" or "bot"
    Column("level", String(16)),  # a bot's level
    Column("token_hash", String(64)),  # sha256 of a human seat's token
)

actions_table = Table(
    "actions", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "move" or "undo"
    Column("seat", Integer),
    Column("action_id", Integer),
    Column("notation", String(200)),
    Column("created_at", Float, nullable=False),
)

T = TypeVar("T")
MAX_SEED = (1 << 63) - 1
GROUP_MAX = 256  # writes committed in one transaction at most
MODES = ("practice", "casual", "rated")
BUSY_TIMEOUT = 2.0  # seconds a write waits for a database another process has locked


@functools.lru_cache(maxsize=4096)  # every move names its token: hash it once
def token_hash(token: str) -> str:
    """What the store keeps of a seat token (a leaked database gives no seat away)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class SeatRow:
    """One seat of a stored game."""

    seat: int
    kind: str
    level: str | None
    token_hash: str | None


@dataclass(frozen=True)
class GameRow:
    """A stored game's setup and version."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    version: int
    status: str
    created_at: float
    updated_at: float
    mode: str = "casual"
    digest: str | None = None


@dataclass(frozen=True)
class ActionRow:
    """One stored action row: a move (action id + notation) or an undo."""

    idx: int
    kind: str
    seat: int | None
    action_id: int | None
    notation: str | None


class VersionConflict(Exception):
    """The game moved on since the version a write was checked against."""


class StoreError(Exception):
    """The database could not do what was asked: the HTTP status to answer with, the
    reason in words, and the seconds after which a retry may succeed (None: it won't
    by itself)."""

    def __init__(self, message: str, status: int = 503, retry_after: int | None = None
                 ) -> None:
        """Message, status and retry hint."""
        super().__init__(message)
        self.message = message
        self.status = status
        self.retry_after = retry_after


class DamagedGame(Exception):
    """A stored game's rows cannot be read back as a game (the message says which)."""


def effective_moves(rows: list[ActionRow]) -> list[ActionRow]:
    """The moves in force: each undo row takes back the latest move still in force."""
    moves: list[ActionRow] = []
    for row in rows:
        if row.kind == "undo":
            if moves:
                moves.pop()
        else:
            moves.append(row)
    return moves


def normalise_url(url: str) -> str:
    """A database URL SQLAlchemy understands: a bare path becomes an SQLite file, and
    postgresql:// uses the psycopg (3) driver."""
    if "://" not in url:
        return f"sqlite:///{url}"
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


# --- the digest ------------------------------------------------------------------------

def setup_digest(game: str, players: int, seed: int, options: dict[str, Any], mode: str,
                 seats: list[SeatRow]) -> str:
    """The digest of a game at version 0: its setup and its seats."""
    canon = json.dumps([game, players, seed, options, mode,
                        [[s.seat, s.kind, s.level, s.token_hash] for s in seats]],
                       sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()


def chain_digest(prev: str, row: ActionRow) -> str:
    """The digest after one more action row."""
    canon = f"{prev}|{row.idx}|{row.kind}|{row.seat}|{row.action_id}|{row.notation}"
    return hashlib.sha256(canon.encode()).hexdigest()


def digest_of(row: GameRow, seats: list[SeatRow], actions: list[ActionRow]) -> str:
    """What the digest of a game with these rows must be."""
    d = setup_digest(row.game, row.players, row.seed, row.options, row.mode, seats)
    for a in actions:
        d = chain_digest(d, a)
    return d


# --- reading rows back -----------------------------------------------------------------

def _int(value: Any, what: str, game_id: str) -> int:
    """A stored integer column, or DamagedGame naming the game and the column."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit() and \
                len(value) < 20:
            return int(value)
        raise DamagedGame(f"stored game {game_id} is damaged: its {what} {value!r} is not "
                          "an integer")
    return value


def _game_row(r: Any) -> GameRow:
    """A games row (a driver tuple in column order) checked and decoded."""
    gid = str(r[0])
    options = r[4]
    if isinstance(options, str | bytes):
        try:
            options = json.loads(options)
        except (ValueError, RecursionError):
            raise DamagedGame(f"stored game {gid} is damaged: its options column is not "
                              f"JSON ({str(options)[:60]!r})") from None
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise DamagedGame(f"stored game {gid} is damaged: its options are not a JSON "
                          "object")
    seed = _int(r[3], "seed", gid)
    if not 0 <= seed <= MAX_SEED:
        raise DamagedGame(f"stored game {gid} is damaged: its seed {seed} is out of range")
    mode = r[9] if r[9] in MODES else "casual"
    return GameRow(gid, str(r[1]), _int(r[2], "player count", gid), seed, options,
                   _int(r[5], "version", gid), str(r[6]), float(r[7] or 0),
                   float(r[8] or 0), mode, r[10])


_GAME_COLUMNS = ("id, game, players, seed, options, version, status, created_at, "
                 "updated_at, mode, digest")


class Store:
    """The games of one database."""

    def __init__(self, url: str, busy_timeout: float = BUSY_TIMEOUT) -> None:
        """Connect (creating or upgrading the schema); SQLite files run in WAL mode."""
        self.url = normalise_url(url)
        self.busy_timeout = busy_timeout
        self.engine: Engine = create_engine(self.url, future=True)
        self.dialect = self.engine.dialect.name
        if self.dialect == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._local = threading.local()
        self._conns: list[Any] = []
        self._conns_lock = threading.Lock()
        self._closed = False
        self._active = 0  # queries under way (close() waits for them)
        self._active_cond = threading.Condition()
        # SQLite has one writer at a time: this process's writes are committed together
        # by one thread (one fsync for all the moves waiting), see GroupCommit
        self._group = GroupCommit(self) if self.dialect == "sqlite" else None
        self.writes_lock: int | None = None  # see share_writes
        with self._errors("open the database"):
            metadata.create_all(self.engine)
            self._migrate()
        self._sql_cache: dict[str, str] = {}

    def share_writes(self, lock_path: str) -> None:
        """Take turns to write with the other processes that name the same lock file
        (the workers of one server): each transaction holds an exclusive `flock` on it
        from BEGIN to COMMIT, so a waiting writer starts the moment the lock is free,
        where SQLite's own busy wait sleeps in steps of up to 100 ms."""
        if self.dialect == "sqlite":
            self.writes_lock = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)

    def close(self) -> None:
        """Refuse new work, wait (a bounded time) for the queries under way, then release
        every thread's connection — never one another thread is still using."""
        if self._group is not None:
            self._group.stop()
        with self._active_cond:
            self._closed = True
            self._active_cond.wait_for(lambda: self._active == 0,
                                       timeout=2 * self.busy_timeout + 5)
            busy = self._active > 0
            with self._conns_lock:
                conns, self._conns = self._conns, []
        if not busy:  # (else they go with the process: closing one in use would crash)
            for c in conns:
                with suppress(Exception):
                    c.close()
        self.engine.dispose()
        if self.writes_lock is not None:
            os.close(self.writes_lock)
            self.writes_lock = None

    @contextmanager
    def _using(self, doing: str) -> Iterator[Any]:
        """This thread's connection, counted as in use until the block ends."""
        with self._active_cond:
            if self._closed:
                raise StoreError(f"the server is shutting down: could not {doing}")
            self._active += 1
        try:
            yield self._conn()
        finally:
            with self._active_cond:
                self._active -= 1
                if self._active == 0:
                    self._active_cond.notify_all()

    def _migrate(self) -> None:
        """Add the columns a database made by an older kamon lacks."""
        have = {c["name"] for c in inspect(self.engine).get_columns("games")}
        adds = []
        if "mode" not in have:
            adds.append("ALTER TABLE games ADD COLUMN mode VARCHAR(8) NOT NULL DEFAULT "
                        "'casual'")
        if "digest" not in have:
            adds.append("ALTER TABLE games ADD COLUMN digest VARCHAR(64)")
        if adds:
            with self.engine.begin() as conn:
                for sql in adds:
                    conn.execute(text(sql))

    # --- connections and errors ---------------------------------------------------

    def _conn(self) -> Any:
        """This thread's driver connection (autocommit: transactions are explicit)."""
        c: Any = getattr(self._local, "conn", None)
        if c is None:
            if self._closed:
                raise StoreError("the server is shutting down")
            proxied = self.engine.raw_connection()
            c = proxied.driver_connection
            proxied.detach()  # ours for good: the pool does not reset or reuse it
            if self.dialect == "sqlite":
                c.isolation_level = None
                c.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            else:
                c.autocommit = True
                if self.dialect == "postgresql":
                    c.execute(f"SET lock_timeout = {int(self.busy_timeout * 1000)}")
            self._local.conn = c
            with self._conns_lock:
                self._conns.append(c)
        return c

    def _drop_conn(self) -> None:
        """Forget this thread's connection after a failure (the next call reconnects)."""
        c = getattr(self._local, "conn", None)
        self._local.conn = None
        if c is not None:
            with self._conns_lock:
                if c in self._conns:
                    self._conns.remove(c)
            with suppress(Exception):
                c.close()

    def _sql(self, sql: str) -> str:
        """A query written with `?` placeholders in the driver's own style."""
        if self.dialect == "sqlite":
            return sql
        out = self._sql_cache.get(sql)
        if out is None:
            out = self._sql_cache[sql] = sql.replace("?", "%s")
        return out

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """Turn a driver error into a StoreError that says what failed and why."""
        try:
            yield
        except (StoreError, VersionConflict, DamagedGame):
            raise
        except Exception as exc:
            err = classify(exc, doing)
            if err is None:
                raise
            if self.dialect != "sqlite":
                self._drop_conn()
            raise err from None

    def _query(self, sql: str, params: tuple[Any, ...], doing: str) -> list[Any]:
        """Run one read and fetch its rows."""
        with self._errors(doing), self._using(doing) as conn:
            cur = conn.cursor()
            try:
                cur.execute(self._sql(sql), params)
                return list(cur.fetchall())
            finally:
                cur.close()

    @contextmanager
    def _transaction(self, doing: str) -> Iterator[Any]:
        """A write transaction on this thread's connection (for PostgreSQL, which
        commits concurrent transactions together itself)."""
        with self._errors(doing), self._using(doing) as conn:
            cur = conn.cursor()
            cur.execute("BEGIN")
            try:
                yield cur
            except BaseException:
                with suppress(Exception):
                    cur.execute("ROLLBACK")
                raise
            else:
                cur.execute("COMMIT")
            finally:
                cur.close()

    def _write(self, fn: Callable[[Any], T], doing: str) -> T:
        """Run `fn(cursor)` in a committed write transaction; its result."""
        if self._group is not None:
            return self._group.run(fn, doing)
        with self._transaction(doing) as cur:
            return fn(cur)

    # --- writes -----------------------------------------------------------------

    def create_game(self, game_id: str, game: str, players: int, seed: int,
                    options: dict[str, Any], seats: list[SeatRow], mode: str = "casual",
                    extra: Callable[[Any], Any] | None = None) -> GameRow:
        """Store a new game at version 0 with its seats; its row as stored (the game()
        of it). `extra(cursor)` writes rows that belong with the game in the same
        transaction (or refuses it)."""
        now = time.time()
        opts = json.loads(json.dumps(options))
        digest = setup_digest(game, players, seed, opts, mode, seats)

        def insert(cur: Any) -> None:
            cur.execute(self._sql(
                f"INSERT INTO games ({_GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)"),
                (game_id, game, players, seed, json.dumps(opts), 0, "playing", now, now,
                 mode, digest))
            cur.executemany(self._sql(
                "INSERT INTO seats (game_id, seat, kind, level, token_hash) "
                "VALUES (?,?,?,?,?)"),
                [(game_id, s.seat, s.kind, s.level, s.token_hash) for s in seats])
            if extra is not None:
                extra(cur)

        self._write(insert, f"create game {game_id}")
        return GameRow(game_id, game, players, seed, opts, 0, "playing", now, now,
                       mode if mode in MODES else "casual", digest)

    def append(self, game_id: str, expected_version: int, kind: str, seat: int | None,
               action_id: int | None, notation: str | None, status: str) -> int:
        """Append one action row if the game is still at `expected_version`; the new
        version. VersionConflict (and nothing stored) otherwise."""
        return self._write(self._appender(game_id, expected_version, kind, seat,
                                          action_id, notation, status),
                           f"store a {kind} in game {game_id}")

    def append_many(self, appends: list[tuple[Any, ...]], deadlines: list[float] | None = None
                    ) -> list[int | BaseException]:
        """Several `append`s (their argument tuples) committed together where the database
        allows it (SQLite: one transaction, one fsync, each write in a savepoint so a
        refused one takes back only itself); for each, the new version or the exception
        (VersionConflict, StoreError) that refused it. `deadlines` (monotonic seconds):
        a write still waiting for the database past its own is refused as busy."""
        writes = [(self._appender(*a), f"store a {a[2]} in game {a[0]}") for a in appends]
        if self._group is not None:
            return self._group.run_many(writes, deadlines)
        out: list[int | BaseException] = []
        for fn, doing in writes:
            try:
                with self._transaction(doing) as cur:
                    out.append(fn(cur))
            except (StoreError, VersionConflict, DamagedGame) as exc:
                out.append(exc)
        return out

    def _appender(self, game_id: str, expected_version: int, kind: str, seat: int | None,
                  action_id: int | None, notation: str | None, status: str
                  ) -> Callable[[Any], int]:
        """The write (of a cursor in a transaction) that appends one action row."""
        now = time.time()
        lock = " FOR UPDATE" if self.dialect == "postgresql" else ""

        def insert(cur: Any) -> int:
            cur.execute(self._sql(f"SELECT version, digest FROM games WHERE id = ?{lock}"),
                        (game_id,))
            found = cur.fetchone()
            if found is None or found[0] != expected_version:
                raise VersionConflict(game_id)
            prev = found[1]
            row = ActionRow(expected_version, kind, seat, action_id, notation)
            digest = None if prev is None else chain_digest(prev, row)
            cur.execute(self._sql(
                "UPDATE games SET version = ?, status = ?, updated_at = ?, digest = ? "
                "WHERE id = ? AND version = ?"),
                (expected_version + 1, status, now, digest, game_id, expected_version))
            if cur.rowcount != 1:
                raise VersionConflict(game_id)
            cur.execute(self._sql(
                "INSERT INTO actions (game_id, idx, kind, seat, action_id, notation, "
                "created_at) VALUES (?,?,?,?,?,?,?)"),
                (game_id, expected_version, kind, seat, action_id, notation, now))
            return expected_version + 1

        return insert

    def seal(self, game_id: str, version: int, digest: str) -> None:
        """Store the digest of a game an older kamon stored without one (only if it is
        still at `version` and still has none)."""
        def update(cur: Any) -> None:
            cur.execute(self._sql("UPDATE games SET digest = ? WHERE id = ? AND version = ? "
                                  "AND digest IS NULL"), (digest, game_id, version))

        self._write(update, f"seal game {game_id}")

    # --- reads ------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        """The game's row, or None; DamagedGame if a column cannot be read back."""
        rows = self._query(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,),
                           f"read game {game_id}")
        return _game_row(rows[0]) if rows else None

    def version(self, game_id: str) -> int | None:
        """The game's current version (cheap: one column), or None if there is no game."""
        rows = self._query("SELECT version FROM games WHERE id = ?", (game_id,),
                           f"read game {game_id}")
        return None if not rows else _int(rows[0][0], "version", game_id)

    def versions(self, game_ids: list[str]) -> dict[str, int]:
        """The current versions of several games (those that exist and read back)."""
        out: dict[str, int] = {}
        for i in range(0, len(game_ids), 500):
            chunk = game_ids[i:i + 500]
            marks = ",".join("?" * len(chunk))
            for gid, v in self._query(f"SELECT id, version FROM games WHERE id IN ({marks})",
                                      tuple(chunk), "read game versions"):
                if isinstance(v, int) and not isinstance(v, bool):
                    out[str(gid)] = v
        return out

    def seats(self, game_id: str) -> list[SeatRow]:
        """The game's seats in seat order."""
        rows = self._query("SELECT seat, kind, level, token_hash FROM seats "
                           "WHERE game_id = ? ORDER BY seat", (game_id,),
                           f"read the seats of game {game_id}")
        return [SeatRow(_int(r[0], "seat number", game_id), str(r[1]), r[2], r[3])
                for r in rows]

    def actions(self, game_id: str, upto: int | None = None) -> list[ActionRow]:
        """The game's action rows in order (the first `upto` of them)."""
        sql = "SELECT idx, kind, seat, action_id, notation FROM actions WHERE game_id = ?"
        params: tuple[Any, ...] = (game_id,)
        if upto is not None:
            sql += " AND idx < ?"
            params = (game_id, upto)
        rows = self._query(sql + " ORDER BY idx", params,
                           f"read the moves of game {game_id}")
        return [ActionRow(_int(r[0], "action index", game_id), str(r[1]), r[2], r[3], r[4])
                for r in rows]

    def action_at(self, game_id: str, idx: int) -> ActionRow | None:
        """The action row stored at index `idx` (the move that made version idx + 1)."""
        rows = self._query("SELECT idx, kind, seat, action_id, notation FROM actions "
                           "WHERE game_id = ? AND idx = ?", (game_id, idx),
                           f"read a move of game {game_id}")
        if not rows:
            return None
        r = rows[0]
        return ActionRow(_int(r[0], "action index", game_id), str(r[1]), r[2], r[3], r[4])

    def games_by_status(self, status: str) -> list[str]:
        """Ids of the games with this status (e.g. the unfinished ones at start-up)."""
        return [str(r[0]) for r in self._query("SELECT id FROM games WHERE status = ?",
                                               (status,), "list the games")]

    def count_games(self) -> int:
        """How many games are stored."""
        return int(self._query("SELECT count(*) FROM games", (), "count the games")[0][0])


class _Done:
    """A one-shot signal on a plain lock (held until set): what threading.Event does,
    without its Python-level Condition (every write waits on one)."""

    __slots__ = ("lock", "flag")

    def __init__(self) -> None:
        """Not set."""
        self.lock = threading.Lock()
        self.lock.acquire()
        self.flag = False

    def set(self) -> None:
        """Wake the waiter (only the group's leader sets it; a second set does nothing)."""
        if not self.flag:
            self.flag = True
            self.lock.release()

    def wait(self) -> None:
        """Block until set."""
        with self.lock:
            pass


class _Write:
    """One write waiting for the group commit."""

    __slots__ = ("fn", "doing", "deadline", "done", "result", "error")

    def __init__(self, fn: Callable[[Any], Any], doing: str, deadline: float) -> None:
        """A write to run before `deadline` (monotonic seconds)."""
        self.fn = fn
        self.doing = doing
        self.deadline = deadline
        self.done = _Done()
        self.result: Any = None
        self.error: BaseException | None = None


class GroupCommit:
    """SQLite's writes from every thread, committed together: the writes waiting when a
    transaction starts go into it, each in a savepoint when there are several (a refused
    write takes back only itself), and one COMMIT (one fsync) makes them all durable before any of them is
    answered. The first writer to find no commit running commits (its own write and any
    that arrive meanwhile) until none is left; the others wait for theirs. A write still
    waiting when its turn would come past the busy timeout is refused as busy, so no
    write waits much longer than that."""

    def __init__(self, store: Store) -> None:
        """Writes for `store`."""
        self.store = store
        self.queue: deque[_Write] = deque()
        self.lock = threading.Lock()
        self.committing = False
        self.stopped = False

    def run(self, fn: Callable[[Any], T], doing: str) -> T:
        """Run `fn(cursor)` in the next group; its result once committed."""
        item = self._enter([(fn, doing)], None)[0]
        if item.error is not None:
            raise item.error
        return item.result

    def run_many(self, writes: list[tuple[Callable[[Any], Any], str]],
                 deadlines: list[float] | None = None) -> list[Any]:
        """Run several writes in the next group(s); for each, its result once committed
        or the exception that refused it."""
        if not writes:
            return []
        return [item.result if item.error is None else item.error
                for item in self._enter(writes, deadlines)]

    def _enter(self, writes: list[tuple[Callable[[Any], Any], str]],
               deadlines: list[float] | None) -> list[_Write]:
        """Queue the writes, commit (as the leader) or wait for the leader; the items
        once each has its result or error."""
        limit = time.monotonic() + self.store.busy_timeout
        items = [_Write(fn, doing, limit if deadlines is None else min(limit, deadlines[i]))
                 for i, (fn, doing) in enumerate(writes)]
        with self.lock:
            if self.stopped:
                raise StoreError(f"the server is shutting down: could not {writes[0][1]}")
            self.queue.extend(items)
            lead = not self.committing
            self.committing = True
        if lead:
            try:
                self._lead()
            except BaseException as exc:  # never leave the others waiting for a leader
                self._abandon(exc)
                raise
        for item in items:
            item.done.wait()
        return items

    def stop(self) -> None:
        """Refuse new writes (those already waiting are committed by their leader)."""
        with self.lock:
            self.stopped = True

    def _lead(self) -> None:
        """Commit groups until no write is waiting."""
        while True:
            with self.lock:
                if not self.queue:
                    self.committing = False
                    return
                batch = [self.queue.popleft()
                         for _ in range(min(GROUP_MAX, len(self.queue)))]
            now = time.monotonic()
            live = []
            for item in batch:
                if now > item.deadline:
                    item.error = StoreError(f"the database is busy (writes are waiting for "
                                            f"it): could not {item.doing}; retry in a "
                                            "moment", 503, retry_after=1)
                    item.done.set()
                else:
                    live.append(item)
            if live:
                self._commit(live)

    def _abandon(self, exc: BaseException) -> None:
        """The leader failed outside a transaction: refuse what waits, let a new leader
        come."""
        with self.lock:
            waiting = list(self.queue)
            self.queue.clear()
            self.committing = False
        for item in waiting:
            item.error = StoreError(f"the database writer failed: could not {item.doing} "
                                    f"({type(exc).__name__})")
            item.done.set()

    def _commit(self, items: list[_Write]) -> None:
        """One transaction for the items; each item's result or error is set."""
        with ExitStack() as using:
            try:
                conn = using.enter_context(self.store._using("store the writes"))
            except StoreError:
                for item in items:
                    item.error = StoreError(f"the server is shutting down: could not "
                                            f"{item.doing}")
                    item.done.set()
                return
            self._transaction(conn, items)

    def _transaction(self, conn: Any, items: list[_Write]) -> None:
        """Run the items in one transaction on `conn`."""
        cur = None
        shared = self.store.writes_lock
        try:
            if shared is not None:
                fcntl.flock(shared, fcntl.LOCK_EX)
            cur = conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            alone = len(items) == 1  # no savepoint: a refused write rolls back all there is
            for item in items:
                if not alone:
                    cur.execute("SAVEPOINT w")
                try:
                    item.result = item.fn(cur)
                    if not alone:
                        cur.execute("RELEASE w")
                except Exception as exc:
                    if not alone:
                        cur.execute("ROLLBACK TO w")
                        cur.execute("RELEASE w")
                    item.error = exc if isinstance(exc, VersionConflict | DamagedGame) else \
                        (classify(exc, item.doing) or exc)
            cur.execute("ROLLBACK" if alone and items[0].error is not None else "COMMIT")
        except Exception as exc:
            if cur is not None:
                with suppress(Exception):
                    cur.execute("ROLLBACK")
            for item in items:
                item.result = None
                if item.error is None:
                    item.error = classify(exc, item.doing) or StoreError(
                        f"the database failed: could not {item.doing} ({exc})")
        finally:
            if cur is not None:
                with suppress(Exception):
                    cur.close()
            if shared is not None:
                with suppress(OSError):
                    fcntl.flock(shared, fcntl.LOCK_UN)
            for item in items:
                item.done.set()


def classify(exc: BaseException, doing: str) -> StoreError | None:
    """The StoreError a driver error means (None: not a database error)."""
    name = type(exc).__name__
    module = type(exc).__module__ or ""
    if not (module.startswith(("sqlite3", "psycopg", "sqlalchemy"))
            or name in ("OperationalError", "DatabaseError", "IntegrityError")):
        return None
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else name
    low = msg.lower()
    if "locked" in low or "busy" in low or "lock timeout" in low or \
            "lock_timeout" in low or name in ("LockNotAvailable", "QueryCanceled",
                                             "SerializationFailure", "DeadlockDetected"):
        return StoreError(f"the database is busy (another process holds it): could not "
                          f"{doing}; retry in a moment", 503, retry_after=1)
    if "readonly" in low or "read-only" in low or "read only" in low:
        return StoreError(f"the database is read-only: could not {doing} ({msg})", 503)
    if "malformed" in low or "not a database" in low:
        return StoreError(f"the database file is damaged: could not {doing} ({msg})", 500)
    if name == "IntegrityError":
        return StoreError(f"the database refused the write: could not {doing} ({msg})", 500)
    return StoreError(f"the database failed: could not {doing} ({msg})", 503, retry_after=5)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL (readers never wait for the writer), foreign keys, and waiting on a busy file
    (briefly: a write that cannot get the lock is answered 503 with a retry hint)."""
    cur = dbapi_conn.cursor()
    with suppress(Exception):  # a read-only file keeps the journal it has
        cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")  # a commit is on disk before it is answered
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")
    cur.close()
