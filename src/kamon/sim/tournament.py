"""Tournaments between agents: rotated seats, seeded deals, a process pool or Ray, statistics.

Game g of a tournament deals seed `seed + g // players` and seats the agents in
rotation `g % players` (seat j plays `agents[(j + g) % len(agents)]`), so every deal
is played once from every rotation and an agent's luck of the deal and of the seat
cancels out over a full cycle. Every game is played by the one game loop of every
simulation command (`kamon.sim.game_loop.play`), whose one seeding rule seeds the agent
of seat p `agent_seed(deal seed, rotation * players + p)`: a tournament is reproducible
from its seed alone, its results do not depend on the number of worker processes, and
a deal played from the same rotation with the same lineup is the game `kamon simulate`
plays for that seed and rotation.

Statistics: per agent and per seat, the win rate with a Wilson 95% score interval
(a shared victory counts 1/k to each of the k winners), the mean score and the mean
seconds per decision; ratings with openskill's Plackett-Luce model, the games taken
in order (a clan without an agent, the solo rival, is rated as a participant too).

Results as data (`TournamentResult.table`, `kamon tournament --out`): the rows of
`kamon.sim.results`, one per game and clan, with seating `tournament`, the deal's seed,
the rotation and the agent in each seat (labels, as in the tables); the run key's agents
are the lineup of rotation 0. `kamon report` reads them.

Agents are names or plug-in specs (`kamon.agents.plugin`): strings, built in the process
that plays the game (a plug-in's module or file must be importable or readable there),
every one built and fitted to the game once before any game starts. Results name a
plug-in by its own `name` (or by its spec where that name is taken).
"""

from __future__ import annotations

import csv
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kamon.agents import agent_spec
from kamon.agents.plugin import agent_labels
from kamon.core.errors import KamonError
from kamon.games import get_game
from kamon.sim import game_loop
from kamon.sim.backends import Backend, LocalBackend, check_backend, open_backend
from kamon.sim.game_loop import ranks
from kamon.sim.ratings import Rating, rate
from kamon.sim.stats import wilson

TASKS_PER_WORKER = 4  # Ray: chunks of games per CPU (fewer, larger tasks)
CSV_FIELDS = ("game", "seed", "rotation", "seat", "clan", "agent", "score", "rank", "win",
              "decisions", "seconds", "cpu_seconds")


@dataclass(frozen=True)
class TournamentGame:
    """One game to play: what a worker process needs."""

    index: int
    game: str
    players: int
    seed: int
    rotation: int
    lineup: tuple[str, ...]
    options: Mapping[str, Any]
    rows: bool = False  # also build the results rows (kamon.sim.results) of the game


@dataclass
class GameResult:
    """One finished game: per clan (seats first, then any rival) its agent and outcome."""

    index: int
    seed: int
    rotation: int
    agents: list[str]
    clans: list[str]
    scores: list[int]
    winners: list[int]
    decisions: list[int]
    seconds: list[float]
    cpu_seconds: list[float] = field(default_factory=list)
    rows: list[dict[str, Any]] | None = None  # results rows, when the game was asked them

    def ranks(self) -> list[int]:
        """1 = best; winners first (the game's tie-break), then by score; equal ties share."""
        return ranks(self.scores, self.winners)

    def win_share(self, q: int) -> float:
        """1/k if clan q is one of k winners, else 0."""
        return 1.0 / len(self.winners) if q in self.winners else 0.0


def lineup(agents: Sequence[str], players: int, rotation: int) -> tuple[str, ...]:
    """Who sits where in a rotation: seat j gets agents[(j + rotation) % len(agents)]."""
    k = len(agents)
    return tuple(agents[(j + rotation) % k] for j in range(players))


def schedule(game: str, agents: Sequence[str], games: int, players: int, seed: int,
             options: Mapping[str, Any] | None = None, rows: bool = False
             ) -> list[TournamentGame]:
    """The tournament's games in order: each seed once per rotation of the seats."""
    if not agents:
        raise KamonError("a tournament needs at least one agent")
    if len(agents) > players:
        raise KamonError(f"{len(agents)} agents for {players} seats: a game seats at most "
                         f"{players} (use --players)")
    opts = dict(options or {})
    return [TournamentGame(g, game, players, seed + g // players, g % players,
                           lineup(agents, players, g % players), opts, rows)
            for g in range(games)]


