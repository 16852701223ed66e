"""Summary of the fuzzing: decisions checked (total and per second) and bad input refused.

Each pytest-xdist worker counts in `tests.fuzz.driver.STATS`; the counts travel to the
controller with the worker's output and are printed once at the end of the run.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import Any

import pytest

from tests.fuzz.driver import STATS

_TOTAL: Counter[str] = Counter()
_START = [time.perf_counter()]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Note when the run began (for the wall-clock rate)."""
    _START[0] = time.perf_counter()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker hands its counts to the controller; a run without workers keeps them."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["kamon_fuzz_stats"] = json.dumps(dict(STATS))
    else:
        _TOTAL.update(STATS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """The controller adds up the counts of each worker as it finishes."""
    stats = getattr(node, "workeroutput", {}).get("kamon_fuzz_stats")
    if stats:
        _TOTAL.update(json.loads(stats))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int,
                            config: pytest.Config) -> None:
    """Print the fuzzing figures when fuzz tests ran."""
    decisions = int(_TOTAL.get("decisions checked", 0))
    if not decisions:
        return
    wall = time.perf_counter() - _START[0]
    busy = float(_TOTAL.get("seconds", 0.0))
    failed = len(terminalreporter.stats.get("failed", []))
    others = ", ".join(f"{int(v):,} {k}" for k, v in sorted(_TOTAL.items())
                       if k not in ("decisions checked", "seconds"))
    terminalreporter.write_sep("-", "kamon fuzz")
    terminalreporter.write_line(
        f"{decisions:,} decisions checked in {wall:,.0f} s: {decisions / wall:,.0f} per second "
        f"(wall clock, whole run); {decisions / busy if busy else 0:,.0f} per second per "
        f"core while playing; {failed} violation(s) (failed tests)")
    terminalreporter.write_line(others)
