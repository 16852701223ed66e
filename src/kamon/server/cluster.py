"""Several server processes on one port: `kamon serve --workers N`.

One server process runs Python on one core at a time (the GIL), so a busy server left the
machine's other cores idle. With N workers, the first process (the front) only accepts
connections and hands each one, as an open file descriptor, to a worker process that
serves it from then on (uvicorn, the same app as a single server):

- a connection whose first request names a game (`/api/games/{id}...`: its socket, its
  moves, its view) goes to the game's *owner*, a worker fixed by the game's id, so a
  game's moves, sockets, bots and cache live in one process and a move costs no more
  than it does in a single server;
- any other connection (the lobby, creating games, static files) goes to the worker
  fixed by the client's address, so one client's writes meet one rate limiter.

The database stays the one truth (each worker opens it; a versioned append refuses the
second of two writes at one version, as between two servers). A write a worker stores
for a game it does not own (a move POSTed on a connection that came for another game,
a bot started by a new game) is told to the owner at once, in a datagram naming the
game, its version and the stored row, so the owner's sockets hear of it without waiting
for the poll, and bots only ever think in the owner. The front restarts a worker that
dies; every worker exits when the front is gone (even after kill -9).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
import os
import re
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from typing import Any

log = logging.getLogger("kamon.server")

GAME_ROUTE = re.compile(rb"[A-Z]{3,7} /api/games/([A-Za-z0-9_-]{1,32})(?:[/? ]|$)")
PEEK_BYTES = 1024  # the start of a request the front reads (and leaves) to route it
QUIET_SECONDS = 10.0  # a connection that sends nothing for this long is closed
MAX_WAITING = 1024  # connections the front holds before routing (the oldest go first)
RESTART_SECONDS = 1.0  # the least time between two starts of one worker
STOP_SECONDS = 10.0  # how long the workers have to finish when the server stops
TICK_SECONDS = 0.25
HANDOFF_BUFFER = 1 << 20  # bytes of connections handed to a worker not yet taken


def owner(game_id: str, workers: int) -> int:
    """The worker that owns a game (the same in every process, run after run)."""
    return zlib.crc32(game_id.encode()) % workers


def route(head: bytes, client: str, workers: int) -> int:
    """The worker for a new connection, from the start of its first request.

    >>> route(b"GET /api/games/abc/ws?token=t HTTP/1.1", "1.2.3.4", 4) == owner("abc", 4)
    True
    >>> route(b"POST /api/games HTTP/1.1", "1.2.3.4", 4) == zlib.crc32(b"1.2.3.4") % 4
    True
    """
    m = GAME_ROUTE.match(head)
    if m is not None:
        return owner(m.group(1).decode(), workers)
    return zlib.crc32(client.encode()) % workers


# --- the workers' line to each other ------------------------------------------------

class Peers:
    """A worker's datagram socket (an abstract Unix address named after the front's
    process) on which other workers tell it of writes to its games."""

    def __init__(self, tag: str, index: int, workers: int) -> None:
        """Bind this worker's address; `tag` is the same for every worker of a server."""
        self.index = index
        self.workers = workers
        self.addresses = [f"\0kamon-{tag}-{i}" for i in range(workers)]
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.sock.bind(self.addresses[index])
        self.sock.setblocking(False)

    def owns(self, game_id: str) -> bool:
        """Is this worker the game's owner?"""
        return owner(game_id, self.workers) == self.index

    def tell(self, game_id: str, version: int, row: list[Any] | None = None,
             drive: bool = False) -> None:
        """Tell the game's owner it is at `version` (`row`: the move stored to get there,
        as [kind, seat, action id]; `drive`: a bot of it is to move). A message that
        cannot be sent is dropped: the owner's poll catches the move later."""
        message = json.dumps([game_id, version, row, drive]).encode()
        with contextlib.suppress(OSError):
            self.sock.sendto(message, self.addresses[owner(game_id, self.workers)])

    def listen(self, loop: asyncio.AbstractEventLoop,
               handler: Callable[[str, int, list[Any] | None, bool], None]) -> None:
        """Call `handler(game_id, version, row, drive)` on the loop for every message."""
        loop.add_reader(self.sock.fileno(), self._read, handler)

    def _read(self, handler: Callable[[str, int, list[Any] | None, bool], None]) -> None:
        """Read every waiting message (a malformed one is dropped)."""
        while True:
            try:
                data, ancillary, _flags, _addr = self.sock.recvmsg(4096, CREDENTIALS)
            except OSError:  # nothing more waiting (or the socket is closed)
                return
            if _sender_uid(ancillary) != os.getuid():
                continue  # only processes of the server's own user may tell it anything
            try:
                game_id, version, row, drive = json.loads(data)
                if not (isinstance(game_id, str) and isinstance(version, int)):
                    continue
            except (ValueError, TypeError):
                continue
            handler(game_id, version, row if isinstance(row, list) else None, bool(drive))

    def close(self) -> None:
        """Release the address."""
        self.sock.close()


