"""Running the web server: `serve` is what `kamon serve` calls, and `python -m
kamon.server` runs it with the same flags (tests and benchmarks use that).

The uvicorn settings that belong to the server's limits live here: WebSocket messages of
at most 64 KiB (a client only sends pings), no per-message compression (it would
cost more CPU per move than everything else the server does for it), and no access log
(it was never shown at the server's log level, but each request still built its line's
arguments).
"""

from __future__ import annotations

import argparse
import gc
import sys
from dataclasses import dataclass

from kamon.server.guard import MAX_BODY, RATE

WS_MAX_SIZE = 64 * 1024
MAX_WORKERS = 64
GC_THRESHOLD = 50_000  # new container objects between two passes of the collector


@dataclass
class ServeOptions:
    """Everything `kamon serve` can be told."""

    host: str = "127.0.0.1"
    port: int = 8000
    db: str = "kamon.db"
    bot_delay: float = 0.6
    bot_workers: int | None = None
    max_body: int = MAX_BODY
    rate_limit: float = RATE
    rate_burst: float | None = None
    workers: int = 1


def build_app(opts: ServeOptions) -> object:
    """The app `serve` runs (a RuntimeError naming the database if it cannot open)."""
    from kamon.server.app import create_app
    try:
        return create_app(opts.db, bot_workers=opts.bot_workers, bot_delay=opts.bot_delay,
                          max_body=opts.max_body, rate=opts.rate_limit, burst=opts.rate_burst)
    except Exception as exc:  # an unreachable database, a bad URL, an unwritable file
        raise RuntimeError(f"cannot open the database {opts.db!r}: {exc}") from None


def tune_gc() -> None:
    """The cyclic garbage collector, set for a server: what was loaded at start-up (the
    modules, the games' data) is frozen out of its passes, and a pass comes after
    GC_THRESHOLD new container objects instead of 700. The engine makes and drops many
    objects a move (copies of a game, views, payloads), so at the default the passes
    took about a fifth of the server's CPU and their full passes held the event loop
    for tens of milliseconds at a time (measured with gc.callbacks, 50 busy games)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, 20, 10)


def prepare(opts: ServeOptions) -> object | None:
    """What `serve` needs built before it says where it serves: the app of a single
    server process, or (several workers, each building its own) a first check that the
    database opens. A RuntimeError naming the database if it cannot open."""
    if opts.workers > 1:
        from kamon.server.cluster import check_database
        check_database(opts)
        return None
    return build_app(opts)


def serve(opts: ServeOptions, app: object | None = None) -> None:
    """Serve until stopped (Ctrl-C): in this process, or with `opts.workers` worker
    processes behind a front process (cluster.py)."""
    import uvicorn
    if opts.workers > 1:
        from kamon.server.cluster import serve_cluster
        serve_cluster(opts, opts.workers)
        return
    web = app if app is not None else build_app(opts)
    tune_gc()
    uvicorn.run(web, host=opts.host, port=opts.port, log_level="warning",  # type: ignore[arg-type]
                ws_max_size=WS_MAX_SIZE, ws_per_message_deflate=False, access_log=False)


def parser() -> argparse.ArgumentParser:
    """The flags of `python -m kamon.server` (those of `kamon serve`)."""
    ap = argparse.ArgumentParser(prog="python -m kamon.server",
                                 description="Run the kamon web server.")
    d = ServeOptions()
    ap.add_argument("--host", default=d.host, help="address to listen on")
    ap.add_argument("--port", type=int, default=d.port, help="TCP port")
    ap.add_argument("--db", default=d.db, help="an SQLite file path, or a postgresql:// URL")
    ap.add_argument("--bot-delay", type=float, default=d.bot_delay,
                    help="seconds a bot waits before it moves")
    ap.add_argument("--bot-workers", type=int, default=None,
                    help="processes that run bots (default: up to 2; 0: a thread)")
    ap.add_argument("--max-body", type=int, default=d.max_body,
                    help="largest request body accepted, in bytes")
    ap.add_argument("--rate-limit", type=float, default=d.rate_limit,
                    help="writes per second one client address may make (0: no limit)")
    ap.add_argument("--rate-burst", type=float, default=None,
                    help="writes a client may make at once (default: 3 s worth)")
    ap.add_argument("--workers", type=int, default=d.workers,
                    help="server processes (each game served by one of them; 1: this "
                         "process alone)")
    return ap


def main(argv: list[str] | None = None) -> int:
    """Parse the flags and serve."""
    args = parser().parse_args(argv)
    if not 1 <= args.workers <= MAX_WORKERS:
        print(f"error: --workers must be 1..{MAX_WORKERS}", file=sys.stderr)
        return 2
    opts = ServeOptions(args.host, args.port, args.db, args.bot_delay, args.bot_workers,
                        args.max_body, args.rate_limit, args.rate_burst, args.workers)
    try:
        app = prepare(opts)
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"kamon serving on http://{opts.host}:{opts.port}/ (games stored in {opts.db})",
          flush=True)
    serve(opts, app)
    return 0
