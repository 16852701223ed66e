"""The tables of open games and rematches, beside the store's own (same database).

`open_seats` holds the seats of a public game that are still free to take: the seat's
token until someone joins (then NULL: the joiner alone holds it). `rematches` links a
finished game to the one game that replays its table with a new deal. They are created
on first use by the module that needs them (the store's schema is not changed).
"""

from __future__ import annotations

import threading
import weakref

from sqlalchemy import Column, Float, Integer, MetaData, String, Table

from kamon.server.store import Store

metadata = MetaData()

open_seats_table = Table(
    "open_seats", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token", String(64)),  # the seat's token while the seat is free, then NULL
    Column("created_at", Float, nullable=False),
    Column("taken_at", Float),
)

rematches_table = Table(
    "rematches", metadata,
    Column("game_id", String(32), primary_key=True),  # the finished game
    Column("rematch_id", String(32), nullable=False),  # its rematch
    Column("created_at", Float, nullable=False),
)

_ready: weakref.WeakSet[Store] = weakref.WeakSet()
_lock = threading.Lock()


def ensure_tables(store: Store) -> None:
    """Create the tables in the store's database if they are missing (once per store)."""
    if store in _ready:
        return
    with _lock:
        if store not in _ready:
            with store._errors("create the tables of open games and rematches"):
                metadata.create_all(store.engine)
            _ready.add(store)
