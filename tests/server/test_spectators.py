"""Spectators cannot lock a player out of their own game (issue 35: 64 token-less sockets
made the seat's socket get "too many sockets are open on this game"): spectators have
their own quota per game and per address, and a seat's sockets are counted per seat."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from kamon.server.hub import (
    MAX_SOCKETS_PER_SEAT,
    MAX_SPECTATORS_PER_ADDRESS,
    MAX_SPECTATORS_PER_GAME,
)
from tests.server.conftest import ServerProcess

SPECTATORS = 200


def _open(url: str, address: str) -> tuple[ClientConnection, dict[str, object]]:
    """A socket on `url` from `address` (named to the trusted proxy's header): the
    socket and its first message (a state, or the refusal before the close)."""
    ws = connect(url, open_timeout=20, additional_headers={"X-Forwarded-For": address},
                 legacy=True)
    return ws, json.loads(ws.recv(timeout=20))


def test_a_seat_connects_while_200_spectators_hold_sockets(tmp_path: Path) -> None:
    """200 spectators from 200 addresses: the game's first MAX_SPECTATORS_PER_GAME get
    in, the rest are refused with the reason (close 1013); the seat's own socket still
    connects, up to MAX_SOCKETS_PER_SEAT tabs; one address watches at most
    MAX_SPECTATORS_PER_ADDRESS sockets."""
    srv = ServerProcess(tmp_path / "kamon.db", tmp_path / "server.log", bot_workers=0,
                        args=["--trusted-proxy", "127.0.0.1"]).start()
    held: list[ClientConnection] = []
    try:
        made = httpx.post(srv.url + "/api/games", timeout=30, json={
            "game": "white-castle", "players": 2, "seats": ["human", "human"]}).json()
        ws_url = srv.url.replace("http://", "ws://") + f"/api/games/{made['id']}/ws"
        refused = 0
        for i in range(SPECTATORS):
            ws, first = _open(ws_url, f"198.51.100.{i % 250 + 1}")
            held.append(ws)
            if first["type"] == "error":
                refused += 1
                assert first["status"] == 503 and "spectators already" in first["error"]
        assert refused == SPECTATORS - MAX_SPECTATORS_PER_GAME
        seat_url = f"{ws_url}?token={made['seats'][0]['token']}"
        tabs = [_open(seat_url, "198.51.100.1") for _ in range(MAX_SOCKETS_PER_SEAT + 1)]
        held += [ws for ws, _ in tabs]
        assert all(first["type"] == "state" for _, first in tabs[:-1])
        assert tabs[-1][1]["type"] == "error" and "another tab" in str(tabs[-1][1]["error"])

        other = httpx.post(srv.url + "/api/games", timeout=30, json={
            "game": "white-castle", "players": 1, "seats": ["human"]}).json()
        url2 = srv.url.replace("http://", "ws://") + f"/api/games/{other['id']}/ws"
        mine = [_open(url2, "192.0.2.9") for _ in range(MAX_SPECTATORS_PER_ADDRESS + 1)]
        held += [ws for ws, _ in mine]
        assert [f["type"] for _, f in mine] == ["state"] * MAX_SPECTATORS_PER_ADDRESS + \
            ["error"]
        assert "your address watches" in str(mine[-1][1]["error"])
    finally:
        for ws in held:
            with contextlib.suppress(ConnectionClosed, OSError):
                ws.close()
        srv.stop()
