"""ISMCTS on a game it knows nothing about: a tiny Nim through the core protocol only."""

from __future__ import annotations

import random
from typing import Any

from kamon.agents import GreedyAgent, MCTSAgent
from kamon.agents.base import hooks_for
from kamon.agents.mcts import margin_rewards, terminal_rewards
from kamon.core.game import GameBase
from kamon.core.options import OptionSchema
from kamon.core.protocol import Action, State
from kamon.core.rng import Rng

TAKE = (Action(0, "take 1"), Action(1, "take 2"), Action(2, "take 3"))


class NimGame(GameBase):
    """Nim's entry point: a game with no slot filled (no evaluation, nothing declared
    hidden), never registered."""

    name = "nim"
    title = "Nim"
    min_players = 2
    max_players = 3
    num_actions = 3
    options = OptionSchema("Nim", 2, 3, [])


NIM = NimGame()


class Nim:
    """One pile; take 1-3 stones in turn; whoever takes the last stone wins.

    `bag` is a hidden, irrelevant list (its order must never sway a bot).
    """

    def __init__(self, pile: int, players: int = 2, bag: list[int] | None = None) -> None:
        """A pile of `pile` stones, seat 0 to move."""
        self.pile = pile
        self.seed = 0  # the protocol's: a toy with nothing dealt
        self.n = players
        self.turn = 0
        self.last: int | None = None
        self.bag = bag if bag is not None else list(range(6))
        self.history: list[int] = []
        self.events: list[str] = []
        self.options: dict[str, Any] = {}

    @property
    def to_move(self) -> int | None:
        """The seat to move (None at the end)."""
        return None if self.pile == 0 else self.turn

    @property
    def game(self) -> NimGame:
        """Nim's entry point."""
        return NIM

    @property
    def num_players(self) -> int:
        """Seats."""
        return self.n

    def legal_actions(self) -> list[Action]:
        """Take 1, 2 or 3 stones (never more than are left)."""
        return list(TAKE[:min(3, self.pile)])

    def apply(self, action: Action | int) -> None:
        """Take stones; the next seat moves."""
        aid = action if isinstance(action, int) else action.id
        self.pile -= aid + 1
        self.last = self.turn
        self.turn = (self.turn + 1) % self.n
        self.history.append(aid)

    def clone(self) -> Nim:
        """A copy."""
        c = Nim(self.pile, self.n, self.bag[:])
        c.turn, c.last, c.history = self.turn, self.last, self.history[:]
        return c

    def is_over(self) -> bool:
        """No stones left."""
        return self.pile == 0

    def scores(self) -> list[dict[str, int]]:
        """1 point to whoever took the last stone."""
        return [{"total": int(self.is_over() and q == self.last)} for q in range(self.n)]

    def winners(self) -> list[int]:
        """The taker of the last stone."""
        return [self.last] if self.is_over() and self.last is not None else []

    def view(self, seat: int | None) -> dict[str, Any]:
        """The pile and whose turn (not the bag)."""
        return {"pile": self.pile, "turn": self.turn}

    def determinize(self, seat: int | None, rng: Rng | random.Random) -> Nim:
        """A copy with the bag re-sampled (sorted first: the sample ignores the real order)."""
        c = self.clone()
        c.bag.sort()
        rng.shuffle(c.bag)
        return c

    def to_json(self) -> dict[str, Any]:
        """Everything."""
        return {"pile": self.pile, "turn": self.turn, "bag": self.bag}

    def name(self, seat: int) -> str:
        """Seat name."""
        return f"seat{seat}"

    def decision_text(self) -> str:
        """What is decided."""
        return "take stones"

    def describe(self, action_id: int) -> str:
        """What a move does."""
        return TAKE[action_id].text


def test_the_toy_game_speaks_the_protocol_and_has_no_evaluation_hooks() -> None:
    """Nim is a State; its hooks are the generic fallbacks (score totals, all legal moves)."""
    state = Nim(5)
    assert isinstance(state, State)
    hooks = hooks_for(state)
    assert not hooks.has_evaluation
    assert hooks.candidates(state) == [0, 1, 2]
    assert hooks.values(state) == [0.0, 0.0]


def test_mcts_finds_the_winning_nim_move() -> None:
    """From 5, 6 or 7 stones the only winning move leaves a multiple of 4."""
    for pile in (5, 6, 7):
        agent = MCTSAgent(1, iterations=400, rollout="random", rollout_depth=None, c=1.0)
        assert agent.act(Nim(pile)).id == pile % 4 - 1


def test_mcts_on_a_generic_game_is_blind_to_the_hidden_bag() -> None:
    """Only the hidden bag's order differs: the same choice and the same search."""
    a = MCTSAgent(5, iterations=60, rollout="random", rollout_depth=None).act(
        Nim(9, bag=[5, 4, 3, 2, 1, 0]))
    b = MCTSAgent(5, iterations=60, rollout="random", rollout_depth=None).act(
        Nim(9, bag=[0, 1, 2, 3, 4, 5]))
    assert a == b


def test_greedy_on_a_generic_game_takes_the_last_stones() -> None:
    """With the score total as evaluation, greedy takes the last stones when it can."""
    assert GreedyAgent(0, depth=1).act(Nim(3)).id == 2


def test_mcts_plays_three_player_nim_to_the_end() -> None:
    """Three seats, each choosing for itself: a game completes with one winner."""
    state = Nim(11, players=3)
    bots = [MCTSAgent(s, iterations=40, rollout="random", rollout_depth=None)
            for s in range(3)]
    while not state.is_over():
        p = state.to_move
        assert p is not None
        state.apply(bots[p].act(state))
    assert len(state.winners()) == 1


def test_rewards_are_in_the_unit_interval_and_favour_the_leader() -> None:
    """Margin rewards rise with the lead; terminal rewards give the winner the most."""
    r = margin_rewards([10.0, 20.0, 15.0], temperature=5.0)
    assert all(0.0 <= x <= 1.0 for x in r)
    assert r[1] > 0.5 > r[2] > r[0]
    state = Nim(1)
    state.apply(0)
    t = terminal_rewards(state, 5.0)
    assert t[0] > 0.5 > t[1] and all(0.0 <= x <= 1.0 for x in t)
