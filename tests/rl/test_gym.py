"""The Gymnasium single-agent environments pass Gymnasium's check_env, carry the action
mask for MaskablePPO, play kamon bots in the other seats reproducibly, and train."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from kamon.core.errors import IllegalAction
from kamon.rl import GYM_IDS, make_gym_env
from kamon.rl.encoding import encoding, final_rewards
from tests.rl.registry import DEFAULTS, GAMES, GYM_ID

CHECKED: list[tuple[str, dict[str, Any]]] = [
    (GYM_ID[game], {"players": players, "seat": players - 1, "opponents": "random", **options})
    for game, players, options in DEFAULTS] + [
    ("kamon/WhiteCastle-v0", {"players": 1, "difficulty": "hard"}),
    ("kamon/WhiteCastle-v0", {"players": 4, "seat": 2, "opponents": ["easy", "random", "normal"]}),
    ("kamon/Clansman-v0", {"seat": 1, "opponents": "random", "expert": True}),
]


@pytest.mark.parametrize(("gym_id", "kwargs"), CHECKED)
def test_check_env_passes_without_warnings(gym_id: str, kwargs: dict[str, Any]) -> None:
    """Gymnasium's check_env (render modes included, through the registered id) finds
    nothing to warn about: every registered game at its default count, and the solo game
    and mixed opponents."""
    env = gymnasium.make(gym_id, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not [str(w.message) for w in caught]


def test_every_game_with_an_observation_has_its_gym_id() -> None:
    """Each registered game with an observation is registered with Gymnasium under its id
    (`kamon/WhiteCastle-v0` for white-castle), and nothing else is."""
    assert sorted(GYM_IDS.values()) == GAMES
    for gym_id in GYM_IDS:
        assert gym_id in gymnasium.registry


def play(env: Any, seed: int) -> tuple[list[int], float, int]:
    """Play the first legal action each time; (the seat's actions, the final reward, steps)."""
    obs, info = env.reset(seed=seed)
    actions = []
    while True:
        mask = info["action_mask"]
        assert np.array_equal(mask.astype(bool), env.action_masks())
        action = int(np.flatnonzero(mask)[0])
        actions.append(action)
        obs, reward, term, trunc, info = env.step(action)
        assert obs.shape == env.observation_space.shape and not trunc
        if term:
            return actions, reward, len(actions)
        assert reward == 0.0


def test_opponents_are_seeded_bots_and_the_reward_comes_at_the_end() -> None:
    """With a seed, the bots in the other seats replay their moves exactly; the last step
    pays the seat's placement reward; the seat only ever decides on its own turn."""
    env = make_gym_env("white-castle", seat=1, players=3, opponents="normal")
    a, reward_a, _ = play(env, 5)
    b, reward_b, _ = play(env, 5)
    assert a == b and reward_a == reward_b
    assert env.state is not None and env.state.is_over()
    expected = final_rewards(env.state, "placement", encoding("white-castle").margin_scale)
    assert reward_a == expected[1]
    history = env.state.history
    assert len(history) > len(a)  # the other seats moved too


def test_solo_has_no_opponents_and_ends_against_the_rival() -> None:
    """Solo: the rival plays itself; the episode ends +1 or -1 by the final result."""
    env = make_gym_env("white-castle", players=1, difficulty="easy", opponents="hard")
    _, reward, _ = play(env, 3)
    assert env.state is not None
    assert reward == (1.0 if env.state.winners() == [0] else -1.0)


def test_an_illegal_action_loses_or_raises_and_leaves_the_game() -> None:
    """illegal='lose': the episode ends with -1 and the reason, the game unchanged;
    illegal='raise': IllegalAction. Out-of-space actions are always a ValueError."""
    env = make_gym_env("clansman", opponents="random")
    _, info = env.reset(seed=1)
    assert env.state is not None
    before = env.state.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, term, _, info = env.step(illegal)
    assert (reward, term) == (-1.0, True) and "not legal" in info["illegal_action"]
    assert env.state.to_json() == before
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = make_gym_env("clansman", opponents="random", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction):
        strict.step(illegal)
    for bad in (502, -3, "obtain 412", None):
        with pytest.raises(ValueError):
            strict.step(bad)


def test_bad_arguments_are_refused_clearly() -> None:
    """Seat, opponents, reward and illegal-action mode are checked when the env is made."""
    with pytest.raises(ValueError, match="seat"):
        make_gym_env("white-castle", players=2, seat=2)
    with pytest.raises(ValueError, match="unknown agent"):
        make_gym_env("white-castle", players=2, opponents="grandmaster")
    with pytest.raises(ValueError, match="one per other seat"):
        make_gym_env("white-castle", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="illegal"):
        make_gym_env("white-castle", illegal="ignore")


def test_maskable_ppo_trains_and_then_plays_only_legal_moves() -> None:
    """A short MaskablePPO run (sb3-contrib) on The White Castle against a random bot: it
    trains through a full update, and the policy it learnt, given the mask, picks a legal
    action at every decision of a whole game."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    env = make_gym_env("white-castle", players=2, opponents="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.set_logger(Logger(folder=None, output_formats=[]))  # no SB3-<date> folder in /tmp
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    obs, info = env.reset(seed=11)
    done = False
    while not done:
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert info["action_mask"][int(action)] == 1
        obs, _, done, _, info = env.step(int(action))
    assert env.state is not None and env.state.is_over()
