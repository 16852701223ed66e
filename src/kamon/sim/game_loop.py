"""The one game loop of `kamon simulate`, `kamon tournament` and `kamon sweep`: set a seeded
game up, seat seeded agents, play it to the end, and turn it into result rows.

**The seeding rule** (the only one): the game of deal seed `s` is set up with `s`; when it
is played from rotation `r` of the seats (seat j holds `lineup[j]`), the agent of seat p
is seeded `agent_seed(s, r * players + p)` (`seat_seed`). Rotation 0 is the fixed-seat
game of the seed. So a deal played from the same rotation with the same lineup is the
same game in every command, in this process, a local pool or on Ray.

Also here, because both the runner (`kamon simulate`, `sweep`) and the tournament need
them: the placements of a finished game (`ranks`), its result rows (`rows_of`), the
game-level columns gathered while it is played (`GameTrace`) and, when asked, its
per-decision log (`DecisionLog`, `kamon simulate --decisions`; `kamon.sim.story`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kamon.agents import agent_seed, make_agent
from kamon.core.errors import KamonError
from kamon.core.protocol import State
from kamon.games import get_game
from kamon.sim.results import SCORE_PREFIX, canonical_options

MAX_DECISIONS = 100_000  # a game that needs more is stuck: report it instead of looping


def seat_seed(seed: int, rotation: int, players: int, seat: int) -> int:
    """The seed of the agent in `seat` of deal `seed` played from `rotation`: the one
    seeding rule of every simulation command (see the module's docstring)."""
    return agent_seed(seed, rotation * players + seat)


def new_state(game: str, players: int, seed: int, options: Mapping[str, Any]) -> State:
    """A game set up with a seed (a bad option becomes a KamonError)."""
    g = get_game(game)
    try:
        return g.new_game(players, seed, **options)
    except (TypeError, ValueError) as exc:
        raise KamonError(f"cannot set up {g.title}: {exc}") from None


@dataclass
class Played:
    """A finished game: its set-up and end states, decisions per seat and in all, and (if
    asked) the thinking time per seat and the game-level trace."""

    start: State
    end: State
    decisions: list[int]
    total: int
    seconds: list[float] | None = None  # wall clock per seat, when timed
    cpu_seconds: list[float] | None = None  # process CPU per seat, when timed
    trace: GameTrace | None = None
    log: DecisionLog | None = None


def play(game: str, players: int, seed: int, lineup: Sequence[str],
         options: Mapping[str, Any], rotation: int = 0, *, timed: bool = False,
         traced: bool = True, logged: bool = False) -> Played:
    """Play deal `seed` with `lineup[p]` in seat p, seeded by `seat_seed` for `rotation`,
    to the end. `timed`: measure each seat's thinking time (wall and CPU); `traced`:
    gather the game-level columns (`GameTrace`); `logged`: keep one entry per decision
    (`DecisionLog`; off by default, so a run that does not ask pays one test a decision)."""
    state = new_state(game, players, seed, options)
    start = state.clone()
    bots = [make_agent(name, seat_seed(seed, rotation, players, p), game=game)
            for p, name in enumerate(lineup)]
    decisions = [0] * len(bots)
    seconds = [0.0] * len(bots) if timed else None
    cpu = [0.0] * len(bots) if timed else None
    trace = GameTrace(state) if traced else None
    log = DecisionLog() if logged else None
    total = 0
    while not state.is_over():
        p = state.to_move
        if p is None:
            break
        total += 1
        if total > MAX_DECISIONS:
            raise KamonError(f"game with seed {seed} (rotation {rotation}) did not end after "
                             f"{MAX_DECISIONS} decisions")
        decisions[p] += 1
        if trace is not None:
            trace.before(state)
        if log is not None:
            log.before(state)
        if seconds is not None and cpu is not None:
            wall, proc = time.perf_counter(), time.process_time()
            action = bots[p].act(state)
            seconds[p] += time.perf_counter() - wall
            cpu[p] += time.process_time() - proc
        else:
            action = bots[p].act(state)
        state.apply(action)
        if trace is not None:
            trace.after(state)
        if log is not None:
            log.add(state, p, action)
    return Played(start, state, decisions, total, seconds, cpu, trace, log)


def ranks(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Placements, 1 = best: winners first (the game's tie-break), then by score; equal
    ties share a placement."""
    keys = [(q not in winners, -s) for q, s in enumerate(scores)]
    return [1 + sum(1 for k in keys if k < mine) for mine in keys]


def rows_of(game: str, players: int, options: Mapping[str, Any], lineup: Sequence[str],
            seed: int, played: Played, rotation: int, seating: str) -> list[dict[str, Any]]:
    """The result rows of a finished game (`kamon.sim.results`): one per clan, seats first,
    then any rival; the trace's game-level columns on each when it was traced."""
    start, end, decisions = played.start, played.end, played.decisions
    scores = end.scores()
    winners = list(end.winners())
    totals = [int(s["total"]) for s in scores]
    places = ranks(totals, winners)
    extra = get_game(game).features.extract(start, end)
    opts = canonical_options(options)
    rows = []
    for q, sc in enumerate(scores):
        colour = end.name(q)
        row: dict[str, Any] = {
            "game": game, "players": players, "options": opts, "seed": seed,
            "seat": q + 1, "colour": colour,
            "agent": lineup[q] if q < len(lineup) else f"{colour} (rival)",
            "placement": places[q], "winner": q in winners,
            "win_share": 1.0 / len(winners) if q in winners else 0.0,
            "decisions": decisions[q] if q < len(decisions) else 0,
            "game_decisions": played.total, "seating": seating, "rotation": rotation,
        }
        for cat, value in sc.items():
            row[SCORE_PREFIX + cat] = int(value)
        row.update(extra[q] if q < len(extra) else {})
        rows.append(row)
    if played.trace is not None:
        played.trace.finish(end, rows)
    return rows


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


class DecisionLog:
    """One entry per decision of a game, in order: the round it was taken in (None for a
    state without `round`), the seat (1..), the action id, and every clan's score total
    right after it (`scores()`, the solo rival included): what `kamon.sim.story` reads
    to tell how a game unfolded (lead changes, drama, when it was settled)."""

    __slots__ = ("rounds", "seats", "actions", "totals")

    def __init__(self) -> None:
        self.rounds: list[int | None] = []
        self.seats: list[int] = []
        self.actions: list[int] = []
        self.totals: list[list[int]] = []

    def before(self, state: State) -> None:
        """Note the round the decision about to be taken belongs to."""
        rnd = getattr(state, "round", None)
        self.rounds.append(rnd if isinstance(rnd, int) else None)

    def add(self, state: State, seat: int, action: Any) -> None:
        """Log the decision `seat` (0-based) just took: `action` is applied to `state`, so
        the totals include it."""
        self.seats.append(seat + 1)
        self.actions.append(int(getattr(action, "id", action)))
        self.totals.append([int(s["total"]) for s in state.scores()])

    def columns(self, seed: int, rotation: int) -> dict[str, list[Any]]:
        """The log as the columns of a decisions table (`kamon.sim.story.DECISION_COLUMNS`)."""
        n = len(self.seats)
        return {"seed": [seed] * n, "rotation": [rotation] * n,
                "decision": list(range(1, n + 1)), "round": list(self.rounds),
                "seat": list(self.seats), "action": list(self.actions),
                "scores": [list(t) for t in self.totals]}
