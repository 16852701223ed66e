"""The parts of a scaled-out deployment, started for real on this machine: a throwaway
PostgreSQL cluster (Debian's postgresql) and HAProxy running the repository's own
deploy/haproxy.cfg on 127.0.0.1. Used by the tests (conftest, test_scale_out) and by
bench/bench_load.py; each part is stopped by the process that started it, by its id.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import httpx

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


class ClusterError(RuntimeError):
    """A part could not be started here (the message says which and why)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresCluster:
    """A PostgreSQL cluster in a temporary folder, listening on a unix socket there only
    (run as the postgres account when this is root: PostgreSQL refuses root)."""

    def __init__(self) -> None:
        """Where it will live (`start` makes it)."""
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise ClusterError("PostgreSQL is not installed (run scripts/system-deps.sh)")
        self.bindir = Path(found[-1]).parent
        self.base = Path(tempfile.mkdtemp(prefix="kamon-pg-"))
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            if shutil.which("runuser") is None:
                raise ClusterError("running as root without runuser: cannot start "
                                   "PostgreSQL")
            self.prefix = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.base, "postgres")
            os.chmod(self.base, 0o700)

    @property
    def url(self) -> str:
        """The database URL kamon takes."""
        return f"postgresql://postgres@/postgres?host={self.base}&port={self.port}"

    def start(self) -> PostgresCluster:
        """initdb and start it (ClusterError, with PostgreSQL's words, if it fails)."""
        data = self.base / "data"
        try:
            subprocess.run([*self.prefix, str(self.bindir / "initdb"), "-D", str(data),
                            "-U", "postgres", "--auth=trust"], check=True,
                           capture_output=True, timeout=120)
            subprocess.run([*self.prefix, str(self.bindir / "pg_ctl"), "-D", str(data),
                            "-w", "-l", str(self.base / "log"), "-o",
                            f"-k {self.base} -p {self.port} -c listen_addresses='' "
                            "-c max_connections=200", "start"],
                           check=True, capture_output=True, timeout=120)
        except (subprocess.SubprocessError, OSError) as exc:
            detail = (getattr(exc, "stderr", b"") or b"").decode()[:300]
            shutil.rmtree(self.base, ignore_errors=True)
            raise ClusterError(f"PostgreSQL could not be started: {exc} {detail}") from None
        return self

    def stop(self) -> None:
        """Stop it and remove its folder."""
        subprocess.run([*self.prefix, str(self.bindir / "pg_ctl"), "-D",
                        str(self.base / "data"), "-m", "fast", "stop"],
                       capture_output=True, timeout=120)
        shutil.rmtree(self.base, ignore_errors=True)


class HAProxy:
    """deploy/haproxy.cfg, as the repository has it, in front of kamon processes on
    127.0.0.1 `ports`, listening on a free port of 127.0.0.1."""

    def __init__(self, ports: list[int], log: Path, limits: bool = True) -> None:
        """Its upstreams and where its output goes (`start` runs it); `limits=False`
        turns the per-source limits off (KAMON_NO_LIMITS: a load test is one source)."""
        exe = shutil.which("haproxy") or "/usr/sbin/haproxy"
        if not os.path.exists(exe):
            raise ClusterError("HAProxy is not installed (run scripts/system-deps.sh)")
        self.exe, self.ports, self.log, self.limits = exe, ports, log, limits
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The base URL clients use."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> HAProxy:
        """Run it in the foreground (-db) and wait until it forwards /api/health."""
        env = {**os.environ, "KAMON_LISTEN": f"127.0.0.1:{self.port}"}
        if not self.limits:
            env["KAMON_NO_LIMITS"] = "1"
        env.update({f"KAMON_UPSTREAM_{i + 1}": f"127.0.0.1:{p}"
                    for i, p in enumerate(self.ports)})
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([self.exe, "-db", "-f", str(DEPLOY / "haproxy.cfg")],
                                         stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ClusterError(f"haproxy exited ({self.proc.returncode}):\n"
                                   f"{self.log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    return self
            time.sleep(0.1)
        self.stop()
        raise ClusterError(f"haproxy did not forward /api/health in {timeout}s")

    def stop(self) -> None:
        """End it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None
