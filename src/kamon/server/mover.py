"""The thread that stores the moves of every game, a batch at a time.

Each move, undo and bot move is checked and played on a copy of its game (the engine),
stored (the database) and rendered for the game's sockets, all off the event loop. Done
one request at a time in a pool of threads, most of a move's CPU went to handing it from
thread to thread and to the GIL's switching between them. Here one thread takes every
write waiting, prepares each, appends them all in one transaction (one commit, one
fsync: the GIL is free for the event loop meanwhile), finishes and renders each, and
hands every answer back to the loop with one wake-up. A refused write (illegal, stale,
busy) is refused alone; the others of its batch are stored.

Writes to one game are never in one batch together: the server holds a game's lock
until its write is answered (runtime.GameLocks). A write that waited past the database's
busy timeout is refused as busy (503) without being tried.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from kamon.server.service import GameService, Loaded, Pending, ServiceError, storage
from kamon.server.store import VersionConflict
from kamon.server.workers import drained

T = TypeVar("T")
BATCH_MAX = 256  # writes prepared and committed together at most
log = logging.getLogger("kamon.server")


@dataclass
class Job(Generic[T]):
    """One write: `prepare` checks it and plays it on a copy (or finds it already
    stored), `answer` renders what the loop needs from the game after it."""

    prepare: Callable[[], Loaded | Pending]
    answer: Callable[[Loaded], T]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[T]
    deadline: float


class Mover:
    """The writer thread of one game service (started on first use)."""

    def __init__(self, service: GameService, name: str = "kamon-mover") -> None:
        """Store the writes of `service`."""
        self.service = service
        self.name = name
        self.jobs: queue.SimpleQueue[Job[Any] | None] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.closed = False
        self.batches = 0  # batches run (for tests and benchmarks)
        self.writes = 0  # writes stored

    async def run(self, prepare: Callable[[], Loaded | Pending],
                  answer: Callable[[Loaded], T]) -> T:
        """Store one write; `answer(new game)` once it is committed (or its refusal)."""
        if self.closed:
            raise _closing()
        if self.thread is None:
            self.thread = threading.Thread(target=self._work, name=self.name, daemon=True)
            self.thread.start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self.jobs.put(Job(prepare, answer, loop, future,
                          time.monotonic() + self.service.store.busy_timeout))
        return await future

    def shutdown(self) -> None:
        """Take no more writes; those waiting are refused, the thread ends."""
        self.closed = True
        for job in drained(self.jobs):
            _deliver(job.loop, [(job.future, False, _closing())])
        self.jobs.put(None)

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
                log.exception("the writer thread failed on a batch of %d writes", len(batch))
                for job in batch:
                    _deliver(job.loop, [(job.future, False, ServiceError(
                        500, f"the server failed on this write ({type(exc).__name__}); the "
                             "error is in its log"))])

    def _batch(self, batch: list[Job[Any]]) -> None:
        """Prepare and render each write of a batch (while its game is fresh in the CPU's
        caches), store them all, then answer: a write the store refused is answered
        with its refusal (or, for a conflict, as a retry or a 409), and its rendering
        is dropped."""
        done: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}

        def tell(job: Job[Any], ok: bool, value: Any) -> None:
            done.setdefault(job.loop, []).append((job.future, ok, value))

        def answer(job: Job[Any], fn: Callable[[], Loaded]) -> None:
            try:
                tell(job, True, job.answer(fn()))
            except BaseException as exc:  # a refusal, or a failure to report
                tell(job, False, exc)

        stored: list[tuple[Job[Any], Pending, Loaded, Any]] = []
        for job in batch:
            if job.future.cancelled():
                continue  # the request went away before its turn
            try:
                prepared = job.prepare()
                if isinstance(prepared, Loaded):  # a retry of a write already stored
                    tell(job, True, job.answer(prepared))
                    continue
                new = self.service.finish(prepared, prepared.loaded.version + 1, keep=False)
                stored.append((job, prepared, new, job.answer(new)))
            except BaseException as exc:
                tell(job, False, exc)
        if stored:
            try:
                versions = self.service.store.append_many(
                    [p.append_args() for _, p, _, _ in stored],
                    [j.deadline for j, _, _, _ in stored])
            except BaseException as exc:  # the store refused them all (shutting down)
                versions = [exc] * len(stored)
            self.batches += 1
            for (job, prepared, new, result), version in zip(stored, versions, strict=True):
                if isinstance(version, BaseException):
                    answer(job, functools.partial(self._refused, prepared, version))
                else:  # stored at the version it was rendered at (the one after it)
                    self.writes += 1
                    self.service.cache.put(new)
                    tell(job, True, result)
        for loop, results in done.items():
            _deliver(loop, results)

    def _refused(self, pending: Pending, refusal: BaseException) -> Loaded:
        """A write the store refused: the game to answer with (a retry already stored),
        else the refusal raised."""
        if isinstance(refusal, VersionConflict):
            return self.service.conflict(pending)
        with storage():
            raise refusal


def _closing() -> ServiceError:
    """The refusal of a write that comes too late: the server is shutting down."""
    return ServiceError(503, "the server is shutting down: try again in a moment",
                        retry_after=1)


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
