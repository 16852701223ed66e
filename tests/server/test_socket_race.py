"""A socket opened on one process while another process stores a move never misses it
(issue 35: the notification came while the socket's first read was in flight and was
dropped, 2 of 300 trials): the socket is registered, then the stored version is read
again. And a ping carries the page's heartbeat: the pong says the newest version sent."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.server.conftest import ServerProcess, run_async

TRIALS = 320  # 40 a stream, each with the pause below injected (the issue saw 2 of 300 miss)
STREAMS = 8  # trials run side by side (each on games of its own)
OPEN_PAUSE = 0.05  # seconds process A holds a socket between its first read and registering


async def _mover_body(http: httpx.AsyncClient, url: str, gid: str,
                      tokens: dict[int, str]) -> dict[str, Any] | None:
    """The move the seat to move would make now (None: the game is over)."""
    pub = (await http.get(f"{url}/api/games/{gid}")).json()
    if pub["over"]:
        return None
    tok = tokens[pub["to_move"]]
    mine = (await http.get(f"{url}/api/games/{gid}", params={"token": tok})).json()
    return {"token": tok, "action": mine["legal"][0]["id"], "version": mine["version"]}


async def _new_game(http: httpx.AsyncClient, url: str) -> tuple[str, dict[int, str]]:
    """A two-player White Castle game between two human seats."""
    r = await http.post(f"{url}/api/games", json={
        "game": "white-castle", "players": 2, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    made = r.json()
    return made["id"], {s["seat"]: s["token"] for s in made["seats"]}


async def _trial(http: httpx.AsyncClient, a: str, b: str, gid: str,
                 tokens: dict[int, str], body: dict[str, Any]) -> bool:
    """Open a spectator socket on process `a` (which waits OPEN_PAUSE between its first
    read and registering the socket) and, once it is accepted, store `body` through
    process `b`, inside that window: did the socket see the new version within 10 s?"""
    want = body["version"] + 1
    ws_url = a.replace("http://", "ws://") + f"/api/games/{gid}/ws"
    async with websockets.connect(ws_url, open_timeout=20) as ws:
        r = await http.post(f"{b}/api/games/{gid}/moves", json=body)
        assert r.status_code == 200, r.text
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                text = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
            except TimeoutError:
                return False
            msg = json.loads(text)
            if msg["type"] == "state" and msg["payload"]["version"] >= want:
                return True
        return False


async def _stream(a: str, b: str, trials: int) -> int:
    """Run `trials` trials on games of this stream's own; how many missed the move."""
    missed = 0
    async with httpx.AsyncClient(timeout=30) as http:
        gid, tokens = await _new_game(http, b)
        for _ in range(trials):
            body = await _mover_body(http, b, gid, tokens)
            if body is None:
                gid, tokens = await _new_game(http, b)
                body = await _mover_body(http, b, gid, tokens)
                assert body is not None
            if not await _trial(http, a, b, gid, tokens, body):
                missed += 1
    return missed


@pytest.mark.timeout(900)
def test_a_socket_opening_while_another_process_stores_a_move_sees_it(
        postgres_url: str, tmp_path: Path) -> None:
    """1,000 trials, each a socket opened on process A while process B stores a move in
    the window between A's first read and the socket's registration (held open by a
    fault of A's): the socket sees that move every time."""
    servers = [ServerProcess(postgres_url, tmp_path / f"kamon{i}.log", bot_workers=0,
                             args=["--rate-limit", "0"],
                             env={"KAMON_FAULT": f"slow-socket-open:{OPEN_PAUSE}"} if i == 0
                             else None).start() for i in range(2)]
    try:
        a, b = servers[0].url, servers[1].url

        async def run() -> list[int]:
            return list(await asyncio.gather(*(
                _stream(a, b, TRIALS // STREAMS) for _ in range(STREAMS))))

        missed = run_async(run)
        assert sum(missed) == 0, f"{sum(missed)} of {TRIALS} sockets missed the move"
    finally:
        for s in servers:
            s.stop()


def test_a_ping_is_answered_with_the_newest_version_sent(tmp_path: Path) -> None:
    """The page's heartbeat: a ping's pong names the version the socket was sent, so a
    page that shows an older one knows it is behind."""
    from fastapi.testclient import TestClient

    from kamon.server.app import create_app

    with TestClient(create_app(str(tmp_path / "k.db"), bot_workers=0, bot_delay=0,
                               rate=0)) as c:
        g = c.post("/api/games", json={"game": "white-castle", "players": 2,
                                       "seats": ["human", "human"]}).json()
        with c.websocket_connect(f"/api/games/{g['id']}/ws") as ws:
            assert ws.receive_json()["payload"]["version"] == 0
            ws.send_text('{"type": "ping"}')
            assert ws.receive_json() == {"type": "pong", "version": 0}
