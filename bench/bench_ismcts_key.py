"""Benchmark of the OpenSpiel search keys: `information_state_string` and
`observation_string` deep into a game, and one OpenSpiel ISMCTS step.

Usage: python bench/bench_ismcts_key.py [--games clansman,white-castle] [--reps R]
                                        [--simulations S] [--steps N] [--seed K]

1. Keys. Per game (I, Clansman 4 players Beginner; The White Castle 4 players), one
   seeded random game through OpenSpiel; at decisions 50, 200 and the last one, the time
   of `information_state_string(p)` and `observation_string(p)` of the player to move
   on a state that has just taken its decision (a clone of the state before it, whose
   key was asked for, then `apply_action`: what a search pays per node), the median of
   R repetitions (describe()'s kept texts emptied before each: no repetition is answered
   from the previous ones), next to the engine's `apply_action` itself. The key's length
   too.
2. ISMCTS. OpenSpiel's Python `ISMCTSBot` (random-rollout evaluator, S simulations,
   uct_c 2, worlds re-sampled from a seeded generator so both trees search the same
   worlds and play the same rollouts) takes N steps from decisions 50 and 200 of the same
   game (its key asked for once before, as by a bot that played the game so far); per
   step the CPU time, and the share spent inside `information_state_string` (the method
   wrapped with a timer).

3. `--whole-game`: instead, one whole game (the first of --games) with `ISMCTSBot` (S
   simulations) in every seat, its CPU time.

4. `--mccfr N`: instead, N iterations of OpenSpiel's outcome-sampling MCCFR on the first
   of --games, the CPU time of one.

Run it on two trees to compare: as is (the working tree), and with
`PYTHONPATH=/tmp/keys-before/src` (a `git worktree` of the older code) — the script only
uses OpenSpiel's public API, so it runs on both. `--json FILE` writes the figures, and
`--compare B1.json,B2.json A1.json,A2.json` prints the ratios (each figure the best of
its side's runs: interleave the runs of both trees on a busy machine). Prints, never
asserts. Times are this process's CPU time (`time.process_time`: steadier than wall time
on a shared machine, the same on an idle one, since all of it runs in one thread), still
noisy: repeat before trusting a small difference.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import kamon.rl  # noqa: F401  (registers the OpenSpiel games)

pyspiel: Any = None  # imported in main (the rl extra)

GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "clansman": ("python_kamon_clansman", {}),
    "white-castle": ("python_kamon_white_castle", {}),
}
POINTS = (50, 200, "end")


def with_root_chance(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """The parameters plus chance='root' where the game has chance modes (ISMCTS and the
    perfect-recall key belong to the one-seed root mode; older code has no such mode)."""
    known = pyspiel.load_game(name).get_parameters()
    return {**params, "chance": "root"} if "chance" in known else dict(params)


def median_ms(run: Callable[[], float], reps: int) -> float:
    """The median of `reps` timings (each `run()` returns its own seconds), in ms."""
    return statistics.median(run() for _ in range(reps)) * 1000.0


def history_of(name: str, params: dict[str, Any], seed: int) -> list[int]:
    """The actions (deal included) of one seeded random game."""
    state = pyspiel.load_game(name, params).new_initial_state()
    rng = random.Random(seed)
    state.apply_action(seed % 100)
    out = [seed % 100]
    while not state.is_terminal():
        aid = rng.choice(state.legal_actions())
        state.apply_action(aid)
        out.append(aid)
    return out


def at(name: str, params: dict[str, Any], history: list[int], decisions: int) -> Any:
    """The game state after the deal and `decisions` decisions of `history`."""
    state = pyspiel.load_game(name, params).new_initial_state()
    for aid in history[:decisions + 1]:
        state.apply_action(aid)
    return state


def forget_described() -> None:
    """Empty the encodings' kept describe() texts (the newer code's), so a timing repeated
    on one position pays for its describe as the first time would."""
    from kamon.rl.encoding import encoding

    for game in GAMES:
        encoding(game).__dict__.pop("_described", None)


def point_costs(before: Any, aid: int, player: int, reps: int) -> dict[str, float]:
    """The ms of information_state_string, observation_string and apply_action on clones
    of `before` that have just taken `aid`, and the key's length."""

    def fresh() -> Any:
        """A clone of the state before the decision, after taking it."""
        s = before.clone()
        s.apply_action(aid)
        return s

    def timed(method: str) -> Callable[[], float]:
        """One timing of `method(player)` on a fresh state."""
        def run() -> float:
            s = fresh()
            forget_described()
            t0 = time.process_time()
            getattr(s, method)(player)
            return time.process_time() - t0
        return run

    def apply_time() -> float:
        """One timing of apply_action (the engine's own cost)."""
        s = before.clone()
        t0 = time.process_time()
        s.apply_action(aid)
        return time.process_time() - t0

    return {"info_ms": median_ms(timed("information_state_string"), reps),
            "obs_ms": median_ms(timed("observation_string"), reps),
            "apply_ms": median_ms(apply_time, reps),
            "info_len": len(fresh().information_state_string(player))}


