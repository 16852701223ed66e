"""The Ray backend: batches as Ray tasks on a cluster (`--ray-address`) or a local Ray.

Ray is imported only here, when `--backend ray` is asked for, and a missing Ray is a
clear error naming the extra to install. A task whose worker process dies (killed, out
of memory, a lost node) is retried by Ray up to MAX_RETRIES times; a task that raises
is not (the same seed would raise again). Only a task's return value is counted, so a
retried batch is counted once. Without an address kamon starts a private local Ray
(`address="local"`, never someone else's `ray start` instance) and stops it at the end;
with one it connects to that cluster and ships its own code to the workers
(`runtime_env` `py_modules`), so they play exactly the driver's version of the rules.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from kamon.core.errors import KamonError

MAX_RETRIES = 3
INSTALL_HINT = ("--backend ray needs Ray, which is not installed: pip install 'kamon[ray]' "
                "(or pip install 'ray>=2.30')")


def import_ray() -> Any:
    """The ray module, or a KamonError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise KamonError(INSTALL_HINT) from None
    return ray


class RayBackend:
    """Ray tasks, at most a few per CPU in flight, results as they finish."""

    in_process = False

    def __init__(self, address: str | None = None, cpus: int = 1) -> None:
        ray = import_ray()
        self._ray = ray
        self._owned = False
        if not ray.is_initialized():
            if cpus < 1:
                raise KamonError("--jobs must be at least 1")
            quiet: dict[str, Any] = {"logging_level": logging.ERROR,
                                     "log_to_driver": False, "include_dashboard": False}
            try:
                if address:
                    import kamon

                    ray.init(address=address, runtime_env={"py_modules": [kamon]}, **quiet)
                else:
                    ray.init(address="local", num_cpus=cpus, **quiet)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = f"the Ray cluster at {address}" if address else "a local Ray"
                raise KamonError(f"cannot start or reach {where}: {exc}") from None
            self._owned = True
        self.workers = max(1, int(ray.cluster_resources().get("CPU", cpus)))
        where = address or "local"
        self.label = f"Ray ({where}, {self.workers} CPUs)"
        self._remote: dict[Callable[[Any], Any], Any] = {}

    def _task(self, fn: Callable[[Any], Any]) -> Any:
        """fn as a Ray remote function (one CPU, retried if its worker dies)."""
        task = self._remote.get(fn)
        if task is None:
            task = self._ray.remote(num_cpus=1, max_retries=MAX_RETRIES,
                                    retry_exceptions=False)(fn)
            self._remote[fn] = task
        return task

    def map_unordered(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[Any]:
        """Submit tasks (two per CPU in flight) and yield each result as it arrives."""
        ray = self._ray
        task = self._task(fn)
        todo = list(items)
        todo.reverse()
        window = 2 * self.workers
        pending: list[Any] = []
        try:
            while todo or pending:
                while todo and len(pending) < window:
                    pending.append(task.remote(todo.pop()))
                done, pending = ray.wait(pending, num_returns=1)
                yield self._get(done[0])
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def _get(self, ref: Any) -> Any:
        """A task's result; its own error re-raised, a worker lost for good explained."""
        ray = self._ray
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, BaseException):
                raise cause from None
            raise
        except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError,
                ray.exceptions.ObjectLostError) as exc:
            raise KamonError(f"a Ray task failed {MAX_RETRIES + 1} times (its worker died "
                             f"each time): {type(exc).__name__}; the batches that finished "
                             "are kept: run the same command again to resume") from None

    def close(self) -> None:
        """Stop the local Ray kamon started (a cluster, or a Ray started by the caller,
        stays up)."""
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()
        self._owned = False
