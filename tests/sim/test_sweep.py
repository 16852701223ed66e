"""`kamon sweep`: one results file per value on the same seeds, a report with a row per
value (n and intervals), the value closest to a target, resuming, bad --vary refused."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.core.overlay_paths import overlay_for, parse_path, parse_vary
from kamon.sim.results import read_results
from kamon.sim.runner import SimSpec
from kamon.sim.stats import wilson
from kamon.sim.sweep import (
    Estimate,
    SweepPoint,
    closest_point,
    file_name,
    measure,
    plan_sweep,
    users_mask,
)

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "200"}
VARY = "gardens.cards[id=plant_1].cp=3,9,20"
ARGS = ["sweep", "white-castle", "--vary", VARY, "--games", "20", "--players", "2",
        "--agents", "random", "--seed", "5"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A sweep of plant_1's CP over 3 values × 20 games (2 players, random), and its output."""
    out = tmp_path_factory.mktemp("sweep") / "plant1"
    res = CliRunner(env=ENV).invoke(app, [*ARGS, "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out, res.output


def test_one_results_file_per_value_on_the_same_seeds(swept: tuple[Path, str]) -> None:
    """3.parquet, 9.parquet, 20.parquet: each an ordinary results file of seeds 5-24 with
    its overlay in the options, and the value shows in the scores of plant_1's gardeners."""
    out, output = swept
    files = {v: out / f"{v}.parquet" for v in (3, 9, 20)}
    gardeners: dict[int, dict[tuple[int, int], int]] = {}
    for v, path in files.items():
        table = read_results(path)
        assert sorted(set(table["seed"].to_pylist())) == list(range(5, 25))
        assert f'"cp":{v}' in table["options"][0].as_py()
        rows = table.to_pylist()
        gardeners[v] = {(r["seed"], r["seat"]): r["score_gardeners"] for r in rows
                        if r["gardens"] == "plant_1"}
    assert gardeners[3].keys() == gardeners[9].keys() == gardeners[20].keys()
    for key, score in gardeners[3].items():  # a gardener on plant_1 alone scores its CP
        assert (score, gardeners[9][key], gardeners[20][key]) == (3, 9, 20)
    assert "60 games played now" in output


def test_report_has_a_row_per_value_with_n_and_intervals(swept: tuple[Path, str]) -> None:
    """sweep.md: a table per metric, one row per value with n, the estimate and its 95%
    interval (recomputed here), and the games behind it; sweep.html embeds the figure."""
    out, _ = swept
    md = (out / "sweep.md").read_text()
    html = (out / "sweep.html").read_text()
    assert "data:image/png;base64," in html and (out / "sweep.png").stat().st_size > 1000
    assert "20 games per value (seeds 5-24, the same deals for every value)" in md
    section = md.split("## Win rate of the first seat")[1].split("## ")[0]
    for v in (3, 9, 20):
        table = pq.read_table(out / f"{v}.parquet").to_pylist()
        first = [r for r in table if r["seat"] == 1]
        wins = sum(r["win_share"] for r in first)
        lo, hi = wilson(wins, len(first))
        row = f"| {v} | {v}.parquet | 20 | 20 | {100 * wins / 20:.1f}% | " \
              f"{100 * lo:.1f}-{100 * hi:.1f}% | {'base' if v == 3 else ''}"
        assert row in section, (row, section)
    means = md.split("## Mean total score per clan")[1]
    assert len(re.findall(r"^\| (3|9|20) \| \S+\.parquet \| 20 \| [\d.]+ \| [\d.]+-[\d.]+ \| ",
                          means, re.M)) == 3
    assert "## Win rate of the clans that used plant_1 (gardens)" in md
    assert "the fair share 1/2 (50.0%)" in md
    assert "paired vs 3" in md and "each clan once" in md


def test_rerunning_the_sweep_plays_nothing_new(swept: tuple[Path, str]) -> None:
    """The same command again finds every seed in its file: nothing is played or rewritten."""
    out, _ = swept
    before = {p.name: p.stat().st_mtime_ns for p in out.glob("*.parquet")}
    res = CliRunner(env=ENV).invoke(app, [*ARGS, "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "Resuming: 60 of the 60 games" in res.output
    assert "0 games played now" in res.output
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("*.parquet")} == before


@pytest.mark.parametrize(("vary", "message"), [
    ("gardens.cards[id=plant_1].cp", "write PATH=V1,V2"),
    ("gardens.cards[id=plant_1].cp=12", "at least 2 values"),
    ("gardens.cards[id=plant_1].cp=3,,9", "no empty value"),
    ("gardens.cards[id=plant_1].cp=3,3", "the value 3 is given twice"),
    ("gardens.cards[name=plant_1].cp=3,9", "items are chosen by id, row, position"),
    ("gardens.cards[id=plant_1]=3,9", "ends at an item"),
    ("gardens.cards[id=plant_9].cp=3,9", "overlay: gardens.cards[id=plant_9] does not exist"),
    ("gardens.cards[id=plant_1].cpp=3,9",
     "overlay: gardens.cards[id=plant_1].cpp is not a field"),
    ("gardens.cards[id=plant_1].cp=3,lots", "cp=lots"),
])
def test_a_bad_vary_is_refused_before_any_game(tmp_path: Path, vary: str, message: str
                                              ) -> None:
    """A malformed path, too few or repeated values, an item or field the data does not
    have, a value the data refuses: exit 2 with `error: ...`, nothing written."""
    out = tmp_path / "s"
    res = CliRunner(env=ENV).invoke(app, ["sweep", "white-castle", "--vary", vary,
                                          "--games", "2", "--players", "2", "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert "error:" in res.output and message in res.output, res.output
    assert "Traceback" not in res.output
    assert not list(out.glob("*.parquet")) if out.exists() else True


def test_an_unknown_metric_or_bad_target_is_refused(tmp_path: Path) -> None:
    """--metric must be one the sweep can measure; --target must be METRIC=NUMBER."""
    base = ["sweep", "white-castle", "--vary", VARY, "--games", "2", "--players", "2",
            "--out", str(tmp_path / "s")]
    res = CliRunner(env=ENV).invoke(app, [*base, "--target", "users_win_rate=half"])
    assert res.exit_code == 2 and "write METRIC=VALUE" in res.output
    res = CliRunner(env=ENV).invoke(app, [*base, "--metric", "mean_luck"])
    assert res.exit_code == 2 and "unknown metric 'mean_luck'" in res.output


def test_paths_become_overlays() -> None:
    """Keys joined by dots, items by their merge key; a number-like key is tried as the
    data writes it (Passage of Time positions are numbers, Clansman ids strings)."""
    v = parse_vary('personal_domain.rows[row=top].spaces_under_workers[space=4].reward='
                   '{"gain":{"coin":1}},{"gain":{"coin":2}}')
    assert v.values == ({"gain": {"coin": 1}}, {"gain": {"coin": 2}})
    assert overlay_for(v.steps, v.values[1], ["top", 4]) == {"personal_domain": {"rows": [
        {"row": "top", "spaces_under_workers": [{"space": 4, "reward": {"gain": {"coin": 2}}}]}
    ]}}
    assert v.component == "4"
    with pytest.raises(KamonError, match="expected a key"):
        parse_path("gardens..cp")
    assert file_name(["1.5", "a b"]) == "1.5__a_b.parquet"


def test_two_varies_plan_every_pair_with_both_changes(tmp_path: Path) -> None:
    """Two paths: one run per pair (v1__v2.parquet), its overlay setting both; a key written
    as a number in the data (position) is found."""
    varies = [parse_vary("gardens.cards[id=plant_1].cp=3,9"),
              parse_vary("passage_of_time.spaces[position=20].end_game_cp=5,7")]
    sweep = plan_sweep("white-castle", 2, ["random", "random"], {}, varies, 0, 4,
                       tmp_path / "pair")
    assert [p.out.name for p in sweep.points] == ["3__5.parquet", "3__7.parquet",
                                                   "9__5.parquet", "9__7.parquet"]
    overlay = sweep.points[1].spec.options["data_overlay"]
    assert overlay == {"gardens": {"cards": [{"id": "plant_1", "cp": 3}]},
                       "passage_of_time": {"spaces": [{"position": 20, "end_game_cp": 7}]}}
    assert sweep.to_play == 16


def _point(label: str) -> SweepPoint:
    """A point for a hand-made case (no run behind it)."""
    return SweepPoint((label,), (label,), Path(f"{label}.parquet"),
                      SimSpec("white-castle", 2, ("random", "random")))


def test_closest_to_target_on_a_hand_made_case() -> None:
    """The value whose estimate is nearest the target wins (not the one whose interval is
    widest); the values whose intervals hold the target are listed."""
    points = [_point(x) for x in ("6", "9", "12", "15")]
    rates = [(30, 100), (44, 100), (53, 100), (70, 100)]
    est = [Estimate(w / n, *wilson(w, n), n, n) for w, n in rates]
    found = closest_point(points, est, 0.5)
    assert found is not None and found.point.label == "12"
    assert found.estimate.value == pytest.approx(0.53)
    assert found.containing == ["9", "12"]
    assert closest_point(points, est, 0.25) is not None
    assert closest_point(points, est, 0.25).point.label == "6"  # type: ignore[union-attr]
    unknown = [Estimate(math.nan, math.nan, math.nan, 0, 0)] * 4
    assert closest_point(points, unknown, 0.5) is None


def test_measures_on_a_hand_made_table() -> None:
    """users_win_rate, use_rate, seat1_win_rate and mean_total computed by hand."""
    table = pa.table({
        "seed": [1, 1, 2, 2, 3, 3],
        "seat": [1, 2, 1, 2, 1, 2],
        "win_share": [1.0, 0.0, 0.5, 0.5, 0.0, 1.0],
        "score_total": [10, 20, 30, 30, 5, 7],
        "gardens": ["plant_1", "", "plant_1;stone_6", "plant_10", "", "plant_1"],
    })
    users = users_mask(table, ["gardens"], "plant_1")
    assert users.tolist() == [True, False, True, False, False, True]
    win = measure("users_win_rate", table, users)
    assert (win.value, win.n, win.games) == (pytest.approx(2.5 / 3), 3, 3)
    assert (win.low, win.high) == wilson(2.5, 3)
    assert measure("use_rate", table, users).value == pytest.approx(0.5)
    assert measure("seat1_win_rate", table, users).value == pytest.approx(0.5)
    mean = measure("mean_total", table, users)
    per_game = np.array([15.0, 30.0, 6.0])
    half = 4.3027 * per_game.std(ddof=1) / math.sqrt(3)  # t(0.975, df=2) = 4.30265
    assert (mean.value, mean.n) == (pytest.approx(17.0), 3)
    assert (mean.low, mean.high) == (pytest.approx(17 - half, abs=1e-3), pytest.approx(17 + half, abs=1e-3))
