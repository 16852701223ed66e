"""Process pools whose workers never outlive the process that started them: each spawned
worker exits as soon as its parent is gone, even one killed with SIGKILL (which runs no
clean-up, and would leave the workers re-parented and waiting forever), and pins torch to
its thread count if it is already there (`kamon.core.threads`). The server's bots think in
one; `kamon simulate` plays its local batches in one."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from kamon.core.threads import pin_worker

PARENT_CHECK_SECONDS = 0.25  # how often a worker looks whether its parent is still there


def watch_parent(parent_pid: int) -> None:
    """In a worker process: exit as soon as the process that started it is gone."""
    def watch() -> None:
        while True:
            if os.getppid() != parent_pid:
                os._exit(0)
            time.sleep(PARENT_CHECK_SECONDS)

    if os.getppid() != parent_pid:
        os._exit(0)
    threading.Thread(target=watch, name="kamon-parent-watch", daemon=True).start()


def start_worker(parent_pid: int) -> None:
    """A tied pool's worker initializer: watch the parent, pin torch's threads."""
    watch_parent(parent_pid)
    pin_worker()


def tied_pool(workers: int) -> ProcessPoolExecutor:
    """`workers` spawned processes tied to this one."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=start_worker, initargs=(os.getpid(),))
