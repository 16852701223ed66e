"""Tune The White Castle's solo evaluation weights by the decisions they make, not by how
well they predict final points.

A weight set is judged by the game margin (player minus the Hard rival) of a whole-turn
greedy player that uses it: greedy looking `--depth` of its own decisions ahead (6 covers
a turn: the die, its space, the effects, blocks and workers), which is the choice the
search's evaluation has to rank. Every weight set plays the same deals with the same
seeds (common random numbers), so two sets are compared deal by deal: the paired mean
difference and its standard error.

A coordinate search: for each weight in turn, each factor of `--factors` is tried; the
best trial whose paired gain exceeds `--keep` standard errors becomes the current set.
The last line gives the final weights. `--check` compares the start with given weights
on other deals instead (a tuned set must hold on deals it was not tuned on).

    python bench/tune_white_castle_eval.py --deals 200 --seed 3000 --jobs 2     # ~25 min
    python bench/tune_white_castle_eval.py --deals 200 --seed 4000 --check seal=1.12
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, fields, replace

from kamon.agents.base import hooks_for
from kamon.agents.greedy import choose
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME
from kamon.games.white_castle import evaluation as E

STARTS = {"play": E.PLAY, "solo": E.SOLO_SEARCH}
NAMES = tuple(f.name for f in fields(E.Weights))


def margin(job: tuple[int, E.Weights, int]) -> int:
    """One solo deal against the Hard rival played by whole-turn greedy with weights w:
    the player's final points minus the rival's."""
    seed, w, depth = job
    state = GAME.new_game(1, seed, difficulty="hard")
    rng = Rng(seed)
    hooks = hooks_for(state)
    while not state.is_over():
        legal = state.legal_ids()
        seat = state.to_move
        if len(legal) == 1 or seat is None:
            state.apply(legal[0])
            continue
        sample = hooks.determinize(state, seat, rng.spawn())
        evaluate = E.fresh_evaluation(w)[1]
        state.apply(choose(sample, seat, hooks, depth, rng, 0.0, evaluate=evaluate))
    scores = state.scores()
    return int(scores[0]["total"]) - int(scores[1]["total"])


class Judge:
    """Plays weight sets on fixed deals (in worker processes when jobs > 1)."""

    def __init__(self, seeds: Sequence[int], depth: int, jobs: int) -> None:
        """The deals, greedy's depth and the processes to play in."""
        self.seeds = list(seeds)
        self.depth = depth
        self.pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None

    def margins(self, w: E.Weights) -> list[int]:
        """w's margin on every deal, in the deals' order."""
        jobs = [(s, w, self.depth) for s in self.seeds]
        if self.pool is None:
            return [margin(j) for j in jobs]
        return self.pool.map(margin, jobs, chunksize=2)

    def close(self) -> None:
        """Stop the workers."""
        if self.pool is not None:
            self.pool.close()
            self.pool.join()


def paired(a: Sequence[int], b: Sequence[int]) -> tuple[float, float]:
    """Mean of a - b deal by deal, and its standard error."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0
    return statistics.mean(d), se


def summary(m: Sequence[int]) -> str:
    """Mean margin and wins."""
    return f"margin {statistics.mean(m):+.2f}, won {sum(x > 0 for x in m)}/{len(m)}"


def tune(judge: Judge, start: E.Weights, names: Sequence[str], factors: Sequence[float],
         keep: float, rounds: int = 1) -> E.Weights:
    """The coordinate search (see the module docstring); prints every trial."""
    w = start
    cur = judge.margins(w)
    print(f"start {asdict(w)}: {summary(cur)}", flush=True)
    for r in range(rounds):
        for name in names:
            best: tuple[float, E.Weights, list[int]] | None = None
            for f in factors:
                trial = replace(w, **{name: round(getattr(w, name) * f, 3)})
                began = time.perf_counter()
                m = judge.margins(trial)
                d, se = paired(m, cur)
                print(f"  round {r + 1} {name} x{f}: {summary(m)}; paired {d:+.2f} "
                      f"(se {se:.2f}) [{time.perf_counter() - began:.0f} s]", flush=True)
                if d > keep * se and d > 0 and (best is None or d > best[0]):
                    best = (d, trial, m)
            if best is not None:
                _, w, cur = best
                print(f"  kept {name} = {getattr(w, name)}", flush=True)
    print(f"final {asdict(w)}: {summary(cur)}", flush=True)
    return w


def overrides(text: str) -> dict[str, float]:
    """`seal=1.12,res=0.9` as a dict (names checked)."""
    out: dict[str, float] = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        if name not in NAMES:
            raise SystemExit(f"unknown weight {name!r}: one of {', '.join(NAMES)}")
        out[name] = float(value)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the flags, then tune or check."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200, help="solo deals per weight set")
    ap.add_argument("--seed", type=int, default=3000, help="the first deal's seed")
    ap.add_argument("--depth", type=int, default=6, help="greedy's lookahead (6: a turn)")
    ap.add_argument("--jobs", type=int, default=1, help="processes")
    ap.add_argument("--start", choices=sorted(STARTS), default="play",
                    help="the weights to start from (play: PLAY, solo: SOLO_SEARCH)")
    ap.add_argument("--weights", default=",".join(NAMES), help="the weights to tune")
    ap.add_argument("--factors", default="0.5,1.6", help="what each weight is tried times")
    ap.add_argument("--keep", type=float, default=1.0,
                    help="a trial is kept when its paired gain exceeds this many errors")
    ap.add_argument("--rounds", type=int, default=1, help="passes over the weights")
    ap.add_argument("--check", metavar="NAME=V,...",
                    help="compare the start with these weights instead of tuning")
    args = ap.parse_args(argv)
    start = STARTS[args.start]
    judge = Judge(range(args.seed, args.seed + args.deals), args.depth, args.jobs)
    try:
        if args.check:
            other = replace(start, **overrides(args.check))
            a, b = judge.margins(start), judge.margins(other)
            d, se = paired(b, a)
            print(f"{args.start}: {summary(a)}\n{args.check}: {summary(b)}\n"
                  f"paired {d:+.2f} (se {se:.2f})")
        else:
            names = [n for n in args.weights.split(",") if n]
            for n in names:
                if n not in NAMES:
                    raise SystemExit(f"unknown weight {n!r}: one of {', '.join(NAMES)}")
            tune(judge, start, names, [float(f) for f in args.factors.split(",")],
                 args.keep, args.rounds)
    finally:
        judge.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
