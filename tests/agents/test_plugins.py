"""Agents plugged in from outside the registry (kamon.agents.plugin, docs/agents.md):
module:Name and file.py:Name agents, a real MaskablePPO policy trained here for a few
hundred steps, TorchScript and whole torch modules; every error message; an illegal
move refused with the game unchanged; play, simulate and tournament through the CLI."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from kamon.agents import RandomAgent, agent_spec, make_agent
from kamon.agents.plugin import IllegalAgentMove, PluginAgent, agent_labels
from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.games import get_game
from kamon.sim.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).with_name("plugin_agents.py")
MOD = "tests.agents.plugin_agents"
ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "200"}
WC = get_game("white-castle")


def cli(*args: str) -> Any:
    """Run `kamon ARGS` in process."""
    return CliRunner(env=ENV).invoke(app, list(args))


@pytest.fixture(scope="module")
def policies(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Real policies sized for The White Castle: a MaskablePPO trained for 256 steps on
    make_gym_env("white-castle", players=2, opponents="random"); a TorchScript module
    whose logits prefer the lowest action id; a whole torch module preferring the highest."""
    torch = pytest.importorskip("torch")
    sb3 = pytest.importorskip("sb3_contrib")
    from kamon.rl import encoding, make_gym_env

    out = tmp_path_factory.mktemp("policies")
    env = make_gym_env("white-castle", players=2, opponents="random")
    model = sb3.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0,
                            device="cpu", policy_kwargs={"net_arch": [16]})
    model.learn(256)
    model.save(out / "ppo_wc.zip")
    enc = encoding("white-castle")

    def net(prefer_high: bool) -> Any:
        lin = torch.nn.Linear(enc.size, enc.num_actions)
        with torch.no_grad():
            lin.weight.zero_()
            ids = torch.arange(enc.num_actions, dtype=torch.float32)
            lin.bias.copy_(ids if prefer_high else -ids)
        return torch.nn.Sequential(lin).eval()

    with warnings.catch_warnings():  # (torch.jit is deprecated in recent torch, still here)
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.jit.script(net(False)).save(str(out / "low.pt"))
    torch.save(net(True), out / "high.pth")
    torch.save(net(True).state_dict(), out / "weights.pt")
    (out / "junk.zip").write_bytes(b"not a zip at all")
    (out / "junk.pt").write_bytes(b"not a torch file")
    return {"zip": out / "ppo_wc.zip", "ts": out / "low.pt", "plain": out / "high.pth",
            "weights": out / "weights.pt", "junk_zip": out / "junk.zip",
            "junk_pt": out / "junk.pt"}


def play_out(state: Any, agents: list[Any], limit: int = 5000) -> list[tuple[int, int]]:
    """Play to the end; (seat, action id) of every decision."""
    moves = []
    while not state.is_over() and len(moves) < limit:
        seat = state.to_move
        action = agents[seat].act(state)
        moves.append((seat, action.id))
        state.apply(action)
    assert state.is_over()
    return moves


# --- specs and names -----------------------------------------------------------------------

def test_module_file_and_factory_specs_build_checked_agents() -> None:
    """module:Name and file.py:Name build with seed=, act legally (an Action or an id),
    and go by their own name, or by the spec when they have none."""
    first = make_agent(f"{MOD}:FirstLegal", 7)
    assert isinstance(first, PluginAgent) and first.name == "first-legal"
    assert first.inner.seed == 7
    last = make_agent(f"{FIXTURES}:LastLegalId", 3)
    assert last.name == f"{FIXTURES}:LastLegalId"
    factory = make_agent(f"{MOD}:first_legal_factory", 1)
    assert factory.name == "factory-first"
    state = WC.new_game(2, 4)
    legal = state.legal_actions()
    assert first.act(state) == legal[0] and factory.act(state) == legal[0]
    assert last.act(state) == legal[-1]  # an int id comes back as the legal Action
    moves = play_out(WC.new_game(2, 4), [first, last])
    assert moves == play_out(WC.new_game(2, 4), [make_agent(f"{MOD}:FirstLegal", 0),
                                                 make_agent(f"{FIXTURES}:LastLegalId", 0)])


def test_registry_names_work_exactly_as_before() -> None:
    """Names ignore case and build the same agents; specs keep their case."""
    assert isinstance(make_agent(" Random ", 1), RandomAgent)
    assert make_agent("HARD", 1).name == "hard"
    assert agent_spec(" Normal ") == "normal"
    assert agent_spec(f" {MOD}:FirstLegal ") == f"{MOD}:FirstLegal"
    with pytest.raises(KamonError, match=r"unknown agent 'genius'; known agents: random.*"
                                         r"module:Name, path/to/file.py:Name"):
        make_agent("genius", 1)


