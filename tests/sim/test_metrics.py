"""Game-level metrics: pinned on a hand-made results table, the game-level columns checked
against games replayed by hand, old (version 1) files still reported with those metrics
unavailable, and the report's section in HTML and Markdown."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kamon.games import get_game
from kamon.sim.analysis import analyse
from kamon.sim.backends import LocalBackend
from kamon.sim.metrics import chi2_sf, game_metrics, margin_histogram, round_leaders
from kamon.sim.report import write_report
from kamon.sim.results import GAME_COLUMNS, META_KEY, read_results, write_results
from kamon.sim.runner import SimSpec, play_seed
from kamon.sim.simulation import run_simulation
from kamon.sim.stats import wilson

WC = SimSpec("white-castle", 4, ("random",) * 4, {})
CS = SimSpec("clansman", 4, ("random",) * 4, {})
SOLO = SimSpec("white-castle", 1, ("random",), {"difficulty": "easy"})

# Eight 2-clan games: (seat 1 total, seat 2 total, winners, decisions, branching, leaders).
# Seat 1 is always first in turn order. Game 2 is tied on points and won on a tie-break,
# game 5 is tied and shared.
GAMES: list[tuple[int, int, list[int], int, float, str]] = [
    (10, 5, [1], 100, 2.0, "1|1"),
    (12, 10, [1], 110, 3.0, "2|1"),
    (8, 8, [1], 120, 4.0, "1,2|1,2"),
    (7, 9, [2], 130, 5.0, "1|2"),
    (20, 10, [1], 140, 2.0, "2|1"),
    (9, 9, [1, 2], 150, 3.0, "1|1,2"),
    (15, 14, [1], 160, 4.0, "1|1"),
    (6, 11, [2], 170, 5.0, "2|2"),
]


def hand_table(games: list[tuple[int, int, list[int], int, float, str]] = GAMES,
               game_columns: bool = True) -> pa.Table:
    """The hand-made games as result rows (only the columns the metrics read)."""
    rows: list[dict[str, Any]] = []
    for seed, (t1, t2, won, steps, branch, leaders) in enumerate(games):
        for seat, total in ((1, t1), (2, t2)):
            row = {"seed": seed, "seat": seat, "turn_position": seat, "winner": seat in won,
                   "win_share": 1 / len(won) if seat in won else 0.0, "score_total": total,
                   "game_decisions": steps}
            if game_columns:
                row |= {"game_branching": branch, "round_leaders": leaders}
            rows.append(row)
    return pa.Table.from_pylist(rows)


def test_first_player_advantage_is_the_first_players_rate_minus_the_fair_share() -> None:
    """Seat 1 (first) wins 5.5 of 8 (one shared win): +18.75 points over an even 50%."""
    m = game_metrics(hand_table())["first_player_advantage"]
    lo, hi = wilson(5.5, 8)
    assert m.value == pytest.approx(5.5 / 8 - 0.5)
    assert (m.ci_low, m.ci_high) == pytest.approx((lo - 0.5, hi - 0.5))
    assert m.games == 8 and m.detail["fair"] == pytest.approx(0.5)


def test_seat_balance_is_the_rate_spread_with_a_chi_square_test() -> None:
    """5.5 against 2.5 wins: 37.5 points apart; chi-square 1.125 on 1 df, p = 0.289."""
    m = game_metrics(hand_table())["seat_balance"]
    assert m.value == pytest.approx(0.375)
    assert m.detail["chi2"] == pytest.approx(1.125) and m.detail["df"] == 1
    assert m.detail["p_value"] == pytest.approx(math.erfc(math.sqrt(1.125 / 2)))
    assert m.detail["p_value"] == pytest.approx(0.2888, abs=1e-4)


def test_margin_distribution_mean_quartiles_and_histogram() -> None:
    """Margins 5, 2, 0, 2, 10, 0, 1, 5: mean 3.125, quartiles 0.75 / 2 / 5, two ties."""
    table = hand_table()
    m = game_metrics(table)["margin"]
    values = np.array([5, 2, 0, 2, 10, 0, 1, 5], dtype=float)
    half = 1.959963984540054 * values.std(ddof=1) / math.sqrt(8)
    assert m.value == pytest.approx(3.125) and m.games == 8
    assert (m.ci_low, m.ci_high) == pytest.approx((3.125 - half, 3.125 + half))
    assert (m.detail["q1"], m.detail["median"], m.detail["q3"]) == pytest.approx((0.75, 2, 5))
    assert m.detail["min"] == 0 and m.detail["max"] == 10 and m.detail["zero"] == 0.25
    assert margin_histogram(table) == {0: 2, 1: 1, 2: 2, 5: 2, 10: 1}


def test_leader_after_round_r_wins_with_tied_leaders_sharing() -> None:
    """Round 1: 4 of 8 (a tie counts half); round 2: 7 of 8."""
    metrics = game_metrics(hand_table())
    r1, r2 = metrics["leader_after_round_1"], metrics["leader_after_round_2"]
    assert "leader_after_round_3" not in metrics
    assert r1.value == pytest.approx(0.5) and r2.value == pytest.approx(0.875)
    assert (r2.ci_low, r2.ci_high) == pytest.approx(wilson(7, 8))
    assert r1.games == r2.games == 8 and r1.detail["fair"] == pytest.approx(0.5)


def test_drawishness_length_and_branching() -> None:
    """One shared win and one tie-break in 8; lengths 100..170; branching 2-5."""
    metrics = game_metrics(hand_table())
    d = metrics["drawishness"]
    assert d.value == pytest.approx(1 / 8) and (d.ci_low, d.ci_high) == pytest.approx(
        wilson(1, 8))
    assert d.detail["tie_broken"] == pytest.approx(1 / 8)
    n = metrics["length"]
    steps = np.arange(100, 171, 10, dtype=float)
    assert n.value == pytest.approx(135) and n.detail["sd"] == pytest.approx(steps.std(ddof=1))
    assert (n.detail["q1"], n.detail["median"], n.detail["q3"]) == pytest.approx(
        (117.5, 135, 152.5))
    b = metrics["branching"]
    assert b.value == pytest.approx(3.5) and b.games == 8
    assert b.detail["per_decision"] == pytest.approx(3880 / 1080)


def test_games_without_the_columns_count_out_and_all_missing_is_unavailable() -> None:
    """Null game-level values drop out of the games; none at all: unavailable, 0 games."""
    table = hand_table()
    blank = pa.array([None] * 4 + [2.0] * 12, pa.float64())
    part = table.set_column(table.schema.get_field_index("game_branching"),
                            "game_branching", blank)
    assert game_metrics(part)["branching"].games == 6
    old = game_metrics(hand_table(game_columns=False))
    assert not old["branching"].available and old["branching"].games == 0
    assert not old["leader_after_round"].available
    assert old["margin"].value == pytest.approx(3.125)  # the rest still known


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5])
def test_chi_square_tail_matches_scipy(df: int) -> None:
    """The closed-form chi-square survival function against scipy's."""
    stats = pytest.importorskip("scipy.stats")
    for x in (0.1, 1.0, 3.84, 7.5, 20.0):
        assert chi2_sf(x, df) == pytest.approx(float(stats.chi2.sf(x, df)), rel=1e-9)


