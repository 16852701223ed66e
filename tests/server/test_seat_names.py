"""Players' names on seats, through the real app over a real store (SQLite files, and
PostgreSQL where the session's cluster runs).

A seat takes a name when it is taken — by its creator, by whoever joins a public game,
by a rematch's seat, or on the play page of an invite link (POST .../name) — and keeps
it; bots are named by their level; a bad name is refused (400, saying what is wrong) and
stores nothing. Names are outside the digest: a game's digest is the same with or
without them, and a database made before names gains the column and keeps verifying.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect

from kamon.server.app import create_app
from kamon.server.service import GameService
from kamon.server.store import Store
from tests.server.conftest import create, get, move, play_humans, token_of

HOSTILE = "<img src=x onerror=f()>"  # 23 characters: a name, shown as text
# (name, words the refusal must hold)
BAD_NAMES: list[tuple[Any, str]] = [
    (7, "must be a string"),
    ("", "is empty"),
    ("   ", "is empty"),
    ("x" * 25, "25 characters long"),
    ("bell\x07", "U+0007"),
    ("two\nlines", "U+000A"),
    ("right\u202eleft", "U+202E"),  # a bidi override: would turn the text around
    ("zero\u200bwidth", "U+200B"),
    ("no\u00a0break", "U+00A0"),
]


def public_game(c: TestClient, name: str | None = "Alice", players: int = 2,
                seats: list[str] | None = None) -> dict[str, Any]:
    """A public White Castle game created by a player named `name` (seat 0)."""
    body: dict[str, Any] = {"game": "white-castle", "players": players,
                            "seats": seats or ["human"] * players, "public": True}
    if name is not None:
        body["name"] = name
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def players(p: dict[str, Any]) -> list[str | None]:
    """Each seat's `player` in a payload (or an answer listing seats)."""
    return [s["player"] for s in p["seats"]]


def stored_names(store: Store, gid: str) -> list[str | None]:
    """The names as the seats table holds them."""
    return [s.player for s in store.seats(gid)]


