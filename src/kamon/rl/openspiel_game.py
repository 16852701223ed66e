"""The kamon games as OpenSpiel games, registered under `python_kamon_<game>`.

`register()` (run when `kamon.rl` is imported) registers every game with an observation
(`python_kamon_white_castle`, `python_kamon_clansman`, ...) with `pyspiel.register_game`,
its parameters made from its option schema; `pyspiel.load_game(name, params)` then
builds one. They are sequential games with terminal rewards (the `reward` parameter:
"placement", zero-sum, or "margin", see docs/OBSERVATIONS.md), in one of two chance
modes (the `chance` parameter):

- "explicit" (the default, the honest model): no player has private information, so
  the game is declared PERFECT_INFORMATION; the deal is the root chance node (a public
  layout), and after it every card drawn from a hidden pile and every die rolled is a
  chance node of its own with its exact probabilities (`kamon.core.chance.ChanceState`:
  the state holds no deck order and no future roll). Plain MCTS (OpenSpiel's MCTSBot,
  which samples chance nodes) and expectimax-style search see the real structure. The
  information state is the history (every action and outcome) with the position now; a
  perfect-information game needs no information-state tensor, so there is none (the
  observation tensor is the whole position).
- "root": today's one-seed model, kept for reproducible batch simulation (what the
  PettingZoo, Gym and VectorEnv interfaces use). The rest of this note is about it.

In root mode chance is one explicit chance node at the root, the deal: one of DEALS
outcomes, each a kamon seed (`rng_seed * DEALS + outcome`), equally likely and seen by
no player; after it the game is deterministic (kamon rolls dice and shuffles decks
inside `apply` from the state's own seeded RNG), and declared IMPERFECT_INFORMATION
(the seeded future is in the state, unseen). So a state is fixed by its history, and OpenSpiel can
serialise and pickle games and states (a sampled-stochastic Python game cannot: it would
need the game's RNG state, which OpenSpiel does not let a Python game give). The hidden
information (the order of the shuffled decks and the future rolls) is never in an
observation; `resample_from_infostate` re-samples exactly those (kamon's `determinize`),
which is what OpenSpiel's ISMCTS needs. The observation tensor is the shared encoding of
`view(player)`, the position now. The information state has perfect recall
(`kamon.rl.recall`): the position after the deal, every decision since, and the position
after each decision that revealed something (documented in docs/OBSERVATIONS.md).
OpenSpiel's perfect-information MCTS runs too, but in root mode it searches the true
state (it sees the future rolls): use ISMCTS there, or the explicit mode.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from kamon.core.chance import ChanceState
from kamon.core.protocol import State
from kamon.core.rng import Rng
from kamon.games import get_game
from kamon.rl.encoding import (
    Encoding,
    check_reward_mode,
    encoding,
    final_rewards,
    legal_ids,
    observed_games,
)
from kamon.rl.recall import Recall, RecallLayout, layout

DEALS = 1 << 16  # the chance node's outcomes: distinct deals per rng_seed
OUTCOMES = [(i, 1.0 / DEALS) for i in range(DEALS)]
CHANCE_MODES = ("explicit", "root")  # the `chance` parameter (see the module)

def spiel_name(game: str) -> str:
    """A game's OpenSpiel name: `python_kamon_white_castle` for white-castle."""
    return "python_kamon_" + game.replace("-", "_")


def spiel_params(game: str) -> dict[str, Any]:
    """A game's OpenSpiel parameters with their defaults: the players, the reward mode,
    the options a player may set (from the game's option schema; unset: "" or -1) and
    the seed of the deals."""
    g = get_game(game)
    return {"players": g.default_players, "reward": "placement",
            **g.options.spiel_params(), "rng_seed": 0, "chance": "explicit"}


