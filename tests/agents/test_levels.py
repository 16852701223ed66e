"""The levels everywhere a level is chosen: their words (kamon.agents.level_summaries, per
game), the CLI's play, tournament, simulate and games, with expert among them."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import kamon.agents as agents_pkg
from kamon.agents import LEVELS, MCTSAgent, level_summaries, make_agent
from kamon.agents.base import hooks_for
from kamon.cli import app
from kamon.games import get_game


def test_every_level_has_words_and_expert_is_one() -> None:
    """One line per level, easiest first (the network's two levels, issue 37, beside the
    levels they are measured against), expert last with its time budget."""
    assert list(LEVELS) == ["easy", "normal", "fast", "hard", "learned", "expert"]
    for game in ("white-castle", "clansman"):
        g = get_game(game)
        words = level_summaries(g.new_game(g.min_players, 0))
        assert list(words) == list(LEVELS)
        assert all(text and "\n" not in text for text in words.values())
        assert "3 s" in words["expert"] and "wall clock" in words["expert"]


@pytest.mark.parametrize(("game", "players", "iterations"),
                         [("white-castle", 2, 5400), ("clansman", 4, 8100)])
def test_hard_words_give_the_iterations_the_search_runs(game: str, players: int,
                                                        iterations: int) -> None:
    """hard's per-game figure is the budget its search really uses there."""
    state = get_game(game).new_game(players, 3)
    assert f"{iterations:,} iterations" in level_summaries(state)["hard"]
    agent = make_agent("hard", 1)
    assert isinstance(agent, MCTSAgent) and agent.scale_budget
    assert agent.iterations is not None
    assert round(agent.iterations / hooks_for(state).mcts_iteration_weight) == iterations


def test_cli_games_lists_the_levels_with_their_words() -> None:
    """`kamon games` names each level, expert too, with the game's own figures."""
    res = CliRunner().invoke(app, ["games"])
    assert res.exit_code == 0, res.output
    assert "level expert" in res.output and "8,100 iterations" in res.output
    assert "5,400 iterations" in res.output


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
