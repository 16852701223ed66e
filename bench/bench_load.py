"""Load benchmark of the web server: N live games, one WebSocket per seat, moves over HTTP.

Usage:
  python bench/bench_load.py --mode paced --games 200 --seconds 60
  python bench/bench_load.py --mode fast --games 5,10,20,50,80 --seconds 20
  python bench/bench_load.py --mode flood --games 40      # 40,000 POSTs to unknown games

Starts a server on a free port of 127.0.0.1 over a fresh SQLite file (or uses --url, which
must be a 127.0.0.1 address), creates N two-player White Castle games with two human
seats, opens one WebSocket per seat and plays: each seat waits for a state message that
says it is to decide, then POSTs a legal move — after 1-3 s like a person (`paced`) or at
once (`fast`). A finished game is replaced by a new one, so N games stay live.
Traffic goes to 127.0.0.1 only, and everything is bounded: at most 1000 games, 600 s per
run, 10 s per request.

Prints per run: moves per second, the move round trip (POST to answer) p50/p95/p99/max
and the part of it spent in the server (its Server-Timing header), the push delay (POST to the other seat's WebSocket message) p50/p99, errors (any refusal,
lost socket or timeout), the server's CPU per move and its resident memory (now and peak).
Prints, never asserts. The machine this runs on may be shared: figures are lower bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
import websockets

MAX_GAMES = 1000
MAX_SECONDS = 600.0
REQUEST_TIMEOUT = 10.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_command(entry: str, db: str, port: int) -> list[str]:
    """The command line of the server under test: `kamon serve` (`cli`), or the server
    module with the limits a one-address load test needs (`module`: no write rate limit,
    since every simulated person comes from 127.0.0.1)."""
    common = ["--host", "127.0.0.1", "--port", str(port), "--db", db, "--bot-delay", "0",
              "--bot-workers", "0"]
    if entry == "cli":
        return [sys.executable, "-m", "kamon.cli", "serve", *common]
    return [sys.executable, "-m", "kamon.server", *common, "--rate-limit", "0"]


def start_server(entry: str, db: str, port: int) -> subprocess.Popen[bytes]:
    """Run the server and wait until it answers."""
    proc = subprocess.Popen(server_command(entry, db, port), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return proc
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 60 s")


def proc_figures(pid: int) -> tuple[float, int, int]:
    """CPU seconds used so far (user + system), resident memory now and at its peak (KB),
    read from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = hwm = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
    return cpu, rss, hwm


class Http:
    """One keep-alive HTTP/1.1 connection to the server (a minimal client: a load
    generator on the same two cores must cost as little as it can)."""

    def __init__(self, host: str, port: int) -> None:
        """Where to connect; `request` connects on first use."""
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lock = asyncio.Lock()

    async def request(self, method: str, path: str, body: Any = None
                      ) -> tuple[int, bytes, float | None]:
        """Send one request, return (status, body, the server's own time in seconds from
        its Server-Timing header, if it sent one)."""
        async with self.lock:
            for attempt in (1, 2):
                try:
                    return await asyncio.wait_for(self._request(method, path, body),
                                                  REQUEST_TIMEOUT)
                except ConnectionError:  # a kept-alive connection the server had closed
                    await self.close()
                    if attempt == 2:
                        raise
                except BaseException:  # cut short: an answer may still be on its way
                    await self.close()
                    raise
            raise AssertionError("unreachable")

    async def _request(self, method: str, path: str, body: Any
                       ) -> tuple[int, bytes, float | None]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else orjson.dumps(body)
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
        self.writer.write(head.encode() + data)
        status_line = await self.reader.readline()
        if not status_line:  # closed before any answer: safe to send again (a move is
            raise ConnectionError("the server closed the connection")  # idempotent)
        status = int(status_line.split()[1])
        length = 0
        close = False
        server_time = None
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "connection" and "close" in value.lower():
                close = True
            elif name.lower() == "server-timing" and "dur=" in value:
                server_time = float(value.split("dur=")[1].split(";")[0].split(",")[0]) / 1000
        payload = await self.reader.readexactly(length)
        if close:
            await self.close()
        return status, payload, server_time

    async def close(self) -> None:
        """Close the connection (a later request reconnects)."""
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        self.reader = self.writer = None