def game_options(game: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """(players, kamon options) from OpenSpiel parameters (options unused by the set-up
    left out: one for other player counts, or needing another option that is not set)."""
    players = int(params["players"])
    return players, get_game(game).options.from_spiel(players, params)


def check_chance_mode(mode: str) -> bool:
    """True for the explicit chance mode, False for root; ValueError naming the modes."""
    if mode not in CHANCE_MODES:
        raise ValueError(f"unknown chance mode {mode!r}: one of {', '.join(CHANCE_MODES)}")
    return mode == "explicit"


def game_type(game: str, zero_sum: bool = True, explicit: bool = True) -> pyspiel.GameType:
    """The OpenSpiel GameType of a kamon game (zero-sum unless told otherwise): perfect
    information with explicit chance, imperfect with the one-seed root chance node."""
    g = get_game(game)
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=spiel_name(game), long_name=f"Python kamon {g.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.PERFECT_INFORMATION if explicit else info.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if zero_sum
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.max_players, min_num_players=g.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=not explicit,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=spiel_params(game))


class _Kept:
    """Holds the kamon state inside an OpenSpiel state (None before the deal; in explicit
    mode the `ChanceState` around it too) and, once asked for, its perfect-recall record:
    `__deepcopy__` (OpenSpiel's clone) uses kamon's cheap `clone()`, and pickling
    (OpenSpiel's serialisation) stores the state as its JSON (the record is rebuilt from
    it when next asked for)."""

    __slots__ = ("state", "game_name", "cache", "recall", "chance")

    def __init__(self, game_name: str, state: State | None = None,
                 recall: Recall | None = None, chance: ChanceState | None = None) -> None:
        self.game_name = game_name
        self.state = state if chance is None else chance.state
        self.cache: dict[Any, Any] = {}
        self.recall = recall
        self.chance = chance

    def __deepcopy__(self, memo: dict[int, Any]) -> _Kept:
        if self.chance is not None:
            return _Kept(self.game_name, chance=self.chance.clone())
        return _Kept(self.game_name, None if self.state is None else self.state.clone(),
                     None if self.recall is None else self.recall.copy())

    def __getstate__(self) -> dict[str, Any]:
        recall = self.recall
        if self.chance is not None:
            return {"game": self.game_name, "chance": self.chance.to_json()}
        return {"game": self.game_name,
                "state": None if self.state is None else self.state.to_json(),
                # a record the seed cannot rebuild (a re-sampled world's) travels whole
                "recall": None if recall is None or recall.replayable else recall}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.game_name = data["game"]
        self.cache = {}
        self.chance = None
        self.recall = None
        if "chance" in data:
            self.chance = ChanceState.from_json(get_game(data["game"]), data["chance"])
            self.state = self.chance.state
            return
        self.state = None if data["state"] is None else \
            get_game(data["game"]).from_json(data["state"])
        self.recall = data.get("recall")


