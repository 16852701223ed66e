"""Play seeded bot games and turn each into result rows: the unit of work of every backend.

A batch is a contiguous range of seeds; `run_batch` is a top-level function of plain
data, so a spawned process or a Ray worker can run it. A game's rows depend only on
the spec (game, players, options, agents) and its seed: the game uses the seed and
agent p of game s is seeded `agent_seed(s, p)`, as `kamon simulate` always did. Agents
travel as names or plug-in specs (strings) and are built where the game runs, so a
plug-in's module or file must be importable or readable there (docs/agents.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import pyarrow as pa

from kamon.agents import agent_seed, make_agent
from kamon.core.errors import KamonError
from kamon.core.protocol import State
from kamon.core.record import GameRecord
from kamon.games import get_game
from kamon.sim.features import features_of
from kamon.sim.results import SCORE_PREFIX, RunKey, canonical_options, schema_for, table_of
from kamon.sim.tournament import ranks

MAX_DECISIONS = 100_000  # a game that needs more is stuck: report it instead of looping
CRASH_EXIT = 70  # exit status of the test hook's deliberate crash


@dataclass(frozen=True)
class SimSpec:
    """Everything a worker needs to play a run's games, besides the seeds.

    `options` are the options the game really uses (an overlay read from the
    environment included), so workers on other machines play the same games.
    `crash_once` is a test hook, (marker file, seed): the worker that reaches that seed
    while the marker does not exist creates it and dies on the spot (os._exit), once.
    """

    game: str
    players: int
    agents: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    records: bool = False
    crash_once: tuple[str, int] | None = None

    @property
    def key(self) -> RunKey:
        """The run key of the results this spec produces."""
        return RunKey(self.game, self.players, canonical_options(self.options), self.agents)


@dataclass
class Batch:
    """The results of a contiguous range of seeds: rows as a table, records if asked."""

    first: int
    count: int
    table: pa.Table
    records: list[dict[str, Any]] | None = None
    worker: int = 0  # the process id that played it


def new_state(spec: SimSpec, seed: int) -> State:
    """A game of the spec set up with a seed (a bad option becomes a KamonError)."""
    game = get_game(spec.game)
    try:
        return game.new_game(spec.players, seed, **spec.options)
    except (TypeError, ValueError) as exc:
        raise KamonError(f"cannot set up {game.title}: {exc}") from None


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


def play_seed(spec: SimSpec, seed: int) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Play the game of one seed: its rows (one per clan) and, if asked, its record."""
    game = get_game(spec.game)
    state = new_state(spec, seed)
    start = state.clone()
    bots = [make_agent(name, agent_seed(seed, p), game=spec.game)
            for p, name in enumerate(spec.agents)]
    decisions = [0] * len(bots)
    total = 0
    while not state.is_over():
        p = state.to_move
        if p is None:
            break
        total += 1
        if total > MAX_DECISIONS:
            raise KamonError(f"game with seed {seed} did not end after {MAX_DECISIONS} "
                             "decisions")
        decisions[p] += 1
        state.apply(bots[p].act(state))
    rows = rows_of(spec, seed, start, state, decisions, total)
    record = None
    if spec.records:
        record = GameRecord.of(game.name, state, seed, dict(spec.options), game.action_text,
                               list(spec.agents)).to_json()
    return rows, record


def rows_of(spec: SimSpec, seed: int, start: State, end: State, decisions: list[int],
            total: int) -> list[dict[str, Any]]:
    """The result rows of a finished game: one per clan (seats first, then any rival)."""
    scores = end.scores()
    winners = list(end.winners())
    totals = [int(s["total"]) for s in scores]
    places = ranks(totals, winners)
    extra = features_of(spec.game).extract(start, end)
    options = canonical_options(spec.options)
    rows = []
    for q, sc in enumerate(scores):
        colour = end.name(q)
        row: dict[str, Any] = {
            "game": spec.game, "players": spec.players, "options": options, "seed": seed,
            "seat": q + 1, "colour": colour,
            "agent": spec.agents[q] if q < len(spec.agents) else f"{colour} (rival)",
            "placement": places[q], "winner": q in winners,
            "win_share": 1.0 / len(winners) if q in winners else 0.0,
            "decisions": decisions[q] if q < len(decisions) else 0, "game_decisions": total,
        }
        for cat, value in sc.items():
            row[SCORE_PREFIX + cat] = int(value)
        row.update(extra[q] if q < len(extra) else {})
        rows.append(row)
    return rows


def run_batch(spec: SimSpec, first: int, count: int,
              on_game: Callable[[], None] | None = None) -> Batch:
    """Play seeds first .. first+count-1 in order; their rows as one table."""
    rows: list[dict[str, Any]] = []
    records: list[dict[str, Any]] | None = [] if spec.records else None
    for seed in range(first, first + count):
        if spec.crash_once is not None and spec.crash_once[1] == seed:
            _crash_once(Path(spec.crash_once[0]))
        game_rows, record = play_seed(spec, seed)
        rows.extend(game_rows)
        if records is not None and record is not None:
            records.append(record)
        if on_game is not None:
            on_game()
    return Batch(first, count, table_of(rows, schema_of(spec)), records, os.getpid())


def _crash_once(marker: Path) -> None:
    """Test hook: die abruptly (no cleanup, no exception) unless the marker exists."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    os._exit(CRASH_EXIT)
