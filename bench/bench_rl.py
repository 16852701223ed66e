"""Benchmark of the research interfaces: their speed against the bare engine, and a
MaskablePPO learning run.

Usage: python bench/bench_rl.py [--seconds S] [--rounds R] [--timesteps T] [--chunk C]
                                [--eval-games N] [--skip-speed] [--skip-learning]

1. Speed. Per game (The White Castle 4 players, I, Clansman 4 players Beginner), random
   legal moves played through each interface for about S CPU seconds a row, all rows
   interleaved over R rounds (medians printed), each observing interface twice: with
   observations read straight from the state (`encode_state`, "state") and as before it,
   by encoding `view(seat)` ("view"); and OpenSpiel's C++ backgammon with and without
   `observation_tensor`, the anchor, side by side:
   - engine: `legal_actions()` + `apply()` (no observation at all);
   - PettingZoo AEC: `last()` (the observation and mask of the agent to move) + `step()`;
   - Gymnasium: `step()` of seat 0 with `random` bots in the other seats (their moves
     are engine moves, so per decision it is cheaper than PettingZoo);
   - OpenSpiel: `legal_actions()` + `apply_action()`, and the same plus
     `observation_tensor()` of the player to move (what an RL loop reads);
   - the parts: the engine plus `Encoding.observe` of the seat to move, and plus the mask
     too; the differences between rows price the observation, the mask and the
     interface's own bookkeeping ("where an observed decision's time goes").
   It prints decisions per CPU second, the engine's rate divided by the interface's
   (the wrapper's overhead: 3.0 = the interface takes three times as long per decision),
   the gain of the state path over the view path, and each observing row's rate as a
   fraction of the anchor's.
2. Learning. sb3-contrib's MaskablePPO learns seat 0 of a 2-player White Castle against
   the `random` bot (reward "margin" while training: the scaled score margin). After every
   C steps it plays N seeded evaluation games (deterministic policy, the mask applied)
   and prints the win rate with its Wilson 95% interval; before training, the same games
   with uniformly random legal moves give the baseline; at the end the policy also plays
   the `normal` bot (greedy). The last line says whether it learnt: its final interval
   lies wholly above the baseline's.

CPU times are of this process only; on a shared machine they are still lower bounds on
speed. It prints, never asserts.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from kamon.games import get_game
from kamon.rl import Encoding, make_env, make_gym_env
from kamon.sim.tournament import wilson

SPEED_GAMES: list[tuple[str, str, int, dict[str, Any]]] = [
    ("The White Castle, 4 players", "white-castle", 4, {}),
    ("I, Clansman, 4 players", "clansman", 4, {}),
]
OPENSPIEL_NAMES = {"white-castle": "python_kamon_white_castle",
                   "clansman": "python_kamon_clansman"}


def timed(run_game: Callable[[int], int], seconds: float) -> float:
    """Decisions per CPU second of whole games (game i seeded i) until `seconds` pass."""
    decisions = 0
    start = time.process_time()
    seed = 0
    while time.process_time() - start < seconds:
        decisions += run_game(seed)
        seed += 1
    return decisions / (time.process_time() - start)


def engine_game(game: str, players: int, options: dict[str, Any]) -> Callable[[int], int]:
    """One random game through the bare engine; its number of decisions."""
    g = get_game(game)

    def run(seed: int) -> int:
        state = g.new_game(players, seed=seed, **options)
        rng = random.Random(seed)
        n = 0
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            n += 1
        return n
    return run


def parts_game(game: str, players: int, options: dict[str, Any],
               part: str) -> Callable[[int], int]:
    """One random game through the bare engine plus one part of an observed decision:
    "observe" (`Encoding.observe` of the seat to move, the move drawn from `legal_ids`)
    or "observe + mask" (the move drawn from the mask, as the PettingZoo row draws it);
    its decisions. The differences between these rows price each part."""
    from kamon.rl.encoding import encoding, legal_ids

    g = get_game(game)
    enc = encoding(game)
    with_mask = part == "observe + mask"

    def run(seed: int) -> int:
        state = g.new_game(players, seed=seed, **options)
        rng = random.Random(seed)
        n = 0
        while not state.is_over():
            enc.observe(state, state.to_move)
            if with_mask:
                state.apply(rng.choice(np.flatnonzero(enc.mask(state)).tolist()))
            else:
                state.apply(rng.choice(legal_ids(state)))
            n += 1
        return n
    return run


def pettingzoo_game(game: str, players: int, options: dict[str, Any]) -> Callable[[int], int]:
    """One random game through the PettingZoo AEC environment; its decisions."""
    env = make_env(game, players=players, **options)

    def run(seed: int) -> int:
        env.reset(seed=seed)
        rng = random.Random(seed)
        n = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            n += 1
        return n
    return run


def gym_game(game: str, players: int, options: dict[str, Any],
             steps_out: list[int]) -> Callable[[int], int]:
    """One random episode of seat 0 against random bots; all decisions of the game
    (`steps_out` collects the seat's own env steps)."""
    env = make_gym_env(game, players=players, opponents="random", **options)

    def run(seed: int) -> int:
        _, info = env.reset(seed=seed)
        rng = random.Random(seed)
        done = False
        while not done:
            _, _, done, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
            steps_out[0] += 1
        assert env.state is not None
        return len(env.state.history)
    return run


def openspiel_game(game: str, players: int, observe: bool) -> Callable[[int], int]:
    """One random game through the OpenSpiel registration (optionally reading the
    observation tensor of the player to move); its decisions."""
    import pyspiel

    # the one-seed root chance mode: the figures stay those of the decisions alone
    spiel = pyspiel.load_game(OPENSPIEL_NAMES[game], {"players": players, "chance": "root"})

    def run(seed: int) -> int:
        state = spiel.new_initial_state()
        rng = random.Random(seed)
        state.apply_action(rng.randrange(len(state.chance_outcomes())))  # the deal
        n = 0
        while not state.is_terminal():
            if observe:
                state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n
    return run


def backgammon_game(observe: bool) -> Callable[[int], int]:
    """One random game of OpenSpiel's C++ backgammon (the anchor), optionally reading the
    observation tensor of the player to move; its decisions (chance nodes not counted)."""
    import pyspiel

    spiel = pyspiel.load_game("backgammon")

    def run(seed: int) -> int:
        state = spiel.new_initial_state()
        rng = random.Random(seed)
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            if observe:
                state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n
    return run


@contextmanager
def observation_path(path: str) -> Iterator[None]:
    """Observations through the game's fast `encode_state` ("state") or, as before it, by
    encoding `view(seat)` ("view"): the same numbers (tests/rl prove it), two costs."""
    if path == "state":
        yield
        return
    fast = Encoding.observe
    Encoding.observe = Encoding.observe_view  # type: ignore[method-assign]
    try:
        yield
    finally:
        Encoding.observe = fast  # type: ignore[method-assign]


def speed(seconds: float, rounds: int) -> None:
    """Decisions per CPU second per interface, both observation paths and the C++ anchor
    interleaved over `rounds` rounds (medians), with the ratios."""
    print(f"Speed: decisions per CPU second (random legal moves, whole games), median of "
          f"{rounds} interleaved rounds of {seconds:g} CPU s a row")
    rows: list[tuple[str, str, str, Callable[[int], int], list[int] | None]] = []
    for label, game, players, options in SPEED_GAMES:
        rows.append((label, "engine (legal_actions + apply)", "-",
                     engine_game(game, players, options), None))
        for part in ("observe", "observe + mask"):
            rows.append((label, f"engine + {part}", "part",
                         parts_game(game, players, options, part), None))
        for path in ("view", "state"):
            counter = [0]
            rows += [
                (label, "PettingZoo AEC (last + step)", path,
                 pettingzoo_game(game, players, options), None),
                (label, "Gymnasium (step, random bots)", path,
                 gym_game(game, players, options, counter), counter),
                (label, "OpenSpiel (+ observation_tensor)", path,
                 openspiel_game(game, players, True), None)]
        rows.append((label, "OpenSpiel (legal + apply)", "-",
                     openspiel_game(game, players, False), None))
    rows.append(("backgammon (OpenSpiel C++)", "legal + apply", "-", backgammon_game(False),
                 None))
    rows.append(("backgammon (OpenSpiel C++)", "+ observation_tensor", "-",
                 backgammon_game(True), None))
    rates: dict[int, list[float]] = {i: [] for i in range(len(rows))}
    own: dict[int, list[float]] = {i: [] for i in range(len(rows))}
    for _ in range(rounds):
        for i, (_label, _name, path, run, steps) in enumerate(rows):
            with observation_path(path if path == "view" else "state"):
                before = steps[0] if steps else 0
                start = time.process_time()
                rates[i].append(timed(run, seconds))
                if steps is not None:
                    own[i].append((steps[0] - before) / (time.process_time() - start))
    med = {i: float(np.median(v)) for i, v in rates.items()}
    print(f"{'game':<30} {'interface':<34} {'obs path':<8} {'decisions/s':>12} "
          f"{'engine/it':>9} {'state/view':>10}")
    anchor = next(i for i, r in enumerate(rows) if r[1] == "+ observation_tensor")
    for i, (label, name, path, _run, steps) in enumerate(rows):
        engine = next(j for j, r in enumerate(rows) if r[0] == label)
        gain = ""
        if path == "state":
            view = next(j for j, r in enumerate(rows)
                        if r[0] == label and r[1] == name and r[2] == "view")
            gain = f"{med[i] / med[view]:.1f}x"
        extra = ""
        if steps is not None:
            extra = f"  ({float(np.median(own[i])):,.0f} own-seat env steps/s)"
        print(f"{label:<30} {name:<34} {path:<8} {med[i]:>12,.0f} "
              f"{med[engine] / med[i]:>8.1f}x {gain:>10}{extra}")
    print("\nWhere an observed decision's time goes (microseconds of CPU a decision, from "
          "the medians above; the target is an interface at >= 0.4 of the engine's rate)")
    for label, _game, _players, _options in SPEED_GAMES:
        def us(name: str, path: str, label: str = label) -> float:
            """Microseconds a decision of one row of this game."""
            j = next(j for j, r in enumerate(rows)
                     if r[0] == label and r[1] == name and r[2] == path)
            return 1e6 / med[j]
        engine_us = us("engine (legal_actions + apply)", "-")
        obs_us = us("engine + observe", "part")
        mask_us = us("engine + observe + mask", "part")
        pz_us = us("PettingZoo AEC (last + step)", "state")
        os_us = us("OpenSpiel (+ observation_tensor)", "state")
        print(f"  {label}: engine {engine_us:.1f}, observation +{obs_us - engine_us:.1f}, "
              f"mask (and the draw from it) +{mask_us - obs_us:.1f}, PettingZoo's "
              f"bookkeeping and copies +{pz_us - mask_us:.1f} = {pz_us:.1f} "
              f"({engine_us / pz_us:.2f} of the engine's rate); OpenSpiel with the tensor "
              f"{os_us:.1f} ({engine_us / os_us:.2f})")
    print("\nObservation rows against the anchor (backgammon with observation_tensor, "
          f"{med[anchor]:,.0f} decisions/s): kamon's rate / the anchor's")
    for i, (label, name, path, _run, _steps) in enumerate(rows):
        if path in ("view", "state"):
            print(f"  {label:<30} {name:<34} {path:<6} {med[i] / med[anchor]:6.2f}")
    sys.stdout.flush()


def play_eval(policy: Callable[[np.ndarray, Any, dict[str, Any]], int], games: int,
              opponents: str) -> tuple[int, float]:
    """Seat 0's wins and mean score margin over `games` seeded 2-player games."""
    env = make_gym_env("white-castle", players=2, opponents=opponents)
    wins = 0
    margins = []
    for i in range(games):
        obs, info = env.reset(seed=100_000 + i)
        done = False
        while not done:
            obs, _, done, _, info = env.step(policy(obs, env, info))
        assert env.state is not None
        wins += env.state.winners() == [0]
        totals = [s["total"] for s in env.state.scores()]
        margins.append(totals[0] - totals[1])
    return wins, float(np.mean(margins))


def learning(timesteps: int, chunk: int, games: int) -> None:
    """MaskablePPO on seat 0 of a 2-player White Castle against random: a learning curve."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    torch.set_num_threads(1)
    rng = np.random.default_rng(0)

    def uniform(obs: np.ndarray, env: Any, info: dict[str, Any]) -> int:
        return int(rng.choice(np.flatnonzero(info["action_mask"])))

    def line(label: str, wins: int, margin: float, extra: str = "") -> tuple[float, float]:
        lo, hi = wilson(wins, games)
        print(f"{label:<34} {wins:>4}/{games:<4} {100 * wins / games:>6.1f}%  "
              f"[{100 * lo:5.1f}-{100 * hi:5.1f}]  margin {margin:+6.1f}{extra}")
        sys.stdout.flush()
        return lo, hi

    print(f"\nLearning: MaskablePPO, seat 0 of The White Castle (2 players) against `random`; "
          f"evaluation over {games} seeded games, win rate with its Wilson 95% interval")
    wins, margin = play_eval(uniform, games, "random")
    _, base_hi = line("uniformly random legal moves", wins, margin)
    env = make_gym_env("white-castle", players=2, opponents="random", reward="margin")
    model = MaskablePPO("MlpPolicy", env, seed=0, device="cpu", n_steps=2048, batch_size=256,
                        policy_kwargs={"net_arch": [128, 128]}, verbose=0)
    model.set_logger(Logger(folder=None, output_formats=[]))  # no SB3-<date> folder in /tmp

    def learnt(obs: np.ndarray, env: Any, info: dict[str, Any]) -> int:
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        return int(action)

    start = time.time()
    lo = 0.0
    while model.num_timesteps < timesteps:
        model.learn(total_timesteps=chunk, reset_num_timesteps=False)
        wins, margin = play_eval(learnt, games, "random")
        lo, _ = line(f"after {model.num_timesteps:>7,} steps", wins, margin,
                     f"  ({time.time() - start:.0f} s wall)")
    wins, margin = play_eval(learnt, games, "normal")
    line("final policy against `normal`", wins, margin)
    verdict = ("yes: its final interval lies wholly above the random baseline's"
               if lo > base_hi else
               "no: its final interval overlaps the random baseline's")
    print(f"Learnt to beat `random`? {verdict}")


def main() -> int:
    """Run the benchmark parts asked for."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="CPU seconds per speed row and round")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved speed rounds")
    ap.add_argument("--timesteps", type=int, default=60_000, help="PPO training steps")
    ap.add_argument("--chunk", type=int, default=10_000, help="steps between evaluations")
    ap.add_argument("--eval-games", type=int, default=200, help="games per evaluation")
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--skip-learning", action="store_true")
    args = ap.parse_args()
    if not args.skip_speed:
        speed(args.seconds, args.rounds)
    if not args.skip_learning:
        learning(args.timesteps, args.chunk, args.eval_games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
