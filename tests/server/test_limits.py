"""What the server refuses before it does any work, and what every answer carries:
security headers on every page, JSON-only writes, a body size limit, a per-client write
rate limit, JSON too deep or numbers too long (400, never 500), binary WebSocket frames
(a close frame), and the seed policy (a chosen seed only for practice games)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from kamon.server.app import create_app
from tests.server.conftest import create, get, token_of


def _count(c: TestClient) -> int:
    return int(c.app.state.live.store.count_games())  # type: ignore[attr-defined]


# --- headers ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/play/abc?token=secret", "/static/app.js",
                                  "/static/style.css", "/api/catalog", "/api/games/nope",
                                  "/api/data/white-castle", "/docs", "/no-such-page"])
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    r = client.get(path)
    csp = r.headers.get("content-security-policy", "")
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp.split(
        "script-src", 1)[1].split(";")[0]
    assert "object-src 'none'" in csp and "base-uri 'none'" in csp
    assert r.headers.get("x-frame-options") == "DENY"
    assert r.headers.get("x-content-type-options") == "nosniff"
    assert r.headers.get("referrer-policy") == "no-referrer"  # seat tokens are in URLs
    if path.startswith("/api/"):
        assert r.headers.get("cache-control") == "no-store"


def test_refusals_carry_the_headers_too(client: TestClient) -> None:
    for r in (client.post("/api/games", content=b"x", headers={"Content-Type": "text/plain"}),
              client.post("/api/games", json={"game": "chess", "players": 2})):
        assert r.status_code in (400, 415)
        assert r.headers["referrer-policy"] == "no-referrer"
        assert "default-src 'self'" in r.headers["content-security-policy"]


# --- content type, body size, rate ---------------------------------------------------------

@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded",
                                   "multipart/form-data; boundary=x", None])
def test_the_api_refuses_writes_that_are_not_json_and_creates_nothing(
        client: TestClient, ctype: str | None) -> None:
    """A cross-origin form or text/plain POST (which browsers send without asking) cannot
    create a game or move."""
    headers = {"Content-Type": ctype} if ctype else {}
    body = b'{"game": "white-castle", "players": 1, "seats": ["human"]}'
    r = client.post("/api/games", content=body, headers=headers)
    assert r.status_code == 415, r.text
    assert "Content-Type: application/json" in r.json()["error"]
    assert _count(client) == 0
    ok = client.post("/api/games", content=body,
                     headers={"Content-Type": "application/json; charset=utf-8"})
    assert ok.status_code == 201


def test_a_body_over_the_limit_is_refused_with_413_whether_its_length_is_said_or_not(
        client: TestClient) -> None:
    big = b'{"game": "white-castle", "players": 1, "pad": "' + b"x" * 300_000 + b'"}'
    r = client.post("/api/games", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "larger than" in r.json()["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: sent chunked
        yield b'{"pad": "'
        for _ in range(40):
            yield b"y" * 10_000
        yield b'"}'

    r = client.post("/api/games", content=chunks(),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert _count(client) == 0


def test_writes_are_rate_limited_per_client_and_reads_are_not(db_path: Path) -> None:
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=2,
                               burst=5)) as c:
        codes = [c.post("/api/games/nosuchgame/moves", json={}).status_code
                 for _ in range(8)]
        assert codes[:5] == [404] * 5 and set(codes[5:]) == {429}
        r = c.post("/api/games/nosuchgame/moves", json={})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert "too many writes" in r.json()["error"]
        assert all(c.get("/api/catalog").status_code == 200 for _ in range(20))


# --- JSON that would break a route ------------------------------------------------------

def test_json_nested_100000_deep_is_refused_with_400(client: TestClient) -> None:
    body = b"[" * 100_000 + b"]" * 100_000
    for path in ("/api/games", "/api/games/abc/moves"):
        r = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, r.text
        assert "nested too deeply" in r.json()["error"]


def test_json_nested_5000_deep_inside_options_is_refused_with_400(client: TestClient) -> None:
    deep = "[" * 5000 + "]" * 5000
    body = ('{"game": "white-castle", "players": 1, "seats": ["human"], '
            '"options": {"difficulty": ' + deep + "}}").encode()
    r = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "nested too deeply" in r.json()["error"]
    assert _count(client) == 0


@pytest.mark.parametrize("number", ["1" * 5000, "-" + "9" * 4301, str(2 ** 70)])
def test_integers_too_long_or_too_large_are_refused_with_400(client: TestClient,
                                                             number: str) -> None:
    g = create(client, "white-castle", 1, ["human"])
    tok = token_of(g, 0)
    for path, body in (
            ("/api/games", '{"game": "white-castle", "players": ' + number + "}"),
            (f"/api/games/{g['id']}/moves",
             '{"token": "' + tok + '", "action": 1, "version": ' + number + "}")):
        r = client.post(path, content=body.encode(),
                        headers={"Content-Type": "application/json"})
        assert r.status_code == 400, r.text
        assert "number" in r.json()["error"]
    assert get(client, g["id"])["version"] == 0


# --- WebSocket frames --------------------------------------------------------------------

def test_a_binary_websocket_frame_is_answered_with_a_close_frame(client: TestClient) -> None:
    g = create(client, "white-castle", 1, ["human"])
    with client.websocket_connect(f"/api/games/{g['id']}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_bytes(b"\x00\x01binary")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 1003 and "binary" in closed.value.reason
    with client.websocket_connect(f"/api/games/{g['id']}/ws") as ws:  # the game goes on
        assert ws.receive_json()["payload"]["version"] == 0
        ws.send_text("ping")
        assert ws.receive_json()["type"] == "pong"


def test_a_socket_that_floods_the_server_is_closed(client: TestClient) -> None:
    g = create(client, "white-castle", 1, ["human"])
    with client.websocket_connect(f"/api/games/{g['id']}/ws") as ws:
        ws.receive_json()
        for _ in range(40):
            ws.send_text("x" * 100)
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
        assert closed.value.code == 1008


@pytest.mark.parametrize("text", ["hello", "{not json", "[1, 2]", '{"no": "type"}',
                                  '{"type": "shout"}', '"\\ud800"'])
def test_a_socket_message_that_is_not_a_move_undo_or_ping_is_refused_with_the_reason(
        client: TestClient, text: str) -> None:
    """Every text frame gets an answer: one that is not JSON, or not an object with a
    known `type`, is a `refused` message (400) saying what a message must be; the
    socket stays open and the game is unchanged."""
    g = create(client, "white-castle", 1, ["human"])
    with client.websocket_connect(f"/api/games/{g['id']}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text(text)
        refused = ws.receive_json()
        assert refused["type"] == "refused" and refused["status"] == 400, refused
        assert "socket message" in refused["error"] and refused["version"] is None
        ws.send_text("ping")
        assert ws.receive_json()["type"] == "pong"
    assert get(client, g["id"])["version"] == 0


@pytest.mark.parametrize("path", ["moves", "undo"])
def test_a_token_that_is_not_text_a_seat_could_have_is_refused_with_403(
        client: TestClient, path: str) -> None:
    """A token holding a lone UTF-16 surrogate (valid JSON, no valid UTF-8) once failed
    in hashing with a 500: it is a token of no seat, 403, and nothing is stored."""
    g = create(client, "white-castle", 2, ["human", "human"])
    for token in ("\\ud800", "\\udfff\\ud800x", "a b", "tok\\u0000en"):
        r = client.post(f"/api/games/{g['id']}/{path}",
                        content=f'{{"token": "{token}", "action": 77, "version": 0}}',
                        headers={"content-type": "application/json"})
        assert r.status_code == 403, r.text
        assert "not a seat of this game" in r.json()["error"]
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token=%ED%A0%80") as ws:
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["status"] == 403
    assert get(client, g["id"])["version"] == 0


# --- the seed --------------------------------------------------------------------------------

@pytest.mark.parametrize(("seats", "extra"), [
    (["human", "human"], {}),
    (["human", "random", "human"], {}),
    (["human"], {"rated": True}),
])
def test_a_chosen_seed_is_refused_unless_the_game_is_a_practice_game(
        client: TestClient, seats: list[str], extra: dict[str, Any]) -> None:
    r = client.post("/api/games", json={"game": "white-castle", "players": len(seats),
                                        "seats": seats, "seed": 7, **extra})
    assert r.status_code == 400, r.text
    assert "practice game" in r.json()["error"] and "seed" in r.json()["error"]
    assert _count(client) == 0


def test_a_practice_game_takes_a_seed_and_says_so_and_others_are_drawn(
        client: TestClient) -> None:
    practice = create(client, "white-castle", 2, ["human", "random"], seed=7)
    assert practice["mode"] == "practice"
    server = client.app.state.live  # type: ignore[attr-defined]
    assert server.store.game(practice["id"]).seed == 7
    assert get(client, practice["id"])["mode"] == "practice"
    drawn = [create(client, "white-castle", 2, ["human", "human"]) for _ in range(2)]
    assert [g["mode"] for g in drawn] == ["casual", "casual"]
    seeds = {server.store.game(g["id"]).seed for g in drawn}
    assert len(seeds) == 2 and 7 not in seeds
    rated = create(client, "white-castle", 1, ["human"], rated=True)
    assert rated["mode"] == "rated" and get(client, rated["id"])["mode"] == "rated"


def test_the_lobby_says_a_seed_is_only_for_practice_games(client: TestClient) -> None:
    page = client.get("/").text
    assert 'id="seed-policy"' in page and "practice" in page
    assert "practice game" in client.get("/api/catalog").json()["seed_policy"]
    assert "humans > 1" in client.get("/static/lobby.js").text  # the field turns off
