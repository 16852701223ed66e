"""The statistics of `kamon compare`, pinned against published tables and cases computed by
hand (no scipy here: these are the checks of kamon's own quantiles and tests)."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

from kamon.sim import stats
from kamon.sim.stats import (
    benjamini_hochberg,
    normal_ppf,
    paired_ratio,
    paired_t,
    t_ppf,
    t_two_sided,
    two_proportion,
    welch,
    wilson,
)


def test_doctests() -> None:
    """Every example in the module's docstrings holds."""
    result = doctest.testmod(stats)
    assert result.attempted >= 15 and result.failed == 0


@pytest.mark.parametrize(("df", "value"), [
    (1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423), (120, 1.9799),
    (math.inf, 1.9600)])
def test_t_quantiles_match_the_table(df: float, value: float) -> None:
    """The 97.5% quantiles of Student's t, as printed in every table."""
    assert round(t_ppf(0.975, df), 4) == value
    assert t_ppf(0.025, df) == pytest.approx(-t_ppf(0.975, df))


def test_normal_quantiles_and_t_tails() -> None:
    """z(0.995) = 2.5758; closed forms of the t tail for 1 and 2 degrees of freedom."""
    assert round(normal_ppf(0.995), 4) == 2.5758
    for t in (0.3, 1.0, 2.5, 7.0):
        assert t_two_sided(t, 2) == pytest.approx(1 - t / math.sqrt(2 + t * t), abs=1e-12)
        assert t_two_sided(t, 1) == pytest.approx(1 - 2 * math.atan(t) / math.pi, abs=1e-12)
    assert t_two_sided(1.959963984540054, math.inf) == pytest.approx(0.05)


def test_paired_t_interval_by_hand() -> None:
    """Differences 2, 4, 4, 5, 7, 8 (scores of one seat, variant minus base):
    mean 5, sd sqrt(24/5) = 2.1909, se 0.8944, t(5) = 2.5706, so 5 +- 2.2992;
    t = sqrt(31.25) = 5.5902 with 5 df, whose two-sided p has the closed form
    1 - (2/pi)(a + sin a cos a (1 + 2/3 cos^2 a)), a = atan(t / sqrt(5))."""
    d = paired_t([2, 4, 4, 5, 7, 8])
    assert d.estimate == 5.0
    assert d.low == pytest.approx(2.7008, abs=1e-4)
    assert d.high == pytest.approx(7.2992, abs=1e-4)
    a = math.atan(math.sqrt(31.25) / math.sqrt(5))
    exact = 1 - 2 / math.pi * (a + math.sin(a) * math.cos(a) * (1 + 2 / 3 * math.cos(a) ** 2))
    assert d.p == pytest.approx(exact, abs=1e-12)
    assert 0.002 < d.p < 0.01  # t(5): 4.032 at 0.01, 5.893 at 0.002
    assert d.df == 5


def test_paired_ratio_is_paired_t_with_one_row_a_game() -> None:
    """With one row per game on both sides the delta method is the paired t exactly."""
    rng = np.random.default_rng(1)
    x, y = rng.integers(0, 2, 50).astype(float), rng.integers(0, 2, 50).astype(float)
    one = np.ones(50)
    a, b = paired_ratio(x, one, y, one), paired_t(x - y)
    assert (a.estimate, a.low, a.high, a.p) == pytest.approx((b.estimate, b.low, b.high, b.p))


def test_constant_and_null_differences() -> None:
    """A constant shift is certain (p = 0); no difference at all is p = 1."""
    assert paired_t([3, 3, 3]).p == 0.0
    same = paired_t([0, 0, 0, 0])
    assert (same.estimate, same.low, same.high, same.p) == (0.0, 0.0, 0.0, 1.0)


def test_wilson_matches_newcombe() -> None:
    """Newcombe (1998), table I: 81/263 -> 0.2553-0.3662, 0/20 -> 0-0.1611."""
    lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    lo, hi = wilson(0, 20)
    assert (lo, round(hi, 4)) == (0.0, 0.1611)


