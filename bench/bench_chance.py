"""Benchmark: the cost per decision of explicit chance nodes vs the one-seed root mode, in
random play.

Two levels, each game and set-up over the same seeds:

- kamon: the bare engine (`state.apply`, the seeded generator inside) vs
  `kamon.core.chance.ChanceState` (every decision replayed on a copy with instrumented
  piles and a scripted generator; each chance node one more replay);
- OpenSpiel: `python_kamon_<game>` with chance="root" vs chance="explicit" (no
  observations read), chance outcomes drawn by their probabilities.

Prints microseconds per decision (chance nodes not counted as decisions, their cost
included), the chance nodes per decision, and the explicit/root ratio.

    .venv/bin/python bench/bench_chance.py [--games N]

Measured 2026-11-28 (`--games 10`, 2 shared cores at load 10-11, so +-30%): per
decision, root -> explicit, microseconds (chance nodes per decision):

    kamon      pig 2p            7.7 ->  75.7 (0.70)  9.9x (the engine's move is tiny)
    kamon      white-castle 4p  85.9 -> 184.3 (0.22)  2.2x
    kamon      white-castle 2p  77.5 -> 249.5 (0.27)  3.2x
    kamon      white-castle 1p 217.5 -> 559.7 (0.95)  2.6x
    kamon      clansman 4p      94.4 -> 220.0 (0.23)  2.3x
    OpenSpiel  pig 2p           45.8 -> 116.4 (0.70)  2.5x
    OpenSpiel  white-castle 4p 107.4 -> 383.7 (0.23)  3.6x
    OpenSpiel  white-castle 2p 172.1 -> 454.6 (0.28)  2.6x
    OpenSpiel  white-castle 1p 295.3 -> 867.4 (0.92)  2.9x
    OpenSpiel  clansman 4p     146.6 -> 359.7 (0.24)  2.5x

The cost is the copy each decision is replayed on (the engine cannot pause inside a
move), plus one replay per chance node; a run at load 10 gave 2.1-5.0x at the
OpenSpiel level.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from kamon.core.chance import ChanceState
from kamon.games import get_game

SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("pig", 2, {}), ("white-castle", 4, {}), ("white-castle", 2, {}),
    ("white-castle", 1, {}), ("clansman", 4, {})]


def engine_game(game: str, players: int, opts: dict[str, Any], seed: int) -> tuple[int, int]:
    """One random game on the bare engine: (decisions, chance nodes = 0)."""
    rnd = random.Random(seed)
    state = get_game(game).new_game(players, seed=seed, **opts)
    n = 0
    while not state.is_over():
        state.apply(rnd.choice(state.legal_actions()).id)
        n += 1
    return n, 0


def chance_game(game: str, players: int, opts: dict[str, Any], seed: int) -> tuple[int, int]:
    """One random game through ChanceState: (decisions, chance nodes)."""
    rnd = random.Random(seed)
    cs = ChanceState(get_game(game).new_game(players, seed=seed, **opts))
    n = nodes = 0
    while cs.is_chance() or not cs.state.is_over():
        if cs.is_chance():
            outs = cs.chance_outcomes()
            cs.apply(rnd.choices([k for k, _ in outs], [p for _, p in outs])[0])
            nodes += 1
        else:
            cs.apply(rnd.choice(cs.state.legal_actions()).id)
            n += 1
    return n, nodes


def spiel_runner(mode: str) -> Callable[[str, int, dict[str, Any], int], tuple[int, int]]:
    """One random game through the OpenSpiel registration in chance mode `mode`."""
    import pyspiel

    import kamon.rl  # noqa: F401  (registers the games)

    def run(game: str, players: int, opts: dict[str, Any], seed: int) -> tuple[int, int]:
        """(decisions, chance nodes after the deal)."""
        spiel = pyspiel.load_game("python_kamon_" + game.replace("-", "_"),
                                  {"players": players, **opts, "chance": mode})
        rnd = random.Random(seed)
        state = spiel.new_initial_state()
        state.apply_action(rnd.randrange(len(state.chance_outcomes())))  # the deal
        n = nodes = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outs = state.chance_outcomes()
                state.apply_action(rnd.choices([k for k, _ in outs], [p for _, p in outs])[0])
                nodes += 1
            else:
                state.apply_action(rnd.choice(state.legal_actions()))
                n += 1
        return n, nodes
    return run


def measure(run: Callable[[str, int, dict[str, Any], int], tuple[int, int]], game: str,
            players: int, opts: dict[str, Any], games: int) -> tuple[float, float]:
    """(microseconds per decision, chance nodes per decision) over `games` seeds."""
    start = time.perf_counter()
    decisions = nodes = 0
    for seed in range(games):
        d, c = run(game, players, opts, seed)
        decisions += d
        nodes += c
    return (time.perf_counter() - start) / decisions * 1e6, nodes / decisions


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per cell")
    args = parser.parse_args(argv)
    rows = [("kamon", engine_game, chance_game),
            ("OpenSpiel", spiel_runner("root"), spiel_runner("explicit"))]
    print(f"{'level':10} {'set-up':18} {'root us/dec':>12} {'explicit us/dec':>16} "
          f"{'nodes/dec':>10} {'ratio':>6}")
    for level, root, explicit in rows:
        for game, players, opts in SETUPS:
            r, _ = measure(root, game, players, opts, args.games)
            e, nodes = measure(explicit, game, players, opts, args.games)
            print(f"{level:10} {game + ' ' + str(players) + 'p':18} {r:12.1f} {e:16.1f} "
                  f"{nodes:10.2f} {e / r:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
