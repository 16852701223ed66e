"""Benchmark of the web server: move round trips over HTTP, and rebuilding games from the store.

Usage: python bench/bench_server.py [--games N] [--db URL]

Starts `kamon serve` on a free port (a fresh SQLite file unless --db is given), creates
2-player White Castle games with two human seats and plays them to the end through
`POST /api/games/{id}/moves`, one client, one request at a time. Prints the round trip
per move (median and 95th percentile, milliseconds: validation, the engine, the
committed append, the payload), moves per second, and the time a restarted server
takes to rebuild a finished game from its record on first read. It prints, never
asserts.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: str, port: int) -> subprocess.Popen[bytes]:
    """`kamon serve` on the port, waited for until it answers."""
    # the server of `kamon serve`, without its per-client write rate limit (one client
    # playing as fast as it can is all this benchmark is)
    proc = subprocess.Popen([sys.executable, "-m", "kamon.server", "--port", str(port),
                             "--db", db, "--bot-delay", "0", "--rate-limit", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/catalog", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def main(argv: list[str] | None = None) -> int:
    """Play the games, restart, rebuild; print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--db", default=None, help="database path or URL (default: a new file)")
    args = ap.parse_args(argv)
    db = args.db or str(Path(tempfile.mkdtemp(prefix="kamon-bench-")) / "bench.db")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(db, port)
    times: list[float] = []
    ids: list[str] = []
    try:
        with httpx.Client(base_url=base, timeout=30) as c:
            for _ in range(args.games):
                # two people: the server draws the seed (only practice games take one)
                created = c.post("/api/games", json={"game": "white-castle", "players": 2,
                                                     "seats": ["human", "human"]}).json()
                ids.append(created["id"])
                tokens = [s["token"] for s in created["seats"]]
                p = c.get(f"/api/games/{created['id']}", params={"token": tokens[0]}).json()
                mover = p["to_move"]
                p = c.get(f"/api/games/{created['id']}",
                          params={"token": tokens[mover]}).json()
                while not p["over"]:
                    tok = tokens[p["to_move"]]
                    if p["you"] != p["to_move"]:
                        p = c.get(f"/api/games/{created['id']}", params={"token": tok}).json()
                    choice = p["legal"][len(p["legal"]) // 2]["id"]
                    t = time.perf_counter()
                    r = c.post(f"/api/games/{created['id']}/moves",
                               json={"token": tok, "action": choice, "version": p["version"]})
                    times.append(time.perf_counter() - t)
                    r.raise_for_status()
                    p = r.json()
    finally:
        proc.terminate()
        proc.wait()
    proc = start(db, port)
    rebuild: list[float] = []
    try:
        with httpx.Client(base_url=base, timeout=30) as c:
            for gid in ids:
                t = time.perf_counter()
                c.get(f"/api/games/{gid}").raise_for_status()
                rebuild.append(time.perf_counter() - t)
            t = time.perf_counter()
            for gid in ids:
                c.get(f"/api/games/{gid}").raise_for_status()
            cached = (time.perf_counter() - t) / len(ids)
    finally:
        proc.terminate()
        proc.wait()
    times.sort()
    print(f"kamon serve on {db.split('://')[0] if '://' in db else 'sqlite file'}: "
          f"{args.games} games, {len(times)} moves through the API")
    print(f"  move round trip: median {1000 * statistics.median(times):.1f} ms, "
          f"p95 {1000 * times[int(0.95 * (len(times) - 1))]:.1f} ms, "
          f"{len(times) / sum(times):.0f} moves/s (one client)")
    print(f"  first read after a restart (rebuild from the record): median "
          f"{1000 * statistics.median(rebuild):.1f} ms per game; cached read "
          f"{1000 * cached:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