CREDENTIALS = socket.CMSG_SPACE(struct.calcsize("3i"))


def _sender_uid(ancillary: list[tuple[int, int, bytes]]) -> int | None:
    """The user id the kernel vouches sent a datagram (SO_PASSCRED), if it said."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS and \
                len(data) >= struct.calcsize("3i"):
            return int(struct.unpack("3i", data[:struct.calcsize("3i")])[1])
    return None


# --- a worker ---------------------------------------------------------------------------

def _handed_server(config: Any, handoff: socket.socket, on_start: Callable[[], None]
                   ) -> Any:
    """A uvicorn server that listens on nothing and serves the connections the front
    hands it on `handoff` (file descriptors in SCM_RIGHTS messages)."""
    import uvicorn

    class HandedServer(uvicorn.Server):
        """uvicorn's server, fed connections by the front."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            """uvicorn's start-up with no listening socket, then take connections."""
            await super().startup(sockets=[])
            loop = asyncio.get_running_loop()
            protocol: Any = self.config.http_protocol_class
            factory = functools.partial(
                protocol, config=self.config,
                server_state=self.server_state, app_state=self.lifespan.state)
            handoff.setblocking(False)
            loop.add_reader(handoff.fileno(), self._take, loop, factory)
            on_start()

        def _take(self, loop: asyncio.AbstractEventLoop, factory: Any) -> None:
            """Serve every connection waiting on the hand-off socket; the front closing
            it means the server stops."""
            while True:
                try:
                    data, fds, _flags, _addr = socket.recv_fds(handoff, 16, 64)
                except (BlockingIOError, InterruptedError):
                    return
                except OSError:
                    data, fds = b"", []
                if not data and not fds:
                    loop.remove_reader(handoff.fileno())
                    self.should_exit = True
                    return
                for fd in fds:
                    conn = socket.socket(fileno=fd)
                    conn.setblocking(False)
                    loop.create_task(_serve_connection(loop, factory, conn))

    return HandedServer(config)


async def _serve_connection(loop: asyncio.AbstractEventLoop, factory: Any,
                            conn: socket.socket) -> None:
    """Serve a handed connection (one already closed by its client is dropped)."""
    try:
        await loop.connect_accepted_socket(factory, conn)
    except OSError:
        conn.close()


def run_worker(opts: Any, index: int, workers: int, tag: str, handoff_fd: int,
               front_pid: int, writes_lock: str) -> int:
    """A worker process: the app over the database, serving what the front hands it."""
    import uvicorn

    from kamon.server.bots import watch_parent
    from kamon.server.run import WS_MAX_SIZE, build_app, tune_gc

    watch_parent(front_pid)
    handoff = socket.socket(fileno=handoff_fd)
    app: Any = build_app(opts)
    server = app.state.server
    server.store.share_writes(writes_lock)
    peers = Peers(tag, index, workers)
    server.peers = peers
    config = uvicorn.Config(app, log_level="warning", ws_max_size=WS_MAX_SIZE,
                            ws_per_message_deflate=False, access_log=False)

    def started() -> None:
        peers.listen(asyncio.get_running_loop(), server.on_peer)

    tune_gc()
    _handed_server(config, handoff, started).run()
    peers.close()
    return 0


# --- the front ------------------------------------------------------------------------------

@dataclasses.dataclass
class _Worker:
    """A worker process and the front's end of its hand-off socket."""

    index: int
    proc: subprocess.Popen[bytes] | None = None
    handoff: socket.socket | None = None
    started: float = 0.0


