"""The learning pipeline (kamon.learn): targets, weights, a tiny training run end to end,
resuming a run, and the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.games import get_game
from kamon.learn import model as M
from kamon.learn.agents import PolicyAgent, guided_search
from kamon.learn.features import absolute_values, relative_values
from kamon.learn.net import load_net
from kamon.learn.pipeline import Run, RunSettings, jobs_of_round, play_and_keep, run_rounds
from kamon.learn.selfplay import SelfPlayJob, play_selfplay
from kamon.rl.encoding import encoding
from kamon.sim.backends import LocalBackend


def test_value_slots_turn_with_the_seat() -> None:
    """Slot k of a seat's values is clan (seat + k) mod clans; back to clan order again."""
    z, mask = relative_values([10.0, 20.0, 30.0], 2, 10.0)
    assert list(z) == [3.0, 1.0, 2.0, 0.0] and list(mask) == [1, 1, 1, 0]
    assert absolute_values(z, 2, 3, 10.0) == [10.0, 20.0, 30.0]


@pytest.mark.parametrize(("iterations", "game", "players", "options"),
                         [(40, "white-castle", 1, {"difficulty": "hard"}),
                          (0, "clansman", 4, {"expert": True})])
def test_self_play_records_the_searchs_visits_and_the_final_points(
        iterations: int, game: str, players: int, options: dict[str, object]) -> None:
    """Every sample: the seat's observation, a distribution over the candidates (the
    search's visits; round 0: greedy's move), the final points from the seat's slots."""
    res = play_selfplay(SelfPlayJob(game, players, 11, options, iterations=iterations))
    enc = encoding(game)
    n = len(res["obs"])
    assert n > 10 and res["obs"].shape == (n, enc.size) and res["pi"].shape == (n, enc.num_actions)
    pi = res["pi"].astype(np.float64)
    assert np.allclose(pi.sum(1), 1.0, atol=1e-2)
    assert not np.any(pi[res["mask"] == 0])  # only the candidates
    assert (np.count_nonzero(res["mask"], axis=1) >= 2).all()
    totals = [float(t) for t in res["totals"]]
    for z, zmask, seat in zip(res["z"], res["zmask"], res["seat"], strict=True):
        assert absolute_values(z, int(seat), len(totals), enc.margin_scale) == \
            pytest.approx(totals)
        assert zmask.sum() == len(totals)
    if iterations == 0:
        assert set(np.unique(pi)) <= {0.0, 1.0}  # greedy's move
    again = play_selfplay(SelfPlayJob(game, players, 11, options, iterations=iterations))
    assert np.array_equal(again["pi"], res["pi"])  # reproducible from the job


def test_saved_weights_load_and_match_torch(tmp_path: Path) -> None:
    """The exported numpy network gives torch's outputs; saving and loading keeps them."""
    import torch

    model = M.build_model("clansman", (32, 16), seed=3)
    net = M.export(model)
    x = np.random.default_rng(0).random((5, encoding("clansman").size), dtype=np.float32)
    with torch.no_grad():
        tp, tv = model(torch.from_numpy(x))
    p, v = net.forward(x)
    assert np.allclose(p, tp.numpy(), atol=1e-5) and np.allclose(v, tv.numpy(), atol=1e-5)
    net.save(tmp_path / "n.npz")
    again = load_net(tmp_path / "n.npz")
    assert np.array_equal(again.forward(x)[0], p) and again.game == "clansman"
    (tmp_path / "bad.npz").write_bytes(b"not a network")
    with pytest.raises(KamonError):
        load_net(tmp_path / "bad.npz")
    with pytest.raises(KamonError, match="do not fit"):
        M.export(M.build_model("white-castle", (8,))).__class__(
            {**{f"W{i}": w for i, (w, _) in enumerate(net.layers)},
             **{f"b{i}": b for i, (_, b) in enumerate(net.layers)},
             "Wp": net.wp, "bp": net.bp, "Wv": net.wv, "bv": net.bv},
            {"game": "white-castle", "layers": len(net.layers)})


def test_a_tiny_training_run_end_to_end_and_its_agents_play(tmp_path: Path) -> None:
    """`kamon train`: round 0 (greedy games) and round 1 (the search guided by round 0's
    network) each play, train and check; the networks load and their levels play legal
    moves; run.json says what each round did."""
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["train", "white-castle", "--out", str(out), "--rounds", "1",
                                   "--games", "1", "--bootstrap", "2", "--iterations", "30",
                                   "--epochs", "1", "--check-games", "2", "-q"])
    assert res.exit_code == 0, res.output
    assert "round 1:" in res.output and "fast vs greedy" in res.output
    meta = json.loads((out / "run.json").read_text())
    assert [r["round"] for r in meta["rounds"]] == [0, 1]
    assert meta["rounds"][0]["games"] == 2 and meta["rounds"][1]["games"] == 1
    assert meta["rounds"][1]["train_samples"] > meta["rounds"][1]["samples"]  # the window
    for f in ("net_000.npz", "net_001.npz", "model_001.pt", "net_latest.npz"):
        assert (out / f).exists(), f
    net = load_net(out / "net_latest.npz")
    state = get_game("white-castle").new_game(2, 4)
    bots: list[Any] = [PolicyAgent(1, net), guided_search(2, 30, net)]
    for _ in range(30):
        mover = state.to_move
        assert mover is not None
        action = bots[mover].act(state)
        assert action in state.legal_actions()
        state.apply(action)


def test_a_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    """A game already played is not played again, a finished round not redone; a run of
    another game in the same folder is refused."""
    out = tmp_path / "run"
    settings = RunSettings("white-castle", games=2, iterations=20, epochs=1, check_games=0)
    run = Run(out, settings)
    job = jobs_of_round(settings, 1, None)[0]
    kept = run.games_dir(1)
    kept.mkdir()
    path = kept / f"{job.seed}.npz"
    play_and_keep((job, str(path)))
    stamp = path.stat().st_mtime_ns
    played: list[int] = []
    run_rounds(out, settings, 1, LocalBackend(1),
               progress=lambda what, done, total: played.append(done))
    assert path.stat().st_mtime_ns == stamp and played[0] == 1  # found done
    assert len(list(kept.glob("*.npz"))) == 2
    first = (out / "net_001.npz").stat().st_mtime_ns
    run = run_rounds(out, settings, 1, LocalBackend(1))
    assert (out / "net_001.npz").stat().st_mtime_ns == first and len(run.rounds) == 1
    with pytest.raises(KamonError, match="white-castle run"):
        Run(out, RunSettings("clansman"))


def test_self_play_on_ray_writes_the_samples_a_local_run_writes(tmp_path: Path) -> None:
    """`kamon train --backend ray` (a real local Ray, 2 CPUs): the same games, sample for
    sample, as in this process (round 0 only: the search rounds' games go the same way)."""
    pytest.importorskip("ray")
    args = ["--rounds", "0", "--bootstrap", "2", "--epochs", "1", "--check-games", "0", "-q"]
    runner = CliRunner()
    res = runner.invoke(app, ["train", "white-castle", "--out", str(tmp_path / "ray"),
                              "--backend", "ray", "--jobs", "2", *args])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["train", "white-castle", "--out", str(tmp_path / "here"), *args])
    assert res.exit_code == 0, res.output
    files = sorted((tmp_path / "ray").glob("round_*/*.npz"))
    assert len(files) == 2
    for f in files:
        with np.load(f) as a, np.load(tmp_path / "here" / f.parent.name / f.name) as b:
            assert all(np.array_equal(a[k], b[k]) for k in a.files if k != "cpu")
