"""Crashes: a server killed with SIGKILL (between committing a move and answering it,
while a bot thinks, or at rest) comes back with every game at its last acknowledged move
or the one it had committed; a retried move is answered idempotently; the bot worker
processes of a killed server end themselves. Real server processes on 127.0.0.1."""

from __future__ import annotations

import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import (
    ServerProcess,
    alive,
    children_of,
    mover_payload,
    moves_until_killed,
)

RESUME_DELAY = 5.0  # seconds a restarted server waits before its bot moves (see below)


def _created(srv: ServerProcess, seats: list[str], **extra: Any) -> dict[str, Any]:
    r = srv.api("/api/games", {"game": "white-castle", "players": len(seats),
                               "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return dict(r.json())


def _tokens(created: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"]}


def _rows(db: Path, gid: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                                (gid,)).fetchone()[0])


def test_a_move_killed_between_commit_and_reply_is_kept_and_its_retry_is_idempotent(
        serve: Any, tmp_path: Path) -> None:
    """The fault hook kills the server right after the third move is committed, before
    it is answered: after a restart that move is there (it was committed), and the
    client's retry of it is answered with the same game — not refused, not a 2nd move."""
    db = tmp_path / "kamon.db"
    srv = serve(db, env={"KAMON_FAULT": "kill-after-commit:3"})
    g = _created(srv, ["human", "human"])
    gid, tokens = g["id"], _tokens(g)
    acknowledged, body = moves_until_killed(srv, gid, tokens, 3)
    assert acknowledged is not None and acknowledged["version"] == 2
    assert srv.proc is not None and srv.proc.wait(timeout=10) == -signal.SIGKILL
    srv.stop()
    again = serve(db)
    mine = again.api(f"/api/games/{gid}", token=body["token"]).json()
    assert mine["version"] == 3  # committed before the crash: kept
    retry = httpx.post(f"{again.url}/api/games/{gid}/moves", json=body, timeout=30)
    assert retry.status_code == 200, retry.text
    assert retry.json() == mine  # the same result as the move had
    assert again.api(f"/api/games/{gid}").json()["version"] == 3
    assert _rows(db, gid) == 3  # and no second move


def test_a_server_killed_while_a_bot_thinks_resumes_and_its_workers_exit(
        serve: Any, tmp_path: Path) -> None:
    """The bot worker is mid-decision (the fault hook makes it think for a minute) when
    the server is killed: the worker ends itself, and the restarted server has the game
    at the last acknowledged move and lets the bot move."""
    db = tmp_path / "kamon.db"
    srv = serve(db, env={"KAMON_FAULT": "slow-bot:60"})
    g = _created(srv, ["human", "random"], seed=31)  # one person: a practice seed
    gid, tok = g["id"], _tokens(g)[0]
    p = srv.api(f"/api/games/{gid}", token=tok).json()
    while p["to_move"] == 0:
        r = srv.api(f"/api/games/{gid}/moves",
                    {"token": tok, "action": p["legal"][0]["id"], "version": p["version"]})
        assert r.status_code == 200, r.text
        p = r.json()
    assert p["to_move"] == 1  # the bot's decision: it is thinking now
    deadline = time.monotonic() + 30
    assert srv.proc is not None
    while not (workers := children_of(srv.proc.pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert workers, "no bot worker process started"
    time.sleep(0.5)
    acknowledged = srv.api(f"/api/games/{gid}", token=tok).json()
    assert acknowledged["version"] == p["version"]
    assert srv.kill9() == -signal.SIGKILL
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(w) for w in workers), "a bot worker outlived its server"
    srv.stop()
    # the restarted server waits RESUME_DELAY before its bot moves, so the game is read
    # as it was stored (with no delay, a random bot could move before that read)
    again = serve(db, bot_delay=RESUME_DELAY)
    assert again.api(f"/api/games/{gid}", token=tok).json() == acknowledged
    deadline = time.monotonic() + 60
    while again.api(f"/api/games/{gid}").json()["version"] == acknowledged["version"]:
        assert time.monotonic() < deadline, "the bot did not move after the restart"
        time.sleep(0.1)


def test_bot_workers_exit_when_the_server_is_killed(serve: Any) -> None:
    """A server whose bots have played keeps its worker processes; killed with SIGKILL
    (no clean-up runs), it leaves none behind."""
    srv = serve()
    g = _created(srv, ["random", "random"])
    deadline = time.monotonic() + 30
    while srv.api(f"/api/games/{g['id']}").json()["version"] < 3:
        assert time.monotonic() < deadline, "the bots did not move"
        time.sleep(0.1)
    assert srv.proc is not None
    workers = children_of(srv.proc.pid)
    assert workers, "no bot worker process"
    srv.kill9()
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(w) for w in workers), "bot workers outlived the server"


def test_every_game_resumes_at_its_last_acknowledged_move_after_kill_9(
        serve: Any, tmp_path: Path) -> None:
    db = tmp_path / "kamon.db"
    srv = serve(db)
    games = []
    for seats in (["human", "human"], ["human", "human", "human"], ["human"]):
        g = _created(srv, seats)
        tokens = _tokens(g)
        last = None
        for _ in range(7):
            p = mover_payload(srv, g["id"], tokens)
            r = srv.api(f"/api/games/{g['id']}/moves",
                        {"token": tokens[p["you"]], "action": p["legal"][-1]["id"],
                         "version": p["version"]})
            assert r.status_code == 200, r.text
            last = r.json()
        assert last is not None
        games.append((g["id"], tokens[last["you"]], last))
    srv.kill9()
    srv.stop()
    again = serve(db)
    for gid, tok, last in games:
        assert again.api(f"/api/games/{gid}", token=tok).json() == last


def test_a_retried_move_is_answered_with_the_same_result_and_stored_once(
        serve: Any, tmp_path: Path) -> None:
    """A client that did not get the answer sends the same move again (same version):
    the answer is the game after that move, not a refusal and not a second move —
    by id or by notation, and for an undo too."""
    db = tmp_path / "kamon.db"
    srv = serve(db)
    g = _created(srv, ["human", "human"])
    gid, tokens = g["id"], _tokens(g)
    p = mover_payload(srv, gid, tokens)
    body = {"token": tokens[p["you"]], "action": p["legal"][0]["id"], "version": p["version"]}
    first = srv.api(f"/api/games/{gid}/moves", body)
    second = srv.api(f"/api/games/{gid}/moves", body)
    assert first.status_code == second.status_code == 200, second.text
    assert second.json() == first.json()
    by_notation = srv.api(f"/api/games/{gid}/moves",
                          {**body, "action": p["legal"][0]["notation"]})
    assert by_notation.status_code == 200 and by_notation.json() == first.json()
    assert _rows(db, gid) == 1
    other = srv.api(f"/api/games/{gid}/moves", {**body, "action": p["legal"][1]["id"]})
    assert other.status_code == 409  # a different move at that version is stale
    if first.json()["can_undo"]:
        undo = {"token": body["token"], "version": 1}
        u1 = srv.api(f"/api/games/{gid}/undo", undo)
        u2 = srv.api(f"/api/games/{gid}/undo", undo)
        assert u1.status_code == u2.status_code == 200 and u1.json() == u2.json()
        assert _rows(db, gid) == 2
