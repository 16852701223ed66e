"""Benchmark of `kamon simulate`'s backends: games per second with 1 and 2 local processes
and with Ray on 2 CPUs, and Ray's overhead per task.

Usage: python bench/bench_sim.py [--games N] [--game white-castle|clansman] [--players P]
                                 [--agents random] [--tasks N] [--skip-ray]

Each run plays the same seeds (0..N-1) with the same random agents and writes the same
Parquet results (in a temporary folder, part files and merge included); the runs' files
are compared byte for byte. Games per second are wall clock from the first batch to the
merged file; starting the local pool's processes and starting Ray are measured apart
(each is paid once per run; Ray's not at all on a running cluster).
Ray's overhead per task: N empty tasks on 2 CPUs (throughput), and N empty tasks one
after another (round trip). It prints, never asserts.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import sys
import tempfile
import time
from pathlib import Path

from kamon.sim.backends import Backend, LocalBackend
from kamon.sim.runner import SimSpec
from kamon.sim.simulation import run_simulation


def nothing(x: int) -> int:
    """An empty task: what Ray costs around a task, without the task."""
    return x


def timed_run(spec: SimSpec, games: int, backend: Backend, out: Path
              ) -> tuple[float, float, str]:
    """Wall seconds and this process's CPU seconds to play and keep `games` games on a
    backend, and the file's SHA-256."""
    start, cpu = time.perf_counter(), time.process_time()
    done = run_simulation(spec, 0, games, backend, out)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert done.played == games
    return elapsed, cpu, hashlib.sha256(out.read_bytes()).hexdigest()


def ray_overhead(tasks: int) -> tuple[float, float, float]:
    """(Ray start seconds, ms per empty task with 2 CPUs busy, ms per sequential round
    trip); Ray is stopped again afterwards."""
    import ray

    start = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING)
    startup = time.perf_counter() - start
    try:
        task = ray.remote(num_cpus=1)(nothing)
        ray.get([task.remote(i) for i in range(20)])  # workers up
        start = time.perf_counter()
        ray.get([task.remote(i) for i in range(tasks)])
        parallel = (time.perf_counter() - start) / tasks
        n = max(1, tasks // 5)
        start = time.perf_counter()
        for i in range(n):
            ray.get(task.remote(i))
        serial = (time.perf_counter() - start) / n
    finally:
        ray.shutdown()
    return startup, 1000 * parallel, 1000 * serial


def main(argv: list[str] | None = None) -> int:
    """Run the three backends and the overhead probe; print figures and ratios."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--game", default="white-castle")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--agents", default="random")
    ap.add_argument("--tasks", type=int, default=2000, help="empty Ray tasks for the probe")
    ap.add_argument("--skip-ray", action="store_true")
    args = ap.parse_args(argv)
    spec = SimSpec(args.game, args.players, (args.agents,) * args.players, {})
    print(f"{args.games} games of {args.game}, {args.players} players, {args.agents} agents "
          "(seeds 0..N-1), results to Parquet")
    rates: dict[str, float] = {}
    digests: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for jobs in (1, 2):
            backend = LocalBackend(jobs)
            try:
                start = time.perf_counter()
                list(backend.map_unordered(nothing, range(2 * jobs)))  # processes up
                startup = time.perf_counter() - start
                secs, cpu, digests[f"local {jobs}"] = timed_run(
                    spec, args.games, backend, Path(tmp) / f"local{jobs}.parquet")
            finally:
                backend.close()
            rates[f"local {jobs}"] = args.games / secs
            started = (f" (+ {startup:.1f} s to start the processes)" if jobs > 1 else
                       f" ({args.games / cpu:.1f} games per CPU second: the rate of one "
                       "uncontended core)")
            print(f"  local, {jobs} process(es): {secs:7.2f} s  {rates[f'local {jobs}']:8.1f} "
                  f"games/s{started}")
        if not args.skip_ray:
            from kamon.sim.ray_backend import RayBackend

            start = time.perf_counter()
            ray_backend = RayBackend(cpus=2)
            startup = time.perf_counter() - start
            try:
                secs, _, digests["ray 2"] = timed_run(spec, args.games, ray_backend,
                                                      Path(tmp) / "ray.parquet")
            finally:
                ray_backend.close()
            rates["ray 2"] = args.games / secs
            print(f"  Ray, 2 CPUs:           {secs:7.2f} s  {rates['ray 2']:8.1f} games/s "
                  f"(+ {startup:.1f} s to start Ray)")
    print("ratios:")
    print(f"  local 2 / local 1: {rates['local 2'] / rates['local 1']:.2f}x")
    if "ray 2" in rates:
        print(f"  Ray 2 / local 1:   {rates['ray 2'] / rates['local 1']:.2f}x")
        print(f"  Ray 2 / local 2:   {rates['ray 2'] / rates['local 2']:.2f}x")
    same = len(set(digests.values())) == 1
    print(f"same bytes from every backend: {'yes' if same else 'NO: ' + str(digests)}")
    if not args.skip_ray:
        startup, parallel, serial = ray_overhead(args.tasks)
        per_game = 1000 / rates["local 1"]
        print(f"Ray overhead: start {startup:.1f} s; {parallel:.2f} ms per empty task with 2 "
              f"CPUs busy ({args.tasks} tasks), {serial:.2f} ms per task one after another; "
              f"one game takes {per_game:.2f} ms here, so a batch of 500 games "
              f"({500 * per_game / 1000:.1f} s) pays {100 * serial / (500 * per_game):.2f}% "
              "in overhead")
    return 0


if __name__ == "__main__":
    sys.exit(main())
