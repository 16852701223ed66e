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


@pytest.mark.parametrize(("game", "players", "options"), [
    ("white-castle", 1, {"difficulty": "medium"}),
    ("white-castle", 2, {}),
    ("white-castle", 4, {"first_game": True}),
    ("clansman", 4, {}),
    ("clansman", 4, {"expert": True, "emperor_side": "A"}),
])
def test_api_test_passes(game: str, players: int, options: dict[str, Any]) -> None:
    """PettingZoo's api_test over a whole game, for solo, 2, 4 players and both Clansman modes."""
    run_api_test(make_env(game, players=players, render_mode="ansi", **options))


@pytest.mark.parametrize("game", ["white-castle", "clansman"])
def test_seed_test_passes(game: str) -> None:
    """PettingZoo's seed_test: two environments reset with one seed play identically."""
    seed_test(lambda: make_env(game, players=3 if game == "white-castle" else 4),
              num_cycles=60)


def play_out(env: Any, seed: int) -> tuple[list[int], dict[str, float]]:
    """Play a game with the first legal action every time; the actions and final rewards."""
    env.reset(seed=seed)
    actions: list[int] = []
    finals: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            finals[agent] = reward
            env.step(None)
            continue
        action = int(np.flatnonzero(obs["action_mask"])[0])
        actions.append(action)
        env.step(action)
    return actions, finals


def test_reset_seed_replays_and_rewards_come_at_the_end() -> None:
    """The same seed gives the same game (seed 8 differs); every agent gets its documented
    placement reward once, at the end, and only then."""
    env = make_env("white-castle", players=3)
    a, finals = play_out(env, 7)
    b, again = play_out(env, 7)
    c, _ = play_out(env, 8)
    assert a == b and finals == again and a != c
    play_out(env, 7)
    assert env.state is not None and env.state.is_over()
    expected = final_rewards(env.state, "placement", encoding("white-castle").margin_scale)
    assert finals == {f"player_{q}": expected[q] for q in range(3)}
    assert sorted(finals.values()) == [-1.0, 0.0, 1.0] or len(set(finals.values())) < 3


def test_only_the_seat_to_move_has_a_mask() -> None:
    """The mask of the agent to move is exactly the legal actions; other agents' are empty."""
    env = make_env("clansman")
    env.reset(seed=3)
    assert env.state is not None
    legal = {a.id for a in env.state.legal_actions()}
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        if agent == env.agent_selection:
            assert set(np.flatnonzero(mask)) == legal
        else:
            assert not mask.any()


def test_margin_reward_option() -> None:
    """reward='margin' ends with the scaled score margins."""
    env = make_env("clansman", reward="margin")
    _, finals = play_out(env, 2)
    assert env.state is not None
    assert finals == {f"player_{q}": r for q, r in
                      enumerate(final_rewards(env.state, "margin", 30.0))}


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
