"""The attacks of issue 35, each run against real `kamon serve` processes of one checkout,
with a figure for what it did to another player: run it once for this checkout and once
with `--src` naming an older one's src/ (e.g. a `git worktree` of the commit before) to
print the before and after.

Usage: python bench/bench_attacks.py [--src DIR] [--only NAME,...]

  bots        one client creates 30 games of four expert bots (no cap: --bot-only-games -1
              where the flag exists, else the server as it is): how long a human's normal
              bot takes to hand the turn back, idle and during the flood (max of 6 turns)
  bots-cap    the same 30 creates on a server as started by default: how many were taken
  spectators  200 spectator sockets on a public game (from 127.0.0.1), then the seat's
              own socket: whether the seat got in
  rate        400 writes from one client round-robin over 4 processes on PostgreSQL, and
              through 1: how many were let through, in how many seconds
  race        300 sockets opened on process A while process B stores a move (no fault
              injected: natural timing): how many missed the move
  input       the six bad inputs of issue 35: the statuses answered
  slow        a half-sent head and a body that never comes (held up to 30 s): how long the
              server kept each; 1,100 half-open heads from 127.0.0.2: failed health checks
              from 127.0.0.1 meanwhile; a WebSocket upgrade with a 9 KB path: its answer
  schema      8 trials of 2 `kamon serve` started at once on an empty PostgreSQL schema: how
              many trials had a process fail to start

Servers run on 127.0.0.1 only, bounded in count and time, and are stopped by this script.
Prints, never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.server.cluster import PostgresCluster  # noqa: E402
from tests.server.conftest import ServerProcess  # noqa: E402

BOT_ONLY = {"game": "clansman", "players": 4, "seats": ["expert"] * 4}


def server(tmp: Path, name: str, db: str | Path | None = None, workers: int = 0,
           delay: float = 0.0, args: list[str] | None = None) -> ServerProcess:
    """A started server of the checkout under test."""
    return ServerProcess(db or tmp / f"{name}.db", tmp / f"{name}.log", bot_workers=workers,
                         bot_delay=delay, args=args or []).start(timeout=90)


def flag_known(flag: str) -> bool:
    """Does this checkout's `kamon serve` take `flag`?"""
    import subprocess
    out = subprocess.run([sys.executable, "-m", "kamon.cli", "serve", "--help"],
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "COLUMNS": "200"}).stdout
    return flag in out


def human_waits(url: str, turns: int) -> list[float]:
    """A new game, a human against a normal bot: the seconds each of `turns` human moves
    waited for the turn to come back (at most 180 s each)."""
    made = httpx.post(f"{url}/api/games", timeout=30, json={
        "game": "white-castle", "players": 2, "seats": ["human", "normal"]}).json()
    gid, tok = made["id"], made["seats"][0]["token"]

    def mine() -> dict[str, Any]:
        return dict(httpx.get(f"{url}/api/games/{gid}", params={"token": tok},
                              timeout=30).json())

    def wait() -> tuple[dict[str, Any], float]:
        start = time.monotonic()
        while not ((p := mine())["legal"] or p["over"]) and \
                time.monotonic() - start < 180:
            time.sleep(0.05)
        return p, time.monotonic() - start

    p, _ = wait()
    waits: list[float] = []
    while len(waits) < turns and p["legal"]:
        httpx.post(f"{url}/api/games/{gid}/moves", timeout=30, json={
            "token": tok, "action": p["legal"][0]["id"], "version": p["version"]})
        p, took = wait()
        waits.append(took)
    return waits


def attack_bots(tmp: Path) -> None:
    """A human's bot during a flood of bot-only games."""
    args = ["--rate-limit", "0"]
    if flag_known("--bot-only-games"):
        args += ["--bot-only-games", "-1"]
    srv = server(tmp, "bots", workers=2, delay=0.6, args=args)
    try:
        idle = human_waits(srv.url, 6)
        made = sum(httpx.post(f"{srv.url}/api/games", json=BOT_ONLY, timeout=30).status_code
                   == 201 for _ in range(30))
        time.sleep(2)
        busy = human_waits(srv.url, 6)
        print(f"bots: idle max {max(idle):.2f} s; {made} bot-only games made; during the "
              f"flood max {max(busy):.2f} s (each: {', '.join(f'{w:.1f}' for w in busy)})")
    finally:
        srv.stop()


