"""The payloads the server builds from what it keeps in memory (the game it just created,
the game after a move, the parts shared by every viewer) are byte for byte those it
builds after rebuilding the game from the store."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import create, move, token_of


def _payloads(c: TestClient, gid: str, tokens: dict[int, str]) -> list[bytes]:
    """Every seat's payload and the spectator's, as sent."""
    out = [c.get(f"/api/games/{gid}", params={"token": t}).content for t in tokens.values()]
    return [*out, c.get(f"/api/games/{gid}").content]


@pytest.mark.parametrize(("game", "players"), [("white-castle", 2), ("white-castle", 1),
                                               ("clansman", 4)])
def test_payloads_from_memory_match_payloads_after_a_rebuild(client: TestClient, game: str,
                                                             players: int) -> None:
    g = create(client, game, players, ["human"] * players)
    gid = g["id"]
    tokens = {s: token_of(g, s) for s in range(players)}
    service = client.app.state.live.service  # type: ignore[attr-defined]
    rng = random.Random(5)
    for _ in range(12):
        kept = _payloads(client, gid, tokens)  # the created game, then the moved one
        service.cache.drop(gid)
        assert _payloads(client, gid, tokens) == kept  # rebuilt from the store
        pub: dict[str, Any] = client.get(f"/api/games/{gid}").json()
        if pub["over"]:
            break
        tok = tokens[pub["to_move"]]
        mine = client.get(f"/api/games/{gid}", params={"token": tok}).json()
        r = move(client, gid, tok, rng.choice(mine["legal"])["id"], mine["version"])
        assert r.status_code == 200, r.text
        assert r.content == client.get(f"/api/games/{gid}", params={"token": tok}).content


@pytest.mark.parametrize(("game", "players"), [("white-castle", 2), ("white-castle", 1),
                                               ("clansman", 4)])
def test_the_joined_payload_json_is_the_payload_of_every_viewer(tmp_path: Any, game: str,
                                                                players: int) -> None:
    """payload_json joins parts encoded once per version (the log carried over from the
    version before): at every move of a random game it reads back as `payload`, and its
    log and scores are the game's own."""
    import orjson

    from kamon.server.service import GameService
    from kamon.server.store import Store
    from kamon.server.views import encode, payload, payload_json

    store = Store(str(tmp_path / "p.db"))
    service = GameService(store)
    g = service.create({"game": game, "players": players, "seats": ["human"] * players,
                        "seed": 3}, operator=True)
    tokens = {s["seat"]: s["token"] for s in g["seats"]}
    loaded = service.load(g["id"])
    rng = random.Random(2)
    try:
        for _ in range(120):
            if loaded.state.is_over():
                break
            for viewer in [*range(players), None]:
                joined = orjson.loads(payload_json(loaded, viewer))
                assert joined == orjson.loads(encode(payload(loaded, viewer)))
                assert joined["log"] == loaded.state.events
                assert joined["scores"] == orjson.loads(encode(loaded.state.scores()))
            seat = loaded.state.to_move
            aid = rng.choice(loaded.state.legal_actions()).id
            loaded = service.move(g["id"], tokens[seat], aid, loaded.version)
    finally:
        store.close()
