"""Benchmark of torch's thread count in kamon's processes (kamon.core.threads, issue 40).

Usage: python bench/bench_threads.py [--games 16] [--jobs 2] [--repeats 2] [--calls 3000]
                                     [--train-steps 1024] [--skip-simulate]

Before/after, each in fresh processes (so torch starts with its own thread count):

1. `nn.Linear` forward (The White Castle's SIZE -> 64, a small policy's first layer) of
   one observation (as at play time, `--calls` calls) and of 64 (a training minibatch, a
   tenth as many calls) in J processes at once (`--jobs`, as a pool's workers run): mean
   (and median) µs per call (the mean is what a game pays: with the cores busy, a thread
   pool's cost is in its slow calls), torch left on its own thread count
   (`KAMON_TORCH_THREADS=auto`, what kamon did before) vs pinned to 1 (the default now),
   each in a subprocess that calls `kamon.core.threads.pin_torch`.
2. MaskablePPO training steps/s on the native batched env (kamon.rl.sb3, 4 games against
   `random`), torch's own threads vs 1 (the adapter leaves torch alone: docs/research.md
   advises pinning it).
3. `kamon simulate white-castle --agents ppo.zip --jobs J` (the policy in every seat): a
   MaskablePPO policy is trained here first (1 thread, `--train-steps`), then the same
   simulation is run with `KAMON_TORCH_THREADS=auto` (before) and unset (after: the
   workers pin torch to 1 thread when they load the policy), interleaved `--repeats`
   times; wall seconds of the whole command, start-up included.

Figures are wall clock on a shared machine: noisy; it prints the load average next to
them, and the ratios. It prints, never asserts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KAMON = str(Path(sys.executable).with_name("kamon"))
GAME = "white-castle"

LINEAR = """
import sys, time
import torch
from kamon.core.threads import pin_torch
from kamon.rl.encoding import encoding
pin_torch(torch)
size = encoding("white-castle").size
layer = torch.nn.Linear(size, 64)
calls, rows = int(sys.argv[1]), int(sys.argv[2])
x = torch.rand(rows, size)
times = []
with torch.no_grad():
    for _ in range(200):
        layer(x)
    for _ in range(calls):
        t = time.perf_counter()
        layer(x)
        times.append(time.perf_counter() - t)