def attack_bots_cap(tmp: Path) -> None:
    """The flood against a server as started by default."""
    srv = server(tmp, "botscap", workers=1, args=["--rate-limit", "0"])
    try:
        codes = [httpx.post(f"{srv.url}/api/games", json=BOT_ONLY, timeout=30).status_code
                 for _ in range(30)]
        print(f"bots-cap: {codes.count(201)} of 30 bot-only games taken; answers "
              f"{sorted(set(codes))}")
    finally:
        srv.stop()


def attack_spectators(tmp: Path) -> None:
    """200 spectators, then the seat."""
    from websockets.sync.client import connect
    srv = server(tmp, "spect")
    held: list[Any] = []
    try:
        made = httpx.post(f"{srv.url}/api/games", timeout=30, json={
            "game": "white-castle", "players": 2, "seats": ["human", "human"]}).json()
        url = srv.url.replace("http://", "ws://") + f"/api/games/{made['id']}/ws"
        kept = 0
        for _ in range(200):
            ws = connect(url, open_timeout=20)
            held.append(ws)
            kept += json.loads(ws.recv(timeout=20))["type"] == "state"
        ws = connect(f"{url}?token={made['seats'][0]['token']}", open_timeout=20)
        held.append(ws)
        first = json.loads(ws.recv(timeout=20))
        print(f"spectators: {kept} of 200 spectator sockets kept; the seat's socket got "
              f"{first['type']!r}" + (f" ({first.get('error')})" if first["type"] != "state"
                                      else ""))
    finally:
        for ws in held:
            with contextlib.suppress(Exception):
                ws.close()
        srv.stop()


async def _flood(urls: list[str], n: int) -> tuple[int, float]:
    """n writes round-robin over `urls`, 8 at a time: how many were not 429, seconds."""
    sem = asyncio.Semaphore(8)
    async with httpx.AsyncClient(timeout=30) as http:
        async def one(i: int) -> int:
            async with sem:
                r = await http.post(f"{urls[i % len(urls)]}/api/games/nogame/moves",
                                    json={"token": "x", "action": 0, "version": 0})
                return int(r.status_code != 429)
        start = time.monotonic()
        passed = sum(await asyncio.gather(*(one(i) for i in range(n))))
        return passed, time.monotonic() - start


def attack_rate(tmp: Path, pg: str) -> None:
    """One client's writes over 4 processes and over 1."""
    procs = [server(tmp, f"rate{i}", db=pg) for i in range(4)]
    try:
        one, t1 = asyncio.run(_flood([procs[0].url], 400))
        time.sleep(4)
        four, t4 = asyncio.run(_flood([p.url for p in procs], 400))
        print(f"rate: through 1 process {one} of 400 in {t1:.2f} s; round-robin through 4 "
              f"{four} of 400 in {t4:.2f} s")
    finally:
        for p in procs:
            p.stop()


