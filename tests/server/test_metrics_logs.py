"""The operator's view of a real `kamon serve` process: `/metrics` read by prometheus-
client's own text parser (the counters and histograms move with the moves a player and a
bot store, the gauges follow the sockets; only the operator's addresses may read it), and
its JSON log lines (a request id per line, the same as the answer's X-Request-Id; paths
without their query string: a seat token is never logged). One server for the module
(--log-format json, behind a trusted proxy's X-Forwarded-For)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from tests.server.cluster import DEPLOY
from tests.server.conftest import ServerProcess, token_of

OPERATORS = "198.51.100.0/24"  # --metrics-from, besides this machine
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server: JSON logs, the proxy on 127.0.0.1 trusted, metrics for this machine
    and the operators' network."""
    tmp = tmp_path_factory.mktemp("operated")
    server = ServerProcess(tmp / "kamon.db", tmp / "server.log", bot_workers=1, args=[
        "--log-format", "json", "--trusted-proxy", "127.0.0.1", "--metrics-from",
        "127.0.0.1", "--metrics-from", OPERATORS])
    server.start()
    yield server
    server.stop()


def scrape(srv: ServerProcess, client: str | None = None) -> Samples:
    """Every sample of /metrics, by (name, sorted labels), as the Prometheus text parser
    reads it (`client`: the address the proxy names)."""
    headers = {"X-Forwarded-For": client} if client else {}
    r = httpx.get(srv.url + "/metrics", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    """One sample's value (0 if it is not there yet)."""
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def play(srv: ServerProcess, gid: str, token: str, moves: int) -> None:
    """POST seat 0's first legal action `moves` times (a random bot is seat 1)."""
    played = 0
    deadline = time.monotonic() + 60
    while played < moves:
        assert time.monotonic() < deadline, "the bot stopped playing"
        p = srv.api(f"/api/games/{gid}", token=token).json()
        if not p["legal"]:
            time.sleep(0.02)  # the bot is to move
            continue
        r = srv.api(f"/api/games/{gid}/moves", {"token": token, "version": p["version"],
                                                "action": p["legal"][0]["id"]})
        assert r.status_code == 200, r.text
        played += 1


def test_metrics_move_with_the_moves_and_the_bots_and_follow_the_sockets(
        srv: ServerProcess) -> None:
    """Four moves by a player against a bot: kamon_moves_total{by=player} grows by four,
    the move histogram counts them, the bot's moves and thinking time are counted, a
    socket shows as one live game and one socket, and the process's own metrics are
    there (open descriptors)."""
    before = scrape(srv)
    for name in ("kamon_live_games", "kamon_sockets", "kamon_bot_decisions_waiting",
                 "kamon_writes_waiting", "kamon_cached_games", "process_open_fds"):
        assert (name, ()) in before, name
    assert ("kamon_store_errors_total", (("kind", "busy"),)) in before
    assert ("kamon_bot_decisions_queued", (("game", "bots_only"),)) in before
    made = srv.api("/api/games", {"game": "white-castle", "players": 2,
                                  "seats": ["human", "random"]}).json()
    gid, token = made["id"], token_of(made, 0)
    ws_url = srv.url.replace("http://", "ws://") + f"/api/games/{gid}/ws?token={token}"
    with connect(ws_url, open_timeout=10) as ws:
        ws.recv(timeout=10)
        during = scrape(srv)
        assert value(during, "kamon_sockets") == 1
        assert value(during, "kamon_live_games") == 1
        play(srv, gid, token, 4)
    after = scrape(srv)
    moved = value(after, "kamon_moves_total", by="player") - \
        value(before, "kamon_moves_total", by="player")
    assert moved == 4
    assert value(after, "kamon_move_seconds_count", by="player") - \
        value(before, "kamon_move_seconds_count", by="player") == moved
    assert value(after, "kamon_move_seconds_sum", by="player") > \
        value(before, "kamon_move_seconds_sum", by="player")
    deadline = time.monotonic() + 30
    while value(after, "kamon_moves_total", by="bot") == value(before, "kamon_moves_total",
                                                                by="bot"):
        assert time.monotonic() < deadline, "no bot move was counted"
        p = srv.api(f"/api/games/{gid}", token=token).json()
        if p["legal"]:  # the player is to move again: the bot never came in between
            play(srv, gid, token, 1)
        time.sleep(0.05)
        after = scrape(srv)
    assert value(after, "kamon_bot_thinking_seconds_count") > \
        value(before, "kamon_bot_thinking_seconds_count")
    assert value(after, "kamon_http_responses_total", code="200") > \
        value(before, "kamon_http_responses_total", code="200")
    deadline = time.monotonic() + 10
    while value(after, "kamon_sockets") != 0:  # the socket closed
        assert time.monotonic() < deadline, "the closed socket is still counted"
        time.sleep(0.05)
        after = scrape(srv)


def test_metrics_are_refused_to_strangers_and_served_to_the_operators_network(
        srv: ServerProcess) -> None:
    """Behind the trusted proxy, a stranger's request (X-Forwarded-For names them) is a
    403 in the API's shape that shows no metric; the operators' network and this machine
    read them."""
    stranger = httpx.get(srv.url + "/metrics", headers={"X-Forwarded-For": "203.0.113.9"},
                         timeout=10)
    assert stranger.status_code == 403
    assert set(stranger.json()) == {"error"}
    assert "kamon_" not in stranger.text
    assert ("kamon_moves_total", (("by", "player"),)) in scrape(srv, "198.51.100.7")
    assert ("kamon_sockets", ()) in scrape(srv)


def log_lines(srv: ServerProcess) -> list[dict[str, Any]]:
    """Every line the server wrote since it started, each parsed as JSON (a line that is
    not JSON fails the test)."""
    text = srv.log.read_text()
    lines = text[text.rindex("\n$ ") + 1:].splitlines()[1:]  # after the command line
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"a log line is not JSON: {line!r}") from None
    return parsed