class KamonSpielGame(pyspiel.Game):
    """One kamon game with its parameters, as a pyspiel.Game."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """Build from OpenSpiel parameters (defaults filled in by OpenSpiel)."""
        spec = spiel_params(self.game_name)
        self.params = {**spec, **(params or {})}
        unknown = set(self.params) - set(spec)
        if unknown:
            raise ValueError(f"unknown parameter(s) {sorted(unknown)}; known: {sorted(spec)}")
        self.enc: Encoding = encoding(self.game_name)
        self.reward_mode = check_reward_mode(str(self.params["reward"]))
        self.explicit = check_chance_mode(str(self.params["chance"]))
        self.players, self.options = game_options(self.game_name, self.params)
        probe = self.enc.game.new_game(self.players, seed=0, **self.options)
        seats = probe.num_players
        zero_sum = self.reward_mode == "placement" and seats == len(probe.scores())
        info = pyspiel.GameInfo(
            num_distinct_actions=self.enc.num_actions, max_chance_outcomes=DEALS,
            num_players=seats, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            # the deal, then at most the decisions the information state holds (its
            # game's recall_limits: a longer game is refused with that error)
            max_game_length=1 + self.enc.spec.recall_limits[0])
        super().__init__(game_type(self.game_name, zero_sum, self.explicit), info,
                         self.params)

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        """Pickled as its name and parameters (loaded again, registering the games)."""
        return load_game, (spiel_name(self.game_name), dict(self.params))

    def deal_seed(self, outcome: int) -> int:
        """The kamon seed of a deal (the chance node's outcome)."""
        return (int(self.params["rng_seed"]) * DEALS + int(outcome)) % (1 << 63)

    def new_initial_state(self) -> KamonSpielState:
        """A new game, at its chance node (the deal)."""
        return KamonSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> KamonObserver:
        """The observer of the shared encoding (perfect recall adds the action history)."""
        return KamonObserver(self.enc, iig_obs_type, params, self.explicit)


class KamonSpielState(pyspiel.State):
    """An OpenSpiel state wrapping a kamon state: the deal (a chance node), then play."""

    def __init__(self, game: KamonSpielGame) -> None:
        """A new game of `game`, before the deal."""
        super().__init__(game)
        self._kept = _Kept(game.game_name)
        # plain data only: clones deep-copy __dict__
        self._reward_mode = game.reward_mode
        self._setup = (game.players, game.options, game.deal_seed(0))
        self._explicit = game.explicit

    @property
    def _enc(self) -> Encoding:
        """The game's shared encoding."""
        return encoding(self._kept.game_name)

    @property
    def kamon_state(self) -> State:
        """The wrapped kamon state (ValueError before the deal; in explicit mode, while a
        move's chance nodes are being resolved, the position before that move)."""
        if self._kept.state is None:
            raise ValueError("the game is at its chance node: deal first (apply an outcome "
                             "of chance_outcomes())")
        return self._kept.state

    def current_player(self) -> int:
        """CHANCE before the deal and (explicit mode) while a move's randomness is
        resolved, then the seat to move, or TERMINAL."""
        kept = self._kept
        if kept.state is None or (kept.chance is not None and kept.chance.is_chance()):
            return pyspiel.PlayerId.CHANCE
        seat = kept.state.to_move
        return pyspiel.PlayerId.TERMINAL if seat is None else int(seat)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals, equally likely; in explicit mode then each card drawn and die rolled
        (kamon.core.chance: a card's outcome is its index among its pile's cards)."""
        kept = self._kept
        if kept.state is None:
            return OUTCOMES
        return [] if kept.chance is None else kept.chance.chance_outcomes()

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action ids, ascending."""
        return sorted(legal_ids(self.kamon_state))

    def _apply_action(self, action: int) -> None:
        """Deal (at the chance node) or apply an action id (OpenSpiel checked it)."""
        kept = self._kept
        if kept.state is None:
            players, options, first_seed = self._setup
            kept.state = self._enc.game.new_game(
                players, (first_seed + int(action)) % (1 << 63), **options)
            if self._explicit:  # the deal is public; what it left hidden is forgotten
                kept.chance = ChanceState(kept.state)
                kept.state = kept.chance.state
        elif kept.chance is not None:
            kept.chance.apply(int(action))
            kept.state = kept.chance.state
        else:
            kept.state.apply(int(action))
        kept.cache.clear()

    def _action_to_string(self, player: int, action: int) -> str:
        """The action's kamon notation (a deal: its number; an explicit chance outcome:
        the card or the roll)."""
        if player == pyspiel.PlayerId.CHANCE:
            chance = self._kept.chance
            if chance is not None and chance.is_chance():
                return chance.node_text(int(action))
            return f"deal {int(action)}"
        return get_game(self._kept.game_name).action_text(int(action))

    def is_terminal(self) -> bool:
        """True once the game is over."""
        kept = self._kept
        return (kept.state is not None and kept.state.is_over()
                and (kept.chance is None or not kept.chance.is_chance()))

    def returns(self) -> list[float]:
        """Every seat's reward at the end (0 before)."""
        state = self._kept.state
        if state is None or not state.is_over():
            return [0.0] * self.num_players()
        return final_rewards(state, self._reward_mode, self._enc.margin_scale)

    # Python callers get the observations straight from here: OpenSpiel's C++ path would
    # first build a whole new game to learn the tensor's shape, on every call.
    def _player(self, player: int | None) -> int:
        """The player asked about (default: the one to move); ValueError if not a seat."""
        p = self.current_player() if player is None else int(player)
        if not 0 <= p < self.num_players():
            raise ValueError(f"no observation for player {p}: players are 0-"
                             f"{self.num_players() - 1} (and the game may be over)")
        return p

    # The tensors come as float32 NumPy arrays (copies), not lists: OpenSpiel's Python
    # algorithms take either, and a list of 1,229 floats costs 11 us to build (the
    # observation's whole cost after encode_state), the 56,100 of an information state 0.5 ms.
    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """The player's observation tensor (the shared encoding of its view), float32."""
        return observation_vector(self, self._player(player)).copy()

    def information_state_tensor(self, player: int | None = None) -> np.ndarray:
        """The player's perfect-recall information-state tensor (kamon.rl.recall), float32;
        root mode only (explicit chance is perfect information: the observation tensor
        is the whole position)."""
        if self._explicit:
            raise ValueError("explicit chance is perfect information: no information-state "
                             "tensor (the observation tensor is the whole position); load "
                             "the game with chance='root' for the perfect-recall tensor")
        return information_vector(self, self._player(player)).copy()

    def observation_string(self, player: int | None = None) -> str:
        """The player's observation as text."""
        return observation_text(self, self._player(player), False)

    def information_state_string(self, player: int | None = None) -> str:
        """The player's information state as text: the observation now, then the record
        since the deal (kamon.rl.recall; explicit mode: the history, outcomes included)."""
        return observation_text(self, self._player(player), True)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KamonSpielState:
        """A state the player cannot tell from this one: hidden deck orders and future rolls
        re-sampled (kamon's determinize), seeded from the sampler."""
        clone: KamonSpielState = self.clone()
        if self._kept.state is None or self._explicit:
            return clone  # nothing is known yet / nothing is hidden: nothing to re-sample
        seed = int(probability_sampler() * 2**53)
        world = self.kamon_state.determinize(player_id, Rng(seed))
        clone._kept = _Kept(self._kept.game_name, state=world,
                            recall=recall_of(self).rebased(world))
        return clone

    def __str__(self) -> str:
        """The whole state (hidden parts included) as JSON, without the event log."""
        if self._kept.state is None:
            return "before the deal"
        data = self._kept.state.to_json()
        data.pop("events", None)
        chance = self._kept.chance
        if chance is not None and chance.is_chance():  # a move's randomness half resolved
            data["pending"] = {"action": chance.action, "outcomes": chance.script}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))


