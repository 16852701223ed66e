"""The store: a restarted server resumes every game exactly, bots think in real worker
processes, and the same schema runs on PostgreSQL (a throwaway Debian postgresql cluster
started by the test)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kamon.server.app import create_app
from kamon.server.service import GameService, ServiceError
from kamon.server.store import Store, VersionConflict
from tests.server.conftest import create, get, move, play_humans, token_of, wait_for


def test_a_restarted_server_resumes_every_game_exactly(db_path: Path) -> None:
    games = []
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        for game, players in (("white-castle", 2), ("clansman", 4), ("white-castle", 1)):
            g = create(c, game, players, ["human"] * players, seed=40 + players)
            tokens = {s: token_of(g, s) for s in range(players)}
            play_humans(c, g["id"], tokens, 23)
            games.append((g["id"], tokens, get(c, g["id"], tokens[0])))
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        for gid, tokens, before in games:
            after = get(c, gid, tokens[0])
            assert after == before
            play_humans(c, gid, tokens, 5)  # and play goes on
            assert get(c, gid)["version"] == before["version"] + 5


def test_a_restarted_server_lets_its_bots_carry_on(db_path: Path) -> None:
    """A game whose bot was to move when the server stopped is finished after a restart."""
    store = Store(str(db_path))
    service = GameService(store)
    g = service.create({"game": "white-castle", "players": 2, "seats": ["random", "random"],
                        "seed": 77})
    store.close()  # created, never served: the bots have not moved yet
    with TestClient(create_app(str(db_path), bot_workers=0, bot_delay=0, rate=0)) as c:
        p = wait_for(c, g["id"], None, lambda q: q["over"])
        assert p["winners"]


def test_bots_think_in_worker_processes(db_path: Path) -> None:
    with TestClient(create_app(str(db_path), bot_workers=1, bot_delay=0, rate=0)) as c:
        g = create(c, "clansman", 4, ["human", "normal", "easy", "random"], seed=5)
        tok = token_of(g, 0)
        play_humans(c, g["id"], {0: tok}, 6)
        server = c.app.state.live  # type: ignore[attr-defined]
        assert type(server.bots.pool).__name__ == "ProcessPoolExecutor"
        rows = server.store.actions(g["id"])
        assert {1, 2, 3} <= {r.seat for r in rows}


def test_the_store_refuses_a_second_write_at_one_version(db_path: Path) -> None:
    """Two servers sharing a database cannot both store a move at one version."""
    store_a, store_b = Store(str(db_path)), Store(str(db_path))
    service = GameService(store_a)
    g = service.create({"game": "white-castle", "players": 2, "seed": 1})
    assert store_a.append(g["id"], store_a.head(g["id"]), "move", 0, 77, "draft 1", "playing")[0] == 1
    with pytest.raises(VersionConflict):
        store_b.append(g["id"], (0, store_b.head(g["id"])[1]), "move", 1, 78, "draft 2", "playing")
    assert [r.notation for r in store_b.actions(g["id"])] == ["draft 1"]


def test_a_corrupt_stored_record_is_refused_with_a_message(db_path: Path) -> None:
    store = Store(str(db_path))
    service = GameService(store)
    g = service.create({"game": "white-castle", "players": 2, "seed": 1})
    store.append(g["id"], store.head(g["id"]), "move", 0, 5, "nonsense", "playing")  # not legal at the draft
    with pytest.raises(ServiceError) as err:
        service.load(g["id"])
    assert err.value.status == 500 and "does not replay at move 1" in err.value.message


# --- PostgreSQL (the postgres_url fixture is conftest's) ---------------------------------

def test_postgresql_stores_moves_refuses_stale_writes_and_resumes(postgres_url: str) -> None:
    with TestClient(create_app(postgres_url, bot_workers=0, bot_delay=0, rate=0)) as c:
        assert c.app.state.live.store.engine.dialect.name == "postgresql"  # type: ignore
        g = create(c, "clansman", 4, ["human", "random", "human", "random"])
        tokens = {0: token_of(g, 0), 2: token_of(g, 2)}
        play_humans(c, g["id"], tokens, 12)
        p = get(c, g["id"], tokens[0])
        stale = move(c, g["id"], tokens[0], "pass", p["version"] - 1)
        assert stale.status_code == 409
        before = wait_for(c, g["id"], tokens[2], lambda q: q["to_move"] in tokens)
    with TestClient(create_app(postgres_url, bot_workers=0, bot_delay=0, rate=0)) as c:
        after = get(c, g["id"], tokens[2])
        assert after == before
        play_humans(c, g["id"], tokens, 3)


def test_a_thinking_bot_does_not_hold_up_other_games(db_path: Path) -> None:
    """While a hard bot searches in one game (in a worker process), moves in another game
    are played and answered: game A is still waiting for its bot when game B has moved on."""
    with TestClient(create_app(str(db_path), bot_workers=1, bot_delay=0, rate=0)) as c:
        server = c.app.state.live  # type: ignore[attr-defined]
        a = create(c, "clansman", 4, ["hard"] * 4, seed=13)
        wait_for(c, a["id"], None, lambda q: a["id"] in server.bots.driving, timeout=30)
        b = create(c, "white-castle", 2, ["human", "human"], seed=14)
        tokens = {0: token_of(b, 0), 1: token_of(b, 1)}
        play_humans(c, b["id"], tokens, 6)
        assert get(c, b["id"])["version"] == 6
        assert server.store.head(a["id"])[0] == 0  # A's first search is still going on
        wait_for(c, a["id"], None, lambda q: q["version"] >= 1, timeout=60)
