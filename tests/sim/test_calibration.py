"""The paired compare page keeps its promise (issue 39): of many A/A pages (two runs that
differ in nothing), at most 5% say that anything is "more than chance". The fast version
of bench/bench_calibration.py: 100 pages resampled from a small pre-simulated run of
I, Clansman with greedy players (tests/sim/data/clansman_greedy.parquet, made by
`kamon simulate clansman --agents greedy --seed 0`), whose rare missions raised the
false alarms."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kamon.core.errors import KamonError
from kamon.sim.calibration import aa_pair, calibrate, games_of
from kamon.sim.compare import compare_tables
from kamon.sim.results import key_of, read_results

POOL = Path(__file__).parent / "data" / "clansman_greedy.parquet"
PAGES, GAMES = 100, 50
TOLERANCE = 0.03  # 100 pages: a page-level rate of 5% shows as 5 +- 4.4 flagged pages


@pytest.fixture(scope="module")
def pool():  # type: ignore[no-untyped-def]
    """The pre-simulated greedy run."""
    return read_results(POOL)


def test_an_aa_page_is_paired_on_distinct_games(pool) -> None:  # type: ignore[no-untyped-def]
    """A page's two runs hold n distinct games each, none in both, under the seeds 0..n-1
    with the pool's run key: compare pairs them, as it would a real overlay run."""
    base, variant = aa_pair(pool, GAMES, np.random.default_rng(1))
    assert base["seed"].to_pylist() == variant["seed"].to_pylist()
    assert sorted(set(base["seed"].to_pylist())) == list(range(GAMES))
    assert key_of(base) == key_of(pool)
    scores = {tuple(r.values()) for r in base.select(["score_total", "seat"]).to_pylist()}
    assert scores != {tuple(r.values())
                      for r in variant.select(["score_total", "seat"]).to_pylist()}
    c = compare_tables(base, variant)
    assert c.design == "paired" and c.games_paired == GAMES and len(c.findings) > 40
    with pytest.raises(KamonError, match="needs"):
        aa_pair(pool, len(games_of(pool)), np.random.default_rng(1))


def test_paired_aa_pages_flag_at_most_five_percent(pool) -> None:  # type: ignore[no-untyped-def]
    """100 paired A/A pages: at most 5% (plus the tolerance of 100 pages) flag anything,
    and no rare card group is among their flags."""
    cal = calibrate(pool, PAGES, GAMES, seed=0)
    assert cal.design == "paired" and cal.pages == PAGES
    assert cal.share <= 0.05 + TOLERANCE, (cal.flagged, cal.flags)
    # the delta method's t flagged rare missions on 3 of these pages (514 twice, 411 once);
    # the swap test flags no card group on them
    assert not [k for k in cal.flags if k.startswith("by_")], cal.flags