def observation_vector(state: KamonSpielState, player: int) -> np.ndarray:
    """The player's encoded view of the state, cached per position (the state's cache is
    cleared by every move)."""
    key = ("vec", player)
    vec = state._kept.cache.get(key)
    if vec is None and state._kept.state is None:  # the deal: nothing seen yet
        vec = np.zeros(state._enc.size, np.float32)
    if vec is None:
        vec = state._enc.observe(state.kamon_state, player)
        state._kept.cache[key] = vec
    return vec


def recall_of(state: KamonSpielState) -> Recall:
    """The state's perfect-recall record, brought up to date (built by replay from the
    deal the first time it is asked for)."""
    kept = state._kept
    kstate = state.kamon_state
    if kept.recall is None:
        players, options, _ = state._setup
        seed = int(kstate.seed)
        kept.recall = Recall(kept.game_name, players, options, seed)
    kept.recall.catch_up(kstate.history)
    return kept.recall


def information_vector(state: KamonSpielState, player: int) -> np.ndarray:
    """The player's information-state tensor, cached per position."""
    key = ("info", player)
    vec = state._kept.cache.get(key)
    if vec is None:
        lay = layout(state._enc)
        if state._kept.state is None:  # the deal: nothing seen yet
            vec = np.zeros(lay.size, np.float32)
        else:
            vec = recall_of(state).tensor(state._enc, player,
                                          observation_vector(state, player))
        state._kept.cache[key] = vec
    return vec


