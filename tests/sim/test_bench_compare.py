"""The ladder benchmark's paired comparison of two logs (bench/bench_agents.py --compare)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bench_scripts import bench_module


def _log(path: Path, games: list[tuple[int, list[int], list[int]]]) -> None:
    """A solo ladder log: (seed, [hard, rival] scores, winners) per game."""
    path.write_text("".join(json.dumps({
        "index": i, "seed": seed, "rotation": 0, "agents": ["hard", "tokugawa (rival)"],
        "clans": ["blue", "tokugawa"], "scores": scores, "winners": winners,
        "decisions": [50, 0], "seconds": [1.0, 0.0]}) + "\n"
        for i, (seed, scores, winners) in enumerate(games)), encoding="utf-8")


def test_two_logs_are_compared_on_the_deals_both_played(tmp_path: Path) -> None:
    """Only shared deals count; each side's wins, the deals one side alone won, the
    sign test and the mean margin difference (B - A) with its interval."""
    bench = bench_module("bench_agents")
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _log(a, [(1, [50, 40], [0]), (2, [40, 50], [1]), (3, [45, 46], [1]), (9, [1, 99], [1])])
    _log(b, [(1, [52, 40], [0]), (2, [55, 50], [0]), (3, [50, 46], [0]), (7, [0, 9], [1])])
    c = bench.paired(a, b, "hard")
    assert (c.pairs, c.wins_a, c.wins_b, c.only_a, c.only_b) == (3, 1, 3, 0, 2)
    # margins A: +10, -10, -1; B: +12, +5, +4 -> differences 2, 15, 5
    assert c.margin_diff == pytest.approx(22 / 3)
    assert c.margin_half == pytest.approx(bench._t975(2) * (((2 - 22 / 3) ** 2 + (
        15 - 22 / 3) ** 2 + (5 - 22 / 3) ** 2) / 2 / 3) ** 0.5)
    assert c.sign_p == pytest.approx(0.5)  # 2 : 0 -> 2 * (1/4)
    other = tmp_path / "other.jsonl"
    _log(other, [(20, [50, 40], [0])])
    assert bench.paired(a, other, "hard") is None


def test_the_sign_test_and_the_t_quantile() -> None:
    """Exact two-sided binomial p; Student's t at 97.5% near the table's values."""
    bench = bench_module("bench_agents")
    assert bench._sign_p(0, 5) == pytest.approx(2 / 32)
    assert bench._sign_p(3, 3) == 1.0
    assert bench._sign_p(0, 0) == 1.0
    assert bench._t975(10) == pytest.approx(2.228, rel=0.005)
    assert bench._t975(30) == pytest.approx(2.042, rel=0.002)
