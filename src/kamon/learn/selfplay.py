"""Self-play games whose moves come from the search: the training data of expert iteration.

Every seat is the same search (`MCTSAgent`, the levels' PUCT search, at `iterations`
reference iterations scaled by the game's iteration cost and stopping once decided),
guided by the previous round's network when there is one. At each decision with more
than one candidate the game records the seat's observation, the candidates (the
policy's mask), the root's visit counts as a distribution (the policy target) and,
once the game ends, every clan's final points from that seat's slots (the value
target). The first `explore` decisions of a game are drawn in proportion to the visits
(so games from one deal differ); the rest play the most visited move, as the levels do.
A game is reproducible from its job (seed, network, budget).

Round 0 (a budget of 0 iterations) bootstraps cheaply: greedy plays every seat (one move
in ten at random, for variety) and its move is the policy target, so the first network
imitates the hand evaluation's choices (the search's old priors, at a fraction of their
cost) and learns values from hundreds of games for the CPU of a few search games.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kamon.agents import agent_seed
from kamon.agents.base import hooks_for
from kamon.agents.greedy import GreedyAgent
from kamon.agents.mcts import MCTSAgent
from kamon.core.rng import Rng
from kamon.games import get_game
from kamon.learn.features import MAX_CLANS, encoding_of, relative_values

MAX_DECISIONS = 5000  # a self-play game longer than this is a bug


@dataclass(frozen=True)
class SelfPlayJob:
    """One self-play game: the deal, the search and the network guiding it."""

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    net_path: str | None = None  # None: the hand-guided search (round 1)
    iterations: int = 4000  # reference iterations a decision (scaled per game)
    guide_values: float = 0.5
    guide_priors: float = 0.0
    explore: int = 12
    epsilon: float = 0.1  # round 0 (iterations 0): the share of random moves


def search_agent(job: SelfPlayJob, seed: int) -> MCTSAgent | GreedyAgent:
    """The search every seat plays with in the job's games (greedy: iterations 0)."""
    if job.iterations == 0:
        return GreedyAgent(seed)
    return _search(job, seed)


def _search(job: SelfPlayJob, seed: int) -> MCTSAgent:
    """The guided (or, without a network, hand-guided) search of the job's games."""
    guide = None
    if job.net_path is not None:
        from kamon.learn.net import NetGuide, load_net

        guide = NetGuide(load_net(job.net_path))
    return MCTSAgent(seed, iterations=job.iterations, scale_budget=True, stop_early=True,
                     guide=guide, guide_values=job.guide_values,
                     guide_priors=job.guide_priors)


def play_selfplay(job: SelfPlayJob) -> dict[str, Any]:
    """Play one self-play game; its samples as arrays (obs float16, mask uint8, pi
    float16, z and zmask float32, seat int8) and its figures (decisions, CPU seconds,
    final points)."""
    start = time.process_time()
    enc = encoding_of(job.game)
    state = get_game(job.game).new_game(job.players, job.seed, **job.options)
    bots = [search_agent(job, agent_seed(job.seed, p)) for p in range(job.players)]
    pick = Rng(job.seed ^ 0x5EED)
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    pis: list[np.ndarray] = []
    seats: list[int] = []
    n = 0
    hooks = None
    while not state.is_over():
        p = state.to_move
        if p is None:
            break
        n += 1
        if n > MAX_DECISIONS:
            raise RuntimeError(f"self-play game {job.seed} did not end")
        hooks = hooks or hooks_for(state)
        cands = hooks.candidates(state)
        if len(cands) == 1:
            state.apply(next(a for a in state.legal_actions() if a.id == cands[0]))
            continue
        bot = bots[p]
        if isinstance(bot, GreedyAgent):  # round 0: greedy's move is the target
            chosen = bot.act(state).id
            visits = {chosen: 1}
            if pick.random() < job.epsilon:
                chosen = pick.choice(cands)
        else:
            chosen = bot.search(state, p)
            visits = bot.last_visits
        total = sum(visits.values())
        if total:
            pi = np.zeros(enc.num_actions, dtype=np.float32)
            for a, v in visits.items():
                pi[a] = v / total
            mask = np.zeros(enc.num_actions, dtype=np.uint8)
            mask[cands] = 1
            obs.append(enc.observe(state, p).astype(np.float16))
            masks.append(mask)
            pis.append(pi.astype(np.float16))
            seats.append(p)
            if len(obs) <= job.explore and not isinstance(bot, GreedyAgent):
                acts = sorted(visits)
                chosen = _draw(pick, acts, [visits[a] for a in acts])
        state.apply(next(a for a in state.legal_actions() if a.id == chosen))
    totals = [float(s["total"]) for s in state.scores()]
    z = np.zeros((len(seats), MAX_CLANS), dtype=np.float32)
    zmask = np.zeros((len(seats), MAX_CLANS), dtype=np.float32)
    for i, p in enumerate(seats):
        z[i], zmask[i] = relative_values(totals, p, enc.margin_scale)
    size, na = enc.size, enc.num_actions
    return {
        "obs": np.stack(obs) if obs else np.zeros((0, size), np.float16),
        "mask": np.stack(masks) if masks else np.zeros((0, na), np.uint8),
        "pi": np.stack(pis) if pis else np.zeros((0, na), np.float16),
        "z": z, "zmask": zmask, "seat": np.array(seats, dtype=np.int8),
        "totals": np.array(totals, dtype=np.float32),
        "decisions": np.array(n), "cpu": np.array(time.process_time() - start),
        "seed": np.array(job.seed),
    }


def _draw(rng: Rng, items: list[int], weights: list[int]) -> int:
    """One of `items`, in proportion to `weights`."""
    total = sum(weights)
    r = rng.random() * total
    for a, w in zip(items, weights, strict=True):
        r -= w
        if r < 0:
            return a
    return items[-1]
