"""The bots that use the trained network: the fast policy level and the guided search.

- `PolicyAgent` (level `fast`): the network alone. It encodes the seat's observation
  (only what the seat may see) and plays the candidate move with the highest policy
  score: one observation and one forward pass a decision (well under 5 ms; see
  bench/bench_train.py).
- `guided_search(seed, ...)`: the levels' ISMCTS with the network as its guide (PUCT
  priors from the policy, leaf values from the value head, each mixed with the hand
  evaluation as measured best; see docs/bots.md).

The network is the game's shipped one (`kamon.learn.net.shipped_net`), found from the
state's game on the first decision, unless one is given.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kamon.agents.base import hooks_for, require_seat
from kamon.agents.mcts import MCTSAgent
from kamon.core.protocol import Action, State
from kamon.learn.net import Net, NetGuide, game_of, shipped_net


class ShippedGuide(NetGuide):
    """A guide that loads the shipped network of the game it is first shown."""

    def __init__(self) -> None:
        """No network until the first position."""
        self._nets: dict[str, Net] = {}

    def evaluate(self, state: Any) -> tuple[np.ndarray, list[float]]:
        """The shipped network's move scores and values for the seat to move."""
        game = game_of(state)
        net = self._nets.get(game)
        if net is None:
            net = self._nets[game] = shipped_net(game)
        seat = state.to_move
        return net.seat_eval(state, 0 if seat is None else seat)


class PolicyAgent:
    """The network alone: the candidate move with the highest policy score."""

    name = "fast"

    def __init__(self, seed: int = 0, net: Net | None = None) -> None:
        """`net`: a network (default: the game's shipped one, loaded on first use)."""
        self.seed = seed
        self.net = net

    def act(self, state: State) -> Action:
        """The best-scored candidate from the seat's own observation."""
        seat = require_seat(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        net = self.net if self.net is not None else shipped_net(game_of(state))
        cands = hooks_for(state).candidates(state)
        logits, _ = net.forward(net.encoding.observe(state, seat))
        best = max(cands, key=lambda a: (float(logits[a]), -a))
        return next(a for a in legal if a.id == best)


def guided_search(seed: int, iterations: int, net: Net | None = None,
                  guide_values: float = 0.5, guide_priors: float = 0.5,
                  stop_early: bool = True) -> MCTSAgent:
    """The levels' ISMCTS guided by the network (`iterations` reference iterations,
    scaled by the game's iteration cost)."""
    guide = NetGuide(net) if net is not None else ShippedGuide()
    return MCTSAgent(seed, iterations=iterations, scale_budget=True, stop_early=stop_early,
                     guide=guide, guide_values=guide_values, guide_priors=guide_priors)