async def _race(a: str, b: str, trials: int) -> int:
    """Sockets opened on `a` while `b` stores a move: how many missed it."""
    import websockets
    missed = 0
    async with httpx.AsyncClient(timeout=30) as http:
        async def game() -> tuple[str, dict[int, str]]:
            made = (await http.post(f"{b}/api/games", json={
                "game": "white-castle", "players": 2, "seats": ["human", "human"]})).json()
            return made["id"], {s["seat"]: s["token"] for s in made["seats"]}
        gid, toks = await game()
        for _ in range(trials):
            pub = (await http.get(f"{b}/api/games/{gid}")).json()
            if pub["over"]:
                gid, toks = await game()
                pub = (await http.get(f"{b}/api/games/{gid}")).json()
            tok = toks[pub["to_move"]]
            mine = (await http.get(f"{b}/api/games/{gid}", params={"token": tok})).json()
            body = {"token": tok, "action": mine["legal"][0]["id"], "version": mine["version"]}

            async def watch(gid: str = gid, body: dict[str, Any] = body) -> bool:
                async with websockets.connect(a.replace("http", "ws") +
                                              f"/api/games/{gid}/ws") as ws:
                    end = time.monotonic() + 5
                    while time.monotonic() < end:
                        try:
                            m = json.loads(await asyncio.wait_for(ws.recv(), end -
                                                                  time.monotonic()))
                        except TimeoutError:
                            return False
                        if m["type"] == "state" and m["payload"]["version"] > \
                                body["version"]:
                            return True
                    return False
            task = asyncio.create_task(watch())
            await asyncio.sleep(0)
            await http.post(f"{b}/api/games/{gid}/moves", json=body)
            missed += not await task
    return missed


def attack_race(tmp: Path, pg: str) -> None:
    """The socket-open race across two processes."""
    procs = [server(tmp, f"race{i}", db=pg, args=["--rate-limit", "0"]) for i in range(2)]
    try:
        missed = asyncio.run(_race(procs[0].url, procs[1].url, 300))
        print(f"race: {missed} of 300 sockets missed the move")
    finally:
        for p in procs:
            p.stop()


def attack_input(tmp: Path) -> None:
    """The six bad inputs (the replay's on a finished solo game, played out first)."""
    srv = server(tmp, "input", args=["--rate-limit", "0"])
    try:
        http = httpx.Client(base_url=srv.url, timeout=30)
        made = http.post("/api/games", json={"game": "white-castle", "players": 1,
                                             "seats": ["human"]}).json()
        gid, tok = made["id"], made["seats"][0]["token"]
        while not (p := http.get(f"/api/games/{gid}", params={"token": tok}).json())["over"]:
            http.post(f"/api/games/{gid}/moves", json={
                "token": tok, "action": p["legal"][0]["id"], "version": p["version"]})
        live = http.post("/api/games", json={"game": "white-castle", "players": 1,
                                             "seats": ["human"]}).json()
        lid, ltok = live["id"], live["seats"][0]["token"]
        huge = "9" * 5000
        move = '{"token": "' + ltok + '", "action": "ACTION", "version": 0}'
        tries = {
            'move "\\ud800"': ("POST", f"/api/games/{lid}/moves",
                                move.replace("ACTION", "\\ud800")),
            'move "draft \\ud800"': ("POST", f"/api/games/{lid}/moves",
                                      move.replace("ACTION", "draft \\ud800")),
            "replay ?step=²": ("GET", f"/api/games/{gid}/replay?step=%C2%B2", None),
            'replays "step": "²"': ("POST", "/api/replays", json.dumps(
                {"text": '{"game": "clansman", "players": 4, "seed": 1}', "step": "²"})),
            "replays seed of 5,000 digits": ("POST", "/api/replays", json.dumps(
                {"text": '{"game": "clansman", "players": 4, "seed": ' + huge + "}"})),
            "replays players of 5,000 digits": ("POST", "/api/replays", json.dumps(
                {"text": '{"game": "clansman", "players": ' + huge + ', "seed": 1}'})),
        }
        out = []
        for name, (method, path, body) in tries.items():
            try:
                r = http.request(method, path, content=body,
                                 headers={"content-type": "application/json"})
                out.append(f"{name} → {r.status_code}")
            except httpx.HTTPError as exc:
                out.append(f"{name} → connection dropped ({type(exc).__name__})")
        print("input: " + "; ".join(out))
    finally:
        srv.stop()


