"""bench/baselines.py end to end in its quick mode (issue 40): MaskablePPO trains on the
frozen id through kamon.rl.sb3, its learning curve and the ratings table are written with
sane values, the policy (a plug-in agent in the table) is saved small."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "baselines.py"


def _rows(path: Path) -> list[dict[str, str]]:
    """A CSV file's rows as dicts."""
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The quick run's output folder (the script run once, as a user runs it)."""
    out = tmp_path_factory.mktemp("baselines")
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "KAMON_TORCH_THREADS": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "| The White Castle | normal |" in done.stdout
    return out


def test_curve_written_with_intervals(quick: Path) -> None:
    """One curve row per checkpoint and opponent, the win rate inside its Wilson interval."""
    rows = _rows(quick / "curve.csv")
    assert [(int(r["steps"]), r["opponent"]) for r in rows] == [(256, "random"),
                                                                (512, "random")]
    for r in rows:
        assert r["game"] == "white-castle" and int(r["games"]) == 4
        lo, rate, hi = float(r["lo"]), float(r["win_rate"]), float(r["hi"])
        assert 0.0 <= lo <= rate <= hi <= 1.0
        assert rate == pytest.approx(float(r["wins"]) / 4)
    assert (quick / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ratings_table(quick: Path) -> None:
    """Every agent meets every other on the same deals; normal beats random (greedy against
    uniform moves in The White Castle) and is rated above it; rows best ordinal first."""
    table = _rows(quick / "table.csv")
    assert {r["agent"] for r in table} == {"random", "normal", "ppo"}
    assert all(int(r["games"]) == 8 for r in table)  # two opponents, four games each
    ordinals = [float(r["ordinal"]) for r in table]
    assert ordinals == sorted(ordinals, reverse=True)
    assert sum(float(r["wins"]) for r in table) == pytest.approx(12)  # 12 games, one winner
    by = {r["agent"]: r for r in table}
    assert float(by["normal"]["ordinal"]) > float(by["random"]["ordinal"])
    pairs = {(r["agent"], r["opponent"]): r for r in _rows(quick / "pairs.csv")}
    assert set(pairs) == {("random", "normal"), ("random", "ppo"), ("normal", "ppo")}
    assert float(pairs[("random", "normal")]["wins"]) <= 1  # of 4: normal won 3 or more


def test_policy_shipped_small(quick: Path) -> None:
    """The trained policy is a MaskablePPO zip of a few hundred KB (the table played it as
    a plug-in agent); the summary names the frozen id and its version."""
    policy = quick / "white-castle" / "ppo.zip"
    assert 10_000 < policy.stat().st_size < 500_000
    summary = json.loads((quick / "summary.json").read_text(encoding="utf-8"))
    assert summary["envs"]["white-castle"]["id"] == "kamon/WhiteCastle-v0"
    assert summary["envs"]["white-castle"]["version"] == 0
    assert summary["cpu_seconds"]["total"] > 0
