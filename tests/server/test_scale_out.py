"""Scale-out, for real: two `kamon serve` processes on one throwaway PostgreSQL, and the
repository's own deploy/haproxy.cfg in front on 127.0.0.1 (tests/server/cluster.py).

Every socket on every process sees every move (LISTEN/NOTIFY carries it: there is no
poll); a process killed with SIGKILL mid-game loses no acknowledged move and doubles
none, the client reconnects through the proxy, and the game's bot plays on (its claim
died with the process); the proxy passes each client's own address, and only a trusted
proxy may name one. deploy/Caddyfile and deploy/compose.yaml are checked as far as this
machine can run them.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from kamon.server.store import Store
from tests.server.cluster import DEPLOY, HAProxy
from tests.server.conftest import ServerProcess, token_of

Cluster = tuple[list[ServerProcess], HAProxy]


@pytest.fixture
def cluster(postgres_url: str, tmp_path: Path) -> Iterator[Any]:
    """cluster(n, bot_delay, args): n kamon processes on the session's PostgreSQL (the
    proxy trusted), HAProxy in front; all stopped at the end of the test."""
    started: list[ServerProcess | HAProxy] = []

    def make(n: int = 2, bot_delay: float = 0.0, args: tuple[str, ...] = (),
             db: str | None = None) -> Cluster:
        procs = []
        for i in range(n):
            srv = ServerProcess(db or postgres_url, tmp_path / f"kamon{i + 1}.log",
                                bot_workers=0, bot_delay=bot_delay,
                                args=["--trusted-proxy", "127.0.0.1", *args])
            started.append(srv)
            procs.append(srv.start())
        proxy = HAProxy([p.port for p in procs], tmp_path / "haproxy.log")
        started.append(proxy)
        return procs, proxy.start()

    yield make
    for part in reversed(started):
        part.stop()


class Watcher:
    """A WebSocket on one game, read in a thread: every state message's version and the
    time it came (time.monotonic)."""

    def __init__(self, url: str, gid: str, token: str | None = None) -> None:
        """Open it (on `url`: a process, or the proxy) and start reading."""
        ws_url = url.replace("http://", "ws://") + f"/api/games/{gid}/ws"
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(
            connect(ws_url + (f"?token={token}" if token else ""), open_timeout=10))
        self.seen: list[tuple[int, float]] = []
        self.closed = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        """Note each state message until the socket closes."""
        try:
            for text in self.ws:
                msg = json.loads(text)
                if msg["type"] == "state":
                    self.seen.append((msg["payload"]["version"], time.monotonic()))
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()

    def versions(self) -> list[int]:
        """The versions seen, in order."""
        return [v for v, _ in self.seen]

    def wait_for(self, version: int, timeout: float = 10.0) -> float:
        """When the socket saw `version` (AssertionError if it did not in `timeout`)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for v, t in list(self.seen):
                if v >= version:
                    return t
            if self.closed.is_set():
                break
            time.sleep(0.002)
        raise AssertionError(f"version {version} never reached the socket "
                             f"(it saw {self.versions()})")

    def close(self) -> None:
        """Close it."""
        self.stack.close()