def replay_trace(spec: SimSpec, seed: int) -> tuple[float, list[list[int]]]:
    """The game of a seed replayed from its action history on a fresh state: mean legal
    moves per decision, and the leaders whenever `round` moves on and at the end."""
    game = get_game(spec.game)
    state = game.new_game(spec.players, seed, **spec.options)
    played = play_again(spec, seed)
    counts: list[int] = []
    leaders: list[list[int]] = []
    for aid in played:
        counts.append(len(state.legal_actions()))
        before = state.round  # type: ignore[attr-defined]
        state.apply(aid)
        for _ in range(before, state.round):  # type: ignore[attr-defined]
            leaders.append(top(state))
    leaders.append(top(state))
    assert state.is_over()
    return sum(counts) / len(counts), leaders


def play_again(spec: SimSpec, seed: int) -> list[int]:
    """The action ids of the seed's game, from the bots played again by hand."""
    from kamon.agents import agent_seed, make_agent

    state = get_game(spec.game).new_game(spec.players, seed, **spec.options)
    bots = [make_agent(a, agent_seed(seed, p)) for p, a in enumerate(spec.agents)]
    while not state.is_over():
        state.apply(bots[state.to_move].act(state))
    return list(state.history)


def top(state: Any) -> list[int]:
    """Seats (1..) with the highest total now."""
    totals = [s["total"] for s in state.scores()]
    return [q + 1 for q, t in enumerate(totals) if t == max(totals)]