def test_labels_fall_back_to_the_spec_when_names_clash() -> None:
    """Two specs of agents both named first-legal are told apart by their specs."""
    a, b = f"{MOD}:FirstLegal", f"{FIXTURES}:FirstLegal"
    assert agent_labels([a, "random"], "white-castle") == {a: "first-legal",
                                                           "random": "random"}
    assert agent_labels([a, b], "white-castle") == {a: a, b: b}


# --- every error -------------------------------------------------------------------------

def _error(spec: str, game: str | None = None) -> str:
    with pytest.raises(KamonError) as info:
        make_agent(spec, 0, game=game)
    return str(info.value)


def test_module_errors_say_what_is_wrong_and_how_to_fix_it(tmp_path: Path) -> None:
    """Not found, failing import, missing attribute, not callable, no seed=, a failing
    constructor, no act: each names the spec and the remedy."""
    msg = _error("no_such_module_xyz:Agent")
    assert "cannot import module 'no_such_module_xyz'" in msg and "PYTHONPATH" in msg \
        and "path/to/file.py:Name" in msg
    broken = tmp_path / "broken_agent.py"
    broken.write_text("def oops(:\n")
    msg = _error(f"{broken}:Agent")
    assert f"{broken}:Agent" in msg and "does not import: SyntaxError" in msg
    needs = tmp_path / "needs_dep.py"
    needs.write_text("import not_installed_dep_xyz\n")
    assert "No module named 'not_installed_dep_xyz'" in _error(f"{needs}:Agent")
    msg = _error(f"{MOD}:FirstLegl")
    assert "has no attribute 'FirstLegl'" in msg and "FirstLegal" in msg
    assert "not a class or factory" in _error(f"{MOD}:NOT_A_CLASS")
    msg = _error(f"{MOD}:NoSeed")
    assert "cannot be built with seed=" in msg and "`seed` keyword parameter" in msg
    assert "building Exploding(seed=0) failed: RuntimeError: out of coffee" in \
        _error(f"{MOD}:Exploding")
    assert "without an act(state) method" in _error(f"{MOD}:NoAct")
    assert "does not exist" in _error(f"{tmp_path / 'missing.py'}:Agent")


def test_file_errors_say_what_is_wrong(policies: dict[str, Path], tmp_path: Path) -> None:
    """A missing file, a file that does not load, a state_dict instead of a module."""
    msg = _error(str(tmp_path / "nowhere.zip"))
    assert "MaskablePPO policy" in msg and "does not exist" in msg
    assert "torch module" in _error(str(tmp_path / "nowhere.pt"))
    assert "does not load as a MaskablePPO policy" in _error(str(policies["junk_zip"]))
    assert "does not load as a TorchScript module" in _error(str(policies["junk_pt"]))
    msg = _error(str(policies["weights"]))
    assert "state_dict" in msg and "torch.save(model, path)" in msg


def test_a_white_castle_policy_is_refused_for_clansman(policies: dict[str, Path]) -> None:
    """Each policy kind names both sizes and both games; it fits The White Castle."""
    from kamon.rl import encoding

    wc, cl = encoding("white-castle"), encoding("clansman")
    for kind in ("zip", "ts", "plain"):
        msg = _error(str(policies[kind]), game="clansman")
        assert "does not fit I, Clansman (clansman)" in msg, msg
        for number in (wc.size, wc.num_actions, cl.size, cl.num_actions):
            assert str(number) in msg
        assert "it fits The White Castle (white-castle)" in msg
        make_agent(str(policies[kind]), 0, game="white-castle")  # fits
    agent = make_agent(str(policies["zip"]), 0)  # no game given: refused at the first act
    with pytest.raises(KamonError, match="does not fit I, Clansman"):
        agent.act(get_game("clansman").new_game(4, 1))


# --- playing --------------------------------------------------------------------------------

