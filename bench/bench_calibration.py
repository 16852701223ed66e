"""Calibration of `kamon compare` (issue 39): the share of A/A pages (two runs that differ
in nothing) with any finding "more than chance". The page's rule promises at most 5%.

Usage: python bench/bench_calibration.py [--pool results.parquet] [--game clansman]
           [--players 4] [--agents greedy] [--games 8000] [--pages 800] [--n 400]
           [--unpaired] [--old-rule]

The pool is a results file (`--pool`), or `--games` games simulated once into a cache
(in the temporary folder, reused by later runs; 8,000 greedy I, Clansman games take about
30 minutes on 2 cores). The pool must be much larger than a page's 2n games: pages of 800
games drawn from 2,000 share most of them, and their share of flagged pages was the
pool's (5.4% over 3,200 pages) more than the rule's (3.2% over 1,600 pages of a pool of
8,000; docs/designers.md). Each page draws 2n distinct games of the pool at
random, n as the base and n as the variant, relabelled to the same seeds 0..n-1 so the
page is paired (`kamon.sim.calibration`); `--unpaired` gives the variant other seeds.
`--old-rule` also runs the rule before issue 39 on the same pages (every group from 5
seat results, delta-method t everywhere: 8.3% of paired pages flagged in the issue) and
prints the ratio. Prints the share of flagged pages with its Wilson 95% interval (a
little narrow: pages of one pool share games) and the findings that flagged most often;
never asserts.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from kamon.sim import compare
from kamon.sim.backends import LocalBackend
from kamon.sim.calibration import Calibration, calibrate
from kamon.sim.results import read_results
from kamon.sim.runner import SimSpec
from kamon.sim.simulation import run_simulation

CACHE = Path(tempfile.gettempdir()) / "kamon-bench-calibration"


def pool(args: argparse.Namespace) -> Path:
    """The pool's results file: --pool, or a cached simulation of --games games."""
    if args.pool:
        return Path(args.pool)
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"calibration-{args.game}-{args.players}-{args.agents}-{args.games}.parquet"
    if not path.exists():
        print(f"simulating {args.games} games of {args.game} ({args.agents}) into {path}...")
        spec = SimSpec(args.game, args.players, (args.agents,) * args.players, {})
        run_simulation(spec, 0, args.games, LocalBackend(args.jobs), path)
    return path


def show(name: str, cal: Calibration, seconds: float) -> None:
    """One rule's figures."""
    lo, hi = cal.interval
    print(f"{name}: {cal.flagged} of {cal.pages} {cal.design} A/A pages flagged something: "
          f"{100 * cal.share:.1f}% (95% interval {100 * lo:.1f} to {100 * hi:.1f}); "
          f"{cal.tests} tests a page, {cal.games} games a side; {seconds:.1f} s")
    for subject, count in sorted(cal.flags.items(), key=lambda x: -x[1])[:8]:
        print(f"    {count:4d} pages: {subject}")


def main() -> None:
    """Run the calibration and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pool")
    ap.add_argument("--game", default="clansman")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--agents", default="greedy")
    ap.add_argument("--games", type=int, default=8000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--pages", type=int, default=800)
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--unpaired", action="store_true")
    ap.add_argument("--old-rule", action="store_true")
    args = ap.parse_args()
    table = read_results(pool(args))
    print(f"pool: {table.num_rows:,} seat results; {args.pages} pages of {args.n} games a side")
    start = time.perf_counter()
    new = calibrate(table, args.pages, args.n, args.seed, not args.unpaired)
    show(f"this rule (swap test under {compare.SWAP_GAMES} games, groups in >= "
         f"{compare.MIN_GAMES} games)", new, time.perf_counter() - start)
    if args.old_rule:
        saved = compare.SWAP_GAMES, compare.MIN_GAMES
        compare.SWAP_GAMES, compare.MIN_GAMES = 0, 1
        try:
            start = time.perf_counter()
            old = calibrate(table, args.pages, args.n, args.seed, not args.unpaired)
        finally:
            compare.SWAP_GAMES, compare.MIN_GAMES = saved
        show("the old rule (delta-method t from 5 seat results)", old,
             time.perf_counter() - start)
        if new.flagged:
            print(f"old / new flagged pages: {old.flagged / new.flagged:.2f}")


if __name__ == "__main__":
    main()
