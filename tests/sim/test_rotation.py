"""Rotated seats in `kamon simulate`: every deal played from every rotation, each agent in
each seat equally often, resumable under a run key that names the seating, fixed seats
on request; and `kamon tournament --out` writing results data that `read_results` reads."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.sim.backends import LocalBackend, open_backend
from kamon.sim.results import key_of, read_results
from kamon.sim.runner import SimSpec
from kamon.sim.simulation import run_simulation
from kamon.sim.tournament import run_tournament

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "160"}
MIXED = ("greedy", "random", "random", "random")
ROTATED = SimSpec("white-castle", 4, MIXED, {}, rotate=True)
FIXED = SimSpec("white-castle", 4, MIXED, {})


def test_rotations_are_the_period_of_the_lineup() -> None:
    """4 for a,b,b,b; 2 for a,b,a,b; 1 (fixed, nothing changes) for one agent everywhere."""
    assert ROTATED.rotations == 4 and ROTATED.key.seats == "rotated"
    alt = SimSpec("white-castle", 4, ("greedy", "random") * 2, {}, rotate=True)
    assert alt.rotations == 2 and alt.lineup(1) == ("random", "greedy") * 2
    same = SimSpec("white-castle", 4, ("random",) * 4, {}, rotate=True)
    assert same.rotations == 1 and same.key == SimSpec("white-castle", 4, ("random",) * 4).key
    assert FIXED.rotations == 1 and FIXED.key.seats == "fixed"


def test_each_deal_is_played_from_every_rotation(tmp_path: Path) -> None:
    """3 deals x 4 rotations: every (seed, rotation) once, seat j holding agent (j + r) % 4,
    greedy in each seat 3 times; rotation 0 is the fixed-seat game of the seed."""
    out = tmp_path / "r.parquet"
    done = run_simulation(ROTATED, 10, 3, LocalBackend(1), out)
    assert done.played == 3
    table = read_results(out)
    assert key_of(table) == ROTATED.key
    rows = table.to_pylist()
    assert len(rows) == 3 * 4 * 4
    assert [(r["seed"], r["rotation"], r["seat"]) for r in rows] == [
        (s, r, q) for s in range(10, 13) for r in range(4) for q in range(1, 5)]
    assert {r["seating"] for r in rows} == {"rotated"}
    for r in rows:
        assert r["agent"] == MIXED[(r["seat"] - 1 + r["rotation"]) % 4]
    seats = Counter((r["agent"], r["seat"]) for r in rows)
    assert all(seats[("greedy", q)] == 3 and seats[("random", q)] == 9 for q in range(1, 5))
    fixed = run_simulation(FIXED, 10, 3, LocalBackend(1)).table.to_pylist()
    drop = {"seating"}
    first = [{k: v for k, v in r.items() if k not in drop} for r in rows if r["rotation"] == 0]
    assert first == [{k: v for k, v in r.items() if k not in drop} for r in fixed]


def test_a_rotated_rerun_resumes_and_matches_one_run_on_two_workers(tmp_path: Path) -> None:
    """Deals 0-2 kept, 0-5 asked: 3 deals (12 games) played; the file equals, byte for
    byte, one run of 0-5 on two processes with batches of one deal."""
    out = tmp_path / "r.parquet"
    run_simulation(ROTATED, 0, 3, LocalBackend(1), out)
    again = run_simulation(ROTATED, 0, 6, LocalBackend(1), out)
    assert again.played == 3 and again.resumed == 3
    whole = tmp_path / "whole.parquet"
    with open_backend("local", 2) as pool:
        run_simulation(ROTATED, 0, 6, pool, whole, size=1)
    assert out.read_bytes() == whole.read_bytes()


def test_the_cli_rotates_by_default_and_keeps_seats_when_asked(tmp_path: Path) -> None:
    """greedy,random for 3 deals: 6 games, greedy in both seats; --fixed-seats: 3 games,
    greedy always in seat 1."""
    runner = CliRunner(env=ENV)
    rotated, fixed = tmp_path / "rot.csv", tmp_path / "fixed.csv"
    args = ["simulate", "white-castle", "--players", "2", "--agents", "greedy,random",
            "--games", "3", "--seed", "5"]
    res = runner.invoke(app, [*args, "--out", str(rotated)])
    assert res.exit_code == 0, res.output
    assert "12 result rows of 6 games (3 deals x 2 rotations)" in res.output
    assert "Wins by agent" in res.output
    rows = read_results(rotated).to_pylist()
    assert {(r["seed"], r["rotation"]) for r in rows} == {(s, r) for s in (5, 6, 7)
                                                          for r in (0, 1)}
    assert {r["seat"] for r in rows if r["agent"] == "greedy"} == {1, 2}
    res = runner.invoke(app, [*args, "--fixed-seats", "--out", str(fixed)])
    assert res.exit_code == 0, res.output
    assert "6 result rows of 3 games in" in res.output
    rows = read_results(fixed).to_pylist()
    assert [(r["seed"], r["seat"], r["agent"]) for r in rows] == [
        (s, q, a) for s in (5, 6, 7) for q, a in ((1, "greedy"), (2, "random"))]
    assert {(r["seating"], r["rotation"]) for r in rows} == {("fixed", 0)}


@pytest.mark.parametrize("first, then", [([], ["--fixed-seats"]), (["--fixed-seats"], [])])
def test_a_file_of_the_other_seating_is_refused(tmp_path: Path, first: list[str],
                                                then: list[str]) -> None:
    """A fixed-seat file is not resumed by a rotated run, nor the reverse: exit 2, the
    file unchanged, both seatings named."""
    out = tmp_path / "r.parquet"
    args = ["simulate", "white-castle", "--players", "2", "--agents", "greedy,random",
            "--games", "2", "--out", str(out)]
    runner = CliRunner(env=ENV)
    assert runner.invoke(app, [*args, *first]).exit_code == 0
    before = out.read_bytes()
    res = runner.invoke(app, [*args, *then])
    assert res.exit_code == 2, res.output
    text = " ".join(res.output.split())
    assert "seats fixed" in text and "seats rotated" in text
    assert out.read_bytes() == before


def test_parts_of_a_fixed_run_are_refused_by_a_rotated_one(tmp_path: Path) -> None:
    """The parts' manifest names the seating: a rotated run will not merge fixed parts."""
    out = tmp_path / "r.parquet"
    parts = out.with_name(out.name + ".parts")
    parts.mkdir()
    (parts / "run.json").write_text('{"game": "white-castle", "players": 4, "options": "{}", '
                                    '"agents": ["greedy", "random", "random", "random"]}')
    with pytest.raises(KamonError, match="seats fixed, not of this run .*seats rotated"):
        run_simulation(ROTATED, 0, 1, LocalBackend(1), out)


