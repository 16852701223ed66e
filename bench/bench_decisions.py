"""Benchmark of the per-decision logs (`kamon simulate --decisions`): the same seeds played
in this process with and without the logs, in alternation, CPU seconds of each, and the
ratio; and that a run without them pays nothing measurable.

Usage: python bench/bench_decisions.py [--game white-castle] [--players 3] [--games 100]
           [--agents random] [--repeats 3] [--without-only]

`--without-only` times the runs without logs alone: run it with PYTHONPATH set to the
`src` of a checkout from before the logs (e.g. `git archive HEAD~N src | tar -x -C DIR`)
to see that a run which does not ask for them is as fast as before.

Both runs play identical games (the logs draw no randomness); the figure is the process's
CPU time (other processes on a shared machine slow the wall clock, not it). It prints,
never asserts.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kamon.sim.backends import LocalBackend
from kamon.sim.runner import SimSpec
from kamon.sim.simulation import run_simulation


def timed(spec: SimSpec, games: int) -> tuple[float, int]:
    """CPU seconds to play seeds 0..games-1 of a spec in this process, and decisions logged."""
    start = time.process_time()
    outcome = run_simulation(spec, 0, games, LocalBackend(1))
    logs = getattr(outcome, "decisions", None)  # None in a checkout from before the logs
    logged = logs.num_rows if logs is not None else 0
    return time.process_time() - start, logged


def main() -> None:
    """Alternate runs without and with the logs; print each and the ratio of medians."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="white-castle")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--agents", default="random")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--without-only", action="store_true")
    a = ap.parse_args()
    agents = tuple([a.agents] * a.players)
    plain = SimSpec(a.game, a.players, agents, {})
    timed(plain, 2)  # warm the caches and imports
    if a.without_only:
        runs = [timed(plain, a.games)[0] for _ in range(a.repeats)]
        print(f"{a.game}, {a.players} x {a.agents}, {a.games} games, without logs: CPU "
              f"{', '.join(f'{t:.2f}' for t in runs)} s; median {statistics.median(runs):.2f}")
        return
    logged = SimSpec(a.game, a.players, agents, {}, decisions=True)
    off, on, rows = [], [], 0
    for r in range(a.repeats):
        t, _ = timed(plain, a.games)
        off.append(t)
        t, rows = timed(logged, a.games)
        on.append(t)
        print(f"repeat {r + 1}: without {off[-1]:.2f} s, with --decisions {on[-1]:.2f} s "
              f"({rows:,} decisions logged)")
    m_off, m_on = statistics.median(off), statistics.median(on)
    print(f"{a.game}, {a.players} x {a.agents}, {a.games} games: median CPU without "
          f"{m_off:.2f} s ({a.games / m_off:.1f} games/s), with --decisions {m_on:.2f} s "
          f"({a.games / m_on:.1f} games/s); ratio {m_on / m_off:.2f}")


if __name__ == "__main__":
    main()
