"""Load benchmark of the web server: N live games, one WebSocket per seat, moves on them.

Usage:
  python bench/bench_load.py --mode paced --games 200 --seconds 60
  python bench/bench_load.py --mode fast --games 5,10,20,50,80 --seconds 20
  python bench/bench_load.py --mode fast --games 50 --store postgresql --processes 2
  python bench/bench_load.py --mode fast --games 50 --store postgresql --processes 2 --cross
  python bench/bench_load.py --mode flood --games 40      # 40,000 POSTs to unknown games

Starts a server on a free port of 127.0.0.1 over a fresh SQLite file (or uses --url, which
must be a 127.0.0.1 address) — or, with `--store postgresql`, a throwaway PostgreSQL
cluster, `--processes` server processes on it and the repository's deploy/haproxy.cfg in
front, where the clients connect (tests/server/cluster.py starts them) — creates N
two-player White Castle games with two human
seats, opens one WebSocket per seat and plays: each seat waits for a state message that
says it is to decide, then POSTs a legal move — after 1-3 s like a person (`paced`) or at
once (`fast`). A finished game is replaced by a new one, so N games stay live. With
`--cross`, each game's two sockets are opened straight on two different processes, so
every push is a move crossing from one process to another (LISTEN/NOTIFY).
Traffic goes to 127.0.0.1 only, and everything is bounded: at most 1000 games, 600 s per
run, 10 s per request.

Prints per run: moves per second, the move round trip (POST to answer) p50/p95/p99/max
and the part of it spent in the server (its Server-Timing header), the push delay (POST
to the other seat's WebSocket message) p50/p99, errors (any refusal, lost socket or
timeout), the server's CPU per move and its resident memory (now and peak; summed over
every server process and its bot workers; the proxy and PostgreSQL are not counted), and this
client's own CPU per move. The client speaks HTTP/1.1 and WebSocket itself on
asyncio.Protocol (the server's frames are unmasked, uncompressed text), so that on two
cores it leaves the server as much of the machine as it can.
Prints, never asserts. The machine this runs on may be shared: figures are lower bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.server.cluster
from tests.server.cluster import HAProxy, PostgresCluster  # noqa: E402

MAX_GAMES = 1000
MAX_SECONDS = 600.0
REQUEST_TIMEOUT = 10.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_command(entry: str, db: str, port: int, rate: float = 0.0) -> list[str]:
    """The command line of the server under test: `kamon serve` (`cli`), or the server
    module with the limits a one-address load test needs (`module`: no write rate limit,
    since every simulated person comes from 127.0.0.1 — unless `rate` asks for one so
    high that it counts every write and refuses none, to measure what counting costs)."""
    common = ["--host", "127.0.0.1", "--port", str(port), "--db", db, "--bot-delay", "0",
              "--bot-workers", "0", "--trusted-proxy", "127.0.0.1"]
    if entry == "cli":
        return [sys.executable, "-m", "kamon.cli", "serve", *common]
    return [sys.executable, "-m", "kamon.server", *common, "--rate-limit", f"{rate:g}",
            "--rate-burst", f"{rate:g}"]


def start_server(entry: str, db: str, port: int, rate: float = 0.0
                 ) -> subprocess.Popen[bytes]:
    """Run the server and wait until it answers."""
    proc = subprocess.Popen(server_command(entry, db, port, rate), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        if _answers(port, "/api/health"):
            return proc
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 60 s")


def _answers(port: int, path: str) -> bool:
    """Does a GET of `path` on a new connection get an HTTP answer?"""
    try:
        with socket.create_connection(("127.0.0.1", port), 2) as s:
            s.settimeout(2)
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      "Connection: close\r\n\r\n".encode())
            return s.recv(16).startswith(b"HTTP/1.1 ")
    except OSError:
        return False


def process_tree(pid: int) -> list[int]:
    """The process and all its descendants (its bot workers)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        p = todo.pop()
        tree.append(p)
        todo.extend(children.get(p, []))
    return tree


def proc_figures(pids: list[int]) -> tuple[float, int, int]:
    """CPU seconds used so far (user + system), resident memory now and at its peak (KB),
    read from /proc: summed over the server processes and their descendants (the bot
    workers), as the server's cost is all of them."""
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = 0.0
    rss = hwm = 0
    for p in [q for pid in pids for q in process_tree(pid)]:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / ticks
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1])
                    elif line.startswith("VmHWM:"):
                        hwm += int(line.split()[1])
        except (OSError, ValueError, IndexError):
            continue  # a process that ended meanwhile
    return cpu, rss, hwm