def canonical_digest(store: Store, gid: str) -> str:
    """The digest as it was defined before names — the setup with each seat's number,
    kind, level and token hash, then the chain of action rows — written out here so that
    a name entering it would be seen."""
    row = store.game(gid)
    assert row is not None
    seats = [[s.seat, s.kind, s.level, s.token_hash] for s in store.seats(gid)]
    canon = json.dumps([row.game, row.players, row.seed, row.options, row.mode, seats],
                       sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(canon.encode()).hexdigest()
    for a in store.actions(gid):
        link = f"{digest}|{a.idx}|{a.kind}|{a.seat}|{a.action_id}|{a.notation}"
        digest = hashlib.sha256(link.encode()).hexdigest()
    return digest


# --- names given when a seat is taken --------------------------------------------------

def test_the_creator_and_the_joiner_are_named_on_every_seat_list(client: TestClient) -> None:
    g = public_game(client, "  Alice  ")
    gid = g["id"]
    assert players(g) == ["Alice", None]  # stripped; the free seat has no name yet
    listed = client.get("/api/open").json()["games"]
    assert players(next(x for x in listed if x["id"] == gid)) == ["Alice", None]
    joined = client.post(f"/api/open/{gid}/join", json={"name": "Bob"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["player"] == "Bob" and joined.json()["seat"] == 1
    for token in (g["seats"][0]["token"], joined.json()["token"], None):
        p = get(client, gid, token)
        assert players(p) == ["Alice", "Bob"]
        assert [s["name"] for s in p["seats"]] == ["blue", "yellow"]  # colours unchanged
    store = client.app.state.live.store  # type: ignore[attr-defined]
    assert stored_names(store, gid) == ["Alice", "Bob"]


def test_a_seat_taken_by_invite_link_takes_its_name_once(client: TestClient) -> None:
    g = create(client, "white-castle", 2, ["human", "human"], name="Alice")
    gid, tok1 = g["id"], token_of(g, 1)
    assert players(g) == ["Alice", None]  # the creator's seat is the first human one
    r = client.post(f"/api/games/{gid}/name", json={"token": tok1, "name": HOSTILE})
    assert r.status_code == 200, r.text
    assert r.json()["you"] == 1 and players(r.json()) == ["Alice", HOSTILE]
    assert players(get(client, gid)) == ["Alice", HOSTILE]  # kept as given: text
    again = client.post(f"/api/games/{gid}/name", json={"token": tok1, "name": HOSTILE})
    assert again.status_code == 200  # the same name again: nothing to do
    other = client.post(f"/api/games/{gid}/name", json={"token": tok1, "name": "Robert"})
    assert other.status_code == 409 and "already named" in other.json()["error"]
    wrong = client.post(f"/api/games/{gid}/name", json={"token": "nope", "name": "Eve"})
    assert wrong.status_code == 403
    spectator = client.post(f"/api/games/{gid}/name", json={"name": "Eve"})
    assert spectator.status_code == 400 and "token" in spectator.json()["error"]
    store = client.app.state.live.store  # type: ignore[attr-defined]
    assert stored_names(store, gid) == ["Alice", HOSTILE]


def test_bots_are_named_by_their_level_and_unnamed_people_by_nothing(
        client: TestClient) -> None:
    g = create(client, "white-castle", 4, ["human", "easy", "random", "normal"])
    assert players(g) == [None, "Easy bot", "Random bot", "Normal bot"]
    p = get(client, g["id"])
    assert players(p) == [None, "Easy bot", "Random bot", "Normal bot"]
    store = client.app.state.live.store  # type: ignore[attr-defined]
    assert stored_names(store, g["id"]) == [None, None, None, None]  # not stored: derived
    no_human = client.post("/api/games", json={"game": "white-castle", "players": 2,
                                               "seats": ["easy", "easy"], "name": "Al"})
    assert no_human.status_code == 400 and "no human seat" in no_human.json()["error"]


def test_a_rematch_keeps_the_names_and_a_seat_may_bring_its_own(client: TestClient) -> None:
    g = create(client, "white-castle", 2, ["human", "human"], seed=21)
    gid = g["id"]
    tokens = {0: token_of(g, 0), 1: token_of(g, 1)}
    client.post(f"/api/games/{gid}/name", json={"token": tokens[0], "name": "Alice"})
    play_humans(client, gid, tokens)
    bad = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[1], "name": ""})
    assert bad.status_code == 400 and "empty" in bad.json()["error"]
    assert client.get(f"/api/games/{gid}/rematch").json()["rematch"] is None  # none made
    made = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[0],
                                                          "name": "Alicia"})
    assert made.status_code == 201, made.text
    new = made.json()["id"]
    assert players(made.json()) == ["Alicia", None]  # the asker's new name; seat 1 had none
    accepted = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[1],
                                                              "name": "Bob"})
    assert accepted.status_code == 200 and accepted.json()["id"] == new
    assert players(accepted.json()) == ["Alicia", "Bob"]
    assert players(get(client, new, made.json()["token"])) == ["Alicia", "Bob"]
    assert players(get(client, gid)) == ["Alice", None]  # the finished game is as it was


# --- bad names store nothing -----------------------------------------------------------

@pytest.mark.parametrize("name,words", BAD_NAMES)
def test_a_bad_name_is_refused_with_what_is_wrong_and_nothing_is_stored(
        client: TestClient, name: Any, words: str) -> None:
    store = client.app.state.live.store  # type: ignore[attr-defined]
    games = store.count_games()
    r = client.post("/api/games", json={"game": "white-castle", "players": 2,
                                        "seats": ["human", "human"], "name": name})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    r = client.post("/api/games", json={"game": "white-castle", "players": 2,
                                        "seats": ["human", "human"], "public": True,
                                        "name": name})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert store.count_games() == games  # no game made
    g = public_game(client, None)
    gid = g["id"]
    r = client.post(f"/api/open/{gid}/join", json={"name": name})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    listed = client.get("/api/open").json()["games"]
    assert next(x for x in listed if x["id"] == gid)["free"] == [1]  # still free
    r = client.post(f"/api/games/{gid}/name", json={"token": token_of(g, 0), "name": name})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert stored_names(store, gid) == [None, None]
    assert get(client, gid)["version"] == 0


