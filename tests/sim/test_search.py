"""`kamon search`: TPE over overlay values toward targets, each trial on the same seeds;
a planted weakened card's printed value recovered; resuming; bad input refused."""

from __future__ import annotations

import math
from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.sim.backends import open_backend
from kamon.sim.search import (
    Goal,
    best_trials,
    max_holder_rate,
    measure_goals,
    parse_goals,
    parse_param,
    plan_search,
    play,
    run_search,
    versus_original,
)

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "200"}
PRINTED = 5  # plant_5's printed CP


def test_planted_weakened_card_is_found_at_its_printed_value(tmp_path: Path) -> None:
    """The base game weakens plant_5 to 2 CP; searching its CP over 0..10 toward the
    printed game's mean gardeners score of its users finds the printed 5, whose paired
    difference from the printed game is nil, while the weakened 2 would be 3 below."""
    weakened = {"data_overlay": {"gardens": {"cards": [{"id": "plant_5", "cp": 2}]}}}
    search = plan_search("white-castle", 2, ["random", "random"], weakened,
                         [parse_param("gardens.cards[id=plant_5].cp=0..10")],
                         [Goal("users_mean_gardeners", "=", 0.0)], 0, 30, tmp_path / "s")
    with open_backend("local", 1, None) as backend:
        weak, _ = play(search, (), tmp_path / "weak.parquet", backend)
        search.options = {}  # the printed game: the target, and what variants are paired with
        printed, _ = play(search, (), tmp_path / "printed.parquet", backend)
        target = measure_goals(search, printed)["users_mean_gardeners"]
        search.options = weakened
        search.goals = [Goal("users_mean_gardeners", "=", target)]
        trials = run_search(search, 8, backend)
    assert measure_goals(search, weak)["users_mean_gardeners"] == pytest.approx(target - 3)
    best = best_trials(trials, 1)[0]
    assert best.values == (PRINTED,) and best.loss == pytest.approx(0.0)
    (vs,) = versus_original(search, best, printed)
    assert vs.diff is not None and vs.diff.low <= 0 <= vs.diff.high
    assert len({t.values for t in trials}) >= 4  # it searched, not one value 8 times


ARGS = ["search", "white-castle", "--vary", "gardens.cards[id=plant_5].cp=0..10",
        "--vary", "gardens.cards[id=stone_6].cp=0,1,3", "--target", "seat1_win_rate=0.5",
        "--target", "max_gardens_win_rate<=0.6", "--games", "10", "--players", "2",
        "--trials", "3", "--best", "2", "--jobs", "1"]


def test_search_reports_best_variants_and_resumes(tmp_path: Path) -> None:
    """search.md lists every trial and the 2 best against the original with a paired
    difference; the same command again plays nothing new."""
    out = tmp_path / "s"
    res = CliRunner(env=ENV).invoke(app, [*ARGS, "--out", str(out)])
    assert res.exit_code == 0, res.output
    md = (out / "search.md").read_text()
    assert md.count("\n| 1 |") == 1 and "\n| 3 |" in md
    assert md.count("### Trial") == 2 and "seat1_win_rate=0.5 |" in md
    assert "points |" in md  # seat 1's paired difference in points
    assert (out / "original.parquet").is_file() and len(list((out / "trials").iterdir())) >= 2
    res = CliRunner(env=ENV).invoke(app, [*ARGS, "--out", str(out)])
    assert res.exit_code == 0 and "0 games played now" in res.output, res.output
    assert (out / "search.md").read_text() == md
    more = [a if a != "3" else "5" for a in ARGS]  # --trials 5: the first 3 again, then 2
    res = CliRunner(env=ENV).invoke(app, [*more, "--out", str(out)])
    assert res.exit_code == 0, res.output
    played = int(res.output.split(" games played now")[0].split()[-1])
    assert played <= 20
    rows = [line for line in md.splitlines() if line.startswith(("| 1 |", "| 2 |", "| 3 |"))]
    assert all(r in (out / "search.md").read_text() for r in rows)


@pytest.mark.parametrize(("args", "message"), [
    (["--vary", "gardens.cards[id=plant_5].cp=9..3", "--target", "mean_total=5"],
     "low end must be below"),
    (["--vary", "gardens.cards[id=plant_5].cp", "--target", "mean_total=5"],
     "write PATH=LOW..HIGH"),
    (["--vary", "gardens.cards[id=plant_5].cp=0..5", "--target", "mean_total~5"],
     "write METRIC=VALUE or METRIC<=VALUE"),
    (["--vary", "gardens.cards[id=plant_5].cp=0..5", "--target", "max_luck_win_rate<=0.4"],
     "'luck' is not a feature column"),
    (["--vary", "gardens.cards[id=plant_5].cp=0..5", "--target", "luck=1"],
     "unknown metric"),
    (["--vary", "gardens.cards[id=plant_9].cp=0..5", "--target", "mean_total=5"],
     "does not exist"),
])
def test_bad_input_is_refused_before_any_game(tmp_path: Path, args: list[str],
                                              message: str) -> None:
    """A bad range, goal, column or path: exit 2 with the reason, no trial played."""
    out = tmp_path / "s"
    res = CliRunner(env=ENV).invoke(app, ["search", "white-castle", "--players", "2",
                                          "--games", "2", "--out", str(out), *args])
    assert res.exit_code == 2 and message in res.output, res.output
    assert not (out / "trials").exists()


def test_goals_and_the_top_holder_rate_by_hand() -> None:
    """Goals parse with % and <=; a miss is in points for a rate, 0 under a bound; the top
    item's win rate counts a clan once per item and leaves out rare items."""
    g1, g2 = parse_goals(["first_player_win_rate=25%", "max_missions_win_rate<=0.4"])
    assert (g1.value, g2.op) == (0.25, "<=")
    assert g1.miss(0.3) == pytest.approx(5.0) and g2.miss(0.35) == 0.0
    assert g2.miss(0.5) == pytest.approx(10.0) and math.isinf(g1.miss(math.nan))
    share = [1.0] * 10 + [0.0] * 20 + [1.0, 1.0]
    items = ["a;a"] * 10 + ["a"] * 15 + ["b"] * 5 + ["c", "c"]
    table = pa.table({"win_share": share, "gardens": items})
    rate, item = max_holder_rate(table, "gardens")  # b: 5 holders, c: 2 -> left out
    assert (item, rate) == ("a", pytest.approx(10 / 25))