class Front:
    """The first process: accepts connections, routes each to a worker by the start
    of its first request (read with MSG_PEEK, so the worker reads it all), keeps the
    workers running."""

    def __init__(self, opts: Any, workers: int) -> None:
        """Serve `opts` (a run.ServeOptions) with `workers` worker processes."""
        self.opts = opts
        self.workers = [_Worker(i) for i in range(workers)]
        self.tag = f"{os.getpid()}-{os.urandom(4).hex()}"
        self.selector = selectors.DefaultSelector()
        self.waiting: dict[socket.socket, tuple[str, float]] = {}
        self.partial: set[socket.socket] = set()  # to route on the next tick
        self.stopping = False
        self.listener: socket.socket | None = None
        self.lock_dir = tempfile.mkdtemp(prefix="kamon-serve-")
        self.writes_lock = os.path.join(self.lock_dir, "writes.lock")

    def bind(self) -> None:
        """Listen on the server's address (an OSError if it is taken)."""
        family = socket.AF_INET6 if ":" in self.opts.host else socket.AF_INET
        self.listener = socket.create_server((self.opts.host, self.opts.port),
                                             family=family, backlog=2048)
        self.listener.setblocking(False)

    def start(self, w: _Worker) -> None:
        """Start (or restart) one worker process."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        fields = dataclasses.asdict(self.opts)
        cmd = [sys.executable, "-m", "kamon.server.cluster", "--options", json.dumps(fields),
               "--index", str(w.index), "--workers", str(len(self.workers)),
               "--tag", self.tag, "--handoff", str(theirs.fileno()),
               "--front", str(os.getpid()), "--writes-lock", self.writes_lock]
        w.proc = subprocess.Popen(cmd, pass_fds=[theirs.fileno()])
        theirs.close()
        if w.handoff is not None:
            w.handoff.close()
        ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, HANDOFF_BUFFER)
        ours.setblocking(False)
        w.handoff = ours
        w.started = time.monotonic()

    def run(self) -> None:
        """Serve until SIGINT or SIGTERM, then stop the workers."""
        assert self.listener is not None
        for w in self.workers:
            self.start(w)
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        self.selector.register(self.listener, selectors.EVENT_READ, None)
        try:
            while not self.stopping:
                for key, _ in self.selector.select(TICK_SECONDS):
                    if key.data is None:
                        self._accept()
                    else:
                        self._route(key.fileobj)  # type: ignore[arg-type]
                self._tick()
        finally:
            self._shutdown()

    def _stop(self, _sig: int, _frame: Any) -> None:
        """A signal: stop after this turn of the loop."""
        self.stopping = True

    def _accept(self) -> None:
        """Take every connection waiting on the listening socket."""
        assert self.listener is not None
        while True:
            try:
                conn, addr = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # out of file descriptors, say: try again next turn
                log.warning("accepting a connection failed: %s", exc)
                return
            conn.setblocking(False)
            if len(self.waiting) >= MAX_WAITING:
                self._drop(next(iter(self.waiting)))
            client = str(addr[0]) if isinstance(addr, tuple) else "?"
            self.waiting[conn] = (client, time.monotonic() + QUIET_SECONDS)
            self.selector.register(conn, selectors.EVENT_READ, client)

    def _route(self, conn: socket.socket) -> None:
        """A waiting connection sent its first bytes: hand it to its worker."""
        client, _ = self.waiting.get(conn, ("?", 0.0))
        try:
            head = conn.recv(PEEK_BYTES, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            head = b""
        if not head:
            self._drop(conn)
            return
        if b"\n" not in head and len(head) < PEEK_BYTES and \
                time.monotonic() < self.waiting[conn][1]:
            self._later(conn)  # the request line came in pieces: look again then
            return
        w = self.workers[route(head, client, len(self.workers))]
        try:
            assert w.handoff is not None
            socket.send_fds(w.handoff, [b"c"], [conn.fileno()])
        except BlockingIOError:  # the worker has many connections still to take: later
            self._later(conn)
            return
        except OSError as exc:  # the worker is gone (it is being started again)
            log.warning("worker %d could not take a connection: %s", w.index, exc)
        self._drop(conn)

    def _later(self, conn: socket.socket) -> None:
        """Route a connection on the next tick (its unread bytes would make the loop
        spin if it stayed registered)."""
        self.selector.unregister(conn)
        self.partial.add(conn)

    def _drop(self, conn: socket.socket) -> None:
        """Forget a waiting connection and close the front's copy of it."""
        self.waiting.pop(conn, None)
        self.partial.discard(conn)
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(conn)
        conn.close()

    def _tick(self) -> None:
        """Close connections that stayed quiet; restart workers that died."""
        now = time.monotonic()
        for conn in [c for c, (_, limit) in self.waiting.items() if limit < now]:
            self._drop(conn)
        for conn in list(self.partial):
            self.partial.discard(conn)
            self.selector.register(conn, selectors.EVENT_READ, self.waiting[conn][0])
            self._route(conn)
        for w in self.workers:
            if w.proc is not None and w.proc.poll() is not None and \
                    now - w.started >= RESTART_SECONDS and not self.stopping:
                log.error("worker %d exited with %s; starting it again", w.index,
                          w.proc.returncode)
                self.start(w)

    def _shutdown(self) -> None:
        """Stop accepting; ask every worker to finish (closing its hand-off socket and
        SIGTERM), then wait for them (killing any still there after STOP_SECONDS)."""
        if self.listener is not None:
            self.selector.unregister(self.listener)
            self.listener.close()
        for conn in list(self.waiting):
            self._drop(conn)
        for w in self.workers:
            if w.handoff is not None:
                w.handoff.close()
            if w.proc is not None and w.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    w.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for w in self.workers:
            if w.proc is None:
                continue
            try:
                w.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                w.proc.kill()
                w.proc.wait()
        shutil.rmtree(self.lock_dir, ignore_errors=True)


