"""How many threads torch gets in kamon's processes: one by default (`KAMON_TORCH_THREADS`).

A plug-in policy acts on one observation at a time, where torch's thread pool only costs:
on a 2-core machine an `nn.Linear` forward of one row took 1.57 ms on torch's default 2
threads against 51 µs on 1, and `kamon simulate --jobs 2` with a trained policy took
25.4 s against 8.8 s with OMP_NUM_THREADS=1 (issue 40; bench/bench_threads.py measures
it again). Several worker processes each running a full thread pool oversubscribe the
cores.

`pin_torch()` sets torch's intra-op thread count (`torch.set_num_threads`, which also
sets OpenMP's and MKL's) to `torch_threads()`: `KAMON_TORCH_THREADS` (default 1; `0` or
`auto` leave torch's own choice); the inter-op pool (used only by TorchScript's fork) is
left alone, since it can be set once per process and a caller may want to. It never
imports torch: it acts on the torch it is given (the policy loader passes the one it
just imported) or on one already imported, and does nothing otherwise, since importing
torch costs about a second of start-up. The policy loader (`kamon.agents.plugin`) calls
it whenever it loads a policy or builds a module agent, so every process that plays a
torch policy is pinned: `kamon play`, `kamon tournament`, the local pool and Ray workers
of `kamon simulate`, the server's bot workers (the variable is inherited by the
processes kamon starts); the process pools' workers call it on start too.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

from kamon.core.errors import KamonError

ENV = "KAMON_TORCH_THREADS"
DEFAULT_THREADS = 1
UNPINNED = ("0", "auto")  # values of ENV that leave torch's thread count alone


def torch_threads() -> int | None:
    """The thread count torch is pinned to (None: leave it alone); a KamonError for a
    value of KAMON_TORCH_THREADS that is not a count, `0` or `auto`."""
    raw = os.environ.get(ENV, "").strip().lower()
    if not raw:
        return DEFAULT_THREADS
    if raw in UNPINNED:
        return None
    try:
        count = int(raw)
    except ValueError:
        count = -1
    if count < 1:
        raise KamonError(f"{ENV}={os.environ[ENV]!r}: give the number of threads torch may "
                         "use (a positive integer, default 1), or 0 / auto for torch's own "
                         "choice")
    return count


def pin_torch(torch: Any | None = None) -> int | None:
    """Pin `torch` (or the torch already imported; never imports it) to `torch_threads()`
    threads; the count set, or None when nothing was done (no torch, or unpinned)."""
    count = torch_threads()
    if count is None:
        return None
    if torch is None:
        torch = sys.modules.get("torch")
        if torch is None or not hasattr(torch, "set_num_threads"):
            return None  # (not imported, or still being imported)
    if torch.get_num_threads() != count:
        torch.set_num_threads(count)
    return count


def pin_worker() -> None:
    """In a worker process kamon started: pin torch if it is already imported; a bad
    KAMON_TORCH_THREADS is left for the policy loader to report (a worker must start)."""
    with contextlib.suppress(KamonError):
        pin_torch()


__all__ = ["DEFAULT_THREADS", "ENV", "pin_torch", "pin_worker", "torch_threads"]
