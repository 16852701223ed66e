"""Benchmark of the native batched Gymnasium environment (kamon.rl.vector_env).

Usage: python bench/bench_vector_env.py [--seconds S] [--sizes 1,64,1024]
                                        [--games white-castle,clansman]
                                        [--modes self-play,random] [--no-sync]

For each game (The White Castle and I, Clansman, 4 players), each way of filling the
seats (self-play: the caller moves for every seat; random: the caller plays seat 0 and the
`random` bot the other three) and each batch size N, it steps a `KamonVectorEnv` for
about S CPU seconds, every action a uniformly random legal one picked from the masks
with NumPy (one `rng.random((N, A))` times the mask, argmax per row), and prints:

- env steps/s: N x calls / CPU seconds spent inside `step` (the env's own rate);
- loop steps/s: the same over the whole loop, the action picking included;
- games/s: games finished per CPU second (auto-reset included);
- obs us, mask us: the cost per game of `Encoding.observe` and of building the mask rows
  from the legal ids (np.zeros + one fancy index), timed apart on the env's current
  states afterwards; obs% is the observations' share of the step time per game.

With `--no-sync` left off it also runs, at N=64 with random bots, Gymnasium's
`SyncVectorEnv` over 64 single `KamonGymEnv`s (`gymnasium.make_vec(...,
vectorization_mode="sync")`) as the reference a native batch should beat.

CPU time is this process's only (time.process_time). It prints, never asserts.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np

from kamon.rl import GYM_IDS, make_vector_env
from kamon.rl.encoding import legal_ids

TITLES = {"white-castle": "The White Castle, 4 players", "clansman": "I, Clansman, 4 players"}
IDS = {game: gym_id for gym_id, game in GYM_IDS.items()}


def pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row (the argmax of random keys on the 1s)."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def run(env: Any, seconds: float, seed: int = 0) -> tuple[dict[str, float], dict[str, Any]]:
    """Step `env` with random legal actions for `seconds` CPU seconds; the rates and the
    last infos."""
    rng = np.random.default_rng(seed)
    t0 = time.process_time()
    _, infos = env.reset(seed=seed)
    reset_s = time.process_time() - t0
    calls = games = 0
    in_step = 0.0
    start = time.process_time()
    while True:
        actions = pick(infos["action_mask"], rng)
        t = time.process_time()
        _, _, terms, _, infos = env.step(actions)
        in_step += time.process_time() - t
        calls += 1
        games += int(terms.sum())
        if t - start >= seconds:
            break
    total = time.process_time() - start
    n = env.num_envs
    return {"calls": calls, "env": n * calls / in_step, "loop": n * calls / total,
            "games": games / total, "reset_ms": reset_s * 1e3,
            "step_us": in_step / (n * calls) * 1e6}, infos


def costs(env: Any, to_move: np.ndarray, repeat: int = 3) -> tuple[float, float]:
    """Microseconds per game of the observation (of the seat to move) and of the mask
    row, on the env's current states."""
    enc = env.enc
    states = env.states
    seats = [int(q) if q >= 0 else 0 for q in to_move]
    n = len(states)
    t = time.process_time()
    for _ in range(repeat):
        for state, q in zip(states, seats, strict=True):
            enc.observe(state, q)
    obs_us = (time.process_time() - t) / (repeat * n) * 1e6
    t = time.process_time()
    for _ in range(repeat):
        legal = [legal_ids(s) if not s.is_over() else [] for s in states]
        masks = np.zeros((n, enc.num_actions), dtype=np.int8)
        cols = [a for ids in legal for a in ids]
        rows = np.repeat(np.arange(n), [len(ids) for ids in legal])
        masks[rows, cols] = 1
    mask_us = (time.process_time() - t) / (repeat * n) * 1e6
    return obs_us, mask_us


def main() -> None:
    """Parse the options and print one table per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="CPU seconds per measurement (default 3)")
    parser.add_argument("--sizes", default="1,64,1024", help="batch sizes N, comma-separated")
    parser.add_argument("--games", default="white-castle,clansman")
    parser.add_argument("--modes", default="self-play,random",
                        help="self-play and/or a bot name for the seats other than 0")
    parser.add_argument("--no-sync", action="store_true",
                        help="skip the SyncVectorEnv reference at N=64")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    print(f"KamonVectorEnv, random legal actions from the masks, ~{args.seconds:g} CPU s each "
          "(steps = N x calls; CPU time of this process)")
    for game in args.games.split(","):
        print(f"\n{TITLES.get(game, game)}")
        print(f"{'mode':<10} {'N':>5} {'calls':>6} {'env steps/s':>12} {'loop steps/s':>13} "
              f"{'games/s':>8} {'reset ms':>9} {'step us':>8} {'obs us':>7} {'mask us':>8} "
              f"{'obs%':>5}")
        for mode in args.modes.split(","):
            opponents = None if mode == "self-play" else mode
            for n in sizes:
                env = make_vector_env(game, n, players=4, opponents=opponents)
                r, infos = run(env, args.seconds)
                obs_us, mask_us = costs(env, infos["to_move"])
                print(f"{mode:<10} {n:>5} {r['calls']:>6} {r['env']:>12,.0f} "
                      f"{r['loop']:>13,.0f} {r['games']:>8.1f} {r['reset_ms']:>9.1f} "
                      f"{r['step_us']:>8.1f} {obs_us:>7.1f} {mask_us:>8.2f} "
                      f"{100 * obs_us / r['step_us']:>4.0f}%", flush=True)
        if not args.no_sync:
            sync = gymnasium.make_vec(IDS[game], num_envs=64, vectorization_mode="sync",
                                      players=4, opponents="random")
            r, _ = run(sync, args.seconds)
            print(f"{'sync ref':<10} {64:>5} {r['calls']:>6} {r['env']:>12,.0f} "
                  f"{r['loop']:>13,.0f} {r['games']:>8.1f} {r['reset_ms']:>9.1f} "
                  f"{r['step_us']:>8.1f}   (SyncVectorEnv of 64 KamonGymEnv, random bots, "
                  "next-step reset)", flush=True)


if __name__ == "__main__":
    main()
