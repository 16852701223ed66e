"""The server's limits on what one client may take, with their defaults (the slow
requests' deadlines are kept by protocol.py, the sockets' quotas by hub.py); and the
write rate limits per client address: a token bucket in this process (one process on
SQLite), or one bucket every process shares, kept in PostgreSQL (several processes), so
that N processes allow a client what one does (issue 35: behind a proxy spreading
requests over 4 processes one client had 328 of 400 creates accepted in 1.3 s where one
process accepted 77).

The shared limit is the generic cell rate algorithm (GCRA): one row per client holding
its "theoretical arrival time", moved on by 1/rate per write and refused beyond the burst,
in one statement that PostgreSQL runs atomically (the row's lock serialises concurrent
writes of one client, whichever process they reach). The table is UNLOGGED: a limit need
not survive a crash, and its writes then skip the WAL. Each write a client makes costs
one round trip to the database, off the event loop: measured with 50 busy games whose
writes all come from one address (the worst case: one row), 0.25–0.6 ms more server CPU
a move on 1–4 processes (docs/performance.md, "What the limits for strangers cost").
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

RATE = 20.0  # writes per second a client (an address) may sustain ...
BURST = 60.0  # ... after a burst of this many
HEAD_SECONDS = 10.0  # a request's head (line and headers) must arrive within this ...
BODY_SECONDS = 10.0  # ... and its body within this after the head (protocol.py)
BOT_ONLY_GAMES = 2  # unfinished games of bots only one client may have (service.create)
BOT_TIME_LIMIT = 5.0  # a plug-in bot's seconds a decision (bots.py; --bot-time-limit)
MAX_CLIENTS = 10_000  # addresses the in-process limiter remembers (least recent forgotten)
SHARED_TABLE = "rate_limits"  # made by the store (store.RATE_LIMITS_DDL)
FORGET_SECONDS = 600.0  # a client's shared row is dropped this long after it is settled
FORGET_EVERY = 5_000  # writes counted between two passes that forget settled clients

# The write is allowed (and counted) only if the client's arrival time, moved on by one
# write, stays within the burst of now; otherwise nothing changes and no row is returned.
_TAKE = (f"INSERT INTO {SHARED_TABLE} AS r (client, tat) "
         "VALUES (%(client)s, extract(epoch FROM clock_timestamp()) + %(step)s) "
         "ON CONFLICT (client) DO UPDATE SET tat = greatest(r.tat, "
         "extract(epoch FROM clock_timestamp())) + %(step)s "
         "WHERE greatest(r.tat, extract(epoch FROM clock_timestamp())) + %(step)s "
         "- extract(epoch FROM clock_timestamp()) <= %(tolerance)s RETURNING r.tat")
_WAIT = (f"SELECT tat - extract(epoch FROM clock_timestamp()) FROM {SHARED_TABLE} "
         "WHERE client = %s")


class RateLimiter:
    """A token bucket per client address, in this process: `rate` writes a second after
    a `burst`."""

    def __init__(self, rate: float = RATE, burst: float = BURST,
                 max_clients: int = MAX_CLIENTS) -> None:
        """rate <= 0 turns the limit off."""
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.max_clients = max_clients
        self.buckets: OrderedDict[str, list[float]] = OrderedDict()

    def wait(self, client: str) -> float:
        """0 if the client may write now (its write is counted); else the seconds until
        it may."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic()
        bucket = self.buckets.get(client)
        if bucket is None:
            bucket = self.buckets[client] = [self.burst, now]
            if len(self.buckets) > self.max_clients:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(client)
            bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
            bucket[1] = now
        if bucket[0] >= 1.0:
            bucket[0] -= 1.0
            return 0.0
        return (1.0 - bucket[0]) / self.rate

    def refusal(self, client: str, wait: float | None = None) -> tuple[int, str] | None:
        """None if the client may write now (counted); else the whole seconds to wait and
        the refusal in words (a POST's 429 and a socket write's refusal say the same)."""
        wait = self.wait(client) if wait is None else wait
        if wait <= 0:
            return None
        retry = max(1, math.ceil(wait))
        return retry, (f"too many writes from {client}: at most {self.rate:g} a second "
                       f"(bursts of {self.burst:g}); retry in {retry} s")

    async def check(self, client: str) -> tuple[int, str] | None:
        """`refusal`, as the guard and the sockets ask it (the shared limiter's asks the
        database)."""
        return self.refusal(client)


class SharedRateLimiter(RateLimiter):
    """The same limit, one bucket per client shared by every process on the PostgreSQL
    database of `store` (its rows in SHARED_TABLE); `run(fn, *args)` runs a blocking
    call off the event loop (the server's read threads)."""

    def __init__(self, store: Any, run: Callable[..., Awaitable[Any]], rate: float = RATE,
                 burst: float = BURST) -> None:
        """Limit writes through `store`'s database."""
        super().__init__(rate, burst)
        self.store = store
        self.run = run
        self.taken = 0

    def take(self, client: str) -> float:
        """0 if the client may write now (counted in the database); else the seconds until
        it may. In a read thread."""
        step = 1.0 / self.rate
        self.taken += 1
        if self.taken % FORGET_EVERY == 0:
            self.forget()
        rows = self.store.query(_TAKE, {"client": client[:64], "step": step,
                                        "tolerance": self.burst * step},
                                "count a client's writes")
        if rows:
            return 0.0
        left = self.store.query(_WAIT, (client[:64],), "count a client's writes")
        return max(step, float(left[0][0]) - self.burst * step + step) if left else step

    async def check(self, client: str) -> tuple[int, str] | None:
        """None if the client may write now, else the refusal (see `refusal`)."""
        if self.rate <= 0:
            return None
        return self.refusal(client, await self.run(self.take, client))

    def forget(self) -> int:
        """Drop the rows of clients whose writes are long settled; how many."""
        return int(self.store.execute(
            f"DELETE FROM {SHARED_TABLE} WHERE tat < extract(epoch FROM clock_timestamp()) "
            "- %s", (FORGET_SECONDS,), "forget settled clients' write counts"))
