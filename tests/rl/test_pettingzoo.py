"""The PettingZoo AEC environments pass PettingZoo's own api_test and seed_test, replay
from a seed, end with the documented rewards, render text and refuse bad input."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from kamon.core.errors import IllegalAction
from kamon.rl import make_env
from kamon.rl.encoding import encoding, final_rewards
from tests.rl.registry import DEFAULTS, SETUPS, setup_id

# Warnings api_test gives every env with a dict observation (as PettingZoo's own classic
# games have); anything else it warns about is a failure here.
DICT_OBS_WARNINGS = ("Observation space for each agent probably should be",
                     "Observation is not a NumPy array")


def run_api_test(env: Any) -> None:
    """api_test, failing on any warning other than the dict-observation ones."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=1000)
    other = [str(w.message) for w in caught
             if not any(s in str(w.message) for s in DICT_OBS_WARNINGS)]
    assert not other, other


@pytest.mark.parametrize(("game", "players", "options"), SETUPS, ids=map(setup_id, SETUPS))
def test_api_test_passes(game: str, players: int, options: dict[str, Any]) -> None:
    """PettingZoo's api_test over a whole game, for every registered game in each of its
    set-ups (every player count, every mode its option schema makes)."""
    run_api_test(make_env(game, players=players, render_mode="ansi", **options))


@pytest.mark.parametrize(("game", "players", "options"), DEFAULTS, ids=map(setup_id, DEFAULTS))
def test_seed_test_passes(game: str, players: int, options: dict[str, Any]) -> None:
    """PettingZoo's seed_test: two environments reset with one seed play identically."""
    seed_test(lambda: make_env(game, players=players, **options), num_cycles=60)


def play_out(env: Any, seed: int) -> tuple[list[int], dict[str, float]]:
    """Play a game with legal actions drawn from a generator seeded with `seed` (always the
    first legal action need not end a game: in Pig it rolls forever); the actions and final
    rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    finals: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            finals[agent] = reward
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        env.step(action)
    return actions, finals


@pytest.mark.parametrize(("game", "players", "options"), DEFAULTS, ids=map(setup_id, DEFAULTS))
def test_reset_seed_replays_and_rewards_come_at_the_end(
        game: str, players: int, options: dict[str, Any]) -> None:
    """The same seed gives the same game (seed 8 differs); every agent gets its documented
    placement reward once, at the end, and only then; the rewards sum to 0."""
    env = make_env(game, players=players, **options)
    a, finals = play_out(env, 7)
    b, again = play_out(env, 7)
    c, _ = play_out(env, 8)
    assert a == b and finals == again and a != c
    play_out(env, 7)
    assert env.state is not None and env.state.is_over()
    expected = final_rewards(env.state, "placement", encoding(game).margin_scale)
    assert finals == {f"player_{q}": expected[q] for q in range(players)}
    assert abs(sum(finals.values())) < 1e-9 and max(finals.values()) == 1.0


@pytest.mark.parametrize(("game", "players", "options"), DEFAULTS, ids=map(setup_id, DEFAULTS))
def test_only_the_seat_to_move_has_a_mask(game: str, players: int,
                                          options: dict[str, Any]) -> None:
    """The mask of the agent to move is exactly the legal actions; other agents' are empty."""
    env = make_env(game, players=players, **options)
    env.reset(seed=3)
    assert env.state is not None
    legal = {a.id for a in env.state.legal_actions()}
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        if agent == env.agent_selection:
            assert set(np.flatnonzero(mask)) == legal
        else:
            assert not mask.any()


@pytest.mark.parametrize(("game", "players", "options"), DEFAULTS, ids=map(setup_id, DEFAULTS))
def test_margin_reward_option(game: str, players: int, options: dict[str, Any]) -> None:
    """reward='margin' ends with the score margins scaled by the game's margin scale."""
    env = make_env(game, players=players, reward="margin", **options)
    _, finals = play_out(env, 2)
    assert env.state is not None
    assert finals == {f"player_{q}": r for q, r in enumerate(
        final_rewards(env.state, "margin", encoding(game).margin_scale))}


def test_illegal_and_malformed_actions_raise_and_change_nothing() -> None:
    """An illegal id raises IllegalAction with the reason, a non-id or out-of-space value a
    ValueError; the game, the agent to move and the observation stay as they were."""
    env = make_env("white-castle", players=2)
    env.reset(seed=1)
    assert env.state is not None
    before = env.state.to_json()
    agent = env.agent_selection
    obs = env.observe(agent)["observation"]
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(illegal)
    for bad in (10_000, -1, "take coral left", 1.5, True):
        with pytest.raises(ValueError):
            env.step(bad)
    assert env.state.to_json() == before and env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["observation"], obs)


def test_render_is_the_games_text_view() -> None:
    """render() in 'ansi' mode returns the board as text, seen by the agent to move."""
    env = make_env("white-castle", players=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "The White Castle" in text and "Bridge" in text
    env = make_env("clansman", render_mode="ansi")
    env.reset(seed=1)
    assert "I, Clansman" in str(env.render())


def test_bad_set_up_is_refused_clearly() -> None:
    """Unknown games, bad player counts, options, reward or render modes: clear errors."""
    with pytest.raises(Exception, match="unknown game"):
        make_env("chess")
    with pytest.raises(ValueError, match="exactly 4 players"):
        make_env("clansman", players=3)
    with pytest.raises(ValueError, match="unknown option"):
        make_env("white-castle", colour="red")
    with pytest.raises(ValueError, match="unknown reward"):
        make_env("white-castle", reward="points")
    with pytest.raises(ValueError, match="render_mode"):
        make_env("white-castle", render_mode="human")
