"""Play seeded bot games and turn each into result rows: the unit of work of every backend.

A batch is a contiguous range of seeds; `run_batch` is a top-level function of plain
data, so a spawned process or a Ray worker can run it. A game's rows depend only on
the spec (game, players, options, agents, seating) and its seed; every game is played by
the one game loop (`kamon.sim.game_loop.play`), seeded by its one rule: agent p of
deal s played from rotation r is seeded `agent_seed(s, r * players + p)`.

With rotated seats (`SimSpec.rotate`, mixed agents) a seed is a deal played once from
each rotation r = 0 .. rotations-1: seat j holds `agents[(j + r) % players]`, so
rotation 0 is the fixed-seat game of the seed. `rotations` is the period of the lineup
(4 for greedy,random,random,random, 2 for greedy,random,greedy,random, 1 when one agent
holds every seat: nothing rotates). Agents travel as names or plug-in specs (strings)
and are built where the game runs, so a plug-in's module or file must be importable or
readable there (docs/agents.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pyarrow as pa

from kamon.core.protocol import State
from kamon.core.record import GameRecord
from kamon.games import get_game
from kamon.sim import game_loop
from kamon.sim.results import RunKey, canonical_options, schema_for, table_of
from kamon.sim.story import concat_decisions, decisions_table


@dataclass(frozen=True)
class SimSpec:
    """Everything a worker needs to play a run's games, besides the seeds.

    `options` are the options the game really uses (an overlay read from the
    environment included), so workers on other machines play the same games.
    """

    game: str
    players: int
    agents: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    records: bool = False
    rotate: bool = False  # play every seed from each rotation of the seats
    decisions: bool = False  # keep every game's per-decision log (kamon.sim.story)

    @property
    def rotations(self) -> int:
        """Games per seed: the period of the lineup under rotation if rotating, else 1."""
        if not self.rotate:
            return 1
        n = len(self.agents)
        return next((r for r in range(1, n) if n % r == 0
                     and self.agents[r:] + self.agents[:r] == self.agents), max(1, n))

    @property
    def seating(self) -> str:
        """'rotated' when a seed is played from several rotations, else 'fixed'."""
        return "rotated" if self.rotations > 1 else "fixed"

    def lineup(self, rotation: int) -> tuple[str, ...]:
        """The agent of each seat in a rotation: seat j gets agents[(j + rotation) % n]."""
        n = len(self.agents)
        return tuple(self.agents[(j + rotation) % n] for j in range(n))

    @property
    def key(self) -> RunKey:
        """The run key of the results this spec produces."""
        return RunKey(self.game, self.players, canonical_options(self.options), self.agents,
                      self.seating)


@dataclass
class Batch:
    """The results of a contiguous range of seeds: rows as a table, records if asked."""

    first: int
    count: int
    table: pa.Table
    records: list[dict[str, Any]] | None = None
    worker: int = 0  # the process id that played it
    decisions: pa.Table | None = None  # the per-decision logs, when the spec asks


def new_state(spec: SimSpec, seed: int) -> State:
    """A game of the spec set up with a seed (a bad option becomes a KamonError)."""
    return game_loop.new_state(spec.game, spec.players, seed, spec.options)


@lru_cache(maxsize=32)
def _schema(key: RunKey, categories: tuple[str, ...]) -> pa.Schema:
    """The results schema (cached: every game of a run has the same)."""
    return schema_for(key, categories)


def categories_of_spec(spec: SimSpec) -> tuple[str, ...]:
    """The score categories of the spec's game ('total' last), from a freshly set-up game."""
    return tuple(new_state(spec, 0).scores()[0])


def schema_of(spec: SimSpec) -> pa.Schema:
    """The results schema of a spec's run."""
    return _schema(spec.key, categories_of_spec(spec))


def play_seed(spec: SimSpec, seed: int, rotation: int = 0
              ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Play the game of one seed in one rotation of the seats (`game_loop.play`): its rows
    (one per clan) and, if asked, its record."""
    rows, record, _ = play_logged(spec, seed, rotation)
    return rows, record


def play_logged(spec: SimSpec, seed: int, rotation: int = 0
                ) -> tuple[list[dict[str, Any]], dict[str, Any] | None,
                           game_loop.DecisionLog | None]:
    """`play_seed`, with the game's per-decision log when the spec asks (`decisions`)."""
    lineup = spec.lineup(rotation)
    played = game_loop.play(spec.game, spec.players, seed, lineup, spec.options, rotation,
                            logged=spec.decisions)
    rows = game_loop.rows_of(spec.game, spec.players, spec.options, lineup, seed, played,
                             rotation, spec.seating)
    record = None
    if spec.records:
        game = get_game(spec.game)
        record = GameRecord.of(game.name, played.end, seed, dict(spec.options),
                               game.action_text, list(lineup)).to_json()
    return rows, record, played.log


def run_batch(spec: SimSpec, first: int, count: int,
              on_game: Callable[[], None] | None = None) -> Batch:
    """Play seeds first .. first+count-1 in order, each in every rotation of the spec (in
    order); their rows as one table. `on_game()` is called after each game."""
    rows: list[dict[str, Any]] = []
    records: list[dict[str, Any]] | None = [] if spec.records else None
    logs: list[pa.Table] = []
    for seed in range(first, first + count):
        for rotation in range(spec.rotations):
            game_rows, record, log = play_logged(spec, seed, rotation)
            rows.extend(game_rows)
            if records is not None and record is not None:
                records.append(record)
            if log is not None:
                logs.append(decisions_table(log.columns(seed, rotation), spec.key))
            if on_game is not None:
                on_game()
    decisions = concat_decisions(logs, spec.key) if spec.decisions else None
    return Batch(first, count, table_of(rows, schema_of(spec)), records, os.getpid(),
                 decisions)