def test_two_proportion_by_hand() -> None:
    """45/100 against 30/100: pooled 0.375, se sqrt(.375 * .625 * .02) = 0.068465,
    z = 2.1909, two-sided p = 0.02846; Newcombe's hybrid interval of 56/70 - 48/80 is
    0.0524 to 0.3339 (his example b)."""
    d = two_proportion(45, 100, 30, 100)
    assert d.estimate == pytest.approx(0.15)
    assert d.p == pytest.approx(0.02846, abs=2e-5)
    d = two_proportion(56, 70, 48, 80)
    assert (round(d.low, 4), round(d.high, 4)) == (0.0524, 0.3339)


def test_welch_by_hand() -> None:
    """[1..4] against [2, 4, .., 10]: se^2 = 5/12 + 2, df = 5.5208, t = -2.2514."""
    d = welch([1, 2, 3, 4], [2, 4, 6, 8, 10])
    assert d.estimate == -3.5
    assert d.df == pytest.approx(5.5208, abs=1e-4)
    se = math.sqrt(5 / 12 + 2)
    assert d.p == pytest.approx(t_two_sided(-3.5 / se, d.df))
    assert d.high == pytest.approx(-3.5 + t_ppf(0.975, d.df) * se)


def test_benjamini_hochberg_by_hand() -> None:
    """Sorted 0.005, 0.01, 0.03, 0.04, 0.5 -> p*5/rank 0.025, 0.025, 0.05, 0.05, 0.5,
    then the running minimum from the top."""
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.005, 0.5]) == [0.025, 0.05, 0.05, 0.025,
                                                                   0.5]
    assert benjamini_hochberg([0.2, 0.9, 0.04]) == [0.3, 0.9, 0.12]
    assert benjamini_hochberg([0.9, 0.95]) == [0.95, 0.95]


def brute_swap_p(nx: np.ndarray, dx: np.ndarray, ny: np.ndarray, dy: np.ndarray) -> float:
    """The swap test's p by hand: every way of swapping x and y within games."""
    import itertools

    def stat(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> float:
        return abs(a.sum() / b.sum() - c.sum() / d.sum())
    observed = stat(nx, dx, ny, dy)
    hits = total = 0
    for flips in itertools.product([False, True], repeat=len(nx)):
        f = np.array(flips)
        a, b = np.where(f, ny, nx), np.where(f, dy, dx)
        c, d = np.where(f, nx, ny), np.where(f, dx, dy)
        total += 1
        hits += stat(a, b, c, d) >= observed - 1e-12
    return hits / total


def test_swap_test_exact_matches_every_swap_by_hand() -> None:
    """Up to SWAP_EXACT differing games the swap test enumerates every swap: its p is the
    share of swaps at least as extreme, counted here one by one (equal pairs dropped)."""
    rng = np.random.default_rng(3)
    for _ in range(5):
        k = 9
        dx = rng.integers(1, 3, k).astype(float)
        dy = rng.integers(1, 3, k).astype(float)
        nx = np.minimum(dx, rng.integers(0, 3, k)).astype(float)
        ny = np.minimum(dy, rng.integers(0, 3, k)).astype(float)
        keep = (nx != ny) | (dx != dy)
        assert stats.swap_test(nx, dx, ny, dy) == pytest.approx(
            brute_swap_p(nx[keep], dx[keep], ny[keep], dy[keep]))


def test_swap_test_monte_carlo_is_valid_and_finds_a_real_shift() -> None:
    """Beyond SWAP_EXACT games, Monte Carlo: null data (x, y from one law) reject at 5%
    about 5% of the time, never far above; a real shift gets the smallest p possible."""
    rng = np.random.default_rng(7)
    ps = []
    for _ in range(150):
        k = 25
        dx, dy = rng.integers(0, 3, k).astype(float), rng.integers(0, 3, k).astype(float)
        nx, ny = rng.binomial(dx.astype(int), 0.3).astype(float), rng.binomial(
            dy.astype(int), 0.3).astype(float)
        ps.append(stats.swap_test(nx, dx, ny, dy, draws=2000, seed=len(ps)))
    rejected = float(np.mean(np.array(ps) < 0.05))
    assert 0.01 <= rejected <= 0.10, rejected
    one = np.ones(40)
    assert stats.swap_test(one, one, np.zeros(40), one, draws=999) == pytest.approx(1 / 1000)
    assert stats.swap_test(one, one, one, one) == 1.0  # nothing differs
