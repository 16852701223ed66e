"""What the operator's request layer costs a `kamon serve` process (logs.RequestLog: a
request id, the ban check, the HTTP metrics and a log line per request): the server
process's CPU time per request (user + system, from /proc: other work on a shared
machine disturbs it far less than throughput) and requests per second, for the cheapest
route (GET /api/health) and a game read (GET /api/games/{id}), with no request log line
(--no-log-requests: the id, ban check and metrics remain), with text lines and with JSON
lines (written to a file), alternated in one sitting with wrk (Debian's `wrk`) on
127.0.0.1.

    .venv/bin/python bench/bench_request_log.py [--seconds 5] [--rounds 3] [--connections 16]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.conftest import ServerProcess  # noqa: E402

MODES = {"no log line": ["--no-log-requests"], "text lines": ["--log-format", "text"],
         "json lines": ["--log-format", "json"]}


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk(url: str, seconds: float, connections: int) -> tuple[float, int]:
    """Requests per second wrk measured (one thread, `connections` keep-alive), and how
    many requests it made."""
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds:g}s", url],
                         capture_output=True, text=True, timeout=seconds + 30).stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    total = re.search(r"(\d+) requests in", out)
    if found is None or total is None:
        raise SystemExit("wrk said: " + out)
    return float(found.group(1)), int(total.group(1))


def main() -> None:
    """Start one server per mode, alternate wrk runs over them, print the medians."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--connections", type=int, default=16)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="kamon-bench-log-"))
    servers = {}
    try:
        for mode, flags in MODES.items():
            name = mode.split()[0]
            servers[mode] = ServerProcess(tmp / f"{name}.db", tmp / f"{name}.log",
                                          args=flags).start()
        games = {}
        for mode, srv in servers.items():
            made = srv.api("/api/games", {"game": "white-castle", "players": 2,
                                          "seats": ["human", "human"]}).json()
            games[mode] = made["id"]
        results: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(args.rounds):
            for mode, srv in servers.items():
                assert srv.proc is not None
                for route, path in (("health", "/api/health"),
                                    ("game read", f"/api/games/{games[mode]}")):
                    cpu = cpu_seconds(srv.proc.pid)
                    rps, total = wrk(srv.url + path, args.seconds, args.connections)
                    us = (cpu_seconds(srv.proc.pid) - cpu) / total * 1e6
                    results.setdefault((route, mode), []).append((us, rps))
                    print(f"{route:10} {mode:12} {us:7.0f} us CPU a request {rps:8.0f} req/s",
                          flush=True)
    finally:
        for srv in servers.values():
            srv.stop()
    print(f"\nwrk, {args.connections} connections, {args.seconds:g} s a run, "
          f"{args.rounds} rounds alternated; medians of the server's CPU per request "
          "(ratio to no log line) and of requests/s:")
    for route in ("health", "game read"):
        base = statistics.median(us for us, _ in results[(route, "no log line")])
        parts = []
        for mode in MODES:
            us = statistics.median(u for u, _ in results[(route, mode)])
            rps = statistics.median(r for _, r in results[(route, mode)])
            parts.append(f"{mode} {us:5.0f} us ({us / base:.2f}) {rps:6.0f}/s")
        print(f"{route:10} " + "  ".join(parts))


if __name__ == "__main__":
    main()
