"""Several server processes on one PostgreSQL database: each hears of the others' writes
(LISTEN/NOTIFY on the store's channel) and claims the games whose bots it drives
(session-level advisory locks, released when the process's connection ends: a killed
process's games are taken over). See docs/server.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from kamon.server.store import CHANNEL, Store

log = logging.getLogger("kamon.server")
WAIT_SECONDS = 1.0  # how often the listener looks whether it is asked to stop
RECONNECT_CAP = 10.0  # the longest wait before the listener connects again


class Listener:
    """A thread that listens on the store's channel and hands each notification, as
    `on_note(game_id, news)`, to the event loop; after a lost connection it
    reconnects and calls `on_gap()` (what was sent meanwhile is lost: re-read)."""

    def __init__(self, store: Store, loop: asyncio.AbstractEventLoop,
                 on_note: Callable[[str, str], None], on_gap: Callable[[], None]) -> None:
        """Listen on `store`'s database; call back on `loop`."""
        self.store = store
        self.loop = loop
        self.on_note = on_note
        self.on_gap = on_gap
        self.stopped = threading.Event()
        self.listening = threading.Event()  # set while connected (for tests)
        self.thread = threading.Thread(target=self._run, name="kamon-listen", daemon=True)

    def start(self) -> None:
        """Start listening (the first connection is made before this returns, so that
        no write after it is missed)."""
        self.thread.start()
        self.listening.wait(timeout=2 * self.store.busy_timeout + 5)

    def stop(self) -> None:
        """Stop listening (within WAIT_SECONDS)."""
        self.stopped.set()
        self.thread.join(timeout=WAIT_SECONDS + 5)

    def _run(self) -> None:
        """Listen, reconnecting after a failure, until stopped."""
        wait, lost = 0.5, False
        while not self.stopped.is_set():
            try:
                conn = self.store.connect()
                try:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if lost:
                        self._call(self.on_gap)
                    wait = 0.5
                    while not self.stopped.is_set():
                        for note in conn.notifies(timeout=WAIT_SECONDS):
                            self._call(self.on_note, *note.payload.partition(" ")[::2])
                finally:
                    self.listening.clear()
                    with contextlib.suppress(Exception):
                        conn.close()
            except Exception as exc:
                lost = True
                log.warning("listening for other processes' writes failed (%s); again in "
                            "%.1f s", exc, wait)
                self.stopped.wait(wait)
                wait = min(RECONNECT_CAP, wait * 2)

    def _call(self, fn: Callable[..., None], *args: Any) -> None:
        """Run `fn(*args)` on the event loop (nothing if it has closed)."""
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(fn, *args)


class Claims:
    """The games whose bots this process drives, claimed with PostgreSQL advisory locks
    on one connection of its own (the calls block: run them off the event loop)."""

    def __init__(self, store: Store) -> None:
        """Claims in `store`'s database."""
        self.store = store
        self.conn: Any = None
        self.lock = threading.Lock()

    def claim(self, game_id: str) -> bool:
        """Take the game's lock if no process holds it; whether this one now does."""
        return bool(self._call("SELECT pg_try_advisory_lock(%s)", game_id))

    def release(self, game_id: str) -> None:
        """Let the game's lock go."""
        self._call("SELECT pg_advisory_unlock(%s)", game_id)

    def _call(self, sql: str, game_id: str) -> Any:
        """Run one lock function; a lost connection is made again (its locks went with
        it: a driver that lost its claim plays on, and the versioned append still
        stores each move once)."""
        key = int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:8], "big",
                             signed=True)
        with self.lock:
            try:
                if self.conn is None:
                    self.conn = self.store.connect()
                return self.conn.execute(sql, (key,)).fetchone()[0]
            except Exception:
                with contextlib.suppress(Exception):
                    self.conn.close()
                self.conn = None
                raise

    def close(self) -> None:
        """Release every claim (by closing the connection)."""
        with self.lock:
            if self.conn is not None:
                with contextlib.suppress(Exception):
                    self.conn.close()
                self.conn = None
