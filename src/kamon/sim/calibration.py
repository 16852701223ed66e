"""Calibration of `kamon compare`: how often a page of two runs that differ in nothing (an
A/A comparison) says that something is "more than chance". The page's rule (Benjamini-
Hochberg at 5% over every test of the page) promises at most 5% such pages.

A paired A/A page is made by resampling one run's games: 2n distinct games drawn at
random, the first n as the base and the last n as the variant, each given the seeds
0..n-1 in draw order, so that `kamon compare` pairs game i of the base with game i of the
variant. The pairs are independent games of the same rules and agents: exactly what a
paired comparison with no effect looks like (the deal's luck does not cancel, which only
makes the paired tests wider, not less valid). Unpaired A/A pages give the variant the
seeds n..2n-1. Pages drawn from one pool share games, so their flags are not quite
independent: the interval printed for the share of flagged pages is a little narrow.

The pool should have one agent in every seat (or fixed seats): its rotations are
dropped (rotation 0 everywhere), which keeps the seats' agents only then.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from kamon.core.errors import KamonError
from kamon.sim.compare import compare_tables
from kamon.sim.stats import wilson


@dataclass
class Calibration:
    """The outcome of many A/A pages: how many flagged anything, and what."""

    pages: int
    flagged: int
    design: str  # "paired" or "unpaired"
    games: int  # games on each side of a page
    tests: int  # tests on a page (the last one)
    flags: dict[str, int] = field(default_factory=dict)  # 'family: subject' -> pages

    @property
    def share(self) -> float:
        """The share of pages that flagged something."""
        return self.flagged / self.pages if self.pages else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of that share."""
        return wilson(self.flagged, self.pages)


def games_of(table: pa.Table) -> np.ndarray:
    """The distinct games (seeds, rotations folded in) of a results table, sorted."""
    ids = game_keys(table)
    return np.unique(ids)


def game_keys(table: pa.Table) -> np.ndarray:
    """Each row's game as one integer (seed * 1,000 + rotation)."""
    seeds = np.asarray(table["seed"].to_numpy(zero_copy_only=False), dtype=np.int64)
    if "rotation" not in table.schema.names:
        return seeds * 1000
    rot = np.asarray(table["rotation"].to_numpy(zero_copy_only=False), dtype=np.int64)
    return seeds * 1000 + rot


def relabel(table: pa.Table, games: np.ndarray, first_seed: int) -> pa.Table:
    """The rows of these games (in this order), given the seeds first_seed, first_seed+1..
    and rotation 0; the schema (and its run key) kept."""
    keys = game_keys(table)
    order = np.argsort(games, kind="stable")
    pos = np.searchsorted(games[order], keys)
    pos = np.clip(pos, 0, len(games) - 1)
    inside = games[order][pos] == keys
    rows = np.flatnonzero(inside)
    new_seed = first_seed + order[pos[rows]]
    seats = np.asarray(table["seat"].to_numpy(zero_copy_only=False))[rows]
    rows = rows[np.lexsort((seats, new_seed))]
    sub = table.take(pa.array(rows))
    seed_col = pa.array(np.sort(new_seed), type=table.schema.field("seed").type)
    sub = sub.set_column(sub.schema.get_field_index("seed"), table.schema.field("seed"),
                         seed_col)
    if "rotation" in sub.schema.names:
        i = sub.schema.get_field_index("rotation")
        sub = sub.set_column(i, table.schema.field("rotation"),
                             pa.array(np.zeros(sub.num_rows, dtype=np.int64),
                                      type=table.schema.field("rotation").type))
    return sub.replace_schema_metadata(table.schema.metadata)


def aa_pair(table: pa.Table, n: int, rng: np.random.Generator, paired: bool = True
            ) -> tuple[pa.Table, pa.Table]:
    """One A/A page's two runs: 2n distinct games of the pool, as base and variant."""
    games = games_of(table)
    if 2 * n > len(games):
        raise KamonError(f"an A/A page of {n} games a side needs {2 * n} games; the pool "
                         f"holds {len(games)}")
    drawn = rng.choice(games, size=2 * n, replace=False)
    base = relabel(table, drawn[:n], 0)
    variant = relabel(table, drawn[n:], 0 if paired else n)
    return base, variant


def calibrate(table: pa.Table, pages: int, n: int, seed: int = 0, paired: bool = True
              ) -> Calibration:
    """Compare `pages` A/A pages of n games a side drawn from the pool; count the pages
    with any finding "more than chance", and which findings they were."""
    rng = np.random.default_rng(seed)
    flagged, tests = 0, 0
    flags: dict[str, int] = {}
    design = "paired" if paired else "unpaired"
    for _ in range(pages):
        base, variant = aa_pair(table, n, rng, paired)
        c = compare_tables(base, variant, paired=paired, summary=False)
        design, tests = c.design, len(c.findings)
        if c.significant:
            flagged += 1
            for f in c.significant:
                name = f"{f.family}: {f.subject}"
                flags[name] = flags.get(name, 0) + 1
    return Calibration(pages, flagged, design, n, tests, flags)
