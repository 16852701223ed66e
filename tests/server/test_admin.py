"""`kamon admin` on the database two running `kamon serve` processes share (a throwaway
PostgreSQL): a ban holds on both processes within a couple of seconds, for requests and
sockets, in the API's `{"error": ...}` shape, and lifts; a revoked seat's old token
stops working on both (though both had the game cached) and the new link works, the
game readable throughout; an ended game takes no move, not even its bots'; delete,
listing with its filters, and prune. The commands run through the CLI (typer's runner),
in this process, against the same database as the servers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import psycopg
import pytest
from typer.testing import CliRunner
from websockets.sync.client import connect

from kamon.cli import app
from tests.server.conftest import ServerProcess, token_of

SETTLE = 4.0  # seconds within which every process must follow the operator (1 s polls)


@pytest.fixture(scope="module")
def pg_db(postgres_url: str) -> str:
    """A database of its own in the session's PostgreSQL cluster."""
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS kamon_admin")
        conn.execute("CREATE DATABASE kamon_admin")
    return postgres_url.replace("/postgres?", "/kamon_admin?", 1)


@pytest.fixture(scope="module")
def procs(pg_db: str, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[list[ServerProcess]]:
    """Two server processes on that database, the proxy on 127.0.0.1 trusted (so a test
    can speak as any address), bots a little slow (a bot-only game lasts)."""
    tmp = tmp_path_factory.mktemp("admin")
    started = []
    try:
        for i in range(2):
            srv = ServerProcess(pg_db, tmp / f"kamon{i}.log", bot_workers=0, bot_delay=0.2,
                                args=["--trusted-proxy", "127.0.0.1"])
            started.append(srv.start())
        yield started
    finally:
        for srv in started:
            srv.stop()


def admin(db: str, command: str, *args: str) -> str:
    """Run `kamon admin COMMAND --db db ARGS`; its output (exit code 0 required). A game id
    may begin with '-': callers put '--' before one, as an operator would."""
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["admin", command, "--db", db,
                                                            *args])
    assert result.exit_code == 0, result.output
    return result.output


