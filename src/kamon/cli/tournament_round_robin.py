"""A round robin over subsets (`kamon tournament --round-robin`): more agents than seats,
so every combination of `players` of them plays its own rotated-seat tournament on the
same deals, and one set of tables (by agent, by seat, openskill ratings) sums them all.

Table t (the t-th combination, in `itertools.combinations` order of the agents as
listed) plays `games` games exactly as `kamon.sim.tournament.schedule` lays them out for
that lineup: game g deals seed `seed + g // players` from rotation `g % players`, so
every table meets the same deals, and every agent of a table sits in every seat. The
games of all tables go to the backend together (one pool), each with its own index.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from math import comb
from typing import Any

from kamon.agents.plugin import agent_labels
from kamon.core.errors import KamonError
from kamon.sim.backends import Backend
from kamon.sim.tournament import (
    GameResult,
    TournamentGame,
    TournamentResult,
    gather,
    run_games,
    schedule,
)


def subsets(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The tables of a round robin: every combination of `players` of the agents (in
    the order listed); all of them as one table when they fit at one."""
    if len(agents) <= players:
        return [tuple(agents)]
    return list(itertools.combinations(agents, players))


def round_robin_schedule(game: str, agents: Sequence[str], games: int, players: int,
                         seed: int, options: Mapping[str, Any] | None = None
                         ) -> list[TournamentGame]:
    """Every table's games in order (`games` per table, seats rotated within it), the
    indices running on across tables."""
    todo: list[TournamentGame] = []
    for table in subsets(agents, players):
        for job in schedule(game, table, games, players, seed, options):
            todo.append(dataclasses.replace(job, index=len(todo)))
    return todo


def round_robin_games(agents: int, players: int, games: int) -> int:
    """How many games a round robin plays: `games` per combination of the seats."""
    return games * (comb(agents, players) if agents > players else 1)


def run_round_robin(game: str, agents: Sequence[str], games: int, players: int,
                    seed: int, jobs: int, options: Mapping[str, Any] | None,
                    backend: Backend,
                    progress: Callable[[GameResult], None] | None = None
                    ) -> TournamentResult:
    """Play the round robin on an open backend; one TournamentResult over every table's
    games (agents by their labels, in the order listed)."""
    if games < 1:
        raise KamonError("a tournament needs at least one game")
    labels = agent_labels(list(agents), game)
    todo = round_robin_schedule(game, agents, games, players, seed, options)
    result = TournamentResult(game, players, [labels[a] for a in dict.fromkeys(agents)],
                              options=dict(options or {}))
    start = time.perf_counter()
    result.results = gather(run_games(todo, jobs, backend), labels, players, progress)
    result.elapsed = time.perf_counter() - start
    return result
