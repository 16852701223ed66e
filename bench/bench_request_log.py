"""What the operator's request layer costs a `kamon serve` process (logs.RequestLog: a
request id, the ban check, the HTTP metrics and a log line per request): requests per
second of the cheapest route (GET /api/health) and a game read (GET /api/games/{id})
with no request log line (--no-log-requests: the id, ban check and metrics remain),
with text lines and with JSON lines (written to a file), alternated in one sitting with
wrk (Debian's `wrk`) on 127.0.0.1.

    .venv/bin/python bench/bench_request_log.py [--seconds 5] [--rounds 3] [--connections 16]
"""

from __future__ import annotations

import argparse
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


def wrk(url: str, seconds: float, connections: int) -> float:
    """Requests per second wrk measured (one thread, `connections` keep-alive)."""
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds:g}s", url],
                         capture_output=True, text=True, timeout=seconds + 30).stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if found is None:
        raise SystemExit("wrk said: " + out)
    return float(found.group(1))


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
        results: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.rounds):
            for mode, srv in servers.items():
                for route, path in (("health", "/api/health"),
                                    ("game read", f"/api/games/{games[mode]}")):
                    rps = wrk(srv.url + path, args.seconds, args.connections)
                    results.setdefault((route, mode), []).append(rps)
                    print(f"{route:10} {mode:12} {rps:8.0f} req/s", flush=True)
    finally:
        for srv in servers.values():
            srv.stop()
    print(f"\nwrk, {args.connections} connections, {args.seconds:g} s a run, "
          f"{args.rounds} rounds alternated; medians (ratio to no log line):")
    for route in ("health", "game read"):
        base = statistics.median(results[(route, "no log line")])
        line = "  ".join(f"{mode} {statistics.median(results[(route, mode)]):7.0f} "
                         f"({statistics.median(results[(route, mode)]) / base:.2f})"
                         for mode in MODES)
        print(f"{route:10} {line}")


if __name__ == "__main__":
    main()
