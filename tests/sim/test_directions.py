"""Every statistic of the compare page (and of the report's side-by-side metrics) points the
right way: results built with a known effect of the variant over the base must come out
positive (variant - base), and negative with the runs swapped, in both designs.

Paired (the same seeds): the paired t (win rate and mean score by seat, turn order,
agent, starting pair; length, margin, shared wins, branching, the round leader's wins)
and the paired ratio (score categories over every clan, a castle card held by one or two
clans a game). Unpaired (other seeds): Newcombe's interval and the two-proportion z test
(rates), Welch's t (means). Then the Benjamini-Hochberg verdict, the page's sign, colour
and sentence, and the game-level metrics (Wilson intervals, the chi-square of seat
balance, normal intervals of means) and the report's Wilson bars.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from kamon.sim.analysis import seat_chart
from kamon.sim.compare import Comparison, Finding, compare_tables
from kamon.sim.compare_report import _colour, table_of
from kamon.sim.metrics import game_metrics
from kamon.sim.report import ABOVE, BELOW
from kamon.sim.results import SCORE_PREFIX, RunKey, schema_for
from kamon.sim.results import table_of as results_table

GAMES = 200
CATEGORIES = ("gardeners", "warriors", "total")


@pytest.fixture(scope="module")
def schema() -> pa.Schema:
    """A 2-player White Castle results schema (its feature columns included)."""
    return schema_for(RunKey("white-castle", 2, "{}", ("strong", "weak")), CATEGORIES)


def results(schema: pa.Schema, first: int, effect: bool) -> pa.Table:
    """GAMES games from seed `first`, each drawn from its own seed (so two runs of the same
    seeds share every game's luck). The variant (`effect`) changes, all in its favour:
    seat 1 ('strong', the first player, the 'gold' start and castle card 'x') wins 85%
    instead of 50%; margins +15; shared wins 25% instead of 5%; gardeners +8 per clan;
    games +20 decisions; branching +2; the leader after each round wins 90% not 40%."""
    rows: list[dict[str, Any]] = []
    for seed in range(first, first + GAMES):
        rng = np.random.default_rng(seed)
        seat1_wins = rng.random() < (0.85 if effect else 0.5)
        shared = rng.random() < (0.25 if effect else 0.05)
        loser = 40 + int(rng.integers(0, 20))
        margin = 0 if shared else int(rng.integers(1, 10)) + (15 if effect else 0)
        winners = {1, 2} if shared else {1 if seat1_wins else 2}
        leaders = "|".join(str(w if rng.random() < (0.9 if effect else 0.4) else 3 - w)
                           for w in (min(winners), min(winners), min(winners)))
        decisions = 100 + int(rng.integers(0, 20)) + (20 if effect else 0)
        branching = 5 + float(rng.random()) + (2 if effect else 0)
        both_hold_x = seed % 3 == 0
        for seat in (1, 2):
            won = seat in winners
            row: dict[str, Any] = {
                "game": "white-castle", "players": 2, "options": "{}", "seed": seed,
                "seat": seat, "colour": "blue" if seat == 1 else "red",
                "agent": "strong" if seat == 1 else "weak",
                "placement": 1 if won else 2, "winner": won,
                "win_share": 1 / len(winners) if won else 0.0,
                "decisions": decisions // 2, "game_decisions": decisions,
                "seating": "fixed", "rotation": 0, "game_branching": branching,
                "round_leaders": leaders,
                SCORE_PREFIX + "gardeners": int(rng.integers(0, 10)) + (8 if effect else 0),
                SCORE_PREFIX + "warriors": int(rng.integers(0, 10)),
                SCORE_PREFIX + "total": loser + (margin if won else 0),
            }
            for name, field in zip(schema.names, schema.types, strict=True):
                if name not in row:
                    row[name] = 0 if pa.types.is_integer(field) else ""
            row["turn_position"] = seat
            row["start_pair"] = "gold" if seat == 1 else "silver"
            row["castle_cards"] = "x" if seat == 1 or both_hold_x else "y"
            rows.append(row)
    return results_table(rows, schema)


# (family, subject, the test the paired design uses, sign of variant - base)
EXPECTED = [
    ("seat", "seat 1 (blue)", "paired t", +1), ("seat", "seat 2 (red)", "paired t", -1),
    ("turn", "1st player", "paired t", +1), ("turn", "2nd player", "paired t", -1),
    ("agent", "strong", "paired t", +1), ("agent", "weak", "paired t", -1),
    ("by_start_pair", "gold", "paired t", +1), ("by_start_pair", "silver", "paired t", -1),
    ("by_castle_cards", "x", "paired ratio (delta method)", +1),
    ("seat_score", "seat 1 (blue)", "paired t", +1),  # (seat 2: fewer wins, wider margins)
    ("scores", "gardeners", "paired ratio (delta method)", +1),
    ("game", "length (decisions)", "paired t", +1),
    ("game", "margin of victory", "paired t", +1),
    ("game", "shared wins", "paired t", +1),
    ("game", "branching", "paired t", +1),
    ("game", "leader after round 1 wins", "paired t", +1),
]
UNPAIRED = {"rate": "two-proportion z", "mean": "Welch t"}


@pytest.fixture(scope="module")
def runs(schema: pa.Schema) -> dict[str, pa.Table]:
    """Base and variant on seeds 0.. (paired), and the variant on seeds 10000.. (unpaired)."""
    return {"base": results(schema, 0, False), "variant": results(schema, 0, True),
            "other": results(schema, 10_000, True)}


def found(c: Comparison, family: str, subject: str) -> Finding:
    """The finding of a family and subject (it must be there)."""
    hits = [f for f in c.findings if f.family == family and f.subject == subject]
    assert hits, f"no {subject} in {family}: {[(f.family, f.subject) for f in c.findings]}"
    return hits[0]


def check(f: Finding, sign: int) -> None:
    """The difference, its interval, its verdict and the page's rendering all say `sign`."""
    d = f.diff
    assert np.sign(d.estimate) == sign and np.sign(f.variant - f.base) == sign, f
    assert (d.low > 0) if sign > 0 else (d.high < 0), (f.family, f.subject, d)
    assert d.low <= d.estimate <= d.high
    assert d.p < 0.01 and f.significant and f.p_adjusted < 0.05
    assert _colour(f) == (ABOVE if sign > 0 else BELOW)
    assert f.diff_text().startswith("+" if sign > 0 else "-")
    assert f.sentence().endswith("more than chance.")


@pytest.mark.parametrize("swap", [False, True], ids=["variant-base", "base-variant"])
@pytest.mark.parametrize("design", ["paired", "unpaired"])
def test_a_known_effect_comes_out_with_its_sign(runs: dict[str, pa.Table], design: str,
                                               swap: bool) -> None:
    """Every finding the effect touches has the effect's sign (reversed when the runs are
    swapped), by the test its design calls for; warriors (untouched) are within chance."""
    base, variant = runs["base"], runs["variant" if design == "paired" else "other"]
    if swap:
        base, variant = variant, base
    c = compare_tables(base, variant)
    assert c.design == design
    for family, subject, method, sign in EXPECTED:
        f = found(c, family, subject)
        kind = f.kind
        assert f.diff.method == (method if design == "paired" else UNPAIRED[kind]), f
        check(f, -sign if swap else sign)
    assert not found(c, "scores", "warriors").significant
    rows = {r[0]: r for r in table_of(next(fam for fam in c.families if fam.key == "seat"))[1]}
    assert rows["seat 1 (blue)"][3].startswith("-" if swap else "+")


@pytest.mark.parametrize("swap", [False, True], ids=["variant-base", "base-variant"])
def test_game_metrics_and_report_bars_point_the_same_way(runs: dict[str, pa.Table],
                                                         swap: bool) -> None:
    """The side-by-side metrics of the compare page and the report's seat bars: the run
    with the effect has the higher first-player advantage (Wilson intervals apart), the
    less balanced seats (a smaller chi-square p), the longer games, wider margins, more
    shared wins, more branching and a leader who wins more; the plain run the reverse."""
    strong, plain = runs["variant"], runs["base"]
    if swap:
        strong, plain = plain, strong
    ms, mp = game_metrics(strong), game_metrics(plain)
    higher = ["first_player_advantage", "seat_balance", "margin", "drawishness", "length",
              "branching", "leader_after_round_1", "leader_after_round_3"]
    for name in higher:
        a, b = ms[name], mp[name]
        assert a.value is not None and b.value is not None
        assert (a.value > b.value) != swap, (name, a.value, b.value)
        if a.ci_low is not None and a.ci_high is not None:  # its interval: apart
            assert b.ci_low is not None and b.ci_high is not None
            assert (a.ci_high < b.ci_low) if swap else (a.ci_low > b.ci_high), name
    p_strong, p_plain = ms["seat_balance"].detail["p_value"], mp["seat_balance"].detail["p_value"]
    assert (p_strong < p_plain) != swap
    bars_s = seat_chart(strong, GAMES, 2).bars
    bars_p = seat_chart(plain, GAMES, 2).bars
    assert (bars_s[0].rate > bars_p[0].rate) != swap
    assert (bars_s[0].interval[0] > bars_p[0].interval[1]) != swap
