"""Fit The White Castle's solo search weights (`evaluation.SOLO_SEARCH`) to the final points
of greedy solo games.

Greedy plays seeded solo games against the Hard rival. At the start of each of its turns
the player clan's standing (`evaluation._standing`) is split into its parts: what is
certain (CP, courtiers, warriors with courtiers inside, gardeners, the final scoring of
stores in the last turns), the Passage of Time, and the parts a `Weights` value weighs
(warriors before a courtier is inside, coins, seals and resources as fuel, Lantern icons
times turns left, gardens still to fire; those two are effects valued in PLAY's units)
plus the turns beyond AHEAD_FROM. Least squares
of (final points - certain - Passage) on those parts and a constant gives the weights. It
prints them and the root mean square error of the final points predicted by the
hand-set weights (PLAY) and by the fitted ones.

    python bench/fit_white_castle_eval.py --games 2000 --seed 5000   # greedy's games (2-6 min)

`--agent` plays another bot's games (`mcts`: about 4 s a game), `--jobs` in that many
processes, and `--rows FILE` keeps the rows, so a second run refits without playing.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np

from kamon.agents import make_agent
from kamon.games.white_castle import GAME
from kamon.games.white_castle import evaluation as E
from kamon.games.white_castle.state import COURTIER_CP, MAX_RESOURCE, WhiteCastleState

WEIGHED = ("warrior_hope", "coin", "seal", "res", "left_die", "garden_fires")


@dataclass(frozen=True)
class Row:
    """The player clan at the start of one of its turns, and its final points."""

    certain: float  # points the weights do not touch, Passage aside
    passage: float  # the Passage of Time's smoothed points while turns remain
    parts: tuple[float, ...]  # what each of WEIGHED multiplies
    ahead: int  # turns left beyond AHEAD_FROM
    turns_left: int
    final: float
    game: int = 0  # the seed of the game the row is from


def parts(state: WhiteCastleState, q: int) -> tuple[float, float, tuple[float, ...], int]:
    """Clan q's standing split as `Row` holds it (not the solo rival)."""
    tl = E.turns_left(state, q)
    ctx = E._Ctx(state, q, E._Units(state.clans[q], tl))
    f = ctx.u.f
    d = state.data
    c = state.clans[q]
    inside = sum(1 for loc in c.courtiers if loc > 0)
    yards = sum(d.yard_values[y] for y in c.warriors)
    mine = [g for g, workers in enumerate(state.garden_workers) if q in workers]
    certain = float(c.cp) + sum(COURTIER_CP[loc] for loc in c.courtiers) + yards * inside
    certain += sum(d.gardens[state.garden_cards[g]].cp for g in mine)
    certain += (1 - f) * d.passage_cp[c.pos]
    end_store = (c.coins + c.seals) / 5.0 if tl else float((c.coins + c.seals) // 5)
    end_res = sum(2 if r >= 7 else 1 if r >= 3 else 0 for r in c.res)
    certain += (1 - f) * (end_store + end_res)
    rounds_after = 3 - state.round
    garden = sum(rounds_after * ctx.effects(d.gardens[state.garden_cards[g]].effects, 1)
                 for g in mine) if rounds_after > 0 else 0.0
    weighed = (yards * f if not inside else 0.0, f * c.coins, f * c.seals,
               f * sum(min(r, MAX_RESOURCE) for r in c.res),
               tl * ctx.lantern() if tl else 0.0, garden)
    return certain, f * E.passage_smooth(d.passage_cp, c.pos), weighed, max(0, tl - E.AHEAD_FROM)


def collect(games: int, seed: int, agent: str = "greedy", jobs: int = 1) -> list[Row]:
    """Play `games` solo games of `agent` (seeds seed..) against the Hard rival, in `jobs`
    processes; note the player at the start of each of its turns."""
    seeds = list(range(seed, seed + games))
    if jobs <= 1:
        return _collect(agent, seeds)
    with multiprocessing.get_context("fork").Pool(jobs) as pool:  # (the tests load the
        # script under another name, which a spawned worker could not import)
        parts_ = pool.starmap(_collect, [(agent, seeds[j::jobs]) for j in range(jobs)])
    # the serial run's order: by game (a stable sort keeps each game's turns in order)
    return sorted((r for part in parts_ for r in part), key=lambda r: r.game)


def _collect(agent: str, seeds: list[int]) -> list[Row]:
    """One worker's games (see collect)."""
    rows: list[Row] = []
    for k in seeds:
        state = GAME.new_game(1, k, difficulty="hard")
        bot = make_agent(agent, k * 10)
        noted: list[tuple[tuple[float, float, tuple[float, ...], int], int]] = []
        last = None
        while not state.is_over():
            if state.phase == "play" and state.to_move == 0:
                tl = E.turns_left(state, 0)
                if tl != last and tl < E.TURNS:  # (TURNS left: a decision before its first turn)
                    last = tl
                    noted.append((parts(state, 0), tl))
            state.apply(bot.act(state))
        final = float(state.scores()[0]["total"])
        rows += [Row(*p, turns_left=tl, final=final, game=k) for p, tl in noted]
    return rows


def fit(rows: list[Row], base: E.Weights = E.PLAY) -> tuple[E.Weights, float, float]:
    """Least-squares weights, points per turn beyond AHEAD_FROM, and the constant."""
    x = np.array([[*r.parts, r.ahead, 1.0] for r in rows], dtype=float)
    y = np.array([r.final - r.certain - r.passage for r in rows])
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    fitted = replace(base, **{name: float(c) for name, c in zip(WEIGHED, coef, strict=False)})
    return fitted, float(coef[-2]), float(coef[-1])


def predict(r: Row, w: E.Weights, ahead_turn: float = E.AHEAD_TURN,
            constant: float = 0.0) -> float:
    """The final points the weights predict for a row."""
    return (r.certain + r.passage + sum(getattr(w, n) * v for n, v in zip(WEIGHED, r.parts,
                                                                         strict=True))
            + ahead_turn * r.ahead + constant)


def rmse(rows: list[Row], w: E.Weights, ahead_turn: float = E.AHEAD_TURN,
         constant: float = 0.0) -> float:
    """Root mean square error of the predicted final points."""
    errs = [r.final - predict(r, w, ahead_turn, constant) for r in rows]
    return math.sqrt(sum(e * e for e in errs) / max(1, len(errs)))


def main(argv: list[str] | None = None) -> None:
    """Play, fit, print."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=5000, help="first game's seed")
    ap.add_argument("--agent", default="greedy", help="the player's bot (default greedy)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--rows", default=None,
                    help="a JSON-lines file of rows: read if it exists (no games played), "
                         "else written once the games are played")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.rows and Path(args.rows).exists():
        rows = [Row(**{**d, "parts": tuple(d["parts"])}) for d in
                map(json.loads, Path(args.rows).read_text().splitlines())]
    else:
        rows = collect(args.games, args.seed, args.agent, args.jobs)
        if args.rows:
            Path(args.rows).write_text("".join(json.dumps(asdict(r)) + "\n" for r in rows))
    fitted, ahead, constant = fit(rows)
    games = len({r.game for r in rows})
    print(f"{games} {args.agent} solo games (seeds {args.seed}-{args.seed + args.games - 1}), "
          f"{len(rows):,} turn starts, {time.perf_counter() - t0:.0f} s")
    for name, w in (("fitted", fitted), ("PLAY", E.PLAY), ("SOLO_SEARCH", E.SOLO_SEARCH)):
        print(f"{name + ':':<13}" + "  ".join(f"{n} {getattr(w, n):.3f}" for n in WEIGHED))
    print(f"fitted: {ahead:.2f} points a turn beyond {E.AHEAD_FROM} (AHEAD_TURN "
          f"{E.AHEAD_TURN:g}), constant {constant:+.2f}")
    print(f"RMSE of the final points: PLAY {rmse(rows, E.PLAY):.2f}, fitted "
          f"{rmse(rows, fitted, ahead, constant):.2f}, SOLO_SEARCH with the fitted turns "
          f"{rmse(rows, E.SOLO_SEARCH, ahead, constant):.2f}")


if __name__ == "__main__":
    main()
