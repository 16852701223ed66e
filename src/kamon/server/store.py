"""The game store: one row per game, one append-only row per action (SQLAlchemy Core).

A game is its record. `games` holds how it was set up and its version (the number of
action rows); `actions` holds every move and every undo, in order, never updated or
deleted; `seats` holds who sits where, with a hash of each seat's token (the token itself
is only ever in the invite link). The same schema runs on an SQLite file (WAL, the
default) and on PostgreSQL (`postgresql://...`). A move is stored by bumping the version
only if it is still the one the move was checked against, and inserting its row, in one
transaction: two servers sharing a database cannot both store a move at one version.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

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
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

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

MAX_SEED = (1 << 63) - 1


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


class Store:
    """The games of one database."""

    def __init__(self, url: str) -> None:
        """Connect (creating the schema if missing); SQLite files run in WAL mode."""
        self.url = normalise_url(url)
        self.engine: Engine = create_engine(self.url, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    # --- writes -----------------------------------------------------------------

    def create_game(self, game_id: str, game: str, players: int, seed: int,
                    options: dict[str, Any], seats: list[SeatRow]) -> None:
        """Store a new game at version 0 with its seats."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(games_table).values(
                id=game_id, game=game, players=players, seed=seed,
                options=json.loads(json.dumps(options)), version=0, status="playing",
                created_at=now, updated_at=now))
            conn.execute(insert(seats_table), [
                {"game_id": game_id, "seat": s.seat, "kind": s.kind, "level": s.level,
                 "token_hash": s.token_hash} for s in seats])

    def append(self, game_id: str, expected_version: int, kind: str, seat: int | None,
               action_id: int | None, notation: str | None, status: str) -> int:
        """Append one action row if the game is still at `expected_version`; the new
        version. VersionConflict (and nothing stored) otherwise."""
        now = time.time()
        try:
            with self.engine.begin() as conn:
                result = conn.execute(
                    update(games_table)
                    .where(games_table.c.id == game_id)
                    .where(games_table.c.version == expected_version)
                    .values(version=expected_version + 1, status=status, updated_at=now))
                if result.rowcount != 1:
                    raise VersionConflict(game_id)
                conn.execute(insert(actions_table).values(
                    game_id=game_id, idx=expected_version, kind=kind, seat=seat,
                    action_id=action_id, notation=notation, created_at=now))
        except IntegrityError:
            raise VersionConflict(game_id) from None
        return expected_version + 1

    # --- reads ------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        """The game's row, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
        if row is None:
            return None
        m = row._mapping
        return GameRow(m["id"], m["game"], m["players"], int(m["seed"]), dict(m["options"]),
                       m["version"], m["status"], m["created_at"], m["updated_at"])

    def version(self, game_id: str) -> int | None:
        """The game's current version (cheap: one column), or None if there is no game."""
        with self.engine.connect() as conn:
            v = conn.execute(select(games_table.c.version)
                             .where(games_table.c.id == game_id)).scalar()
        return None if v is None else int(v)

    def seats(self, game_id: str) -> list[SeatRow]:
        """The game's seats in seat order."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(seats_table).where(seats_table.c.game_id == game_id)
                                .order_by(seats_table.c.seat)).all()
        return [SeatRow(r.seat, r.kind, r.level, r.token_hash) for r in rows]

    def actions(self, game_id: str, upto: int | None = None) -> list[ActionRow]:
        """The game's action rows in order (the first `upto` of them)."""
        q = select(actions_table).where(actions_table.c.game_id == game_id)
        if upto is not None:
            q = q.where(actions_table.c.idx < upto)
        with self.engine.connect() as conn:
            rows = conn.execute(q.order_by(actions_table.c.idx)).all()
        return [ActionRow(r.idx, r.kind, r.seat, r.action_id, r.notation) for r in rows]

    def games_by_status(self, status: str) -> list[str]:
        """Ids of the games with this status (e.g. the unfinished ones at start-up)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(games_table.c.id)
                                .where(games_table.c.status == status)).all()
        return [r.id for r in rows]

    def count_games(self) -> int:
        """How many games are stored."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(games_table)).scalar()
                       or 0)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL (readers never wait for the writer), foreign keys, and waiting on a busy file."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()
