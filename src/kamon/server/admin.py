"""The operator's operations over a store (`kamon admin`, docs/operating.md): list, end
and delete games, revoke a seat's token, ban addresses, prune old games, back up and
restore — on the database the servers use, while they run. And `Watch`, each server
process's view of what the operator did: the bans (checked on every request and socket
from memory) and the games to read again (ended or revoked), refreshed every second
from the `admin_log` table.

Every change is one transaction that also appends its line to `admin_log`. A change to
a game that keeps its version (end, revoke) is guarded like a move (the game's row must
still be at the version and digest it was read at), so a move stored meanwhile is never
lost and a write checked against the game before the change is refused.
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import logging
import os
import re
import secrets
import shutil
import sqlite3
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kamon.core.errors import KamonError
from kamon.server.errors import ServiceError
from kamon.server.store import (
    ENDED,
    SeatRow,
    Store,
    digest_of,
    normalise_url,
    token_hash,
)

log = logging.getLogger("kamon.server")
DAY = 86400.0
ABANDONED_DAYS = 7.0  # an unfinished game unchanged this long is abandoned (by default)
WATCH_SECONDS = 1.0  # how often a server process reads the operator's log
BANS_SECONDS = 30.0  # ... and the bans again in any case (expiries, a missed line)
PRUNE_CHUNK = 200  # games deleted per transaction by prune
STATUSES = ("live", "finished", "abandoned", "ended")
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # (as the server's: service.GAME_ID)


class AdminError(KamonError):
    """An operation refused (the message says why); nothing was changed."""


# --- listing --------------------------------------------------------------------------

@dataclass(frozen=True)
class GameInfo:
    """One game as the operator sees it."""

    id: str
    game: str
    players: int
    seats: list[str]  # 'human' or the bot's level, in seat order
    version: int
    status: str  # playing, over or ended (as stored)
    mode: str
    created_at: float
    updated_at: float

    @property
    def bot_only(self) -> bool:
        """No human seat."""
        return "human" not in self.seats

    def state(self, idle_days: float = ABANDONED_DAYS, now: float | None = None) -> str:
        """live, abandoned (unfinished, unchanged for `idle_days`), finished or ended."""
        if self.status == ENDED:
            return "ended"
        if self.status != "playing":
            return "finished"
        idle = (now or time.time()) - self.updated_at
        return "abandoned" if idle >= idle_days * DAY else "live"


def list_games(store: Store, status: str | None = None, bot_only: bool = False,
               idle_days: float = ABANDONED_DAYS, limit: int = 100) -> list[GameInfo]:
    """The games (most recently changed first), filtered by `status` (live, finished,
    abandoned, ended) and to those without a human seat (`bot_only`)."""
    if status is not None and status not in STATUSES:
        raise AdminError(f"no status {status!r}: use one of {', '.join(STATUSES)}")
    cut = time.time() - idle_days * DAY
    where: list[str] = []
    params: list[Any] = []
    if status == "live":
        where.append("g.status = 'playing' AND g.updated_at > ?")
        params.append(cut)
    elif status == "abandoned":
        where.append("g.status = 'playing' AND g.updated_at <= ?")
        params.append(cut)
    elif status == "finished":
        where.append("g.status NOT IN ('playing', ?)")
        params.append(ENDED)
    elif status == "ended":
        where.append("g.status = ?")
        params.append(ENDED)
    if bot_only:
        where.append("NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND "
                     "s.kind = 'human')")
    sql = ("SELECT g.id, g.game, g.players, g.version, g.status, g.mode, g.created_at, "
           "g.updated_at FROM games g" + (" WHERE " + " AND ".join(where) if where else "")
           + " ORDER BY g.updated_at DESC, g.id LIMIT ?")
    rows = store.query(sql, (*params, max(1, limit)), "list the games")
    seats: dict[str, list[str]] = {str(r[0]): [] for r in rows}
    ids = list(seats)
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        for gid, kind, level in store.query(
                "SELECT game_id, kind, level FROM seats WHERE game_id IN "
                f"({','.join('?' * len(part))}) ORDER BY game_id, seat", tuple(part),
                "list the games' seats"):
            seats[str(gid)].append("human" if kind == "human" else str(level))
    return [GameInfo(str(r[0]), str(r[1]), int(r[2]), seats[str(r[0])], int(r[3]),
                     str(r[4]), str(r[5]), float(r[6] or 0), float(r[7] or 0))
            for r in rows]


# --- changes to a game ----------------------------------------------------------------

def _note(cur: Any, store: Store, action: str, target: str | None, detail: str = "") -> None:
    """Append the operator's line to admin_log (in the change's transaction)."""
    cur.execute(store.sql("INSERT INTO admin_log (at, action, target, detail) VALUES "
                          "(?,?,?,?)"), (time.time(), action, target, detail[:200]))


def _game_id(game_id: str) -> str:
    """A well-formed game id (AdminError otherwise)."""
    if not GAME_ID.fullmatch(game_id):
        raise AdminError(f"{game_id[:40]!r} is not a game id")
    return game_id


def end_game(store: Store, game_id: str) -> None:
    """Finish an unfinished game so nobody plays on: its status becomes 'ended' (no
    move, undo or bot move is taken from then on; it stays readable), its free seats'
    tokens are cleared; every server process reads it again within a second."""
    gid = _game_id(game_id)

    def change(cur: Any) -> str | None:
        cur.execute(store.sql("UPDATE games SET status = ?, to_move = NULL, updated_at = ? "
                              "WHERE id = ? AND status = 'playing'"), (ENDED, time.time(), gid))
        if cur.rowcount != 1:
            cur.execute(store.sql("SELECT status FROM games WHERE id = ?"), (gid,))
            found = cur.fetchone()
            return "missing" if found is None else str(found[0])
        cur.execute(store.sql("UPDATE open_seats SET token = NULL WHERE game_id = ? AND "
                              "token IS NOT NULL"), (gid,))
        _note(cur, store, "end", gid)
        return None

    refused = store.write(change, f"end game {gid}")
    if refused == "missing":
        raise AdminError(f"no game {gid!r}")
    if refused is not None:
        raise AdminError(f"game {gid} is not being played (it is {refused}): nothing to end")


def _delete_rows(cur: Any, store: Store, ids: list[str]) -> int:
    """Delete the games `ids` and every row that belongs to them; how many games."""
    marks = ",".join("?" * len(ids))
    for table, column in (("actions", "game_id"), ("seats", "game_id"),
                          ("open_seats", "game_id"), ("rematches", "game_id"),
                          ("rematches", "rematch_id"), ("rematch_claims", "game_id"),
                          ("reviews", "game_id")):
        cur.execute(store.sql(f"DELETE FROM {table} WHERE {column} IN ({marks})"), tuple(ids))
    cur.execute(store.sql(f"DELETE FROM games WHERE id IN ({marks})"), tuple(ids))
    return int(cur.rowcount)


def delete_game(store: Store, game_id: str) -> None:
    """Delete a game and all its rows (its moves, seats, free seats, rematch links)."""
    gid = _game_id(game_id)

    def change(cur: Any) -> int:
        gone = _delete_rows(cur, store, [gid])
        if gone:
            _note(cur, store, "delete", gid)
        return gone

    if not store.write(change, f"delete game {gid}"):
        raise AdminError(f"no game {gid!r}")


def revoke_seat(store: Store, game_id: str, seat: int) -> str:
    """Revoke a human seat's token and give the seat a new one: the seat's new invite
    link (a path: /play/<game>?token=<new>). The game's digest, which covers the seats'
    token hashes, is stored anew with them, so the game stays readable; a write checked
    against the old seats is refused. `seat` counts from 1."""
    gid = _game_id(game_id)
    token = secrets.token_urlsafe(18)

    def change(cur: Any) -> None:
        row = store.game(gid)
        if row is None:
            raise AdminError(f"no game {gid!r}")
        seats = store.seats(gid)
        if not 1 <= seat <= len(seats):
            raise AdminError(f"game {gid} has seats 1 to {len(seats)}, not {seat}")
        old = seats[seat - 1]
        if old.kind != "human":
            raise AdminError(f"seat {seat} of game {gid} is a bot's: it has no token")
        actions = store.actions(gid, upto=row.version)
        if row.digest is not None and digest_of(row, seats, actions) != row.digest:
            raise AdminError(f"stored game {gid} is damaged (its rows do not match its "
                             "digest): revoke refused")
        new_seats = [SeatRow(s.seat, s.kind, s.level, token_hash(token) if s is old else
                             s.token_hash, s.player) for s in seats]
        digest = digest_of(row, new_seats, actions)
        same = "IS" if store.dialect == "sqlite" else "IS NOT DISTINCT FROM"
        cur.execute(store.sql(f"UPDATE games SET digest = ? WHERE id = ? AND version = ? AND "
                              f"digest {same} ? AND status = 'playing'"),
                    (digest, gid, row.version, row.digest))
        if cur.rowcount != 1:
            raise _Moved()
        cur.execute(store.sql("UPDATE seats SET token_hash = ? WHERE game_id = ? AND seat = ?"),
                    (token_hash(token), gid, old.seat))
        cur.execute(store.sql("UPDATE open_seats SET token = ? WHERE game_id = ? AND seat = ? "
                              "AND token IS NOT NULL"), (token, gid, old.seat))
        cur.execute(store.sql("DELETE FROM rematch_claims WHERE game_id = ? AND seat = ?"),
                    (gid, old.seat))  # (the finished game's token no longer claims it)
        _note(cur, store, "revoke", gid, f"seat {seat}")

    for _ in range(20):  # a move stored between the reads and the update: read again
        try:
            store.write(change, f"revoke seat {seat} of game {gid}")
            return f"/play/{gid}?token={token}"
        except _Moved:
            time.sleep(0.05)
    raise AdminError(f"game {gid} kept moving: revoke refused, try again")


class _Moved(Exception):
    """The game moved on between reading it and changing it."""


# --- bans -----------------------------------------------------------------------------

def _address(value: str) -> str:
    """An address or a network as stored: '203.0.113.7', '203.0.113.0/24'."""
    try:
        net = ipaddress.ip_network(value.strip(), strict=False)
    except ValueError:
        raise AdminError(f"{value[:60]!r} is not an IP address or network (e.g. "
                         "203.0.113.7 or 203.0.113.0/24)") from None
    full = net.prefixlen == net.max_prefixlen
    return str(net.network_address) if full else str(net)


def ban(store: Store, address: str, minutes: float | None = None,
        reason: str | None = None) -> str:
    """Refuse an address (or a network) on every server process (within a second or
    two): for `minutes`, or until unbanned. The address as stored."""
    addr = _address(address)
    if minutes is not None and minutes <= 0:
        raise AdminError("--minutes must be more than 0")
    now = time.time()
    until = None if minutes is None else now + 60 * minutes

    def change(cur: Any) -> None:
        cur.execute(store.sql("DELETE FROM bans WHERE address = ?"), (addr,))
        cur.execute(store.sql("INSERT INTO bans (address, until, reason, created_at) VALUES "
                              "(?,?,?,?)"), (addr, until, (reason or "")[:200] or None, now))
        _note(cur, store, "ban", addr, "" if minutes is None else f"{minutes:g} minutes")

    store.write(change, f"ban {addr}")
    return addr


def unban(store: Store, address: str) -> str:
    """Lift a ban (AdminError if there is none)."""
    addr = _address(address)

    def change(cur: Any) -> int:
        cur.execute(store.sql("DELETE FROM bans WHERE address = ?"), (addr,))
        gone = int(cur.rowcount)
        if gone:
            _note(cur, store, "unban", addr)
        return gone

    if not store.write(change, f"unban {addr}"):
        raise AdminError(f"{addr} is not banned")
    return addr


def list_bans(store: Store) -> list[tuple[str, float | None, str | None, float]]:
    """The bans in force: (address, until or None, reason, since)."""
    rows = store.query("SELECT address, until, reason, created_at FROM bans WHERE until IS "
                       "NULL OR until > ? ORDER BY created_at", (time.time(),),
                       "list the bans")
    return [(str(r[0]), None if r[1] is None else float(r[1]), r[2], float(r[3]))
            for r in rows]


# --- retention ------------------------------------------------------------------------

def prune(store: Store, finished_days: float, abandoned_days: float) -> dict[str, int]:
    """Delete the finished (and ended) games unchanged for `finished_days` and the
    unfinished ones unchanged for `abandoned_days`, with all their rows; clear the free
    seats' tokens of games no longer played; drop expired bans and operator's log lines
    older than both. How many of each."""
    if finished_days < 0 or abandoned_days < 0:
        raise AdminError("the days must be 0 or more")
    now = time.time()
    ids = [str(r[0]) for r in store.query(
        "SELECT id FROM games WHERE (status <> 'playing' AND updated_at < ?) OR "
        "(status = 'playing' AND updated_at < ?)",
        (now - finished_days * DAY, now - abandoned_days * DAY), "list the games to prune")]
    games = 0
    for i in range(0, len(ids), PRUNE_CHUNK):
        part = ids[i:i + PRUNE_CHUNK]
        games += store.write(functools.partial(_delete_rows, store=store, ids=part),
                             "prune games")

    def tidy(cur: Any) -> tuple[int, int, int]:
        cur.execute(store.sql("UPDATE open_seats SET token = NULL WHERE token IS NOT NULL "
                              "AND game_id IN (SELECT id FROM games WHERE status <> "
                              "'playing')"))
        tokens = int(cur.rowcount)
        cur.execute(store.sql("DELETE FROM rematch_claims WHERE game_id IN (SELECT id FROM "
                              "games WHERE status <> 'playing')"))
        tokens += int(cur.rowcount)
        cur.execute(store.sql("DELETE FROM bans WHERE until IS NOT NULL AND until <= ?"),
                    (now,))
        bans = int(cur.rowcount)
        cur.execute(store.sql("DELETE FROM admin_log WHERE at < ?"),
                    (now - max(finished_days, abandoned_days, 1.0) * DAY,))
        _note(cur, store, "prune", None, f"{games} games")
        return tokens, bans, int(cur.rowcount)

    tokens, bans, lines = store.write(tidy, "prune")
    return {"games": games, "free_seat_tokens": tokens, "expired_bans": bans,
            "log_lines": lines}


# --- backup and restore ---------------------------------------------------------------

def _sqlite_path(url: str) -> str | None:
    """The file of an SQLite URL (None: not SQLite)."""
    full = normalise_url(url)
    return full[len("sqlite:///"):] if full.startswith("sqlite:///") else None


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """A PostgreSQL URL as pg_dump takes it, and the environment holding its password
    (out of the command line, where `ps` would show it)."""
    from sqlalchemy.engine import make_url

    u = make_url(normalise_url(url))
    env = dict(os.environ)
    if u.password:
        env["PGPASSWORD"] = str(u.password)
    plain = u.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _tool(name: str) -> str:
    """A PostgreSQL client program (pg_dump, pg_restore), or AdminError."""
    found = shutil.which(name)
    if found is None:
        raise AdminError(f"{name} is not installed (Debian: apt-get install "
                         "postgresql-client, the same major version as the server or newer)")
    return found


def backup(url: str, file: str | Path) -> str:
    """A consistent copy of the database taken while servers write to it: SQLite's
    `VACUUM INTO` (one read transaction: writers go on, the copy is the database at one
    commit), or `pg_dump --format=custom` for PostgreSQL (one snapshot). What it ran."""
    target = Path(file)
    if target.exists():
        raise AdminError(f"{target} exists: give a new file (a backup never overwrites)")
    path = _sqlite_path(url)
    if path is not None:
        if not Path(path).exists():
            raise AdminError(f"no database {path}")
        conn = sqlite3.connect(path, timeout=30)
        try:
            conn.execute("VACUUM INTO ?", (str(target),))
        except sqlite3.Error as exc:
            raise AdminError(f"could not back up {path}: {exc}") from None
        finally:
            conn.close()
        return f"VACUUM INTO {str(target)!r}"
    dsn, env = _libpq(url)
    cmd = [_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(target), dsn]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        with contextlib.suppress(OSError):
            target.unlink()
        raise AdminError(f"pg_dump failed: {done.stderr.strip()[:500]}")
    return "pg_dump --format=custom"


def restore(url: str, file: str | Path) -> str:
    """Restore a backup into a new database (an SQLite file that does not exist or holds
    no game, or a PostgreSQL database without kamon's games): refused otherwise, so a
    restore never mixes with or replaces games. Stop nothing: no server uses it yet."""
    source = Path(file)
    if not source.is_file():
        raise AdminError(f"no backup file {source}")
    head = source.read_bytes()[:16]
    path = _sqlite_path(url)
    if path is not None:
        if not head.startswith(b"SQLite format 3"):
            raise AdminError(f"{source} is not an SQLite backup (a pg_dump file restores "
                             "into PostgreSQL only)")
        if Path(path).exists() and _has_games_sqlite(path):
            raise AdminError(f"{path} already holds games: restore into a new database")
        src, dst = sqlite3.connect(str(source)), sqlite3.connect(path, timeout=30)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=WAL")
        finally:
            src.close()
            dst.close()
        return "sqlite3 backup API"
    if not head.startswith(b"PGDMP"):
        raise AdminError(f"{source} is not a pg_dump file (an SQLite backup restores into "
                         "an SQLite file only)")
    dsn, env = _libpq(url)
    if _has_games_pg(url):
        raise AdminError("that database already holds kamon's games: restore into a new "
                         "database")
    cmd = [_tool("pg_restore"), "--no-owner", "--clean", "--if-exists", "--single-transaction",
           "--exit-on-error", "--dbname", dsn, str(source)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise AdminError(f"pg_restore failed: {done.stderr.strip()[:500]}")
    return "pg_restore"


def _has_games_sqlite(path: str) -> bool:
    """Does the SQLite file hold a games table with a game in it?"""
    conn = sqlite3.connect(path, timeout=30)
    try:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone() is None:
            return False
        return conn.execute("SELECT 1 FROM games LIMIT 1").fetchone() is not None
    finally:
        conn.close()


def _has_games_pg(url: str) -> bool:
    """Does the PostgreSQL database hold a games table with a game in it?"""
    import psycopg

    dsn, env = _libpq(url)
    with psycopg.connect(dsn, password=env.get("PGPASSWORD")) as conn:
        if conn.execute("SELECT to_regclass('games')").fetchone()[0] is None:  # type: ignore[index]
            return False
        return conn.execute("SELECT 1 FROM games LIMIT 1").fetchone() is not None


# --- what each server process keeps of it ----------------------------------------------

class Watch:
    """One server process's view of the operator's changes: the bans, held in memory
    and checked on every request and socket (a dictionary look-up), and the games
    ended or revoked, dropped from the game cache so they are read again. A thread reads
    `admin_log` every WATCH_SECONDS (one indexed query) and the bans when it says so."""

    def __init__(self, store: Store, drop: Any = None) -> None:
        """Watch `store`; `drop(game_id)` forgets a cached game."""
        self.store = store
        self.drop = drop
        self.exact: dict[str, float | None] = {}  # address -> until (None: for good)
        self.nets: list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network,
                              float | None]] = []
        self.last = 0  # the newest admin_log line read
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        """Read the bans now (a server starting after a ban refuses at once), then keep
        reading in a thread."""
        try:
            rows = self.store.query("SELECT max(id) FROM admin_log", (), "read the operator's log")
            self.last = int(rows[0][0] or 0)
            self._load_bans()
        except ServiceError as exc:
            log.warning("cannot read the bans yet (%s): again in %.0f s", exc.message,
                        WATCH_SECONDS)
        self.stopped.clear()
        self.thread = threading.Thread(target=self._run, name="kamon-watch", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Stop reading (within WATCH_SECONDS)."""
        self.stopped.set()
        if self.thread is not None:
            self.thread.join(timeout=WATCH_SECONDS + 5)
            self.thread = None

    def _run(self) -> None:
        """Read the operator's log every second until stopped."""
        bans_at = time.monotonic()
        while not self.stopped.wait(WATCH_SECONDS):
            try:
                if self._read_log() or time.monotonic() - bans_at > BANS_SECONDS:
                    self._load_bans()
                    bans_at = time.monotonic()
            except ServiceError as exc:
                log.warning("cannot read the operator's log: %s", exc.message)
            except Exception:  # keep watching whatever happens
                log.exception("the operator's log could not be read")

    def _read_log(self) -> bool:
        """Act on the new lines of admin_log; whether the bans changed."""
        rows = self.store.query("SELECT id, action, target FROM admin_log WHERE id > ? "
                                "ORDER BY id", (self.last,), "read the operator's log")
        bans = False
        for rid, action, target in rows:
            self.last = max(self.last, int(rid))
            if action in ("ban", "unban"):
                bans = True
            elif target and self.drop is not None:  # end, revoke, delete: read it again
                self.drop(str(target))
        return bans

    def _load_bans(self) -> None:
        """Read every ban in force."""
        exact: dict[str, float | None] = {}
        nets = []
        for address, until, _reason, _since in list_bans(self.store):
            if "/" in address:
                nets.append((ipaddress.ip_network(address, strict=False), until))
            else:
                exact[address] = until
        self.exact, self.nets = exact, nets

    def refusal(self, client: str) -> ServiceError | None:
        """The 403 of a banned address (None: not banned); a look-up in memory."""
        until: float | None | bool
        if client in self.exact:
            until = self.exact[client]
        elif self.nets:
            until = _in_nets(client, tuple(self.nets))
        else:
            return None
        if until is False or isinstance(until, float) and until <= time.time():
            return None
        when = "" if until is None else time.strftime(
            " until %Y-%m-%d %H:%M UTC", time.gmtime(float(until)))
        return ServiceError(403, f"requests from {client} are refused by this server's "
                                 f"operator{when}")


@functools.lru_cache(maxsize=4096)
def _in_nets(client: str, nets: tuple[tuple[Any, float | None], ...]) -> float | None | bool:
    """The ban of the first banned network holding `client` (its until, None: for
    good), or False."""
    try:
        address = ipaddress.ip_address(client)
    except ValueError:
        return False
    for net, until in nets:
        if address.version == net.version and address in net:
            return until
    return False