def test_each_request_and_socket_logs_one_json_line_with_its_id_and_never_a_token(
        srv: ServerProcess) -> None:
    """A read with a seat token, a move, an unknown game and a socket: each is one JSON
    line with time, level, request_id (the answer's X-Request-Id), method, path without
    the query string, status and duration; the seat's token is nowhere in the log."""
    made = srv.api("/api/games", {"game": "white-castle", "players": 2,
                                  "seats": ["human", "human"]}).json()
    gid = made["id"]
    tokens = [token_of(made, 0), token_of(made, 1)]
    token = tokens[srv.api(f"/api/games/{gid}").json()["to_move"]]  # the seat to move
    read = httpx.get(f"{srv.url}/api/games/{gid}", params={"token": token}, timeout=10)
    assert read.status_code == 200
    p = read.json()
    moved = httpx.post(f"{srv.url}/api/games/{gid}/moves", timeout=10, json={
        "token": token, "version": p["version"], "action": p["legal"][0]["id"]})
    assert moved.status_code == 200, moved.text
    missing = httpx.get(f"{srv.url}/api/games/nosuchgame", params={"token": token},
                        timeout=10)
    assert missing.status_code == 404
    ws_url = srv.url.replace("http://", "ws://") + f"/api/games/{gid}/ws?token={token}"
    with connect(ws_url, open_timeout=10) as ws:
        ws.recv(timeout=10)
    ids = [r.headers["x-request-id"] for r in (read, moved, missing)]
    assert len(set(ids)) == 3 and all(len(i) == 16 for i in ids)
    deadline = time.monotonic() + 10
    while True:
        lines = log_lines(srv)
        by_id = {line.get("request_id"): line for line in lines}
        sockets = [x for x in lines if x.get("method") == "WS" and x.get("path") ==
                   f"/api/games/{gid}/ws"]
        if all(i in by_id for i in ids) and sockets:
            break
        assert time.monotonic() < deadline, f"request lines missing: {lines[-5:]}"
        time.sleep(0.1)
    for rid, (method, path, status) in zip(ids, (
            ("GET", f"/api/games/{gid}", 200), ("POST", f"/api/games/{gid}/moves", 200),
            ("GET", "/api/games/nosuchgame", 404)), strict=True):
        line = by_id[rid]
        assert (line["method"], line["path"], line["status"]) == (method, path, status)
        assert line["level"] == "INFO" and line["logger"] == "kamon.requests"
        assert line["time"].startswith(time.strftime("%Y-", time.gmtime()))
        assert isinstance(line["ms"], float | int) and line["ms"] >= 0
        assert line["client"] == "127.0.0.1"
    assert sockets[0]["status"] == 101 and len(sockets[0]["request_id"]) == 16
    assert not any(t in Path(srv.log).read_text() for t in tokens)


def test_the_grafana_dashboard_charts_only_metrics_the_server_serves(
        srv: ServerProcess) -> None:
    """deploy/grafana-dashboard.json: every metric a panel queries is one this server's
    /metrics has (a renamed metric would leave a panel empty), and every kamon metric
    served is charted somewhere."""
    r = httpx.get(srv.url + "/metrics", timeout=10)
    served = {f.name for f in text_string_to_metric_families(r.text)}
    dashboard = json.loads((DEPLOY / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    charted = set()
    for expr in exprs:
        for name in re.findall(r"\b((?:kamon|process)_[a-z_]+)", expr):
            charted.add(re.sub(r"_(bucket|sum|count|total)$", "", name))
    assert charted and charted <= served, charted - served
    assert {n for n in served if n.startswith("kamon_")} <= charted
