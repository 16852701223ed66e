"""Fixtures for the server tests: a real app over a real SQLite file, driven over HTTP."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kamon.server.app import create_app


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh SQLite file for one test."""
    return tmp_path / "kamon.db"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    """The app on that file; bots think in a thread and move at once."""
    app = create_app(str(db_path), bot_workers=0, bot_delay=0)
    with TestClient(app) as c:
        yield c


def create(c: TestClient, game: str = "white-castle", players: int = 2,
           seats: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """Create a game through the API (201 expected) and return the answer. A seed for a
    game with several human seats (which the API refuses: only practice games take one)
    is set the way an operator would, in process, so such tests stay reproducible."""
    body: dict[str, Any] = {"game": game, "players": players,
                            "seats": seats or ["human"] * players}
    body.update(extra)
    if "seed" in body and body["seats"].count("human") > 1:
        server = c.app.state.server  # type: ignore[attr-defined]
        assert "human" in body["seats"] and set(body["seats"]) == {"human"}, \
            "an operator-seeded game here has human seats only (no bot driver is started)"
        return dict(server.service.create(body, operator=True))
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def token_of(created: dict[str, Any], seat: int) -> str:
    """The invite token of a human seat."""
    token = created["seats"][seat]["token"]
    assert isinstance(token, str)
    return token


def get(c: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    """The payload for a token (or a spectator)."""
    r = c.get(f"/api/games/{gid}", params={"token": token} if token else {})
    assert r.status_code == 200, r.text
    return dict(r.json())


def wait_for(c: TestClient, gid: str, token: str | None, cond: Any,
             timeout: float = 60.0) -> dict[str, Any]:
    """Poll the payload until `cond(payload)` (bots move in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        p = get(c, gid, token)
        if cond(p):
            return p
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting; last payload: to_move={p['to_move']} "
                                 f"version={p['version']} over={p['over']}")
        time.sleep(0.02)


def move(c: TestClient, gid: str, token: str, action: Any, version: int) -> Any:
    """POST a move; the raw response."""
    return c.post(f"/api/games/{gid}/moves",
                  json={"token": token, "action": action, "version": version})


def play_humans(c: TestClient, gid: str, tokens: dict[int, str],
                moves: int | None = None) -> dict[str, Any]:
    """Play the human seats' first legal action, `moves` times (None: until the game
    ends; bots move alone meanwhile); the last payload seen."""
    n = 0
    while moves is None or n < moves:
        p = wait_for(c, gid, None, lambda q: q["over"] or q["to_move"] in tokens)
        if p["over"]:
            return p
        tok = tokens[p["to_move"]]
        mine = get(c, gid, tok)
        r = move(c, gid, tok, mine["legal"][0]["id"], mine["version"])
        assert r.status_code == 200, r.text
        n += 1
        if moves is None and n > 2000:
            raise AssertionError("the game did not end")
    return get(c, gid)
