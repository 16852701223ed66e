"""A sweep's values compared on their shared seeds, and the value that hits a target.

Every value of a sweep is played on the same deals, so two values are compared by their
**paired** difference game by game (`stats.paired_t` for one number per game,
`stats.paired_ratio` — the delta method by game — for a rate over a varying number of
clans), far narrower than two independent intervals.

The **fit** replaces "the value whose estimate comes closest": a straight line of the
metric (of its logit for a rate: a logistic curve, which bends as rates do near 0 and 1)
against a numeric value, weighted by each point's precision (1 / its bootstrap
variance), solved for the value x* where it meets the target. bench/bench_sweep_fit.py
measures the interval's coverage: a straight line through a bent response misses the
value entirely (0% coverage for a logistic response off-centre in the swept range),
the logistic fit holds it (see its docstring for the figures). Its 95% interval is a
bootstrap over games: the same resampled games for every value (the pairing is kept), the
line refitted and solved each time, the 2.5th and 97.5th percentiles of x*. Where the
resampled lines often run flat or the wrong way (more than 2.5% of them) the metric does
not clearly move with the value and no interval is given.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from kamon.sim.results import SCORE_PREFIX
from kamon.sim.stats import Difference, paired_ratio, paired_t

BOOTSTRAP = 2000
EPS = 1e-3  # a rate's logit is taken of it kept inside [EPS, 1 - EPS]
RATES = ("users_win_rate", "use_rate", "seat1_win_rate", "first_player_win_rate")

PerGame = tuple[np.ndarray, np.ndarray]  # (numerator, denominator) per game


def _np(table: pa.Table, name: str) -> np.ndarray:
    """A column as numpy."""
    return np.asarray(table[name].to_numpy(zero_copy_only=False))


def game_keys(table: pa.Table) -> np.ndarray:
    """Each row's game: its seed, and its seat rotation when the file has one (a rotation
    per seat, so fewer than 64)."""
    seeds = _np(table, "seed").astype(np.int64)
    if "rotation" not in table.schema.names:
        return seeds * 64
    return seeds * 64 + _np(table, "rotation").astype(np.int64)


def common_games(tables: Sequence[pa.Table]) -> np.ndarray:
    """The games (sorted keys) every table holds: the sweep's shared deals."""
    keys = [np.unique(game_keys(t)) for t in tables]
    out = keys[0]
    for k in keys[1:]:
        out = np.intersect1d(out, k)
    return out


def per_game(metric: str, table: pa.Table, users: np.ndarray, games: np.ndarray
             ) -> PerGame:
    """A metric as a ratio of sums per game over `games`: its estimate is
    num.sum() / den.sum() (the same as `sweep.measure`'s)."""
    ids = game_keys(table)
    keep = np.isin(ids, games)
    idx = np.searchsorted(games, ids)
    n = len(games)
    share = _np(table, "win_share").astype(float)
    if metric in RATES:
        if metric == "use_rate":
            rows, hits = keep, users.astype(float)
        else:
            chosen = (users if metric == "users_win_rate" else
                      _np(table, "seat") == 1 if metric == "seat1_win_rate" else
                      _np(table, "turn_position") == 1)
            rows, hits = keep & chosen, share
        num = np.bincount(idx[rows], weights=hits[rows], minlength=n)
        den = np.bincount(idx[rows], minlength=n).astype(float)
        return num, den
    users_only = metric.startswith("users_mean_")
    cat = metric.removeprefix("users_mean_" if users_only else "mean_")
    scores = _np(table, SCORE_PREFIX + cat).astype(float)
    if users_only:
        rows = keep & users
        return (np.bincount(idx[rows], weights=scores[rows], minlength=n),
                np.bincount(idx[rows], minlength=n).astype(float))
    total = np.bincount(idx[keep], weights=scores[keep], minlength=n)
    count = np.bincount(idx[keep], minlength=n).astype(float)
    mean = np.divide(total, count, out=np.zeros(n), where=count > 0)
    return mean, (count > 0).astype(float)


def paired_difference(point: PerGame, base: PerGame) -> Difference:
    """point - base on the same games: paired t when each game gives one number on both
    sides, else the delta method's paired ratio."""
    (nx, dx), (ny, dy) = point, base
    if np.all(dx == 1) and np.all(dy == 1):
        return paired_t(nx - ny)
    return paired_ratio(nx, dx, ny, dy)


