"""A kamon game as a PettingZoo AEC environment (one agent per seat, turn by turn).

Agents are "player_0" ... (seat numbers). Each agent observes a dict like PettingZoo's
classic games: "observation", the seat's float32 vector (kamon.rl.encoding, built from
`view(seat)` only), and "action_mask", int8 over `GAME.num_actions` (all 0 when it is not
that agent's turn). Rewards come only at the end (`reward="placement"` or "margin",
see docs/OBSERVATIONS.md); every agent then terminates together. There is no truncation:
every game ends. `reset(seed=s)` makes the following games reproducible; `render()`
returns the game's text view (render_mode "ansi"). An action outside the space or not
legal now raises (ValueError / kamon's IllegalAction) and changes nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from kamon.core.protocol import State
from kamon.rl.common import action_id, apply_checked, check_setup, new_state, text_view
from kamon.rl.encoding import Encoding, check_reward_mode, encoding, final_rewards

RENDER_MODES = ("ansi",)


class KamonAECEnv(AECEnv):
    """PettingZoo AEC environment of one kamon game (built by `kamon.rl.make_env`)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "kamon_v0",
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: str, players: int | None = None, reward: str = "placement",
                 render_mode: str | None = None, **options: Any) -> None:
        """Set up the environment; ValueError with the reason for a bad game, option or mode."""
        super().__init__()
        self.enc: Encoding = encoding(game)
        self.reward_mode = check_reward_mode(reward)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, "
                             f"got {render_mode!r}")
        self.render_mode = render_mode
        self.players = players
        self.options = dict(options)
        seats = check_setup(self.enc, players, self.options)
        self.metadata = {**self.metadata,
                         "name": f"kamon_{self.enc.game_name.replace('-', '_')}_v0"}
        self.possible_agents = [f"player_{q}" for q in range(seats)]
        self.agent_name_mapping = {a: q for q, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict({"observation": spaces.Box(0.0, 1.0, (self.enc.size,), np.float32),
                            "action_mask": spaces.Box(0, 1, (self.enc.num_actions,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.enc.num_actions)
                              for a in self.possible_agents}
        self._np_random, _ = seeding.np_random(None)
        self.state: State | None = None
        self.game_seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of an agent (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of an agent: the game's action ids."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; a seed makes it, and the games after it, reproducible."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self.game_seed = int(self._np_random.integers(0, 2**31 - 1))
        self.state = new_state(self.enc, self.players, self.game_seed, self.options)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cache: dict[int, dict[str, np.ndarray]] = {}
        self._select()

    def _select(self) -> None:
        """Point agent_selection at the seat to move."""
        assert self.state is not None
        seat = self.state.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation dict (a fresh copy each call)."""
        if self.state is None:
            raise RuntimeError("call reset() before observe()")
        seat = self.agent_name_mapping[agent]
        cached = self._cache.get(seat)
        if cached is None:
            mask = (self.enc.mask(self.state) if self.state.to_move == seat
                    else np.zeros(self.enc.num_actions, dtype=np.int8))
            cached = {"observation": self.enc.observe(self.state, seat), "action_mask": mask}
            self._cache[seat] = cached
        return {"observation": cached["observation"].copy(),
                "action_mask": cached["action_mask"].copy()}

    def step(self, action: Any) -> None:
        """Play the selected agent's action (None for an agent that has terminated)."""
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        aid = action_id(action, self.enc.num_actions)
        apply_checked(self.state, aid)
        self._cache = {}
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_over():
            rewards = final_rewards(self.state, self.reward_mode, self.enc.margin_scale)
            for q, a in enumerate(self.possible_agents):
                self.rewards[a] = rewards[q]
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            # Rewards come only at the end: every one is still the 0.0 reset() set, so
            # neither zeroing them again nor adding them up changes anything (0.9 us a
            # decision saved, timeit, 4 seats; a PettingZoo decision is about 80 us).
            self._select()

    def render(self) -> str | None:
        """The game's text view as the selected agent sees it (render_mode "ansi")."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; use "
                                  "render_mode='ansi'")
            return None
        if self.state is None:
            raise RuntimeError("call reset() before render()")
        return text_view(self.enc, self.state, self.agent_name_mapping.get(self.agent_selection))

    def close(self) -> None:
        """Nothing to release (no window, no process)."""
