"""`kamon tournament`: more agents than seats is refused before any output (naming
--round-robin), and `--round-robin` plays every combination of --players of the agents,
seats rotated at each table, on the same deals, summed in one set of tables."""

from __future__ import annotations

import csv
import itertools
from collections import Counter
from pathlib import Path

from typer.testing import CliRunner

from kamon.cli import app
from kamon.cli.tournament_round_robin import round_robin_games, round_robin_schedule

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "160"}


def test_too_many_agents_fail_before_any_output() -> None:
    """5 agents for 4 seats: one error line, no header, no progress bar, and the way out."""
    res = CliRunner(env=ENV).invoke(app, [
        "tournament", "white-castle", "--agents", "greedy,random,easy,normal,random",
        "--players", "4", "--games", "2"])
    assert res.exit_code == 2
    assert res.output.lstrip().startswith("error: 5 agents for 4 seats"), res.output
    assert "--round-robin" in res.output
    assert "Tournament of" not in res.output and "games (" not in res.output


def test_round_robin_schedule_seats_every_subset_in_every_rotation() -> None:
    """4 agents, 3 seats, 3 games a table: 4 tables, each agent of a table in each seat
    once, every table on the same deals, indices 0..11."""
    agents = ["a", "b", "c", "d"]
    todo = round_robin_schedule("white-castle", agents, 3, 3, seed=7)
    assert len(todo) == round_robin_games(4, 3, 3) == 12
    assert [job.index for job in todo] == list(range(12))
    tables: dict[frozenset[str], list[tuple[str, ...]]] = {}
    for job in todo:
        tables.setdefault(frozenset(job.lineup), []).append(job.lineup)
        assert job.seed == 7 + (job.index % 3) // 3
    assert set(tables) == {frozenset(c) for c in itertools.combinations(agents, 3)}
    for lineups in tables.values():
        for seat in range(3):
            assert sorted(lineup[seat] for lineup in lineups) == sorted(lineups[0])


def test_cli_round_robin_sums_every_table(tmp_path: Path) -> None:
    """--round-robin over 3 agents at 2 seats: 3 tables of 2 games, one by-agent table and
    one ratings table over all 6 games, every pair met, the CSV one row per player."""
    out = tmp_path / "rr.csv"
    res = CliRunner(env=ENV).invoke(app, [
        "tournament", "white-castle", "--agents", "greedy,random,easy", "--players", "2",
        "--round-robin", "--games", "2", "--csv", str(out)])
    assert res.exit_code == 0, res.output
    assert "round robin: 3 tables of 2, 2 games each" in res.output
    assert "By agent (6 games)" in res.output and "openskill ratings" in res.output
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 12
    per_game: dict[str, set[str]] = {}
    for row in rows:
        per_game.setdefault(row["game"], set()).add(row["agent"])
    assert Counter(frozenset(p) for p in per_game.values()) == {
        frozenset(p): 2 for p in itertools.combinations(["greedy", "random", "easy"], 2)}


def test_round_robin_refuses_out() -> None:
    """--out keeps one lineup's games: refused with --round-robin, before any output."""
    res = CliRunner(env=ENV).invoke(app, [
        "tournament", "white-castle", "--agents", "greedy,random,easy", "--players", "2",
        "--round-robin", "--out", "r.parquet"])
    assert res.exit_code == 2
    assert res.output.lstrip().startswith("error: --out keeps the games of one lineup")
