"""Fixtures for the server tests: a real app over a real SQLite file, driven over HTTP
(in process through TestClient, or a real server process for crash and lock tests)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from kamon.server.app import create_app
from tests.server.cluster import ClusterError, PostgresCluster, free_port


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh SQLite file for one test."""
    return tmp_path / "kamon.db"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    """The app on that file; bots think in a thread and move at once; no write rate
    limit (tests play faster than people: the limit has its own test)."""
    app = create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)
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
        server = c.app.state.live  # type: ignore[attr-defined]
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


# --- real server processes (kill -9, busy databases) ---------------------------------------

def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid:
            found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    """Does the process exist (and is it not a zombie)?"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class ServerProcess:
    """`kamon serve` on a free 127.0.0.1 port over one database (an SQLite file, or a
    PostgreSQL URL), in a session of its own so that it and its bot workers can be
    stopped together; `kill9` kills the server process alone, as a crash would."""

    def __init__(self, db: Path | str, log: Path, env: dict[str, str] | None = None,
                 bot_workers: int = 1, bot_delay: float = 0.0,
                 args: list[str] | None = None) -> None:
        """Where it serves (`db`: a file or a URL; `args`: more flags); `start` runs it."""
        self.db, self.log = db, log
        self.env = env or {}
        self.args = args or []
        self.bot_workers, self.bot_delay = bot_workers, bot_delay
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.pgid: int | None = None

    @property
    def url(self) -> str:
        """The base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 40.0) -> ServerProcess:
        """Run it and wait until GET /api/catalog answers."""
        cmd = [sys.executable, "-m", "kamon.cli", "serve", "--host", "127.0.0.1", "--port",
               str(self.port), "--db", str(self.db), "--bot-workers", str(self.bot_workers),
               "--bot-delay", str(self.bot_delay), *self.args]
        with self.log.open("ab") as out:
            out.write(f"\n$ {' '.join(cmd)} {self.env}\n".encode())
            out.flush()
            env = {k: v for k, v in os.environ.items() if k != "KAMON_FAULT"}
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True,
                                         env={**env, **self.env, "PYTHONUNBUFFERED": "1"})
        self.pgid = self.proc.pid
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}):\n"
                                   f"{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.url + "/api/catalog", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer in {timeout}s")

    def kill9(self) -> int:
        """SIGKILL the server process only (its workers are left to notice); its exit
        status."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        return self.proc.wait(timeout=10)

    def stop(self) -> None:
        """End the server and everything of its session."""
        if self.pgid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pgid, signal.SIGTERM)
            if self.proc is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.wait(timeout=10)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pgid, signal.SIGKILL)  # anything of its session still there
            if self.proc is not None and self.proc.poll() is None:
                self.proc.wait(timeout=10)
        self.proc = None

    def api(self, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
        """GET (or POST `body` as JSON) against the server."""
        params = {"token": token} if token else None
        if body is None:
            return httpx.get(self.url + path, params=params, timeout=30)
        return httpx.post(self.url + path, json=body, timeout=30)


def mover_payload(srv: ServerProcess, gid: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The payload of the seat to move (a real server process)."""
    pub = srv.api(f"/api/games/{gid}").json()
    return dict(srv.api(f"/api/games/{gid}", token=tokens[pub["to_move"]]).json())


def moves_until_killed(srv: ServerProcess, gid: str, tokens: dict[int, str], moves: int
                       ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """POST the mover's first legal action `moves` times, the server set to die after
    committing the last one and before answering it: the last answered payload, and the
    body of the move left unanswered (to retry)."""
    acknowledged = None
    body: dict[str, Any] = {}
    for n in range(moves):
        p = mover_payload(srv, gid, tokens)
        body = {"token": tokens[p["you"]], "action": p["legal"][0]["id"],
                "version": p["version"]}
        try:
            r = httpx.post(f"{srv.url}/api/games/{gid}/moves", json=body, timeout=30)
        except httpx.HTTPError:
            assert n == moves - 1, f"move {n + 1} was not answered"
            break
        assert r.status_code == 200 and n < moves - 1, r.text
        acknowledged = r.json()
    return acknowledged, body


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """serve(db=None, **kw): start a ServerProcess (a fresh SQLite file unless given);
    every one started is stopped, with its session, at the end of the test."""
    started: list[ServerProcess] = []

    def make(db: Path | None = None, **kw: Any) -> ServerProcess:
        srv = ServerProcess(db or tmp_path / "kamon.db", tmp_path / "server.log", **kw)
        started.append(srv)
        return srv.start()

    yield make
    for srv in started:
        srv.stop()


# --- PostgreSQL, and the proxy in front (tests/server/cluster.py) ---------------------------

@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster for the session's tests, on a unix socket; skipped,
    with the reason, only when it cannot be started here."""
    try:
        cluster = PostgresCluster().start()
    except ClusterError as exc:
        pytest.skip(str(exc))
    try:
        yield cluster.url
    finally:
        cluster.stop()


def run_async(make: Any) -> Any:
    """Run the coroutine `make()` to its end on an event loop of its own, in a thread (a
    worker that ran the browser tests has Playwright's loop running in its main thread,
    where asyncio.run refuses to start)."""
    import threading

    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = asyncio.run(make())
        except BaseException as exc:  # noqa: BLE001 (raised again in the caller)
            out["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out["value"]
