"""OpenSpiel's own Python algorithms on the kamon games, as docs/research.md shows them:
DQN through `rl_environment` (needs dm-tree, in the `rl` extra), a seeded
`ChanceEventSampler` (the environment's `seed=` is ignored upstream when given a game
object), and `evaluate_bots` with the Python ISMCTSBot given the `restart_at` it lacks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import kamon.rl  # noqa: F401  (registers the games)

pyspiel = pytest.importorskip("pyspiel")  # the rl extra installs it; make test has it
rl_environment = pytest.importorskip("open_spiel.python.rl_environment")


def _first_observations(env: Any, steps: int) -> list[list[float]]:
    """The current player's information-state tensors over the first `steps` random-free
    steps (always the first legal action), from a fresh reset."""
    seen = []
    time_step = env.reset()
    for _ in range(steps):
        if time_step.last():
            break
        player = time_step.observations["current_player"]
        seen.append(list(time_step.observations["info_state"][player]))
        time_step = env.step([time_step.observations["legal_actions"][player][0]])
    return seen


def test_chance_event_sampler_seeds_the_environment() -> None:
    """The documented way to seed `rl_environment` on a game object: the same sampler
    seed gives the same deal, another seed another."""
    game = pyspiel.load_game("python_kamon_white_castle", {"players": 2})
    sampler = rl_environment.ChanceEventSampler
    a = _first_observations(rl_environment.Environment(
        game, chance_event_sampler=sampler(seed=3)), 3)
    b = _first_observations(rl_environment.Environment(
        game, chance_event_sampler=sampler(seed=3)), 3)
    c = _first_observations(rl_environment.Environment(
        game, chance_event_sampler=sampler(seed=4)), 3)
    assert a == b
    assert a != c
    env = rl_environment.Environment(game)
    env.seed(3)  # (the same thing on an environment already built)
    assert _first_observations(env, 3) == a


def test_dqn_runs_on_rl_environment() -> None:
    """`open_spiel.python.pytorch.dqn` imports (dm-tree is in the rl extra) and learns
    from a few kamon steps without error."""
    from open_spiel.python.pytorch import dqn

    game = pyspiel.load_game("python_kamon_white_castle", {"players": 2})
    env = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=0))
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [dqn.DQN(player_id=p, state_representation_size=size, num_actions=actions,
                      hidden_layers_sizes=[16], replay_buffer_capacity=100, batch_size=4,
                      min_buffer_size_to_learn=4, learn_every=4) for p in range(2)]
    time_step = env.reset()
    for _ in range(40):
        if time_step.last():
            time_step = env.reset()
        player = time_step.observations["current_player"]
        action = agents[player].step(time_step).action
        assert action in time_step.observations["legal_actions"][player]
        time_step = env.step([action])
    assert any(a.loss is not None for a in agents)  # it learned from its buffer


def test_evaluate_bots_with_python_ismcts() -> None:
    """`evaluate_bots` calls `restart_at`, which OpenSpiel's Python ISMCTSBot does not
    implement; the subclass docs/research.md shows plays a whole game (ISMCTS: the root
    chance mode, an imperfect-information game)."""
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

    class ISMCTS(ismcts.ISMCTSBot):
        """ISMCTSBot with the restart `evaluate_bots` asks for (it keeps no tree)."""

        def restart_at(self, state: object) -> None:
            """Nothing to forget between games."""

    game = pyspiel.load_game("python_kamon_white_castle", {"players": 2, "chance": "root"})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bare = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2)
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), [bare, bare],
                                    np.random.RandomState(0))
    bots = [ISMCTS(game, evaluator, uct_c=2.0, max_simulations=2),
            mcts.MCTSBot(game, 2.0, 2, evaluator)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                          np.random.RandomState(0))
    assert sorted(returns) == [-1.0, 1.0] or returns == [0.0, 0.0]