def test_tournament_out_writes_results_equal_to_its_own_table(tmp_path: Path) -> None:
    """`tournament --out t.parquet --csv legacy.csv`: read_results reads the rows, one per
    game and clan, with the agents and placements of the tournament's own CSV."""
    out, legacy = tmp_path / "t.parquet", tmp_path / "legacy.csv"
    res = CliRunner(env=ENV).invoke(app, [
        "tournament", "white-castle", "--agents", "greedy,random,easy", "--games", "7",
        "--seed", "3", "--out", str(out), "--csv", str(legacy)])
    assert res.exit_code == 0, res.output
    assert f"21 result rows of 7 games written to {out}" in " ".join(res.output.split())
    table = read_results(out)
    key = key_of(table)
    assert key.seats == "tournament" and key.agents == ("greedy", "random", "easy")
    got = [(r["seed"], r["rotation"], r["seat"], r["agent"], r["placement"], r["winner"])
           for r in table.to_pylist()]
    with legacy.open() as fh:
        want = [(int(r["seed"]), int(r["rotation"]), int(r["seat"]), r["agent"],
                 int(r["rank"]), float(r["win"]) > 0) for r in csv.DictReader(fh)]
    assert got == want
    assert {r["seating"] for r in table.to_pylist()} == {"tournament"}


def test_a_tournament_table_reads_back_from_csv_with_its_key(tmp_path: Path) -> None:
    """Two agents in four seats (lineups a,b,a,b and b,a,b,a): the CSV's recovered key and
    rows equal the Parquet's."""
    result = run_tournament("white-castle", ["greedy", "random"], 5, 4, seed=1, rows=True)
    table = result.table()
    assert table.num_rows == 20 and len(result.results) == 5
    for path in (tmp_path / "t.parquet", tmp_path / "t.csv"):
        result.write_results(path)
        back = read_results(path)
        assert key_of(back) == key_of(table)
        assert back.to_pylist() == table.to_pylist()
    ranks = [r for res in result.results for r in res.ranks()]
    assert table["placement"].to_pylist() == ranks