def human_turn(url: str, gid: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Seat 0's payload once it has a decision (or the game is over): the bot plays."""
    deadline = time.monotonic() + 30
    while not ((p := mover(url, gid, {0: tokens[0]}))["legal"] or p["over"]):
        assert time.monotonic() < deadline, "the bot stopped playing"
        time.sleep(0.05)
    return p


def mover(url: str, gid: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The payload of the seat to move (read through `url`), or of the one seat whose
    token is given."""
    seat = next(iter(tokens)) if len(tokens) == 1 else \
        httpx.get(f"{url}/api/games/{gid}", timeout=10).json()["to_move"]
    return dict(httpx.get(f"{url}/api/games/{gid}", params={"token": tokens[seat]},
                          timeout=10).json())


def test_every_socket_on_every_process_sees_every_move_at_once(cluster: Any) -> None:
    """Moves stored alternately on either process reach the sockets held on both (and
    the spectators' through the proxy), in order, each version once; the delay from the
    writer's answer to the other process's socket is printed (bench_load measures it)."""
    (a, b), proxy = cluster(2)
    g = httpx.post(proxy.url + "/api/games", json={
        "game": "white-castle", "players": 2, "seats": ["human", "human"]}, timeout=10).json()
    gid, tokens = g["id"], {0: token_of(g, 0), 1: token_of(g, 1)}
    watchers = [Watcher(a.url, gid, tokens[0]), Watcher(b.url, gid, tokens[1]),
                Watcher(proxy.url, gid), Watcher(proxy.url, gid)]
    try:
        for w in watchers:
            w.wait_for(0)
        delays = []
        for n in range(24):
            writer, other = (a, watchers[1]) if n % 2 == 0 else (b, watchers[0])
            p = mover(writer.url, gid, tokens)
            r = httpx.post(f"{writer.url}/api/games/{gid}/moves", timeout=10, json={
                "token": tokens[p["you"]], "action": p["legal"][0]["id"],
                "version": p["version"]})
            answered = time.monotonic()
            assert r.status_code == 200, r.text
            version = r.json()["version"]
            delays.append(other.wait_for(version) - answered)
            for w in watchers:
                w.wait_for(version)
        for w in watchers:
            assert w.versions() == list(range(25)), w.versions()  # each once, in order
        delays.sort()
        print(f"cross-process delay: median {1000 * delays[len(delays) // 2]:.1f} ms, "
              f"max {1000 * delays[-1]:.1f} ms")
    finally:
        for w in watchers:
            w.close()


def _post_until_answered(url: str, gid: str, body: dict[str, Any]) -> httpx.Response:
    """POST a move through the proxy until a process answers it (a 502 or a dropped
    connection while a process dies is retried, as a client would)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            r = httpx.post(f"{url}/api/games/{gid}/moves", json=body, timeout=10)
            if r.status_code not in (502, 503, 504):
                return r
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "no process answered the move"
        time.sleep(0.1)


def test_a_process_killed_mid_game_loses_no_acknowledged_move_and_the_bot_plays_on(
        cluster: Any, postgres_url: str) -> None:
    """A human plays a bot through the proxy with four sockets open (least-connections
    spreads them over both processes). One process is killed with SIGKILL mid-game: its
    sockets close and reconnect through the proxy to the other; every acknowledged move
    is stored exactly once, in order; the bot goes on moving; every socket ends at the
    stored version."""
    procs, proxy = cluster(2, bot_delay=0.05)
    g = httpx.post(proxy.url + "/api/games", json={
        "game": "white-castle", "players": 2, "seats": ["human", "random"]},
        timeout=10).json()
    gid, tokens = g["id"], {0: token_of(g, 0)}
    watchers = [Watcher(proxy.url, gid, tokens[0] if i == 0 else None) for i in range(4)]
    acknowledged: list[tuple[int, int]] = []  # (the version it was made at, its id)
    killed_at = None
    store = Store(postgres_url)
    try:
        for n in range(16):
            if n == 8:
                procs[0].kill9()
                killed_at = store.head(gid)[0]
            p = human_turn(proxy.url, gid, tokens)
            if p["over"]:
                break
            aid = p["legal"][0]["id"]
            body = {"token": tokens[0], "action": aid, "version": p["version"]}
            r = _post_until_answered(proxy.url, gid, body)
            assert r.status_code == 200, r.text
            acknowledged.append((p["version"], aid))
        human_turn(proxy.url, gid, tokens)
        assert killed_at is not None
        dropped = [w for w in watchers if w.closed.wait(5 if w is watchers[0] else 0.5)]
        assert 0 < len(dropped) < len(watchers), "the sockets were not spread over both"
        again = [Watcher(proxy.url, gid) for _ in dropped]  # reconnected through the proxy
        rows = store.actions(gid)
        final = len(rows)
        for w in [*watchers, *again]:
            if w not in dropped:
                w.wait_for(final)
                assert w.versions()[-1] == final
        human = [(r.idx, r.action_id) for r in rows if r.seat == 0]
        assert human == acknowledged  # each acknowledged move stored, once, in order
        assert [r.idx for r in rows] == list(range(final)) and all(r.kind == "move"
                                                                   for r in rows)
        assert any(r.seat == 1 and r.idx > killed_at for r in rows)  # the bot played on
        for w in watchers + again:
            w.close()
    finally:
        store.close()


def test_a_bot_whose_process_died_is_taken_over_by_another(cluster: Any) -> None:
    """Process A stores a human move that leaves the bot to move, and A claims the
    game's bots; A is killed before the bot moves (it waits a second first). B, which
    hears of no new move, takes the game over (A's claim went with its connection) and
    the bot's move reaches B's socket."""
    (a, b), _proxy = cluster(2, bot_delay=1.0)
    g = httpx.post(b.url + "/api/games", json={
        "game": "white-castle", "players": 2, "seats": ["human", "random"]},
        timeout=10).json()
    gid, tokens = g["id"], {0: token_of(g, 0)}
    watcher = Watcher(b.url, gid)
    try:
        for _ in range(20):  # (some decisions leave the same seat to decide again)
            p = human_turn(a.url, gid, tokens)
            r = httpx.post(f"{a.url}/api/games/{gid}/moves", timeout=10, json={
                "token": tokens[0], "action": p["legal"][0]["id"], "version": p["version"]})
            assert r.status_code == 200, r.text
            if r.json()["to_move"] == 1:
                break
        assert r.json()["to_move"] == 1
        a.kill9()
        version = r.json()["version"]
        watcher.wait_for(version)
        watcher.wait_for(version + 1, timeout=30)  # the bot's move, made by B
        human_turn(b.url, gid, tokens)
    finally:
        watcher.close()


def _write_from(address: str, url: str, headers: dict[str, str] | None = None) -> str:
    """POST an empty body from a local `address` (127.0.0.x): what the server said."""
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport, timeout=10) as c:
        r = c.post(url + "/api/games", json={}, headers=headers or {})
    return f"{r.status_code} {r.json()['error']}"


def test_rate_limits_count_each_client_behind_the_proxy_and_only_the_proxy_is_trusted(
        cluster: Any, tmp_path: Path) -> None:
    """Behind the proxy, two clients (127.0.0.2 and .3) have a bucket each: the server
    names the real client. Straight to the server, a client that is not the trusted
    proxy cannot claim another address with X-Forwarded-For."""
    (srv,), proxy = cluster(1, db=str(tmp_path / "k.db"),
                            args=("--rate-limit", "0.01", "--rate-burst", "2"))
    for _ in range(2):
        assert _write_from("127.0.0.2", proxy.url).startswith("400")
    assert _write_from("127.0.0.2", proxy.url) .startswith("429 too many writes from "
                                                           "127.0.0.2")
    assert _write_from("127.0.0.3", proxy.url).startswith("400")  # a bucket of its own
    forged = {"X-Forwarded-For": "203.0.113.9"}
    answers = [_write_from("127.0.0.4", srv.url, forged) for _ in range(3)]
    assert answers[2].startswith("429 too many writes from 127.0.0.4"), answers
    assert _write_from("127.0.0.5", proxy.url, forged).startswith("400")  # the proxy
    assert _write_from("127.0.0.5", proxy.url, forged).startswith("400")  # replaces it:
    assert "from 127.0.0.5" in _write_from("127.0.0.5", proxy.url, forged)  # 127.0.0.5


def test_the_caddy_config_proxies_to_every_process_with_health_checks() -> None:
    """deploy/Caddyfile, as Caddy reads it: the site, least-connections over every
    upstream named, and the health URI."""
    env = {**os.environ, "KAMON_SITE": "games.example.org",
           "KAMON_UPSTREAMS": "127.0.0.1:8001 127.0.0.1:8002"}
    out = subprocess.run(["caddy", "adapt", "--config", str(DEPLOY / "Caddyfile")],
                         env=env, capture_output=True, text=True, timeout=60, check=True)
    server = json.loads(out.stdout)["apps"]["http"]["servers"]["srv0"]
    route = server["routes"][0]
    assert route["match"] == [{"host": ["games.example.org"]}]
    proxy = route["handle"][0]["routes"][0]["handle"][0]
    assert proxy["handler"] == "reverse_proxy"
    assert [u["dial"] for u in proxy["upstreams"]] == ["127.0.0.1:8001", "127.0.0.1:8002"]
    assert proxy["load_balancing"]["selection_policy"]["policy"] == "least_conn"
    assert proxy["health_checks"]["active"]["uri"] == "/api/health"
    assert server["listen"] == [":443"]  # HTTPS for a domain, certificates automatic


def test_the_compose_recipe_wires_postgresql_the_processes_and_the_proxy() -> None:
    """deploy/compose.yaml: each kamon service serves PostgreSQL's database and trusts
    only its own network; the proxy's upstreams are exactly the kamon services, with
    deploy/haproxy.cfg mounted; nothing but the proxies publishes a port."""
    spec = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = spec["services"]
    kamons = {n for n, s in services.items() if s.get("command", [None])[0] == "kamon"}
    assert kamons == {"kamon1", "kamon2"}
    subnet = spec["networks"]["kamon"]["ipam"]["config"][0]["subnet"]
    for name in kamons:
        cmd = services[name]["command"]
        assert cmd[cmd.index("--db") + 1].startswith("postgresql://")
        assert cmd[cmd.index("--trusted-proxy") + 1] == subnet
        assert "ports" not in services[name]
    proxy = services["proxy"]
    ups = {v.split(":")[0] for k, v in proxy["environment"].items()
           if k.startswith("KAMON_UPSTREAM_")}
    assert ups == kamons
    assert proxy["volumes"][0].startswith("./haproxy.cfg:")
    assert (DEPLOY / "Dockerfile").exists()


def test_a_games_bots_are_claimed_by_one_process_until_its_connection_ends(
        postgres_url: str) -> None:
    """Claims (advisory locks): while one process holds a game, another's claim of it
    fails (so its bots are driven once); released, or the holder's connection gone (a
    killed process), the other's succeeds (PostgreSQL frees a closed connection's locks when
    its backend has exited, a moment after the close: the claim is retried for up to 5 s,
    as the bot sweep retries every 2 s)."""
    from kamon.server.notify import Claims

    stores = [Store(postgres_url), Store(postgres_url)]
    first, second = (Claims(s) for s in stores)
    try:
        assert first.claim("g1") and not second.claim("g1")
        assert second.claim("g2") and not first.claim("g2")
        first.release("g1")
        assert second.claim("g1")
        second.close()  # as when its process dies: the connection goes, its locks too
        deadline = time.monotonic() + 5.0
        while not first.claim("g1") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert first.claim("g1") and first.claim("g2")
    finally:
        first.close()
        second.close()
        for s in stores:
            s.close()


def test_a_socket_that_missed_a_notification_catches_up_on_its_next_ping(
        postgres_url: str) -> None:
    """With this process's listener stopped (a notification lost), a move another
    process stores reaches no socket here by itself; the socket's next ping re-reads the
    game and the new state follows the pong."""
    from fastapi.testclient import TestClient

    from kamon.server.app import create_app

    with TestClient(create_app(postgres_url, bot_workers=0, bot_delay=0, rate=0)) as c:
        g = c.post("/api/games", json={"game": "white-castle", "players": 2,
                                       "seats": ["human", "human"]}).json()
        gid = g["id"]
        live = c.app.state.live  # type: ignore[attr-defined]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            assert ws.receive_json()["payload"]["version"] == 0
            live.listener.stop()
            other = Store(postgres_url)
            try:
                state = live.service.load(gid).state
                other.append(gid, other.head(gid), "move", state.to_move,
                             state.legal_actions()[0].id, "another process's move",
                             "playing")
            finally:
                other.close()
            ws.send_text("ping")
            got = [ws.receive_json(), ws.receive_json()]
            assert {m["type"] for m in got} == {"pong", "state"}
            assert next(m for m in got if m["type"] == "state")["payload"]["version"] == 1