class _Answer(asyncio.Protocol):
    """The reading side of one keep-alive HTTP/1.1 connection: bytes in, one answer out
    per request (status, body, the server's Server-Timing), parsed without StreamReader
    (a load generator on the same two cores must cost as little as it can)."""

    def __init__(self) -> None:
        """Nothing received yet."""
        self.buf = bytearray()
        self.waiter: asyncio.Future[tuple[int, bytes, float | None, bool]] | None = None
        self.transport: asyncio.Transport | None = None
        self.lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Keep the transport to write to."""
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        """Collect bytes; an answer is complete when its Content-Length bytes are in."""
        self.buf += data
        head_end = self.buf.find(b"\r\n\r\n")
        if head_end < 0 or self.waiter is None or self.waiter.done():
            return
        lines = bytes(self.buf[:head_end]).decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length, close, server_time = 0, False, None
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "connection" and "close" in value.lower():
                close = True
            elif name == "server-timing" and "dur=" in value:
                server_time = float(value.split("dur=")[1].split(";")[0].split(",")[0]) / 1000
        if len(self.buf) < head_end + 4 + length:
            return
        body = bytes(self.buf[head_end + 4:head_end + 4 + length])
        del self.buf[:head_end + 4 + length]
        self.waiter.set_result((status, body, server_time, close))

    def connection_lost(self, exc: Exception | None) -> None:
        """The server closed: a waiting request fails (and is sent again if no answer
        had begun: a move is idempotent)."""
        self.lost = True
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionError("the server closed the connection"))


class Http:
    """One keep-alive HTTP/1.1 connection to the server, one request at a time."""

    def __init__(self, host: str, port: int) -> None:
        """Where to connect; `request` connects on first use."""
        self.host, self.port = host, port
        self.proto: _Answer | None = None
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
        """One request on the connection (opened if needed)."""
        loop = asyncio.get_running_loop()
        if self.proto is None or self.proto.lost:
            _, self.proto = await loop.create_connection(_Answer, self.host, self.port)
        proto = self.proto
        assert proto.transport is not None
        data = b"" if body is None else orjson.dumps(body)
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
        proto.waiter = loop.create_future()
        proto.transport.write(head.encode() + data)
        status, payload, server_time, close = await proto.waiter
        if close:
            await self.close()
        return status, payload, server_time

    async def close(self) -> None:
        """Close the connection (a later request reconnects)."""
        if self.proto is not None and self.proto.transport is not None:
            self.proto.transport.close()
        self.proto = None


class SocketClosed(Exception):
    """The server closed a WebSocket (its close code, if it sent one)."""

    def __init__(self, code: int | None) -> None:
        """The close code."""
        super().__init__(f"socket closed {code if code is not None else ''}")
        self.code = code


class WebSocketClient(asyncio.Protocol):
    """A minimal WebSocket client (RFC 6455) for this server's frames: unmasked,
    uncompressed text frames (the server runs without permessage-deflate), pings answered.
    Messages go to a queue; a close or a lost connection ends it with SocketClosed."""

    def __init__(self, key: str) -> None:
        """Handshake with `key` (Sec-WebSocket-Key)."""
        self.key = key
        self.buf = bytearray()
        self.shaken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.messages: asyncio.Queue[bytes | SocketClosed] = asyncio.Queue()
        self.transport: asyncio.Transport | None = None
        self.parts: list[bytes] = []
        self.closed = False
        self.closed_here = False  # closed by this client (not an error)

    @classmethod
    async def connect(cls, host: str, port: int, path: str) -> WebSocketClient:
        """Open a socket to ws://host:port/path (refused: ConnectionError)."""
        key = base64.b64encode(os.urandom(16)).decode()
        loop = asyncio.get_running_loop()
        transport, proto = await loop.create_connection(lambda: cls(key), host, port)
        transport.write((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                         "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                         f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                         ).encode())
        await asyncio.wait_for(proto.shaken, REQUEST_TIMEOUT)
        return proto

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Keep the transport."""
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        """The handshake's answer, then frames."""
        self.buf += data
        if not self.shaken.done():
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buf[:end]).decode("latin-1")
            del self.buf[:end + 4]
            accept = base64.b64encode(hashlib.sha1(
                (self.key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
            if not head.startswith("HTTP/1.1 101") or accept not in head:
                self.shaken.set_exception(ConnectionError(f"handshake refused: {head[:80]}"))
                return
            self.shaken.set_result(None)
        self._frames()

    def _frames(self) -> None:
        """Take every complete frame out of the buffer."""
        buf = self.buf
        while len(buf) >= 2:
            fin, opcode = buf[0] & 0x80, buf[0] & 0x0F
            if buf[1] & 0x80:
                self._fail(1002)  # a server never masks
                return
            n, at = buf[1] & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, at = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + n:
                return
            data = bytes(buf[at:at + n])
            del buf[:at + n]
            if opcode in (0, 1, 2):
                self.parts.append(data)
                if fin:
                    self.messages.put_nowait(b"".join(self.parts))
                    self.parts = []
            elif opcode == 8:
                code = int.from_bytes(data[:2], "big") if len(data) >= 2 else None
                self._send(8, data[:2])
                self._fail(code)
                return
            elif opcode == 9:
                self._send(10, data)

    def _send(self, opcode: int, data: bytes) -> None:
        """Send one masked frame (client frames must be masked; payload < 64 KiB)."""
        if self.transport is None or self.transport.is_closing():
            return
        mask = os.urandom(4)
        n = len(data)
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        masked = (int.from_bytes(data, "big") ^ key).to_bytes(n, "big")
        head = bytes([0x80 | opcode, 0x80 | n]) if n < 126 else \
            bytes([0x80 | opcode, 0xFE]) + n.to_bytes(2, "big")
        self.transport.write(head + mask + masked)

    def send_text(self, text: bytes) -> None:
        """Send a text message."""
        self._send(1, text)

    def _fail(self, code: int | None) -> None:
        """End the socket: the reader gets SocketClosed."""
        if not self.closed:
            self.closed = True
            self.messages.put_nowait(SocketClosed(code))
            if self.transport is not None:
                self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone."""
        if not self.shaken.done():
            self.shaken.set_exception(ConnectionError("closed during the handshake"))
        self._fail(None)

    async def recv(self) -> bytes:
        """The next message (SocketClosed once the socket is closed)."""
        item = await self.messages.get()
        if isinstance(item, SocketClosed):
            self.messages.put_nowait(item)
            raise item
        return item

    async def close(self) -> None:
        """Close politely (code 1000) and drop the connection; a reader still waiting
        gets SocketClosed."""
        if not self.closed:
            self.closed_here = True
            self._send(8, (1000).to_bytes(2, "big"))
            self._fail(1000)


@dataclass
class Stats:
    """What a run measured."""

    moves: int = 0
    latency: list[float] = field(default_factory=list)  # move round trips, seconds
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
                 rng: random.Random, via: str = "ws", socket_ports: list[int] | None = None
                 ) -> None:
        """Where the server is, what to record, how to pace, how moves are sent (`ws`:
        on the seat's socket, as the web client does; `http`: POSTed); `socket_ports`:
        seat i's socket goes straight to process i (mod their number) instead."""
        self.base, self.host, self.port = base, host, port
        self.socket_ports = socket_ports or [port]
        self.stats, self.paced, self.rng, self.via = stats, paced, rng, via
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
        for i, tok in enumerate(tokens):
            try:
                sockets.append(await WebSocketClient.connect(
                    self.host, self.socket_ports[i % len(self.socket_ports)],
                    f"/api/games/{gid}/ws?token={tok}"))
            except (TimeoutError, ConnectionError, OSError) as exc:
                self.stats.error(f"socket open {type(exc).__name__}")
                for ws in sockets:
                    await ws.close()
                await asyncio.sleep(1)
                return
        first = [asyncio.Event(), asyncio.Event()]
        tasks = [asyncio.create_task(self.seat(gid, tok, ws, over, first[i]))
                 for i, (tok, ws) in enumerate(zip(tokens, sockets, strict=True))]
        waiters: list[asyncio.Task[Any]] = []
        try:
            if ready is not None:
                waiters = [asyncio.create_task(e.wait()) for e in first]
                await asyncio.wait(waiters, timeout=REQUEST_TIMEOUT)
                ready.set()
            waiters += [asyncio.create_task(stop.wait()), asyncio.create_task(over.wait())]
            await asyncio.wait([*waiters[-2:], *tasks], return_when=asyncio.FIRST_COMPLETED)
        finally:  # also when cancelled: nothing of this game outlives it
            for t in (*waiters, *tasks):
                t.cancel()
            for ws in sockets:  # a seat that missed its cancellation ends on SocketClosed
                await ws.close()

    async def seat(self, gid: str, token: str, ws: WebSocketClient, over: asyncio.Event,
                   first: asyncio.Event) -> None:
        """One person: read states, move when it is their turn."""
        acted = -1
        waiting: tuple[int, float] | None = None  # a socket move: its version, when sent
        try:
            while True:
                if waiting is None:
                    raw = await ws.recv()
                else:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), REQUEST_TIMEOUT)
                    except TimeoutError:
                        self.stats.error("move timeout")
                        waiting = None
                        continue
                msg = orjson.loads(raw)
                kind = msg.get("type")
                if kind == "refused" and waiting is not None:
                    self.stats.error(f"move {msg.get('status')}")
                    waiting = None
                    continue
                if kind != "state":
                    if kind == "error":
                        self.stats.error(f"socket error {msg.get('status')}")
                    continue
                p = msg["payload"]
                first.set()
                v = p["version"]
                if waiting is not None and v > waiting[0]:  # the answer to this seat's move
                    if self.stats.measuring:
                        self.stats.moves += 1
                        self.stats.latency.append(time.perf_counter() - waiting[1])
                    waiting = None
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
                if self.via == "ws":
                    ws.send_text(orjson.dumps({"type": "move", "action": choice,
                                               "version": v}))
                    waiting = (v, t0)
                    continue
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
        except SocketClosed as exc:
            if not over.is_set() and not ws.closed_here:
                self.stats.error(str(exc))
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


async def run_load(base: str, games: int, seconds: float, paced: bool, pids: list[int],
                   seed: int, via: str = "ws", socket_ports: list[int] | None = None
                   ) -> dict[str, Any]:
    """Keep `games` games live for `seconds` (after every seat has its first state)."""
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(seed)
    players = [GamePlayer(base, host, port, stats, paced, random.Random(rng.random()), via,
                          socket_ports) for _ in range(games)]
    readies = [asyncio.Event() for _ in players]
    tasks = []
    for gp, ready in zip(players, readies, strict=True):
        tasks.append(asyncio.create_task(gp.run(stop, ready)))
        await asyncio.sleep(0.005)  # do not open every socket in the same millisecond
    await asyncio.wait([asyncio.create_task(r.wait()) for r in readies], timeout=120)
    await asyncio.sleep(3.0 if paced else 1.0)  # warm up: past the first moves
    before = proc_figures(pids) if pids else None
    client_before = time.process_time()
    stats.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    after = proc_figures(pids) if pids else None
    client_cpu = time.process_time() - client_before
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    for t in tasks:
        t.cancel()
    out: dict[str, Any] = {
        "games": games, "mode": "paced" if paced else "fast", "moves_via": via, "seconds": round(elapsed, 1),
        "moves": stats.moves, "moves_per_s": round(stats.moves / elapsed, 1),
        "p50_ms": round(pct(stats.latency, .50), 1), "p95_ms": round(pct(stats.latency, .95), 1),
        "p99_ms": round(pct(stats.latency, .99), 1),
        "max_ms": round(1000 * max(stats.latency, default=float("nan")), 1),
        "server_p50_ms": round(pct(stats.server, .50), 1) if stats.server else None,
        "server_p99_ms": round(pct(stats.server, .99), 1) if stats.server else None,
        "push_p50_ms": round(pct(stats.push, .50), 1),
        "push_p99_ms": round(pct(stats.push, .99), 1),
        "errors": sum(stats.errors.values()), "error_kinds": dict(stats.errors),
        "games_finished": stats.games_finished,
        "client_cpu_ms_per_move": round(1000 * client_cpu / max(1, stats.moves), 3),
    }
    if before and after:
        out["server_cpu_ms_per_move"] = round(1000 * (after[0] - before[0]) /
                                              max(1, stats.moves), 3)
        out["server_cpu_share"] = round((after[0] - before[0]) / elapsed, 2)
        out["server_rss_mb"] = round(after[1] / 1024, 1)
        out["server_peak_rss_mb"] = round(after[2] / 1024, 1)
    return out


async def run_flood(base: str, posts: int, pids: list[int]) -> dict[str, Any]:
    """POST `posts` moves to game ids that do not exist (no token needed): the server's
    memory before and after (it once grew by 300 MB for 40,000 of them)."""
    parts = urlsplit(base)
    http = [Http(parts.hostname or "127.0.0.1", parts.port or 80) for _ in range(8)]
    before = proc_figures(pids)[1] if pids else 0
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
    after = proc_figures(pids)[1] if pids else 0
    return {"posts": sum(codes.values()), "statuses": codes,
            "seconds": round(time.perf_counter() - t0, 1),
            "rss_before_mb": round(before / 1024, 1), "rss_after_mb": round(after / 1024, 1)}


def _in_server(r: dict[str, Any]) -> str:
    """The server's own share of a move's time, when it sent one (a Server-Timing header
    comes with an HTTP move only; a WebSocket move has none, so nothing is printed)."""
    if r["server_p50_ms"] is None:
        return ""
    return f" (in the server p50 {r['server_p50_ms']:.1f} p99 {r['server_p99_ms']:.1f})"


def show(r: dict[str, Any]) -> None:
    """Print one run's figures."""
    where = (f"{r['store']}, {r['processes']} process{'es' if r['processes'] > 1 else ''}"
             + (" behind haproxy" if r["store"] == "postgresql" else "")
             + (", sockets crossing" if r["cross"] else ""))
    line = (f"{r['mode']:>5} {r['games']:>4} games ({r['moves_via']}; {where}): "
            f"{r['moves_per_s']:>7.1f} moves/s  "
            f"move p50 {r['p50_ms']:.1f} p95 {r['p95_ms']:.1f} p99 {r['p99_ms']:.1f} "
            f"max {r['max_ms']:.1f} ms{_in_server(r)}  push p50 {r['push_p50_ms']:.1f} "
            f"p99 {r['push_p99_ms']:.1f} ms  errors {r['errors']}")
    if "server_cpu_ms_per_move" in r:
        line += (f"  server CPU {r['server_cpu_ms_per_move']:.3f} ms/move "
                 f"({r['server_cpu_share']:.2f} cores), RSS {r['server_rss_mb']:.0f} MB "
                 f"(peak {r['server_peak_rss_mb']:.0f})")
    line += f"  client CPU {r['client_cpu_ms_per_move']:.3f} ms/move"
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
    ap.add_argument("--server-pid", type=int, default=None,
                    help="with --url: the server's process id, to print its CPU and memory")
    ap.add_argument("--moves", choices=("ws", "http"), default="ws",
                    help="send moves on the seat's socket, as the web client does (ws), "
                         "or POST them (http)")
    ap.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite",
                    help="postgresql: a throwaway cluster, --processes servers on it and "
                         "deploy/haproxy.cfg in front")
    ap.add_argument("--processes", type=int, default=1,
                    help="with --store postgresql: server processes behind the proxy (1-8)")
    ap.add_argument("--cross", action="store_true",
                    help="each game's two sockets straight on two different processes")
    ap.add_argument("--rate-limit", type=float, default=0.0,
                    help="the servers' write rate limit (module: 0, none; e.g. 1e9 counts "
                         "every write, in PostgreSQL with --store postgresql, and refuses "
                         "none)")
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
    if args.store == "sqlite" and (args.processes != 1 or args.cross):
        raise SystemExit("several processes share a PostgreSQL database: --store postgresql")
    if not 1 <= args.processes <= 8 or (args.cross and args.processes < 2):
        raise SystemExit("--processes must be 1..8 (at least 2 with --cross)")
    for n in counts:
        procs: list[subprocess.Popen[bytes]] = []
        parts: list[PostgresCluster | HAProxy] = []
        socket_ports = None
        try:
            if args.url:
                base = args.url.rstrip("/")
                if urlsplit(base).hostname != "127.0.0.1":
                    raise SystemExit("--url must be a 127.0.0.1 address")
            elif args.store == "sqlite":
                port = free_port()
                db = str(Path(tempfile.mkdtemp(prefix="kamon-load-")) / "load.db")
                procs.append(start_server(args.server, db, port, args.rate_limit))
                base = f"http://127.0.0.1:{port}"
            else:
                pg = PostgresCluster().start()
                parts.append(pg)
                ports = [free_port() for _ in range(args.processes)]
                procs += [start_server(args.server, pg.url, p, args.rate_limit)
                          for p in ports]
                log = Path(tempfile.mkdtemp(prefix="kamon-proxy-")) / "haproxy.log"
                proxy = HAProxy(ports, log, limits=False).start()  # (one source)
                parts.append(proxy)
                base = proxy.url
                socket_ports = ports if args.cross else None
            pids = [p.pid for p in procs] or ([args.server_pid] if args.server_pid else [])
            if args.mode == "flood":
                f = asyncio.run(run_flood(base, 1000 * n, pids))
                print(f"flood: {f['posts']} POSTs to unknown games in {f['seconds']} s "
                      f"{f['statuses']}: server RSS {f['rss_before_mb']} MB before, "
                      f"{f['rss_after_mb']} MB after", flush=True)
                continue
            r = asyncio.run(run_load(base, n, args.seconds, args.mode == "paced", pids,
                                     args.seed, args.moves, socket_ports))
            r.update(store="a running server" if args.url else args.store,
                     processes=args.processes, cross=args.cross)
        finally:
            for proc in procs:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            for part in reversed(parts):
                part.stop()
        show(r)
        if args.json:
            print(json.dumps(r), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
