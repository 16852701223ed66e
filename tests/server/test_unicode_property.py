"""Arbitrary values thrown at every route and every socket message type of a real server
process: lone surrogates, digits of every script, numbers of thousands of digits,
controls, huge and nested values, in every path segment, query parameter and body
field. Every answer is a 2xx or a 4xx in the API's shape — never a 500, never a dropped
connection — and a socket answers every message and stays open (issue 35: six such
inputs were a 500, and the same move on a socket dropped it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import ServerProcess

EXAMPLES = 60  # per route (a few hundred requests a test: seconds)
ODD = ["\ud800", "\udfff", "draft \ud800", "²", "٣", "𝟗", "߁", "0x10", "-0", "1e999",
       "\u0000", "\u202e", "\u3164", " ", "", "9" * 5000, "\ufeff", "%C2%B2", "../..",
       "ping", "{", "null"]

texts = st.one_of(
    st.text(alphabet=st.characters(exclude_categories=()), max_size=40),  # surrogates in
    st.sampled_from(ODD),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=8),
)
HUGE = "\x00huge\x00"  # written into a body as an integer of 5,000 digits (_body)
numbers = st.one_of(st.integers(min_value=-(10 ** 30), max_value=10 ** 30),
                    st.sampled_from([2 ** 63, -(2 ** 63) - 1, 0, -1, 1, HUGE]),
                    st.floats(allow_nan=False, allow_infinity=False))
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)), max_leaves=8)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A real server (no write rate limit) with a game in play: its id and a seat's
    token, so that half of the requests reach a real game's checks."""
    tmp = tmp_path_factory.mktemp("unicode")
    srv = ServerProcess(tmp / "kamon.db", tmp / "server.log", bot_workers=0,
                        args=["--rate-limit", "0"]).start()
    made = httpx.post(srv.url + "/api/games", timeout=30, json={
        "game": "white-castle", "players": 2, "seats": ["human", "human"],
        "public": True}).json()
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        yield {"srv": srv, "http": http, "id": made["id"],
               "token": made["seats"][0]["token"]}
    srv.stop()


def _body(value: Any) -> bytes:
    """A value as a JSON body (lone surrogates escaped: valid JSON, no UTF-8 for them),
    each HUGE an integer of 5,000 digits."""
    return json.dumps(value, ensure_ascii=True).replace(
        json.dumps(HUGE), "9" * 5000).encode()


def _quoted(text: str) -> str:
    """`text` percent-encoded as its UTF-8 bytes, lone surrogates too (as the invalid
    UTF-8 a client may send: %ED%A0%80)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def _check(r: httpx.Response) -> None:
    """A 2xx, or a 4xx in the API's shape."""
    assert r.status_code < 500, (r.request.method, str(r.request.url)[:200], r.text[:300])
    if r.status_code >= 400 and r.request.url.path.startswith("/api/"):
        assert isinstance(r.json().get("error"), str), r.text[:300]


def _version(server: dict[str, Any]) -> int:
    """The real game's version now."""
    return int(server["http"].get(f"/api/games/{server['id']}").json()["version"])


def _pick(data: st.DataObject, real: str) -> Any:
    """The real game's id or token, or an arbitrary value."""
    return data.draw(st.one_of(st.just(real), texts))


ROUTES_GET = ["/api/games/{id}", "/api/games/{id}/record", "/api/games/{id}/replay",
              "/api/games/{id}/rematch", "/api/data/{id}"]


@settings(max_examples=EXAMPLES * len(ROUTES_GET), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_every_get_route_answers_arbitrary_paths_and_queries(
        server: dict[str, Any], data: st.DataObject) -> None:
    route = data.draw(st.sampled_from(ROUTES_GET))
    gid = _pick(data, server["id"])
    params = {k: data.draw(texts) for k in data.draw(st.lists(
        st.sampled_from(["token", "step", "x"]), max_size=3, unique=True))}
    if "token" in params and data.draw(st.booleans()):
        params["token"] = server["token"]
    path = route.replace("{id}", _quoted(gid))
    query = "&".join(f"{k}={_quoted(v)}" for k, v in params.items())
    _check(server["http"].get(path + ("?" + query if query else "")))


ROUTES_POST = ["/api/games", "/api/games/{id}/moves", "/api/games/{id}/undo",
               "/api/games/{id}/name", "/api/games/{id}/rematch", "/api/replays",
               "/api/open/{id}/join"]
FIELDS = ["token", "action", "version", "name", "game", "players", "seats", "options",
          "seed", "public", "rated", "text", "index", "step", "seat"]


@settings(max_examples=EXAMPLES * len(ROUTES_POST), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_every_post_route_answers_arbitrary_bodies(
        server: dict[str, Any], data: st.DataObject) -> None:
    route = data.draw(st.sampled_from(ROUTES_POST))
    gid = data.draw(st.one_of(st.just(server["id"]), st.text(
        alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", max_size=40)))
    body: Any = {k: data.draw(values) for k in data.draw(st.lists(
        st.sampled_from(FIELDS), max_size=6, unique=True))}
    if data.draw(st.booleans()):
        body["token"] = server["token"]
        if data.draw(st.booleans()):  # at the game's version: the action itself is read
            body["version"] = _version(server)
    if route == "/api/replays" and data.draw(st.booleans()):  # a record with odd fields
        record = {"game": data.draw(st.one_of(st.just("clansman"), texts)),
                  "players": data.draw(st.one_of(st.just(4), numbers)),
                  "seed": data.draw(numbers), "actions": data.draw(
                      st.lists(texts, max_size=3))}
        body["text"] = _body(record).decode()
    if data.draw(st.integers(0, 9)) == 0:
        body = data.draw(values)  # not even an object
    _check(server["http"].post(route.replace("{id}", gid), content=_body(body),
                               headers={"content-type": "application/json"}))


def _socket(server: dict[str, Any], token: str | None) -> ClientConnection:
    """A socket on the real game (as its seat, or a spectator), past its first state."""
    url = server["srv"].url.replace("http://", "ws://") + f"/api/games/{server['id']}/ws"
    ws = connect(url + (f"?token={token}" if token else ""), open_timeout=20, legacy=True)
    assert json.loads(ws.recv(timeout=20))["type"] == "state"
    return ws


@settings(max_examples=EXAMPLES * 3, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_every_socket_message_type_is_answered_and_the_socket_stays_open(
        server: dict[str, Any], data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(["move", "undo", "ping", "other", "raw"]))
    if kind == "raw":
        text = data.draw(texts).encode("utf-8", "replace").decode("utf-8")
    else:
        message: dict[str, Any] = {k: data.draw(values) for k in data.draw(st.lists(
            st.sampled_from(["action", "version", "token", "x"]), max_size=3, unique=True))}
        message["type"] = kind if kind != "other" else data.draw(values)
        if data.draw(st.booleans()):  # at the game's version: the action itself is read
            message["version"] = _version(server)
        text = _body(message).decode()
    token = server["token"] if data.draw(st.booleans()) else None
    with _socket(server, token) as ws:
        ws.send(text)
        answers = []
        while True:
            got = json.loads(ws.recv(timeout=20))
            answers.append(got)
            if got["type"] in ("refused", "pong") or (kind in ("move", "undo") and
                                                       got["type"] == "state"):
                break
        last = answers[-1]
        assert last.get("status", 200) < 500, (text[:200], last)
        if last["type"] == "refused":
            assert isinstance(last["error"], str)
        ws.send("ping")  # still open, still answering
        while (got := json.loads(ws.recv(timeout=20)))["type"] != "pong":
            pass
