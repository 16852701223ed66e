"""How many threads torch gets in kamon's processes: one by default (`KAMON_TORCH_THREADS`).

Several worker processes each running torch's full thread pool oversubscribe the cores,
and small networks gain nothing from the pool. Measured by bench/bench_threads.py on 2
cores (torch's own 2 threads before, 1 after; shared machine, load 4-11): `nn.Linear`
(1,229 -> 64) in two processes at once, 13-39 ms -> 0.4-2.4 ms per call on 64 rows
(16-33x), 93-123 -> 69-84 µs on one row (1.1-1.8x); MaskablePPO training on
kamon.rl.sb3, 25-61 -> 257-479 steps/s (8-11x); `kamon simulate --jobs 2` with a small
trained policy, whose decisions are one row each: 16 games, start-up included, 48.3 ->
41.0 s (1.18x, load 8-10) and 23.8 -> 21.7 s (1.10x, load 4-5), `--games 64` at load 2.5
28.6 vs 29.6 s (no gain). Issue 40 saw 25.4 vs 8.8 s there with OMP_NUM_THREADS=1.

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