@dataclass
class Stats:
    """What a run measured."""

    moves: int = 0
    latency: list[float] = field(default_factory=list)  # POST round trips, seconds
    server: list[float] = field(default_factory=list)  # the server's own time for them
    push: list[float] = field(default_factory=list)  # POST to the other seat's message
    errors: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0
    measuring: bool = False

    def error(self, what: str) -> None:
        """Count an error of a kind."""
        self.errors[what] = self.errors.get(what, 0) + 1


class GamePlayer:
    """The two people of one game: a socket each, moves over one HTTP connection."""

    def __init__(self, base: str, host: str, port: int, stats: Stats, paced: bool,
                 rng: random.Random) -> None:
        """Where the server is, what to record, how to pace."""
        self.base, self.host, self.port = base, host, port
        self.stats, self.paced, self.rng = stats, paced, rng
        self.http = Http(host, port)
        # version a move was made at -> (when it was sent, the seat that sent it)
        self.posted: dict[int, tuple[float, int]] = {}

    async def run(self, stop: asyncio.Event, ready: asyncio.Event | None) -> None:
        """Play games one after another until `stop`."""
        try:
            while not stop.is_set():
                await self.play_one(stop, ready)
                ready = None
                if not stop.is_set():
                    self.stats.games_finished += 1
        finally:
            await self.http.close()

    async def play_one(self, stop: asyncio.Event, ready: asyncio.Event | None) -> None:
        """Create a game, connect both seats, play until it ends or `stop`."""
        status, body, _ = await self.http.request("POST", "/api/games", {
            "game": "white-castle", "players": 2, "seats": ["human", "human"]})
        if status != 201:
            self.stats.error(f"create {status}")
            await asyncio.sleep(1)
            return
        created = orjson.loads(body)
        gid = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        over = asyncio.Event()
        sockets = []
        for tok in tokens:
            sockets.append(await websockets.connect(
                f"ws://{self.host}:{self.port}/api/games/{gid}/ws?token={tok}",
                max_size=None, compression="deflate", open_timeout=REQUEST_TIMEOUT))
        first = [asyncio.Event(), asyncio.Event()]
        tasks = [asyncio.create_task(self.seat(gid, tok, ws, over, first[i]))
                 for i, (tok, ws) in enumerate(zip(tokens, sockets, strict=True))]
        if ready is not None:
            await asyncio.wait([asyncio.create_task(e.wait()) for e in first],
                               timeout=REQUEST_TIMEOUT)
            ready.set()
        stopper = asyncio.create_task(stop.wait())
        overer = asyncio.create_task(over.wait())
        await asyncio.wait([stopper, overer, *tasks], return_when=asyncio.FIRST_COMPLETED)
        for t in (stopper, overer, *tasks):
            t.cancel()
        for ws in sockets:
            with contextlib.suppress(Exception):
                await ws.close()

    async def seat(self, gid: str, token: str, ws: Any, over: asyncio.Event,
                   first: asyncio.Event) -> None:
        """One person: read states, move when it is their turn."""
        acted = -1
        try:
            async for raw in ws:
                msg = orjson.loads(raw)
                if msg.get("type") != "state":
                    if msg.get("type") == "error":
                        self.stats.error(f"socket error {msg.get('status')}")
                    continue
                p = msg["payload"]
                first.set()
                v = p["version"]
                sent = self.posted.get(v - 1)
                if sent is not None and sent[1] != p["you"]:  # the other seat hears of it
                    del self.posted[v - 1]
                    if self.stats.measuring:
                        self.stats.push.append(time.perf_counter() - sent[0])
                if p["over"]:
                    over.set()
                    return
                if p["to_move"] != p["you"] or not p["legal"] or v <= acted:
                    continue
                acted = v
                if self.paced:
                    await asyncio.sleep(self.rng.uniform(1.0, 3.0))
                choice = p["legal"][self.rng.randrange(len(p["legal"]))]["id"]
                t0 = time.perf_counter()
                self.posted[v] = (t0, p["you"])
                try:
                    status, _, server_time = await self.http.request(
                        "POST", f"/api/games/{gid}/moves",
                        {"token": token, "action": choice, "version": v})
                except (TimeoutError, ConnectionError, OSError) as exc:
                    self.stats.error(f"move {type(exc).__name__}")
                    await self.http.close()
                    continue
                dt = time.perf_counter() - t0
                if status != 200:
                    self.stats.error(f"move {status}")
                elif self.stats.measuring:
                    self.stats.moves += 1
                    self.stats.latency.append(dt)
                    if server_time is not None:
                        self.stats.server.append(server_time)
        except websockets.ConnectionClosed as exc:
            if not over.is_set():
                self.stats.error(f"socket closed {exc.rcvd.code if exc.rcvd else ''}")
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # counted, never hidden
            self.stats.error(f"seat {type(exc).__name__}: {exc}")


