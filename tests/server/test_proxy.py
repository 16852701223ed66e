"""deploy/haproxy.cfg as shipped, run by Debian's HAProxy on 127.0.0.1 in front of a real
`kamon serve`, with a self-signed certificate made here (openssl): a request over TLS
reaches kamon (its links are https), plain HTTP only redirects (kamon never sees the
request, nor the token in it), /metrics is not served through the site, and one source
address that opens too many connections, or sends too many requests, is refused while a
second address is served (the stock per-source limits). Every client here is bounded
and speaks to 127.0.0.x only (sources 127.0.0.2-5, to be separate addresses).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import yaml

from tests.server.cluster import DEPLOY, free_port
from tests.server.conftest import ServerProcess

# The limits per source address, set lower than the config's defaults (100, 200, 600:
# test_the_limits_default_to_what_the_docs_say) to keep the test short.
MAX_CONNS, CONN_RATE, REQ_RATE = 20, 40, 100


@dataclass
class Site:
    """kamon behind the stock HAProxy: the HTTPS and the redirecting HTTP addresses."""

    https: str
    http: str
    cert: Path
    kamon: ServerProcess

    def client(self, source: str) -> httpx.Client:
        """An HTTPS client speaking from the loopback address `source`."""
        verify = ssl.create_default_context(cafile=str(self.cert))
        return httpx.Client(base_url=self.https, timeout=10, transport=httpx.HTTPTransport(
            local_address=source, verify=verify))


def self_signed(folder: Path) -> Path:
    """A certificate for 127.0.0.1 and its key, in one PEM file (as HAProxy takes it)."""
    key, crt = folder / "key.pem", folder / "crt.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    str(key), "-out", str(crt), "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True,
                   capture_output=True, timeout=60)
    pem = folder / "site.pem"
    pem.write_bytes(crt.read_bytes() + key.read_bytes())
    return pem


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A kamon process (the proxy trusted) and HAProxy with deploy/haproxy.cfg, TLS on,
    its per-source limits set by its environment variables (MAX_CONNS, ...)."""
    exe = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not os.path.exists(exe) or shutil.which("openssl") is None:
        pytest.fail("haproxy and openssl are needed (scripts/system-deps.sh)")
    tmp = tmp_path_factory.mktemp("proxy")
    cert = self_signed(tmp)
    kamon = ServerProcess(tmp / "kamon.db", tmp / "kamon.log",
                          args=["--trusted-proxy", "127.0.0.1"]).start()
    https, http = free_port(), free_port()
    env = {**os.environ, "KAMON_LISTEN": f"127.0.0.1:{https}", "KAMON_CERT": str(cert),
           "KAMON_REDIRECT": f"127.0.0.1:{http}", "KAMON_UPSTREAM_1": f"127.0.0.1:{kamon.port}"}
    env.pop("KAMON_NO_LIMITS", None)
    env.update(KAMON_MAX_CONNS=str(MAX_CONNS), KAMON_CONN_RATE=str(CONN_RATE),
               KAMON_REQ_RATE=str(REQ_RATE))
    with (tmp / "haproxy.log").open("ab") as out:
        proxy = subprocess.Popen([exe, "-db", "-f", str(DEPLOY / "haproxy.cfg")], env=env,
                                 stdout=out, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL)
    s = Site(f"https://127.0.0.1:{https}", f"http://127.0.0.1:{http}", cert, kamon)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert proxy.poll() is None, (tmp / "haproxy.log").read_text()[-2000:]
            with contextlib.suppress(httpx.HTTPError), s.client("127.0.0.5") as c:
                if c.get("/api/health").status_code == 200:
                    break
            assert time.monotonic() < deadline, "haproxy did not forward /api/health"
            time.sleep(0.1)
        yield s
    finally:
        proxy.terminate()
        proxy.wait(timeout=10)
        kamon.stop()


def test_tls_reaches_kamon_and_plain_http_only_redirects(site: Site) -> None:
    """Over TLS: kamon answers, with HSTS, and the links it makes are https. Over plain
    HTTP: a 301 to the same URL on https, and kamon never sees that request (its token
    was not forwarded in plain text); /metrics is not served through the site."""
    with site.client("127.0.0.5") as c:
        assert c.get("/api/health").json()["ok"] is True
        made = c.post("/api/games", json={"game": "white-castle", "players": 2,
                                          "seats": ["human", "human"]})
        assert made.status_code == 201, made.text
        assert made.headers["strict-transport-security"].startswith("max-age=")
        assert all(s["url"].startswith("https://") for s in made.json()["seats"])
        hidden = c.get("/metrics")
        assert hidden.status_code == 404 and set(hidden.json()) == {"error"}
    token = "PlainTextTokenNeverForwarded"
    r = httpx.get(f"{site.http}/play/somegame?token={token}", timeout=10)
    assert r.status_code == 301
    assert r.headers["location"].startswith("https://127.0.0.1:")
    assert r.headers["location"].endswith(f"/play/somegame?token={token}")
    time.sleep(0.3)
    assert "/play/somegame" not in site.kamon.log.read_text()


def _tls_connection(site: Site, source: str) -> ssl.SSLSocket | None:
    """A TLS connection from `source` to the site (None: refused)."""
    ctx = ssl.create_default_context(cafile=str(site.cert))
    try:
        raw = socket.create_connection(("127.0.0.1", int(site.https.rsplit(":", 1)[1])),
                                       timeout=5, source_address=(source, 0))
    except OSError:
        return None
    try:
        conn = ctx.wrap_socket(raw, server_hostname="127.0.0.1")
        conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        if not conn.recv(12).startswith(b"HTTP/1.1 200"):
            conn.close()
            return None
        return conn
    except (OSError, ssl.SSLError):
        raw.close()
        return None


