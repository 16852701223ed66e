"""The game store: one row per game, one append-only row per action (SQLite or
PostgreSQL), and the versioned append that is the one guard against double moves
(docs/server.md, "The store"). SQLAlchemy makes and migrates the schema; the queries go
straight to the driver, one connection per thread; driver errors become StoreErrors (refusals,
like any ServiceError) that say what failed and whether a retry may help.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    inspect,
    text,
)
from sqlalchemy.engine import Engine

from kamon.core.record import MAX_SEED
from kamon.server import metrics
from kamon.server.errors import ServiceError

metadata = MetaData()
NAME_MAX = 24  # the longest display name of a player, in characters

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
    Column("to_move", Integer),  # the seat that must decide now (NULL: none, or unknown)
    # the address of the client that created it (whose budget its bots think on; admin)
    Column("creator", String(64)),
    Index("ix_games_creator", "creator", "status"),
)

seats_table = Table(
    "seats", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "human" or "bot"
    Column("level", String(16)),  # a bot's level
    Column("token_hash", String(64)),  # sha256 of a human seat's token
    # the player's display name, set once when the seat is taken (NULL: none given);
    # outside the digest: a name is no part of the game's record
    Column("player_name", String(NAME_MAX)),
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

open_seats_table = Table(  # the free seats of public games (open_games.py)
    "open_seats", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token", String(64)),  # the seat's token while the seat is free, then NULL
    Column("created_at", Float, nullable=False),
    Column("taken_at", Float),
)

rematches_table = Table(  # a finished game's one rematch (rematch.py)
    "rematches", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("rematch_id", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
)

rematch_claims_table = Table(  # a rematch's seats' own tokens, each handed to whoever
    "rematch_claims", metadata,   # holds that seat's token of the finished game (rematch.py)
    Column("game_id", String(32), primary_key=True),  # the rematch
    Column("seat", Integer, primary_key=True),
    Column("token", String(64), nullable=False),
)

reviews_table = Table(  # post-game reviews, computed once per seat (reviews.py)
    "reviews", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("status", String(8), nullable=False),  # "running", "done" or "failed"
    Column("done", Integer, nullable=False),  # decisions judged so far
    Column("total", Integer, nullable=False),  # decisions to judge
    Column("result", Text),  # the review as JSON, once done (or the failure in words)
    Column("client", String(64)),  # who asked (one review at a time per client)
    Column("updated_at", Float, nullable=False),
)

bans_table = Table(  # addresses refused by the operator (kamon admin ban; admin.py)
    "bans", metadata,
    Column("address", String(64), primary_key=True),  # an address or a network (CIDR)
    Column("until", Float),  # when the ban ends (time.time()); NULL: until unbanned
    Column("reason", String(200)),
    Column("created_at", Float, nullable=False),
)

admin_log_table = Table(  # what the operator did (kamon admin), read by every process
    "admin_log", metadata,  # each second: a game ended or revoked is read again, a ban
    Column("id", Integer, primary_key=True, autoincrement=True),  # holds (admin.py)
    Column("at", Float, nullable=False),
    Column("action", String(16), nullable=False),  # end, delete, revoke, ban, unban, prune
    Column("target", String(64)),  # a game id or an address
    Column("detail", String(200)),
)

T = TypeVar("T")
ENDED = "ended"  # the status of a game the operator ended (kamon admin end): no more moves
MODES = ("practice", "casual", "rated")
BUSY_TIMEOUT = 2.0  # seconds a write waits for a database another process has locked
log = logging.getLogger("kamon.server")
# PostgreSQL only: one row per client address, its write rate limit's state, shared by
# every process (limits.SharedRateLimiter); UNLOGGED: it need not survive a crash.
RATE_LIMITS_DDL = ("CREATE UNLOGGED TABLE IF NOT EXISTS rate_limits "
                   "(client VARCHAR(64) PRIMARY KEY, tat DOUBLE PRECISION NOT NULL)")
SCHEMA_LOCK = 0x6B616D6F6E  # the advisory lock held while the schema is made ("kamon")
CHANNEL = "kamon"  # PostgreSQL's notification channel: "<game id> <version>"


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
    player: str | None = None  # the display name (never in the digest)


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
    creator: str | None = None  # the creating client's address


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


class StoreError(ServiceError):
    """The database could not do what was asked (busy, read-only, unreachable, damaged):
    a refusal like any other, with a retry hint when waiting may help."""


class DamagedGame(ServiceError):
    """A stored game's rows cannot be read back as a game (the message says which)."""

    def __init__(self, message: str) -> None:
        """A 500 that names the game and the damage."""
        super().__init__(500, message)


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
    postgresql:// uses the psycopg (3) driver.

    >>> normalise_url("kamon.db"), normalise_url("postgresql://u@h/db")
    ('sqlite:///kamon.db', 'postgresql+psycopg://u@h/db')
    """
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
                   float(r[8] or 0), mode, r[10], r[11])


def _action_row(r: Any, game_id: str) -> ActionRow:
    """An actions row (idx, kind, seat, action_id, notation) decoded."""
    return ActionRow(_int(r[0], "action index", game_id), str(r[1]), r[2], r[3], r[4])


_GAME_COLUMNS = ("id, game, players, seed, options, version, status, created_at, "
                 "updated_at, mode, digest, creator")
_ACTION_COLUMNS = "idx, kind, seat, action_id, notation"
# The versioned append: the game row moves on only from the version (and digest) the
# action was checked against; on PostgreSQL the row, the action and the notification
# are one statement.
_UPDATE = ("UPDATE games SET version = ?, status = ?, updated_at = ?, digest = ?, "
           "to_move = ? WHERE id = ? AND version = ? AND digest IS NOT DISTINCT FROM ? "
           f"AND status <> '{ENDED}'")
_INSERT = f"INSERT INTO actions (game_id, {_ACTION_COLUMNS}, created_at)"
_APPEND_PG = (f"WITH g AS ({_UPDATE} RETURNING id), a AS ({_INSERT} SELECT g.id, ?, ?, ?, "
              "?, ?, ? FROM g RETURNING idx) SELECT pg_notify(?, ?) FROM a"
              ).replace("?", "%s")


@dataclass
class Transaction:
    """A write transaction under way on one thread: its cursor, and what to do once it
    is committed (dropped if it is not)."""

    cursor: Any
    on_commit: list[Callable[[], None]] = field(default_factory=list)


class Store:
    """The games of one database."""

    def __init__(self, url: str, busy_timeout: float = BUSY_TIMEOUT) -> None:
        """Connect (creating or upgrading the schema); SQLite files run in WAL mode."""
        self.url = normalise_url(url)
        self.busy_timeout = busy_timeout
        self.engine: Engine = create_engine(self.url, future=True)
        self.dialect = self.engine.dialect.name
        if self.dialect not in ("sqlite", "postgresql"):
            raise ValueError(f"kamon stores games in SQLite or PostgreSQL, not {self.dialect}")
        if self.dialect == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._local = threading.local()
        self._conns: list[Any] = []
        self._conns_lock = threading.Lock()
        with self._errors("open the database"):
            if self.dialect == "sqlite":  # once per file (it stays so): not per connection
                with suppress(Exception), self.engine.connect() as conn:  # (read-only: as is)
                    conn.exec_driver_sql("PRAGMA journal_mode=WAL")
            with self.engine.begin() as conn:
                if self.dialect == "postgresql":
                    # Servers started together on an empty database: one makes the
                    # schema, the others wait for its commit and then find it made (without
                    # the lock, two CREATE TABLEs raced on PostgreSQL's catalogue).
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                 {"key": SCHEMA_LOCK})
                metadata.create_all(conn)
                self._migrate(conn)

    def close(self) -> None:
        """Release every thread's connection (the server calls this once its threads
        have ended)."""
        with self._conns_lock:
            conns, self._conns = self._conns, []
        for c in conns:
            with suppress(Exception):
                c.close()
        self.engine.dispose()

    def _migrate(self, conn: Any) -> None:
        """Add the columns a database made by an older kamon lacks (on `conn`, inside the
        transaction that holds the schema lock)."""
        have = {c["name"] for c in inspect(conn).get_columns("games")}
        adds = []
        if "mode" not in have:
            adds.append("ALTER TABLE games ADD COLUMN mode VARCHAR(8) NOT NULL DEFAULT "
                        "'casual'")
        if "digest" not in have:
            adds.append("ALTER TABLE games ADD COLUMN digest VARCHAR(64)")
        if "to_move" not in have:
            adds.append("ALTER TABLE games ADD COLUMN to_move INTEGER")
        if "creator" not in have:
            adds.append("ALTER TABLE games ADD COLUMN creator VARCHAR(64)")
            adds.append("CREATE INDEX ix_games_creator ON games (creator, status)")
        if "player_name" not in {c["name"] for c in inspect(conn).get_columns("seats")}:
            adds.append(f"ALTER TABLE seats ADD COLUMN player_name VARCHAR({NAME_MAX})")
        if self.dialect == "postgresql":  # the write counts every process shares
            adds.append(RATE_LIMITS_DDL)    # (limits.SharedRateLimiter)
        for sql in adds:
            conn.execute(text(sql))

    # --- connections and errors ---------------------------------------------------

    def connect(self) -> Any:
        """A driver connection of the caller's own (autocommit: transactions are
        explicit), to keep and to close."""
        proxied = self.engine.raw_connection()
        c: Any = proxied.driver_connection
        proxied.detach()  # ours for good: the pool does not reset or reuse it
        if self.dialect == "sqlite":
            c.isolation_level = None
            c.execute(f"PRAGMA busy_timeout={_ms(self.busy_timeout)}")
        else:  # PostgreSQL
            c.autocommit = True
            c.execute(f"SET lock_timeout = {_ms(self.busy_timeout)}")
        return c

    def _conn(self) -> Any:
        """This thread's driver connection."""
        c: Any = getattr(self._local, "conn", None)
        if c is None:
            c = self._local.conn = self.connect()
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

    def sql(self, sql: str) -> str:
        """A query written with `?` placeholders in the driver's own style."""
        return sql if self.dialect == "sqlite" else sql.replace("?", "%s")

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """Turn a driver error into a StoreError that says what failed and why (and, on
        a database server, reconnect next time — unless a transaction is under way)."""
        try:
            yield
        except (ServiceError, VersionConflict):
            raise
        except Exception as exc:
            err = classify(exc, doing)
            if err is None:
                raise
            metrics.store_error(err)
            if self.dialect != "sqlite" and self.in_transaction() is None:
                self._drop_conn()
            raise err from None

    def execute(self, sql: str, params: Any, doing: str) -> int:
        """Run one write statement on its own (committed at once); the rows it changed."""
        with self._errors(doing):
            cur = self._conn().cursor()
            try:
                cur.execute(self.sql(sql), params)
                return int(cur.rowcount)
            finally:
                cur.close()

    def query(self, sql: str, params: Any, doing: str) -> list[Any]:
        """Run one read and fetch its rows."""
        with self._errors(doing):
            cur = self._conn().cursor()
            try:
                cur.execute(self.sql(sql), params)
                return list(cur.fetchall())
            finally:
                cur.close()

    # --- transactions -------------------------------------------------------------

    def in_transaction(self) -> Transaction | None:
        """The write transaction this thread has under way, if any."""
        tx: Transaction | None = getattr(self._local, "tx", None)
        return tx

    @contextmanager
    def transaction(self, doing: str, wait: float | None = None) -> Iterator[Transaction]:
        """A write transaction on this thread's connection, committed when the block
        ends (rolled back if it raises); its `on_commit` actions run after the commit.
        SQLite's takes the write lock at once. It waits for a lock another process holds
        up to the busy timeout, or `wait` seconds if that is less (the batch writer's
        writes have waited already: with the full timeout, a write queued behind one
        that met a locked database waited nearly twice the timeout for its 503)."""
        shorter = wait is not None and wait < self.busy_timeout
        with self._errors(doing):
            tx = Transaction(self._conn().cursor())
            self._local.tx = tx
            try:
                if self.dialect == "sqlite":
                    if shorter:
                        tx.cursor.execute(f"PRAGMA busy_timeout={_ms(wait)}")
                    try:
                        tx.cursor.execute("BEGIN IMMEDIATE")
                    finally:
                        if shorter:
                            tx.cursor.execute(f"PRAGMA busy_timeout={_ms(self.busy_timeout)}")
                else:
                    tx.cursor.execute("BEGIN")
                    if shorter and self.dialect == "postgresql":
                        tx.cursor.execute(f"SET LOCAL lock_timeout = {_ms(wait)}")
                yield tx
                tx.cursor.execute("COMMIT")
            except BaseException:
                with suppress(Exception):
                    tx.cursor.execute("ROLLBACK")
                raise
            finally:
                self._local.tx = None
                tx.cursor.close()
        for action in tx.on_commit:
            action()

    def attempt(self, tx: Transaction, fn: Callable[[], T], doing: str) -> T:
        """Run `fn` inside `tx` in a savepoint: if it raises, only what it wrote (and its
        `on_commit` actions) is taken back, and the transaction goes on."""
        mark = len(tx.on_commit)
        tx.cursor.execute("SAVEPOINT attempt")
        try:
            with self._errors(doing):
                result = fn()
        except BaseException:
            tx.cursor.execute("ROLLBACK TO SAVEPOINT attempt")
            tx.cursor.execute("RELEASE SAVEPOINT attempt")
            del tx.on_commit[mark:]
            raise
        tx.cursor.execute("RELEASE SAVEPOINT attempt")
        return result

    def write(self, fn: Callable[[Any], T], doing: str) -> T:
        """Run `fn(cursor)` in a committed transaction (in a savepoint of the one this
        thread has under way, if any: the batch writer's); its result."""
        tx = self.in_transaction()
        if tx is not None:
            return self.attempt(tx, functools.partial(fn, tx.cursor), doing)
        with self.transaction(doing) as tx:
            return fn(tx.cursor)

    def on_commit(self, action: Callable[[], None]) -> None:
        """Do `action` once this thread's transaction is committed (at once if none is
        under way); never if it is rolled back."""
        tx = self.in_transaction()
        if tx is None:
            action()
        else:
            tx.on_commit.append(action)

    # --- writes -----------------------------------------------------------------

    def create_game(self, game_id: str, game: str, players: int, seed: int,
                    options: dict[str, Any], seats: list[SeatRow], mode: str = "casual",
                    extra: Callable[[Any], Any] | None = None, to_move: int | None = None,
                    creator: str | None = None) -> GameRow:
        """Store a new game at version 0 with its seats; its row as stored (the game()
        of it). `extra(cursor)` writes rows that belong with the game in the same
        transaction (or refuses it); `creator`: the creating client's address."""
        now = time.time()
        opts = json.loads(json.dumps(options))
        digest = setup_digest(game, players, seed, opts, mode, seats)

        def insert(cur: Any) -> None:
            cur.execute(self.sql(
                f"INSERT INTO games ({_GAME_COLUMNS}, to_move) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"),
                (game_id, game, players, seed, json.dumps(opts), 0, "playing", now, now,
                 mode, digest, creator, to_move))
            cur.executemany(self.sql(
                "INSERT INTO seats (game_id, seat, kind, level, token_hash, player_name) "
                "VALUES (?,?,?,?,?,?)"),
                [(game_id, s.seat, s.kind, s.level, s.token_hash, s.player) for s in seats])
            if extra is not None:
                extra(cur)

        self.write(insert, f"create game {game_id}")
        return GameRow(game_id, game, players, seed, opts, 0, "playing", now, now,
                       mode if mode in MODES else "casual", digest, creator)

    def bot_only_games(self, creator: str) -> int:
        """How many unfinished games of bots only `creator` made (inside the creating
        transaction: on PostgreSQL a lock on the creator holds other processes' creates
        of that client until it commits, so two at once cannot both pass the count)."""
        if self.dialect == "postgresql":
            key = int.from_bytes(hashlib.sha256(f"creator {creator}".encode()).digest()[:8],
                                 "big", signed=True)
            self.query("SELECT pg_advisory_xact_lock(?)", (key,), "count a client's games")
        rows = self.query(
            "SELECT count(*) FROM games g WHERE g.creator = ? AND g.status = 'playing' AND "
            "NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.kind = 'human')",
            (creator,), "count a client's games")
        return int(rows[0][0])

    def append(self, game_id: str, expected: tuple[int, str | None], kind: str,
               seat: int | None, action_id: int | None, notation: str | None, status: str,
               to_move: int | None = None) -> tuple[int, str | None]:
        """Append one action row if the game is still at the `expected` version and
        digest (those the caller checked the action against): the new version and
        digest. VersionConflict (and nothing stored) otherwise.

        One statement on PostgreSQL (the update, the insert and the notification in a
        CTE) instead of four: psycopg's work per statement was the largest part of the
        server's CPU per move there (measured, 10 busy games on one process: 0.87 ->
        0.69 ms of CPU a move, 778 -> ~1,010 moves/s; bench/bench_load.py --store
        postgresql)."""
        version, prev = expected
        now = time.time()
        row = ActionRow(version, kind, seat, action_id, notation)
        digest = None if prev is None else chain_digest(prev, row)
        game_params = (version + 1, status, now, digest, to_move, game_id, version, prev)
        row_params = (game_id, version, kind, seat, action_id, notation, now)

        def store(cur: Any) -> tuple[int, str | None]:
            if self.dialect == "postgresql":
                cur.execute(_APPEND_PG, (*game_params, *row_params[1:], CHANNEL,
                                         f"{game_id} {version + 1}"))
                if cur.fetchone() is None:
                    raise VersionConflict(game_id)
                return version + 1, digest
            cur.execute(self.sql(_UPDATE.replace("IS NOT DISTINCT FROM", "IS")), game_params)
            if cur.rowcount != 1:
                raise VersionConflict(game_id)
            cur.execute(self.sql(_INSERT + " VALUES (?,?,?,?,?,?,?)"), row_params)
            return version + 1, digest

        return self.write(store, f"store a {kind} in game {game_id}")

    def notify(self, cur: Any, message: str) -> None:
        """Tell every server process sharing a PostgreSQL database `message` when this
        transaction commits (nothing on SQLite, which one process serves)."""
        if self.dialect == "postgresql":
            cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, message))

    def name_seat(self, game_id: str, seat: int, name: str) -> bool:
        """Give a seat its player's name if it has none yet (a name is set once, when
        the seat is taken, so the count of named seats tells a reader of a cached game
        that a name came since: `head_named`); whether it was set now."""
        def update(cur: Any) -> bool:
            cur.execute(self.sql("UPDATE seats SET player_name = ? WHERE game_id = ? AND "
                                 "seat = ? AND player_name IS NULL"), (name, game_id, seat))
            named = bool(cur.rowcount == 1)
            if named:  # no new version: the other processes' pages hear of it this way
                self.notify(cur, f"{game_id} named")
            return named

        return self.write(update, f"name seat {seat + 1} of game {game_id}")

    def seal(self, game_id: str, version: int, digest: str) -> None:
        """Store the digest of a game an older kamon stored without one (only if it is
        still at `version` and still has none)."""
        def update(cur: Any) -> None:
            cur.execute(self.sql("UPDATE games SET digest = ? WHERE id = ? AND version = ? "
                                 "AND digest IS NULL"), (digest, game_id, version))

        self.write(update, f"seal game {game_id}")

    # --- reads ------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        """The game's row, or None; DamagedGame if a column cannot be read back."""
        rows = self.query(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,),
                          f"read game {game_id}")
        return _game_row(rows[0]) if rows else None

    def head(self, game_id: str) -> tuple[int, str | None] | None:
        """The game's current version and digest (cheap: two columns), or None if there
        is no game."""
        rows = self.query("SELECT version, digest FROM games WHERE id = ?", (game_id,),
                          f"read game {game_id}")
        return None if not rows else (_int(rows[0][0], "version", game_id), rows[0][1])

    def head_named(self, game_id: str) -> tuple[int, str | None, int] | None:
        """The game's version and digest, and how many of its seats have a player's
        name (a name comes without a new version: a cached game whose count differs is
        read again); None if there is no game."""
        rows = self.query("SELECT g.version, g.digest, (SELECT count(s.player_name) FROM "
                          "seats s WHERE s.game_id = g.id) FROM games g WHERE g.id = ?",
                          (game_id,), f"read game {game_id}")
        if not rows:
            return None
        return _int(rows[0][0], "version", game_id), rows[0][1], int(rows[0][2] or 0)

    def seats(self, game_id: str) -> list[SeatRow]:
        """The game's seats in seat order."""
        rows = self.query("SELECT seat, kind, level, token_hash, player_name FROM seats "
                          "WHERE game_id = ? ORDER BY seat", (game_id,),
                          f"read the seats of game {game_id}")
        return [SeatRow(_int(r[0], "seat number", game_id), str(r[1]), r[2], r[3],
                        r[4] if isinstance(r[4], str) else None) for r in rows]

    def actions(self, game_id: str, since: int = 0, upto: int | None = None
                ) -> list[ActionRow]:
        """The game's action rows in order, from index `since` (up to `upto`)."""
        sql = f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? AND idx >= ?"
        params: tuple[Any, ...] = (game_id, since)
        if upto is not None:
            sql += " AND idx < ?"
            params = (game_id, since, upto)
        rows = self.query(sql + " ORDER BY idx", params, f"read the moves of game {game_id}")
        return [_action_row(r, game_id) for r in rows]

    def bots_waiting(self, idle_since: float) -> list[str]:
        """Ids of the unfinished games a bot is to move in (or whose seat to move an
        older kamon did not store), unchanged since `idle_since` (a time.time())."""
        rows = self.query(
            "SELECT g.id FROM games g LEFT JOIN seats s ON s.game_id = g.id AND "
            "s.seat = g.to_move WHERE g.status = 'playing' AND g.updated_at <= ? AND "
            "(g.to_move IS NULL OR s.kind = 'bot')", (idle_since,), "list the bots' games")
        return [str(r[0]) for r in rows]

    def count_games(self) -> int:
        """How many games are stored."""
        return int(self.query("SELECT count(*) FROM games", (), "count the games")[0][0])


