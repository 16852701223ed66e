"""Fit the I, Clansman search weights (`evaluation.SEARCH`) to the final VPs of greedy games.

Four greedy bots play seeded 4-player Beginner games. At the start of every round, each
seat's parts of the evaluation are noted (its VPs so far; the rounds left times its
engine's saturating round VPs; Iron, Statues, the best hand cards), and so are its
final VPs. Least squares of (final - VPs so far) on those parts gives the weights, with
a term per round left (every seat shares it, so the search, which compares seats, does
not need it) and the saturation held at the hand-set value. It prints the fitted
`Weights`, and the root mean square error of the final VPs predicted by the hand-set
weights (GREEDY), by the fitted ones and by SEARCH, overall and by rounds.

    python bench/fit_clansman_eval.py --games 1500 --seed 5000   # SEARCH's data (~6 min)
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, replace

import numpy as np

from kamon.agents import make_agent
from kamon.games import get_game
from kamon.games.clansman import evaluation as E
from kamon.games.clansman.state import ClansmanState


@dataclass(frozen=True)
class Row:
    """One seat at the start of a round, and its final VPs."""

    total: float  # VPs so far
    rounds_after: int
    worth: float  # worker-equivalents its engine produces in a round
    iron: int
    statue: int
    hand: float  # VPs of its best hand cards (at most one a round still to come)
    round: int
    final: float


def _parts(state: ClansmanState, q: int) -> tuple[float, int, float, int, int, float]:
    """Seat q's parts of the evaluation as they stand."""
    pl = state.players[q]
    ra = E.rounds_after(state)
    hand = sorted((state.data.cards[c].vp for c in pl.hand), reverse=True)[:ra]
    return (float(state.scores()[q]["total"]), ra, E.production(state, pl.clans, pl.tadokoro),
            pl.iron, pl.statue, float(sum(hand)))


def collect(games: int, seed: int) -> list[Row]:
    """Play `games` greedy games (seeds seed..) and note every seat at every round's start."""
    game = get_game("clansman")
    rows: list[Row] = []
    for k in range(seed, seed + games):
        state = game.new_game(4, k)
        bots = [make_agent("greedy", k * 10 + q) for q in range(4)]
        noted: list[tuple[int, tuple[float, int, float, int, int, float]]] = []
        last = None
        while not state.is_over():
            if state.phase == "marriage" and state.round != last:
                last = state.round
                noted += [(state.round, _parts(state, q)) for q in range(4)]
            seat = state.to_move
            assert seat is not None
            state.apply(bots[seat].act(state))
        finals = [float(s["total"]) for s in state.scores()]
        rows += [Row(*parts, round=r, final=finals[i % 4])
                 for i, (r, parts) in enumerate(noted)]
    return rows


def _features(rows: list[Row], saturation: float) -> np.ndarray:
    """The fitted parts of each row: engine, Iron, Statues, hand, rounds left."""
    return np.array([[r.rounds_after * r.worth / (1.0 + r.worth / saturation), r.iron,
                      r.statue, r.hand, r.rounds_after] for r in rows], dtype=float)


def fit(rows: list[Row], base: E.Weights = E.GREEDY) -> tuple[E.Weights, float]:
    """Least-squares weights (base's saturation and Mirror weight kept) and the per-round
    term every seat shares."""
    x = _features(rows, base.saturation)
    y = np.array([r.final - r.total for r in rows])
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    engine, iron, statue, hand, per_round = (float(c) for c in coef)
    return replace(base, vp_per_worth=engine, iron=iron, statue=statue, hand=hand), per_round


def rmse(rows: list[Row], w: E.Weights, per_round: float = 0.0,
         rounds: tuple[int, int] = (1, 16)) -> float:
    """Root mean square error of the final VPs the weights predict (rows of those rounds)."""
    errs = [r.final - (r.total + r.rounds_after * (E.round_vp(r.worth, w) + per_round)
                       + w.iron * r.iron + w.statue * r.statue + w.hand * r.hand)
            for r in rows if rounds[0] <= r.round <= rounds[1]]
    return math.sqrt(sum(e * e for e in errs) / max(1, len(errs)))


def _shown(w: E.Weights) -> str:
    """The weights as a line of Python."""
    return (f"Weights(vp_per_worth={w.vp_per_worth:.3f}, saturation={w.saturation:g}, "
            f"iron={w.iron:.2f}, statue={w.statue:.2f}, mirror_kofun={w.mirror_kofun:g}, "
            f"hand={w.hand:.2f})")


def main(argv: list[str] | None = None) -> None:
    """Play, fit, print."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=5000, help="first game's seed")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    rows = collect(args.games, args.seed)
    fitted, per_round = fit(rows)
    print(f"{args.games} greedy games (seeds {args.seed}-{args.seed + args.games - 1}), "
          f"{len(rows):,} seat positions, {time.perf_counter() - t0:.0f} s")
    print(f"fitted:  {_shown(fitted)}  (+{per_round:.2f} VPs a round left, every seat)")
    print(f"GREEDY:  {_shown(E.GREEDY)}")
    print(f"SEARCH:  {_shown(E.SEARCH)}")
    spans = ((1, 16), (1, 5), (6, 10), (11, 16))
    print("RMSE of the final VPs   " + "  ".join(f"rounds {a:>2}-{b:<2}" for a, b in spans))
    for name, w, c in (("GREEDY", E.GREEDY, 0.0), ("fitted", fitted, per_round),
                       ("SEARCH", E.SEARCH, per_round)):
        print(f"  {name:<20} " + "  ".join(f"{rmse(rows, w, c, s):>11.2f}" for s in spans))


if __name__ == "__main__":
    main()
