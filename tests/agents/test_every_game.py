"""The built-in agents on every registered game (read from the registry, so a new game
folder is played here with no edit): legal choices only, the same choices from the same
seed, and the state they are shown left as it was."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kamon.agents import Agent, GreedyAgent, MCTSAgent, RandomAgent
from kamon.core.protocol import State
from kamon.core.rng import Rng
from kamon.games import games, get_game

GAMES = sorted(games())

BUILDERS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": lambda seed: MCTSAgent(seed, iterations=8, rollout_depth=4),
}


def start(game: str, seed: int) -> State:
    """A new game at the game's default player count (the variant that count needs set)."""
    g = get_game(game)
    return g.new_game(g.default_players, seed, **g.options.forced(g.default_players))


@pytest.mark.parametrize("kind", sorted(BUILDERS))
@pytest.mark.parametrize("game", GAMES)
def test_agents_choose_legal_actions_alike_from_a_seed_and_change_nothing(
        game: str, kind: str) -> None:
    """Over 40 decisions (every other one random, for varied positions): each choice is
    legal, a second agent built from the same seed chooses the same, and the state shown
    is unchanged by the choosing."""
    state = start(game, 3)
    rng = Rng(3)
    made = [BUILDERS[kind](11 + p) for p in range(state.num_players)]
    twins = [BUILDERS[kind](11 + p) for p in range(state.num_players)]
    for step in range(40):
        if state.is_over():
            break
        p = state.to_move
        assert p is not None
        before = state.to_json()
        action = made[p].act(state)
        assert state.to_json() == before, f"{kind} changed the state at step {step}"
        assert action in state.legal_actions(), f"{kind} chose {action} at step {step}"
        assert twins[p].act(state) == action, f"{kind} is not reproducible at step {step}"
        state.apply(action if step % 2 else rng.choice(state.legal_actions()))
