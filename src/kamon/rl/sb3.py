"""kamon's native batched environment as a Stable-Baselines3 `VecEnv`, masks included.

SB3 takes only its own `VecEnv` (or a single Gymnasium env it wraps in a `DummyVecEnv`),
so `MaskablePPO("MlpPolicy", gymnasium.make_vec("kamon/WhiteCastle-v0", num_envs=N))`
fails ("not a Gymnasium environment"), and a `DummyVecEnv` of N `KamonGymEnv`s steps the N
games one Python call each. `to_sb3(vector_env)` (or `make_sb3_env(game, N, ...)`) wraps
a `KamonVectorEnv` so SB3 and sb3-contrib train on it with its batching kept: one
`step` call moves every game.

    from sb3_contrib import MaskablePPO
    from kamon.rl.sb3 import make_sb3_env

    env = make_sb3_env("white-castle", 16, opponents="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=128, seed=0).learn(20_000)

What SB3 sees is what its `DummyVecEnv` would give over N `KamonGymEnv`s seeded alike
(`VecEnv.seed(s)` seeds game i with s + i, as both do): observations (N, SIZE) float32,
rewards (N,) float32, dones (N,) bool, and one info dict per game, with
`terminal_observation` (and `TimeLimit.truncated`, always False: every game ends) for a
game that ended, since the next game starts in the same step (the native env's
SAME_STEP auto-reset, which is SB3's); `illegal_action` says why a game was lost to an
illegal action (the env's `illegal="lose"`). `action_masks()` and
`env_method("action_masks")` give the legal actions (N, A) as booleans, which is what
sb3-contrib's `get_action_masks` reads, through SB3's wrappers too (`VecMonitor` for the
episode statistics SB3 logs, `VecNormalize`).

One learner, one seat: the env must have opponents (kamon bots in the other seats);
self-play (`opponents=None`) is refused, since SB3 would read the seats' alternating
turns as one agent's trajectory. Gymnasium wrappers around the native env would be
skipped: wrap the adapter in SB3's `VecEnvWrapper`s instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from kamon.rl.vector_env import KamonVectorEnv

try:
    from stable_baselines3.common.vec_env import VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import (
        VecEnvIndices,
        VecEnvObs,
        VecEnvStepReturn,
    )
except ImportError as exc:  # pragma: no cover - the train extra is installed in tests
    raise ImportError("kamon.rl.sb3 needs Stable-Baselines3: pip install 'kamon[train]' "
                      "(or pip install stable-baselines3 sb3-contrib)") from exc

MASKS = "action_masks"


class KamonSb3VecEnv(VecEnv):
    """A `KamonVectorEnv` as an SB3 `VecEnv`: N games stepped in one call, their legal
    actions from `action_masks()` (built by `to_sb3`)."""

    def __init__(self, venv: VectorEnv[Any, Any, Any]) -> None:
        """Wrap `venv` (a ValueError for self-play or an auto-reset mode other than
        SAME_STEP, a TypeError for anything but a KamonVectorEnv)."""
        if not isinstance(venv, KamonVectorEnv):
            raise TypeError(f"to_sb3 takes a kamon.rl.vector_env.KamonVectorEnv (from "
                            f"kamon.rl.make_vector_env or gymnasium.make_vec), got "
                            f"{type(venv).__name__}: wrap the adapter in SB3's VecEnvWrappers "
                            "rather than the native env in Gymnasium's")
        if venv.self_play:
            raise ValueError("to_sb3: SB3 learns one seat's trajectory per game, but this env "
                             "is self-play (opponents=None); give opponents (kamon bots) for "
                             "the other seats")
        if venv.autoreset_mode != AutoresetMode.SAME_STEP:
            raise ValueError(f"to_sb3: SB3 starts the next game in the step that ends one "
                             f"(AutoresetMode.SAME_STEP); this env's mode is "
                             f"{venv.autoreset_mode.value}")
        self.venv: KamonVectorEnv = venv
        self._actions: np.ndarray | None = None
        super().__init__(venv.num_envs, venv.single_observation_space,
                         venv.single_action_space)

    # ------------------------------------------------------------------ stepping

    def reset(self) -> VecEnvObs:
        """New games in every row, seeded as `seed()` asked (then each game's stream)."""
        if any(self._options):
            raise ValueError(f"reset options are not understood by kamon's env: "
                             f"{self._options}")
        seeds = list(self._seeds)
        obs, _ = self.venv.reset(seed=None if all(s is None for s in seeds) else seeds)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs if self.venv.copy else obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the actions (N,) for `step_wait`."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> VecEnvStepReturn:
        """Step every game at once: observations, float32 rewards, dones and SB3's info
        dicts (`terminal_observation` for the games that ended and restarted)."""
        if self._actions is None:
            raise RuntimeError("step_async(actions) must come before step_wait()")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, info = self.venv.step(actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final_obs = info["final_obs"]
            illegal = info.get("illegal_action")
            for i in np.flatnonzero(dones).tolist():
                row = infos[i]
                row["terminal_observation"] = final_obs[i]
                row["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                if illegal is not None and illegal[i] is not None:
                    row["illegal_action"] = illegal[i]
        if not self.venv.copy:
            obs = obs.copy()  # (SB3 keeps the last observations across a step)
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game's current decision, (N, A) bool."""
        return self.venv.action_masks()

    def close(self) -> None:
        """Close the native env."""
        self.venv.close()

    # ------------------------------------------------------------------ SB3's access

    def _rows(self, indices: VecEnvIndices) -> list[int]:
        """The game rows `indices` names (all by default)."""
        return list(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """An attribute of the native env (one env for all games), once per row asked."""
        if attr_name == MASKS:
            return [self.action_masks] * len(self._rows(indices))
        value = getattr(self.venv, attr_name)
        return [value] * len(self._rows(indices))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute of the native env: for every game at once only."""
        if sorted(self._rows(indices)) != list(range(self.num_envs)):
            raise ValueError(f"set_attr({attr_name!r}): the games share one native env; set "
                             "it for all of them (indices=None)")
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """`action_masks` (one (A,) bool row per game asked) or `render` (one text view per
        game); another method is an AttributeError (the games share one native env)."""
        rows = self._rows(indices)
        if method_name == MASKS:
            masks = self.action_masks()
            return [masks[i] for i in rows]
        if method_name == "render":
            views: Sequence[Any] | None = self.venv.render()
            return [None if views is None else views[i] for i in rows]
        raise AttributeError(f"env_method({method_name!r}): kamon's batched env answers "
                             f"{MASKS!r} and 'render' per game; call other methods on "
                             ".venv (the KamonVectorEnv) directly")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        """No game is wrapped in a Gymnasium wrapper."""
        return [False] * len(self._rows(indices))


def to_sb3(venv: VectorEnv[Any, Any, Any]) -> KamonSb3VecEnv:
    """`venv` (a KamonVectorEnv, e.g. `gymnasium.make_vec("kamon/WhiteCastle-v0",
    num_envs=N)`) as an SB3 VecEnv with `action_masks()`, for MaskablePPO and the rest."""
    return KamonSb3VecEnv(venv)


def make_sb3_env(game: str, num_envs: int, seat: int = 0,
                 opponents: str | Sequence[str] = "normal", **kwargs: Any) -> KamonSb3VecEnv:
    """N games of `game` for the learner in `seat` against kamon bots, as an SB3 VecEnv
    (`kwargs`: the rest of `kamon.rl.make_vector_env`'s arguments)."""
    return KamonSb3VecEnv(KamonVectorEnv(game, num_envs=num_envs, seat=seat,
                                         opponents=opponents, **kwargs))


__all__ = ["KamonSb3VecEnv", "make_sb3_env", "to_sb3"]
