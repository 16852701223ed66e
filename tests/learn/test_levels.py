"""The levels of the trained network (issue 37): `fast` and `learned` are levels like the
others (words, the CLI, tournaments, the research environments), with the shipped weights."""

from __future__ import annotations

import re

import numpy as np
import pytest
from typer.testing import CliRunner

import kamon.agents as agents_pkg
from kamon.agents import LEVELS, MCTSAgent, level_summaries, make_agent
from kamon.agents.base import hooks_for
from kamon.cli import app
from kamon.games import get_game
from kamon.learn.agents import FastAgent
from kamon.learn.net import shipped_net, shipped_path


@pytest.mark.parametrize("game", ["white-castle", "clansman"])
def test_the_shipped_network_loads_and_fits_its_game(game: str) -> None:
    """Weights ship in the package, a few MB at most, and fit the game's observation and
    action space; loading is lazy (one load, then the same object)."""
    path = shipped_path(game)
    assert path.exists() and path.stat().st_size < 5_000_000
    net = shipped_net(game)
    assert net is shipped_net(game) and net.game == game
    g = get_game(game)
    state = g.new_game(4, 1)
    logits, values = net.seat_eval(state, 0)
    assert logits.shape == (g.num_actions,) and len(values) == 4
    assert np.isfinite(logits).all()


@pytest.mark.parametrize(("game", "players"), [("white-castle", 4), ("clansman", 4)])
def test_learned_words_give_the_iterations_it_searches_with(game: str, players: int) -> None:
    """learned's per-game figure is its budget there; it is a guided MCTSAgent (so the
    server's time cap for iteration budgets applies to it)."""
    state = get_game(game).new_game(players, 3)
    m = re.search(r"([\d,]+) iterations", level_summaries(state)["learned"])
    assert m
    agent = make_agent("learned", 1)
    assert isinstance(agent, MCTSAgent) and agent.guide is not None and agent.seconds is None
    assert agent.iterations is not None
    assert round(agent.iterations / hooks_for(state).mcts_iteration_weight) == \
        int(m[1].replace(",", ""))
    assert isinstance(make_agent("fast", 1), FastAgent)
    assert make_agent("fast", 1).name == "fast" and make_agent("learned", 1).name == "learned"


def test_both_levels_play_whole_games_from_the_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    """fast and learned (test budget) are seats of `kamon play` and agents of `simulate` and
    `tournament`, in both games."""
    monkeypatch.setattr(agents_pkg, "LEARNED_ITERATIONS", 30)
    runner = CliRunner()
    res = runner.invoke(app, ["play", "white-castle", "--players", "1", "--seats", "learned",
                              "--seed", "4", "-q"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["tournament", "clansman", "--agents", "fast,learned,normal,easy",
                              "--games", "1", "--expert"])
    assert res.exit_code == 0, res.output
    assert "fast" in res.output and "learned" in res.output
    res = runner.invoke(app, ["simulate", "white-castle", "--players", "2", "--games", "1",
                              "--agents", "fast,normal", "--seed", "2"])
    assert res.exit_code == 0, res.output


def test_the_research_environments_take_the_fast_level() -> None:
    """A Gymnasium environment's opponents can be the network's levels, by name."""
    pytest.importorskip("gymnasium")
    from kamon.rl.gym_env import KamonGymEnv

    env = KamonGymEnv("white-castle", players=2, opponents="fast")
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape
    assert isinstance(env._opponents[1], FastAgent)
    assert set(LEVELS) >= {"fast", "learned"}
