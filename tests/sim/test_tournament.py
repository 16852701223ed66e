"""Tournaments: seat rotation, seeding, Wilson intervals, openskill ratings, CSV, the CLI."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.sim import GameResult, lineup, run_tournament, schedule, wilson
from kamon.sim.tournament import CSV_FIELDS, TournamentResult


def test_every_agent_sits_in_every_seat_equally_often() -> None:
    """4 agents, 8 games: each seat holds each agent twice; each seed is dealt 4 times."""
    games = schedule("white-castle", ["a", "b", "c", "d"], 8, 4, seed=100)
    seats = Counter((g.lineup[j], j) for g in games for j in range(4))
    assert set(seats.values()) == {2} and len(seats) == 16
    assert [g.seed for g in games] == [100] * 4 + [101] * 4
    assert [g.rotation for g in games] == [0, 1, 2, 3] * 2
    assert all(sorted(g.lineup) == ["a", "b", "c", "d"] for g in games)


def test_fewer_agents_than_seats_cycle_round_the_table() -> None:
    """Two agents at four seats alternate, and swap in the next rotation."""
    assert lineup(["x", "y"], 4, 0) == ("x", "y", "x", "y")
    assert lineup(["x", "y"], 4, 1) == ("y", "x", "y", "x")
    with pytest.raises(KamonError, match="at most 2"):
        schedule("white-castle", ["a", "b", "c"], 3, 2, seed=0)


def test_wilson_interval_matches_known_values() -> None:
    """Wilson 95% bounds for 0/10, 5/10, 10/10 and the empty sample."""
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.27753, abs=1e-4)
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.23659, abs=1e-4), pytest.approx(0.76341, abs=1e-4))
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(0.72247, abs=1e-4) and hi == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(60, 100)
    assert (lo, hi) == (pytest.approx(0.50201, abs=1e-4), pytest.approx(0.69060, abs=1e-4))


def test_ranks_put_the_tie_broken_winner_first() -> None:
    """Equal top scores: the winner (by tie-break) ranks 1, the other 2; a shared win ties."""
    res = GameResult(0, 0, 0, ["a", "b", "c"], ["blue", "yellow", "red"], [40, 40, 10],
                     [1], [1, 1, 1], [0.0] * 3)
    assert res.ranks() == [2, 1, 3]
    shared = GameResult(0, 0, 0, ["a", "b", "c"], ["blue", "yellow", "red"], [40, 40, 10],
                        [0, 1], [1, 1, 1], [0.0] * 3)
    assert shared.ranks() == [1, 1, 3] and shared.win_share(0) == 0.5


def test_the_same_seed_gives_the_same_tournament() -> None:
    """Seeded games and seeded agents: two runs agree game by game."""
    a = run_tournament("white-castle", ["greedy", "random"], games=4, seed=3)
    b = run_tournament("white-castle", ["greedy", "random"], games=4, seed=3)
    assert [(r.agents, r.scores, r.winners) for r in a.results] == \
        [(r.agents, r.scores, r.winners) for r in b.results]
    c = run_tournament("white-castle", ["greedy", "random"], games=4, seed=4)
    assert [r.scores for r in c.results] != [r.scores for r in a.results]


def test_a_process_pool_gives_the_same_results_in_game_order() -> None:
    """--jobs 2 plays the same games as one process and reports them in order."""
    one = run_tournament("white-castle", ["random", "random", "random"], games=6, seed=9)
    two = run_tournament("white-castle", ["random", "random", "random"], games=6, seed=9,
                         jobs=2)
    assert [r.index for r in two.results] == list(range(6))
    assert [(r.seed, r.scores) for r in one.results] == [(r.seed, r.scores) for r in two.results]


def test_summaries_ratings_and_csv(tmp_path: Path) -> None:
    """Per-agent and per-seat lines, openskill ratings (greedy above random), a CSV file."""
    seen: list[int] = []
    res = run_tournament("white-castle", ["greedy", "random"], games=6, seed=1,
                         progress=lambda r: seen.append(r.index))
    assert sorted(seen) == list(range(6))
    agents = {ln.label: ln for ln in res.by_agent()}
    assert agents["greedy"].games == agents["random"].games == 6
    assert agents["greedy"].wins + agents["random"].wins == pytest.approx(6)
    assert agents["greedy"].win_rate > agents["random"].win_rate
    lo, hi = agents["greedy"].interval
    assert 0.0 <= lo <= agents["greedy"].win_rate <= hi <= 1.0
    assert agents["greedy"].seconds_per_decision > 0
    seats = res.by_seat()
    assert [ln.label for ln in seats] == ["seat 1", "seat 2"]
    assert sum(ln.games for ln in seats) == 12
    ratings = res.ratings()
    assert [r.agent for r in ratings][0] == "greedy"
    assert {r.agent for r in ratings} == {"greedy", "random"}
    assert all(r.sigma > 0 for r in ratings)
    path = tmp_path / "t.csv"
    assert res.write_csv(path) == 12
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert tuple(rows[0]) == CSV_FIELDS
    assert len(rows) == 13
    assert {row[5] for row in rows[1:]} == {"greedy", "random"}


def test_a_solo_tournament_rates_the_rival_too() -> None:
    """Solo White Castle: one seat plus the Tokugawa rival, who appears as a participant."""
    res = run_tournament("white-castle", ["easy"], games=2, players=1, seed=2,
                         options={"difficulty": "easy"})
    names = [ln.label for ln in res.by_agent()]
    assert names == ["easy", "tokugawa (rival)"]
    assert [ln.label for ln in res.by_seat()] == ["seat 1", "tokugawa (rival)"]
    assert {r.agent for r in res.ratings()} == {"easy", "tokugawa (rival)"}


def test_an_agent_in_several_seats_gets_one_rating() -> None:
    """Two agents at four seats: ratings for exactly those two."""
    res = TournamentResult("white-castle", 4, ["a", "b"], [
        GameResult(0, 0, 0, ["a", "b", "a", "b"], ["blue", "yellow", "red", "green"],
                   [30, 20, 25, 10], [0], [1] * 4, [0.1] * 4)])
    ratings = res.ratings()
    assert [r.agent for r in ratings] == ["a", "b"]
    assert ratings[0].mu > ratings[1].mu


def test_bad_tournaments_are_refused() -> None:
    """Unknown agents and zero games fail before anything is played."""
    with pytest.raises(KamonError, match="unknown agent"):
        run_tournament("white-castle", ["greedy", "oracle"], games=2)
    with pytest.raises(KamonError, match="at least one game"):
        run_tournament("white-castle", ["greedy"], games=0)


def test_cli_tournament_prints_tables_ratings_and_writes_csv(tmp_path: Path) -> None:
    """kamon tournament white-castle --agents greedy,random --games 4 --jobs 2."""
    out = tmp_path / "games.csv"
    res = CliRunner(env={"KAMON_DATA_OVERLAY": None, "COLUMNS": "160"}).invoke(
        app, ["tournament", "white-castle", "--agents", "greedy,random", "--games", "4",
              "--jobs", "2", "--csv", str(out)])
    assert res.exit_code == 0, res.output
    for text in ("By agent", "By seat", "openskill ratings", "greedy", "random", "95%"):
        assert text in res.output
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert tuple(rows[0]) == CSV_FIELDS and len(rows) == 1 + 4 * 2


def test_cli_tournament_reports_bad_input_in_one_line() -> None:
    """An unknown agent is a red line and exit code 2."""
    res = CliRunner(env={"KAMON_DATA_OVERLAY": None}).invoke(
        app, ["tournament", "white-castle", "--agents", "greedy,nobody", "--games", "2"])
    assert res.exit_code == 2
    assert "unknown agent" in res.output
