"""Head to head: how often each agent finishes ahead of each other one, and their ratings,
from result rows (`kamon report`'s skill matrix).

A game is a (seed, rotation) pair of a results table. For an ordered pair of agents
(A, B), the games that count are those where both played; in each, A scores 1 if it
placed ahead of B (a lower `placement`), 1/2 if they placed equal, 0 if behind; an agent
holding several seats of a game scores the mean over its seats' pairs with the other's,
so every game counts once. A's rate is its score over those games, with a 95% Wilson
interval on the number of games (`tournament.wilson`, fractional scores allowed, as
shared wins are). The rates of (A, B) and (B, A) add up to 1 over the same games.

Ratings: openskill Plackett-Luce over the games in (seed, rotation) order, computed by
`tournament.rate` exactly as `kamon tournament` computes its own (a tournament's
results file gives its table's ratings). Every clan is a participant, a solo rival too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kamon.sim.ratings import Rating, rate
from kamon.sim.stats import wilson


@dataclass
class Duel:
    """One ordered pair: A's score against B over the games both played."""

    agent: str
    opponent: str
    games: int
    ahead: float  # games A finished ahead of B (ties 1/2; several seats: the mean)

    @property
    def rate(self) -> float:
        """A's share of the games: finishing ahead of B."""
        return self.ahead / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the rate."""
        return wilson(self.ahead, self.games)

    @property
    def clear(self) -> bool:
        """The interval lies wholly above or below an even 50%."""
        lo, hi = self.interval
        return self.games > 0 and (lo > 0.5 or hi < 0.5)


@dataclass
class SkillMatrix:
    """The head-to-head matrix of the agents in a results table and their ratings."""

    agents: list[str]  # best rated first
    games: int  # games in the table
    duels: dict[tuple[str, str], Duel] = field(default_factory=dict)
    ratings: list[Rating] = field(default_factory=list)
    reading: str = ""

    def duel(self, agent: str, opponent: str) -> Duel | None:
        """The (agent, opponent) cell (None on the diagonal or for unknown agents)."""
        return self.duels.get((agent, opponent))


def game_numbers(table: pa.Table) -> pa.Table:
    """The table with `seed` made one number per game when a seed holds several games
    (rotated seats, tournaments): seed * rotations + rotation. Counting distinct `seed`s
    then counts games; a table with one game per seed is returned as it is."""
    if "rotation" not in table.schema.names or table.num_rows == 0:
        return table
    top = pc.max(table["rotation"]).as_py()
    if not top:
        return table
    games = pc.add(pc.multiply(table["seed"], pa.scalar(int(top) + 1, pa.int64())),
                   pc.cast(table["rotation"], pa.int64()))
    return table.set_column(table.schema.get_field_index("seed"), "seed", games)


def _games(table: pa.Table) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray]:
    """(agent code, placement) per game and clan position as (games, clans) arrays
    (-1 and 0 where a game has fewer clans), the agent names, and each row's seat."""
    rot = (table["rotation"] if "rotation" in table.schema.names
           else pa.array(np.zeros(table.num_rows, dtype=np.int32)))
    t = pa.table({"seed": table["seed"], "rotation": rot, "seat": table["seat"],
                  "agent": table["agent"], "placement": table["placement"]})
    t = t.take(pc.sort_indices(t, [("seed", "ascending"), ("rotation", "ascending"),
                                   ("seat", "ascending")]))
    seeds = np.asarray(t["seed"].to_numpy())
    rots = np.asarray(t["rotation"].to_numpy())
    names, codes = np.unique(np.asarray(t["agent"].to_pylist(), dtype=object).astype(str),
                             return_inverse=True)
    places = np.asarray(t["placement"].to_numpy())
    new = np.ones(len(seeds), dtype=bool)
    new[1:] = (seeds[1:] != seeds[:-1]) | (rots[1:] != rots[:-1])
    game = np.cumsum(new) - 1
    starts = np.flatnonzero(new)
    pos = np.arange(len(seeds)) - starts[game]
    n_games, width = int(game[-1]) + 1, int(pos.max()) + 1
    agents = np.full((n_games, width), -1, dtype=np.int64)
    placed = np.zeros((n_games, width), dtype=np.int64)
    agents[game, pos] = codes
    placed[game, pos] = places
    return agents, placed, [str(n) for n in names], np.asarray(t["seat"].to_numpy())


def skill_matrix(table: pa.Table) -> SkillMatrix | None:
    """The head-to-head matrix and ratings of a results table; None unless at least two
    agents held seats (a solo rival does not count towards the two)."""
    if table.num_rows == 0:
        return None
    players = int(pc.max(table["players"]).as_py())
    seated = pc.unique(table.filter(pc.less_equal(table["seat"], players))["agent"])
    if len(seated) < 2:
        return None
    agents, placed, names, _ = _games(table)
    n_games, width = agents.shape
    k = len(names)
    held = [agents == a for a in range(k)]  # (games, clans) per agent
    counts = [h.sum(axis=1) for h in held]
    beats = {(i, j): (placed[:, i] < placed[:, j]) + 0.5 * (placed[:, i] == placed[:, j])
             for i in range(width) for j in range(width) if i != j}
    ratings = rate(([names[c] for c in row if c >= 0],
                    [p for p, c in zip(prow, row, strict=True) if c >= 0])
                   for row, prow in zip(agents.tolist(), placed.tolist(), strict=True))
    order = [r.agent for r in ratings]
    duels: dict[tuple[str, str], Duel] = {}
    for a in range(k):
        for b in range(k):
            if a == b:
                continue
            pairs = counts[a] * counts[b]
            both = pairs > 0
            score = np.zeros(n_games)
            for (i, j), ahead in beats.items():
                score += ahead * (held[a][:, i] & held[b][:, j])
            share = score[both] / pairs[both]
            duels[(names[a], names[b])] = Duel(names[a], names[b], int(both.sum()),
                                               float(share.sum()))
    matrix = SkillMatrix(order, n_games, duels, ratings)
    matrix.reading = reading_of(matrix)
    return matrix


def duel_text(d: Duel) -> str:
    """'normal finishes ahead of random in 95.0% (76.4-99.1%) of 20 games'."""
    lo, hi = d.interval
    return (f"{d.agent} finishes ahead of {d.opponent} in {100 * d.rate:.1f}% "
            f"({100 * lo:.1f}-{100 * hi:.1f}%) of {d.games:,} games")


def reading_of(matrix: SkillMatrix) -> str:
    """One line: the order by rating, and which pairs are clearly apart head to head."""
    ranked = " > ".join(f"{r.agent} ({r.ordinal:.1f})" for r in matrix.ratings)
    text = f"By openskill rating (ordinal): {ranked}."
    pairs = [matrix.duels[(a, b)] for i, a in enumerate(matrix.agents)
             for b in matrix.agents[i + 1:] if (a, b) in matrix.duels]
    pairs = [d if d.rate >= 0.5 else matrix.duels[(d.opponent, d.agent)] for d in pairs]
    met = [d for d in pairs if d.games]
    if not met:
        return text + " No two agents met in a game."
    clear = [d for d in met if d.clear]
    text += f" Head to head, {len(clear)} of {len(met)} pairs are clearly apart"
    if clear:
        best = max(clear, key=lambda d: d.interval[0])
        text += f" (the clearest: {duel_text(best)})"
    close = [d for d in met if not d.clear]
    if close:
        tight = min(close, key=lambda d: abs(d.rate - 0.5))
        text += f"; the closest: {duel_text(tight)}, compatible with an even 50%"
    return text + "."
