"""The statistics of `kamon compare`: quantiles, intervals and tests on differences between
two runs, and the Benjamini-Hochberg correction over a family of tests.

Pure functions of numbers (no scipy: the normal and Student t distributions are computed
here, the t through the regularized incomplete beta function, and pinned in the tests
against table values). Every difference is *first minus second* (`x - y`), with a 95%
interval by default and a two-sided p-value:

    paired_t          mean of paired differences (one per game), Student t interval
    paired_ratio      difference of two ratios of sums over the same games (a win rate
                      of a group whose size varies by game), delta method clustered by
                      game, Student t interval; reduces to `paired_t` with one row a game
    swap_test         the randomization p-value of the same difference: base and variant
                      swapped within games (exact for few games, else Monte Carlo); sound
                      for rare groups, where the delta method's t raises false alarms
    welch             difference of two independent means, Welch-Satterthwaite t
    two_proportion    difference of two independent proportions: pooled z test, Newcombe
                      hybrid score interval (from the Wilson intervals of each)
    benjamini_hochberg  p-values adjusted for the false discovery rate of a family

    wilson            the Wilson score interval of one proportion (win rates everywhere)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Z95", "Difference", "benjamini_hochberg", "betainc", "normal_cdf", "normal_ppf",
           "paired_ratio", "paired_t", "swap_test", "t_cdf", "t_ppf", "t_two_sided", "two_proportion",
           "welch", "wilson"]

LEVEL = 0.95
Z95 = 1.959963984540054  # the normal's 97.5% quantile


@dataclass(frozen=True)
class Difference:
    """A difference with its interval and two-sided p-value.

    `df` is the degrees of freedom of the t distribution used (inf: the normal); `p_from`
    names another source of p than the method's own ("swap test": `swap_test`).
    """

    estimate: float
    low: float
    high: float
    p: float
    method: str
    df: float = math.inf
    p_from: str = ""

    @property
    def interval(self) -> tuple[float, float]:
        """(low, high)."""
        return self.low, self.high


# --- distributions --------------------------------------------------------------------

def normal_cdf(x: float) -> float:
    """P(Z <= x) for a standard normal Z.

    >>> round(normal_cdf(1.959963984540054), 6)
    0.975
    >>> normal_cdf(0.0)
    0.5
    """
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _invert(cdf: Callable[[float], float], q: float) -> float:
    """The x with cdf(x) = q for an increasing, symmetric-about-0 cdf (bisection)."""
    if not 0.0 < q < 1.0:
        raise ValueError(f"quantile level {q} is not strictly between 0 and 1")
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -_invert(cdf, 1.0 - q)
    lo, hi = 0.0, 1.0
    while cdf(hi) < q:
        lo, hi = hi, 2.0 * hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if cdf(mid) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


def normal_ppf(q: float) -> float:
    """The q-quantile of the standard normal.

    >>> round(normal_ppf(0.975), 6)
    1.959964
    >>> round(normal_ppf(0.05), 6)
    -1.644854
    """
    return _invert(normal_cdf, q)


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b).

    >>> round(betainc(2.0, 3.0, 0.4), 10)  # 1 - (1-x)^4 - 4x(1-x)^3 = 0.5248
    0.5248
    >>> betainc(1.0, 1.0, 0.25)
    0.25
    """
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's T with df degrees of freedom (df = inf: the normal).

    >>> round(t_two_sided(2.228138851986274, 10), 6)
    0.05
    >>> round(t_two_sided(1.0, 2), 10) == round(1 - 1 / math.sqrt(3), 10)
    True
    """
    if math.isnan(t):
        return math.nan
    if math.isinf(df) or df > 1e7:
        return math.erfc(abs(t) / math.sqrt(2.0))
    if math.isinf(t):
        return 0.0
    return min(1.0, betainc(df / 2.0, 0.5, df / (df + t * t)))


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's T with df degrees of freedom.

    >>> round(t_cdf(12.706204736174698, 1), 6)
    0.975
    """
    tail = 0.5 * t_two_sided(t, df)
    return 1.0 - tail if t >= 0 else tail


@functools.lru_cache(maxsize=4096)
def t_ppf(q: float, df: float) -> float:
    """The q-quantile of Student's T with df degrees of freedom (cached: a compare page asks
    for the same few quantiles dozens of times, each a bisection of ~50 beta functions).

    >>> round(t_ppf(0.975, 4), 4)
    2.7764
    >>> round(t_ppf(0.975, math.inf), 4)
    1.96
    """
    if math.isinf(df) or df > 1e7:
        return normal_ppf(q)
    return _invert(lambda x: t_cdf(x, df), q)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default); (0, 1) if n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return lo, hi


# --- differences ----------------------------------------------------------------------

