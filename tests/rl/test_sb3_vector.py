"""SB3 on kamon's native batched env (issue 40): the adapter gives what a DummyVecEnv of
KamonGymEnvs gives, step for step; MaskablePPO trains on it (a tiny run) and never
chooses an illegal action; what it refuses, it says."""

from __future__ import annotations

from typing import Any, cast

import gymnasium
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.vec_env import (  # noqa: E402
    DummyVecEnv,
    VecEnv,
    VecEnvWrapper,
    VecMonitor,
)

import kamon.rl  # noqa: E402,F401  (registers the Gymnasium ids)
from kamon.core.threads import pin_torch  # noqa: E402
from kamon.rl import make_gym_env, make_vector_env  # noqa: E402
from kamon.rl.sb3 import KamonSb3VecEnv, make_sb3_env, to_sb3  # noqa: E402

GAME = "white-castle"
GYM_ID = "kamon/WhiteCastle-v0"


class MaskChecker(VecEnvWrapper):
    """Checks every batch of actions against the masks the learner was shown (through
    this wrapper, as sb3-contrib's get_action_masks reads them) and counts them."""

    def __init__(self, venv: VecEnv) -> None:
        super().__init__(venv)
        self.steps = 0
        self.illegal = 0
        self.games_ended = 0

    def reset(self) -> Any:
        """The wrapped env's reset."""
        return self.venv.reset()

    def step_async(self, actions: np.ndarray) -> None:
        """Count the actions that the current masks forbid, then step."""
        masks = np.stack(self.venv.env_method("action_masks"))
        self.illegal += int((~masks[np.arange(len(actions)), actions]).sum())
        self.steps += len(actions)
        self.venv.step_async(actions)

    def step_wait(self) -> Any:
        """The wrapped env's step, counting the games that ended."""
        obs, rewards, dones, infos = self.venv.step_wait()
        self.games_ended += int(dones.sum())
        return obs, rewards, dones, infos


def test_the_adapter_steps_as_a_dummy_vec_env_of_gym_envs() -> None:
    """Same seeds, same actions (sampled from the masks): the same observations, rewards,
    dones, final observations and masks for 300 steps of 3 games, auto-resets included."""
    n = 3
    native = to_sb3(make_vector_env(GAME, n, opponents="random"))
    dummy = DummyVecEnv([lambda: make_gym_env(GAME, opponents="random")
                         for _ in range(n)])
    native.seed(11)
    dummy.seed(11)
    obs_a, obs_b = native.reset(), dummy.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        np.testing.assert_array_equal(obs_a, obs_b)
        masks = native.action_masks()
        np.testing.assert_array_equal(masks, np.stack(dummy.env_method("action_masks")))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs_a, rew_a, done_a, info_a = native.step(actions)
        obs_b, rew_b, done_b, info_b = dummy.step(actions)
        np.testing.assert_array_equal(rew_a, rew_b)
        assert rew_a.dtype == rew_b.dtype == np.float32
        np.testing.assert_array_equal(done_a, done_b)
        for i in np.flatnonzero(done_a):
            np.testing.assert_array_equal(info_a[i]["terminal_observation"],
                                          info_b[i]["terminal_observation"])
            assert info_a[i]["TimeLimit.truncated"] is False
            ended += 1
    assert ended >= 2  # (the auto-reset was exercised)


def test_maskable_ppo_trains_on_the_native_env_and_respects_the_masks() -> None:
    """A tiny MaskablePPO run (512 steps of 4 games, from gymnasium.make_vec) through
    VecMonitor: it runs, every action it chose was legal (the env raises on an illegal
    one too), games ended and were logged, and the trained model predicts legal moves.
    torch on one thread, as docs/research.md advises (ten times faster on 2 busy cores)."""
    import torch

    pin_torch(torch)
    venv = gymnasium.make_vec(GYM_ID, num_envs=4, opponents="random", illegal="raise")
    checker = MaskChecker(to_sb3(venv))
    env = VecMonitor(checker)
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=128, n_epochs=1,
                        seed=0, device="cpu", policy_kwargs={"net_arch": [32]})
    model.learn(512)
    assert checker.steps == 512
    assert checker.illegal == 0
    assert model.ep_info_buffer is not None
    assert checker.games_ended > 0 and len(model.ep_info_buffer) == checker.games_ended
    obs: Any = env.reset()
    masks = np.stack(env.env_method("action_masks"))
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[np.arange(4), actions].all()


def test_what_the_adapter_refuses_it_names() -> None:
    """Self-play, another auto-reset mode, a non-kamon env, a per-game method it cannot
    answer: each a clear error."""
    with pytest.raises(ValueError, match="self-play"):
        to_sb3(make_vector_env(GAME, 2, opponents=None))
    with pytest.raises(ValueError, match="SAME_STEP"):
        to_sb3(make_vector_env(GAME, 2, opponents="random", autoreset_mode="NextStep"))
    with pytest.raises(TypeError, match="KamonVectorEnv"):
        to_sb3(cast(Any, make_gym_env(GAME, opponents="random")))
    env = make_sb3_env(GAME, 2, opponents="random")
    assert isinstance(env, KamonSb3VecEnv) and env.has_attr("action_masks")
    assert env.get_attr("seat") == [0, 0]
    with pytest.raises(AttributeError, match="action_masks"):
        env.env_method("legal_actions")
    with pytest.raises(ValueError, match="all of them"):
        env.set_attr("seat", 1, indices=[0])