def _held(port: int, data: bytes, cap: float = 30.0) -> str:
    """Send `data` and wait for the server to answer or close (at most `cap` s)."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(data)
        s.settimeout(cap)
        start = time.monotonic()
        try:
            got = s.recv(100)
        except TimeoutError:
            return f"held ≥ {cap:.0f} s"
        took = time.monotonic() - start
        return f"{got[:12].decode(errors='replace')!r} after {took:.1f} s"


def attack_slow(tmp: Path) -> None:
    """Slow heads, slow bodies, half-open heads, a long upgrade path. The server starts
    with the common default of 1,024 open files (a limit it may raise itself)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))
    try:
        srv = server(tmp, "slow")
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        head = _held(srv.port, b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        body = _held(srv.port, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                               b"application/json\r\nContent-Length: 100\r\n\r\n{")
        path = "/api/games/x/ws?t=" + "a" * 9000
        upgrade = _held(srv.port, (f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket"
                                   "\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                                   "dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13"
                                   "\r\n\r\n").encode(), cap=10)
        held, failed, checks = [], 0, 0
        stop = threading.Event()

        def check() -> None:
            nonlocal failed, checks
            while not stop.is_set():
                checks += 1
                try:
                    if httpx.get(srv.url + "/api/health", timeout=2).status_code != 200:
                        failed += 1
                except httpx.HTTPError:
                    failed += 1
                time.sleep(0.2)
        t = threading.Thread(target=check)
        t.start()
        for _ in range(1100):
            s = socket.socket()
            s.bind(("127.0.0.2", 0))
            s.settimeout(5)
            try:
                s.connect(("127.0.0.1", srv.port))
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
                held.append(s)
            except OSError:
                s.close()
        time.sleep(5)
        stop.set()
        t.join()
        for s in held:
            s.close()
        print(f"slow: half-sent head {head}; body never sent {body}; 9 KB upgrade path "
              f"{upgrade}; during 1,100 half-open heads {failed} of {checks} health checks "
              "failed")
    finally:
        srv.stop()


def attack_schema(tmp: Path, pg: str) -> None:
    """Two servers started at once on an empty schema, 8 times."""
    import psycopg
    bad = 0
    for i in range(8):
        name = f"bench_schema_{i}"
        with psycopg.connect(pg, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
            conn.execute(f"CREATE SCHEMA {name}")
        url = f"{pg}&options=-csearch_path%3D{name}"
        procs = [ServerProcess(url, tmp / f"schema{i}_{j}.log", bot_workers=0)
                 for j in range(2)]
        errors: list[BaseException] = []

        def start(p: ServerProcess, errors: list[BaseException] = errors) -> None:
            try:
                p.start(timeout=90)
            except BaseException as exc:  # noqa: BLE001 (counted)
                errors.append(exc)
        threads = [threading.Thread(target=start, args=(p,)) for p in procs]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        bad += bool(errors)
        for p in procs:
            p.stop()
    print(f"schema: {bad} of 8 trials had a server fail to start")


def main() -> None:
    """Run the chosen attacks against the checkout of --src (default: this one)."""
    import tempfile
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", default=None, help="another checkout's src/ to serve from")
    ap.add_argument("--only", default="bots,bots-cap,spectators,rate,race,input,slow,schema")
    args = ap.parse_args()
    if args.src:
        os.environ["PYTHONPATH"] = str(Path(args.src).resolve())
    print(f"kamon from {args.src or 'this checkout'}")
    tmp = Path(tempfile.mkdtemp(prefix="kamon-attacks-"))
    only = args.only.split(",")
    cluster = None
    try:
        if {"rate", "race", "schema"} & set(only):
            cluster = PostgresCluster().start()
        for name in only:
            if name == "bots":
                attack_bots(tmp)
            elif name == "bots-cap":
                attack_bots_cap(tmp)
            elif name == "spectators":
                attack_spectators(tmp)
            elif name == "rate":
                attack_rate(tmp, cluster.url)  # type: ignore[union-attr]
            elif name == "race":
                attack_race(tmp, cluster.url)  # type: ignore[union-attr]
            elif name == "input":
                attack_input(tmp)
            elif name == "slow":
                attack_slow(tmp)
            elif name == "schema":
                attack_schema(tmp, cluster.url)  # type: ignore[union-attr]
            sys.stdout.flush()
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
