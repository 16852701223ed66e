"""Play seeded bot games and turn each into result rows: the unit of work of every backend.

A batch is a contiguous range of seeds; `run_batch` is a top-level function of plain
data, so a spawned process or a Ray worker can run it. A game's rows depend only on
the spec (game, players, options, agents, seating) and its seed: the game uses the seed
and agent p of game s is seeded `agent_seed(s, p)`, as `kamon simulate` always did.

With rotated seats (`SimSpec.rotate`, mixed agents) a seed is a deal played once from
each rotation r = 0 .. rotations-1: seat j holds `agents[(j + r) % players]` and is
seeded `agent_seed(s, r * players + j)`, so rotation 0 is the fixed-seat game of the
seed. `rotations` is the period of the lineup (4 for greedy,random,random,random, 2
for greedy,random,greedy,random, 1 when one agent holds every seat: nothing rotates).
Agents
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
    rotate: bool = False  # play every seed from each rotation of the seats

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


def play_seed(spec: SimSpec, seed: int, rotation: int = 0
              ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Play the game of one seed in one rotation of the seats: its rows (one per clan)
    and, if asked, its record."""
    game = get_game(spec.game)
    state = new_state(spec, seed)
    start = state.clone()
    lineup = spec.lineup(rotation)
    bots = [make_agent(name, agent_seed(seed, rotation * spec.players + p), game=spec.game)
            for p, name in enumerate(lineup)]
    decisions = [0] * len(bots)
    total = 0
    trace = GameTrace(state)
    while not state.is_over():
        p = state.to_move
        if p is None:
            break
        total += 1
        if total > MAX_DECISIONS:
            raise KamonError(f"game with seed {seed} did not end after {MAX_DECISIONS} "
                             "decisions")
        decisions[p] += 1
        trace.before(state)
        state.apply(bots[p].act(state))
        trace.after(state)
    rows = rows_of(spec, seed, start, state, decisions, total, rotation)
    trace.finish(state, rows)
    record = None
    if spec.records:
        record = GameRecord.of(game.name, state, seed, dict(spec.options), game.action_text,
                               list(lineup)).to_json()
    return rows, record


class GameTrace:
    """The game-level columns, gathered while a game is played: the legal actions of each
    decision (`game_branching`) and the leaders by score total after each round
    (`round_leaders`).

    A round ends when the state's `round` attribute goes up, or the game ends (the last
    round); the leaders are read from `scores()` then. A state without `round` leaves
    `round_leaders` null. Nothing here draws randomness or changes the state.
    """

    __slots__ = ("legal", "decisions", "round", "leaders", "_moves")

    def __init__(self, state: State) -> None:
        self.legal = 0
        self.decisions = 0
        rnd = getattr(state, "round", None)
        self.round: int | None = rnd if isinstance(rnd, int) else None
        self.leaders: list[list[int]] = []
        ids = getattr(state, "legal_ids", None)  # the ids alone: cheaper than the actions
        self._moves: Callable[[], list[Any]] = ids if callable(ids) else state.legal_actions

    def before(self, state: State) -> None:
        """Count the legal actions of the decision about to be taken (the state's cache:
        the agent reuses it)."""
        self.legal += len(self._moves())
        self.decisions += 1

    def after(self, state: State) -> None:
        """After an action: the leaders of every round that just ended."""
        if self.round is None:
            return
        rnd = getattr(state, "round", self.round)
        if rnd > self.round:
            now = leaders_of(state)
            self.leaders += [now] * (rnd - self.round)  # a round without decisions shares
            self.round = rnd

    def finish(self, end: State, rows: list[dict[str, Any]]) -> None:
        """Close the last round and put the game-level columns on every row of the game."""
        if self.round is not None:
            self.leaders.append(leaders_of(end))
        branching = self.legal / self.decisions if self.decisions else None
        text = ("|".join(",".join(map(str, seats)) for seats in self.leaders)
                if self.round is not None else None)
        for row in rows:
            row["game_branching"] = branching
            row["round_leaders"] = text


def leaders_of(state: State) -> list[int]:
    """The seat numbers (1..) with the highest score total now (every one when tied)."""
    totals = [int(s["total"]) for s in state.scores()]
    best = max(totals)
    return [q + 1 for q, t in enumerate(totals) if t == best]


def rows_of(spec: SimSpec, seed: int, start: State, end: State, decisions: list[int],
            total: int, rotation: int = 0, seating: str | None = None
            ) -> list[dict[str, Any]]:
    """The result rows of a finished game: one per clan (seats first, then any rival);
    the agents are the spec's lineup in `rotation`, the seating the spec's unless given."""
    agents = spec.lineup(rotation)
    scores = end.scores()
    winners = list(end.winners())
    totals = [int(s["total"]) for s in scores]
    places = ranks(totals, winners)
    extra = get_game(spec.game).features.extract(start, end)
    options = canonical_options(spec.options)
    rows = []
    for q, sc in enumerate(scores):
        colour = end.name(q)
        row: dict[str, Any] = {
            "game": spec.game, "players": spec.players, "options": options, "seed": seed,
            "seat": q + 1, "colour": colour,
            "agent": agents[q] if q < len(agents) else f"{colour} (rival)",
            "placement": places[q], "winner": q in winners,
            "win_share": 1.0 / len(winners) if q in winners else 0.0,
            "decisions": decisions[q] if q < len(decisions) else 0, "game_decisions": total,
            "seating": seating or spec.seating, "rotation": rotation,
        }
        for cat, value in sc.items():
            row[SCORE_PREFIX + cat] = int(value)
        row.update(extra[q] if q < len(extra) else {})
        rows.append(row)
    return rows


def run_batch(spec: SimSpec, first: int, count: int,
              on_game: Callable[[], None] | None = None) -> Batch:
    """Play seeds first .. first+count-1 in order, each in every rotation of the spec (in
    order); their rows as one table. `on_game()` is called after each game."""
    rows: list[dict[str, Any]] = []
    records: list[dict[str, Any]] | None = [] if spec.records else None
    for seed in range(first, first + count):
        if spec.crash_once is not None and spec.crash_once[1] == seed:
            _crash_once(Path(spec.crash_once[0]))
        for rotation in range(spec.rotations):
            game_rows, record = play_seed(spec, seed, rotation)
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