def _from_t(estimate: float, se: float, df: float, method: str, level: float) -> Difference:
    """A difference from its estimate, standard error and degrees of freedom.

    A zero standard error (every paired difference equal) gives a point interval, with p = 1
    for a zero difference and 0 otherwise (a constant shift is certain, not chance).
    """
    if df <= 0 or math.isnan(se):
        return Difference(estimate, -math.inf, math.inf, 1.0, method, df)
    if se == 0.0:
        return Difference(estimate, estimate, estimate, 1.0 if estimate == 0 else 0.0,
                          method, df)
    crit = t_ppf(0.5 + level / 2.0, df)
    return Difference(estimate, estimate - crit * se, estimate + crit * se,
                      t_two_sided(estimate / se, df), method, df)


def paired_t(diffs: Sequence[float] | np.ndarray, level: float = LEVEL) -> Difference:
    """The mean of paired differences with its Student t interval (n - 1 df) and p-value.

    >>> d = paired_t([1, 2, 3, 4, 5])  # mean 3, sd sqrt(2.5), t(4) = 2.7764
    >>> round(d.estimate, 4), round(d.low, 4), round(d.high, 4), round(d.p, 4)
    (3.0, 1.0368, 4.9632, 0.0132)
    """
    x = np.asarray(diffs, dtype=float)
    n = len(x)
    if n == 0:
        return Difference(0.0, -math.inf, math.inf, 1.0, "paired t", 0)
    mean = float(x.mean())
    se = float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return _from_t(mean, se, n - 1, "paired t", level)


def paired_ratio(num_x: np.ndarray, den_x: np.ndarray, num_y: np.ndarray, den_y: np.ndarray,
                 level: float = LEVEL) -> Difference:
    """sum(num_x)/sum(den_x) - sum(num_y)/sum(den_y) over the same clusters (games), with a
    Student t interval (clusters - 1 df) from the delta method's linearization by cluster.

    Cluster s contributes u_s = (num_x[s] - Rx den_x[s]) / mean(den_x) - (the same for y);
    the variance of the difference is var(u) / clusters. With one unit per cluster on both
    sides (den = 1) it is exactly `paired_t` of num_x - num_y.

    >>> one = np.ones(5)
    >>> d = paired_ratio(np.array([1., 2, 3, 4, 5]), one, np.zeros(5), one)
    >>> round(d.low, 4), round(d.high, 4)
    (1.0368, 4.9632)
    """
    nx, dx = np.asarray(num_x, dtype=float), np.asarray(den_x, dtype=float)
    ny, dy = np.asarray(num_y, dtype=float), np.asarray(den_y, dtype=float)
    s = len(nx)
    if s == 0 or dx.sum() <= 0 or dy.sum() <= 0:
        return Difference(math.nan, -math.inf, math.inf, 1.0, "paired ratio", 0)
    rx, ry = nx.sum() / dx.sum(), ny.sum() / dy.sum()
    u = (nx - rx * dx) / dx.mean() - (ny - ry * dy) / dy.mean()
    se = float(u.std(ddof=1)) / math.sqrt(s) if s > 1 else math.nan
    return _from_t(float(rx - ry), se, s - 1, "paired ratio (delta method)", level)


SWAP_DRAWS = 20_000  # Monte Carlo draws of `swap_test` (p resolution 1 / 20,001)
SWAP_EXACT = 14  # games that differ: up to this many, every swap is enumerated (2^14)
SWAP_CHUNK = 1_000  # Monte Carlo draws at a time ...
SWAP_STOP = 0.1  # ... stopping once this share of them is as extreme (p about 0.1 or more)


@functools.lru_cache(maxsize=SWAP_EXACT + 1)
def _every_swap(k: int) -> np.ndarray:
    """The 2^k ways of swapping k games, one a row (1: kept), built once per k."""
    out = ((np.arange(2 ** k)[:, None] >> np.arange(k)) & 1).astype(float)
    out.flags.writeable = False
    return out