@dataclass
class Fit:
    """The fitted line and the value where it meets the target, with its 95% interval."""

    target: float
    intercept: float
    slope: float
    value: float  # x*: nan when the line is flat
    low: float  # nan when not determined
    high: float
    lo_x: float  # the swept range
    hi_x: float
    wrong_way: float  # share of bootstrap lines flat or sloping the other way
    boot: int
    logistic: bool = False  # the line is of the rate's logit

    def at(self, x: float) -> float:
        """The fitted metric at x (a rate back from its logit)."""
        z = self.intercept + self.slope * x
        return 1 / (1 + math.exp(-z)) if self.logistic else z

    @property
    def determined(self) -> bool:
        """Does the fit give an interval (the slope's sign is clear)?"""
        return not math.isnan(self.low)

    @property
    def inside(self) -> bool:
        """Is x* within the swept values (not an extrapolation)?"""
        return self.lo_x <= self.value <= self.hi_x


def _lines(xs: np.ndarray, ys: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted least-squares lines through each row of ys (points at xs): (a, b)."""
    wsum = w.sum()
    mx = (w * xs).sum() / wsum
    my = (ys * w).sum(axis=-1) / wsum
    sxx = (w * (xs - mx) ** 2).sum()
    b = ((ys - my[..., None]) * (w * (xs - mx))).sum(axis=-1) / sxx
    return my - b * mx, b


def _logit(p: np.ndarray | float) -> np.ndarray:
    """log(p / (1 - p)), p kept inside [EPS, 1 - EPS] (a rate of 0 or 1 stays finite)."""
    q = np.clip(np.asarray(p, dtype=float), EPS, 1 - EPS)
    return np.asarray(np.log(q / (1 - q)))


def fit_target(xs: Sequence[float], points: Sequence[PerGame], target: float,
               boot: int = BOOTSTRAP, seed: int = 0, logistic: bool = False) -> Fit | None:
    """The weighted line of the metric (its logit, for a rate: `logistic`) against the
    value, x* where it meets `target`, and x*'s bootstrap interval over games; None with
    fewer than 2 values or no games."""
    x = np.asarray(xs, dtype=float)
    if len(x) < 2 or len(set(x.tolist())) < 2 or len(points[0][0]) == 0:
        return None
    num = np.stack([p[0] for p in points])  # values × games
    den = np.stack([p[1] for p in points])
    if np.any(den.sum(axis=1) <= 0):
        return None
    # a rate's empirical logit, (wins + 1/2) / (clans + 1): finite at 0% and 100%
    half = 0.5 if logistic else 0.0
    y = (num.sum(axis=1) + half) / (den.sum(axis=1) + 2 * half)
    link = _logit if logistic else np.asarray
    y, goal = link(y), float(link(target))
    games = num.shape[1]
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(games, np.full(games, 1 / games), size=boot).astype(float)
    bden = counts @ den.T  # boot × values
    bnum = counts @ num.T
    with np.errstate(invalid="ignore", divide="ignore"):
        by = (bnum + half) / (bden + 2 * half)
    ok = np.all(np.isfinite(by), axis=1)
    by = link(by[ok])
    var = by.var(axis=0, ddof=1) if len(by) > 1 else np.zeros(len(x))
    w = 1 / np.maximum(var, 1e-12 * max(1.0, float(np.abs(y).max())) ** 2)
    a, b = _lines(x, y[None, :], w)
    a0, b0 = float(a[0]), float(b[0])
    value = (goal - a0) / b0 if b0 != 0 else math.nan
    ba, bb = _lines(x, by, w)
    same = np.sign(bb) == np.sign(b0) if b0 != 0 else np.zeros(len(bb), dtype=bool)
    wrong = 1 - float(same.sum()) / boot
    low = high = math.nan
    if b0 != 0 and wrong <= 0.025:
        with np.errstate(invalid="ignore", divide="ignore"):
            roots = np.where(same, (goal - ba) / bb, math.nan)
        # a wrong-way line counts as missing the target on the far side of both tails
        roots = np.concatenate([roots[same], np.full(boot - int(same.sum()), math.inf)])
        low = float(np.percentile(np.where(np.isinf(roots), -math.inf, roots), 2.5))
        high = float(np.percentile(roots, 97.5))
    return Fit(target, a0, b0, value, low, high, float(x.min()), float(x.max()), wrong, boot,
               logistic)