@pytest.mark.parametrize("spec, seed, rounds", [(WC, 5, 3), (WC, 6, 3), (CS, 2, 16),
                                                (SOLO, 3, 3)])
def test_game_columns_match_a_replay_of_the_game(spec: SimSpec, seed: int, rounds: int
                                                 ) -> None:
    """Branching and round leaders on every row equal a replay of the action history."""
    rows, _ = play_seed(spec, seed)
    branching, leaders = replay_trace(spec, seed)
    assert [r["game_branching"] for r in rows] == pytest.approx([branching] * len(rows))
    assert len({r["round_leaders"] for r in rows}) == 1
    got = round_leaders(rows[0]["round_leaders"])
    assert got == leaders and len(got or []) == rounds
    best = max(r["score_total"] for r in rows)
    assert got is not None and got[-1] == [r["seat"] for r in rows if r["score_total"] == best]
    assert branching > 1


def v1_file(table: pa.Table, path: Path) -> None:
    """A results table written as an older kamon did: no game-level columns, version 1."""
    meta = json.loads(table.schema.metadata[META_KEY])
    meta["version"] = 1
    old = table.drop_columns([n for n, _ in GAME_COLUMNS])
    old = old.replace_schema_metadata({META_KEY: json.dumps(meta).encode()})
    pq.write_table(old, path)


def test_an_old_file_reports_with_those_metrics_unavailable_and_resumes(
        tmp_path: Path) -> None:
    """A version 1 file reports (branching, leaders: unavailable); more games added to it
    keep nulls for the old games and values for the new, and the metrics count the new."""
    first = tmp_path / "first.parquet"
    run_simulation(WC, 0, 4, LocalBackend(1), first)
    old = tmp_path / "old.parquet"
    v1_file(read_results(first), old)
    table = read_results(old)
    assert "game_branching" not in table.schema.names
    done = write_report(old, tmp_path / "old.html")
    md = done.markdown.read_text()
    assert "## Game-level metrics" in md
    assert "| branching factor | unavailable |" in md
    assert "| leader after round r | unavailable |" in md
    assert "| length | " in md and "| 4 |" in md
    run_simulation(WC, 0, 7, LocalBackend(1), old)
    grown = read_results(old)
    assert json.loads(grown.schema.metadata[META_KEY])["version"] == 2
    per_seed = {r["seed"]: r["game_branching"] for r in grown.to_pylist()}
    assert [per_seed[s] is None for s in range(7)] == [True] * 4 + [False] * 3
    metrics = game_metrics(grown)
    assert metrics["branching"].games == 3 and metrics["leader_after_round_3"].games == 3
    assert metrics["length"].games == 7
    as_csv = tmp_path / "grown.csv"  # CSV: the unknown leaders read back as empty text
    write_results(grown, as_csv)
    again = game_metrics(read_results(as_csv))
    assert {k: (m.value, m.games) for k, m in again.items()} == {
        k: (m.value, m.games) for k, m in metrics.items()}
    old_csv = tmp_path / "old.csv"
    write_results(table, old_csv)
    assert not analyse(read_results(old_csv)).metrics["branching"].available


def test_the_report_has_the_game_level_section_in_html_and_markdown(tmp_path: Path) -> None:
    """Section, figure, a row per metric (leader after rounds 1-3) in both formats."""
    out = tmp_path / "r.csv"
    run_simulation(WC, 10, 12, LocalBackend(1), out)
    done = write_report(out, tmp_path / "r.html")
    page = done.html.read_text()
    md = done.markdown.read_text()
    section = page[page.index('<section id="game_metrics">'):]
    assert "<h2>Game-level metrics</h2>" in section and "data:image/png;base64," in section
    names = ["first-player advantage", "balance across seats", "winning margin",
             "drawishness (shared wins)", "length", "branching factor",
             "leader after round 1", "leader after round 2", "leader after round 3"]
    for name in names:
        assert f"<td>{name}</td>" in section
        assert f"| {name} | " in md
    assert "unavailable" not in md
    metrics = analyse(read_results(out)).metrics
    assert all(m.games == 12 for m in metrics.values())
    md_section = md[md.index("## Game-level metrics"):]
    assert f"| length | {metrics['length'].value:.2f} decisions |" in md_section
