"""`kamon serve --workers N`: a front process hands each connection to a worker (a game's
to its owner), workers tell each other of writes, take turns to write, and live and die
with the front. Real server processes on 127.0.0.1, real WebSockets."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import threading
import time
import zlib
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from kamon.server.cluster import Peers, owner, route
from kamon.server.service import GameService
from kamon.server.store import Store
from tests.server.conftest import ServerProcess, alive, children_of, moves_until_killed

CLIENT_WORKER = zlib.crc32(b"127.0.0.1") % 2  # where a test's non-game requests go


def _create(srv: ServerProcess, seats: list[str]) -> dict[str, Any]:
    r = srv.api("/api/games", {"game": "white-castle", "players": len(seats),
                               "seats": seats})
    assert r.status_code == 201, r.text
    return dict(r.json())


def _created_owned_by(srv: ServerProcess, worker: int, seats: list[str]) -> dict[str, Any]:
    """A new game whose owner (of 2 workers) is `worker`."""
    for _ in range(64):
        g = _create(srv, seats)
        if owner(g["id"], 2) == worker:
            return g
    raise AssertionError("64 games in a row had the other owner")


def _socket(srv: ServerProcess, gid: str, token: str | None = None) -> ClientConnection:
    query = f"?token={token}" if token else ""
    return connect(f"ws://127.0.0.1:{srv.port}/api/games/{gid}/ws{query}", open_timeout=10)


def _state(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    """The next state message (pongs and refusals are not states)."""
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if msg.get("type") == "state":
            return dict(msg["payload"])


def _state_at(ws: ClientConnection, version: int, timeout: float = 10.0) -> dict[str, Any]:
    """Read states until one at `version` or later."""
    deadline = time.monotonic() + timeout
    while True:
        st = _state(ws, max(0.01, deadline - time.monotonic()))
        if st["version"] >= version:
            return st


def test_route_sends_a_games_requests_to_its_owner_and_the_rest_by_client_address(
        ) -> None:
    """Sockets, moves and views of a game go to its owner; the lobby and creating games
    to the worker of the client's address (so one client meets one rate limiter)."""
    gid = "Zq3_abc-9"
    for line in (b"GET /api/games/Zq3_abc-9/ws?token=x HTTP/1.1\r\n",
                 b"POST /api/games/Zq3_abc-9/moves HTTP/1.1\r\n",
                 b"GET /api/games/Zq3_abc-9 HTTP/1.1\r\n"):
        assert route(line, "10.0.0.1", 5) == owner(gid, 5)
    for line in (b"POST /api/games HTTP/1.1\r\n", b"GET / HTTP/1.1\r\n",
                 b"GET /static/app.js HTTP/1.1\r\n", b"\x16\x03\x01 not http"):
        assert route(line, "10.0.0.1", 5) == zlib.crc32(b"10.0.0.1") % 5
    owners = {owner(f"g{i}", 3) for i in range(60)}
    assert owners == {0, 1, 2}, "games are spread over every worker"


def test_with_two_workers_every_socket_of_a_game_hears_each_move_sent_on_a_socket(
        serve: Any) -> None:
    """Both seats and a spectator follow a game played on the seats' sockets."""
    srv = serve(workers=2)
    g = _create(srv, ["human", "human"])
    tokens = {s["seat"]: s["token"] for s in g["seats"]}
    with contextlib.ExitStack() as stack:
        seats = {seat: stack.enter_context(_socket(srv, g["id"], tok))
                 for seat, tok in tokens.items()}
        watcher = stack.enter_context(_socket(srv, g["id"]))
        last = {seat: _state(ws) for seat, ws in seats.items()}
        _state(watcher)
        for version in range(12):
            mover = last[0]["to_move"]
            mine = last[mover]
            assert mine["version"] == version
            seats[mover].send(json.dumps({"type": "move", "action": mine["legal"][0]["id"],
                                          "version": version}))
            last = {seat: _state_at(ws, version + 1) for seat, ws in seats.items()}
            assert _state_at(watcher, version + 1)["version"] == version + 1
        assert srv.api(f"/api/games/{g['id']}").json()["version"] == 12


