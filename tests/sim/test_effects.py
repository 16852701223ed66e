"""`kamon effects`: a card whose VP is raised by 5 comes out as the top outlier with an
interval excluding zero; an A/A run (every variant identical to the base) flags no card;
the runs resume; the tables; bad input refused before any game."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.sim.backends import open_backend
from kamon.sim.effects import (
    CardEffect,
    Change,
    EffectsPlan,
    _holds,
    analyse_effects,
    card_values,
    parse_cards,
    parse_change,
    plan_effects,
    run_effects,
    values_for,
)

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "200"}
GAMES = 30
# 405 raised by 5 VP (2 -> 7); the other cards' variants are the base itself (+0).
PLANTED = ["405:+5,406:+0,410:+0,505:+0,605:+0"]


def _play(out: Path, cards: list[str]) -> tuple[EffectsPlan, list[CardEffect]]:
    """Plan, play (one local worker) and analyse I, Clansman's missions, 4 random players."""
    plan = plan_effects("clansman", 4, ["random"] * 4, {}, parse_cards(cards, Change("=", 0)),
                        values_for("clansman", None, None), 0, GAMES, out)
    with open_backend("local", 1, None) as backend:
        run_effects(plan, backend)
    return plan, analyse_effects(plan)


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, EffectsPlan,
                                                                list[CardEffect]]:
    """The planted study: 405 +5 VP among four unchanged cards, 40 games."""
    out = tmp_path_factory.mktemp("effects") / "planted"
    plan, found = _play(out, PLANTED)
    return out, plan, found


def test_a_card_raised_by_5_vp_is_the_top_outlier(planted: tuple[Path, EffectsPlan,
                                                                 list[CardEffect]]) -> None:
    """405 at 7 VP: first in the table, flagged, its holders' win-rate interval above 0."""
    _, _, found = planted
    top = found[0]
    assert top.card == "405" and (top.before, top.after) == (2, 7)
    assert top.flagged
    assert top.win.diff.low > 0 and top.win.diff.estimate > 0.2
    assert top.score.diff.estimate == pytest.approx(5.0)  # random players hold it the same
    assert top.same.diff.estimate == pytest.approx(top.win.diff.estimate)  # the same clans
    assert top.hold.diff.estimate == 0
    assert [e.card for e in found if e.flagged] == ["405"]


def test_unchanged_cards_share_the_base_run(planted: tuple[Path, EffectsPlan,
                                                           list[CardEffect]]) -> None:
    """Only two runs are played (the base and 405's); +0 variants are the base's games."""
    out, plan, _ = planted
    assert len(plan.runs()) == 2
    assert sorted(p.name for p in out.glob("*.parquet")) == ["405_+5.parquet", "base.parquet"]


def test_an_a_a_run_flags_no_card(planted: tuple[Path, EffectsPlan, list[CardEffect]]
                                  ) -> None:
    """Every variant identical to the base: nothing flagged, every change exactly 0; the
    base's games are resumed from the same folder (none played)."""
    out, _, _ = planted
    plan, found = _play(out, ["405:+0,406:+0,410:+0,505:+0,605:+0"])
    assert plan.base.played == 0
    assert not any(e.flagged for e in found)
    assert all(e.win.diff.estimate == 0 or math.isnan(e.win.diff.estimate) for e in found)
    assert all(e.adjusted_p == 1.0 for e in found)


