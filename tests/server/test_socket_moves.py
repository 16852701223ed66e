"""Moves and undos sent on a seat's WebSocket (what the web client does when its socket is
open): stored exactly as a POST would store them and answered by the socket's next state;
every refusal is a `refused` message naming the problem, the socket stays open, and the
stored game is unchanged."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from kamon.server.app import create_app
from tests.server.conftest import create, get, token_of


def stored_version(c: TestClient, gid: str) -> int:
    """The version the store holds (not the cache's)."""
    server = c.app.state.live  # type: ignore[attr-defined]
    version = server.store.head(gid)[0]
    assert isinstance(version, int)
    return version


def state(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next message, which must be a state; its payload."""
    msg = ws.receive_json()
    assert msg["type"] == "state", msg
    payload = msg["payload"]
    assert isinstance(payload, dict)
    return payload


def still_open(ws: WebSocketTestSession) -> None:
    """The socket answers a ping (and nothing was queued before the pong)."""
    ws.send_text("ping")
    assert ws.receive_json()["type"] == "pong"


def test_a_move_sent_on_the_seats_socket_is_stored_and_every_socket_hears_of_it(
        client: TestClient) -> None:
    """Eight moves of a 2-player game, each sent on the mover's socket: the store's
    version follows, and both seats and a spectator get each new state once."""
    g = create(client, "white-castle", 2, seed=11)
    gid, tokens = g["id"], [token_of(g, 0), token_of(g, 1)]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as a, \
            client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[1]}") as b, \
            client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        seen = [state(ws) for ws in (a, b, watcher)]
        for n in range(8):
            mover = seen[0]["to_move"]
            mine = seen[mover]
            assert mine["version"] == n
            action = mine["legal"][-1]["id"]
            (a, b)[mover].send_text(json.dumps({"type": "move", "action": action,
                                                "version": n}))
            seen = [state(ws) for ws in (a, b, watcher)]
            assert [p["version"] for p in seen] == [n + 1] * 3
            assert [p["you"] for p in seen] == [0, 1, None]
            assert stored_version(client, gid) == n + 1
        assert get(client, gid)["version"] == 8
        for ws in (a, b, watcher):
            still_open(ws)


def test_socket_writes_that_are_refused_say_why_as_the_post_would_and_change_nothing(
        client: TestClient) -> None:
    """A stale version, another seat's turn, unknown actions, a spectator's move,
    malformed JSON, a missing version, an undo with nothing to take back: each is a
    `refused` message with the status and reason the same POST gets; the socket stays
    open, and the stored game and every seat's payload are as before."""
    g = create(client, "white-castle", 2, seed=12)
    gid, tokens = g["id"], [token_of(g, 0), token_of(g, 1)]
    before = [get(client, gid, t) for t in tokens]
    mover = before[0]["to_move"]
    legal = before[mover]["legal"][0]["id"]
    cases: list[tuple[int | None, dict[str, Any] | str, int]] = [
        (mover, {"type": "move", "action": legal, "version": 5}, 409),
        (1 - mover, {"type": "move", "action": legal, "version": 0}, 403),
        (mover, {"type": "move", "action": 99999, "version": 0}, 400),
        (mover, {"type": "move", "action": "no such move", "version": 0}, 422),
        (mover, {"type": "move", "action": True, "version": 0}, 400),
        (None, {"type": "move", "action": legal, "version": 0}, 400),
        (mover, '{"type": "move", "action": ', 400),
        (mover, {"type": "move", "action": legal}, 400),
        (mover, {"type": "undo", "version": 0}, 409),
    ]
    for seat, sent, status in cases:
        query = "" if seat is None else f"?token={tokens[seat]}"
        text = sent if isinstance(sent, str) else json.dumps(sent)
        with client.websocket_connect(f"/api/games/{gid}/ws{query}") as ws:
            state(ws)
            ws.send_text(text)
            msg = ws.receive_json()
            still_open(ws)
        assert msg["type"] == "refused" and msg["status"] == status, (text, msg)
        assert msg["version"] == (None if isinstance(sent, str) else sent.get("version"))
        if isinstance(sent, str):
            r = client.post(f"/api/games/{gid}/moves", content=sent,
                            headers={"content-type": "application/json"})
            assert "json" in msg["error"].lower()
        else:
            body = {k: v for k, v in sent.items() if k != "type"}
            if seat is not None:
                body["token"] = tokens[seat]
            r = client.post(f"/api/games/{gid}/{sent['type']}s".replace("undos", "undo"),
                            json=body)
            assert msg["error"] == r.json()["error"], (text, msg, r.text)
        assert r.status_code == status, (text, r.text)
        assert stored_version(client, gid) == 0
        assert [get(client, gid, t) for t in tokens] == before


def test_a_socket_move_sent_twice_is_stored_once(client: TestClient) -> None:
    """A retried socket move (same seat, version and action) is answered as the first
    time: nothing more is stored and no refusal comes back."""
    g = create(client, "white-castle", 1, seed=13)
    gid, tok = g["id"], token_of(g, 0)
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as ws:
        p = state(ws)
        text = json.dumps({"type": "move", "action": p["legal"][0]["id"], "version": 0})
        ws.send_text(text)
        assert state(ws)["version"] == 1
        ws.send_text(text)
        still_open(ws)  # the pong is the next message: no second state, no refusal
        assert stored_version(client, gid) == 1


def test_an_undo_sent_on_the_socket_takes_the_move_back(client: TestClient) -> None:
    """Move, then undo on the same socket: the game is back at the first position (a
    new version, as with a POSTed undo)."""
    g = create(client, "white-castle", 1, seed=14)
    gid, tok = g["id"], token_of(g, 0)
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as ws:
        first = state(ws)
        ws.send_text(json.dumps({"type": "move", "action": first["legal"][0]["id"],
                                 "version": 0}))
        moved = state(ws)
        assert moved["can_undo"] is True
        ws.send_text(json.dumps({"type": "undo", "version": 1}))
        undone = state(ws)
        assert undone["version"] == 2
        assert [x["id"] for x in undone["legal"]] == [x["id"] for x in first["legal"]]
        assert stored_version(client, gid) == 2


def test_socket_moves_are_bounded_by_the_write_rate_limit_not_the_ping_cap(
        tmp_path: Path) -> None:
    """Socket writes count against the same per-client limit as POSTs (a limit of one
    a second: the second quick move is refused 429 with a retry hint, and not stored),
    and not against the cap on other socket messages (30 quick moves with no limit keep
    the socket open)."""
    limited = create_app(str(tmp_path / "a.db"), bot_workers=0, bot_delay=0, rate=1,
                         burst=1)
    with TestClient(limited) as c:
        g = create(c, "white-castle", 1, seed=15)
        gid, tok = g["id"], token_of(g, 0)
        time.sleep(1.1)  # the create spent the burst: one write is allowed again
        with c.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as ws:
            p = state(ws)
            ws.send_text(json.dumps({"type": "move", "action": p["legal"][0]["id"],
                                     "version": 0}))
            p = state(ws)
            ws.send_text(json.dumps({"type": "move", "action": p["legal"][0]["id"],
                                     "version": 1}))
            msg = ws.receive_json()
            assert msg["type"] == "refused" and msg["status"] == 429, msg
            assert msg["retry_after"] >= 1 and "too many writes" in msg["error"]
            assert stored_version(c, gid) == 1
    free = create_app(str(tmp_path / "b.db"), bot_workers=0, bot_delay=0, rate=0)
    with TestClient(free) as c:
        g = create(c, "white-castle", 1, seed=16)
        gid, tok = g["id"], token_of(g, 0)
        with c.websocket_connect(f"/api/games/{gid}/ws?token={tok}") as ws:
            p = state(ws)
            for n in range(30):
                ws.send_text(json.dumps({"type": "move", "action": p["legal"][0]["id"],
                                         "version": n}))
                p = state(ws)
                assert p["version"] == n + 1
            still_open(ws)
        assert stored_version(c, gid) == 30