# --- names and the digest --------------------------------------------------------------

def test_names_stay_out_of_the_digest_and_a_named_game_verifies_when_read_again(
        db_path: Path) -> None:
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        store = c.app.state.live.store  # type: ignore[attr-defined]
        named = create(c, "white-castle", 1, ["human"], seed=5, name="Alice")
        plain = create(c, "white-castle", 1, ["human"], seed=5)
        a, b = store.game(named["id"]), store.game(plain["id"])
        assert a is not None and b is not None
        assert a.digest == canonical_digest(store, named["id"])
        assert b.digest == canonical_digest(store, plain["id"])
        tok = token_of(plain, 0)
        play_humans(c, plain["id"], {0: tok}, 3)
        head = store.head(plain["id"])
        r = c.post(f"/api/games/{plain['id']}/name", json={"token": tok, "name": "Bea"})
        assert r.status_code == 200, r.text
        assert store.head(plain["id"]) == head  # no new version, the same digest
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        p = get(c, plain["id"], tok)  # rebuilt from the store: checked against its digest
        assert p["version"] == 3 and players(p) == ["Bea"]
        r = move(c, plain["id"], tok, p["legal"][0]["id"], 3)
        assert r.status_code == 200, r.text
        assert players(r.json()) == ["Bea"]


def test_a_name_given_through_another_server_reaches_a_cached_game(db_path: Path) -> None:
    """Two apps over one file (as two processes over one database): the one that cached
    the game sees a name the other stored, though the version did not change."""
    one = create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)
    two = create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)
    with TestClient(one) as a, TestClient(two) as b:
        g = public_game(a, "Alice")
        assert players(get(a, g["id"])) == ["Alice", None]  # cached in `one`
        joined = b.post(f"/api/open/{g['id']}/join", json={"name": "Bob"})
        assert joined.status_code == 200, joined.text
        assert players(get(a, g["id"])) == ["Alice", "Bob"]
        assert players(get(a, g["id"], joined.json()["token"])) == ["Alice", "Bob"]


def test_the_games_sockets_are_told_a_new_name(client: TestClient) -> None:
    g = public_game(client, "Alice")
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={token_of(g, 0)}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and players(first["payload"]) == ["Alice", None]
        r = client.post(f"/api/open/{g['id']}/join", json={"name": "Bob"})
        assert r.status_code == 200, r.text
        told = ws.receive_json()
        assert told["type"] == "state" and told["payload"]["version"] == 0
        assert players(told["payload"]) == ["Alice", "Bob"]
        assert told["payload"]["you"] == 0


# --- a database made before names --------------------------------------------------------

def _old_database(url: str, drop_column: Any) -> dict[str, Any]:
    """A database as a kamon before names left it: a game with moves stored, then the
    seats table without the names column (dropped: what the older schema was)."""
    store = Store(url)
    try:
        service = GameService(store)
        g = service.create({"game": "white-castle", "players": 2,
                            "seats": ["human", "human"]}, operator=True)
        tokens = {s["seat"]: s["token"] for s in g["seats"]}
        for _ in range(4):
            loaded = service.load(g["id"])
            seat = loaded.state.to_move
            aid = loaded.state.legal_actions()[0].id
            service.move(g["id"], tokens[seat], aid, loaded.version)
    finally:
        store.close()
    drop_column()
    return {"id": g["id"], "tokens": tokens}


