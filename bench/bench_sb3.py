"""Benchmark of SB3 on kamon's native batched env (kamon.rl.sb3) against a DummyVecEnv.

Usage: python bench/bench_sb3.py [--seconds 5] [--sizes 1,16,64] [--learn-steps 4096]
                                 [--opponents random]

Two ways to hand The White Castle (4 players, the learner in seat 0, `--opponents` in the
others) to Stable-Baselines3 with N games:

- dummy: SB3's `DummyVecEnv` over N `KamonGymEnv`s (one Python `step` per game), masks
  through `env_method("action_masks")`, as sb3-contrib's `get_action_masks` reads them;
- native: `kamon.rl.sb3.to_sb3(KamonVectorEnv)` (one `step` for the N games).

1. env steps/s: for about S CPU seconds, random legal actions picked from the masks
   (as get_action_masks gives them) with NumPy, N x steps / CPU seconds of the loop.
2. MaskablePPO.learn steps/s at N = 16 (n_steps 128, batch 256, 2 epochs, net [64, 64]),
   torch pinned to one thread (kamon.core.threads.pin_torch, as docs/research.md
   advises), for `--learn-steps` steps: what a training run sees, the network included.

CPU time is this process's only (time.process_time). It prints, never asserts.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from kamon.rl import make_gym_env, make_vector_env
from kamon.rl.sb3 import to_sb3

GAME = "white-castle"


def build(kind: str, n: int, opponents: str) -> Any:
    """An SB3 VecEnv of `n` games: a DummyVecEnv of gym envs or the native adapter."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    if kind == "dummy":
        makers: list[Callable[[], Any]] = [lambda: make_gym_env(GAME, opponents=opponents)
                                           for _ in range(n)]
        return DummyVecEnv(makers)
    return to_sb3(make_vector_env(GAME, n, opponents=opponents))


def env_rate(kind: str, n: int, opponents: str, seconds: float) -> float:
    """Env steps per CPU second with random legal actions, masks read as sb3-contrib
    reads them."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    env = build(kind, n, opponents)
    env.seed(0)
    env.reset()
    rng = np.random.default_rng(0)
    rows = np.arange(n)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        masks = get_action_masks(env)
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        assert masks[rows, actions].all()
        env.step(actions)
        steps += n
    rate = steps / (time.process_time() - start)
    env.close()
    return rate


def learn_rate(kind: str, n: int, opponents: str, total: int) -> float:
    """MaskablePPO.learn steps per CPU second on N games, torch on one thread."""
    import torch
    from sb3_contrib import MaskablePPO

    from kamon.core.threads import pin_torch

    pin_torch(torch)
    env = build(kind, n, opponents)
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=256, n_epochs=2, seed=0,
                        device="cpu", policy_kwargs={"net_arch": [64, 64]})
    start = time.process_time()
    model.learn(total)
    rate = total / (time.process_time() - start)
    env.close()
    return rate


def main() -> None:
    """Parse the options, print both tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--sizes", default="1,16,64")
    parser.add_argument("--learn-steps", type=int, default=4096)
    parser.add_argument("--opponents", default="random")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{GAME}, learner in seat 0 against {args.opponents}: env steps/s (CPU), random "
          "legal actions from get_action_masks")
    print(f"{'N':>5} {'dummy':>10} {'native':>10} {'ratio':>7}")
    for n in sizes:
        dummy = env_rate("dummy", n, args.opponents, args.seconds)
        native = env_rate("native", n, args.opponents, args.seconds)
        print(f"{n:>5} {dummy:>10.0f} {native:>10.0f} {native / dummy:>6.2f}x")
    print(f"MaskablePPO.learn({args.learn_steps}) at N=16, torch on 1 thread: steps/s (CPU)")
    dummy = learn_rate("dummy", 16, args.opponents, args.learn_steps)
    native = learn_rate("native", 16, args.opponents, args.learn_steps)
    print(f"  dummy {dummy:.0f}   native {native:.0f}   ratio {native / dummy:.2f}x")


if __name__ == "__main__":
    main()
