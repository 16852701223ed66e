"""The numbers behind `kamon report`: win rates with 95% Wilson intervals, score
distributions, first-player advantage and each game's own groupings, from result rows.

Every figure is a `Chart`: its title, the games and seat results behind it, a one-line
reading in words, and the numbers it draws (`bars`, `boxes` or a `profile`), so the
report renders them and tests check them without looking at pixels. A win counts as
the row's `win_share` (1/k for one of k shared winners), as in tournaments.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kamon.core.registry import get_game
from kamon.sim.metrics import Metric, game_metrics, margin_histogram
from kamon.sim.results import SCORE_PREFIX, categories_of, metadata_of
from kamon.sim.skill import SkillMatrix, game_numbers, skill_matrix
from kamon.sim.stats import wilson


@dataclass
class Bar:
    """One group's win rate: seat results, wins (shares), rate and its 95% interval."""

    label: str
    n: int
    wins: float
    games: int = 0  # distinct games the group appears in

    @property
    def rate(self) -> float:
        """Wins per seat result."""
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the rate."""
        return wilson(self.wins, self.n)


@dataclass
class Box:
    """A score distribution: quartiles, whiskers (1.5 IQR, inside the data), mean, range."""

    label: str
    n: int
    mean: float
    q1: float
    median: float
    q3: float
    whislo: float
    whishi: float
    low: float
    high: float


@dataclass
class Chart:
    """One figure of the report, with the numbers it draws."""

    key: str
    title: str
    kind: str  # "rates", "boxes" or "profile"
    games: int
    rows: int
    reading: str
    xlabel: str = ""
    bars: list[Bar] = field(default_factory=list)
    baseline: float | None = None  # an even table's win rate
    boxes: list[Box] = field(default_factory=list)
    profile_labels: list[str] = field(default_factory=list)
    profile: dict[str, list[float]] = field(default_factory=dict)  # series -> mean per label
    profile_rows: dict[str, int] = field(default_factory=dict)  # series -> seat results


def pct(x: float) -> str:
    """0.2614 -> '26.1%'."""
    return f"{100 * x:.1f}%"


def interval_text(bar: Bar) -> str:
    """'26.1% (25.8-26.4%)'."""
    lo, hi = bar.interval
    return f"{pct(bar.rate)} ({100 * lo:.1f}-{pct(hi)})"


def _np(table: pa.Table, name: str) -> np.ndarray:
    """A column as numpy."""
    return np.asarray(table[name].to_numpy(zero_copy_only=False))


def group_rates(keys: pa.Array, shares: pa.Array, seeds: pa.Array) -> list[Bar]:
    """Win rate per distinct key (empty keys dropped), in first-seen order."""
    t = pa.table({"k": keys, "w": shares, "s": seeds})
    t = t.filter(pc.not_equal(t["k"].cast(pa.string()), ""))
    if t.num_rows == 0:
        return []
    g = t.group_by("k", use_threads=False).aggregate(
        [("w", "sum"), ("w", "count"), ("s", "count_distinct")])
    return [Bar(str(k), int(n), float(w), int(s)) for k, w, n, s in
            zip(g["k"].to_pylist(), g["w_sum"].to_pylist(), g["w_count"].to_pylist(),
                g["s_count_distinct"].to_pylist(), strict=True)]


def held_values(table: pa.Table, column: str) -> tuple[np.ndarray, np.ndarray]:
    """A ';'-list column as (value, row) pairs, each distinct value once per row: the
    holders of a card are clans (two warriors on one yard make one holder), as in
    `kamon sweep`, `kamon report` and `kamon compare` alike. Empty values are dropped."""
    lists = pc.split_pattern(table[column].combine_chunks(), ";")
    parents = np.asarray(pc.list_parent_indices(lists).to_numpy(zero_copy_only=False),
                         dtype=np.int64)
    values = np.asarray(pc.list_flatten(lists).to_numpy(zero_copy_only=False)).astype(str)
    if len(values) == 0:
        return values, parents
    codes, inverse = np.unique(values, return_inverse=True)
    pair = parents * len(codes) + inverse.reshape(-1)
    _, first = np.unique(pair, return_index=True)
    first.sort()
    keep = first[values[first] != ""]
    return values[keep], parents[keep]


def exploded(table: pa.Table, column: str) -> tuple[pa.Array, pa.Array, pa.Array]:
    """A ';'-list column as one (value, win share, seed) per distinct value held by a
    row (a clan counts once per card it holds: `held_values`)."""
    values, parents = held_values(table, column)
    rows = pa.array(parents, type=pa.int64())
    return (pa.array(values, type=pa.string()),
            pc.take(table["win_share"].combine_chunks(), rows),
            pc.take(table["seed"].combine_chunks(), rows))


def spread_reading(bars: Sequence[Bar], what: str, baseline: float | None) -> str:
    """'Highest: X ...; lowest: Y ...' and whether their intervals separate."""
    if not bars:
        return f"No {what} in these results."
    if len(bars) == 1:
        return f"Only one {what}: {bars[0].label}, {interval_text(bars[0])}."
    hi = max(bars, key=lambda b: (b.interval[0], b.rate))  # surely high, not a lucky few
    lo = min(bars, key=lambda b: (b.interval[1], b.rate))
    text = (f"Strongest: {hi.label}, {interval_text(hi)}; weakest: {lo.label}, "
            f"{interval_text(lo)}")
    if hi.interval[0] > lo.interval[1]:
        text += f": {100 * (hi.rate - lo.rate):.1f} points apart, the intervals do not overlap"
    else:
        text += ": the intervals overlap, no clear difference"
    if baseline is not None:
        outside = [b for b in bars if not b.interval[0] <= baseline <= b.interval[1]]
        text += (f"; {len(outside)} of {len(bars)} differ from an even {pct(baseline)}"
                 if outside else f"; all are compatible with an even {pct(baseline)}")
    return text + "."


def seat_chart(table: pa.Table, games: int, clans: int) -> Chart:
    """Win rate by seat (whoever sat there), against an even table's 1/clans."""
    bars = group_rates(pc.cast(table["seat"], pa.string()), table["win_share"], table["seed"])
    pairs = table.select(["seat", "colour"]).group_by(["seat", "colour"],
                                                      use_threads=False).aggregate([])
    colours = dict(zip(pairs["seat"].to_pylist(), pairs["colour"].to_pylist(), strict=True))
    for b in bars:
        b.label = f"seat {b.label} ({colours.get(int(b.label), '?')})"
    bars.sort(key=lambda b: int(b.label.split()[1]))
    base = 1.0 / clans if clans else None
    return Chart("seat", "Win rate by seat", "rates", games, table.num_rows,
                 spread_reading(bars, "seat", base), "win rate (95% interval)", bars, base)