def test_the_command_resumes_and_writes_the_tables(planted: tuple[Path, EffectsPlan,
                                                                  list[CardEffect]]) -> None:
    """The same study from the command: nothing new played, 405 flagged, the three tables
    sorted with 405 first."""
    out, _, _ = planted
    res = CliRunner(env=ENV).invoke(app, ["effects", "clansman", "--cards", PLANTED[0],
                                          "--games", str(GAMES), "--agents", "random",
                                          "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert f"Resuming: {2 * GAMES} of the {2 * GAMES} games" in res.output
    assert "Flagged (more than chance): 405" in res.output
    rows = list(csv.DictReader((out / "effects.csv").open(encoding="utf-8")))
    assert [r["card"] for r in rows][0] == "405" and len(rows) == 5
    assert rows[0]["flagged"] == "True" and float(rows[0]["win_low"]) > 0
    meta = json.loads((out / "effects.json").read_text(encoding="utf-8"))
    assert meta["cards"][0]["card"] == "405" and meta["column"] == "missions"
    md = (out / "effects.md").read_text(encoding="utf-8")
    assert "| 405 | +5 | 2 → 7 |" in md and "Flagged: 405." in md
    page = (out / "effects.html").read_text(encoding="utf-8")
    assert page.count("<tr>") == 6 and "<td data-v=\"1.0\">1.000</td>" in page


@pytest.mark.parametrize(("args", "message"), [
    (["--change", "1.5"], "--change '1.5'"),
    (["--change", "+x"], "whole number"),
    (["--cards", "999"], "no card of I, Clansman has a value"),
    (["--cards", "405,405:+1"], "405 given twice"),
    (["--cards", ":+1"], "no card id"),
    (["--games", "1"], "at least 2"),
    (["--cards", "405:-5"], "405 -5"),
])
def test_bad_input_is_refused_before_any_game(tmp_path: Path, args: list[str], message: str
                                              ) -> None:
    """One red line, exit 2, nothing written."""
    out = tmp_path / "fx"
    res = CliRunner(env=ENV).invoke(app, ["effects", "clansman", "--out", str(out), *args])
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert not list(out.glob("*.parquet")) if out.exists() else True


def test_a_file_as_out_and_a_game_without_cards_are_refused(tmp_path: Path) -> None:
    """--out must be a folder; a game kamon effects knows no card values of is told so."""
    f = tmp_path / "x.parquet"
    f.write_text("", encoding="utf-8")
    res = CliRunner(env=ENV).invoke(app, ["effects", "clansman", "--out", str(f)])
    assert res.exit_code == 2 and "this is a file" in res.output
    res = CliRunner(env=ENV).invoke(app, ["effects", "pig", "--out", str(tmp_path / "p")])
    assert res.exit_code == 2 and "not this game's" in res.output


def test_default_cards_are_the_kinds_report_groups() -> None:
    """I, Clansman: the missions (VP); The White Castle: the ten garden cards (CP)."""
    cs = card_values(values_for("clansman", None, None), None, True)
    assert len(cs) == 49 and cs["715"] == 7 and "200" not in cs  # 200: a Kofun
    wc = card_values(values_for("white-castle", None, None), None, True)
    assert wc["plant_1"] == 9 and len(wc) == 10
    over = card_values(values_for("clansman", None, None),
                       {"cards": [{"id": "715", "function": {"vp": {"amount": 5}}}]}, True)
    assert over["715"] == 5


def test_changes_and_holders() -> None:
    """=N sets, +N/-N move; a holder is a clan with the id or a label starting 'id '."""
    assert parse_change("=0").apply(7) == 0 and parse_change("+5").apply(2) == 7
    assert parse_change("-1").apply(3) == 2
    with pytest.raises(KamonError):
        parse_change("5")
    table = pa.table({"missions": ["405 Naniwa;715 Contribution", "4050 X", "", None,
                                   "40 Y;405"]})
    assert _holds(table, "missions", "405").tolist() == [True, False, False, False, True]


def test_a_base_overlay_is_the_value_changed_from(tmp_path: Path) -> None:
    """With --data-overlay the base is itself a variant: 405 at 6 VP moves to 7, and a +0
    change is that base (one run planned, nothing played yet)."""
    overlay = {"cards": [{"id": "405", "function": {"vp": {"amount": 6}}}]}
    plan = plan_effects("clansman", 4, ["random"] * 4, {"data_overlay": overlay},
                        parse_cards(["405:+1,406:+0"], Change("=", 0)),
                        values_for("clansman", None, None), 0, 5, tmp_path / "o")
    (v405, v406) = plan.variants
    assert (v405.before, v405.after) == (6, 7) and v406.run is plan.base
    assert len(plan.runs()) == 2 and plan.to_play == 10


def test_a_white_castle_garden_card_raised_by_20_cp_shifts_its_holders_score_by_20(
        tmp_path: Path) -> None:
    """The White Castle through the same pipeline: its garden cards' CP from its own
    folder, the variant's games the base's with plant_1 worth 20 CP more, so each clan
    holding it scores exactly 20 more (random players do not look at CP) and holds it
    as often; its holders' win rate cannot fall; plant_2 (+0) is the base's own games."""
    plan = plan_effects("white-castle", 2, ["random"] * 2, {},
                        parse_cards(["plant_1:+20,plant_2:+0"], Change("=", 0)),
                        values_for("white-castle", None, None), 0, 40, tmp_path / "wc")
    with open_backend("local", 1, None) as backend:
        run_effects(plan, backend)
    found = {e.card: e for e in analyse_effects(plan)}
    assert len(plan.runs()) == 2
    raised = found["plant_1"]
    assert (raised.before, raised.after) == (9, 29) and raised.holders_base >= 1
    assert raised.score.diff.estimate == pytest.approx(20.0)
    assert raised.hold.diff.estimate == 0 and raised.win.diff.estimate >= 0
    assert found["plant_2"].score.diff.estimate == 0
