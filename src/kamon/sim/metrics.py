"""Game-level metrics of a results table, in the manner of Ludii's and TAG's game metrics:
first-player advantage, balance across turn positions, decisiveness (the winning margin,
and how often the leader after each round wins), drawishness, length and branching.

`game_metrics(table)` gives each as a `Metric`: its value, a 95% interval where one makes
sense, the games behind it and a one-line meaning, plus a few numbers of its spread
(`detail`), so `kamon report` shows them and other tools compare them as data
(`Metric.as_dict`). A game is the rows of one seed (and rotation of the seats, when the
file has a `rotation` column); a win counts as the row's `win_share` (1/k for one of k
shared winners), as everywhere in the reports.

The branching factor and the leaders after each round need the game-level columns of
results format 2 (`game_branching`, `round_leaders`): in an older file, or for games of
a file that lack them, those metrics count only the games that have them, and are
marked unavailable (value None, 0 games) when none does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from kamon.sim.results import SCORE_PREFIX
from kamon.sim.stats import Z95, wilson

LEADER_PREFIX = "leader_after_round_"
UNAVAILABLE = "not recorded in this file (results written before format version 2)"


@dataclass(frozen=True)
class Metric:
    """One game-level number: its value, 95% interval (None when it has none), the games
    behind it, what it means in one line, and numbers of its spread (`detail`)."""

    name: str
    value: float | None
    ci_low: float | None
    ci_high: float | None
    games: int
    meaning: str
    detail: Mapping[str, float] = field(default_factory=dict)

    @property
    def available(self) -> bool:
        """False when the file does not hold what the metric needs."""
        return self.value is not None

    def as_dict(self) -> dict[str, Any]:
        """The metric as plain JSON-compatible data."""
        return {"name": self.name, "value": self.value, "ci_low": self.ci_low,
                "ci_high": self.ci_high, "games": self.games, "meaning": self.meaning,
                "detail": dict(self.detail)}


@dataclass(frozen=True)
class Games:
    """A results table arranged by game: row -> game index, and per-game arrays."""

    index: np.ndarray  # per row: its game (0 .. n-1), games ordered by seed, rotation
    count: int
    clans: np.ndarray  # per game: rows (clans, the solo rival included)
    share: np.ndarray  # per row: win share
    seat: np.ndarray  # per row: seat number (1..)
    total: np.ndarray  # per row: score total
    first_row: np.ndarray  # per game: the index of one of its rows


def _col(table: pa.Table, name: str) -> np.ndarray:
    """A column as numpy (nulls as NaN / None)."""
    return np.asarray(table[name].to_numpy(zero_copy_only=False))


def games_of(table: pa.Table) -> Games:
    """The rows of a table grouped by game: by seed, and rotation when there is one."""
    keys = [_col(table, "seed").astype(np.int64)]
    if "rotation" in table.schema.names:
        keys.append(_col(table, "rotation").astype(np.int64))
    _, first, index = np.unique(np.stack(keys, axis=1), axis=0, return_index=True,
                                return_inverse=True)
    index = index.reshape(-1)
    return Games(index, len(first), np.bincount(index, minlength=len(first)),
                 _col(table, "win_share").astype(float), _col(table, "seat").astype(int),
                 _col(table, SCORE_PREFIX + "total").astype(float), first)


def _unavailable(name: str, meaning: str) -> Metric:
    """A metric the file cannot give."""
    return Metric(name, None, None, None, 0, f"{meaning} ({UNAVAILABLE})")


def spread(values: np.ndarray) -> dict[str, float]:
    """Mean, standard deviation, quartiles and range of some per-game values."""
    q1, med, q3 = (float(x) for x in np.percentile(values, [25, 50, 75]))
    sd = float(values.std(ddof=1)) if len(values) > 1 else 0.0
    return {"mean": float(values.mean()), "sd": sd, "min": float(values.min()), "q1": q1,
            "median": med, "q3": q3, "max": float(values.max())}


def mean_metric(name: str, values: np.ndarray, meaning: str,
                extra: Mapping[str, float] | None = None) -> Metric:
    """The mean of per-game values with its 95% normal interval and spread."""
    d = spread(values)
    half = Z95 * d["sd"] / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return Metric(name, d["mean"], d["mean"] - half, d["mean"] + half, len(values), meaning,
                  {**d, **(extra or {})})


def rate_metric(name: str, wins: float, n: int, meaning: str, minus: float = 0.0,
                extra: Mapping[str, float] | None = None) -> Metric:
    """A rate (wins / n) with its Wilson 95% interval, less `minus` (a fair rate)."""
    lo, hi = wilson(wins, n)
    return Metric(name, wins / n - minus, lo - minus, hi - minus, n, meaning, dict(extra or {}))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with an integer number of degrees of freedom."""
    if df < 1:
        return 1.0
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return min(1.0, math.exp(-h) * total)
    total = math.erfc(math.sqrt(h))
    for i in range(1, (df + 1) // 2):
        total += math.exp((i - 0.5) * math.log(h) - h - math.lgamma(i + 0.5))
    return min(1.0, total)


def positions_of(table: pa.Table) -> tuple[np.ndarray, str]:
    """Each row's position in the first round's turn order (`turn_position`), or its seat
    when the game records no turn order; and which it is."""
    if "turn_position" in table.schema.names:
        pos = _col(table, "turn_position").astype(int)
        if (pos > 0).any():
            return pos, "turn position"
    return _col(table, "seat").astype(int), "seat"


def first_player(table: pa.Table, g: Games) -> Metric:
    """Win rate of the first in turn order minus the fair 1/clans."""
    pos, what = positions_of(table)
    first = pos == 1
    n = int(first.sum())
    meaning = ("win rate of the first player in turn order minus the fair share 1/clans "
               "(positive: the first player is favoured)")
    if what == "seat":
        meaning = meaning.replace("first player in turn order", "seat 1 (no turn order "
                                  "recorded)")
    if n == 0:
        return Metric("first_player_advantage", None, None, None, 0, meaning)
    fair = float(np.mean(1.0 / g.clans[g.index[first]]))
    wins = float(g.share[first].sum())
    return rate_metric("first_player_advantage", wins, n, meaning, fair,
                       {"win_rate": wins / n, "fair": fair})


def seat_balance(table: pa.Table, g: Games) -> Metric:
    """Max - min win rate across turn positions, with a chi-square test of uniformity."""
    pos, what = positions_of(table)
    keep = pos > 0
    values = np.unique(pos[keep])
    n = np.array([int(((pos == v) & keep).sum()) for v in values])
    wins = np.array([float(g.share[(pos == v) & keep].sum()) for v in values])
    rates = wins / n
    expected = n * wins.sum() / n.sum()
    ok = expected > 0
    chi2 = float((((wins - expected) ** 2)[ok] / expected[ok]).sum())
    df = len(values) - 1
    detail = {"chi2": chi2, "df": float(df), "p_value": chi2_sf(chi2, df)}
    detail.update({f"win_rate_{what.replace(' ', '_')}_{v}": float(r)
                   for v, r in zip(values, rates, strict=True)})
    games = len(np.unique(g.index[keep]))
    return Metric("seat_balance", float(rates.max() - rates.min()), None, None, games,
                  f"highest minus lowest win rate across {what}s (0 = balanced); p_value: "
                  "chi-square test of the wins against equal rates", detail)


def top_two(g: Games) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the highest and the second highest score total (NaN alone)."""
    order = np.lexsort((-g.total, g.index))
    starts = np.concatenate(([0], np.flatnonzero(np.diff(g.index[order])) + 1))
    top = g.total[order][starts]
    second = np.full(g.count, np.nan)
    two = g.clans >= 2
    second[two] = g.total[order][starts[two] + 1]
    return top, second


def margins_of(table: pa.Table) -> np.ndarray:
    """Per game (of at least two clans): the winner's total minus the runner-up's (the two
    highest totals, so 0 when they tie and a tie-break or a shared win decides)."""
    g = games_of(table)
    top, second = top_two(g)
    keep = ~np.isnan(second)
    return (top - second)[keep]


def margin(table: pa.Table) -> Metric:
    """The winning margin: mean with interval, spread and the share of 0-point margins."""
    values = margins_of(table)
    meaning = ("winner's score total minus the runner-up's, per game (small: close games; "
               "0: tied on points)")
    if len(values) == 0:
        return Metric("margin", None, None, None, 0, meaning)
    return mean_metric("margin", values, meaning, {"zero": float((values == 0).mean())})


def drawishness(g: Games, winner: np.ndarray) -> Metric:
    """Share of games with shared wins (and of tie-broken games, in detail)."""
    winners = np.bincount(g.index, weights=winner.astype(float), minlength=g.count)
    shared = float((winners > 1).sum())
    top, second = top_two(g)
    tied = (top == second) & (winners == 1)
    return rate_metric("drawishness", shared, g.count,
                       "share of games whose win is shared (a draw between the best clans)",
                       extra={"tie_broken": float(tied.mean())})


def length(table: pa.Table, g: Games) -> Metric:
    """Game length in decisions: mean with interval, spread."""
    values = _col(table, "game_decisions").astype(float)[g.first_row]
    return mean_metric("length", values, "decisions per game, every clan's together")


def branching(table: pa.Table, g: Games) -> Metric:
    """Mean legal moves per decision: per-game means, and per decision over all games."""
    meaning = "legal moves per decision (mean over games of each game's mean)"
    if "game_branching" not in table.schema.names:
        return _unavailable("branching", meaning)
    per_game = _col(table, "game_branching").astype(float)[g.first_row]
    steps = _col(table, "game_decisions").astype(float)[g.first_row]
    keep = ~np.isnan(per_game)
    if not keep.any():
        return _unavailable("branching", meaning)
    overall = float((per_game[keep] * steps[keep]).sum() / steps[keep].sum())
    return mean_metric("branching", per_game[keep], meaning, {"per_decision": overall})


def round_leaders(text: str | None) -> list[list[int]] | None:
    """'1|2,3' -> [[1], [2, 3]]; None for an unknown value (null or empty)."""
    if not text:
        return None
    return [[int(s) for s in part.split(",")] for part in text.split("|")]


def leader_curve(table: pa.Table, g: Games) -> list[Metric]:
    """For each round r: how often the leader after round r wins (tied leaders share)."""
    meaning = "how often the clan leading on points after round {r} wins"
    if "round_leaders" not in table.schema.names:
        return [_unavailable(LEADER_PREFIX.rstrip("_"), meaning.format(r="r"))]
    texts = table["round_leaders"].to_pylist()
    seat_share: dict[tuple[int, int], float] = {}
    for i, (game, seat) in enumerate(zip(g.index.tolist(), g.seat.tolist(), strict=True)):
        seat_share[(game, seat)] = float(g.share[i])
    wins: list[float] = []
    n: list[int] = []
    fair: list[float] = []
    for game, row in enumerate(g.first_row.tolist()):
        rounds = round_leaders(texts[row])
        if rounds is None:
            continue
        for r, leaders in enumerate(rounds):
            if r == len(wins):
                wins.append(0.0)
                n.append(0)
                fair.append(0.0)
            wins[r] += sum(seat_share.get((game, s), 0.0) for s in leaders) / len(leaders)
            n[r] += 1
            fair[r] += 1.0 / float(g.clans[game])
    if not n:
        return [_unavailable(LEADER_PREFIX.rstrip("_"), meaning.format(r="r"))]
    return [rate_metric(f"{LEADER_PREFIX}{r + 1}", wins[r], n[r],
                        meaning.format(r=r + 1) + " (k tied leaders count 1/k each)",
                        extra={"fair": fair[r] / n[r]})
            for r in range(len(n))]


def game_metrics(table: pa.Table) -> dict[str, Metric]:
    """Every game-level metric of a results table, by name (leader_after_round_1.. in
    round order; `leader_after_round` alone, unavailable, when the file lacks them)."""
    if table.num_rows == 0:
        return {}
    g = games_of(table)
    winner = _col(table, "winner").astype(bool)
    found = [first_player(table, g), seat_balance(table, g), margin(table),
             drawishness(g, winner), length(table, g), branching(table, g),
             *leader_curve(table, g)]
    return {m.name: m for m in found}


def leader_metrics(metrics: Mapping[str, Metric]) -> list[Metric]:
    """The available leader-after-round-r metrics, in round order."""
    return [m for k, m in metrics.items() if k.startswith(LEADER_PREFIX) and m.available]


def margin_histogram(table: pa.Table) -> dict[int, int]:
    """Games by winning margin (points), in margin order."""
    values, counts = np.unique(margins_of(table).astype(int), return_counts=True)
    return {int(v): int(c) for v, c in zip(values, counts, strict=True)}
