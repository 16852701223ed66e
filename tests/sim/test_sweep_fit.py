"""A sweep's values paired on their shared seeds, the fitted value that meets a target
(recovering a planted, weakened card's printed value), and a damaged value file replayed
alone."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.core.overlay_paths import parse_vary
from kamon.sim.backends import open_backend
from kamon.sim.runner import SimSpec
from kamon.sim.simulation import run_simulation
from kamon.sim.stats import paired_ratio, paired_t
from kamon.sim.sweep import analyse_sweep, measure, plan_sweep, run_sweep, users_mask
from kamon.sim.sweep_fit import fit_target, paired_difference, per_game

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "200"}
PRINTED = 5  # plant_5's printed CP (components.json)


def test_planted_weakened_card_recovers_its_printed_value(tmp_path: Path) -> None:
    """plant_5 weakened from its printed 5 CP to 2: a sweep over 2 (the weakened card), 8
    and 10 (the printed value itself not played), fitted toward the printed game's mean
    gardeners score of its users, meets the target at a value whose 95% interval holds 5
    and not the weakened 2."""
    players, agents, games = 2, ("random", "random"), 40
    with open_backend("local", 1, None) as backend:
        printed = run_simulation(SimSpec("white-castle", players, agents), 0, games,
                                 backend).table
        users = users_mask(printed, ["gardens"], "plant_5")
        target = measure("users_mean_gardeners", printed, users).value
        sweep = plan_sweep("white-castle", players, agents, {},
                           [parse_vary("gardens.cards[id=plant_5].cp=2,8,10")], 0, games,
                           tmp_path / "s")
        run_sweep(sweep, backend)
    a = analyse_sweep(sweep, ["users_mean_gardeners"], {"users_mean_gardeners": target})
    fit = a.fits["users_mean_gardeners"]
    assert fit.determined and fit.slope > 0
    assert fit.low <= PRINTED <= fit.high, fit
    assert not fit.low <= 2 <= fit.high
    assert fit.high - fit.low < 4
    # each value is paired with the first (the weakened card) on the same 40 games
    assert a.shared == games and a.paired["users_mean_gardeners"][0] is None
    d8 = a.paired["users_mean_gardeners"][1]
    assert d8 is not None and d8.estimate == pytest.approx(6.0)  # one gardener: its CP


def _table(seeds: list[int], seats: list[int], share: list[float]) -> pa.Table:
    """A hand-made results table."""
    return pa.table({"seed": seeds, "seat": seats, "win_share": share,
                     "score_total": [float(x) for x in range(len(seeds))]})


def test_paired_difference_is_paired_t_or_the_delta_method_by_hand() -> None:
    """Seat 1's win rate: one number a game, so the paired t of the differences; the
    users' rate over a varying count of clans: the delta method's paired ratio."""
    games = np.array([0, 64, 128, 192])  # seeds 0-3 (no rotation)
    a = _table([0, 0, 1, 1, 2, 2, 3, 3], [1, 2] * 4, [1, 0, 1, 0, 0, 1, 1, 0])
    b = _table([0, 0, 1, 1, 2, 2, 3, 3], [1, 2] * 4, [0, 1, 1, 0, 0, 1, 0, 1])
    no = np.zeros(8, dtype=bool)
    d = paired_difference(per_game("seat1_win_rate", a, no, games),
                          per_game("seat1_win_rate", b, no, games))
    ref = paired_t([1, 0, 0, 1])
    assert (d.estimate, d.low, d.high) == (ref.estimate, ref.low, ref.high)
    ua = np.array([1, 1, 1, 0, 0, 1, 0, 0], dtype=bool)
    ub = np.array([1, 0, 1, 0, 1, 1, 1, 0], dtype=bool)
    na, da = per_game("users_win_rate", a, ua, games)
    assert na.tolist() == [1, 1, 1, 0] and da.tolist() == [2, 1, 1, 0]
    nb, db = per_game("users_win_rate", b, ub, games)
    d = paired_difference((na, da), (nb, db))
    ref = paired_ratio(na, da, nb, db)
    assert db.tolist() == [1, 1, 2, 1]
    assert d.estimate == pytest.approx(3 / 4 - 2 / 5) and d.low == ref.low


def test_fit_on_an_exact_line_and_a_flat_one() -> None:
    """A metric rising 0.1 a unit (0.2 at 0) meets 0.5 at 3, inside a tight interval; a
    metric that does not move gives no interval."""
    rng = np.random.default_rng(1)
    base = rng.integers(0, 2, 400).astype(float)
    ones = np.ones(400)
    xs = [0.0, 2.0, 4.0, 6.0]
    points = [(np.where(rng.random(400) < 0.2 + 0.1 * x, 1.0, 0.0), ones) for x in xs]
    fit = fit_target(xs, points, 0.5, seed=3)
    assert fit is not None and fit.determined and fit.inside
    assert fit.low < 3 < fit.high and fit.high - fit.low < 1.5
    flat = fit_target(xs, [(base, ones)] * 4, 0.5)
    assert flat is not None and math.isnan(flat.value) and not flat.determined
    assert fit_target([1.0], [(base, ones)], 0.5) is None


def test_a_rate_bent_across_the_range_needs_the_logistic_fit() -> None:
    """A win rate rising as a logistic centred off the swept values (p(x) = 1 / (1 +
    exp(-(x - 3) / 1.5)), target p(5)): the straight line misses 5, the logit fit holds it."""
    rng = np.random.default_rng(5)
    u = rng.random(1000)
    ones = np.ones(1000)
    xs = [2.0, 4.0, 8.0]

    def p(x: float) -> float:
        """The true win rate at x."""
        return 1 / (1 + math.exp(-(x - 3) / 1.5))

    points = [((u < p(x)).astype(float), ones) for x in xs]
    line = fit_target(xs, points, p(5.0), boot=500)
    curve = fit_target(xs, points, p(5.0), boot=500, logistic=True)
    assert line is not None and curve is not None and curve.logistic
    assert not line.low <= 5 <= line.high
    assert curve.low <= 5 <= curve.high and curve.at(5.0) == pytest.approx(p(5.0), abs=0.03)


ARGS = ["sweep", "white-castle", "--vary", "gardens.cards[id=plant_5].cp=2,8", "--games", "4",
        "--players", "2", "--agents", "random", "--jobs", "1"]


def test_a_damaged_value_file_is_replayed_alone(tmp_path: Path) -> None:
    """A value file cut short is moved to <name>.damaged and only that value is played
    again (the other value's file untouched); a --base not swept is refused."""
    out = tmp_path / "s"
    res = CliRunner(env=ENV).invoke(app, [*ARGS, "--out", str(out)])
    assert res.exit_code == 0, res.output
    good = (out / "2.parquet").stat().st_mtime_ns
    cut = out / "8.parquet"
    cut.write_bytes(cut.read_bytes()[:100])
    res = CliRunner(env=ENV).invoke(app, [*ARGS, "--out", str(out), "--base", "8"])
    assert res.exit_code == 0, res.output
    assert "8.parquet could not be read" in res.output and "4 games played now" in res.output
    assert (out / "8.parquet.damaged").stat().st_size == 100
    assert (out / "2.parquet").stat().st_mtime_ns == good
    assert "paired vs 8" in (out / "sweep.md").read_text()
    res = CliRunner(env=ENV).invoke(app, [*ARGS, "--out", str(out), "--base", "5"])
    assert res.exit_code == 2 and "--base '5' is not one of the swept values" in res.output


def test_base_index_refuses_unknown(tmp_path: Path) -> None:
    """analyse_sweep before a run says so."""
    sweep = plan_sweep("white-castle", 2, ["random", "random"], {},
                       [parse_vary("gardens.cards[id=plant_5].cp=2,8")], 0, 2, tmp_path / "x")
    with pytest.raises(KamonError, match="has not run"):
        analyse_sweep(sweep)