def play_game(job: TournamentGame) -> GameResult:
    """Play one tournament game by the one game loop (`game_loop.play`, its seeding rule),
    timing each seat (top-level, so spawned worker processes can run it)."""
    played = game_loop.play(job.game, job.players, job.seed, job.lineup, job.options,
                            job.rotation, timed=True, traced=job.rows)
    state = played.end
    scores = [int(s["total"]) for s in state.scores()]
    extra = len(scores) - job.players
    clans = [state.name(q) for q in range(len(scores))]
    agents = list(job.lineup) + [f"{clans[job.players + i]} (rival)" for i in range(extra)]
    rows = None
    if job.rows:
        rows = game_loop.rows_of(job.game, job.players, job.options, job.lineup, job.seed,
                                 played, job.rotation, "tournament")
    seconds = played.seconds or [0.0] * job.players
    cpu = played.cpu_seconds or [0.0] * job.players
    return GameResult(job.index, job.seed, job.rotation, agents, clans, scores,
                      list(state.winners()), played.decisions + [0] * extra,
                      seconds + [0.0] * extra, cpu + [0.0] * extra, rows)


def play_games(jobs: Sequence[TournamentGame]) -> list[GameResult]:
    """Play several tournament games in order (one task of a backend)."""
    return [play_game(job) for job in jobs]