def test_an_illegal_move_is_refused_with_the_game_unchanged() -> None:
    """The error names the agent, its action, the decision and the legal actions; the game
    is as it was, even when the agent played on the state it was handed."""
    state = WC.new_game(2, 5)
    play_out_some = [RandomAgent(1), RandomAgent(2)]
    for _ in range(3):
        state.apply(play_out_some[state.to_move].act(state))
    before = json.dumps(state.to_json(), sort_keys=True)
    legal = state.legal_actions()
    with pytest.raises(IllegalAgentMove) as info:
        make_agent(f"{MOD}:Illegal", 0).act(state)
    msg = str(info.value)
    assert f"agent 'illegal' ({MOD}:Illegal)" in msg and "at decision 4 of the game" in msg
    assert "action id" in msg and "not legal now" in msg and "the game is unchanged" in msg
    assert all(f"{a.id} {a.text!r}" in msg for a in legal)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    with pytest.raises(IllegalAgentMove, match="'take everything' \\(a str"):
        make_agent(f"{MOD}:Meddler", 0).act(state)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_the_zip_policy_plays_maskable_ppo_for_the_seat_to_move(
        policies: dict[str, Path]) -> None:
    """Every decision is MaskablePPO's deterministic choice from the mover's own
    observation and mask; :sample samples legal actions, reproducibly from the seed."""
    from sb3_contrib import MaskablePPO

    from kamon.rl import encoding

    enc = encoding("white-castle")
    model = MaskablePPO.load(str(policies["zip"]), device="cpu")
    agent = make_agent(str(policies["zip"]), 0, game="white-castle")
    assert agent.name == "ppo_wc.zip"
    state = WC.new_game(3, 9)
    seats = set()
    for _ in range(60):
        if state.is_over():
            break
        seat = state.to_move
        seats.add(seat)
        want, _ = model.predict(enc.observe(state, seat),
                                action_masks=enc.mask(state).astype(bool), deterministic=True)
        action = agent.act(state)
        assert action.id == int(want)
        state.apply(action)
    assert seats == {0, 1, 2}
    sampled = [play_out(WC.new_game(2, 3), [make_agent(f"{policies['zip']}:sample", s),
                                            RandomAgent(0)]) for s in (1, 1, 2)]
    assert sampled[0] == sampled[1] != sampled[2]


def test_torch_modules_play_the_legal_action_with_the_highest_logit(
        policies: dict[str, Path]) -> None:
    """The TorchScript module prefers low ids, the whole module high ids: each plays the
    lowest / highest legal id at every decision."""
    low = make_agent(str(policies["ts"]), 0, game="white-castle")
    high = make_agent(str(policies["plain"]), 0, game="white-castle")
    state = WC.new_game(2, 11)
    while not state.is_over():
        ids = [a.id for a in state.legal_actions()]
        agent = low if state.to_move == 0 else high
        action = agent.act(state)
        assert action.id == (min(ids) if agent is low else max(ids))
        state.apply(action)


# --- the commands ----------------------------------------------------------------------------

def test_cli_tournament_with_a_plugin_a_zip_and_both_torch_modules(
        policies: dict[str, Path], tmp_path: Path) -> None:
    """Four plug-ins at four seats: tables and CSV name them by their names."""
    out = tmp_path / "t.csv"
    specs = [f"{MOD}:FirstLegal", str(policies["zip"]), str(policies["ts"]),
             str(policies["plain"])]
    res = cli("tournament", "white-castle", "--agents", ",".join(specs), "--games", "4",
              "--csv", str(out))
    assert res.exit_code == 0, res.output
    names = ["first-legal", "ppo_wc.zip", "low.pt", "high.pth"]
    for name in names:
        assert f"│ {name} " in res.output
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 16 and {r["agent"] for r in rows} == set(names)


def test_cli_simulate_with_a_plugin_and_a_zip_policy(policies: dict[str, Path],
                                                     tmp_path: Path) -> None:
    """The summary names the agents; the result rows keep the specs (the run's key)."""
    import pyarrow.parquet as pq

    out = tmp_path / "r.parquet"
    spec = f"{FIXTURES}:FirstLegal"
    res = cli("simulate", "white-castle", "--players", "2", "--games", "3", "--agents",
              f"{policies['zip']},{spec}", "--out", str(out))
    assert res.exit_code == 0, res.output
    assert "ppo_wc.zip" in res.output and "first-legal" in res.output
    assert set(pq.read_table(out)["agent"].to_pylist()) == {str(policies["zip"]), spec}


def test_cli_play_with_plugin_seats_saves_their_specs(policies: dict[str, Path],
                                                      tmp_path: Path) -> None:
    """kamon play with a plug-in and a torch module: the game ends, the record keeps the
    specs, and the moves are theirs."""
    record = tmp_path / "game.json"
    res = cli("play", "white-castle", "--seats", f"{MOD}:FirstLegal,{policies['plain']}",
              "--seed", "4", "--quiet", "--save", str(record))
    assert res.exit_code == 0, res.output
    assert "first-legal" in res.output and "Winner" in res.output
    saved = json.loads(record.read_text())
    assert saved["seats"] == [f"{MOD}:FirstLegal", str(policies["plain"])]
    state = WC.new_game(2, 4)
    mine = play_out(state, [make_agent(f"{MOD}:FirstLegal", 0),
                            make_agent(str(policies["plain"]), 0)])
    assert [WC.action_text(a) for _, a in mine] == saved["actions"]