def check_database(opts: Any) -> None:
    """Open the database once before the workers do (creating or upgrading its tables
    in one process); a RuntimeError naming it if it cannot be opened."""
    from kamon.server.store import Store
    from kamon.server.tables import ensure_tables
    try:
        store = Store(opts.db)
        try:
            ensure_tables(store)
        finally:
            store.close()
    except Exception as exc:
        raise RuntimeError(f"cannot open the database {opts.db!r}: {exc}") from None


def serve_cluster(opts: Any, workers: int) -> None:
    """Serve with `workers` worker processes until stopped."""
    front = Front(opts, workers)
    front.bind()
    front.run()


def main(argv: list[str] | None = None) -> int:
    """A worker's entry point (the front starts it: `python -m kamon.server.cluster`)."""
    from kamon.server.run import ServeOptions
    ap = argparse.ArgumentParser(prog="python -m kamon.server.cluster")
    ap.add_argument("--options", required=True)
    ap.add_argument("--index", type=int, required=True)
    ap.add_argument("--workers", type=int, required=True)
    ap.add_argument("--tag", required=True)
    ap.add_argument("--handoff", type=int, required=True)
    ap.add_argument("--front", type=int, required=True)
    ap.add_argument("--writes-lock", required=True)
    args = ap.parse_args(argv)
    opts = ServeOptions(**json.loads(args.options))
    return run_worker(opts, args.index, args.workers, args.tag, args.handoff, args.front,
                      args.writes_lock)


if __name__ == "__main__":
    raise SystemExit(main())