def run_games(jobs: Sequence[TournamentGame], workers: int = 1,
              backend: Backend | None = None) -> Iterator[GameResult]:
    """Results as games finish: in this process, a spawn-safe process pool (`workers`), or
    the given backend (a Ray backend gets chunks of games, a few per CPU)."""
    if backend is None:
        with open_backend("local", max(1, workers)) as local:
            yield from run_games(jobs, workers, local)
        return
    if backend.in_process or len(jobs) <= 1:
        for job in jobs:
            yield play_game(job)
        return
    size = 1 if isinstance(backend, LocalBackend) else \
        max(1, len(jobs) // (backend.workers * TASKS_PER_WORKER))
    chunks = [list(jobs[i:i + size]) for i in range(0, len(jobs), size)]
    for results in backend.map_unordered(play_games, chunks):
        yield from results


@dataclass
class Line:
    """One row of a results table: games, wins, interval, mean score and speed."""

    label: str
    games: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    decisions: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def win_rate(self) -> float:
        """Wins per game (0 when no game)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        """Mean final score."""
        return self.score_sum / self.games if self.games else 0.0

    @property
    def seconds_per_decision(self) -> float:
        """Mean thinking time per decision, wall clock (0 for clans that never decide)."""
        return self.seconds / self.decisions if self.decisions else 0.0

    @property
    def cpu_per_decision(self) -> float:
        """Mean CPU time per decision of the process (unaffected by other processes)."""
        return self.cpu_seconds / self.decisions if self.decisions else 0.0

    def add(self, res: GameResult, q: int) -> None:
        """Count clan q of one game into this line."""
        self.games += 1
        self.wins += res.win_share(q)
        self.score_sum += res.scores[q]
        self.decisions += res.decisions[q]
        self.seconds += res.seconds[q]
        self.cpu_seconds += res.cpu_seconds[q] if q < len(res.cpu_seconds) else 0.0


@dataclass
class TournamentResult:
    """Every game's result (in game order) and the summaries drawn from them."""

    game: str
    players: int
    agents: list[str]
    results: list[GameResult] = field(default_factory=list)
    elapsed: float = 0.0
    options: Mapping[str, Any] = field(default_factory=dict)  # as the games were set up

    def by_agent(self) -> list[Line]:
        """One line per participant (agents in the order given, then any rival)."""
        lines: dict[str, Line] = {a: Line(a) for a in self.agents}
        for res in self.results:
            for q, name in enumerate(res.agents):
                lines.setdefault(name, Line(name)).add(res, q)
        return list(lines.values())

    def by_seat(self) -> list[Line]:
        """One line per clan position (seat 1.. and any rival), whoever sat there."""
        lines: list[Line] = []
        for res in self.results:
            for q in range(len(res.scores)):
                if q >= len(lines):
                    label = (f"seat {q + 1}" if q < self.players else
                             f"{res.clans[q]} (rival)")
                    lines.append(Line(label))
                lines[q].add(res, q)
        return lines

    def ratings(self) -> list[Rating]:
        """openskill Plackett-Luce ratings after every game in order, best ordinal first."""
        return rate((res.agents, res.ranks()) for res in self.results)

    def table(self) -> Any:
        """The games as results rows (a pyarrow Table of `kamon.sim.results`, sorted by seed,
        rotation and seat); the games must have been played with rows."""
        from kamon.sim.results import (
            SCORE_PREFIX,
            RunKey,
            canonical_options,
            schema_for,
            sort_and_dedupe,
            table_of,
        )

        if any(res.rows is None for res in self.results) or not self.results:
            raise KamonError("these tournament games were played without results rows")
        rows = [row for res in self.results for row in res.rows or []]
        first = self.results[0].rows or []
        key = RunKey(self.game, self.players, canonical_options(self.options),
                     tuple(str(r["agent"]) for r in first[:self.players]), "tournament")
        categories = [k[len(SCORE_PREFIX):] for k in first[0] if k.startswith(SCORE_PREFIX)]
        return sort_and_dedupe(table_of(rows, schema_for(key, categories)))

    def write_results(self, path: Path | str) -> int:
        """Write the results rows to a .parquet or .csv file; returns the rows written."""
        from kamon.sim.results import write_results

        table = self.table()
        write_results(table, Path(path))
        return int(table.num_rows)

    def write_csv(self, path: Path | str) -> int:
        """One row per clan of every game (header first); returns the rows written."""
        rows = 0
        with Path(path).open("w", encoding="utf-8", newline="") as fh:
            out = csv.writer(fh)
            out.writerow(CSV_FIELDS)
            for res in self.results:
                ranks = res.ranks()
                for q, name in enumerate(res.agents):
                    out.writerow([res.index, res.seed, res.rotation,
                                  q + 1 if q < self.players else "", res.clans[q], name,
                                  res.scores[q], ranks[q], f"{res.win_share(q):.4g}",
                                  res.decisions[q], f"{res.seconds[q]:.4f}",
                                  f"{res.cpu_seconds[q]:.4f}" if q < len(res.cpu_seconds)
                                  else ""])
                    rows += 1
        return rows


@contextmanager
def _opened(backend: str | Backend, jobs: int, address: str | None) -> Iterator[Backend]:
    """A backend by name, opened and closed here, or one the caller opened (left open)."""
    if isinstance(backend, str):
        with open_backend(backend, jobs, address) as opened:
            yield opened
    else:
        yield backend


def run_tournament(game: str, agents: Sequence[str], games: int, players: int | None = None,
                   seed: int = 0, jobs: int = 1, options: Mapping[str, Any] | None = None,
                   progress: Callable[[GameResult], None] | None = None,
                   backend: str | Backend = "local", ray_address: str | None = None,
                   rows: bool = False) -> TournamentResult:
    """Play a whole tournament and return its results in game order (`backend` 'local':
    `jobs` processes; 'ray': `ray_address`, or a local Ray with `jobs` CPUs; or a backend
    already open); `rows`: also the results rows (`TournamentResult.table`)."""
    if isinstance(backend, str):
        check_backend(backend, ray_address)
    g = get_game(game)
    names = [agent_spec(a) for a in agents if a.strip()]
    labels = agent_labels(names, g.name)  # unknown names, plug-ins that do not load or fit
    if players is None:
        players = min(max(len(names), g.min_players), g.max_players)
    if games < 1:
        raise KamonError("a tournament needs at least one game")
    todo = schedule(g.name, names, games, players, seed, options, rows)
    result = TournamentResult(g.name, players, [labels[n] for n in names],
                              options=dict(options or {}))
    with _opened(backend, jobs, ray_address) as where:
        start = time.perf_counter()  # Ray's start-up not counted
        result.results = gather(run_games(todo, jobs, where), labels, players, progress)
    result.elapsed = time.perf_counter() - start
    return result


def gather(finished: Iterable[GameResult], labels: dict[str, str], players: int,
           progress: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """The games as they finish, each seat (and each of its statistics rows) named by its
    agent's label, reported to `progress` one by one; returned in schedule order."""
    done: list[GameResult] = []
    for res in finished:
        res.agents = [labels.get(a, a) if q < players else a
                      for q, a in enumerate(res.agents)]
        for row in res.rows or []:
            row["agent"] = res.agents[row["seat"] - 1]
        done.append(res)
        if progress is not None:
            progress(res)
    return sorted(done, key=lambda r: r.index)