def test_cli_checks_every_spec_before_any_game(policies: dict[str, Path]) -> None:
    """A spec that does not load or fit is one red line (exit 2) before any game starts;
    an illegal move at play time is one red line too."""
    res = cli("tournament", "clansman", "--agents", f"random,{policies['zip']}",
              "--games", "2")
    assert res.exit_code == 2 and "does not fit I, Clansman" in res.output
    assert "Tournament of" not in res.output
    res = cli("simulate", "white-castle", "--players", "2", "--agents",
              "random,no_such_module_xyz:Agent", "--games", "2")
    assert res.exit_code == 2 and "cannot import module" in res.output
    assert "Simulating" not in res.output
    res = cli("play", "white-castle", "--seats", "random,nonsense", "--quiet")
    assert res.exit_code == 2 and "unknown seat kind 'nonsense'" in res.output \
        and "module:Name" in res.output
    res = cli("play", "white-castle", "--seats", f"random,{MOD}:NoSeed", "--quiet")
    assert res.exit_code == 2 and "cannot be built with seed=" in res.output
    res = cli("play", "white-castle", "--seats", f"{MOD}:Illegal,{MOD}:Illegal", "--seed",
              "2", "--quiet")
    assert res.exit_code == 2 and "agent 'illegal'" in res.output \
        and "not legal now" in res.output


def test_a_tournament_pool_builds_plugins_in_its_workers() -> None:
    """--jobs 2 processes: the spec strings travel, the agents are built there, and the
    results are those of one process."""
    agents = [f"{MOD}:FirstLegal", f"{FIXTURES}:LastLegalId", "random"]
    one = run_tournament("white-castle", agents, games=3, seed=2)
    two = run_tournament("white-castle", agents, games=3, seed=2, jobs=2)
    assert [(r.agents, r.scores) for r in one.results] == \
        [(r.agents, r.scores) for r in two.results]
    assert one.results[0].agents[:3] == ["first-legal", f"{FIXTURES}:LastLegalId", "random"]


def test_a_ray_tournament_builds_plugins_on_its_workers() -> None:
    """A local Ray (1 CPU): the same results as this process."""
    pytest.importorskip("ray")
    agents = [f"{FIXTURES}:FirstLegal", "random"]
    here = run_tournament("white-castle", agents, games=2, seed=3)
    there = run_tournament("white-castle", agents, games=2, seed=3, jobs=1, backend="ray")
    assert [(r.agents, r.scores) for r in here.results] == \
        [(r.agents, r.scores) for r in there.results]


def test_play_and_serve_import_no_torch_without_a_policy() -> None:
    """A plug-in game in `kamon play`, and the server app, leave torch unimported."""
    code = ("import sys\n"
            "from typer.testing import CliRunner\n"
            "from kamon.cli import app\n"
            "import kamon.server.app\n"
            f"r = CliRunner().invoke(app, ['play', 'white-castle', '--seats', "
            f"'{MOD}:FirstLegal,random', '--seed', '1', '--quiet'])\n"
            "assert r.exit_code == 0, r.output\n"
            "print('torch' in sys.modules, 'sb3_contrib' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


def test_a_policy_agent_observes_from_the_mover(policies: dict[str, Path]) -> None:
    """The vectors a torch policy is handed are the movers' own observations, one per
    decision, whichever seat moves."""
    torch = pytest.importorskip("torch")
    from kamon.rl import encoding

    enc = encoding("white-castle")
    seen: list[np.ndarray] = []

    class Spy(torch.nn.Module):  # what the policy is given (its logits: no preference)
        def forward(self, x: Any) -> Any:
            seen.append(x.numpy().copy())
            return torch.zeros(1, enc.num_actions)

    agent = make_agent(str(policies["ts"]), 0, game="white-castle")
    policy = agent.inner.policy
    kept, policy.module = policy.module, Spy()
    try:
        state = WC.new_game(3, 6)
        for _ in range(8):
            state.apply(agent.act(state))
    finally:
        policy.module = kept
    replay, movers = WC.new_game(3, 6), set()
    for k, aid in enumerate(state.history[:8]):
        movers.add(replay.to_move)
        assert seen[k].shape == (1, enc.size) and seen[k].dtype == np.float32
        assert np.array_equal(seen[k][0], enc.observe(replay, replay.to_move))
        replay.apply(aid)
    assert len(movers) > 1