def pct(xs: list[float], q: float) -> float:
    """The q-th quantile (0..1) of xs, in milliseconds."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return 1000 * s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))]


async def run_load(base: str, games: int, seconds: float, paced: bool, pid: int | None,
                   seed: int) -> dict[str, Any]:
    """Keep `games` games live for `seconds` (after every seat has its first state)."""
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(seed)
    players = [GamePlayer(base, host, port, stats, paced, random.Random(rng.random()))
               for _ in range(games)]
    readies = [asyncio.Event() for _ in players]
    tasks = []
    for gp, ready in zip(players, readies, strict=True):
        tasks.append(asyncio.create_task(gp.run(stop, ready)))
        await asyncio.sleep(0.005)  # do not open every socket in the same millisecond
    await asyncio.wait([asyncio.create_task(r.wait()) for r in readies], timeout=120)
    await asyncio.sleep(3.0 if paced else 1.0)  # warm up: past the first moves
    before = proc_figures(pid) if pid else None
    stats.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    after = proc_figures(pid) if pid else None
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    for t in tasks:
        t.cancel()
    out: dict[str, Any] = {
        "games": games, "mode": "paced" if paced else "fast", "seconds": round(elapsed, 1),
        "moves": stats.moves, "moves_per_s": round(stats.moves / elapsed, 1),
        "p50_ms": round(pct(stats.latency, .50), 1), "p95_ms": round(pct(stats.latency, .95), 1),
        "p99_ms": round(pct(stats.latency, .99), 1),
        "max_ms": round(1000 * max(stats.latency, default=float("nan")), 1),
        "server_p50_ms": round(pct(stats.server, .50), 1),
        "server_p99_ms": round(pct(stats.server, .99), 1),
        "push_p50_ms": round(pct(stats.push, .50), 1),
        "push_p99_ms": round(pct(stats.push, .99), 1),
        "errors": sum(stats.errors.values()), "error_kinds": dict(stats.errors),
        "games_finished": stats.games_finished,
    }
    if before and after:
        out["server_cpu_ms_per_move"] = round(1000 * (after[0] - before[0]) /
                                              max(1, stats.moves), 3)
        out["server_cpu_share"] = round((after[0] - before[0]) / elapsed, 2)
        out["server_rss_mb"] = round(after[1] / 1024, 1)
        out["server_peak_rss_mb"] = round(after[2] / 1024, 1)
    return out


async def run_flood(base: str, posts: int, pid: int | None) -> dict[str, Any]:
    """POST `posts` moves to game ids that do not exist (no token needed): the server's
    memory before and after (it once grew by 300 MB for 40,000 of them)."""
    parts = urlsplit(base)
    http = [Http(parts.hostname or "127.0.0.1", parts.port or 80) for _ in range(8)]
    before = proc_figures(pid)[1] if pid else 0
    t0 = time.perf_counter()
    codes: dict[int, int] = {}

    async def worker(h: Http, n: int) -> None:
        for i in range(n):
            status, _, _ = await h.request("POST", f"/api/games/unknown{i:08d}x{id(h)}/moves",
                                           {"token": "t", "action": 1, "version": 0})
            codes[status] = codes.get(status, 0) + 1

    await asyncio.gather(*(worker(h, posts // len(http)) for h in http))
    for h in http:
        await h.close()
    after = proc_figures(pid)[1] if pid else 0
    return {"posts": sum(codes.values()), "statuses": codes,
            "seconds": round(time.perf_counter() - t0, 1),
            "rss_before_mb": round(before / 1024, 1), "rss_after_mb": round(after / 1024, 1)}


def show(r: dict[str, Any]) -> None:
    """Print one run's figures."""
    line = (f"{r['mode']:>5} {r['games']:>4} games: {r['moves_per_s']:>7.1f} moves/s  "
            f"move p50 {r['p50_ms']:.1f} p95 {r['p95_ms']:.1f} p99 {r['p99_ms']:.1f} "
            f"max {r['max_ms']:.1f} ms (in the server p50 {r['server_p50_ms']:.1f} "
            f"p99 {r['server_p99_ms']:.1f})  push p50 {r['push_p50_ms']:.1f} "
            f"p99 {r['push_p99_ms']:.1f} ms  errors {r['errors']}")
    if "server_cpu_ms_per_move" in r:
        line += (f"  server CPU {r['server_cpu_ms_per_move']:.3f} ms/move "
                 f"({r['server_cpu_share']:.2f} cores), RSS {r['server_rss_mb']:.0f} MB "
                 f"(peak {r['server_peak_rss_mb']:.0f})")
    print(line, flush=True)
    if r["errors"]:
        print(f"      errors: {r['error_kinds']}", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the load, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("paced", "fast", "flood"), default="paced",
                    help="flood: POST --games thousand moves to unknown games, show RSS")
    ap.add_argument("--games", default="200", help="live games; several runs: 5,10,50")
    ap.add_argument("--seconds", type=float, default=60.0, help="measured seconds per run")
    ap.add_argument("--server", choices=("module", "cli"), default="module",
                    help="module: python -m kamon.server (no write rate limit); "
                         "cli: kamon serve as it is")
    ap.add_argument("--url", default=None, help="a running server on 127.0.0.1 instead")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="also print each run as JSON")
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.games.split(",")]
    if any(not 1 <= n <= MAX_GAMES for n in counts) or not 0 < args.seconds <= MAX_SECONDS:
        raise SystemExit(f"games must be 1..{MAX_GAMES} and seconds 0..{MAX_SECONDS}")
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"({os.cpu_count()} cores; the machine may be shared: figures are lower bounds)")
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    for n in counts:
        proc = None
        if args.url:
            base = args.url.rstrip("/")
            if urlsplit(base).hostname != "127.0.0.1":
                raise SystemExit("--url must be a 127.0.0.1 address")
        else:
            port = free_port()
            db = str(Path(tempfile.mkdtemp(prefix="kamon-load-")) / "load.db")
            proc = start_server(args.server, db, port)
            base = f"http://127.0.0.1:{port}"
        try:
            if args.mode == "flood":
                f = asyncio.run(run_flood(base, 1000 * n, proc.pid if proc else None))
                print(f"flood: {f['posts']} POSTs to unknown games in {f['seconds']} s "
                      f"{f['statuses']}: server RSS {f['rss_before_mb']} MB before, "
                      f"{f['rss_after_mb']} MB after", flush=True)
                continue
            r = asyncio.run(run_load(base, n, args.seconds, args.mode == "paced",
                                     proc.pid if proc else None, args.seed))
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        show(r)
        if args.json:
            print(json.dumps(r), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