def test_a_move_stored_by_a_worker_that_does_not_own_the_game_reaches_its_sockets_at_once(
        serve: Any) -> None:
    """A move POSTed on a connection that came for another game is stored by that game's
    owner, not this one's; the owner is told and its sockets hear of each such move in
    well under the 2 s poll (5 moves in a row, each under 0.5 s). The answer closes the
    connection, so that the client's next request goes to the game's owner."""
    srv = serve(workers=2)
    a = _created_owned_by(srv, 0, ["human", "human"])
    b = _created_owned_by(srv, 1, ["human", "human"])
    tokens = {s["seat"]: s["token"] for s in a["seats"]}
    with _socket(srv, a["id"]) as watcher:
        assert _state(watcher)["version"] == 0
        for version in range(5):
            pub = srv.api(f"/api/games/{a['id']}").json()
            tok = tokens[pub["to_move"]]
            mine = srv.api(f"/api/games/{a['id']}", token=tok).json()
            with contextlib.closing(http.client.HTTPConnection("127.0.0.1", srv.port,
                                                               timeout=10)) as conn:
                conn.request("GET", f"/api/games/{b['id']}")  # the connection: b's owner
                first = conn.getresponse()
                assert first.status == 200 and json.loads(first.read())["version"] == 0
                assert first.getheader("connection") != "close"
                conn.request("POST", f"/api/games/{a['id']}/moves", body=json.dumps(
                    {"token": tok, "action": mine["legal"][0]["id"], "version": version}),
                    headers={"content-type": "application/json"})
                r = conn.getresponse()
                assert r.status == 200, r.read()
                r.read()
                assert r.getheader("connection") == "close"
            stored = time.monotonic()
            assert _state_at(watcher, version + 1, timeout=5)["version"] == version + 1
            assert time.monotonic() - stored < 0.5, "the owner's socket waited for the poll"


def test_bots_of_a_game_created_by_another_worker_move_and_answer_on_the_socket(
        serve: Any) -> None:
    """A game created through the worker of the client's address, owned by the other:
    its bot (first to move) is driven by the owner, and answers the human's socket
    moves there."""
    srv = serve(workers=2)
    g = _created_owned_by(srv, 1 - CLIENT_WORKER, ["random", "human"])
    token = next(s["token"] for s in g["seats"] if s["token"])
    with _socket(srv, g["id"], token) as ws:
        st = _state(ws)
        mine = 0
        answered = 0  # human moves after which the bot moved before the human again
        while answered < 3 and mine < 60 and not st["over"]:
            deadline = time.monotonic() + 20
            waited = False
            while st["to_move"] != 1 and not st["over"]:
                waited = True
                st = _state(ws, max(0.01, deadline - time.monotonic()))
            answered += waited and mine > 0
            if st["over"]:
                break
            ws.send(json.dumps({"type": "move", "action": st["legal"][0]["id"],
                                "version": st["version"]}))
            mine += 1
            st = _state_at(ws, st["version"] + 1)
        assert st["version"] > mine >= 1, "the bot moved first"
        assert answered == 3, "the bot answered the human's moves"


def test_the_workers_end_with_the_front_stopped_or_killed_and_a_dead_one_is_replaced(
        serve: Any) -> None:
    """A worker killed with SIGKILL is started again and its games are served; SIGTERM
    to the front stops every worker; after kill -9 of the front, its workers end
    themselves."""
    srv = serve(workers=2)
    games = [_created_owned_by(srv, w, ["human", "human"]) for w in (0, 1)]
    assert srv.proc is not None
    workers = children_of(srv.proc.pid)
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)
    deadline = time.monotonic() + 20
    while True:
        now = children_of(srv.proc.pid)
        codes = []
        for g in games:
            try:
                codes.append(srv.api(f"/api/games/{g['id']}").status_code)
            except Exception:
                codes.append(0)
        if len(now) == 2 and workers[0] not in now and codes == [200, 200]:
            break
        assert time.monotonic() < deadline, f"workers {now}, answers {codes}"
        time.sleep(0.2)
    replaced = children_of(srv.proc.pid)
    srv.kill9()
    deadline = time.monotonic() + 10
    while any(alive(w) for w in replaced):
        assert time.monotonic() < deadline, "workers outlived a killed front"
        time.sleep(0.1)

    srv2 = serve(srv.db, workers=2)
    assert srv2.proc is not None
    workers = children_of(srv2.proc.pid)
    assert srv2.api(f"/api/games/{games[1]['id']}").status_code == 200
    srv2.proc.send_signal(signal.SIGTERM)
    assert srv2.proc.wait(timeout=20) == 0
    assert not any(alive(w) for w in workers)


