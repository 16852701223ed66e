"""A plug-in bot's time limit a decision on the server (`kamon serve --bot-time-limit`,
kamon.server.bots): a real server process whose plug-in bot sleeps a minute a move still
moves within the limit (the level 'normal' plays the move and the seat from then on, one
warning logged); in-process, the worker's timer stops the agent, a fast agent keeps its
own move, and in a thread (nothing can be interrupted) the late move is refused."""

from __future__ import annotations

import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from kamon.games import get_game
from kamon.server.bots import FALLBACK_LEVEL, plugin_decision
from tests.server.conftest import mover_payload

ROOT = Path(__file__).resolve().parents[2]
MOD = "tests.server.slow_agents"


def test_a_slow_plugin_bot_is_stopped_on_a_real_server(serve: Any, tmp_path: Path) -> None:
    """--bot-time-limit 0.5 against a bot that sleeps 60 s a move: its seat moves three
    times in well under a minute, and the log says once what happened and who plays on."""
    srv = serve(args=["--agent", f"slow={MOD}:Slow", "--bot-time-limit", "0.5"],
                bot_workers=1, env={"PYTHONPATH": str(ROOT)})
    made = srv.api("/api/games", {"game": "white-castle", "players": 2,
                                  "seats": ["human", "slow"]})
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    tokens = {0: made.json()["seats"][0]["token"]}
    deadline = time.monotonic() + 40  # (unlimited, one bot move alone would take 60 s)
    human_moves = 0
    while True:
        pub = srv.api(f"/api/games/{gid}").json()
        bot_moves = pub["version"] - human_moves  # (a version a move)
        if bot_moves >= 3:
            break
        assert time.monotonic() < deadline, f"the bot made {bot_moves} moves in 40 s"
        if pub["to_move"] != 0:
            time.sleep(0.05)
            continue
        mine = mover_payload(srv, gid, tokens)
        r = srv.api(f"/api/games/{gid}/moves", {"token": tokens[0],
                                                "version": mine["version"],
                                                "action": mine["legal"][-1]["id"]})
        assert r.status_code in (200, 409), r.text
        human_moves += r.status_code == 200
    log = (tmp_path / "server.log").read_text()
    assert log.count("overran its time limit of 0.5 s") == 1, log[-3000:]
    assert f"'{FALLBACK_LEVEL}' played that move and plays the seat" in log


def test_the_timer_stops_a_slow_agent_and_keeps_a_fast_one() -> None:
    """In a process's main thread (as in a bot worker): a 60 s agent is stopped at the
    limit and the fallback level's legal move comes back; a fast agent's own move comes
    back with no overrun."""
    game = get_game("white-castle")
    state = game.new_game(2, 5)
    legal = {a.id for a in state.legal_actions()}
    start = time.monotonic()
    aid, spent = plugin_decision(state.to_json(), game.name, "slow", 1, f"{MOD}:Slow", 0.3)
    assert time.monotonic() - start < 10
    assert aid in legal and spent is not None and 0.3 <= spent < 5
    first = state.legal_actions()[0].id
    assert plugin_decision(state.to_json(), game.name, "quick", 1,
                           f"{MOD}:Sluggish", 5.0) == (first, None)


def test_a_timer_set_before_is_set_again() -> None:
    """A timer already running in the process (pytest-timeout's) runs on afterwards."""
    game = get_game("white-castle")
    state = game.new_game(2, 5)
    previous = signal.signal(signal.SIGALRM, signal.SIG_IGN)
    signal.setitimer(signal.ITIMER_REAL, 100.0)
    try:
        plugin_decision(state.to_json(), game.name, "slow", 1, f"{MOD}:Slow", 0.2)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 90 < left <= 100
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_in_a_thread_a_late_move_is_refused() -> None:
    """With --bot-workers 0 (a thread) the agent runs to its end, and a move later than
    the limit is not played: the fallback's is."""
    game = get_game("white-castle")
    state = game.new_game(2, 5)
    with ThreadPoolExecutor(1) as pool:
        aid, spent = pool.submit(plugin_decision, state.to_json(), game.name, "sluggish", 1,
                                 f"{MOD}:Sluggish", 0.1).result()
    assert spent is not None and spent >= 0.4  # (not interrupted)
    assert aid in {a.id for a in state.legal_actions()}
