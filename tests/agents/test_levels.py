"""The levels everywhere a level is chosen: their descriptions (one place, per game), the
CLI's play, tournament, simulate and games, with expert among them."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import kamon.agents as agents_pkg
from kamon.agents import LEVELS, MCTSAgent, level_budget, level_descriptions, make_agent
from kamon.agents.base import hooks_for, hooks_for_game
from kamon.cli import app
from kamon.games import get_game


def test_level_descriptions_name_every_level_once_in_order() -> None:
    """One line per level, easiest first, for no game and for each game."""
    for game in (None, "white-castle", "clansman"):
        pairs = level_descriptions(game)
        assert [name for name, _ in pairs] == list(LEVELS) == ["easy", "normal", "hard",
                                                               "expert"]
        assert all(text and "\n" not in text for _, text in pairs)
    assert dict(level_descriptions())["hard"] == LEVELS["hard"].summary
    assert "3 s" in dict(level_descriptions("clansman"))["expert"]


@pytest.mark.parametrize(("game", "players", "iterations"),
                         [("white-castle", 2, 3600), ("clansman", 4, 5400)])
def test_hard_description_gives_the_iterations_the_search_runs(game: str, players: int,
                                                               iterations: int) -> None:
    """hard's per-game figure is the budget its search really uses there."""
    assert level_budget("hard", game) == iterations
    assert f"{iterations:,} iterations" in dict(level_descriptions(game))["hard"]
    assert level_budget("normal", game) is None and level_budget("expert", game) is None
    state = get_game(game).new_game(players, 3)
    assert hooks_for_game(get_game(game)) is hooks_for(state)
    agent = make_agent("hard", 1)
    assert isinstance(agent, MCTSAgent) and agent.scale_budget
    assert round(agent.iterations / hooks_for(state).mcts_iteration_weight) == iterations


def test_cli_games_lists_the_levels_with_their_descriptions() -> None:
    """`kamon games` names each level, expert too, with the game's own figures."""
    res = CliRunner().invoke(app, ["games"])
    assert res.exit_code == 0, res.output
    assert "expert" in res.output and "5,400 iterations" in res.output
    assert "3,600 iterations" in res.output


def test_cli_plays_and_simulates_with_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    """expert is a seat of `kamon play` and an agent of `kamon simulate` (its time budget
    shortened here so the solo games end quickly)."""
    monkeypatch.setattr(agents_pkg, "EXPERT_SECONDS", 0.005)
    runner = CliRunner()
    res = runner.invoke(app, ["play", "white-castle", "--players", "1", "--seats", "expert",
                              "--seed", "4", "-q"])
    assert res.exit_code == 0, res.output
    assert "= expert" in res.output
    res = runner.invoke(app, ["simulate", "white-castle", "--players", "1", "--games", "1",
                              "--agents", "expert", "--seed", "2"])
    assert res.exit_code == 0, res.output


def test_cli_tournament_takes_expert_and_names_it_in_errors(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`kamon tournament` seats expert; a misspelt level is refused naming expert."""
    monkeypatch.setattr(agents_pkg, "EXPERT_SECONDS", 0.005)
    runner = CliRunner()
    res = runner.invoke(app, ["tournament", "white-castle", "--agents", "expert",
                              "--players", "1", "--games", "1", "--seed", "5"])
    assert res.exit_code == 0, res.output
    assert "expert" in res.output and "1 games" in res.output
    res = runner.invoke(app, ["tournament", "white-castle", "--agents", "expertt,normal"])
    assert res.exit_code == 2
    assert "unknown agent 'expertt'" in res.output and "expert" in res.output
