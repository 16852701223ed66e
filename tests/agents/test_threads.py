"""torch on one thread in kamon's worker processes (issue 40): a real spawned pool (the
simulation's local backend, the server's bot pool), a real torch policy loaded in the
worker, KAMON_TORCH_THREADS obeyed; kamon.core.threads never imports torch itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kamon.core.errors import KamonError
from kamon.core.threads import ENV, torch_threads

GAME = "white-castle"


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole torch module (one Linear layer) fitting The White Castle, saved to a file."""
    torch = pytest.importorskip("torch")
    from kamon.rl.encoding import encoding

    enc = encoding(GAME)
    path = tmp_path_factory.mktemp("threads") / "linear.pt"
    torch.save(torch.nn.Sequential(torch.nn.Linear(enc.size, enc.num_actions)), path)
    return path


def worker_threads(spec: str) -> tuple[bool, int]:
    """In a worker: was torch imported before the policy, and torch's threads after it
    was loaded and played one decision."""
    from kamon.agents import make_agent
    from kamon.games import get_game

    before = "torch" in sys.modules
    agent = make_agent(spec, 1, game=GAME)
    state = get_game(GAME).new_game(2, 3)
    agent.act(state)
    import torch

    return before, torch.get_num_threads()


def torch_now() -> int:
    """torch's thread count in this process (imported here if it was not)."""
    import torch

    return int(torch.get_num_threads())


def test_a_simulation_worker_runs_a_loaded_policy_on_one_thread(
        policy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """KAMON_TORCH_THREADS unset: one thread in both workers of `simulate --jobs 2`'s
    pool, where torch was not imported before the policy was loaded."""
    from kamon.sim.backends import LocalBackend

    monkeypatch.delenv(ENV, raising=False)
    backend = LocalBackend(2)
    try:
        results = list(backend.map_unordered(worker_threads, [str(policy), str(policy)]))
    finally:
        backend.close()
    assert [threads for _, threads in results] == [1, 1]
    assert not results[0][0]  # (the first worker to finish had no torch before the policy)


def test_a_server_bot_worker_runs_a_plugin_policy_on_the_configured_threads(
        policy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's bot pool with KAMON_TORCH_THREADS=3: a plug-in policy's decision
    (bot_decision, as the server asks it), then torch's thread count in that worker."""
    from kamon.games import get_game
    from kamon.server.bots import bot_decision, bot_pool

    monkeypatch.setenv(ENV, "3")
    game = get_game(GAME)
    state = game.new_game(2, 5)
    pool: Any = bot_pool(1)
    try:
        aid = pool.submit(bot_decision, state.to_json(), GAME, "random", 7,
                          str(policy)).result(timeout=120)
        assert aid in {a.id for a in state.legal_actions()}
        assert pool.submit(torch_now).result(timeout=60) == 3
    finally:
        pool.shutdown(wait=True)


@pytest.mark.parametrize(("value", "want"), [("", 1), ("2", 2), ("0", None), ("Auto", None)])
def test_the_thread_count_is_read_from_the_environment(
        monkeypatch: pytest.MonkeyPatch, value: str, want: int | None) -> None:
    """Empty: the default, one; a count; 0 and auto: leave torch alone."""
    monkeypatch.setenv(ENV, value)
    assert torch_threads() == want


def test_loading_a_policy_pins_the_process_that_plays_it(
        policy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In this process, as `kamon play`, a one-job `simulate` or the server's bot thread
    load it: torch goes to KAMON_TORCH_THREADS threads (2 here, then unset: 1) when the
    policy is loaded (torch's count is restored afterwards)."""
    import torch

    from kamon.agents.plugin import _MODELS, build_plugin

    was = torch.get_num_threads()
    try:
        for value, want in (("2", 2), (None, 1)):
            if value is None:
                monkeypatch.delenv(ENV, raising=False)
            else:
                monkeypatch.setenv(ENV, value)
            torch.set_num_threads(3)
            _MODELS.clear()  # (a cached policy is not loaded again)
            build_plugin(str(policy), 0, game=GAME)
            assert torch.get_num_threads() == want
    finally:
        torch.set_num_threads(was)


def test_pinning_never_imports_torch() -> None:
    """pin_torch and a pool worker's start leave torch unimported."""
    code = ("import sys\nfrom kamon.core.threads import pin_torch, pin_worker\n"
            "print(pin_torch(), pin_worker(), 'torch' in sys.modules)\n")
    env = {k: v for k, v in os.environ.items() if k != ENV}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env)
    assert out.stdout.split() == ["None", "None", "False"]


@pytest.mark.parametrize("value", ["two", "-1", "1.5"])
def test_a_bad_thread_count_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                             value: str) -> None:
    """A value that is no count names the variable and what it takes."""
    monkeypatch.setenv(ENV, value)
    with pytest.raises(KamonError, match=f"{ENV}=.*positive integer.*0 / auto"):
        torch_threads()