def classify(exc: BaseException, doing: str) -> StoreError | None:
    """The StoreError a driver error means (None: not a database error). What the client
    is told says what failed and whether to retry, never the driver's own words (they
    name hosts, ports, users and files): those go to the server's log."""
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
        return StoreError(503, f"the database is busy (another process holds it): could "
                               f"not {doing}; retry in a moment", retry_after=1)
    log.warning("database error: could not %s: %s: %s", doing, name, msg)
    if "readonly" in low or "read-only" in low or "read only" in low:
        return StoreError(503, f"the database is read-only: could not {doing} (the "
                               "server's log says more)")
    if "malformed" in low or "not a database" in low:
        return StoreError(500, f"the database file is damaged: could not {doing} (the "
                               "server's log says more)")
    if name == "IntegrityError":
        return StoreError(500, f"the database refused the write: could not {doing} (the "
                               "server's log says more)")
    return StoreError(503, f"the database cannot be reached or failed: could not {doing}; "
                           "retry in a moment", retry_after=5)


def _ms(seconds: float | None) -> int:
    """Seconds as whole milliseconds of a database timeout (at least 1)."""
    return max(1, int(1000 * (seconds or 0)))


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """Durable commits, foreign keys, and waiting on a busy file (briefly: a write that
    cannot get the lock is answered 503 with a retry hint). The journal mode (WAL:
    readers never wait for the writer) is set once, when the store opens the file (it
    stays set in the file)."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA synchronous=FULL")  # a commit is on disk before it is answered
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={_ms(BUSY_TIMEOUT)}")
    cur.close()
