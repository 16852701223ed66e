"""Benchmark of the bots' strength: the ladder of win rates, and MCTS iterations per second.

Usage: python bench/bench_agents.py [--games N] [--baseline-games N] [--jobs J] [--seed S]
                                    [--only white-castle|clansman] [--skip-speed]

Matchups (seats rotated every game, each deal played from every rotation, seeded):
  The White Castle, 4 players: greedy vs 3 random; hard vs 3 greedy
  The White Castle, solo: hard vs the Tokugawa rival at difficulty hard
  I, Clansman, 4 players (Beginner): greedy vs 3 random; hard vs 3 greedy
For each: the agent's games, wins, win rate with its Wilson 95% interval, its mean
score against the field's, and its thinking time per decision (wall clock, which
other processes on the machine slow down, and the process's CPU time, which they do
not). In a 4-player game an even match wins 25%.

Then, per game, MCTS iterations per second on one core (CPU time), at the hard level's
settings, over positions from seeded games. It prints, never asserts.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import Any

from kamon.agents import HARD_ITERATIONS, LEVELS, GreedyAgent, MCTSAgent, RandomAgent
from kamon.core.protocol import State
from kamon.games import get_game
from kamon.sim.tournament import Line, run_tournament


@dataclass(frozen=True)
class Matchup:
    """One row of the ladder: an agent against a field, in one game setting."""

    label: str
    game: str
    agent: str
    field: tuple[str, ...]
    players: int
    options: tuple[tuple[str, Any], ...] = ()
    baseline: bool = False


MATCHUPS = (
    Matchup("WC 4p: greedy vs 3 random", "white-castle", "greedy", ("random",) * 3, 4,
            baseline=True),
    Matchup("WC 4p: hard vs 3 greedy", "white-castle", "hard", ("greedy",) * 3, 4),
    Matchup("WC solo: hard vs rival (hard)", "white-castle", "hard", (), 1,
            (("difficulty", "hard"),)),
    Matchup("Clansman 4p: greedy vs 3 random", "clansman", "greedy", ("random",) * 3, 4,
            baseline=True),
    Matchup("Clansman 4p: hard vs 3 greedy", "clansman", "hard", ("greedy",) * 3, 4),
)


def run_matchup(m: Matchup, games: int, jobs: int, seed: int) -> tuple[Line, Line, float]:
    """Play one matchup; (the agent's line, the field's line, elapsed seconds)."""
    start = time.perf_counter()
    result = run_tournament(m.game, [m.agent, *m.field], games, m.players, seed, jobs,
                            dict(m.options))
    lines = {ln.label: ln for ln in result.by_agent()}
    hero = lines[m.agent]
    field = next(ln for name, ln in lines.items() if name != m.agent)
    return hero, field, time.perf_counter() - start


def speed(game_name: str, positions: int, seed: int) -> tuple[float, float, float]:
    """MCTS at the hard level: iterations per CPU second, CPU s per search, iterations."""
    game = get_game(game_name)
    iters = 0
    cpu = 0.0
    searches = 0
    for k in range(positions):
        state: State = game.new_game(4, seed + k)
        bots = [GreedyAgent(seed + p) for p in range(3)] + [RandomAgent(seed)]
        for _ in range(15 + 25 * k):  # positions spread over the game
            if state.is_over():
                break
            p = state.to_move
            assert p is not None
            state.apply(bots[p % 4].act(state))
        if state.is_over() or len(state.legal_actions()) < 2:
            continue
        agent = LEVELS["hard"].build(seed + k)
        assert isinstance(agent, MCTSAgent)
        t = time.process_time()
        agent.act(state)
        cpu += time.process_time() - t
        iters += agent.last_iterations
        searches += 1
    return ((iters / cpu if cpu else 0.0), (cpu / searches if searches else 0.0),
            (iters / searches if searches else 0.0))


def main(argv: list[str] | None = None) -> int:
    """Run the matchups and the speed test; print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=8, help="games per matchup with hard")
    ap.add_argument("--baseline-games", type=int, default=40,
                    help="games per greedy-vs-random matchup")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--seed", type=int, default=1000, help="first deal's seed")
    ap.add_argument("--only", choices=("white-castle", "clansman"), default=None)
    ap.add_argument("--skip-speed", action="store_true", help="no iterations/s measurement")
    args = ap.parse_args(argv)
    print(f"hard = {LEVELS['hard'].summary}; normal = {LEVELS['normal'].summary}; "
          f"easy = {LEVELS['easy'].summary}")
    head = (f"{'matchup':34} {'games':>5} {'wins':>5} {'win %':>6} {'95% interval':>13} "
            f"{'score':>6} {'field':>6} {'s/dec':>6} {'cpu/dec':>7} {'wall s':>7}")
    print(head)
    print("-" * len(head))
    for m in MATCHUPS:
        if args.only and m.game != args.only:
            continue
        games = args.baseline_games if m.baseline else args.games
        hero, field, elapsed = run_matchup(m, games, args.jobs, args.seed)
        lo, hi = hero.interval
        print(f"{m.label:34} {hero.games:>5} {hero.wins:>5g} {100 * hero.win_rate:>6.1f} "
              f"{100 * lo:>6.1f}-{100 * hi:<6.1f} {hero.mean_score:>6.1f} "
              f"{field.mean_score:>6.1f} {hero.seconds_per_decision:>6.3f} "
              f"{hero.cpu_per_decision:>7.3f} {elapsed:>7.0f}")
        sys.stdout.flush()
    if not args.skip_speed:
        print(f"\nMCTS speed at the hard level ({HARD_ITERATIONS} reference iterations, "
              "divided by the game's iteration weight), one core, CPU time:")
        for name in ("white-castle", "clansman"):
            if args.only and name != args.only:
                continue
            rate, per, its = speed(name, 6, args.seed)
            print(f"  {name:14} {rate:8.0f} iterations/s   {its:6.0f} iterations and "
                  f"{per:6.3f} s per search")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