def _check_migrated(url: str, old: dict[str, Any]) -> None:
    """Opening the old database adds the column; the old game reads (its digest holds),
    plays on and takes names."""
    app = create_app(url, bot_workers=0, bot_delay=0, rate=0)
    with TestClient(app) as c:
        store = c.app.state.live.store  # type: ignore[attr-defined]
        cols = {col["name"] for col in inspect(store.engine).get_columns("seats")}
        assert "player_name" in cols
        gid, tokens = old["id"], old["tokens"]
        p = get(c, gid)
        assert p["version"] == 4 and players(p) == [None, None]
        assert store.game(gid).digest == canonical_digest(store, gid)
        r = c.post(f"/api/games/{gid}/name", json={"token": tokens[0], "name": "Alice"})
        assert r.status_code == 200, r.text
        mover = get(c, gid)["to_move"]
        mine = get(c, gid, tokens[mover])
        r = move(c, gid, tokens[mover], mine["legal"][0]["id"], mine["version"])
        assert r.status_code == 200, r.text
        assert players(r.json()) == ["Alice", None] and r.json()["version"] == 5
    with TestClient(create_app(url, bot_workers=0, bot_delay=0, rate=0)) as c:
        assert players(get(c, old["id"])) == ["Alice", None]  # read again: verifies


def test_an_sqlite_database_made_before_names_gains_the_column(tmp_path: Path) -> None:
    db = tmp_path / "old.db"

    def drop() -> None:
        with sqlite3.connect(db) as conn:
            conn.execute("ALTER TABLE seats DROP COLUMN player_name")
        with sqlite3.connect(db) as conn:
            cols = [r[1] for r in conn.execute("PRAGMA table_info(seats)")]
        assert "player_name" not in cols

    old = _old_database(str(db), drop)
    _check_migrated(str(db), old)


def test_a_postgresql_database_made_before_names_gains_the_column(postgres_url: str) -> None:
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS kamon_before_names")
        conn.execute("CREATE DATABASE kamon_before_names")
    url = postgres_url.replace("@/postgres?", "@/kamon_before_names?")
    assert url != postgres_url

    def drop() -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("ALTER TABLE seats DROP COLUMN player_name")
            cols = [r[0] for r in conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = "
                "'seats'")]
        assert "player_name" not in cols

    old = _old_database(url, drop)
    _check_migrated(url, old)


def test_on_postgresql_names_are_stored_and_reach_another_servers_cache(
        postgres_url: str) -> None:
    one = create_app(postgres_url, bot_workers=0, bot_delay=0, rate=0)
    two = create_app(postgres_url, bot_workers=0, bot_delay=0, rate=0)
    with TestClient(one) as a, TestClient(two) as b:
        g = public_game(a, "Alice")
        assert players(get(b, g["id"])) == ["Alice", None]  # cached in `two`
        joined = a.post(f"/api/open/{g['id']}/join", json={"name": "Bob"})
        assert joined.status_code == 200, joined.text
        assert players(get(b, g["id"])) == ["Alice", "Bob"]
        bad = b.post(f"/api/games/{g['id']}/name", json={"token": token_of(g, 0),
                                                         "name": "a\tb"})
        assert bad.status_code == 400 and "U+0009" in bad.json()["error"]
        store = a.app.state.live.store  # type: ignore[attr-defined]
        assert stored_names(store, g["id"]) == ["Alice", "Bob"]
        assert store.game(g["id"]).digest == canonical_digest(store, g["id"])


def test_on_postgresql_a_name_given_through_another_server_reaches_this_ones_sockets(
        postgres_url: str) -> None:
    """Two servers on one PostgreSQL database: a page on one is told a name the other
    stored (its NOTIFY), though no move was made."""
    one = create_app(postgres_url, bot_workers=0, bot_delay=0, rate=0)
    two = create_app(postgres_url, bot_workers=0, bot_delay=0, rate=0)
    with TestClient(one) as a, TestClient(two) as b:
        g = public_game(a, "Alice")
        with a.websocket_connect(f"/api/games/{g['id']}/ws?token={token_of(g, 0)}") as ws:
            first = ws.receive_json()
            assert players(first["payload"]) == ["Alice", None]
            joined = b.post(f"/api/open/{g['id']}/join", json={"name": "Bob"})
            assert joined.status_code == 200, joined.text
            told = ws.receive_json()  # from `one`, which only heard of it from `two`
            assert told["type"] == "state" and told["payload"]["version"] == 0
            assert players(told["payload"]) == ["Alice", "Bob"]
