"""What deploy/haproxy.cfg's per-source limits (a stick-table tracking each source's open
connections, new connections and requests) cost HAProxy: requests per second with the
limit rules off (KAMON_NO_LIMITS=1) and on (thresholds set out of reach, so nothing is
refused and only the tracking is measured), alternated in one sitting, with wrk (Debian's
`wrk`; a small Python client if it is missing) on 127.0.0.1.

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
import threading
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


def wrk(url: str, seconds: float, connections: int) -> float:
    """Requests per second wrk measured (one thread, `connections` keep-alive)."""
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds:g}s", url],
                         capture_output=True, text=True, timeout=seconds + 30).stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if found is None:
        raise SystemExit("wrk said: " + out)
    return float(found.group(1))


def python_client(url: str, seconds: float, connections: int) -> float:
    """Requests per second of `connections` threads on keep-alive connections (when wrk
    is not installed: it measures the client as much as the proxy)."""
    counts = [0] * connections
    stop = time.monotonic() + seconds

    def run(i: int) -> None:
        with httpx.Client(timeout=10) as c:
            while time.monotonic() < stop:
                c.get(url)
                counts[i] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / seconds


def main() -> None:
    """Alternate limits off / on for each path; print each run and the medians' ratio."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--connections", type=int, default=32)
    args = ap.parse_args()
    measure = wrk if shutil.which("wrk") else python_client
    tmp = Path(tempfile.mkdtemp(prefix="kamon-bench-proxy-"))
    kamon = ServerProcess(tmp / "kamon.db", tmp / "kamon.log",
                          args=["--trusted-proxy", "127.0.0.1", "--no-log-requests"]).start()
    results: dict[tuple[str, bool], list[float]] = {}
    try:
        for _ in range(args.rounds):
            for limits in (False, True):
                proc, url = start_proxy(kamon.port, limits, tmp / "haproxy.log")
                try:
                    for path in ("/metrics", "/api/health"):
                        rps = measure(url + path, args.seconds, args.connections)
                        results.setdefault((path, limits), []).append(rps)
                        print(f"{path:12} limits {'on ' if limits else 'off'} {rps:10.0f} req/s",
                              flush=True)
                finally:
                    proc.terminate()
                    proc.wait(timeout=10)
    finally:
        kamon.stop()
    print(f"\nclient: {measure.__name__}, {args.connections} connections, "
          f"{args.seconds:g} s a run, {args.rounds} rounds alternated; medians:")
    for path in ("/metrics", "/api/health"):
        off = statistics.median(results[(path, False)])
        on = statistics.median(results[(path, True)])
        print(f"{path:12} off {off:10.0f}  on {on:10.0f}  on/off {on / off:.3f}")


if __name__ == "__main__":
    main()
