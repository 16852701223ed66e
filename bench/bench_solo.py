"""The Tokugawa rival's final score per difficulty against a uniform-random player.

Prints (never asserts) the distribution of the rival's and the player's final scores
over N seeded solo games per difficulty, and the rival's win rate. Run:
    .venv/bin/python bench/bench_solo.py [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from kamon.core.rng import Rng
from kamon.games.white_castle import GAME

DIFFICULTIES = ("easy", "medium", "hard")


def play(difficulty: str, seed: int) -> tuple[int, int, bool]:
    """One random-player solo game: (player total, rival total, rival won)."""
    state = GAME.new_game(1, seed, difficulty=difficulty)
    rng = Rng(seed)
    while not state.is_over():
        ids = state.legal_ids()
        state.apply(ids[rng.below(len(ids))])
    scores = state.scores()
    return scores[0]["total"], scores[1]["total"], state.winners() == [1]


def quartiles(values: list[int]) -> str:
    """min / q1 / median / q3 / max."""
    q = statistics.quantiles(values, n=4)
    return f"{min(values)} / {q[0]:.0f} / {q[1]:.0f} / {q[2]:.0f} / {max(values)}"


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    print(f"Solo games against the Tokugawa rival, {args.games} per difficulty, "
          "the player choosing uniformly at random")
    print(f"{'difficulty':10} {'rival mean':>10} {'sd':>5}  {'rival min/q1/med/q3/max':>24}"
          f"  {'player mean':>11}  {'rival wins':>10}  {'games/s':>7}")
    for diff in DIFFICULTIES:
        start = time.perf_counter()
        results = [play(diff, seed) for seed in range(args.games)]
        elapsed = time.perf_counter() - start
        rival = [r for _, r, _ in results]
        player = [p for p, _, _ in results]
        wins = sum(w for _, _, w in results)
        print(f"{diff:10} {statistics.mean(rival):10.1f} {statistics.pstdev(rival):5.1f}  "
              f"{quartiles(rival):>24}  {statistics.mean(player):11.1f}  "
              f"{100 * wins / len(results):9.1f}%  {len(results) / elapsed:7.0f}")


if __name__ == "__main__":
    main()