def key_costs(name: str, params: dict[str, Any], history: list[int],
              reps: int) -> dict[str, dict[str, float]]:
    """Per point (decision 50, 200, the last): `point_costs` of the state just before it,
    whose key was asked for (so the record is up to date, as in a search)."""
    out: dict[str, dict[str, float]] = {}
    last = len(history) - 2  # the last decision's number (1-based), after the deal
    for point in POINTS:
        k = last if point == "end" else int(point)
        if k > last:
            continue  # a shorter game
        before = at(name, params, history, k - 1)
        player = before.current_player()
        before.information_state_string(player)
        before.observation_string(player)
        out[str(point)] = {"decision": k, **point_costs(before, history[k], player, reps)}
    return out


def seeded_bot(game: Any, simulations: int, seed: int) -> Any:
    """OpenSpiel's ISMCTSBot with a random-rollout evaluator, its worlds re-sampled from a
    seeded generator (OpenSpiel's own sampler is seeded afresh every time), so both trees
    search the same worlds and play the same rollouts."""
    from open_spiel.python.algorithms import ismcts, mcts

    rs = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, simulations,
                           random_state=rs)
    worlds = random.Random(seed)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player,
                                                                          worlds.random))
    return bot


def ismcts_costs(name: str, params: dict[str, Any], history: list[int], simulations: int,
                 steps: int, seed: int) -> dict[str, dict[str, float]]:
    """Per starting point: the mean seconds of one ISMCTSBot step and the share of it in
    information_state_string."""
    cls = type(pyspiel.load_game(name, params).new_initial_state())
    original = cls.information_state_string
    spent = [0.0]

    def counted(self: Any, player: Any = None) -> str:
        """information_state_string, timed."""
        t0 = time.process_time()
        try:
            return str(original(self, player))
        finally:
            spent[0] += time.process_time() - t0

    out: dict[str, dict[str, float]] = {}
    cls.information_state_string = counted
    try:
        for point in (50, 200):
            if point >= len(history) - 2:
                continue  # a shorter game
            bot = seeded_bot(pyspiel.load_game(name, params), simulations, seed)
            state = at(name, params, history, point)
            # asked before, as by a bot that played the game so far (the old code kept
            # nothing, the new one renders the record once here)
            state.information_state_string(state.current_player())
            spent[0] = 0.0
            t0 = time.process_time()
            for _ in range(steps):
                if state.is_terminal():
                    break
                state.apply_action(bot.step(state))
            total = time.process_time() - t0
            out[str(point)] = {"step_s": total / steps, "key_share": spent[0] / total}
    finally:
        cls.information_state_string = original
    return out


def whole_game(game: str, simulations: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, decisions) of one game with OpenSpiel's ISMCTSBot in every seat."""
    name, params = GAMES[game]
    spiel = pyspiel.load_game(name, with_root_chance(name, params))
    bot = seeded_bot(spiel, simulations, seed)
    state = spiel.new_initial_state()
    state.apply_action(seed)
    decisions = 0
    t0 = time.process_time()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
        decisions += 1
    return time.process_time() - t0, decisions


