"""Plug-in bots on the server (`kamon serve --agent NAME=SPEC`, docs/agents.md): a real
server process whose plug-in bot plays its seat from a worker process; bad flags refused
at start-up; a plug-in's illegal move plays nothing, is logged once, and leaves the game
as it was; a policy offered only for the game it fits."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kamon.agents import make_agent
from kamon.core.errors import KamonError
from kamon.games import games, get_game
from kamon.server.app import create_app
from kamon.server.service import plugin_kinds
from tests.agents.plugin_agents import Illegal
from tests.server.cluster import free_port
from tests.server.conftest import create, get, mover_payload, play_humans, token_of

ROOT = Path(__file__).resolve().parents[2]
MOD = "tests.agents.plugin_agents"
FIXTURES = ROOT / "tests" / "agents" / "plugin_agents.py"


def test_a_plugin_bot_plays_its_seat_on_a_real_server(serve: Any) -> None:
    """`kamon serve --agent first=...:FirstLegal`: the kind is in the catalogue, a game
    seats it, and every move of its seat, made in a bot worker process, is FirstLegal's."""
    srv = serve(args=["--agent", f"first={MOD}:FirstLegal"], bot_workers=1,
                env={"PYTHONPATH": str(ROOT)})
    seats = {s["kind"]: s["summary"] for s in srv.api("/api/catalog").json()["seats"]}
    assert seats["first"] == "a plug-in agent, first-legal"
    made = srv.api("/api/games", {"game": "white-castle", "players": 2,
                                  "seats": ["human", "first"]})
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    tokens = {0: made.json()["seats"][0]["token"]}
    deadline = time.monotonic() + 180  # a whole game over HTTP: generous under load
    while True:
        pub = srv.api(f"/api/games/{gid}").json()
        if pub["over"]:
            break
        assert time.monotonic() < deadline, "the game did not end"
        if pub["to_move"] != 0:
            time.sleep(0.02)
            continue
        mine = mover_payload(srv, gid, tokens)
        r = srv.api(f"/api/games/{gid}/moves", {"token": tokens[0], "version": mine["version"],
                                                "action": mine["legal"][-1]["id"]})
        assert r.status_code in (200, 409), r.text
    record = srv.api(f"/api/games/{gid}/record").json()
    assert record["seats"] == ["human", "first"]
    game = get_game("white-castle")
    state = game.new_game(2, record["seed"])
    bot = make_agent(f"{MOD}:FirstLegal", 0)
    bot_moves = 0
    for text in record["actions"]:
        aid = game.parse_action(state, text).id
        if state.to_move == 1:
            assert aid == bot.act(state).id, f"the bot's move {text!r} is not FirstLegal's"
            bot_moves += 1
        state.apply(aid)
    assert state.is_over() and bot_moves > 10