def swap_test(num_x: np.ndarray, den_x: np.ndarray, num_y: np.ndarray, den_y: np.ndarray,
              draws: int = SWAP_DRAWS, seed: int = 0) -> float:
    """Two-sided randomization p of sum(num_x)/sum(den_x) - sum(num_y)/sum(den_y) over
    the same games: under "no effect" each game's (x, y) pair is exchangeable, so x and y
    are swapped within games, every way (up to SWAP_EXACT differing games) or at random.

    Used for paired groups held in few games, where the delta method's t is far from its
    nominal level (8.3% of paired A/A pages flagged; bench/bench_calibration.py). The
    Monte Carlo p counts the observed assignment ((1 + hits) / (1 + draws)), so it is
    never 0 and stays valid; the seed makes the page reproducible. It stops early (after
    1,000 draws or more) once a tenth of the draws are as extreme, as in Besag and
    Clifford's sequential p-values: such a p is above every threshold of a 5% page, and
    the null groups of an A/A page cost 1,000 draws instead of 20,000 (one compare page
    of 82 tests in I, Clansman: ~0.3 s of swap tests instead of ~4 s on this machine).

    >>> one = np.ones(3)
    >>> swap_test(np.array([1., 1, 1]), one, np.zeros(3), one)  # 2 of 8 swaps as extreme
    0.25
    """
    nx, dx = np.asarray(num_x, dtype=float), np.asarray(den_x, dtype=float)
    ny, dy = np.asarray(num_y, dtype=float), np.asarray(den_y, dtype=float)
    keep = (nx != ny) | (dx != dy)  # an equal pair is the same swapped: no information
    nx, dx, ny, dy = nx[keep], dx[keep], ny[keep], dy[keep]
    if len(nx) == 0:
        return 1.0
    base_n, base_d = float(ny.sum()), float(dy.sum())
    total_n, total_d = float((nx + ny).sum()), float((dx + dy).sum())
    dn, dd = nx - ny, dx - dy

    def stat(flips: np.ndarray) -> np.ndarray:
        """|rx - ry| for each row of flips (1: x keeps its game's x values)."""
        sxn = base_n + flips @ dn
        sxd = base_d + flips @ dd
        syn, syd = total_n - sxn, total_d - sxd
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.abs(sxn / sxd - syn / syd)
        return np.where((sxd > 0) & (syd > 0), out, 0.0)

    observed = float(stat(np.ones((1, len(nx))))[0]) * (1.0 - 1e-9)
    k = len(nx)
    if k <= SWAP_EXACT:
        return float(np.mean(stat(_every_swap(k)) >= observed))
    rng = np.random.default_rng(seed)
    hits = done = 0
    while done < draws:
        m = min(SWAP_CHUNK, draws - done)
        flips = rng.random((m, k)) < 0.5
        hits += int(np.count_nonzero(stat(flips.astype(float)) >= observed))
        done += m
        if hits >= SWAP_STOP * done:  # p near SWAP_STOP or above: no test's business
            break
    return (1.0 + hits) / (1.0 + done)


def welch(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray,
          level: float = LEVEL) -> Difference:
    """mean(x) - mean(y) for independent samples: Welch's t with Welch-Satterthwaite df.

    >>> d = welch([1, 2, 3, 4], [2, 4, 6, 8, 10])
    >>> round(d.estimate, 4), round(d.df, 4), round(d.estimate / ((d.high - d.low) / 2
    ...     / t_ppf(0.975, d.df)), 4)
    (-3.5, 5.5208, -2.2514)
    """
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(a) < 2 or len(b) < 2:
        est = (float(a.mean()) if len(a) else math.nan) - (float(b.mean()) if len(b)
                                                           else math.nan)
        return Difference(est, -math.inf, math.inf, 1.0, "Welch t", 0)
    va, vb = float(a.var(ddof=1)) / len(a), float(b.var(ddof=1)) / len(b)
    se2 = va + vb
    est = float(a.mean() - b.mean())
    if se2 == 0.0:
        return _from_t(est, 0.0, len(a) + len(b) - 2, "Welch t", level)
    df = se2 * se2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    return _from_t(est, math.sqrt(se2), df, "Welch t", level)


def two_proportion(x1: float, n1: int, x2: float, n2: int, level: float = LEVEL
                   ) -> Difference:
    """x1/n1 - x2/n2 for independent samples: the pooled two-proportion z test and
    Newcombe's hybrid score interval (his method 10, from the two Wilson intervals).

    >>> d = two_proportion(45, 100, 30, 100)  # pooled 0.375: z = 0.15 / 0.068465 = 2.191
    >>> round(d.estimate, 4), round(d.p, 4)
    (0.15, 0.0285)
    >>> d = two_proportion(56, 70, 48, 80)  # Newcombe (1998), example (b): 0.0524-0.3339
    >>> round(d.low, 4), round(d.high, 4)
    (0.0524, 0.3339)
    """
    if n1 <= 0 or n2 <= 0:
        return Difference(math.nan, -math.inf, math.inf, 1.0, "two-proportion z", math.inf)
    p1, p2 = x1 / n1, x2 / n2
    z = normal_ppf(0.5 + level / 2.0)
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2))
    p = (1.0 if d == 0 else 0.0) if se == 0 else math.erfc(abs(d) / se / math.sqrt(2.0))
    return Difference(d, low, high, p, "two-proportion z", math.inf)


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (step-up, monotone, at most 1), in input order:
    reject the tests whose adjusted p is at most the false discovery rate wanted.

    >>> benjamini_hochberg([0.01, 0.04, 0.03, 0.005, 0.5])
    [0.025, 0.05, 0.05, 0.025, 0.5]
    >>> benjamini_hochberg([])
    []
    """
    m = len(pvalues)
    if m == 0:
        return []
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, pvalues[i] * m / rank)
        adjusted[i] = round(min(1.0, running), 15)
    return adjusted
