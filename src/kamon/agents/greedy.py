"""The greedy agent: a short lookahead over its own next decisions, judged by the game's evaluation.

A turn is several atomic decisions (The White Castle: take a die, place it, order
its effects, choose blocks and resources...; I, Clansman: use cards, then obtain one).
Greedy looks `depth` of its own consecutive decisions ahead and scores each end point
with the game's `evaluate(state, seat)` (its `fresh_evaluation()`, memories for one
decision); the lookahead stops early where another seat decides, the turn ends (for a
game with a `turn` hook) or the game ends. The depth defaults to the game's
`greedy_depth` (The White Castle: 2, a die together with where it goes, its evaluation
valuing the decisions still pending on the stack; I, Clansman: a whole Production turn,
with transpositions merged by the game's `plan_key`). At most `max_nodes` positions are expanded per
decision; beyond that the positions reached are judged as they stand.

It never reads hidden information: each decision starts from one determinization
of the state drawn from the seat's view (`kamon.agents.base.GameHooks.determinize`),
and everything is searched on that sample. Ties between equally valued actions are
broken by the agent's own seeded RNG, so the same seed gives the same game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kamon.agents.base import GameHooks, hooks_for, require_seat
from kamon.core.protocol import Action, State
from kamon.core.rng import Rng

TIE = 1e-9
MAX_NODES = 5000


class GreedyAgent:
    """Best action after a lookahead of its own moves, by the game's evaluation."""

    name = "greedy"

    def __init__(self, seed: int = 0, depth: int | None = None, epsilon: float = 0.0,
                 max_nodes: int = MAX_NODES) -> None:
        """Seeded RNG; lookahead depth (None: the game's); epsilon = chance of a random move."""
        if depth is not None and depth < 1:
            raise ValueError("greedy depth must be at least 1")
        self.seed = seed
        self.depth = depth
        self.epsilon = epsilon
        self.max_nodes = max_nodes
        self.rng = Rng(seed)

    def act(self, state: State) -> Action:
        """The action with the best looked-ahead evaluation (a determinized view only)."""
        seat = require_seat(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        hooks = hooks_for(state)
        sample = hooks.determinize(state, seat, self.rng.spawn())
        depth = self.depth if self.depth is not None else hooks.greedy_depth
        assert hooks.fresh_evaluation is not None
        evaluate = hooks.fresh_evaluation()[1]
        aid = choose(sample, seat, hooks, depth, self.rng, self.epsilon, self.max_nodes,
                     evaluate)
        return next(a for a in legal if a.id == aid)

    def __repr__(self) -> str:
        """The agent, its depth and its seed, for logs."""
        return f"GreedyAgent(seed={self.seed}, depth={self.depth})"


def choose(state: State, seat: int, hooks: GameHooks, depth: int, rng: Rng,
           epsilon: float = 0.0, max_nodes: int = MAX_NODES,
           evaluate: Callable[[Any, int], float] | None = None) -> int:
    """The candidate id with the best lookahead value on a full (determinized) state
    (judged by `evaluate`, the game's by default)."""
    cands = hooks.candidates(state)
    if len(cands) == 1:
        return cands[0]
    if epsilon and rng.random() < epsilon:
        return rng.choice(cands)
    search = _Lookahead(seat, hooks, max_nodes, evaluate, state)
    best: list[int] = []
    best_v = float("-inf")
    for aid in cands:
        child = state.clone()
        child.apply(aid)
        v = search.value(child, depth - 1)
        if v > best_v + TIE:
            best, best_v = [aid], v
        elif v >= best_v - TIE:
            best.append(aid)
    return best[0] if len(best) == 1 else rng.choice(best)


class _Lookahead:
    """Depth-limited search of one seat's own consecutive decisions (transpositions merged)."""

    def __init__(self, seat: int, hooks: GameHooks, max_nodes: int,
                 evaluate: Callable[[Any, int], float] | None = None,
                 start: State | None = None) -> None:
        """Search for `seat` with the game's hooks (and `evaluate`, the game's by default),
        expanding at most max_nodes positions, within the turn of `start` (when the game
        says what a turn is)."""
        self.seat = seat
        self.hooks = hooks
        self.evaluate = evaluate or hooks.evaluate
        self.turn = hooks.turn(start) if hooks.turn is not None and start is not None \
            else None
        self.budget = max_nodes
        self.memo: dict[Any, float] = {}

    def value(self, state: State, depth: int) -> float:
        """The best evaluation reachable in `depth` more of the seat's own decisions."""
        hooks = self.hooks
        if depth <= 0 or state.to_move != self.seat or self.budget <= 0 or (
                self.turn is not None and hooks.turn is not None
                and hooks.turn(state) != self.turn):
            return self.evaluate(state, self.seat)
        key = None
        if hooks.plan_key is not None:
            key = (hooks.plan_key(state), depth)
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        self.budget -= 1
        best = float("-inf")
        for aid in hooks.candidates(state):
            child = state.clone()
            child.apply(aid)
            best = max(best, self.value(child, depth - 1))
        if key is not None:
            self.memo[key] = best
        return best


def lookahead(state: State, seat: int, hooks: GameHooks, depth: int,
              max_nodes: int = MAX_NODES,
              evaluate: Callable[[Any, int], float] | None = None,
              start: State | None = None) -> float:
    """The best evaluation reachable in `depth` more of the seat's own consecutive decisions
    (within the turn of `start`, the position the lookahead began from)."""
    return _Lookahead(seat, hooks, max_nodes, evaluate, start).value(state, depth)
