"""Benchmark of the I, Clansman engine: random full games per second on one core.

Usage: python bench/bench_clansman.py [--games N] [--profile]

For Beginner, Expert side A and Expert side B (4 players) it plays N seeded games
choosing uniformly from legal_ids() with kamon.core.rng.Rng, and prints games/s,
decisions per game, µs per legal_actions()+apply(), and µs per clone() and per
to_json() of mid-game states. It prints, never asserts. With --profile the Expert A
run is repeated under cProfile and the top 15 functions by own time are printed.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from dataclasses import dataclass
from typing import Any

from kamon.core.rng import Rng
from kamon.games.clansman import GAME, ClansmanState

PLAYERS = 4
MID_GAME_DECISION = 110  # about half of a 4-player game's ~220 decisions
# mode name -> new_game options
MODES: dict[str, dict[str, Any]] = {
    "Beginner": {},
    "Expert A": {"expert": True, "emperor_side": "A"},
    "Expert B": {"expert": True, "emperor_side": "B"},
}


@dataclass
class Result:
    """Figures of one mode."""

    mode: str
    games: int
    games_per_s: float
    decisions_per_game: float
    us_per_decision: float
    us_per_clone: float
    us_per_to_json: float


def play_games(options: dict[str, Any], games: int,
               seed0: int = 0) -> tuple[float, int, list[ClansmanState]]:
    """Play `games` random games with legal_ids(); (seconds, decisions, mid-game states)."""
    decisions = 0
    mids: list[ClansmanState] = []
    start = time.perf_counter()
    for seed in range(seed0, seed0 + games):
        state = GAME.new_game(PLAYERS, seed, **options)
        rng = Rng(seed)
        n = 0
        while not state.is_over():
            ids = state.legal_ids()
            state.apply(ids[rng.below(len(ids))])
            n += 1
            if n == MID_GAME_DECISION and len(mids) < 100:
                mids.append(state.clone())
        decisions += n
    return time.perf_counter() - start, decisions, mids


def time_decisions(options: dict[str, Any], games: int) -> float:
    """µs per legal_actions()+apply() (Action objects, as agents use them)."""
    decisions = 0
    start = time.perf_counter()
    for seed in range(10_000, 10_000 + games):
        state = GAME.new_game(PLAYERS, seed, **options)
        rng = Rng(seed)
        while not state.is_over():
            acts = state.legal_actions()
            state.apply(acts[rng.below(len(acts))])
            decisions += 1
    elapsed = time.perf_counter() - start
    # Setup is part of the elapsed time; subtract it to count decisions only.
    setup_start = time.perf_counter()
    for seed in range(10_000, 10_000 + games):
        GAME.new_game(PLAYERS, seed, **options)
    elapsed -= time.perf_counter() - setup_start
    return 1e6 * elapsed / max(decisions, 1)


def time_per_call(states: list[ClansmanState], what: str, repeat: int = 20) -> float:
    """µs per clone() or to_json() over the given mid-game states."""
    if not states:
        return float("nan")
    start = time.perf_counter()
    for _ in range(repeat):
        for s in states:
            if what == "clone":
                s.clone()
            else:
                s.to_json()
    return 1e6 * (time.perf_counter() - start) / (repeat * len(states))


def bench(mode: str, games: int) -> Result:
    """All figures for one mode."""
    options = MODES[mode]
    play_games(options, min(games, 10), seed0=50_000)  # warm caches (data load, imports)
    elapsed, decisions, mids = play_games(options, games)
    return Result(
        mode=mode,
        games=games,
        games_per_s=games / elapsed,
        decisions_per_game=decisions / games,
        us_per_decision=time_decisions(options, max(games // 3, 10)),
        us_per_clone=time_per_call(mids, "clone"),
        us_per_to_json=time_per_call(mids, "to_json"),
    )


def profile(games: int) -> None:
    """Play the Expert A run under cProfile; print the top 15 functions by tottime."""
    profiler = cProfile.Profile()
    profiler.enable()
    play_games(MODES["Expert A"], games)
    profiler.disable()
    print(f"\ncProfile of {games} random Expert A games (top 15 by tottime):")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=300, help="games per mode")
    parser.add_argument("--profile", action="store_true",
                        help="also profile the Expert A run with cProfile")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    print(f"I, Clansman: {args.games} uniform-random {PLAYERS}-player games per mode, one core "
          f"(Python {sys.version.split()[0]})")
    results = [bench(mode, args.games) for mode in MODES]
    header = (f"{'mode':>9} {'games/s':>9} {'decisions/game':>15} "
              f"{'us/decision':>12} {'us/clone':>9} {'us/to_json':>11}")
    print(header)
    print("-" * len(header))
    for r in results:
        print(f"{r.mode:>9} {r.games_per_s:>9.1f} {r.decisions_per_game:>15.1f} "
              f"{r.us_per_decision:>12.1f} {r.us_per_clone:>9.1f} {r.us_per_to_json:>11.1f}")
    print(f"(us/decision = one legal_actions() + apply(); clone/to_json on states after "
          f"{MID_GAME_DECISION} decisions)")
    if args.profile:
        profile(args.games)


if __name__ == "__main__":
    main()