def observation_text(state: KamonSpielState, player: int, perfect_recall: bool) -> str:
    """The observation as text: the decision now and every non-zero field of the encoding;
    with perfect recall (the information state) also the record since the deal."""
    key = ("str", player, perfect_recall)
    text = state._kept.cache.get(key)
    if text is None and state._kept.state is None:
        text = f"p{player} before the deal"
    if text is None:
        kstate = state.kamon_state
        text = f"p{player} {kstate.decision_text()}\n" + state._enc.describe(
            observation_vector(state, player))
        if perfect_recall and state._explicit:
            text += "\nhistory: " + " ".join(map(str, state.history()))
        elif perfect_recall:
            text += "\n" + recall_of(state).text(state._enc, player)
        state._kept.cache[key] = text
    return str(text)


class KamonObserver:
    """OpenSpiel's observer protocol over the shared encoding of `view(player)` (what C++
    algorithms such as random_sim_test read)."""

    def __init__(self, enc: Encoding, iig_obs_type: Any, params: dict[str, Any] | None,
                 explicit: bool = False) -> None:
        """Observation (or, with perfect recall, information state) of one player (explicit
        chance: the information state is a string only)."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        # Everything a kamon seat sees is public (hands too); no public info = nothing.
        self.public = bool(getattr(iig_obs_type, "public_info", True))
        self.dict: dict[str, np.ndarray] = {}
        if not self.public or (explicit and self.perfect_recall):
            self.tensor = np.zeros(0, np.float32)
        elif self.perfect_recall:
            lay: RecallLayout = layout(enc)
            self.tensor = np.zeros(lay.size, np.float32)
            self.dict = {
                "observation": self.tensor[:lay.obs],
                "actions": self.tensor[lay.actions_start:lay.reveals_start].reshape(
                    lay.max_decisions, lay.action_row),
                "reveals": self.tensor[lay.reveals_start:].reshape(
                    lay.max_reveals + 1, lay.reveal_row)}
        else:
            self.tensor = np.zeros(enc.size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: KamonSpielState, player: int) -> None:
        """Fill `tensor` with the player's observation (or information state) of `state`."""
        if self.tensor.size:
            self.tensor[:] = (information_vector(state, player) if self.perfect_recall
                              else observation_vector(state, player))

    def string_from(self, state: KamonSpielState, player: int) -> str:
        """The player's observation (or information state) of `state` as text."""
        return observation_text(state, player, self.perfect_recall) if self.public else ""


def spiel_game_class(game: str) -> type[KamonSpielGame]:
    """The pyspiel.Game class of a kamon game (made once per game)."""
    cls = _CLASSES.get(game)
    if cls is None:
        title = get_game(game).title
        cls = _CLASSES[game] = type(
            "".join(w.title() for w in game.split("-")) + "SpielGame", (KamonSpielGame,),
            {"game_name": game, "__doc__": f"{title} as a pyspiel.Game "
                                           f"(`{spiel_name(game)}`)."})
    return cls


_CLASSES: dict[str, type[KamonSpielGame]] = {}
_registered = False


def load_game(name: str, params: dict[str, Any]) -> pyspiel.Game:
    """pyspiel.load_game, with kamon's games registered first (how a pickled game is
    loaded again, in any process)."""
    register()
    return pyspiel.load_game(name, params)


def register() -> None:
    """Register every game with an observation with OpenSpiel (once per process)."""
    global _registered
    if _registered:
        return
    for game in observed_games():
        pyspiel.register_game(game_type(game), spiel_game_class(game))
    _registered = True
