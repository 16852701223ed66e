"""The bots that use the trained network: the fast policy level and the guided search.

- `PolicyAgent` (level `fast`): the network alone, one move ahead: the seat's
  observation of the position after each candidate move (only what the seat may see
  there) goes through the network in one batch, and the move whose value (the seat's
  estimated final points minus the best other clan's) plus the policy's log-probability
  is highest is played (well under 5 ms a decision; see bench/bench_train.py); or, with
  `lookahead=False`, the policy's favourite alone.
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
from kamon.learn.features import absolute_values, clan_count
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

    def values(self, state: Any) -> list[float]:
        """The shipped network's values for every clan, from the mover's observation."""
        game = game_of(state)
        net = self._nets.get(game)
        if net is None:
            net = self._nets[game] = shipped_net(game)
        seat = state.to_move
        return net.seat_values(state, 0 if seat is None else seat)


class PolicyAgent:
    """The network alone: the candidate move with the highest policy score or, with
    `lookahead`, the highest value for the seat one move on (its estimated final points
    minus the best other clan's, the positions after every candidate evaluated in one
    batch), the policy's log-probability weighing `policy_weight` points."""

    name = "fast"

    def __init__(self, seed: int = 0, net: Net | None = None, lookahead: bool = True,
                 policy_weight: float = 1.0) -> None:
        """`net`: a network (default: the game's shipped one, loaded on first use)."""
        self.seed = seed
        self.net = net
        self.lookahead = lookahead
        self.policy_weight = policy_weight

    def act(self, state: State) -> Action:
        """The best candidate from the seat's own observation (and, looking ahead, the
        seat's observations of the positions after each candidate)."""
        seat = require_seat(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        net = self.net if self.net is not None else shipped_net(game_of(state))
        cands = hooks_for(state).candidates(state)
        logits, _ = net.forward(net.encoding.observe(state, seat))
        if not self.lookahead or len(cands) < 2:
            best = max(cands, key=lambda a: (float(logits[a]), -a))
            return next(a for a in legal if a.id == best)
        sub = logits[cands]
        logp = sub - sub.max()
        logp = logp - np.log(np.exp(logp).sum())
        obs = []
        ends: dict[int, float] = {}
        for a in cands:
            child = state.clone()
            child.apply(a)
            if child.is_over():
                totals = [float(sc["total"]) for sc in child.scores()]
                ends[a] = _lead(totals, seat)
            obs.append(net.encoding.observe(child, seat))
        _, slots = net.forward(np.stack(obs))
        n = clan_count(state)
        scores = {}
        for i, a in enumerate(cands):
            lead = ends.get(a)
            if lead is None:
                lead = _lead(absolute_values(slots[i], seat, n, net.scale), seat)
            scores[a] = lead + self.policy_weight * float(logp[i])
        best = max(cands, key=lambda a: (scores[a], -a))
        return next(a for a in legal if a.id == best)


def _lead(vals: list[float], seat: int) -> float:
    """The seat's points minus the best other clan's (its own alone)."""
    others = [v for q, v in enumerate(vals) if q != seat]
    return vals[seat] - max(others, default=0.0)


def guided_search(seed: int, iterations: int, net: Net | None = None,
                  guide_values: float = 0.5, guide_priors: float = 0.5,
                  stop_early: bool = True) -> MCTSAgent:
    """The levels' ISMCTS guided by the network (`iterations` reference iterations,
    scaled by the game's iteration cost)."""
    guide = NetGuide(net) if net is not None else ShippedGuide()
    return MCTSAgent(seed, iterations=iterations, scale_budget=True, stop_early=stop_early,
                     guide=guide, guide_values=guide_values, guide_priors=guide_priors)