@pytest.mark.parametrize(("flag", "says"), [
    ("x=no_such_module_xyz:Agent", "cannot import module 'no_such_module_xyz'"),
    (f"hard={MOD}:FirstLegal", "'hard' is a built-in seat kind"),
    (f"human={MOD}:FirstLegal", "'human' is a built-in seat kind"),
    (f"x={MOD}:NoSeed", "cannot be built with seed="),
    ("no-equals-sign", "give NAME=SPEC"),
    (f"Bad Name={MOD}:FirstLegal", "NAME must be"),
])
def test_a_bad_agent_flag_stops_the_server_before_it_serves(tmp_path: Path, flag: str,
                                                            says: str) -> None:
    """The real command: exit code 2, the reason on one line, nothing served."""
    db = tmp_path / "k.db"
    done = subprocess.run([sys.executable, "-m", "kamon.cli", "serve", "--host", "127.0.0.1",
                           "--port", str(free_port()), "--db", str(db), "--agent", flag],
                          cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2, done.stdout + done.stderr
    assert says in " ".join(done.stderr.split()), done.stderr
    assert "serving on" not in done.stdout


def test_plugin_kinds_are_checked_in_every_game(tmp_path: Path) -> None:
    """A torch module sized for The White Castle is a kind of that game only; a spec
    that fits no game, or a name given twice, is refused."""
    torch = pytest.importorskip("torch")
    from kamon.rl import encoding

    enc = encoding("white-castle")
    path = tmp_path / "wc.pth"
    torch.save(torch.nn.Sequential(torch.nn.Linear(enc.size, enc.num_actions)), path)
    kinds = plugin_kinds([f"wc={path}", f"first={FIXTURES}:FirstLegal"])
    assert kinds["wc"].games == ("white-castle",) and kinds["wc"].label == "wc.pth"
    assert set(kinds["first"].games) == set(games())  # a plain agent plays every game
    with pytest.raises(KamonError, match="given twice"):
        plugin_kinds([f"a={path}", f"a={path}"])
    with pytest.raises(KamonError, match="does not exist"):
        plugin_kinds([f"a={tmp_path / 'none.zip'}"])
    app = create_app(str(tmp_path / "k.db"), bot_workers=0, bot_delay=0, rate=0,
                     agents=kinds)
    with TestClient(app) as c:
        seats = {s["kind"]: s["summary"] for s in c.get("/api/catalog").json()["seats"]}
        assert seats["wc"] == "a plug-in agent, wc.pth (The White Castle only)"
        r = c.post("/api/games", json={"game": "clansman", "players": 4,
                                       "seats": ["human", "wc", "human", "human"]})
        assert r.status_code == 400
        assert "'wc' (a plug-in agent) does not play I, Clansman" in r.json()["error"]
        created = create(c, "white-castle", 2, ["human", "wc"])
        tokens, humans = {0: token_of(created, 0)}, 0
        p = play_humans(c, created["id"], tokens, moves=0)
        while p["version"] <= humans:  # every decision so far was the human's
            p = play_humans(c, created["id"], tokens, moves=1)
            humans += 1
            assert humans < 100, "the policy bot never moved"


def test_an_illegal_plugin_move_plays_nothing_and_is_logged_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Both seats are a plug-in that plays an illegal id: nothing is stored, the warning
    names the kind, the game, the decision and the legal actions, once; the game is
    served as it was, and the server goes on playing other games."""
    kinds = plugin_kinds([f"bad={MOD}:Illegal", f"first={MOD}:FirstLegal"])
    app = create_app(str(tmp_path / "k.db"), bot_workers=0, bot_delay=0, rate=0,
                     agents=kinds)
    caplog.set_level(logging.WARNING, logger="kamon.server")
    with TestClient(app) as c:
        live = c.app.state.live  # type: ignore[attr-defined]
        made = create(c, "white-castle", 2, ["bad", "bad"], seed=12)
        gid = made["id"]
        deadline = time.monotonic() + 30
        while (gid, 0) not in live.bots.refused:
            assert time.monotonic() < deadline, "the bot was never asked"
            time.sleep(0.02)
        before = get(c, gid)
        asked = Illegal.calls
        assert asked >= 1
        c.portal.call(live.bots.drive, gid)  # (as the sweep would): not asked again
        while gid in live.bots.driving:
            assert time.monotonic() < deadline, "the driver did not finish"
            time.sleep(0.02)
        assert Illegal.calls == asked
        other = create(c, "white-castle", 2, ["human", "first"])
        p = play_humans(c, other["id"], {0: token_of(other, 0)}, moves=3)
        assert p["version"] >= 3
        after = get(c, gid)
        assert after["version"] == before["version"] == 0 and not after["over"]
        assert after["to_move"] == before["to_move"] and after["legal"] == before["legal"]
    warnings = [r.getMessage() for r in caplog.records
                if "plug-in bot 'bad'" in r.getMessage()]
    assert len(warnings) == 1, warnings
    text = warnings[0]
    assert f"of game {gid}" in text and "made no move at version 0" in text
    assert f"agent 'illegal' ({MOD}:Illegal)" in text and "at decision 1 of the game" in text
    assert "The legal actions are:" in text and "nothing was played" in text


def test_a_kind_the_server_was_not_told_about_waits(tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    """A game stored with a plug-in seat, served again without that --agent: its bot is
    not asked, the game waits and a warning says how to fix it."""
    db = str(tmp_path / "k.db")
    kinds = plugin_kinds([f"bad={MOD}:Illegal"])
    with TestClient(create_app(db, bot_workers=0, bot_delay=0, rate=0, agents=kinds)) as c:
        gid = create(c, "white-castle", 2, ["bad", "bad"], seed=3)["id"]
    caplog.set_level(logging.WARNING, logger="kamon.server")
    with TestClient(create_app(db, bot_workers=0, bot_delay=0, rate=0)) as c:
        live = c.app.state.live  # type: ignore[attr-defined]
        deadline = time.monotonic() + 30
        while (gid, 0) not in live.bots.refused:  # the start-up sweep drove it
            assert time.monotonic() < deadline, "the game was never looked at"
            time.sleep(0.02)
        assert get(c, gid)["version"] == 0
    assert any("--agent bad=SPEC" in r.getMessage() for r in caplog.records)