def test_a_store_sharing_the_writes_lock_waits_for_whoever_holds_it(tmp_path: Path
                                                                    ) -> None:
    """Workers take turns to write through a lock file: a write waits while another
    process (here another descriptor) holds it, and goes as soon as it is released."""
    import fcntl
    lock = tmp_path / "writes.lock"
    store = Store(str(tmp_path / "kamon.db"))
    store.share_writes(str(lock))
    service = GameService(store)
    held = os.open(lock, os.O_RDWR)
    fcntl.flock(held, fcntl.LOCK_EX)
    done = threading.Event()

    def create() -> None:
        service.create({"game": "white-castle", "players": 2, "seats": ["human"] * 2})
        done.set()

    t = threading.Thread(target=create)
    t.start()
    try:
        assert not done.wait(0.5), "the write did not wait for the lock"
    finally:
        fcntl.flock(held, fcntl.LOCK_UN)
        os.close(held)
    assert done.wait(5), "the write did not go once the lock was free"
    t.join()
    store.close()


async def _until_heard(heard: list[Any], count: int) -> None:
    """Wait (at most a second) until `count` messages have been heard."""
    import asyncio
    for _ in range(100):
        if len(heard) >= count:
            return
        await asyncio.sleep(0.01)


def test_peers_pass_writes_to_the_games_owner_and_drop_malformed_messages() -> None:
    """A write told by one worker reaches the game's owner as (game, version, row,
    drive); garbage on the owner's address is dropped."""
    import asyncio
    tag = f"test-{os.getpid()}"
    a, b = Peers(tag, 0, 2), Peers(tag, 1, 2)
    gid = next(f"g{i}" for i in range(100) if owner(f"g{i}", 2) == 1)
    heard: list[tuple[str, int, Any, bool]] = []

    async def main() -> None:
        b.listen(asyncio.get_running_loop(), lambda *m: heard.append(m))
        a.sock.sendto(b"not json", b.addresses[1])
        a.sock.sendto(b'[1, "x", null, false]', b.addresses[1])
        a.tell(gid, 7, ["move", 0, 12])
        a.tell(gid, -1, drive=True)
        await _until_heard(heard, 2)

    try:
        asyncio.run(main())
    finally:
        a.close()
        b.close()
    assert heard == [(gid, 7, ["move", 0, 12], False), (gid, -1, None, True)]
    assert b.owns(gid) and not a.owns(gid)


