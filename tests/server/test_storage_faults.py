"""The database misbehaving: busy (another process holds the write lock), read-only,
rows that do not read back as a game, rows changed behind the server's back. Each is a
JSON error that names the game and the problem (500 damaged, 503 busy or read-only, with
a retry hint when waiting helps); the event loop never waits for it, the other games go
on being served, and the bots carry on once the database does."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from kamon.server.app import create_app
from kamon.server.store import BUSY_TIMEOUT
from tests.server.conftest import create, get, move, play_humans, token_of, wait_for


def _hold_write_lock(db: Path, seconds: float, held: threading.Event) -> None:
    """Another process's writer: take SQLite's write lock and keep it `seconds`."""
    conn = sqlite3.connect(db, isolation_level=None, timeout=30)
    conn.execute("BEGIN IMMEDIATE")
    held.set()
    time.sleep(seconds)
    conn.execute("ROLLBACK")
    conn.close()


def test_a_busy_database_is_a_503_with_a_retry_hint_and_never_stalls_the_server(
        serve: Any, tmp_path: Path) -> None:
    """While another process holds the write lock for 6 s: the catalogue (no database)
    and game reads answer at once, a move and a create sent half a second later are
    each refused with 503, JSON and Retry-After once they have waited the busy timeout
    (2 s; the create, queued behind the move, once waited nearly 4); once the lock is
    gone the move is played."""
    db = tmp_path / "kamon.db"
    srv = serve(db)
    g = srv.api("/api/games", {"game": "white-castle", "players": 2,
                               "seats": ["human", "human"]}).json()
    tokens = {s["seat"]: s["token"] for s in g["seats"]}
    pub = srv.api(f"/api/games/{g['id']}").json()
    tok = tokens[pub["to_move"]]
    mine = srv.api(f"/api/games/{g['id']}", token=tok).json()
    body = {"token": tok, "action": mine["legal"][0]["id"], "version": 0}
    held = threading.Event()
    holder = threading.Thread(target=_hold_write_lock, args=(db, 6.0, held))
    holder.start()
    try:
        assert held.wait(10)
        answers: dict[str, Any] = {}

        def write(name: str, path: str, data: dict[str, Any]) -> None:
            t = time.monotonic()
            answers[name] = (httpx.post(srv.url + path, json=data, timeout=30),
                             time.monotonic() - t)

        writers = [threading.Thread(target=write, args=("move", f"/api/games/{g['id']}/moves",
                                                        body)),
                   threading.Thread(target=write, args=("create", "/api/games", {
                       "game": "clansman", "players": 4}))]
        writers[0].start()
        time.sleep(0.5)  # the create comes while the move waits for the lock
        writers[1].start()
        time.sleep(0.3)  # both writes are waiting for the lock now
        t = time.monotonic()
        assert srv.api("/api/catalog").status_code == 200
        assert srv.api(f"/api/games/{g['id']}").json()["version"] == 0
        # a read that waited for the lock would take the busy timeout (2 s); on a loaded
        # machine two reads may take over 1 s without waiting for anything
        assert time.monotonic() - t < 1.8, "reads waited for the locked database"
        for w in writers:
            w.join(30)
        for name in ("move", "create"):
            r, took = answers[name]
            assert r.status_code == 503, (name, r.text)
            assert "busy" in r.json()["error"] and r.json()["retry_after"] >= 1
            assert int(r.headers["retry-after"]) >= 1
            assert took < BUSY_TIMEOUT + 0.8, f"{name} waited {took:.1f}s"
        assert g["id"] in answers["move"][0].json()["error"]
    finally:
        holder.join(30)
    r = srv.api(f"/api/games/{g['id']}/moves", body)
    assert r.status_code == 200 and r.json()["version"] == 1


def test_the_bots_wait_out_a_busy_database_and_carry_on(db_path: Path) -> None:
    """A bot's move that meets a database locked for longer than a write waits (7 s) is
    tried again until it is stored."""
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=1.0, rate=0)) as c:
        g = create(c, "white-castle", 2, ["human", "random"], seed=12)
        tok = token_of(g, 0)
        p = get(c, g["id"], tok)
        while p["to_move"] == 0:
            r = move(c, g["id"], tok, p["legal"][0]["id"], p["version"])
            assert r.status_code == 200, r.text
            p = r.json()
        held = threading.Event()
        holder = threading.Thread(target=_hold_write_lock, args=(db_path, 7.0, held))
        holder.start()  # the bot waits 1 s before it thinks: the lock is taken first
        assert held.wait(10)
        holder.join(30)
        wait_for(c, g["id"], None, lambda q: q["version"] > p["version"], timeout=40)


def test_a_read_only_database_serves_reads_and_refuses_writes_with_503(
        db_path: Path) -> None:
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        g = create(c, "white-castle", 1, ["human"])
        tok = token_of(g, 0)
        p = get(c, g["id"], tok)
    read_only = f"sqlite:///file:{db_path}?mode=ro&uri=true"
    with TestClient(create_app(read_only, bot_workers=0, bot_delay=0, rate=0)) as c:
        assert get(c, g["id"], tok)["version"] == 0
        r = move(c, g["id"], tok, p["legal"][0]["id"], 0)
        assert r.status_code == 503, r.text
        assert "read-only" in r.json()["error"] and g["id"] in r.json()["error"]
        r = c.post("/api/games", json={"game": "white-castle", "players": 1})
        assert r.status_code == 503 and "read-only" in r.json()["error"]
        assert get(c, g["id"], tok)["version"] == 0


DAMAGE: dict[str, tuple[str, str]] = {
    "options not JSON": ("UPDATE games SET options = '{not json' WHERE id = ?",
                         "options column is not JSON"),
    "options not an object": ("UPDATE games SET options = '[1, 2]' WHERE id = ?",
                              "options are not a JSON object"),
    "seed not an integer": ("UPDATE games SET seed = 'abc' WHERE id = ?",
                            "seed 'abc' is not an integer"),
    "seat rows gone": ("DELETE FROM seats WHERE game_id = ?", "0 seat rows for 2 players"),
    "a move row gone": ("DELETE FROM actions WHERE game_id = ? AND idx = 1",
                        "action rows for version"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_stored_game_is_a_500_naming_it_while_the_others_play_on(
        db_path: Path, damage: str) -> None:
    sql, says = DAMAGE[damage]
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        bad = create(c, "white-castle", 2, ["human", "human"])
        good = create(c, "white-castle", 2, ["human", "human"])
        for g in (bad, good):
            play_humans(c, g["id"], {0: token_of(g, 0), 1: token_of(g, 1)}, 3)
    with sqlite3.connect(db_path) as conn:
        conn.execute(sql, (bad["id"],))
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        for path in (f"/api/games/{bad['id']}", f"/api/games/{bad['id']}/record"):
            r = c.get(path)
            assert r.status_code == 500, r.text
            assert says in r.json()["error"] and bad["id"] in r.json()["error"]
        r = move(c, bad["id"], token_of(bad, 0), "pass", 3)
        assert r.status_code == 500 and says in r.json()["error"]
        with c.websocket_connect(f"/api/games/{bad['id']}/ws") as ws:
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["status"] == 500 and says in msg["error"]
        tokens = {0: token_of(good, 0), 1: token_of(good, 1)}
        play_humans(c, good["id"], tokens, 2)
        assert get(c, good["id"])["version"] == 5


CHANGES: dict[str, Callable[[sqlite3.Connection, str], None]] = {
    "a move's action": lambda conn, gid: conn.execute(
        "UPDATE actions SET action_id = ?, notation = ? WHERE game_id = ? AND idx = 0",
        (*conn.execute("SELECT action_id + 1, 'changed' FROM actions WHERE game_id = ? "
                       "AND idx = 0", (gid,)).fetchone(), gid)),
    "the options": lambda conn, gid: conn.execute(
        "UPDATE games SET options = '{\"first_game\": true}' WHERE id = ?", (gid,)),
    "a seat's token": lambda conn, gid: conn.execute(
        "UPDATE seats SET token_hash = 'x' WHERE game_id = ? AND seat = 1", (gid,)),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_row_changed_without_a_version_bump_is_detected(db_path: Path,
                                                          change: str) -> None:
    """A row edited behind the server's back (the game still plays, so nothing else would
    notice) is refused when the game is next rebuilt from the store."""
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        g = create(c, "white-castle", 2, ["human", "human"])
        tokens = {0: token_of(g, 0), 1: token_of(g, 1)}
        p = get(c, g["id"])
        mine = get(c, g["id"], tokens[p["to_move"]])
        legal = [a["id"] for a in mine["legal"]]
        r = move(c, g["id"], tokens[p["to_move"]], legal[0], 0)
        assert r.status_code == 200
        assert legal[0] + 1 in legal  # the changed move is a legal one: it would replay
    with sqlite3.connect(db_path) as conn:
        CHANGES[change](conn, g["id"])
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        r = c.get(f"/api/games/{g['id']}")
        assert r.status_code == 500, r.text
        assert "changed without a version bump" in r.json()["error"]
        assert g["id"] in r.json()["error"]


def test_the_bots_of_other_games_play_on_when_one_game_is_damaged(db_path: Path) -> None:
    """At start-up the bot drivers resume every unfinished game: a damaged one stops
    only its own driver."""
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        server = c.app.state.live  # type: ignore[attr-defined]
        bad = server.service.create({"game": "white-castle", "players": 2,
                                     "seats": ["random", "random"]})
        good = server.service.create({"game": "white-castle", "players": 2,
                                      "seats": ["random", "random"]})
    with sqlite3.connect(db_path) as conn:  # created, never served: no bot moved yet
        conn.execute("UPDATE games SET seed = 'abc' WHERE id = ?", (bad["id"],))
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        p = wait_for(c, good["id"], None, lambda q: q["over"], timeout=60)
        assert p["winners"]
        assert c.get(f"/api/games/{bad['id']}").status_code == 500
