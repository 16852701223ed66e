"""Resumable results: a run killed mid-way keeps its finished batches, the same command
again plays only the missing seeds and writes the bytes an uninterrupted run writes; a
file or parts of another run are refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.sim.backends import LocalBackend
from kamon.sim.runner import SimSpec
from kamon.sim.simulation import parts_dir, plan_batches, run_simulation

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "160"}
GAMES, BATCH = 1500, 25
ARGS = ["simulate", "white-castle", "--players", "2", "--games", str(GAMES), "--seed", "7",
        "--batch-size", str(BATCH)]


def kill_once_parts_exist(out: Path, at_least: int = 3, limit: float = 120.0) -> int:
    """Start `kamon simulate` in a process, SIGKILL it once `at_least` batches are kept;
    the number of part files then."""
    env = {k: v for k, v in os.environ.items() if k != "KAMON_DATA_OVERLAY"}
    proc = subprocess.Popen([sys.executable, "-m", "kamon.cli", *ARGS, "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    parts = parts_dir(out)
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if parts.is_dir() and len(list(parts.glob("seeds-*.parquet"))) >= at_least:
                proc.send_signal(signal.SIGKILL)
                break
            time.sleep(0.01)
    finally:
        if proc.poll() is None and time.monotonic() >= deadline:
            proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    return len(list(parts.glob("seeds-*.parquet")))


def test_a_killed_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    """SIGKILL mid-run: no output yet, the finished batches kept; the rerun plays the rest
    and its file is byte-identical to an uninterrupted run's."""
    out = tmp_path / "r.parquet"
    kept = kill_once_parts_exist(out)
    assert not out.exists() and kept >= 3
    assert kept * BATCH < GAMES, "every batch finished: nothing was interrupted"
    res = CliRunner(env=ENV).invoke(app, [*ARGS, "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert f"Resuming: {kept * BATCH} of the {GAMES} games are already in" in res.output
    assert f"{GAMES - kept * BATCH} played now, {kept * BATCH} already there" in res.output
    assert not parts_dir(out).exists()  # merged, then removed
    whole = tmp_path / "whole.parquet"
    run_simulation(SimSpec("white-castle", 2, ("random", "random"), {}), 7, GAMES,
                   LocalBackend(1), whole, size=500)
    assert out.read_bytes() == whole.read_bytes()


def test_a_damaged_kept_batch_is_set_aside_and_played_again(tmp_path: Path) -> None:
    """A part file cut short (a disk error) does not stop the resume with an Arrow error:
    it is moved aside, said, and its games played again; the file equals a whole run's."""
    out = tmp_path / "r.parquet"
    kept = kill_once_parts_exist(out)
    part = sorted(parts_dir(out).glob("seeds-*.parquet"))[0]
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])
    res = CliRunner(env=ENV).invoke(app, [*ARGS, "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert f"could not be read ({part.name}): moved aside" in res.output
    assert f"Resuming: {(kept - 1) * BATCH} of the {GAMES} games" in res.output
    whole = tmp_path / "whole.parquet"
    run_simulation(SimSpec("white-castle", 2, ("random", "random"), {}), 7, GAMES,
                   LocalBackend(1), whole, size=500)
    assert out.read_bytes() == whole.read_bytes()


def test_a_longer_rerun_plays_only_the_new_seeds(tmp_path: Path) -> None:
    """Seeds 0-19 kept; asking for 0-29 plays 10 games and merges them in seed order."""
    spec = SimSpec("white-castle", 2, ("random", "random"), {})
    out = tmp_path / "r.csv"
    first = run_simulation(spec, 0, 20, LocalBackend(1), out)
    assert first.played == 20 and first.resumed == 0
    again = run_simulation(spec, 0, 30, LocalBackend(1), out)
    assert again.played == 10 and again.resumed == 20
    assert [s for f, c in again.batches for s in range(f, f + c)] == list(range(20, 30))
    assert run_simulation(spec, 5, 10, LocalBackend(1), out).played == 0
    seeds = again.table["seed"].to_pylist()
    assert seeds == sorted(seeds) and len(seeds) == 60 and set(seeds) == set(range(30))


def test_results_of_another_run_are_refused(tmp_path: Path) -> None:
    """Same --out, other agents: a clear refusal naming both runs; the file unchanged."""
    out = tmp_path / "r.parquet"
    run_simulation(SimSpec("white-castle", 2, ("random", "random"), {}), 0, 4,
                   LocalBackend(1), out)
    before = out.read_bytes()
    res = CliRunner(env=ENV).invoke(app, ["simulate", "white-castle", "--players", "2",
                                          "--games", "4", "--agents", "greedy,random",
                                          "--out", str(out)])
    assert res.exit_code == 2
    assert "holds results of white-castle, 2 players, agents random,random" in res.output
    assert "agents greedy,random" in res.output
    assert out.read_bytes() == before


def test_parts_of_another_run_are_refused(tmp_path: Path) -> None:
    """Unfinished parts of a 3-player run block a 2-player run writing the same file."""
    out = tmp_path / "r.parquet"
    parts = parts_dir(out)
    parts.mkdir()
    (parts / "run.json").write_text('{"game": "white-castle", "players": 3, "options": "{}",'
                                    ' "agents": ["random", "random", "random"]}')
    with pytest.raises(KamonError, match="unfinished run of white-castle, 3 players"):
        run_simulation(SimSpec("white-castle", 2, ("random",) * 2, {}), 0, 2,
                       LocalBackend(1), out)
    assert not out.exists()


def test_batches_are_runs_of_consecutive_seeds() -> None:
    """Missing seeds 0-4, 7, 9-11 in batches of at most 3."""
    assert plan_batches([0, 1, 2, 3, 4, 7, 9, 10, 11], 3) == [(0, 3), (3, 2), (7, 1), (9, 3)]


def test_jsonl_records_come_in_seed_order_from_a_pool(tmp_path: Path) -> None:
    """Records from 2 processes and small batches are written in seed order."""
    out = tmp_path / "g.jsonl"
    res = CliRunner(env=ENV).invoke(app, ["simulate", "white-castle", "--players", "2",
                                          "--games", "12", "--seed", "3", "--jobs", "2",
                                          "--batch-size", "2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    seeds = [json.loads(line)["seed"] for line in out.read_text().splitlines()]
    assert seeds == list(range(3, 15))
