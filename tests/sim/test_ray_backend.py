"""The same seeds give the same bytes from one process, a local pool and a real local Ray
(2 CPUs, started once); a Ray worker killed mid-batch is retried and its
batch counted once; tournaments on Ray, their results data and a sweep the same bytes as
locally; a clear message when Ray is missing."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.sim.backends import LocalBackend, open_backend
from kamon.sim.ray_backend import RayBackend
from kamon.sim.runner import SimSpec
from kamon.sim.simulation import run_simulation
from kamon.sim.tournament import run_tournament

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "160"}
SPEC = SimSpec("white-castle", 3, ("random",) * 3, {})
GAMES, FIRST = 90, 500


def digest(path: Path) -> str:
    """A file's SHA-256."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def same_bytes_from_every_backend(reference: Path, tmp_path: Path) -> None:
    """Local 2 jobs (other batches) and Ray on 2 CPUs write the bytes one process wrote."""
    two = tmp_path / "two.parquet"
    with open_backend("local", 2) as pool:
        done = run_simulation(SPEC, FIRST, GAMES, pool, two, size=7)
    assert done.played == GAMES and len(done.batches) == 13
    on_ray = tmp_path / "ray.parquet"
    backend = RayBackend(cpus=2)
    assert backend.workers == 2 and not backend._owned  # the test's Ray, reused
    done = run_simulation(SPEC, FIRST, GAMES, backend, on_ray, size=11)
    backend.close()
    assert done.played == GAMES
    assert digest(two) == digest(reference) == digest(on_ray)
    table = pq.read_table(on_ray)
    assert table.num_rows == 3 * GAMES
    assert sorted(set(table["seed"].to_pylist())) == list(range(FIRST, FIRST + GAMES))


def killed_worker_is_retried_and_counted_once(reference: Path, tmp_path: Path) -> None:
    """A plug-in agent in seat 1 (`crash_once_agent.CrashOnce`: random, but it kills its
    worker once, os._exit, a few games into a batch); Ray reruns the batch; every game is
    counted once and every row but the agent's name equals the reference's."""
    plugin = tmp_path / "crash" / "crash_once_agent.py"
    plugin.parent.mkdir()
    shutil.copy(Path(__file__).with_name("crash_once_agent.py"), plugin)
    marker = plugin.with_name("crashed")
    crasher = f"{plugin}:CrashOnce"
    spec = SimSpec(SPEC.game, SPEC.players, (crasher, *SPEC.agents[1:]), SPEC.options)
    out = tmp_path / "crash.parquet"
    ticks: list[int] = []
    backend = RayBackend(cpus=2)
    done = run_simulation(spec, FIRST, GAMES, backend, out, size=20, progress=ticks.append)
    backend.close()
    assert marker.exists(), "the worker never crashed: the test proved nothing"
    assert int(marker.read_text()) != os.getpid()  # a Ray worker died, not this process
    assert sum(ticks) == GAMES and done.played == GAMES and len(ticks) == 5
    got, want = pq.read_table(out), pq.read_table(reference)
    assert set(got["agent"].to_pylist()) == {crasher, "random"}
    assert got.drop_columns(["agent"]).to_pylist() == want.drop_columns(["agent"]).to_pylist()


def cli_simulate_on_ray(reference: Path, tmp_path: Path) -> None:
    """kamon simulate --backend ray writes the bytes the local run wrote, and says where."""
    out = tmp_path / "cli.parquet"
    res = CliRunner(env=ENV).invoke(app, ["simulate", "white-castle", "--players", "3",
                                          "--games", str(GAMES), "--seed", str(FIRST),
                                          "--backend", "ray", "--jobs", "2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "Ray (local, 2 CPUs)" in res.output and "games/s" in res.output
    assert digest(out) == digest(reference)


def tournament_on_ray() -> None:
    """Same deals, seats and scores as a local tournament, in game order; the CLI too."""
    local = run_tournament("white-castle", ["greedy", "random"], games=8, seed=5)
    on_ray = run_tournament("white-castle", ["greedy", "random"], games=8, seed=5, jobs=2,
                            backend="ray")
    assert [(r.index, r.seed, r.agents, r.scores, r.winners) for r in local.results] == \
        [(r.index, r.seed, r.agents, r.scores, r.winners) for r in on_ray.results]
    res = CliRunner(env=ENV).invoke(app, ["tournament", "white-castle", "--agents",
                                          "greedy,random", "--games", "4", "--backend", "ray"])
    assert res.exit_code == 0, res.output
    assert "By agent (4 games)" in res.output and "Ray (local" in res.output


def designers_tools_on_ray(tmp_path: Path) -> None:
    """A tournament's results data and a sweep made on Ray equal the local ones byte for
    byte, and the report's skill matrix reads the Ray file."""
    from kamon.sim.report import write_report

    files = {}
    for backend in ("local", "ray"):
        out = tmp_path / f"t_{backend}.parquet"
        res = CliRunner(env=ENV).invoke(app, [
            "tournament", "white-castle", "--agents", "greedy,random", "--games", "4",
            "--backend", backend, "--jobs", "2", "--out", str(out)])
        assert res.exit_code == 0, res.output
        sweep = tmp_path / f"sweep_{backend}"
        res = CliRunner(env=ENV).invoke(app, [
            "sweep", "white-castle", "--vary", "gardens.cards[id=plant_1].cp=3,12",
            "--players", "2", "--games", "6", "--backend", backend, "--jobs", "2",
            "--out", str(sweep)])
        assert res.exit_code == 0, res.output
        files[backend] = [out, sweep / "3.parquet", sweep / "12.parquet"]
    assert [digest(f) for f in files["local"]] == [digest(f) for f in files["ray"]]
    skill = write_report(files["ray"][0], tmp_path / "t.html").analysis.skill
    assert skill is not None and skill.games == 4


def test_ray_backend(tmp_path: Path) -> None:
    """One real local Ray (2 CPUs) for every Ray check, started once: pytest-xdist spreads a
    module's tests over its workers, so separate tests would each start one."""
    ray = pytest.importorskip("ray")
    reference = tmp_path / "one.parquet"  # seeds 500-589 from this process, one batch
    run_simulation(SPEC, FIRST, GAMES, LocalBackend(1), reference, size=GAMES)
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING)
    try:
        same_bytes_from_every_backend(reference, tmp_path)
        killed_worker_is_retried_and_counted_once(reference, tmp_path)
        cli_simulate_on_ray(reference, tmp_path)
        tournament_on_ray()
        designers_tools_on_ray(tmp_path)
    finally:
        ray.shutdown()


def test_without_ray_the_message_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """`import ray` failing: --backend ray names the extra; nothing is written."""
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` raise ImportError
    with pytest.raises(KamonError, match=r"pip install 'kamon\[ray\]'"):
        RayBackend(cpus=1)
    out = tmp_path / "r.parquet"
    res = CliRunner(env=ENV).invoke(app, ["simulate", "white-castle", "--games", "3",
                                          "--backend", "ray", "--out", str(out)])
    assert res.exit_code == 2 and "needs Ray" in res.output
    assert not out.exists()
