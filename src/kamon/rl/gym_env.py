"""A kamon game as a Gymnasium single-agent environment: one seat learns, kamon bots play
the other seats.

The observation is the seat's float32 vector (kamon.rl.encoding, from `view(seat)` only);
the action is a game action id (`Discrete(GAME.num_actions)`). The legal actions are in
`info["action_mask"]` (int8) and `action_masks()` (bool, what sb3-contrib's MaskablePPO
asks for). Rewards come only at the end (`reward="placement"` or "margin", see
docs/OBSERVATIONS.md). The other seats are kamon agents (`opponents`: a level or agent
name, or one per other seat, e.g. "normal", "random", ["easy", "hard", "random"]) seeded
from the game seed, so `reset(seed=s)` replays exactly. In the solo White Castle the
Tokugawa rival plays itself and there are no opponents.

An action outside `Discrete(GAME.num_actions)` raises ValueError. A legal-space action that
is not legal now either ends the episode as a loss (`illegal="lose"`, the default: reward
-1, `info["illegal_action"]` says why, the game itself unchanged), or raises IllegalAction
(`illegal="raise"`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from kamon.agents import Agent, agent_seed, make_agent
from kamon.core.errors import IllegalAction
from kamon.core.protocol import State
from kamon.rl.common import action_id, check_setup, new_state, opponent_seats, text_view
from kamon.rl.encoding import Encoding, check_reward_mode, encoding, final_rewards, legal_ids

ILLEGAL_MODES = ("lose", "raise")


class KamonGymEnv(gymnasium.Env):
    """Gymnasium environment of one seat of a kamon game (built by `kamon.rl.make_gym_env`)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: str, seat: int = 0, opponents: str | Sequence[str] = "normal",
                 players: int | None = None, reward: str = "placement",
                 illegal: str = "lose", render_mode: str | None = None,
                 **options: Any) -> None:
        """Set up the environment; ValueError with the reason for any bad argument."""
        self.enc: Encoding = encoding(game)
        self.reward_mode = check_reward_mode(reward)
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, got {illegal!r}")
        self.illegal = illegal
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None, got {render_mode!r}")
        self.render_mode = render_mode
        self.players = players
        self.options = dict(options)
        seats = check_setup(self.enc, players, self.options)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise ValueError(f"seat must be a seat number 0-{seats - 1}, got {seat!r}")
        self.seat = seat
        self.opponent_names = opponent_seats(seat, seats, opponents)
        self.observation_space = spaces.Box(0.0, 1.0, (self.enc.size,), np.float32)
        self.action_space = spaces.Discrete(self.enc.num_actions)
        self.state: State | None = None
        self.game_seed: int | None = None
        self._opponents: dict[int, Agent] = {}
        self._done = True

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game, played up to the learning seat's first decision."""
        super().reset(seed=seed)
        self.game_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.state = new_state(self.enc, self.players, self.game_seed, self.options)
        self._opponents = {q: make_agent(name, agent_seed(self.game_seed, q))
                           for q, name in self.opponent_names.items()}
        self._done = False
        self._play_opponents()
        return self._obs(), self._info()

    def _play_opponents(self) -> None:
        """Let the bots move until the learning seat decides or the game ends."""
        state = self.state
        assert state is not None
        while not state.is_over() and state.to_move != self.seat:
            seat = state.to_move
            assert seat is not None
            state.apply(self._opponents[seat].act(state))

    def _obs(self) -> np.ndarray:
        """The learning seat's observation now."""
        assert self.state is not None
        return self.enc.observe(self.state, self.seat)

    def _info(self, **extra: Any) -> dict[str, Any]:
        """The info dict: the action mask (and whatever else is given)."""
        assert self.state is not None
        mask = (self.enc.mask(self.state) if not self._done
                else np.zeros(self.enc.num_actions, dtype=np.int8))
        return {"action_mask": mask, **extra}

    def action_masks(self) -> np.ndarray:
        """The legal actions now as booleans (sb3-contrib's MaskablePPO calls this)."""
        if self.state is None or self._done:
            return np.zeros(self.enc.num_actions, dtype=bool)
        return self.enc.mask(self.state).astype(bool)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the seat's action, then the bots' moves up to the seat's next decision."""
        if self.state is None or self._done:
            raise RuntimeError("the episode is over (or never began): call reset() first")
        aid = action_id(action, self.enc.num_actions)
        if aid not in legal_ids(self.state):
            why = f"action {aid} ({self.enc.game.action_text(aid)}) is not legal now"
            if self.illegal == "raise":
                raise IllegalAction(why)
            self._done = True
            return self._obs(), -1.0, True, False, self._info(illegal_action=why)
        self.state.apply(aid)
        self._play_opponents()
        if self.state.is_over():
            self._done = True
            reward = final_rewards(self.state, self.reward_mode, self.enc.margin_scale)
            return self._obs(), float(reward[self.seat]), True, False, self._info()
        return self._obs(), 0.0, False, False, self._info()

    def render(self) -> str | None:
        """The game's text view as the learning seat sees it (render_mode "ansi")."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use "
                                  "render_mode='ansi'")
            return None
        if self.state is None:
            raise RuntimeError("call reset() before render()")
        return text_view(self.enc, self.state, self.seat)