def agent_chart(table: pa.Table, games: int, clans: int) -> Chart:
    """Win rate by agent (each seat an agent held counts once)."""
    bars = group_rates(table["agent"], table["win_share"], table["seed"])
    bars.sort(key=lambda b: -b.rate)
    base = 1.0 / clans if clans else None
    return Chart("agent", "Win rate by agent", "rates", games, table.num_rows,
                 spread_reading(bars, "agent", base), "win rate (95% interval)", bars, base)


def first_player_chart(table: pa.Table, games: int, clans: int) -> Chart | None:
    """Win rate by position in the first round's turn order (needs `turn_position`)."""
    if "turn_position" not in table.schema.names:
        return None
    pos = table["turn_position"]
    mask = pc.greater(pos, 0)
    sub = table.filter(mask)
    if sub.num_rows == 0:
        return None
    bars = group_rates(pc.cast(sub["turn_position"], pa.string()), sub["win_share"],
                       sub["seed"])
    bars.sort(key=lambda b: int(b.label))
    for b in bars:
        b.label = _ordinal(int(b.label)) + " player"
    base = 1.0 / clans if clans else None
    first = bars[0]
    lo, hi = first.interval
    if base is None:
        reading = f"The first player wins {interval_text(first)}."
    elif lo > base:
        reading = (f"The first player wins {interval_text(first)} against an even "
                   f"{pct(base)}: an advantage of {100 * (first.rate - base):+.1f} points.")
    elif hi < base:
        reading = (f"The first player wins {interval_text(first)} against an even "
                   f"{pct(base)}: a disadvantage of {100 * (first.rate - base):+.1f} points.")
    else:
        reading = (f"The first player wins {interval_text(first)}: compatible with an even "
                   f"{pct(base)}, no first-player advantage detectable.")
    last = bars[-1]
    if len(bars) > 1:
        reading = reading[:-1] + f"; the {last.label} wins {interval_text(last)}."
    return Chart("first_player", "First-player advantage: win rate by turn order",
                 "rates", games, sub.num_rows, reading, "win rate (95% interval)", bars, base)