def test_one_source_with_too_many_connections_is_refused_while_another_is_served(
        site: Site) -> None:
    """127.0.0.2 holds connections open: the first MAX_CONNS are served, the next ones
    refused; meanwhile 127.0.0.3 is served; once they close, 127.0.0.2 is served again."""
    held = [_tls_connection(site, "127.0.0.2") for _ in range(MAX_CONNS + 10)]
    try:
        served = [c for c in held if c is not None]
        assert len(served) == MAX_CONNS, len(served)
        assert held[-1] is None
        with site.client("127.0.0.3") as other:
            assert other.get("/api/health").status_code == 200
    finally:
        for c in held:
            if c is not None:
                c.close()
    time.sleep(0.5)
    again = _tls_connection(site, "127.0.0.2")
    assert again is not None
    again.close()


def test_one_source_sending_too_many_requests_is_refused_429_while_another_is_served(
        site: Site) -> None:
    """127.0.0.4 sends REQ_RATE + 40 requests on one connection within 10 s: the last
    ones are 429 in kamon's `{"error": ...}` shape with Retry-After, and 127.0.0.3 is
    served meanwhile."""
    codes = []
    with site.client("127.0.0.4") as greedy:
        for _ in range(REQ_RATE + 40):
            codes.append(greedy.get("/api/health"))
    assert all(r.status_code == 200 for r in codes[:REQ_RATE - 10])
    refused = codes[-1]
    assert refused.status_code == 429
    assert set(refused.json()) == {"error"} and refused.headers["retry-after"] == "10"
    with site.client("127.0.0.3") as other:
        assert other.get("/api/health").status_code == 200


def test_one_source_opening_connections_too_fast_is_refused(site: Site) -> None:
    """127.0.0.6's new connections beyond CONN_RATE in 10 s are refused (each closed at
    once, one at a time)."""
    answered = 0
    for _ in range(CONN_RATE + 10):
        conn = _tls_connection(site, "127.0.0.6")
        if conn is not None:
            answered += 1
            conn.close()
    assert CONN_RATE - 5 <= answered <= CONN_RATE, answered


def test_the_compose_recipe_serves_tls_and_scrapes_each_process() -> None:
    """deploy/compose.yaml with TLS and monitoring: the proxy has the certificate folder
    and redirects plain HTTP; Prometheus scrapes every kamon service, from the one
    address kamon's --metrics-from allows; Grafana loads the dashboard beside the file
    and publishes its port on this machine only."""
    spec = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = spec["services"]
    kamons = {n for n, s in services.items() if s.get("command", [None])[0] == "kamon"}
    proxy = services["proxy"]["environment"]
    mount = next(v.split(":")[1] for v in services["proxy"]["volumes"]
                 if v.startswith("./certs:"))
    assert proxy["KAMON_CERT"].startswith(mount + "/") and "KAMON_REDIRECT" in proxy
    assert (DEPLOY / "certs" / ".gitignore").exists()
    prometheus_ip = services["prometheus"]["networks"]["kamon"]["ipv4_address"]
    for name in kamons:
        cmd = services[name]["command"]
        assert cmd[cmd.index("--metrics-from") + 1] == prometheus_ip
    scrape = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())["scrape_configs"]
    targets = {t for job in scrape for c in job["static_configs"] for t in c["targets"]}
    assert targets == {f"{n}:8000" for n in kamons}
    grafana = services["grafana"]
    dash = next(v for v in grafana["volumes"] if v.startswith("./grafana-dashboard.json:"))
    assert (DEPLOY / dash.split(":")[0]).exists()
    assert all(p.startswith("127.0.0.1:") for p in grafana["ports"])
    source = yaml.safe_load((DEPLOY / "grafana" / "provisioning" / "datasources" /
                             "kamon.yaml").read_text())["datasources"][0]
    uids = {t["datasource"]["uid"] for p in json.loads((DEPLOY / "grafana-dashboard.json")
                                                       .read_text())["panels"]
            for t in p["targets"]}
    assert uids == {source["uid"]}


def test_the_limits_default_to_what_the_docs_say() -> None:
    """Without the environment variables, the config's limits are the ones its header and
    docs/operating.md give (100 connections, 200 new ones and 600 requests per 10 s), and
    HAProxy accepts the file so, with TLS and without."""
    text = (DEPLOY / "haproxy.cfg").read_text()
    assert '"${KAMON_MAX_CONNS-100}"' in text and '"${KAMON_CONN_RATE-200}"' in text
    assert '"${KAMON_REQ_RATE-600}"' in text
    doc = (DEPLOY.parent / "docs" / "operating.md").read_text()
    for words in ("100 connections open at once", "200 new connections in 10 s",
                  "600 requests in 10 s"):
        assert words in doc, words
    exe = shutil.which("haproxy") or "/usr/sbin/haproxy"
    base = {k: v for k, v in os.environ.items() if not k.startswith("KAMON_")}
    for extra in ({}, {"KAMON_CERT": "/nonexistent.pem"}):
        env = {**base, "KAMON_LISTEN": "127.0.0.1:1", "KAMON_UPSTREAM_1": "127.0.0.1:2",
               **extra}
        checked = subprocess.run([exe, "-c", "-f", str(DEPLOY / "haproxy.cfg")], env=env,
                                 capture_output=True, text=True, timeout=60)
        if extra:  # (with TLS it must at least read the certificate it is given)
            assert "nonexistent.pem" in checked.stdout + checked.stderr
        else:
            assert checked.returncode == 0, checked.stdout + checked.stderr
