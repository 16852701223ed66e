"""The bots that use the trained network: the fast level and the guided search.

- `FastAgent` (level `fast`): greedy's lookahead over the seat's own decisions, made a
  little stronger at a few milliseconds a decision, per game as measured best
  (FAST_SETTINGS; docs/bots.md): in I, Clansman each position the lookahead reaches is
  judged by the hand evaluation plus half the network's value of the seat's lead (its
  estimated final points minus the best other clan's, from the seat's observation of
  that position); in The White Castle the network's value made greedy worse, so the
  level instead looks one decision deeper for the three candidates greedy likes best.
- `PolicyAgent`: the network alone, one move ahead (the value of the position after
  each candidate plus the policy's log-probability; or, with `lookahead=False`, the
  policy's favourite): the training run's strength check. It loses to greedy (0–6%
  against three `normal`, docs/bots.md), so it is no longer a level.
- `guided_search(seed, ...)`: the levels' ISMCTS with the network as its guide (PUCT
  priors from the policy, leaf values from the value head, each mixed with the hand
  evaluation as measured best; see docs/bots.md).

The network is the game's shipped one (`kamon.learn.net.shipped_net`), found from the
state's game on the first decision, unless one is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from kamon.agents.base import hooks_for, require_seat
from kamon.agents.greedy import TIE, GreedyAgent, choose, lookahead
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


@dataclass(frozen=True)
class FastSettings:
    """How the fast level plays one game: the network's weight in the evaluation of the
    positions greedy's lookahead reaches (0: the hand evaluation alone, no network), and
    how many of greedy's favourite first moves (`beam`) are looked at `deeper` more of the
    seat's own decisions before one is chosen (0: none)."""

    net_weight: float = 0.0
    beam: int = 0
    deeper: int = 0


# Tuned against three `normal` players on deals 80000-82023 (never the evaluation's
# 97000+), 24-96 games a setting, hero's seat rotated (docs/bots.md "The fast level"):
# - I, Clansman (Beginner / Expert), network weight 0 (greedy itself): 25% / 25%;
#   0.5: 39% / 33% of 72 games (Expert, 96 more: 0.25 30%, 0.5 36%, 0.75 34%); 1.0:
#   31% / 29%. On deals 81000+ (48 games): weight 0.5 alone 38% / 33%; with greedy's 2
#   favourite first moves a decision deeper 49% / 43% (the best 3: 48% / 49%), and on the
#   evaluation's deals (97000+, 48 games) 48% / 50% against weight 0.5 alone's 48% /
#   40%, but at 1.5 times its CPU time (5.6 ms a decision against 3.7, `normal` 1.8
#   ms there): over the level's 5 ms, so not used; deeper only where the two are
#   within a point: 31% / 41%; deeper without the network 17% / 32%.
# - The White Castle 4p, network weight 0.5 at greedy's depth: 12% of 24 (worse than
#   greedy's 25%); greedy's lookahead one decision deeper for all moves: 50% of 24 at
#   7 ms a decision, for the best 3 only: 48% of 48 at 2.8 ms (with the network's value
#   at 0.2 as well: 46%, at 6.8 ms, so none). Solo vs the Hard rival: 22% of 32 where
#   `normal` won 6% of the same deals.
FAST_SETTINGS: dict[str, FastSettings] = {
    "clansman": FastSettings(net_weight=0.5),
    "white-castle": FastSettings(beam=3, deeper=1),
}


class FastAgent(GreedyAgent):
    """Level fast: greedy's lookahead with the game's FAST_SETTINGS (the network's value
    mixed into the evaluation, and/or a deeper look at greedy's favourite moves), a few
    milliseconds a decision. Like greedy, it searches one determinization drawn from the
    seat's view, and the network reads only the seat's observation of each position."""

    name = "fast"

    def __init__(self, seed: int = 0, net: Net | None = None,
                 settings: FastSettings | None = None) -> None:
        """`net`: a network (default: the game's shipped one, loaded when first needed);
        `settings`: how to play (default: the game's FAST_SETTINGS)."""
        super().__init__(seed)
        self.net = net
        self.settings = settings

    def act(self, state: State) -> Action:
        """The candidate with the best (deepened) lookahead value on a determinization
        of the seat's view."""
        seat = require_seat(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        game = game_of(state)
        settings = self.settings or FAST_SETTINGS[game]
        hooks = hooks_for(state)
        sample = hooks.determinize(state, seat, self.rng.spawn())
        assert hooks.fresh_evaluation is not None
        evaluate = hooks.fresh_evaluation()[1]
        if settings.net_weight:
            net = self.net if self.net is not None else shipped_net(game)
            evaluate = _with_net(evaluate, net, settings.net_weight, clan_count(state))
        depth = hooks.greedy_depth
        if not (settings.beam and settings.deeper):  # greedy's own choice, re-judged
            aid = choose(sample, seat, hooks, depth, self.rng, 0.0, self.max_nodes, evaluate)
            return next(a for a in legal if a.id == aid)
        cands = hooks.candidates(sample)
        children: dict[int, State] = {}
        values: dict[int, float] = {}
        for aid in cands:
            child = sample.clone()
            child.apply(aid)
            children[aid] = child
            values[aid] = lookahead(child, seat, hooks, depth - 1, self.max_nodes, evaluate,
                                    sample)
        top = sorted(cands, key=lambda a: -values[a])[:settings.beam]
        if len(top) > 1:
            for aid in top:
                values[aid] = lookahead(children[aid], seat, hooks,
                                        depth - 1 + settings.deeper, self.max_nodes, evaluate,
                                        sample)
        best_v = max(values[a] for a in top)
        best = [a for a in top if values[a] >= best_v - TIE]
        aid = best[0] if len(best) == 1 else self.rng.choice(best)
        return next(a for a in legal if a.id == aid)

    def __repr__(self) -> str:
        """The agent and its seed, for logs."""
        return f"FastAgent(seed={self.seed}, settings={self.settings})"


def _with_net(evaluate: Callable[[Any, int], float], net: Net, weight: float, clans: int
              ) -> Callable[[Any, int], float]:
    """`evaluate` plus `weight` times the seat's lead (its points minus the best other
    clan's) as the network estimates it from the seat's observation (the real lead at
    the end of the game)."""
    def mixed(state: Any, seat: int) -> float:
        """The hand evaluation plus the weighted estimated lead."""
        if state.is_over():
            vals = [float(sc["total"]) for sc in state.scores()]
        else:
            slots = net.value_one(net.encoding.observe(state, seat))
            vals = absolute_values(slots, seat, clans, net.scale)
        return evaluate(state, seat) + weight * _lead(vals, seat)

    return mixed


class PolicyAgent:
    """The network alone: the candidate move with the highest policy score or, with
    `lookahead`, the highest value for the seat one move on (its estimated final points
    minus the best other clan's, the positions after every candidate evaluated in one
    batch), the policy's log-probability weighing `policy_weight` points."""

    name = "policy"

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
