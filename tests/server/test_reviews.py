"""Post-game reviews on the server (issue 37): a seat of a finished game asks for the
review of its own decisions; it is computed in the background by the bot workers at the
lowest priority, stored with the game (asked again: the same, not computed again), and
refused to spectators, to unfinished games and to a client with another under way."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kamon.server.app import create_app
from tests.learn.test_review import BUDGET, record_with_a_blunder
from tests.server.conftest import create, move, token_of


@pytest.fixture
def review_client(db_path: Path) -> Iterator[TestClient]:
    """The app with a small review budget (the blunder is clear at it)."""
    app = create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0,
                     review_iterations=BUDGET)
    with TestClient(app) as c:
        yield c


def _played_with_a_blunder(c: TestClient) -> tuple[str, dict[int, str], int]:
    """The blunder record's game played through the API by its two seats: the game's
    id, the seats' tokens and the blunder's index."""
    record, where = record_with_a_blunder("white-castle", 2, 3)
    created = create(c, "white-castle", 2, ["human", "human"], seed=record.seed)
    gid = created["id"]
    tokens = {0: token_of(created, 0), 1: token_of(created, 1)}
    for version, text in enumerate(record.actions):
        mover = c.get(f"/api/games/{gid}").json()["to_move"]
        r = move(c, gid, tokens[mover], text, version)
        assert r.status_code == 200, r.text
    assert c.get(f"/api/games/{gid}").json()["over"]
    return gid, tokens, where


def _wait(c: TestClient, gid: str, token: str) -> dict[str, Any]:
    """The review's status once it is no longer running."""
    deadline = time.monotonic() + 300
    while True:
        got = c.get(f"/api/games/{gid}/review", params={"token": token}).json()
        if got["status"] != "running":
            return dict(got)
        assert time.monotonic() < deadline, got
        assert 0 <= got["done"] <= got["total"]
        time.sleep(0.2)


def test_a_seats_review_names_its_deliberate_blunder_and_is_computed_once(
        review_client: TestClient) -> None:
    c = review_client
    gid, tokens, where = _played_with_a_blunder(c)
    assert c.get(f"/api/games/{gid}/review", params={"token": tokens[0]}).json() == \
        {"status": None, "seat": 0}
    started = c.post(f"/api/games/{gid}/review", json={"token": tokens[0]})
    assert started.status_code == 200 and started.json()["status"] in ("running", "done")
    done = _wait(c, gid, tokens[0])
    assert done["status"] == "done" and done["done"] == done["total"] > 0
    review = done["review"]
    assert review["seat"] == 0 and review["mistakes"][0] == where
    blunder = next(d for d in review["decisions"] if d["index"] == where)
    assert blunder["mistake_rank"] == 1 and blunder["cost"] >= 1.0
    assert review["rounds"] and all(r["text"] for r in review["rounds"])
    again = c.post(f"/api/games/{gid}/review", json={"token": tokens[0]}).json()
    assert again["review"] == review  # stored: not computed again
    rows = c.app.state.live.store.query(  # type: ignore[attr-defined]
        "SELECT count(*) FROM reviews WHERE game_id = ?", (gid,), "count")
    assert rows[0][0] == 1


def test_reviews_are_refused_to_spectators_unfinished_games_and_a_second_at_once(
        review_client: TestClient) -> None:
    c = review_client
    r = c.post("/api/games/nogame/review", json={"token": "x"})
    assert r.status_code == 404
    live = create(c, "white-castle", 2, ["human", "human"])
    r = c.post(f"/api/games/{live['id']}/review", json={"token": token_of(live, 0)})
    assert r.status_code == 409 and "over" in r.json()["error"]
    gid, tokens, _ = _played_with_a_blunder(c)
    r = c.post(f"/api/games/{gid}/review", json={})
    assert r.status_code == 403 and "your seat" in r.json()["error"]
    r = c.post(f"/api/games/{gid}/review", json={"token": "not-a-seat"})
    assert r.status_code == 403
    store = c.app.state.live.store  # type: ignore[attr-defined]
    store.write(lambda cur: cur.execute(store.sql(  # this client's review of another game,
        "INSERT INTO reviews (game_id, seat, status, done, total, client, updated_at) "
        "VALUES (?,?,?,?,?,?,?)"), (live["id"], 0, "running", 1, 9, "testclient",
                                    time.time())), "a review under way")  # under way
    second = c.post(f"/api/games/{gid}/review", json={"token": tokens[1]})
    assert second.status_code == 429 and "one review at a time" in second.json()["error"]
    assert c.get(f"/api/games/{gid}/review", params={"token": tokens[1]}).json()[
        "status"] is None  # nothing started
