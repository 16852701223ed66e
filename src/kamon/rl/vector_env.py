"""A kamon game as a native batched Gymnasium environment: N games stepped in one call, in
this process (EnvPool/pgx style), built by `kamon.rl.make_vector_env` or
`gymnasium.make_vec("kamon/WhiteCastle-v0", num_envs=N)`.

`KamonVectorEnv` is a `gymnasium.vector.VectorEnv`. Observations come as one float32
array (N, SIZE) (kamon.rl.encoding, each row from one seat's `view` only), actions as an
integer array (N,) of game action ids (`MultiDiscrete([GAME.num_actions] * N)`), rewards
(N,) float64, terminations and truncations (N,) bool (never truncated: every game ends).

Who plays. `opponents` works as in `KamonGymEnv`: a kamon bot name, or one per other
seat, and the caller learns `seat` in every game; the bots move in between, seeded from
each game's seed, so `reset(seed=s)` replays exactly (game i of the batch is the game a
`KamonGymEnv` reset with seed s + i plays, and the games after it too). `opponents=None`
is self-play: no bots, the caller acts in each game for whichever seat is to move
(`infos["to_move"]`), and each observation row is that seat's. The reward of a step is
then the reward of the seat that just moved (`infos["mover"]`); when a game ends, every
seat's final reward is in `infos["rewards"]` (N, seats), which is what a self-play
learner needs to close every seat's trajectory, not only the last mover's. With the
"placement" reward a row of `infos["rewards"]` sums to 0 (see docs/OBSERVATIONS.md).

Auto-reset. By default `AutoresetMode.SAME_STEP` (in `metadata["autoreset_mode"]`): a
game that ends is replaced by the next game in the same `step`, so every row returned is a
live decision with a non-empty action mask, which is what masked policies (MaskablePPO,
pgx-style loops) need: they can always sample the next batch of actions from the masks.
The ended game's last observation is in `infos["final_obs"]` (an object array, None for
the rows that did not end, `infos["_final_obs"]` marks the ones that did) and its last info
in `infos["final_info"]` (`action_mask` all 0, `rewards`, `illegal_action`; with its own
`_key` row masks), as Gymnasium's `SyncVectorEnv` does. `autoreset_mode=NEXT_STEP` (the
ended game is returned as is, and the next `step` ignores that row's action and starts a
new game, reward 0) and `DISABLED` (the caller resets ended games with
`reset(options={"reset_mask": mask})`) are there for algorithms that expect them.

infos, every call: "action_mask" (N, A) int8, the legal actions of each returned row
(`action_masks()` gives them as bool); "to_move" (N,) int64, the seat each row's
observation and mask belong to (-1 for an ended game under NEXT_STEP / DISABLED);
"mover" (N,) int64, the seat whose action each row just played (-1: none, at reset or
on a NEXT_STEP restart); "rewards" (N, seats) float64, every seat's final reward in the
rows whose game ended in this call, 0 elsewhere. When some game ended: "final_obs" and
"final_info" (SAME_STEP), and when an illegal action ended one: "illegal_action" (the
reason, object array) with "_illegal_action".

Illegal actions, as `KamonGymEnv`: an action outside the action space (or an action
array of the wrong shape or type) is a ValueError and nothing moves. A legal-space action
that is not legal now either ends only its own game as a loss (`illegal="lose"`: reward
-1 to the seat that played it, the game itself unchanged; in `infos["rewards"]` the other
seats share +1, 1/(seats-1) each, as if that seat came last and the rest tied, so the row
still sums to 0), or raises IllegalAction naming the game (`illegal="raise"`), checked
for every game before any game moves.

The inner loop is plain Python over the N games; each observation is written into a
preallocated (N, SIZE) buffer, the masks are built in one fancy-indexed assignment from
the games' legal ids, and the legal ids found for a mask are those the next step's
action is checked against. `copy=False` returns the observation buffer itself (the next
call overwrites it) instead of a copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from kamon.agents import Agent, agent_seed, make_agent
from kamon.core.errors import IllegalAction, KamonError
from kamon.core.protocol import State
from kamon.rl.common import check_setup, new_state, opponent_seats, text_view
from kamon.rl.encoding import Encoding, check_reward_mode, encoding, final_rewards, legal_ids

ILLEGAL_MODES = ("lose", "raise")
SEED_BOUND = 2**31 - 1  # game seeds are drawn in [0, SEED_BOUND), as KamonGymEnv does


def _autoreset_mode(mode: Any) -> AutoresetMode:
    """The autoreset mode from an AutoresetMode or its value ("SameStep", ...)."""
    if isinstance(mode, AutoresetMode):
        return mode
    try:
        return AutoresetMode(mode)
    except ValueError:
        known = ", ".join(repr(m.value) for m in AutoresetMode)
        raise ValueError(f"autoreset_mode must be a gymnasium AutoresetMode or one of "
                         f"{known}, got {mode!r}") from None


def _legal_of(state: State) -> list[int]:
    """The legal ids of a state (none once it is over)."""
    return [] if state.is_over() else legal_ids(state)


class KamonVectorEnv(VectorEnv):
    """N games of one kamon game stepped together (built by `kamon.rl.make_vector_env`)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"],
                                "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game: str, num_envs: int = 1, seat: int = 0,
                 opponents: str | Sequence[str] | None = "normal", players: int | None = None,
                 reward: str = "placement", illegal: str = "lose",
                 autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
                 copy: bool = True, render_mode: str | None = None, **options: Any) -> None:
        """Set up N games (`opponents=None`: self-play; `seat` is then unused); ValueError
        with the reason for any bad argument."""
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) \
                or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        try:
            self.enc: Encoding = encoding(game)
        except KamonError as exc:
            raise ValueError(f"game: {exc}") from None
        self.reward_mode = check_reward_mode(reward)
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, got {illegal!r}")
        self.illegal = illegal
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None, got {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.copy = bool(copy)
        self.players = players
        self.options = dict(options)
        seats = check_setup(self.enc, players, self.options)
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) \
                or not 0 <= seat < seats:
            raise ValueError(f"seat must be a seat number 0-{seats - 1}, got {seat!r}")
        self.seat = int(seat)
        self.seats = seats
        self.self_play = opponents is None
        self.opponent_names: dict[int, str] = {}
        if opponents is not None:
            self.opponent_names = opponent_seats(self.seat, seats, opponents)

        self.num_envs = int(num_envs)
        self.num_actions = self.enc.num_actions
        self.single_observation_space = spaces.Box(0.0, 1.0, (self.enc.size,), np.float32)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

        n = self.num_envs
        self.states: list[State] = []
        self.game_seeds = np.zeros(n, dtype=np.int64)
        self._bots: list[dict[int, Agent]] = [{} for _ in range(n)]
        self._rngs: list[np.random.Generator | None] = [None] * n
        self._legal: list[list[int]] = [[] for _ in range(n)]
        self._obs = np.zeros((n, self.enc.size), dtype=np.float32)
        self._masks = np.zeros((n, self.num_actions), dtype=np.int8)
        self._to_move = np.full(n, -1, dtype=np.int64)
        self._ended = np.zeros(n, dtype=bool)  # awaiting a reset (NEXT_STEP / DISABLED)
        self._started = False

    # ------------------------------------------------------------------ resetting

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """New games: all of them, or those of `options["reset_mask"]` ((N,) bool).
        `seed`: an int s seeds game i with s + i (as `SyncVectorEnv` does), a list gives
        one seed (or None) per game, None keeps each game's seed stream (random at first)."""
        n = self.num_envs
        if isinstance(seed, np.ndarray):
            seed = seed.tolist()
        if seed is None or isinstance(seed, Sequence) and not isinstance(seed, str):
            seeds: list[int | None] = [None] * n if seed is None else list(seed)
            if len(seeds) != n:
                raise ValueError(f"seed: give an int, None, or one seed per game ({n}), "
                                 f"got {len(seeds)}")
        elif isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            super().reset(seed=int(seed))
            seeds = [int(seed) + i for i in range(n)]
        else:
            raise ValueError(f"seed: give an int, None, or one seed per game, got {seed!r}")
        for s in seeds:
            if s is not None and (isinstance(s, bool) or not isinstance(s, int | np.integer)
                                  or s < 0):
                raise ValueError(f"seed: each seed is a non-negative integer or None, got {s!r}")
        which = self._reset_mask(options)
        if which is not None and not self._started:
            raise ValueError("reset_mask: reset every game once (reset() without it) first")
        mover = np.full(n, -1, dtype=np.int64)
        rows = range(n) if which is None else np.flatnonzero(which).tolist()
        if not self._started:
            self.states = [None] * n  # type: ignore[list-item]  # filled just below
        for i in rows:
            s = seeds[i]
            if s is not None or self._rngs[i] is None:
                self._rngs[i] = seeding.np_random(None if s is None else int(s))[0]
            self._new_game(i)
        self._started = True
        self._masks = self._build_masks()
        infos = {"action_mask": self._masks, "to_move": self._to_move.copy(), "mover": mover,
                 "rewards": np.zeros((n, self.seats))}
        return self._out_obs(), infos

    def _reset_mask(self, options: dict[str, Any] | None) -> np.ndarray | None:
        """The games to reset from the reset options (None: all); ValueError if malformed."""
        if not options:
            return None
        unknown = sorted(set(options) - {"reset_mask"})
        if unknown:
            raise ValueError(f"reset options: only 'reset_mask' is understood, got {unknown}")
        mask = options["reset_mask"]
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ \
                or mask.shape != (self.num_envs,):
            raise ValueError(f"reset_mask must be a bool NumPy array of shape "
                             f"({self.num_envs},), got {mask!r}")
        if not mask.any():
            raise ValueError("reset_mask must mark at least one game to reset")
        return mask

    def _new_game(self, i: int) -> None:
        """Start game i from its seed stream and play the bots up to the learner's turn;
        its observation goes into the buffer, its legal ids into the list."""
        rng = self._rngs[i]
        assert rng is not None
        game_seed = int(rng.integers(0, SEED_BOUND))
        state = new_state(self.enc, self.players, game_seed, self.options)
        self.states[i] = state
        self.game_seeds[i] = game_seed
        self._ended[i] = False
        if self.self_play:
            to_move = state.to_move
            observer = 0 if to_move is None else to_move
        else:
            bots = {q: make_agent(name, agent_seed(game_seed, q))
                    for q, name in self.opponent_names.items()}
            self._bots[i] = bots
            observer = seat = self.seat
            while not state.is_over() and state.to_move != seat:
                q = state.to_move
                assert q is not None
                state.apply(bots[q].act(state))
            to_move = seat
        self._obs[i] = self.enc.observe(state, observer)
        self._legal[i] = _legal_of(state)
        self._to_move[i] = -1 if to_move is None or state.is_over() else to_move

    # ------------------------------------------------------------------ stepping

    def _check_actions(self, actions: Any) -> list[int]:
        """The actions as Python ints; ValueError (nothing moved) if any is malformed."""
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,):
            raise ValueError(f"actions: one integer action id per game, shape "
                             f"({self.num_envs},), got shape {arr.shape}")
        if not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"actions: integer action ids, got dtype {arr.dtype}")
        bad = np.flatnonzero((arr < 0) | (arr >= self.num_actions))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"actions: game {i}: action id {int(arr[i])} is outside the action "
                             f"space [0, {self.num_actions}) ({bad.size} game(s) out of range)")
        out: list[int] = arr.tolist()
        return out

    def _why(self, aid: int) -> str:
        """The reason an action is refused (KamonGymEnv's words)."""
        return f"action {aid} ({self.enc.game.action_text(aid)}) is not legal now"

    def _illegal_rewards(self, mover: int) -> list[float]:
        """Every seat's reward when `mover` ends its game with an illegal action."""
        others = self.seats - 1
        return [-1.0 if q == mover else 1.0 / others for q in range(self.seats)]

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Play one action in every game (and the bots' moves after it), auto-resetting
        the games that end as `metadata["autoreset_mode"]` says."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        aids = self._check_actions(actions)
        n = self.num_envs
        legal = self._legal
        waiting = self._ended
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        if self.autoreset_mode == AutoresetMode.DISABLED and waiting.any():
            raise RuntimeError(f"games {np.flatnonzero(waiting).tolist()} are over: reset "
                               "them with reset(options={'reset_mask': mask}) first")
        if self.illegal == "raise":
            for i, aid in enumerate(aids):
                if aid not in legal[i] and not waiting[i]:
                    raise IllegalAction(f"game {i}: {self._why(aid)}")

        rewards = np.zeros(n)
        terminated = np.zeros(n, dtype=bool)
        seat_rewards = np.zeros((n, self.seats))
        movers = np.full(n, -1, dtype=np.int64)
        ended: list[int] = []
        final_obs: dict[int, np.ndarray] = {}
        illegal: dict[int, str] = {}
        obs = self._obs
        to_move = self._to_move
        observe = self.enc.observe
        states = self.states
        self_play = self.self_play
        seat = self.seat
        bots_of = self._bots
        mode, scale = self.reward_mode, self.enc.margin_scale

        for i in range(n):
            if waiting[i]:  # NEXT_STEP: this row's action is ignored, a new game starts
                self._new_game(i)
                continue
            aid = aids[i]
            state = states[i]
            mover = int(to_move[i])
            movers[i] = mover
            if aid not in legal[i]:  # illegal="lose" (with "raise" it was refused above)
                illegal[i] = self._why(aid)
                rewards[i] = -1.0
                seat_rewards[i] = self._illegal_rewards(mover)
                # the game is unchanged: obs[i] is still the mover's observation
            else:
                state.apply(aid)
                if not self_play:
                    bots = bots_of[i]
                    while not state.is_over() and state.to_move != seat:
                        state.apply(bots[state.to_move].act(state))  # type: ignore[index]
                if not state.is_over():
                    q = seat if not self_play else state.to_move
                    assert q is not None
                    obs[i] = observe(state, q)
                    legal[i] = legal_ids(state)
                    to_move[i] = q
                    continue
                r = final_rewards(state, mode, scale)
                seat_rewards[i] = r
                rewards[i] = r[mover]
                obs[i] = observe(state, mover)
            # the game ended (finished or lost by an illegal action)
            terminated[i] = True
            ended.append(i)
            if same_step:
                final_obs[i] = obs[i].copy()
                self._new_game(i)
            else:
                waiting[i] = True
                legal[i] = []
                to_move[i] = -1

        self._masks = masks = self._build_masks()
        infos: dict[str, Any] = {"action_mask": masks, "to_move": to_move.copy(),
                                 "mover": movers, "rewards": seat_rewards}
        if illegal:
            infos["illegal_action"], infos["_illegal_action"] = self._sparse(illegal)
        if ended and same_step:
            infos["final_obs"], infos["_final_obs"] = self._sparse(final_obs)
            done = infos["_final_obs"]
            final_info: dict[str, Any] = {
                "action_mask": np.zeros((n, self.num_actions), dtype=np.int8),
                "_action_mask": done, "rewards": seat_rewards, "_rewards": done}
            if illegal:
                final_info["illegal_action"] = infos["illegal_action"]
                final_info["_illegal_action"] = infos["_illegal_action"]
            infos["final_info"], infos["_final_info"] = final_info, done
        return self._out_obs(), rewards, terminated, np.zeros(n, dtype=bool), infos

    def _sparse(self, values: dict[int, Any]) -> tuple[np.ndarray, np.ndarray]:
        """An object array with `values` at their rows (None elsewhere) and its row mask."""
        arr = np.full(self.num_envs, None, dtype=object)
        has = np.zeros(self.num_envs, dtype=bool)
        for i, v in values.items():
            arr[i] = v
            has[i] = True
        return arr, has

    def _build_masks(self) -> np.ndarray:
        """The (N, A) int8 masks of the games' current legal ids, in one assignment."""
        legal = self._legal
        masks = np.zeros((self.num_envs, self.num_actions), dtype=np.int8)
        cols = list(chain.from_iterable(legal))
        if cols:
            rows = np.repeat(np.arange(self.num_envs), [len(ids) for ids in legal])
            masks[rows, cols] = 1
        return masks

    def _out_obs(self) -> np.ndarray:
        """The observation batch handed out (a copy unless copy=False)."""
        return self._obs.copy() if self.copy else self._obs

    # ------------------------------------------------------------------ the rest

    def action_masks(self) -> np.ndarray:
        """The legal actions of every returned row as booleans (N, A)."""
        return self._masks.astype(bool)

    def render(self) -> tuple[str, ...] | None:
        """Every game's text view, as the seat of its row sees it (render_mode "ansi")."""
        if self.render_mode is None:
            return None
        if not self._started:
            raise RuntimeError("call reset() before render()")
        if not self.self_play:
            return tuple(text_view(self.enc, state, self.seat) for state in self.states)
        return tuple(text_view(self.enc, state, None if q < 0 else int(q))
                     for state, q in zip(self.states, self._to_move, strict=True))

    def close_extras(self, **kwargs: Any) -> None:
        """Drop the games."""
        self.states = []
        self._bots = [{} for _ in range(self.num_envs)]
        self._started = False