def test_an_owner_told_of_a_move_applies_it_to_its_cached_game_or_reads_the_store(
        tmp_path: Path) -> None:
    """Two services over one file, as two workers: one stores moves; the other, told
    of each, reaches the same game (payload for payload) by applying the told move to
    its cached game, and by reading the store when the told row is not a legal move
    there or its cache is behind."""
    from kamon.server.views import payload_json
    db = str(tmp_path / "kamon.db")
    mover, owner_side = GameService(Store(db)), GameService(Store(db))
    g = mover.create({"game": "white-castle", "players": 2, "seats": ["human"] * 2})
    tokens = {s["seat"]: s["token"] for s in g["seats"]}
    gid = g["id"]
    owner_side.load(gid)
    for version in range(6):
        loaded = mover.load(gid)
        seat = loaded.state.to_move
        aid = loaded.state.legal_actions()[-1].id
        mover.move(gid, tokens[seat], aid, version)
        row: list[Any] = ["move", seat, aid]
        if version == 3:
            row = ["move", seat, 10_000]  # not a legal move: read from the store
        if version == 4:
            owner_side.cache.drop(gid)  # nothing cached: read from the store
        told = owner_side.advance(gid, version + 1, row)
        assert told.version == version + 1
        applied = told.before is not None  # a game read from the store has no `before`
        assert applied == (version not in (3, 4))
        fresh = GameService(Store(db)).load(gid)
        for viewer in (None, 0, 1):
            assert payload_json(told, viewer) == payload_json(fresh, viewer)
    mover.store.close()
    owner_side.store.close()


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_request_line_sent_in_pieces_is_routed_when_complete_without_spinning(
        serve: Any) -> None:
    """The front waits for the whole first line of a request before it routes it (the
    game id may be in its second piece), without busy-looping meanwhile."""
    import socket
    srv = serve(workers=2)
    g = _create(srv, ["human", "human"])
    assert srv.proc is not None
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
        s.sendall(b"GET /api/ga")
        before = _cpu_seconds(srv.proc.pid)
        time.sleep(1.0)
        spent = _cpu_seconds(srv.proc.pid) - before
        s.sendall(f"mes/{g['id']} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                  .encode())
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    assert json.loads(body)["id"] == g["id"]
    assert spent < 0.3, f"the front spent {spent:.2f} s of CPU waiting for one line"


def test_hundreds_of_connections_opened_at_once_are_all_served(serve: Any) -> None:
    """300 connections that each send a request at the same moment (to games of both
    workers, and to the lobby's API) all get their answer."""
    import socket
    srv = serve(workers=2)
    g = _create(srv, ["human", "human"])
    paths = [f"/api/games/{g['id']}", "/api/catalog", "/api/games/nosuchgame"]
    conns = [socket.create_connection(("127.0.0.1", srv.port), timeout=20)
             for _ in range(300)]
    try:
        for i, s in enumerate(conns):
            s.sendall(f"GET {paths[i % 3]} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      "Connection: close\r\n\r\n".encode())
        statuses = []
        for s in conns:
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
            statuses.append(answer[9:12])
    finally:
        for s in conns:
            s.close()
    assert statuses == [b"200", b"200", b"404"] * 100


def test_a_worker_killed_between_commit_and_reply_is_replaced_and_the_retry_is_idempotent(
        serve: Any, tmp_path: Path) -> None:
    """The fault hook kills the game's owner right after its third move is committed,
    before the answer: the front stays up and starts a new worker, which has that move
    and answers the client's retry of it with the same game, storing nothing more."""
    import sqlite3

    import httpx
    db = tmp_path / "kamon.db"
    srv = serve(db, env={"KAMON_FAULT": "kill-after-commit:3"}, workers=2)
    g = _create(srv, ["human", "human"])
    gid, tokens = g["id"], {s["seat"]: s["token"] for s in g["seats"]}
    acknowledged, body = moves_until_killed(srv, gid, tokens, 3)
    assert acknowledged is not None and acknowledged["version"] == 2
    assert srv.proc is not None
    deadline = time.monotonic() + 20
    while True:
        try:
            retry = httpx.post(f"{srv.url}/api/games/{gid}/moves", json=body, timeout=30)
            break
        except httpx.HTTPError:  # the new worker is starting
            assert time.monotonic() < deadline, "no worker answered the retry"
            time.sleep(0.2)
    assert srv.proc.poll() is None, "the front went down with its worker"
    assert retry.status_code == 200, retry.text
    assert retry.json()["version"] == 3
    assert retry.json() == srv.api(f"/api/games/{gid}", token=body["token"]).json()
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                            (gid,)).fetchone()[0]
    assert rows == 3


def test_peers_hear_only_processes_of_their_own_user() -> None:
    """A datagram from a process of another user (here: a child that dropped to
    `nobody`) is dropped unread; the same message from this user is heard."""
    import asyncio

    import pytest
    if os.getuid() != 0:
        pytest.skip("needs root to send from another user's process")
    tag = f"uid-{os.getpid()}"
    peer = Peers(tag, 1, 2)
    gid = next(f"g{i}" for i in range(100) if owner(f"g{i}", 2) == 1)
    message = json.dumps([gid, 5, None, True]).encode()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child process)
        try:
            os.setgid(65534)
            os.setuid(65534)
            import socket
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            s.sendto(message, peer.addresses[1])
        finally:
            os._exit(0)
    assert os.waitpid(child, 0)[1] == 0
    heard: list[tuple[str, int, Any, bool]] = []

    async def main() -> None:
        peer.listen(asyncio.get_running_loop(), lambda *m: heard.append(m))
        await asyncio.sleep(0.2)
        assert heard == [], "a message from another user was heard"
        Peers(tag, 0, 2).tell(gid, 6, drive=True)
        await _until_heard(heard, 1)

    try:
        asyncio.run(main())
    finally:
        peer.close()
    assert heard == [(gid, 6, None, True)]