def until(check: Callable[[], bool], what: str, timeout: float = SETTLE) -> float:
    """Wait until `check()`; the seconds it took (AssertionError naming `what`)."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < timeout, f"{what} within {timeout} s"
        time.sleep(0.05)
    return time.monotonic() - start


def as_client(srv: ServerProcess, address: str, path: str = "/api/catalog") -> httpx.Response:
    """GET `path` as the client `address` (named by the trusted proxy's header)."""
    return httpx.get(srv.url + path, headers={"X-Forwarded-For": address}, timeout=10)


def socket_answer(srv: ServerProcess, gid: str, address: str) -> dict[str, Any]:
    """The first message a socket opened as `address` gets."""
    url = srv.url.replace("http://", "ws://") + f"/api/games/{gid}/ws"
    with connect(url, additional_headers={"X-Forwarded-For": address},
                 open_timeout=10) as ws:
        first = json.loads(ws.recv(timeout=10))
        if first["type"] == "error":
            with pytest.raises(Exception):  # noqa: B017  (closed: ConnectionClosed)
                ws.recv(timeout=10)
            assert ws.close_code == 4403
        return dict(first)


def new_game(srv: ServerProcess, seats: list[str]) -> dict[str, Any]:
    """A White Castle game with these seats."""
    r = srv.api("/api/games", {"game": "white-castle", "players": len(seats), "seats": seats})
    assert r.status_code == 201, r.text
    return dict(r.json())


def play_first(srv: ServerProcess, gid: str, token: str) -> None:
    """The token's seat plays its first legal action (it must be to move)."""
    p = srv.api(f"/api/games/{gid}", token=token).json()
    assert p["legal"], "the seat is not to move"
    r = srv.api(f"/api/games/{gid}/moves", {"token": token, "version": p["version"],
                                            "action": p["legal"][0]["id"]})
    assert r.status_code == 200, r.text


def test_a_ban_holds_on_every_process_for_requests_and_sockets_and_lifts(
        procs: list[ServerProcess], pg_db: str) -> None:
    """kamon admin ban: within a couple of seconds both processes answer the address
    403 `{"error": ...}` (a read, a write, a socket: refused, closed 4403); another
    address is served; a banned network holds too; unban lifts it everywhere."""
    gid = new_game(procs[0], ["human", "human"])["id"]
    bad, good = "203.0.113.9", "203.0.113.10"
    admin(pg_db, "ban", "--reason", "flooding", bad)
    for srv in procs:
        took = until(lambda s=srv: as_client(s, bad).status_code == 403, "the ban holds")
        assert took < SETTLE
        r = as_client(srv, bad, f"/api/games/{gid}")
        assert r.status_code == 403 and set(r.json()) == {"error"}, r.text
        assert bad in r.json()["error"]
        w = httpx.post(srv.url + "/api/games", json={"game": "white-castle"},
                       headers={"X-Forwarded-For": bad}, timeout=10)
        assert w.status_code == 403
        refused = socket_answer(srv, gid, bad)
        assert refused["type"] == "error" and refused["status"] == 403
        assert as_client(srv, good).status_code == 200
        assert socket_answer(srv, gid, good)["type"] == "state"
    assert bad in admin(pg_db, "bans")
    admin(pg_db, "ban", "--minutes", "5", "198.51.100.0/24")
    for srv in procs:
        until(lambda s=srv: as_client(s, "198.51.100.77").status_code == 403,
              "the network ban holds")
    admin(pg_db, "unban", bad)
    admin(pg_db, "unban", "198.51.100.0/24")
    for srv in procs:
        until(lambda s=srv: as_client(s, bad).status_code == 200, "the unban holds")
        until(lambda s=srv: as_client(s, "198.51.100.77").status_code == 200,
              "the network's unban holds")


def test_a_revoked_token_stops_working_on_every_process_and_the_new_link_works(
        procs: list[ServerProcess], pg_db: str) -> None:
    """Both processes have the game cached (read with the seat's token); after kamon
    admin revoke, the old token is refused for reads and moves on both, the printed
    link's token acts for the seat, and the game reads (and replays) unchanged."""
    g = new_game(procs[0], ["human", "human"])
    gid, old, other = g["id"], token_of(g, 0), token_of(g, 1)
    first = procs[0].api(f"/api/games/{gid}").json()["to_move"]
    play_first(procs[0], gid, (old, other)[first])
    for srv in procs:
        assert srv.api(f"/api/games/{gid}", token=old).status_code == 200
    spectator = procs[1].api(f"/api/games/{gid}").json()
    link = admin(pg_db, "revoke", "--", gid, "1").strip()
    assert link.startswith(f"/play/{gid}?token=")
    new = link.split("token=", 1)[1]
    assert new != old
    for srv in procs:
        until(lambda s=srv: s.api(f"/api/games/{gid}", token=old).status_code == 403,
              "the old token is refused")
        mine = srv.api(f"/api/games/{gid}", token=new)
        assert mine.status_code == 200 and mine.json()["you"] == 0
    while procs[1].api(f"/api/games/{gid}").json()["to_move"] != 0:
        play_first(procs[1], gid, other)  # seat 2 plays until seat 1 is to move
    version = procs[1].api(f"/api/games/{gid}").json()["version"]
    stale = procs[0].api(f"/api/games/{gid}/moves", {"token": old, "version": version,
                                                    "action": 0})
    assert stale.status_code == 403, stale.text
    play_first(procs[0], gid, new)
    after = procs[1].api(f"/api/games/{gid}").json()
    assert after["version"] >= spectator["version"]
    assert after["log"][:len(spectator["log"])] == spectator["log"]


def test_an_ended_game_takes_no_move_and_its_bots_stop_on_every_process(
        procs: list[ServerProcess], pg_db: str) -> None:
    """kamon admin end on a game whose bots are playing and on a human's game: the bots
    stop within a couple of seconds, a move is 409 with the operator's reason, the game
    stays readable, and the listing shows it ended."""
    bots = new_game(procs[0], ["random", "random"])["id"]
    until(lambda: procs[1].api(f"/api/games/{bots}").json()["version"] >= 2,
          "the bots play", timeout=20)
    people = new_game(procs[1], ["human", "random"])
    admin(pg_db, "end", "--", bots)
    admin(pg_db, "end", "--", people["id"])
    time.sleep(SETTLE / 2)
    stopped = procs[0].api(f"/api/games/{bots}").json()["version"]
    time.sleep(1.5)  # several bot delays
    assert procs[1].api(f"/api/games/{bots}").json()["version"] == stopped
    token = token_of(people, 0)
    for srv in procs:
        p = srv.api(f"/api/games/{people['id']}", token=token)
        assert p.status_code == 200
        r = srv.api(f"/api/games/{people['id']}/moves",
                    {"token": token, "version": p.json()["version"], "action": 0})
        assert r.status_code == 409 and "ended" in r.json()["error"], r.text
    listed = [json.loads(line) for line in
              admin(pg_db, "games", "--status", "ended", "--json").splitlines()]
    assert {bots, people["id"]} <= {g["id"] for g in listed}
    assert all(g["status"] == "ended" for g in listed)
    bot_only = [json.loads(line)["id"] for line in
                admin(pg_db, "games", "--bot-only", "--json").splitlines()]
    assert bots in bot_only and people["id"] not in bot_only


def test_delete_and_prune_remove_a_games_rows_and_keep_the_rest(
        procs: list[ServerProcess], pg_db: str) -> None:
    """delete: the game is a 404 on both processes. prune: a game unchanged for longer
    than --abandoned-days goes (its age set back in the store, as time would), a fresh
    one stays."""
    gone = new_game(procs[0], ["human", "human"])["id"]
    admin(pg_db, "delete", "--", gone)
    for srv in procs:
        assert srv.api(f"/api/games/{gone}").status_code == 404
    old = new_game(procs[0], ["human", "human"])["id"]
    fresh = new_game(procs[1], ["human", "human"])["id"]
    with psycopg.connect(pg_db, autocommit=True) as conn:
        conn.execute("UPDATE games SET updated_at = updated_at - 10 * 86400 WHERE id = %s",
                     (old,))
    assert old in admin(pg_db, "games", "--status", "abandoned")
    out = admin(pg_db, "prune", "--finished-days", "30", "--abandoned-days", "7")
    assert "games" in out
    for srv in procs:
        assert srv.api(f"/api/games/{old}").status_code == 404
        assert srv.api(f"/api/games/{fresh}").status_code == 200


def test_the_operators_changes_hold_on_sqlite_too(tmp_path: Any) -> None:
    """The same operations on an SQLite file, the app serving it in this process: a
    revoked token is refused and the new one acts (the digest stored anew: the game is
    rebuilt from its rows without a 500), an ended game refuses moves, a ban refuses
    requests; all within the watch's second."""
    from fastapi.testclient import TestClient

    from kamon.server.app import create_app

    db = str(tmp_path / "kamon.db")
    with TestClient(create_app(db, bot_workers=0, bot_delay=0, rate=0),
                    client=("192.0.2.8", 40000)) as c:
        made = c.post("/api/games", json={"game": "white-castle", "players": 2,
                                          "seats": ["human", "human"]}).json()
        gid, old = made["id"], token_of(made, 0)
        assert c.get(f"/api/games/{gid}", params={"token": old}).status_code == 200
        new = admin(db, "revoke", "--", gid, "1").strip().split("token=", 1)[1]
        until(lambda: c.get(f"/api/games/{gid}", params={"token": old}).status_code == 403,
              "the old token is refused")
        assert c.get(f"/api/games/{gid}", params={"token": new}).json()["you"] == 0
        live = c.app.state.live  # type: ignore[attr-defined]
        live.service.cache.drop(gid)  # a cold rebuild checks the new digest
        assert c.get(f"/api/games/{gid}").status_code == 200
        admin(db, "end", "--", gid)
        p = c.get(f"/api/games/{gid}", params={"token": new}).json()
        until(lambda: c.post(f"/api/games/{gid}/moves", json={
            "token": new, "version": p["version"], "action": 0}).status_code == 409,
            "the end holds")
        admin(db, "ban", "192.0.2.8")  # (this client's address)
        until(lambda: c.get("/api/catalog").status_code == 403, "the ban holds")
