"""The numbers behind `kamon compare`: what changed between two results files of one game
and player count, and whether it is more than chance.

Two runs of the same command with and without a data overlay play the same seeds (game
i uses seed+i), so the comparison is **paired** by seed and seat whenever both runs hold
mostly the same seeds: each game of the variant is set against the same deal of the base,
which removes the deal's luck from every difference. Runs that share only some seeds
(2,000 against 400, the 400 shared) are paired on the shared ones. Otherwise it is
**unpaired**.

Every comparison is variant minus base, over the games (seeds) of the design:

- win rate by seat, by turn position (the game's `turn_position` column), by agent, and
  by each value of the game's own groupings (`features.REPORT`: a starting pair, a card
  taken...). Paired: `stats.paired_ratio` (for a seat or a turn position, one row a game:
  exactly the paired t on the win shares), its p from `stats.swap_test` when fewer than
  SWAP_GAMES games differ (the delta method's t flagged 8.3% of paired A/A pages through
  rare cards; bench/bench_calibration.py) — and so is every paired test below, a t on
  few differing games (the share of games whose round-16 leader wins, near 100%, or of
  shared wins) being as unsound; unpaired: `stats.two_proportion`. The holders
  of a card are clans (`analysis.held_values`); a group held fewer than MIN_ROWS times or
  in fewer than MIN_GAMES games of a run is listed, not tested;
- the mean total score of each seat and the mean of every score category over every clan.
  Paired: `stats.paired_t` on the per-game differences; unpaired: `stats.welch` on the
  per-game means (the clans of one game are not independent, the games are);
- per game: its length (`game_decisions`), the margin of victory (the winner's total minus
  the best other total), how often the win is shared, and the game-level metrics
  (`plugin_metrics`, the one place they plug in): from the optional columns
  `game_branching` and `round_leaders`, the branching factor and how often the leader
  after each round wins, tested per game; the summaries of
  `kamon.sim.metrics.game_metrics` of both runs shown side by side.

A game is a seed (and a rotation of the seats, when the files have a `rotation` column).

The p-values of all the tests of one comparison form one family, adjusted with
Benjamini-Hochberg: a finding is "more than chance" when its adjusted p is below ALPHA.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kamon.core.errors import KamonError
from kamon.core.registry import get_game
from kamon.sim.analysis import _ordinal, held_values, pct
from kamon.sim.results import SCORE_PREFIX, categories_of, key_of, metadata_of
from kamon.sim.stats import (
    Difference,
    benjamini_hochberg,
    paired_ratio,
    paired_t,
    swap_test,
    two_proportion,
    welch,
)

ALPHA = 0.05  # false discovery rate of the family
MIN_ROWS = 5  # a group held fewer times in either run is listed, not tested
MIN_GAMES = 10  # ... and so is a group held in fewer games than this in either run
SWAP_GAMES = 300  # paired tests over fewer differing games: p from `stats.swap_test`
PAIRED_SHARE = 0.5  # paired when the common games are at least this share of the smaller
# run's (2,000 against 400 with the 400 shared pair on the 400)
CATEGORY_WORDS = {"during_game": "CP scored during the game", "coins_seals": "coins + seals",
                  "passage_of_time": "Passage of Time"}

Sums = dict[str, tuple[np.ndarray, np.ndarray]]  # label -> (sum, count) per game


@dataclass
class Finding:
    """One difference between the runs, with the numbers behind its sentence."""

    family: str
    subject: str  # the row label: 'seat 1 (blue)', 'plant_1', 'gardeners'
    kind: str  # "rate" (a win rate, shown in %) or "mean"
    what: str  # the sentence's subject: 'Seat 1 (blue)', 'Holders of plant_1 (...)'
    base: float
    variant: float
    games: int  # games behind the comparison (paired: common seeds; unpaired: both runs)
    games_base: int  # games the subject appears in, in each run
    games_variant: int
    rows_base: int  # seat results behind each value
    rows_variant: int
    design: str  # "paired" or "unpaired"
    diff: Difference
    p_adjusted: float = 1.0
    significant: bool = False

    @property
    def scale(self) -> float:
        """100 for rates (differences in percentage points), 1 for means."""
        return 100.0 if self.kind == "rate" else 1.0

    def value_text(self, x: float) -> str:
        """A value as the sentence writes it."""
        return pct(x) if self.kind == "rate" else f"{x:.2f}"

    def diff_text(self) -> str:
        """'-2.3 points, 95% CI -4.1 to -0.5'."""
        s, d = self.scale, self.diff
        unit = " points" if self.kind == "rate" else ""
        return (f"{s * d.estimate:+.{1 if self.kind == 'rate' else 2}f}{unit}, 95% CI "
                f"{_num(s * d.low, self.kind)} to {_num(s * d.high, self.kind)}")

    def design_text(self) -> str:
        """'paired by seed over 60 games' / 'unpaired, 60 against 80 games'."""
        if self.design == "paired":
            text = f"paired by seed over {self.games:,} games"
            if self.games_base != self.games or self.games_variant != self.games:
                text += (f", held in {self.games_variant:,} and {self.games_base:,} of "
                         "them")
            return text
        return f"unpaired, {self.games_variant:,} against {self.games_base:,} games"

    def sentence(self, alpha: float = ALPHA) -> str:
        """The finding in one plain sentence, with its verdict (the adjusted p shown with
        the digits that put it on the verdict's side of alpha)."""
        verb = "won" if self.kind == "rate" else "averaged"
        verdict = "more than chance" if self.significant else "within chance"
        return (f"{self.what} {verb} {self.value_text(self.variant)} against "
                f"{self.value_text(self.base)} in the base ({self.design_text()}, difference "
                f"{self.diff_text()}, adjusted p {p_relation(self.p_adjusted, alpha)}): "
                f"{verdict}.")


@dataclass
class Family:
    """Findings of one kind (a section and a figure of the report)."""

    key: str
    title: str
    kind: str  # "rate" or "mean"
    findings: list[Finding] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # groups too rare to test
    note: str = ""
    counted: str = "seat results"  # what rows_base/rows_variant count ("clans holding")

    @property
    def games(self) -> int:
        """Games behind the family's comparisons."""
        return max((f.games for f in self.findings), default=0)


@dataclass
class Comparison:
    """Everything `kamon compare` says about two results tables."""

    base_name: str
    variant_name: str
    game: str
    players: int
    design: str  # "paired" or "unpaired"
    games_base: int
    games_variant: int
    games_paired: int  # common seeds used (paired), 0 when unpaired
    differences: list[str]  # how the two runs' keys differ
    families: list[Family]
    notes: list[str] = field(default_factory=list)
    alpha: float = ALPHA
    metrics: list[MetricPair] = field(default_factory=list)  # kamon.sim.metrics, side by side
    why_unpaired: str = ""  # unpaired: why (asked, no shared seeds, too few, other seats)

    @property
    def findings(self) -> list[Finding]:
        """Every finding, family by family."""
        return [f for fam in self.families for f in fam.findings]

    @property
    def significant(self) -> list[Finding]:
        """The findings that are more than chance, largest effect first."""
        return sorted((f for f in self.findings if f.significant),
                      key=lambda f: f.p_adjusted)


def p_relation(p: float, alpha: float = ALPHA) -> str:
    """A p-value after 'p' in a sentence: '= 0.031', or '< 0.001'."""
    text = p_text(p, alpha)
    return text if text.startswith("<") else f"= {text}"


def p_text(p: float, alpha: float = ALPHA) -> str:
    """A p-value with the digits that keep it on its side of alpha (the verdict's rule
    is p < alpha): 0.0312 -> '0.031', 0.04977 -> '0.0498' (not '0.05'), 0.00001 ->
    '< 0.001', 1 -> '1'.

    >>> p_text(0.04977), p_text(0.0312), p_text(0.0049), p_text(0.5), p_text(0.049999)
    ('0.0498', '0.031', '0.0049', '0.5', '< 0.05')
    """
    if p < 0.001:
        return "< 0.001"
    for digits in (3, 4):
        text = f"{p:.2g}" if p < 0.01 else f"{p:.{digits}f}"
        if (float(text) < alpha) == (p < alpha):
            return text if p < 0.01 or text == f"{alpha:.{digits}f}" else \
                text.rstrip("0").rstrip(".")
    return f"< {alpha:g}" if p < alpha else f"> {alpha:g}"


def _num(x: float, kind: str) -> str:
    """A signed interval bound ('+1.2', '-inf')."""
    if math.isinf(x):
        return "-inf" if x < 0 else "+inf"
    return f"{x:+.1f}" if kind == "rate" else f"{x:+.2f}"


def _np(table: pa.Table, name: str) -> np.ndarray:
    """A column as numpy."""
    return np.asarray(table[name].to_numpy(zero_copy_only=False))


# --- the design -----------------------------------------------------------------------

def check_comparable(base: pa.Table, variant: pa.Table, base_name: str, variant_name: str
                     ) -> None:
    """KamonError unless both tables are results of the same game and player count."""
    mb, mv = metadata_of(base.schema), metadata_of(variant.schema)
    if mb["game"] != mv["game"]:
        raise KamonError(f"cannot compare {base_name} ({mb['game']}) with {variant_name} "
                         f"({mv['game']}): they are results of different games")
    if int(mb["players"]) != int(mv["players"]):
        raise KamonError(f"cannot compare {base_name} ({mb['players']} players) with "
                         f"{variant_name} ({mv['players']} players): different player "
                         "counts have different seats and win rates")
    for name, t in ((base_name, base), (variant_name, variant)):
        if t.num_rows == 0:
            raise KamonError(f"{name} holds no games")


def key_differences(base: pa.Table, variant: pa.Table) -> list[str]:
    """How the runs' keys differ, in words ('an option: none in the base, {...} in the variant')."""
    kb, kv = key_of(base), key_of(variant)
    out: list[str] = []
    if kb.agents != kv.agents:
        out.append(f"agents: {','.join(kb.agents)} in the base, {','.join(kv.agents)} in "
                   "the variant")
    ob, ov = json.loads(kb.options), json.loads(kv.options)
    for name in sorted(set(ob) | set(ov)):
        if ob.get(name) != ov.get(name):
            def show(x: Any) -> str:
                return "none" if x is None else json.dumps(x, sort_keys=True,
                                                           separators=(",", ":"))
            out.append(f"{name}: {show(ob.get(name))} in the base, {show(ov.get(name))} in "
                       "the variant")
    return out or ["nothing in their run keys (same game, players, options and agents)"]


def game_ids(table: pa.Table, span: int) -> np.ndarray:
    """Each row's game: its seed, and its rotation of the seats when the file has one
    (seed * span + rotation, span above every rotation of both runs)."""
    seeds = _np(table, "seed").astype(np.int64)
    if "rotation" not in table.schema.names:
        return seeds * span
    return seeds * span + _np(table, "rotation").astype(np.int64)


def rotation_span(*tables: pa.Table) -> int:
    """One more than the largest rotation of the tables (1 without rotations)."""
    top = [int(pc.max(t["rotation"]).as_py() or 0) for t in tables
           if "rotation" in t.schema.names and t.num_rows]
    return max(top, default=0) + 1


def paired_games(base: pa.Table, variant: pa.Table, span: int) -> np.ndarray | None:
    """The games (seed, rotation) to pair on (both runs hold them, with the same seats), or
    None when the runs share too few for a paired design."""
    gb = np.unique(game_ids(base, span))
    gv = np.unique(game_ids(variant, span))
    common = np.intersect1d(gb, gv)
    if len(common) < 2 or len(common) < PAIRED_SHARE * min(len(gb), len(gv)):
        return None
    rb = _restrict(base, common, span)
    rv = _restrict(variant, common, span)
    if rb.num_rows != rv.num_rows or not (
            np.array_equal(game_ids(rb, span), game_ids(rv, span))
            and np.array_equal(_np(rb, "seat"), _np(rv, "seat"))):
        return None
    return common


def _restrict(table: pa.Table, games: np.ndarray, span: int) -> pa.Table:
    """The rows of these games, by game and seat."""
    ids = game_ids(table, span)
    sub = table.filter(pa.array(np.isin(ids, games)))
    ids = game_ids(sub, span)
    return sub.take(pa.array(np.lexsort((_np(sub, "seat"), ids))))


# --- sums per game --------------------------------------------------------------------

def sums_by(labels: np.ndarray, values: np.ndarray, row_games: np.ndarray,
            games: np.ndarray) -> Sums:
    """For each label: the sum of the values and the count of rows, per game."""
    if len(labels) == 0:
        return {}
    idx = np.searchsorted(games, row_games)
    uniq, inv = np.unique(labels.astype(str), return_inverse=True)
    inv = inv.reshape(-1)
    n = len(games)
    flat = inv.astype(np.int64) * n + idx
    size = len(uniq) * n
    total = np.bincount(flat, weights=values.astype(float), minlength=size).reshape(-1, n)
    count = np.bincount(flat, minlength=size).reshape(-1, n).astype(float)
    return {str(u): (total[i], count[i]) for i, u in enumerate(uniq)}


@dataclass
class Run:
    """One side of the comparison: its rows (restricted to the design's games, ordered by
    game and seat), each row's game id and the sorted game ids."""

    table: pa.Table
    ids: np.ndarray  # per row
    games: np.ndarray  # sorted, distinct

    @classmethod
    def of(cls, table: pa.Table, games: np.ndarray, span: int) -> Run:
        """The rows of these games."""
        sub = _restrict(table, games, span)
        return cls(sub, game_ids(sub, span), games)

    def sums(self, labels: np.ndarray | Sequence[str], values: np.ndarray,
             row_ids: np.ndarray | None = None) -> Sums:
        """Sums per label and game of this run's rows (or of exploded rows, with theirs)."""
        return sums_by(np.asarray(labels), values, self.ids if row_ids is None else row_ids,
                       self.games)

    def subset(self, mask: np.ndarray) -> Run:
        """Some of the rows (the games unchanged)."""
        return Run(self.table.filter(pa.array(mask)), self.ids[mask], self.games)

    @property
    def first_rows(self) -> np.ndarray:
        """A mask of each game's first row."""
        first = np.ones(len(self.ids), dtype=bool)
        first[1:] = self.ids[1:] != self.ids[:-1]
        return first

    def per_game(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One value per game (the rows of a game agree on it; NaN: unknown) as (sum,
        count) per game."""
        first = self.first_rows
        vals = values[first].astype(float)
        known = ~np.isnan(vals)
        return np.where(known, vals, 0.0), known.astype(float)


def compare_sums(family: Family, base: Sums, variant: Sums, design: str,
                 what: Mapping[str, str] | None = None,
                 order: Sequence[str] | None = None) -> None:
    """Add one finding per label both runs hold often enough (the others as skipped)."""
    labels = list(order) if order is not None else sorted(set(base) | set(variant))
    for label in labels:
        nb, db = base.get(label, (np.zeros(0), np.zeros(0)))
        nv, dv = variant.get(label, (np.zeros(0), np.zeros(0)))
        rows_b, rows_v = int(db.sum()), int(dv.sum())
        held_b, held_v = int((db > 0).sum()), int((dv > 0).sum())
        if min(rows_b, rows_v) < MIN_ROWS or min(held_b, held_v) < MIN_GAMES:
            family.skipped.append(f"{label} ({rows_v} and {rows_b} {family.counted}, in "
                                  f"{held_v} and {held_b} games)")
            continue
        b, v = float(nb.sum() / db.sum()), float(nv.sum() / dv.sum())
        if design == "paired":
            if np.all(db == 1) and np.all(dv == 1):
                diff = paired_t(nv - nb)
            else:
                diff = paired_ratio(nv, dv, nb, db)
            differing = int(((nv != nb) | (dv != db)).sum())
            if differing < SWAP_GAMES:  # the t is unsound here (few, lumpy differences)
                diff = replace(diff, p=swap_test(nv, dv, nb, db), p_from="swap test")
            games = len(db)
        elif family.kind == "rate":
            diff = two_proportion(float(nv.sum()), rows_v, float(nb.sum()), rows_b)
            games = len(db) + len(dv)
        else:
            diff = welch(nv[dv > 0] / dv[dv > 0], nb[db > 0] / db[db > 0])
            games = len(db) + len(dv)
        if not (math.isfinite(diff.low) and math.isfinite(diff.high)) or (
                diff.low == diff.high and diff.estimate != 0 and family.kind == "rate"):
            family.skipped.append(f"{label} (no spread to test: interval "
                                  f"{diff.low:g} to {diff.high:g})")
            continue
        family.findings.append(Finding(
            family.key, label, family.kind, (what or {}).get(label, label), b, v, games,
            int((db > 0).sum()), int((dv > 0).sum()), rows_b, rows_v, design, diff))


# --- the families ---------------------------------------------------------------------

def seat_labels(table: pa.Table) -> dict[str, str]:
    """'1' -> 'seat 1 (blue)'."""
    pairs = table.select(["seat", "colour"]).group_by(["seat", "colour"],
                                                      use_threads=False).aggregate([])
    return {str(s): f"seat {s} ({c})" for s, c in
            zip(pairs["seat"].to_pylist(), pairs["colour"].to_pylist(), strict=True)}


def _seat_order(labels: Iterable[str]) -> list[str]:
    """Numeric labels in numeric order."""
    return sorted(labels, key=int)


def win_families(b: Run, v: Run, design: str, game: str
                 ) -> tuple[list[Family], list[Family]]:
    """Win rates by seat, turn position and agent; then by each of the game's groupings."""
    out: list[Family] = []
    names = {**seat_labels(b.table), **seat_labels(v.table)}
    fam = Family("seat", "Win rate by seat", "rate")
    sb = b.sums(_np(b.table, "seat").astype(str), _np(b.table, "win_share"))
    sv = v.sums(_np(v.table, "seat").astype(str), _np(v.table, "win_share"))
    compare_sums(fam, sb, sv, design, {k: n[0].upper() + n[1:] for k, n in names.items()},
                 _seat_order(set(sb) | set(sv)))
    for f in fam.findings:
        f.subject = names.get(f.subject, f.subject)
    out.append(fam)
    if "turn_position" in b.table.schema.names and "turn_position" in v.table.schema.names:
        fam = Family("turn", "Win rate by turn order (round 1)", "rate")
        parts = []
        for r in (b, v):
            sub = r.subset(_np(r.table, "turn_position") > 0)
            parts.append(sub.sums(_np(sub.table, "turn_position").astype(str),
                                  _np(sub.table, "win_share")))
        keys = _seat_order(set(parts[0]) | set(parts[1]))
        what = {k: f"The {_ordinal(int(k))} player" for k in keys}
        compare_sums(fam, parts[0], parts[1], design, what, keys)
        for f in fam.findings:
            f.subject = f"{_ordinal(int(f.subject))} player"
        if fam.findings:
            out.append(fam)
    agents_b = set(_np(b.table, "agent").tolist())
    agents_v = set(_np(v.table, "agent").tolist())
    if len(agents_b | agents_v) > 1:
        fam = Family("agent", "Win rate by agent", "rate",
                     note="An agent counts once for each seat it held.")
        compare_sums(fam, b.sums(_np(b.table, "agent"), _np(b.table, "win_share")),
                     v.sums(_np(v.table, "agent"), _np(v.table, "win_share")), design,
                     {a: f"Agent {a}" for a in agents_b | agents_v})
        out.append(fam)
    groups: list[Family] = []
    for spec in get_game(game).features.report:
        column = str(spec.get("column", ""))
        if spec.get("kind") not in ("category", "multi") or not all(
                column in r.table.schema.names for r in (b, v)):
            continue
        label = str(spec.get("label", column))
        fam = Family(f"by_{column}", str(spec.get("title", column)), "rate",
                     counted="clans holding")
        sides: list[Sums] = []
        for r in (b, v):
            if spec.get("kind") == "multi":
                values, parents = held_values(r.table, column)
                fam.note = ("The holders of a card are clans: a clan counts once for each "
                            "card it holds (two warriors on one yard make one holder), as "
                            "in kamon report and kamon sweep; holding any goes with "
                            "winning, so compare them with each other.")
                sides.append(r.sums(values, _np(r.table, "win_share")[parents],
                                    r.ids[parents]))
            else:
                sides.append(r.sums(_np(r.table, column), _np(r.table, "win_share")))
        for s in sides:
            s.pop("", None)  # an empty value means "none"
        keys = sorted(set(sides[0]) | set(sides[1]))
        words = spec.get("words")  # the game's words for a value (a card's name), if any
        named = {k: str(words(k)) if callable(words) else k for k in keys}
        compare_sums(fam, sides[0], sides[1], design,
                     {k: f"Holders of {named[k]} ({label})" for k in keys}, keys)
        if fam.findings or fam.skipped:
            groups.append(fam)
    return out, groups


def score_families(b: Run, v: Run, design: str) -> list[Family]:
    """The mean total of each seat, then the mean of every score category (every clan)."""
    names = {**seat_labels(b.table), **seat_labels(v.table)}
    fam = Family("seat_score", "Mean final score by seat", "mean")
    total = SCORE_PREFIX + "total"
    sb = b.sums(_np(b.table, "seat").astype(str), _np(b.table, total))
    sv = v.sums(_np(v.table, "seat").astype(str), _np(v.table, total))
    compare_sums(fam, sb, sv, design,
                 {k: f"The final score of {n}" for k, n in names.items()},
                 _seat_order(set(sb) | set(sv)))
    for f in fam.findings:
        f.subject = names.get(f.subject, f.subject)
    cats = Family("scores", "Mean score by category (every clan of every game)", "mean")
    common = [c for c in categories_of(b.table.schema) if c in categories_of(v.table.schema)]
    for cat in common:
        words = CATEGORY_WORDS.get(cat, cat.replace("_", " "))
        col = SCORE_PREFIX + cat
        compare_sums(cats, b.sums(np.full(b.table.num_rows, cat), _np(b.table, col)),
                     v.sums(np.full(v.table.num_rows, cat), _np(v.table, col)), design,
                     {cat: f"The {words} score per clan"}, [cat])
    return [fam, cats]


def margins(run: Run) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the winner's total minus the best total of the others (0 when every clan
    won), as (sum, count) per game."""
    idx = np.searchsorted(run.games, run.ids)
    totals = _np(run.table, SCORE_PREFIX + "total").astype(float)
    won = _np(run.table, "winner").astype(bool)
    top = np.full(len(run.games), -np.inf)
    rest = np.full(len(run.games), -np.inf)
    np.maximum.at(top, idx[won], totals[won])
    np.maximum.at(rest, idx[~won], totals[~won])
    known = np.isfinite(top)
    return np.where(known & np.isfinite(rest), top - rest, 0.0), known.astype(float)


def shared_wins(run: Run) -> tuple[np.ndarray, np.ndarray]:
    """Per game: 1 when its win is shared (more than one winner), else 0."""
    idx = np.searchsorted(run.games, run.ids)
    winners = np.bincount(idx, weights=_np(run.table, "winner").astype(float),
                          minlength=len(run.games))
    return (winners > 1).astype(float), np.ones(len(run.games))


Measure = tuple[str, str, tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def game_family(b: Run, v: Run, design: str, summary: bool = True
                ) -> tuple[Family, list[str], list[MetricPair]]:
    """Per game: its length, the margin of victory, shared wins, and the game-level
    metrics (`kamon.sim.metrics`) that have a value per game."""
    fam = Family("game", "Per game: length, margin of victory and game-level metrics",
                 "mean", note="Each game counts once.", counted="games")
    measures: list[Measure] = [
        ("length (decisions)", "The game length (decisions)",
         b.per_game(_np(b.table, "game_decisions")), v.per_game(_np(v.table, "game_decisions"))),
        ("margin of victory", "The margin of victory (winner's total minus the best other)",
         margins(b), margins(v)),
        ("shared wins", "The share of games with a shared win", shared_wins(b),
         shared_wins(v)),
    ]
    extra, notes, pairs = plugin_metrics(b, v, summary)
    measures += extra
    for subject, what, sb, sv in measures:
        compare_sums(fam, {subject: sb}, {subject: sv}, design, {subject: what}, [subject])
    return fam, notes, pairs


# --- game-level metrics (kamon.sim.metrics): the one place they plug in ---------------------

@dataclass
class MetricPair:
    """A game-level metric of `kamon.sim.metrics` in both runs (shown, not tested: the
    tested per-game versions are in the game family)."""

    name: str
    meaning: str
    base: Any  # kamon.sim.metrics.Metric
    variant: Any


def plugin_metrics(b: Run, v: Run, summary: bool = True
                   ) -> tuple[list[Measure], list[str], list[MetricPair]]:
    """The game-level metrics: per-game values to test, notes, and the summary metrics of
    `kamon.sim.metrics.game_metrics` side by side.

    Tested per game (paired when the design is): the branching factor (`game_branching`)
    and, for each round r, the win share of the clans leading after round r
    (`round_leaders`, the metric `leader_after_round_r`). Games without them (older
    files: null) do not count. The first-player advantage is the turn-order win rate's
    difference; seat balance (max - min of rates) has no per-game value, so it is shown
    side by side only.
    """
    notes: list[str] = []
    measures: list[Measure] = []
    have = [name for name, _ in (("game_branching", 0), ("round_leaders", 0))
            if name in b.table.schema.names and name in v.table.schema.names]
    missing = [n for n in ("game_branching", "round_leaders") if n not in have
               and (n in b.table.schema.names or n in v.table.schema.names)]
    if missing:
        notes.append(f"{', '.join(missing)}: recorded in only one of the runs, not compared.")
    if "game_branching" in have:
        sb = b.per_game(_np(b.table, "game_branching").astype(float))
        sv = v.per_game(_np(v.table, "game_branching").astype(float))
        measures.append(("branching", "The mean legal moves per decision", sb, sv))
    if "round_leaders" in have:
        lb, lv = leader_shares(b), leader_shares(v)
        for r in range(min(len(lb), len(lv))):
            measures.append((f"leader after round {r + 1} wins",
                             f"The win share of the leader after round {r + 1}", lb[r],
                             lv[r]))
    if not summary:
        return measures, notes, []
    try:
        from kamon.sim.metrics import game_metrics
    except ImportError:  # the module is optional
        return measures, notes, []
    mb, mv = game_metrics(b.table), game_metrics(v.table)
    pairs = [MetricPair(name, str(getattr(mb[name], "meaning", "")), mb[name], mv[name])
             for name in mb if name in mv]
    return measures, notes, pairs


def leader_shares(run: Run) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each round r: per game, the win share of the clans leading after round r
    (k tied leaders count 1/k each), as (sum, count) per game (count 0: unknown)."""
    first = np.flatnonzero(run.first_rows)
    texts = run.table["round_leaders"].to_pylist()
    idx = np.searchsorted(run.games, run.ids)
    shares = _np(run.table, "win_share").astype(float)
    seats = _np(run.table, "seat").astype(int)
    share_of = {(int(g), int(s)): float(w) for g, s, w in zip(idx, seats, shares, strict=True)}
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for game, row in enumerate(first.tolist()):
        text = texts[row]
        if not text:
            continue
        for r, part in enumerate(str(text).split("|")):
            leaders = [int(x) for x in part.split(",") if x]
            if not leaders:
                continue
            while len(out) <= r:
                out.append((np.zeros(len(run.games)), np.zeros(len(run.games))))
            out[r][0][game] = sum(share_of.get((game, s), 0.0) for s in leaders) / len(leaders)
            out[r][1][game] = 1.0
    return out


# --- the comparison -------------------------------------------------------------------

def compare_tables(base: pa.Table, variant: pa.Table, base_name: str = "base",
                   variant_name: str = "variant", paired: bool | None = None,
                   alpha: float = ALPHA, summary: bool = True) -> Comparison:
    """Compare two results tables (variant minus base); `paired=False` forces the unpaired
    design, True requires the paired one, None pairs by game (seed, and rotation of the
    seats when the files have one) when the runs share most of their games.
    `summary=False` leaves out the side-by-side game metrics (shown, never tested: the
    calibration's many pages do not need them)."""
    check_comparable(base, variant, base_name, variant_name)
    meta = metadata_of(base.schema)
    game, players = str(meta["game"]), int(meta["players"])
    span = rotation_span(base, variant)
    all_b, all_v = np.unique(game_ids(base, span)), np.unique(game_ids(variant, span))
    common = paired_games(base, variant, span) if paired is not False else None
    notes: list[str] = []
    if paired and common is None:
        raise KamonError(f"{base_name} and {variant_name} do not share enough games (seeds, "
                         "with the same seats) for a paired comparison")
    why = ""
    if common is not None:
        design = "paired"
        b, v = Run.of(base, common, span), Run.of(variant, common, span)
        left = len(all_b) + len(all_v) - 2 * len(common)
        if left:
            notes.append(f"{left:,} games whose seed only one run played are left out of "
                         "the paired comparison.")
    else:
        design = "unpaired"
        b, v = Run.of(base, all_b, span), Run.of(variant, all_v, span)
        why = unpaired_reason(all_b, all_v, paired is False)
    wins, groups = win_families(b, v, design, game)
    per_game, game_notes, metric_pairs = game_family(b, v, design, summary)
    families = [*wins, *score_families(b, v, design), per_game, *groups]
    notes += game_notes
    findings = [f for fam in families for f in fam.findings]
    for f, adj in zip(findings, benjamini_hochberg([f.diff.p for f in findings]),
                      strict=True):
        f.p_adjusted = adj
        f.significant = adj < alpha
    return Comparison(base_name, variant_name, game, players, design, len(all_b), len(all_v),
                      len(common) if common is not None else 0,
                      key_differences(base, variant), families, notes, alpha, metric_pairs,
                      why)


def unpaired_reason(games_b: np.ndarray, games_v: np.ndarray, asked: bool) -> str:
    """Why a comparison is unpaired, in words."""
    shared = len(np.intersect1d(games_b, games_v))
    if asked:
        return (f"asked with --unpaired (the runs share {shared:,} games)" if shared else
                "asked with --unpaired")
    if shared == 0:
        return "the runs do not share their seeds"
    if shared >= max(2, PAIRED_SHARE * min(len(games_b), len(games_v))):
        return (f"the runs share {shared:,} seeds, but their seats differ in them "
                "(other agents' seats or rotations)")
    return (f"the runs share only {shared:,} of their games (seeds), fewer than "
            f"{PAIRED_SHARE:.0%} of the smaller run's")
