"""Where batches run: this process, a local process pool, or a Ray cluster (`--backend`).

Every backend maps a top-level function over picklable items and yields the results
as they finish (in any order); callers sort by what the items say. The local pool
uses spawned processes, so a worker that dies is reported (a clear error) instead of
hanging; Ray retries a task whose worker died (`sim.ray_backend`).
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from kamon.core.errors import KamonError
from kamon.core.pool import tied_pool

T = TypeVar("T")
R = TypeVar("R")
BACKENDS = ("local", "ray")


class Backend(Protocol):
    """Runs a function over items somewhere, results as they finish."""

    label: str  # in words, for the progress line ('2 local processes')
    workers: int  # how many items run at once
    in_process: bool  # True: items run here, one after another

    def map_unordered(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[Any]:
        """fn(item) for every item, yielded as each finishes."""
        ...

    def close(self) -> None:
        """Release the workers."""
        ...


class LocalBackend:
    """This process (jobs = 1) or a pool of `jobs` spawned processes."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise KamonError("--jobs must be at least 1")
        self.workers = jobs
        self.in_process = jobs == 1
        self.label = "this process" if jobs == 1 else f"{jobs} local processes"
        self._pool: cf.ProcessPoolExecutor | None = None

    def map_unordered(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[Any]:
        """Run here in order, or in the pool as workers free up."""
        if self.in_process or len(items) <= 1:
            for item in items:
                yield fn(item)
            return
        if self._pool is None:
            self._pool = tied_pool(self.workers)  # (its workers end if kamon is killed)
        futures = [self._pool.submit(fn, item) for item in items]
        try:
            for fut in cf.as_completed(futures):
                yield fut.result()
        except cf.process.BrokenProcessPool:
            raise KamonError("a local worker process died; the batches that finished are "
                             "kept: run the same command again to resume") from None
        finally:
            for fut in futures:
                fut.cancel()

    def close(self) -> None:
        """Stop the pool's processes (queued work is dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def check_backend(name: str, address: str | None = None) -> str:
    """The backend's name, normalised; a KamonError for an unknown one or a misplaced
    address."""
    key = name.strip().lower()
    if key not in BACKENDS:
        raise KamonError(f"unknown backend {name!r}; use one of: {', '.join(BACKENDS)}")
    if key == "local" and address is not None:
        raise KamonError("--ray-address needs --backend ray")
    return key


def default_jobs(backend: str, jobs: int | None) -> int:
    """--jobs as given, else 1 local process, or every core for a local Ray."""
    if jobs is not None:
        if jobs < 1:
            raise KamonError("--jobs must be at least 1")
        return jobs
    return (os.cpu_count() or 1) if backend.strip().lower() == "ray" else 1


def make_backend(name: str, jobs: int, address: str | None = None) -> Backend:
    """The backend by name: 'local' (`jobs` processes) or 'ray' (`address`, or a local Ray
    with `jobs` CPUs)."""
    if check_backend(name, address) == "local":
        return LocalBackend(jobs)
    from kamon.sim.ray_backend import RayBackend

    return RayBackend(address=address, cpus=jobs)


@contextmanager
def open_backend(name: str, jobs: int, address: str | None = None) -> Iterator[Backend]:
    """A backend for the length of a `with` block, closed at the end."""
    backend = make_backend(name, jobs, address)
    try:
        yield backend
    finally:
        backend.close()