print(torch.get_num_threads(), sum(times) / len(times) * 1e6,
      sorted(times)[len(times) // 2] * 1e6)
"""

TRAIN = """
import sys, time
import torch
from sb3_contrib import MaskablePPO
from kamon.core.threads import pin_torch
from kamon.rl.sb3 import make_sb3_env
pin_torch(torch)
steps, out = int(sys.argv[1]), sys.argv[2]
env = make_sb3_env("white-castle", 4, opponents="random")
model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=128, n_epochs=2, seed=0,
                    device="cpu", policy_kwargs={"net_arch": [64, 64]})
t = time.perf_counter()
model.learn(steps)
wall = time.perf_counter() - t
if out != "-":
    model.save(out)
print(torch.get_num_threads(), steps / wall)
"""


def env_with(threads: str | None) -> dict[str, str]:
    """This environment with KAMON_TORCH_THREADS set to `threads` (None: unset)."""
    env = {k: v for k, v in os.environ.items() if k != "KAMON_TORCH_THREADS"}
    if threads is not None:
        env["KAMON_TORCH_THREADS"] = threads
    return env


def run_python(code: str, args: list[str], threads: str | None) -> list[float]:
    """Run `code` in a fresh interpreter; the numbers it prints on its last line."""
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                         text=True, check=True, env=env_with(threads), cwd=ROOT)
    return [float(x) for x in out.stdout.strip().splitlines()[-1].split()]


def load() -> str:
    """The 1-minute load average, in words."""
    return f"load {os.getloadavg()[0]:.1f}"


def concurrent(code: str, args: list[str], threads: str | None, procs: int
               ) -> list[list[float]]:
    """Run `code` in `procs` fresh interpreters at once (as a pool's workers run); the
    numbers each prints on its last line."""
    running = [subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                                text=True, env=env_with(threads), cwd=ROOT)
               for _ in range(procs)]
    outs = [p.communicate()[0] for p in running]
    if any(p.returncode for p in running):
        raise SystemExit("a benchmark subprocess failed")
    return [[float(x) for x in out.strip().splitlines()[-1].split()] for out in outs]


def linear(calls: int, repeats: int, procs: int, batch: int) -> None:
    """nn.Linear of `batch` rows in `procs` processes at once: torch's own threads vs
    one, mean (and median) µs per call."""
    print(f"nn.Linear({GAME} SIZE -> 64) of {batch} row(s), {calls} calls in each of "
          f"{procs} processes at once: mean (median) us ({load()})")
    before: list[float] = []
    after: list[float] = []
    for _ in range(repeats):
        for threads, into, label in (("auto", before, "torch's own"), (None, after, "pinned")):
            rows = concurrent(LINEAR, [str(calls), str(batch)], threads, procs)
            mean = statistics.mean(r[1] for r in rows)
            med = statistics.mean(r[2] for r in rows)
            into.append(mean)
            print(f"  {label:11} ({rows[0][0]:.0f} threads): {mean:8.1f} ({med:.1f}) us")
        print(f"  ratio of means {before[-1] / after[-1]:.1f}x ({load()})")
    b, a = statistics.median(before), statistics.median(after)
    print(f"  median of the repeats: {b:.1f} us -> {a:.1f} us, {b / a:.1f}x faster pinned")


def train(steps: int, out: Path, repeats: int) -> None:
    """MaskablePPO steps/s on the adapter, torch's own threads vs one; saves the last
    pinned model to `out` for the simulation."""
    print(f"MaskablePPO.learn({steps}) on kamon.rl.sb3 (4 games vs random) ({load()})")
    for r in range(repeats):
        n0, sps0 = run_python(TRAIN, [str(steps), "-"], "auto")
        n1, sps1 = run_python(TRAIN, [str(steps), str(out) if r == repeats - 1 else "-"],
                              None)
        print(f"  torch's own ({n0:.0f} threads): {sps0:7.0f} steps/s   pinned ({n1:.0f}): "
              f"{sps1:7.0f} steps/s   ratio {sps1 / sps0:5.1f}x")


def simulate(policy: Path, games: int, jobs: int, repeats: int) -> None:
    """`kamon simulate --jobs J` with the policy in one seat: before (auto) vs after."""
    cmd = [KAMON, "simulate", GAME, "--agents", str(policy), "--games", str(games),
           "--jobs", str(jobs), "--seed", "0"]
    print(f"kamon simulate {GAME} --agents ppo.zip --games {games} --jobs {jobs} (the "
          "policy in every seat)")
    before: list[float] = []
    after: list[float] = []
    for _ in range(repeats):
        for threads, into in (("auto", before), (None, after)):
            t = time.perf_counter()
            subprocess.run(cmd, capture_output=True, text=True, check=True,
                           env=env_with(threads), cwd=policy.parent)
            into.append(time.perf_counter() - t)
        print(f"  torch's own threads: {before[-1]:6.1f} s   pinned to 1: {after[-1]:6.1f} s"
              f"   ratio {before[-1] / after[-1]:4.2f}x   ({load()})")
    b, a = statistics.median(before), statistics.median(after)
    print(f"  median: {b:.1f} s -> {a:.1f} s, {b / a:.2f}x faster pinned")


def main() -> None:
    """Parse the options and run the three measurements."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--train-steps", type=int, default=1024)
    parser.add_argument("--skip-simulate", action="store_true")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs; torch's own thread count in a fresh process: "
          f"{run_python('import torch; print(torch.get_num_threads())', [], None)[0]:.0f}")
    for batch, calls in ((1, args.calls), (64, max(1, args.calls // 10))):
        linear(calls, args.repeats, args.jobs, batch)
    with tempfile.TemporaryDirectory() as tmp:
        policy = Path(tmp) / "ppo.zip"
        train(args.train_steps, policy, args.repeats)
        if not args.skip_simulate:
            simulate(policy, args.games, args.jobs, args.repeats)


if __name__ == "__main__":
    main()
