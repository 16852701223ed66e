"""Hidden information never leaves the server: no deck order, no card of a face-down pile,
no seed and no RNG state in any response or WebSocket message, to any seat or spectator."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kamon.games import games, get_game
from tests.server.conftest import create, get, move, token_of


def hidden_cards(c: TestClient, gid: str) -> set[str]:
    """The card ids in the game's face-down piles right now (from the server's own state)."""
    state = c.app.state.live.service.load(gid).state  # type: ignore[attr-defined]
    if hasattr(state, "steward_deck"):
        return set(state.steward_deck) | set(state.diplomat_deck) | {
            str(x) for x in getattr(state, "solo_deck", [])}
    return {card for pile in getattr(state, "piles", []) for card in pile}


def secrets_of(c: TestClient, gid: str) -> list[str]:
    """Strings whose presence in a response would leak: the seed and the RNG state."""
    server = c.app.state.live  # type: ignore[attr-defined]
    state = server.service.load(gid).state
    return [str(server.store.game(gid).seed), str(state.rng.state)]


def keys_of(data: Any) -> set[str]:
    """Every key of every object in a JSON value."""
    found: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            found.add(k)
            found |= keys_of(v)
    elif isinstance(data, list):
        for v in data:
            found |= keys_of(v)
    return found


def assert_no_leak(c: TestClient, gid: str, text: str) -> None:
    """No hidden card id, seed or RNG state appears in `text`; no 'seed'/'rng' key."""
    data = json.loads(text)
    assert not {"seed", "rng"} & keys_of(data)
    for secret in secrets_of(c, gid):
        assert secret not in text
    for card in hidden_cards(c, gid):
        assert f'"{card}"' not in text, f"hidden card {card} leaked"


def _exercise(c: TestClient, game: str, players: int, moves: int) -> None:
    """Play a game with every seat human, checking every response and socket message."""
    g = create(c, game, players, ["human"] * players)  # no seed: it is secret
    text = json.dumps(g)
    assert str(c.app.state.live.store.game(g["id"]).seed) not in text  # type: ignore
    tokens = [token_of(g, s) for s in range(players)]
    with c.websocket_connect(f"/api/games/{g['id']}/ws") as spectator, \
            c.websocket_connect(f"/api/games/{g['id']}/ws?token={tokens[-1]}") as seat1:
        for ws in (spectator, seat1):
            assert_no_leak(c, g["id"], json.dumps(ws.receive_json()))
        for _ in range(moves):
            pub = get(c, g["id"])
            if pub["over"]:
                break
            tok = tokens[pub["to_move"]]
            for t in [*tokens, None]:
                r = c.get(f"/api/games/{g['id']}", params={"token": t} if t else {})
                assert_no_leak(c, g["id"], r.text)
            legal = get(c, g["id"], tok)["legal"]
            r = move(c, g["id"], tok, legal[len(legal) // 2]["id"], pub["version"])
            assert r.status_code == 200
            assert_no_leak(c, g["id"], r.text)
            for ws in (spectator, seat1):
                assert_no_leak(c, g["id"], json.dumps(ws.receive_json()))


def test_white_castle_responses_hide_the_castle_decks_seed_and_rng(client: TestClient) -> None:
    _exercise(client, "white-castle", 2, 60)


def test_solo_responses_hide_the_solitaire_deck(client: TestClient) -> None:
    _exercise(client, "white-castle", 1, 40)


def test_clansman_responses_hide_the_century_piles_seed_and_rng(client: TestClient) -> None:
    _exercise(client, "clansman", 4, 80)


def test_the_record_stays_closed_while_the_game_is_on(client: TestClient) -> None:
    g = create(client)
    r = client.get(f"/api/games/{g['id']}/record")
    assert r.status_code == 409
    assert str(client.app.state.live.store.game(g["id"]).seed) not in r.text  # type: ignore


@pytest.mark.parametrize("game", sorted(games()))
def test_every_games_responses_hide_the_seed_and_rng(client: TestClient, game: str) -> None:
    """Every registered game (from the registry, so a new game folder is held to it too),
    at its default player count: no response or socket message carries the seed or the
    RNG state."""
    _exercise(client, game, get_game(game).default_players, 30)
