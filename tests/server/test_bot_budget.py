"""One client cannot spend the bots' thinking another player waits for (issue 35: 30
games of four expert bots left a human's normal bot silent for over 120 s): a client
has at most a few games of bots only going, and their bots think after every human's
game's, on at most all but one bot worker (server/bot_queue.py)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import ServerProcess

FLOOD = 30
BOT_ONLY = {"game": "clansman", "players": 4, "seats": ["expert"] * 4}


def _human_turns(url: str, gid: str, token: str, turns: int) -> list[float]:
    """Play `turns` moves of the human seat (its first legal action), each time waiting
    for the bot to hand the turn back: the seconds each wait took."""
    waits = []
    for _ in range(turns):
        p = httpx.get(f"{url}/api/games/{gid}", params={"token": token}, timeout=30).json()
        r = httpx.post(f"{url}/api/games/{gid}/moves", timeout=30, json={
            "token": token, "action": p["legal"][0]["id"], "version": p["version"]})
        assert r.status_code == 200, r.text
        start = time.monotonic()
        while True:
            q = httpx.get(f"{url}/api/games/{gid}", params={"token": token},
                          timeout=30).json()
            if q["over"] or q["legal"]:
                break
            assert time.monotonic() - start < 60, "the bot did not answer in 60 s"
            time.sleep(0.05)
        waits.append(time.monotonic() - start)
        if q["over"]:
            break
    return waits


def _human_game(url: str) -> tuple[str, str]:
    """A White Castle game, a human against a normal bot, at the human's first decision."""
    made = httpx.post(f"{url}/api/games", timeout=30, json={
        "game": "white-castle", "players": 2, "seats": ["human", "normal"]}).json()
    token = made["seats"][0]["token"]
    deadline = time.monotonic() + 60
    while not httpx.get(f"{url}/api/games/{made['id']}", params={"token": token},
                        timeout=30).json()["legal"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return made["id"], token


def test_a_humans_bot_answers_in_its_usual_time_while_a_client_floods_bot_only_games(
        tmp_path: Path) -> None:
    """On a server with no cap on games of bots only, one client starts 30 of four
    expert bots; a human's normal bot still answers within a few seconds, as it does on
    an idle server (the flood's bots think after it, on one of the two workers)."""
    srv = ServerProcess(tmp_path / "kamon.db", tmp_path / "server.log", bot_workers=2,
                        bot_delay=0.6, args=["--bot-only-games", "-1",
                                             "--rate-limit", "0"]).start()
    try:
        gid, token = _human_game(srv.url)
        quiet = _human_turns(srv.url, gid, token, 3)
        for _ in range(FLOOD):
            r = httpx.post(f"{srv.url}/api/games", json=BOT_ONLY, timeout=30)
            assert r.status_code == 201, r.text
        time.sleep(2)  # the flood's bots are thinking
        busy = _human_turns(srv.url, gid, token, 5)
        print(f"\nthe human's bot answered in {max(quiet):.2f} s at most on an idle "
              f"server, {max(busy):.2f} s at most during the flood ({busy})")
        # (before the queue: over 120 s; the bound leaves room for a loaded machine)
        assert max(busy) < max(15.0, 3 * max(quiet)), busy
    finally:
        srv.stop()


def _create(url: str, body: dict[str, Any], client: str) -> httpx.Response:
    """Create a game as the client `client` (named by the trusted proxy's header)."""
    return httpx.post(f"{url}/api/games", json=body, timeout=30,
                      headers={"X-Forwarded-For": client})


def test_a_client_has_at_most_two_bot_only_games_going_and_others_are_not_held_back(
        tmp_path: Path) -> None:
    """The default cap: a client's third game of bots only is refused (429, saying
    why) while its first two go on; another client may still start its own, and games
    with a human seat are never counted. With --bot-only-games 0 they are refused."""
    srv = ServerProcess(tmp_path / "kamon.db", tmp_path / "server.log", bot_workers=1,
                        args=["--trusted-proxy", "127.0.0.1", "--rate-limit", "0"]).start()
    try:
        first = [_create(srv.url, BOT_ONLY, "203.0.113.7") for _ in range(3)]
        assert [r.status_code for r in first] == [201, 201, 429]
        assert "games of bots only going" in first[2].json()["error"]
        assert _create(srv.url, BOT_ONLY, "203.0.113.8").status_code == 201
        human = {"game": "clansman", "players": 4, "seats": ["human"] + ["expert"] * 3}
        assert _create(srv.url, human, "203.0.113.7").status_code == 201
    finally:
        srv.stop()
    srv = ServerProcess(tmp_path / "kamon2.db", tmp_path / "server2.log", bot_workers=0,
                        args=["--bot-only-games", "0"]).start()
    try:
        r = httpx.post(f"{srv.url}/api/games", json=BOT_ONLY, timeout=30)
        assert r.status_code == 403 and "bots only" in r.json()["error"]
    finally:
        srv.stop()
