"""What deploy/haproxy.cfg's per-source limits (a stick-table tracking each source's open
connections, new connections and requests) cost HAProxy: its CPU time per request (user
+ system, from /proc: other work on a shared machine disturbs it far less than
throughput) and requests per second, with the limit rules off (KAMON_NO_LIMITS=1) and on
(thresholds set out of reach, so nothing is refused and only the tracking is measured),
alternated in one sitting, with wrk (Debian's `wrk`) on 127.0.0.1.

Two paths: /metrics, which the proxy answers itself (its own cost alone), and
/api/health, forwarded to one `kamon serve` process (the cost as a client sees it).
Plain HTTP, to keep TLS's cost out of the comparison.

    .venv/bin/python bench/bench_proxy_limits.py [--seconds 5] [--rounds 3] [--connections 32]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from tests.server.cluster import DEPLOY, free_port  # noqa: E402
from tests.server.conftest import ServerProcess  # noqa: E402

OUT_OF_REACH = {"KAMON_MAX_CONNS": "1000000", "KAMON_CONN_RATE": "1000000000",
                "KAMON_REQ_RATE": "1000000000"}


def start_proxy(kamon_port: int, limits: bool, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """HAProxy with the repository's config, limits on (out of reach) or off; its URL."""
    port = free_port()
    env = {**os.environ, "KAMON_LISTEN": f"127.0.0.1:{port}",
           "KAMON_UPSTREAM_1": f"127.0.0.1:{kamon_port}"}
    for name in ("KAMON_CERT", "KAMON_REDIRECT", "KAMON_NO_LIMITS", *OUT_OF_REACH):
        env.pop(name, None)
    env.update(OUT_OF_REACH if limits else {"KAMON_NO_LIMITS": "1"})
    exe = shutil.which("haproxy") or "/usr/sbin/haproxy"
    with log.open("ab") as out:
        proc = subprocess.Popen([exe, "-db", "-f", str(DEPLOY / "haproxy.cfg")], env=env,
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("haproxy did not start: " + log.read_text()[-1000:])


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
    """Alternate limits off / on for each path; print each run and the medians."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--connections", type=int, default=32)
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: bash scripts/system-deps.sh")
    tmp = Path(tempfile.mkdtemp(prefix="kamon-bench-proxy-"))
    kamon = ServerProcess(tmp / "kamon.db", tmp / "kamon.log",
                          args=["--trusted-proxy", "127.0.0.1", "--no-log-requests"]).start()
    results: dict[tuple[str, bool], list[tuple[float, float]]] = {}
    try:
        for _ in range(args.rounds):
            for limits in (False, True):
                proc, url = start_proxy(kamon.port, limits, tmp / "haproxy.log")
                try:
                    for path in ("/metrics", "/api/health"):
                        cpu = cpu_seconds(proc.pid)
                        rps, total = wrk(url + path, args.seconds, args.connections)
                        us = (cpu_seconds(proc.pid) - cpu) / total * 1e6
                        results.setdefault((path, limits), []).append((us, rps))
                        print(f"{path:12} limits {'on ' if limits else 'off'} {us:6.1f} us "
                              f"HAProxy CPU a request {rps:10.0f} req/s", flush=True)
                finally:
                    proc.terminate()
                    proc.wait(timeout=10)
    finally:
        kamon.stop()
    print(f"\nwrk, {args.connections} connections, {args.seconds:g} s a run, "
          f"{args.rounds} rounds alternated; medians of HAProxy's CPU per request and of "
          "requests/s:")
    for path in ("/metrics", "/api/health"):
        off = statistics.median(u for u, _ in results[(path, False)])
        on = statistics.median(u for u, _ in results[(path, True)])
        off_r = statistics.median(r for _, r in results[(path, False)])
        on_r = statistics.median(r for _, r in results[(path, True)])
        print(f"{path:12} off {off:5.1f} us {off_r:8.0f}/s   on {on:5.1f} us {on_r:8.0f}/s"
              f"   CPU on/off {on / off:.2f}")


if __name__ == "__main__":
    main()
