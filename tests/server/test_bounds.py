"""Memory and work that stay bounded: nothing is kept for a request about an unknown
game, the cache of rebuilt games has a size (finished games leave it first), and a move
builds each viewer's payload once however many sockets watch it."""

from __future__ import annotations

import secrets
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kamon.games.white_castle.state import WhiteCastleState
from tests.server.conftest import create, get, move, token_of, wait_for


def test_requests_about_unknown_games_leave_nothing_behind(client: TestClient) -> None:
    """40,000 such POSTs once grew the server by 300 MB: now each leaves no cache entry,
    no socket and no bot driver (25 of each kind here, within the write rate limit)."""
    server = client.app.state.live  # type: ignore[attr-defined]
    for _ in range(25):
        gid = secrets.token_urlsafe(9)
        assert client.post(f"/api/games/{gid}/moves",
                           json={"token": "t", "action": 1, "version": 0}).status_code == 404
        assert client.post(f"/api/games/{gid}/undo",
                           json={"token": "t", "version": 0}).status_code == 404
        assert client.get(f"/api/games/{gid}").status_code == 404
    with client.websocket_connect(f"/api/games/{secrets.token_urlsafe(9)}/ws") as ws:
        assert ws.receive_json()["status"] == 404
    assert server.bots.driving == set() and server.behind == {}
    assert len(server.service.cache) == 0
    assert server.hub.games == {} and server.hub.count == 0


def test_the_game_cache_is_bounded_and_finished_games_leave_it_first(
        client: TestClient) -> None:
    from kamon.server.service import GameCache  # (the server had no bounded cache before)
    server = client.app.state.live  # type: ignore[attr-defined]
    server.service.cache = cache = GameCache(live=3, finished=1)
    games = [create(client, "white-castle", 1, ["human"]) for _ in range(6)]
    for g in games:
        get(client, g["id"])
    assert len(cache) == 3
    assert [gid for gid in cache.parts[False][0]] == [g["id"] for g in games[3:]]
    done = [create(client, "white-castle", 2, ["random", "random"]) for _ in range(2)]
    for g in done:
        wait_for(client, g["id"], None, lambda q: q["over"])
    assert len(cache.parts[True][0]) == 1 and len(cache.parts[False][0]) <= 3
    first = get(client, games[0]["id"], token_of(games[0], 0))  # rebuilt from the store
    assert first["version"] == 0 and first["legal"]
    r = move(client, games[0]["id"], token_of(games[0], 0), first["legal"][0]["id"], 0)
    assert r.status_code == 200 and r.json()["version"] == 1


def test_a_move_builds_each_viewers_payload_once_however_many_sockets(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three sockets on seat 0, two on seat 1 and a spectator: a move builds the engine's
    view once (every seat of this game sees the spectator's view, hidden.py says), and
    each socket still gets its own seat's payload."""
    calls: Counter[Any] = Counter()
    view = WhiteCastleState.view

    def counted(self: WhiteCastleState, seat: int | None) -> dict[str, Any]:
        calls[seat] += 1
        return view(self, seat)

    monkeypatch.setattr(WhiteCastleState, "view", counted)
    g = create(client, "white-castle", 2, ["human", "human"])
    gid = g["id"]
    tokens = [token_of(g, 0), token_of(g, 1)]
    urls = [f"/api/games/{gid}/ws?token={tokens[s]}" for s in (0, 0, 0, 1, 1)]
    urls.append(f"/api/games/{gid}/ws")
    sockets = [client.websocket_connect(u) for u in urls]
    opened = [s.__enter__() for s in sockets]
    try:
        first = [ws.receive_json()["payload"] for ws in opened]
        mover = first[0]["to_move"]
        mine = first[0] if mover == 0 else first[3]
        calls.clear()
        r = move(client, gid, tokens[mover], mine["legal"][0]["id"], 0)
        assert r.status_code == 200
        seen = [ws.receive_json()["payload"] for ws in opened]
        assert {p["version"] for p in seen} == {1}
        assert dict(calls) == {None: 1}, dict(calls)
        assert [p["you"] for p in seen] == [0, 0, 0, 1, 1, None]
        assert [p["view"]["seat"] for p in seen] == [0, 0, 0, 1, 1, None]
        assert [bool(p["legal"]) for p in seen] == [
            p["you"] is not None and p["you"] == p["to_move"] for p in seen]
    finally:
        for s in sockets:
            s.__exit__(None, None, None)
