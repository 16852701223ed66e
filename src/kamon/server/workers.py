"""Threads that run the server's blocking calls (database, engine) for the event loop.

A lean stand-in for `loop.run_in_executor(ThreadPoolExecutor)`: a call is one put on a C
queue and its answer one `call_soon_threadsafe`, with no concurrent.futures Future,
semaphore or Condition in between (those cost the server about a tenth of its CPU per
move). A call whose awaiting request was cancelled before a thread took it is skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any],
             tuple[Any, ...]]


class Workers:
    """Up to `threads` daemon threads (started when calls overlap) taking calls from one
    queue; `run` awaits a call's result (or its exception) on the event loop."""

    def __init__(self, threads: int, name: str) -> None:
        """`threads` threads named `name`-i."""
        self.size = threads
        self.name = name
        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.threads: list[threading.Thread] = []
        self.free = 0  # threads minus calls queued or running (< 0: calls wait)
        self.closed = False
        self.lock = threading.Lock()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in one of the threads; its result."""
        if self.closed:
            raise RuntimeError(f"the {self.name} threads are shut down")
        with self.lock:
            self.free -= 1
            start = self.free < 0 and len(self.threads) < self.size
            if start:  # threads start as calls overlap (each costs memory)
                self.free += 1
                thread = threading.Thread(target=self._work, daemon=True,
                                          name=f"{self.name}-{len(self.threads)}")
                self.threads.append(thread)
        if start:
            thread.start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self.jobs.put((loop, future, fn, args))
        return await future

    def _work(self) -> None:
        """A thread: run calls until told to stop (None)."""
        while True:
            job = self.jobs.get()
            if job is None:
                return
            loop, future, fn, args = job
            answer: tuple[Callable[..., Any], Any] | None = None
            try:
                if not future.cancelled():  # else the request went away before its turn
                    try:
                        answer = (_succeed, fn(*args))
                    except BaseException as exc:
                        answer = (_fail, exc)
            finally:
                with self.lock:  # free again before the caller hears back
                    self.free += 1
            if answer is not None:
                _answer(loop, answer[0], future, answer[1])

    def shutdown(self) -> None:
        """Take no more calls, cancel those not started, let the threads end."""
        self.closed = True
        for job in drained(self.jobs):
            _answer(job[0], job[1].cancel)
        for _ in self.threads:
            self.jobs.put(None)


def drained(jobs: queue.SimpleQueue[Any]) -> list[Any]:
    """Everything waiting in a queue, taken out (the stop marks, None, left out)."""
    out: list[Any] = []
    while True:
        try:
            job = jobs.get_nowait()
        except queue.Empty:
            return out
        if job is not None:
            out.append(job)


def _answer(loop: asyncio.AbstractEventLoop, fn: Callable[..., Any], *args: Any) -> None:
    """Call `fn(*args)` on the loop's thread (nothing if the loop has closed)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(fn, *args)


def _succeed(future: asyncio.Future[Any], result: Any) -> None:
    """Give the call's result to its awaiting request (unless it was cancelled)."""
    if not future.done():
        future.set_result(result)


def _fail(future: asyncio.Future[Any], exc: BaseException) -> None:
    """Give the call's exception to its awaiting request (unless it was cancelled)."""
    if not future.done():
        future.set_exception(exc)