def _ordinal(n: int) -> str:
    """1 -> '1st', 2 -> '2nd', 3 -> '3rd', 4 -> '4th'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def box_of(label: str, values: np.ndarray) -> Box:
    """Quartiles and 1.5-IQR whiskers of some scores."""
    q1, med, q3 = (float(x) for x in np.percentile(values, [25, 50, 75]))
    iqr = q3 - q1
    inside_lo = values[values >= q1 - 1.5 * iqr]
    inside_hi = values[values <= q3 + 1.5 * iqr]
    return Box(label, len(values), float(values.mean()), q1, med, q3,
               float(inside_lo.min()), float(inside_hi.max()), float(values.min()),
               float(values.max()))


def score_chart(table: pa.Table, games: int) -> Chart:
    """The distribution of every score category over every clan of every game."""
    boxes = [box_of(cat.replace("_", " "), _np(table, SCORE_PREFIX + cat))
             for cat in categories_of(table.schema)]
    parts = [b for b in boxes if b.label != "total"]
    total = next((b for b in boxes if b.label == "total"), None)
    reading = ""
    if total is not None:
        reading = f"Final totals average {total.mean:.1f} (median {total.median:g}, " \
                  f"range {total.low:g}-{total.high:g})"
    if parts:
        top = max(parts, key=lambda b: b.mean)
        reading += (f"; {top.label} brings the most on average ({top.mean:.1f} points, "
                    f"{100 * top.mean / total.mean:.0f}% of the total)" if total and total.mean
                    else f"; {top.label} brings the most on average ({top.mean:.1f})")
    return Chart("scores", "Score distribution by category (every clan of every game)",
                 "boxes", games, table.num_rows, reading + ".", "points", boxes=boxes)


def grouping_chart(table: pa.Table, spec: Mapping[str, Any], clans: int) -> Chart | None:
    """A game's own grouping (features REPORT): by one value, by each value, or a profile."""
    kind = spec.get("kind")
    title = str(spec.get("title", "?"))
    label = str(spec.get("label", "value"))
    base = 1.0 / clans if clans else None
    if kind == "profile":
        return profile_chart(table, spec)
    column = str(spec.get("column", ""))
    if column not in table.schema.names:
        return None
    if kind == "multi":
        values, shares, seeds = exploded(table, column)
        note = (" A clan counts once for each it holds (the holders are clans: two "
                "warriors on one yard make one holder); holding any goes with winning, "
                "so compare them with each other.")
    else:
        values, shares, seeds = table[column], table["win_share"], table["seed"]
        note = ""
    bars = group_rates(values, shares, seeds)
    if not bars:
        return None
    words = spec.get("words")  # the game's words for a value (a card's name), if any
    if callable(words):
        bars = [dataclasses.replace(b, label=str(words(b.label))) for b in bars]
    bars.sort(key=lambda b: -b.rate)
    held = pc.not_equal(table[column], "")
    sub = table.filter(held)
    games = int(pc.count_distinct(sub["seed"]).as_py())
    return Chart(f"by_{column}", title, "rates", games, sub.num_rows,
                 spread_reading(bars, label, base) + note, "win rate (95% interval)", bars,
                 base)


def profile_chart(table: pa.Table, spec: Mapping[str, Any]) -> Chart | None:
    """Mean of some count columns for the winners and for the other seats."""
    columns = [str(c) for c in spec.get("columns", [])]
    if not columns or any(c not in table.schema.names for c in columns):
        return None
    labels = [str(x) for x in spec.get("labels", columns)]
    won = _np(table, "winner")
    means: dict[str, list[float]] = {"winners": [], "the others": []}
    for c in columns:
        vals = _np(table, c).astype(float)
        means["winners"].append(float(vals[won].mean()) if won.any() else 0.0)
        means["the others"].append(float(vals[~won].mean()) if (~won).any() else 0.0)
    gaps = [w - o for w, o in zip(means["winners"], means["the others"], strict=True)]
    i = int(np.argmax(np.abs(gaps)))
    more = "more" if gaps[i] >= 0 else "fewer"
    ahead = sum(1 for g in gaps if g > 0)
    reading = (f"Winners average {more} {spec.get('label', 'of them')} than the others in "
               f"{ahead} of {len(gaps)}; the largest gap is the {labels[i]} "
               f"({means['winners'][i]:.2f} against {means['the others'][i]:.2f}).")
    games = int(pc.count_distinct(table["seed"]).as_py())
    return Chart("profile_" + "_".join(columns), str(spec.get("title", "")), "profile",
                 games, table.num_rows, reading, str(spec.get("label", "")),
                 profile_labels=labels, profile=means,
                 profile_rows={"winners": int(won.sum()), "the others": int((~won).sum())})


@dataclass
class Analysis:
    """Everything a report says about a results table."""

    game: str
    players: int
    options: dict[str, Any]
    agents: list[str]
    games: int
    rows: int
    first_seed: int
    last_seed: int
    charts: list[Chart]
    metrics: dict[str, Metric] = field(default_factory=dict)  # game-level (sim.metrics)
    margins: dict[int, int] = field(default_factory=dict)  # games by winning margin
    seating: str = "fixed"  # "fixed", "rotated" (each deal from every rotation), "tournament"
    skill: SkillMatrix | None = None  # head to head and ratings, with several agents


def analyse(table: pa.Table) -> Analysis:
    """Every chart of the report for one results table."""
    meta = metadata_of(table.schema)
    game = str(meta["game"])
    dealt, table = table, game_numbers(table)  # charts count games: (seed, rotation) pairs
    games = int(pc.count_distinct(table["seed"]).as_py())
    clans = int(pc.max(table["seat"]).as_py()) if table.num_rows else 0
    charts: list[Chart | None] = [
        seat_chart(table, games, clans),
        agent_chart(table, games, clans),
        first_player_chart(table, games, clans),
        score_chart(table, games),
    ]
    for spec in get_game(game).features.report:
        charts.append(grouping_chart(table, spec, clans))
    seeds = dealt["seed"]
    return Analysis(game, int(meta["players"]), dict(meta["options"]), list(meta["agents"]),
                    games, table.num_rows, int(pc.min(seeds).as_py()),
                    int(pc.max(seeds).as_py()), [c for c in charts if c is not None],
                    metrics=game_metrics(dealt), margins=margin_histogram(dealt),
                    seating=str(meta.get("seats", "fixed")), skill=skill_matrix(dealt))
