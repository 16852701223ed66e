"""Undo (a seat's own decisions of the turn, until new information is revealed) and live
updates over the WebSocket (every seat and spectator sees each move; reconnecting resumes)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from kamon.core.rng import Rng
from kamon.core.undo import reveals as _reveals
from kamon.games import get_game
from tests.server.conftest import create, get, move, token_of


def _undo(c: TestClient, gid: str, token: str, version: int) -> Any:
    return c.post(f"/api/games/{gid}/undo", json={"token": token, "version": version})


def test_undo_takes_back_a_decision_that_revealed_nothing(client: TestClient) -> None:
    g = create(client, "white-castle", 2, ["human", "human"], seed=9)
    pub = get(client, g["id"])
    tok = token_of(g, pub["to_move"])
    before = get(client, g["id"], tok)
    r = move(client, g["id"], tok, before["legal"][0]["id"], 0)
    after = r.json()
    assert after["can_undo"] is True  # the starting draft reveals nothing
    r = _undo(client, g["id"], tok, after["version"])
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["version"] == 2  # the undo is a row of its own: the record only grows
    assert back["view"] == before["view"] and back["legal"] == before["legal"]
    rows = client.app.state.live.store.actions(g["id"])  # type: ignore[attr-defined]
    assert [row.kind for row in rows] == ["move", "undo"]


def test_undo_is_refused_after_another_player_moved(client: TestClient) -> None:
    g = create(client, "white-castle", 2, ["human", "human"], seed=9)
    pub = get(client, g["id"])
    first = token_of(g, pub["to_move"])
    r = move(client, g["id"], first, get(client, g["id"], first)["legal"][0]["id"], 0)
    second = token_of(g, r.json()["to_move"]) if r.json()["to_move"] is not None else first
    assert second != first
    r2 = move(client, g["id"], second, get(client, g["id"], second)["legal"][0]["id"], 1)
    assert r2.status_code == 200
    assert get(client, g["id"], first)["can_undo"] is False
    before = get(client, g["id"])
    r = _undo(client, g["id"], first, 2)
    assert r.status_code == 409 and "not yours" in r.json()["error"]
    assert get(client, g["id"])["version"] == before["version"]


def test_undo_refusals_stale_version_wrong_token_and_nothing_to_undo(
        client: TestClient) -> None:
    g = create(client, "white-castle", 2, ["human", "human"], seed=9)
    tok = token_of(g, get(client, g["id"])["to_move"])
    r = _undo(client, g["id"], tok, 0)
    assert r.status_code == 409 and "no move" in r.json()["error"]
    move(client, g["id"], tok, get(client, g["id"], tok)["legal"][0]["id"], 0)
    assert _undo(client, g["id"], tok, 0).status_code == 409   # stale
    assert _undo(client, g["id"], "forged", 1).status_code == 403
    assert client.post(f"/api/games/{g['id']}/undo", json={"token": tok}).status_code == 400
    assert get(client, g["id"])["version"] == 1


def test_a_die_roll_or_a_card_draw_counts_as_revealed_information() -> None:
    """The engine-level check the undo uses: a move is undoable only if re-sampling the
    hidden parts cannot change its public outcome."""
    game = get_game("white-castle")
    s = game.new_game(2, 17)
    rng = Rng(4)
    seen_reveal = seen_quiet = False
    while not s.is_over() and not (seen_reveal and seen_quiet):
        before = s.clone()
        seat = s.to_move
        assert seat is not None
        legal = s.legal_actions()
        a = legal[rng.randint(0, len(legal) - 1)]
        s.apply(a)
        round_changed = before.view(None)["round"] != s.view(None)["round"]
        reveals = _reveals(before, a.id, s, seat)
        if round_changed:  # a new round re-rolls every die and deals new cards
            assert reveals
            seen_reveal = True
        elif a.text.startswith("draft"):
            assert not reveals
            seen_quiet = True
    assert seen_reveal and seen_quiet


def test_solo_turns_that_let_the_rival_reveal_cards_cannot_be_undone(
        client: TestClient) -> None:
    g = create(client, "white-castle", 1, ["human"], seed=3, options={"difficulty": "easy"})
    tok = token_of(g, 0)
    refused = 0
    for _ in range(60):
        p = get(client, g["id"], tok)
        if p["over"]:
            break
        n_rival_lines = sum("the rival reveals" in line for line in p["log"])
        r = move(client, g["id"], tok, p["legal"][0]["id"], p["version"])
        q = r.json()
        if sum("the rival reveals" in line for line in q["log"]) > n_rival_lines:
            assert q["can_undo"] is False  # the Tokugawa rival revealed its cards
            refused += 1
    assert refused >= 2


def test_every_seat_and_spectator_sees_each_move_live(client: TestClient) -> None:
    g = create(client, "white-castle", 2, ["human", "human"], seed=12)
    gid = g["id"]
    tokens = [token_of(g, 0), token_of(g, 1)]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as a, \
            client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[1]}") as b, \
            client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        first = [ws.receive_json()["payload"] for ws in (a, b, watcher)]
        assert [p["you"] for p in first] == [0, 1, None]
        assert all(p["version"] == 0 for p in first)
        for version in range(6):
            pub = get(client, gid)
            tok = tokens[pub["to_move"]]
            mine = get(client, gid, tok)
            assert move(client, gid, tok, mine["legal"][0]["id"], version).status_code == 200
            seen = [ws.receive_json()["payload"] for ws in (a, b, watcher)]
            assert {p["version"] for p in seen} == {version + 1}
            assert all(p["log"] == seen[0]["log"] for p in seen)
            movers = [p["legal"] != [] for p in seen]
            assert movers[2] is False  # the spectator never gets choices
    # reconnecting resumes from the current version
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[1]}") as again:
        assert again.receive_json()["payload"]["version"] == 6


def test_a_socket_with_a_wrong_token_is_told_why_and_closed(client: TestClient) -> None:
    g = create(client)
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token=forged") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["status"] == 403
    with client.websocket_connect("/api/games/none/ws") as ws:
        assert ws.receive_json()["status"] == 404


def test_a_socket_sees_bot_moves_as_they_happen(client: TestClient) -> None:
    g = create(client, "white-castle", 2, ["human", "random"], seed=30)
    tok = token_of(g, 0)
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={tok}") as ws:
        p = ws.receive_json()["payload"]
        versions = [p["version"]]
        while len(versions) < 25 and not p["over"]:
            if p["to_move"] == 0:
                assert move(client, g["id"], tok, p["legal"][0]["id"],
                            p["version"]).status_code == 200
            p = ws.receive_json()["payload"]
            versions.append(p["version"])
        assert versions == list(range(versions[0], versions[0] + len(versions)))
        rows = client.app.state.live.store.actions(g["id"])  # type: ignore[attr-defined]
        assert {row.seat for row in rows} == {0, 1}  # both seats moved; every move pushed


def test_a_game_takes_at_most_max_undos_and_moves_on_after_them(
        client: TestClient, monkeypatch: Any) -> None:
    """A game's rows are bounded: past MAX_UNDOS undos (here 3) an undo is refused (409,
    saying why) and stores nothing, while moves are still taken."""
    import kamon.server.service as service

    monkeypatch.setattr(service, "MAX_UNDOS", 3)
    g = create(client, "white-castle", 2, ["human", "human"], seed=9)
    tok = token_of(g, get(client, g["id"])["to_move"])
    version = 0
    for _ in range(3):
        r = move(client, g["id"], tok, get(client, g["id"], tok)["legal"][0]["id"], version)
        r = _undo(client, g["id"], tok, r.json()["version"])
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    r = move(client, g["id"], tok, get(client, g["id"], tok)["legal"][0]["id"], version)
    assert r.status_code == 200
    refused = _undo(client, g["id"], tok, r.json()["version"])
    assert refused.status_code == 409 and "3 undos" in refused.json()["error"]
    assert get(client, g["id"])["version"] == r.json()["version"]
