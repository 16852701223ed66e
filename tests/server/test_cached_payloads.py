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
    service = client.app.state.server.service  # type: ignore[attr-defined]
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