def mccfr_iterations(game: str, iterations: int, seed: int) -> float:
    """CPU seconds of one iteration of OpenSpiel's outcome-sampling MCCFR (the mean of
    `iterations`: each samples one whole game per player, reading every node's key)."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    name, params = GAMES[game]
    np.random.seed(seed)  # the solver samples with NumPy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(
        pyspiel.load_game(name, with_root_chance(name, params)))
    t0 = time.process_time()
    for _ in range(iterations):
        solver.iteration()
    return (time.process_time() - t0) / iterations


def best_of(paths: str) -> dict[str, Any]:
    """The figures of comma-separated --json runs, each time the smallest of the runs
    (the one least disturbed by the machine's other work)."""
    runs = []
    for path in paths.split(","):
        with open(path) as f:
            runs.append(json.load(f))
    out = runs[0]
    for run in runs[1:]:
        for game, parts in run.items():
            for part, points in parts.items():
                for point, figures in points.items():
                    kept = out[game][part][point]
                    if part == "ismcts":  # the fastest run's step, with its own share
                        if figures["step_s"] < kept["step_s"]:
                            out[game][part][point] = figures
                        continue
                    for name, value in figures.items():
                        kept[name] = min(kept[name], value)
    return out


def compare(before_paths: str, after_paths: str) -> None:
    """Print the before/after figures of --json runs (each side: comma-separated files,
    the best of them) and their ratios."""
    before, after = best_of(before_paths), best_of(after_paths)
    for game in after:
        if game not in before:
            continue
        print(f"== {game}")
        for point, a in after[game]["keys"].items():
            b = before[game]["keys"][point]
            print(f"  decision {a['decision']:4d}: information_state_string "
                  f"{b['info_ms']:8.3f} -> {a['info_ms']:7.3f} ms "
                  f"({b['info_ms'] / a['info_ms']:6.1f}x); observation_string "
                  f"{b['obs_ms']:6.3f} -> {a['obs_ms']:6.3f} ms "
                  f"({b['obs_ms'] / a['obs_ms']:4.1f}x); apply_action {a['apply_ms']:.3f} ms")
        for point, a in after[game]["ismcts"].items():
            b = before[game]["ismcts"][point]
            print(f"  ISMCTS step from decision {point}: {b['step_s']:.3f} -> "
                  f"{a['step_s']:.3f} s ({b['step_s'] / a['step_s']:.2f}x); key share "
                  f"{b['key_share']:.0%} -> {a['key_share']:.0%}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (or compare two runs) and print the figures."""
    global pyspiel
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="clansman,white-castle")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--simulations", type=int, default=10)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--mccfr", type=int, default=0, metavar="N",
                    help="instead: N iterations of OpenSpiel's outcome-sampling MCCFR on "
                         "the first of --games, the CPU seconds of one")
    ap.add_argument("--whole-game", action="store_true",
                    help="instead: time one whole game of the first of --games with "
                         "ISMCTSBot (--simulations) in every seat")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                    help="print --json runs (comma-separated, best of each side) side by "
                         "side with ratios")
    args = ap.parse_args(argv)
    if args.compare:
        compare(*args.compare)
        return 0
    import pyspiel as spiel

    pyspiel = spiel
    print(f"kamon from {kamon.rl.__file__}")
    if args.mccfr:
        game = args.games.split(",")[0]
        seconds = mccfr_iterations(game, args.mccfr, args.seed)
        print(f"{game}, outcome-sampling MCCFR: CPU {seconds:.2f} s an iteration "
              f"(the mean of {args.mccfr})")
        return 0
    if args.whole_game:
        game = args.games.split(",")[0]
        seconds, decisions = whole_game(game, args.simulations, args.seed)
        print(f"one {game} game, ISMCTSBot ({args.simulations} simulations) in every seat: CPU "
              f"{seconds:.1f} s for {decisions} decisions ({seconds / decisions * 1000:.0f} "
              "ms a decision)")
        return 0
    results: dict[str, Any] = {}
    for game in args.games.split(","):
        name, params = GAMES[game]
        params = with_root_chance(name, params)
        history = history_of(name, params, args.seed)
        keys = key_costs(name, params, history, args.reps)
        print(f"== {game} ({len(history) - 1} decisions)")
        for point, r in keys.items():
            print(f"  decision {int(r['decision']):4d} ({point}): information_state_string "
                  f"{r['info_ms']:8.3f} ms ({int(r['info_len'])} chars), observation_string "
                  f"{r['obs_ms']:6.3f} ms, apply_action {r['apply_ms']:6.3f} ms")
        searched = ismcts_costs(name, params, history, args.simulations, args.steps,
                                args.seed)
        for point, r in searched.items():
            print(f"  ISMCTS ({args.simulations} simulations) step from decision {point}: "
                  f"{r['step_s']:.3f} s, {r['key_share']:.0%} in information_state_string")
        results[game] = {"keys": keys, "ismcts": searched}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
