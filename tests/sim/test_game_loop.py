"""One game loop for every simulation command: the same deal, rotation and lineup give the
same game in `kamon simulate`, `kamon tournament` and `kamon sweep` (one seeding rule,
`game_loop.seat_seed`), and the loop plays what the rule says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from typer.testing import CliRunner

from kamon.agents import agent_seed
from kamon.cli import app
from kamon.sim import game_loop
from kamon.sim.game_loop import play, rows_of, seat_seed

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "160"}
LINEUP = "greedy,random"
FIRST, DEALS = 20, 2  # deals 20 and 21, each from rotations 0 and 1: 4 games
SAME = ("seating",)  # the one column that says which command wrote the rows


def cli(*args: str) -> None:
    """Run a kamon command; it must succeed."""
    res = CliRunner(env=ENV).invoke(app, list(args))
    assert res.exit_code == 0, res.output


def rows(path: Path, drop: tuple[str, ...] = SAME) -> list[dict[str, Any]]:
    """A results file's rows by seed, rotation and seat, without the columns dropped."""
    table = pq.read_table(path).drop_columns(list(drop))
    return sorted(table.to_pylist(), key=lambda r: (r["seed"], r["rotation"], r["seat"]))


def test_simulate_tournament_and_sweep_play_the_same_games(tmp_path: Path) -> None:
    """Deals 20 and 21 of greedy against random: `simulate` (rotated seats) and
    `tournament` write the same rows but for the seating label, every (seed, rotation)
    once; the sweep's point for the default option value and `simulate --fixed-seats`
    write the rotation-0 games, the same rows again."""
    sim, tour = tmp_path / "sim.parquet", tmp_path / "tour.parquet"
    common = ["white-castle", "--players", "2", "--agents", LINEUP, "--seed", str(FIRST)]
    cli("simulate", *common, "--games", str(DEALS), "--out", str(sim))
    cli("tournament", *common, "--games", str(2 * DEALS), "--out", str(tour))
    simulated, toured = rows(sim), rows(tour)
    assert [(r["seed"], r["rotation"], r["seat"]) for r in simulated] == [
        (s, r, q) for s in (20, 21) for r in (0, 1) for q in (1, 2)]
    assert simulated == toured
    assert {r["agent"] for r in simulated if r["rotation"] == 1 and r["seat"] == 1} == {"random"}
    assert len({(r["score_total"], r["game_decisions"]) for r in simulated}) > 1  # not one game
    fixed, sweep = tmp_path / "fixed.parquet", tmp_path / "sweep"
    cli("simulate", *common, "--games", str(DEALS), "--fixed-seats", "--out", str(fixed))
    cli("sweep", *common, "--games", str(DEALS), "--vary", "first_game=false,true",
        "--out", str(sweep))
    assert rows(sweep / "false.parquet") == rows(fixed)
    assert rows(fixed) == [r for r in simulated if r["rotation"] == 0]


def test_the_loop_seeds_each_seat_by_the_one_rule() -> None:
    """Seat p of deal s from rotation r is seeded agent_seed(s, r * players + p): the loop's
    game equals one played by hand with agents so seeded, and another rotation's seeds
    give another game."""
    from kamon.agents import make_agent
    from kamon.games import get_game

    assert seat_seed(7, 1, 4, 2) == agent_seed(7, 6)
    lineup = ("random", "random")
    played = play("white-castle", 2, 7, lineup, {}, rotation=1)
    state = get_game("white-castle").new_game(2, 7)
    bots = [make_agent(n, agent_seed(7, 1 * 2 + p)) for p, n in enumerate(lineup)]
    while not state.is_over():
        p = state.to_move
        assert p is not None
        state.apply(bots[p].act(state))
    assert played.end.scores() == state.scores()
    assert played.total == sum(played.decisions)
    other = play("white-castle", 2, 7, lineup, {}, rotation=0)
    assert [s["total"] for s in other.end.scores()] != [s["total"] for s in state.scores()] \
        or other.total != played.total
    got = rows_of("white-castle", 2, {}, lineup, 7, played, 1, "fixed")
    assert [r["rotation"] for r in got] == [1, 1] and got[0]["game_branching"] > 1
    assert game_loop.ranks([10, 12, 12], [1]) == [3, 1, 2]  # the tie-broken winner first
