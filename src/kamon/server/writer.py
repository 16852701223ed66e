"""The one thread that stores a server process's writes, a batch per transaction: each
write in a savepoint (a refused one takes back only itself), one commit for all (one
fsync; the GIL free for the event loop), then each write's follow-up and one wake-up of
the event loop for every answer. The server's only batching: SQLite has one writer at a
time, whose busy wait sleeps in steps of up to 100 ms (docs/server.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from kamon.server.errors import ServiceError, failure
from kamon.server.store import Store, StoreError

T = TypeVar("T")
R = TypeVar("R")
BATCH_MAX = 256  # writes in one transaction at most
log = logging.getLogger("kamon.server")


@dataclass
class Job(Generic[T, R]):
    """One write: `write()` stores it (in the batch's transaction), `then(result)` makes
    the answer once it is committed."""

    write: Callable[[], T]
    then: Callable[[T], R] | None
    doing: str
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[R]
    deadline: float


class BatchWriter:
    """The writer thread of one store (started on first use)."""

    def __init__(self, store: Store) -> None:
        """Store the writes of `store`."""
        self.store = store
        self.jobs: queue.SimpleQueue[Job[Any, Any] | None] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.closed = False
        self.batches = 0  # transactions committed (for tests and benchmarks)

    @overload
    async def run(self, write: Callable[[], T], then: None = None,
                  doing: str = "store a write") -> T: ...

    @overload
    async def run(self, write: Callable[[], T], then: Callable[[T], R],
                  doing: str = "store a write") -> R: ...

    async def run(self, write: Callable[[], T], then: Callable[[T], R] | None = None,
                  doing: str = "store a write") -> Any:
        """Store one write; what `then` makes of its result once committed (without
        `then`: the result), or the refusal."""
        if self.closed:
            raise ServiceError(503, "the server is shutting down: try again in a moment",
                               retry_after=1)
        if self.thread is None:
            self.thread = threading.Thread(target=self._work, name="kamon-writer",
                                           daemon=True)
            self.thread.start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self.jobs.put(Job(write, then, doing, loop, future,
                          time.monotonic() + self.store.busy_timeout))
        return await future

    def shutdown(self) -> None:
        """Take no more writes; those already waiting are stored, then the thread ends."""
        self.closed = True
        self.jobs.put(None)
        if self.thread is not None:
            self.thread.join(timeout=2 * self.store.busy_timeout + 5)

    def _work(self) -> None:
        """The thread: batches until told to stop."""
        while True:
            job = self.jobs.get()
            if job is None:
                return
            batch = [job]
            while len(batch) < BATCH_MAX:
                try:
                    more = self.jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self.jobs.put(None)  # stop after this batch
                    break
                batch.append(more)
            try:
                self._batch(batch)
            except BaseException as exc:  # a bug here must not leave writes waiting forever
                log.exception("the writer failed on a batch of %d writes", len(batch))
                for job in batch:
                    _deliver(job.loop, [(job.future, False, failure(exc))])

    def _batch(self, batch: list[Job[Any, Any]]) -> None:
        """Store the writes of a batch in one transaction, then answer each: a write that
        raised is answered with its refusal, the others (once committed) with `then`."""
        answers: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool,
                                                            Any]]] = {}

        def tell(job: Job[Any, Any], ok: bool, value: Any) -> None:
            answers.setdefault(job.loop, []).append((job.future, ok, value))

        now = time.monotonic()
        live = []
        for job in batch:
            if job.future.cancelled():
                continue  # the request went away before its turn
            if now > job.deadline:
                tell(job, False, _busy(job))
            else:
                live.append(job)
        stored: list[tuple[Job[Any, Any], Any]] = []
        refused: list[tuple[Job[Any, Any], ServiceError]] = []
        if live:
            try:
                wait = min(job.deadline for job in live) - now
                with self.store.transaction("store the writes", wait) as tx:
                    for job in live:
                        try:
                            if time.monotonic() > job.deadline:
                                raise _busy(job)
                            stored.append((job, self.store.attempt(tx, job.write,
                                                                   job.doing)))
                        except Exception as exc:
                            refused.append((job, _refusal(exc)))
                self.batches += 1
            except Exception as exc:  # BEGIN or COMMIT failed: nothing of it is stored
                stored, refused = [], [(job, _refusal(exc, job.doing)) for job in live]
        for job, refusal in refused:
            tell(job, False, refusal)
        for job, result in stored:
            try:
                tell(job, True, result if job.then is None else job.then(result))
            except Exception as exc:
                tell(job, False, _refusal(exc))
        for loop, results in answers.items():
            _deliver(loop, results)


def _busy(job: Job[Any, Any]) -> ServiceError:
    """The refusal of a write whose turn came too late."""
    return ServiceError(503, f"the database is busy (writes are waiting for it): could not "
                             f"{job.doing}; retry in a moment", retry_after=1)


def _refusal(exc: Exception, doing: str | None = None) -> ServiceError:
    """A write's exception as what its request is told (a failed transaction's message
    names the write it failed, `doing`)."""
    if isinstance(exc, StoreError) and doing is not None:
        return StoreError(exc.status, exc.message.replace("could not store the writes",
                                                          f"could not {doing}"),
                          exc.retry_after)
    if isinstance(exc, ServiceError):
        return exc
    log.error("a write failed", exc_info=exc)
    return failure(exc)


def _deliver(loop: asyncio.AbstractEventLoop,
             results: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """Hand answers to their requests on the loop's thread, with one wake-up."""
    with contextlib.suppress(RuntimeError):  # the loop has closed
        loop.call_soon_threadsafe(_settle, results)


def _settle(results: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """On the loop: give each request its answer (unless it was cancelled)."""
    for future, ok, value in results:
        if future.done():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)
