"""Every route of the web API, and every refusal: 400 malformed, 403 wrong seat or token,
404 no game, 409 stale version or finished game, 422 illegal move — with nothing stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from kamon.cli import app as cli_app
from kamon.core.record import GameRecord, replay
from kamon.games import games
from tests.server.conftest import create, get, move, play_humans, token_of, wait_for


def snapshot(c: TestClient, gid: str) -> dict[str, Any]:
    """What a refusal must leave unchanged: the stored version and the public position."""
    server = c.app.state.live  # type: ignore[attr-defined]
    p = get(c, gid)
    return {"version": server.store.head(gid)[0], "rows": len(server.store.actions(gid)),
            "view": p["view"], "to_move": p["to_move"]}


# --- catalogue and data ------------------------------------------------------------------

def test_catalog_lists_every_game_its_options_and_the_seat_kinds(client: TestClient) -> None:
    """The catalogue lists every registered game (in the registry's order) with the
    options a player may set, as each game's option schema declares them."""
    cat = client.get("/api/catalog").json()
    names = {g["name"]: g for g in cat["games"]}
    assert list(names) == list(games())
    for name, g in games().items():
        assert names[name]["options"] == g.options.catalog(), name
    assert names["white-castle"]["min_players"] == 1
    assert "difficulty" in names["white-castle"]["options"]
    assert "expert" in names["clansman"]["options"]
    assert "data_overlay" not in names["white-castle"]["options"]
    assert names["clansman"]["variant_min_players"] == 2
    assert names["clansman"]["variant_options"] == {"variant": "small-table"}
    assert names["clansman"]["forced"] == {"2": {"variant": "small-table"},
                                           "3": {"variant": "small-table"}}
    side = names["clansman"]["options"]["emperor_side"]
    assert [c["label"] for c in side["choices"]] == ["side A", "side B"]
    assert side["requires"] == {"expert": True} and side["default"] == "A"
    kinds = [s["kind"] for s in cat["seats"]]
    assert kinds[0] == "human" and {"easy", "normal", "hard", "random"} <= set(kinds)


def test_data_route_answers_for_each_game_and_404_for_an_unknown_one(
        client: TestClient) -> None:
    for name in games():  # every registered game
        r = client.get(f"/api/data/{name}")
        assert r.status_code == 200 and isinstance(r.json()["components"], dict)
    r = client.get("/api/data/chess")
    assert r.status_code == 404 and "chess" in r.json()["error"]


def test_pages_and_static_client_are_served(client: TestClient) -> None:
    assert "New game" in client.get("/").text
    assert 'src="/static/app.js"' in client.get("/play/anything").text
    r = client.get("/static/app.js")
    assert r.status_code == 200 and "WebSocket" in r.text


# --- create ------------------------------------------------------------------------------

def test_create_gives_one_unguessable_link_per_human_seat_and_a_spectator_link(
        client: TestClient) -> None:
    g = create(client, "white-castle", 3, ["human", "random", "human"])
    humans = [s for s in g["seats"] if s["kind"] == "human"]
    assert [s["seat"] for s in humans] == [0, 2]
    tokens = {s["token"] for s in humans}
    assert len(tokens) == 2 and all(len(t) >= 20 for t in tokens)
    assert g["seats"][1]["token"] is None and g["seats"][1]["level"] == "random"
    for s in humans:
        assert s["link"] == f"/play/{g['id']}?token={s['token']}"
        assert s["url"].endswith(s["link"])
    assert g["spectator_link"] == f"/play/{g['id']}"
    assert [s["name"] for s in g["seats"]] == ["blue", "yellow", "red"]


def test_create_stores_no_token_only_its_hash(client: TestClient) -> None:
    g = create(client)
    server = client.app.state.live  # type: ignore[attr-defined]
    stored = [s.token_hash for s in server.store.seats(g["id"])]
    for s in g["seats"]:
        assert s["token"] not in stored
        assert len(stored[s["seat"]]) == 64


def test_create_with_options_sets_the_game_up_with_them(client: TestClient) -> None:
    solo = create(client, "white-castle", 1, ["human"], options={"difficulty": "hard"})
    p = get(client, solo["id"], token_of(solo, 0))
    assert p["view"]["rival"] is not None and p["options"] == {"difficulty": "hard"}
    expert = create(client, "clansman", 4, ["human"] * 4,
                    options={"expert": True, "emperor_side": "B"})
    pv = get(client, expert["id"])
    assert pv["options"]["expert"] is True and pv["view"]["emperors"]


@pytest.mark.parametrize(("body", "message"), [
    ({"game": "chess", "players": 2}, "unknown game"),
    ({"game": "white-castle", "players": 5}, "1 to 4 players"),
    ({"game": "white-castle", "players": "2"}, "'players' must be an integer"),
    ({"game": "white-castle", "players": 2, "seats": ["human"]}, "names 1 seat"),
    ({"game": "white-castle", "players": 2, "seats": ["human", "grandmaster"]},
     "unknown seat kind"),
    ({"game": "white-castle", "players": 2, "options": {"colour": "red"}},
     "unknown option"),
    ({"game": "white-castle", "players": 2, "options": {"first_game": "yes"}},
     "first_game must be true or false"),
    ({"game": "white-castle", "players": 2, "options": {"data_overlay": {}}},
     "unknown option"),
    ({"game": "white-castle", "players": 2, "seed": -1}, "'seed' must be an integer"),
    ({"game": "white-castle", "players": 1, "options": {"difficulty": "impossible"}},
     "cannot set up"),
    ({"game": "clansman", "players": 3}, "only with the unofficial variant"),
    ({"players": 2}, "'game' must be a game name"),
    (["white-castle"], "must be a JSON object"),
])
def test_create_refuses_a_bad_request_with_400_and_stores_nothing(
        client: TestClient, body: Any, message: str) -> None:
    server = client.app.state.live  # type: ignore[attr-defined]
    r = client.post("/api/games", json=body)
    assert r.status_code == 400, r.text
    assert message in r.json()["error"]
    assert server.store.count_games() == 0


def test_create_refuses_malformed_json_with_400(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{game: white-castle",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]


# --- state -------------------------------------------------------------------------------

def test_state_for_the_seat_to_move_lists_its_legal_actions_in_notation_and_words(
        client: TestClient) -> None:
    g = create(client, seed=11)
    p = get(client, g["id"], token_of(g, p0 := 0))
    assert p["you"] == p0 and p["version"] == 0 and not p["over"]
    mover = p["to_move"]
    other = 1 - mover
    pm = get(client, g["id"], token_of(g, mover))
    assert pm["legal"] and all({"id", "notation", "text"} <= set(a) for a in pm["legal"])
    assert pm["decision"] and pm["log"]
    assert get(client, g["id"], token_of(g, other))["legal"] == []


def test_state_for_a_spectator_has_no_seat_and_no_legal_actions(client: TestClient) -> None:
    g = create(client)
    p = get(client, g["id"])
    assert p["you"] is None and p["legal"] == [] and p["can_undo"] is False


def test_state_refuses_a_wrong_token_with_403_and_an_unknown_game_with_404(
        client: TestClient) -> None:
    g = create(client)
    r = client.get(f"/api/games/{g['id']}", params={"token": "not-a-seat"})
    assert r.status_code == 403 and "not a seat" in r.json()["error"]
    other = create(client)
    r = client.get(f"/api/games/{g['id']}", params={"token": token_of(other, 0)})
    assert r.status_code == 403
    r = client.get("/api/games/nope")
    assert r.status_code == 404 and "no game" in r.json()["error"]


# --- moves -------------------------------------------------------------------------------

def _mover(c: TestClient, g: dict[str, Any]) -> tuple[dict[str, Any], str, str]:
    """The spectator payload, the mover's token and the other seat's token."""
    p = get(c, g["id"])
    return p, token_of(g, p["to_move"]), token_of(g, 1 - p["to_move"])


def test_a_move_by_notation_or_by_id_is_played_stored_and_versioned(
        client: TestClient) -> None:
    g = create(client, seed=3)
    p, tok, _ = _mover(client, g)
    legal = get(client, g["id"], tok)["legal"]
    r = move(client, g["id"], tok, legal[0]["notation"], 0)
    assert r.status_code == 200, r.text
    assert r.json()["version"] == 1
    p2, tok2, _ = _mover(client, g)
    legal2 = get(client, g["id"], tok2)["legal"]
    r = move(client, g["id"], tok2, legal2[-1]["id"], 1)
    assert r.status_code == 200 and r.json()["version"] == 2
    server = client.app.state.live  # type: ignore[attr-defined]
    rows = server.store.actions(g["id"])
    assert [(row.kind, row.notation) for row in rows] == [
        ("move", legal[0]["notation"]), ("move", legal2[-1]["notation"])]


def test_a_stale_version_is_refused_with_409_and_nothing_is_stored(client: TestClient) -> None:
    g = create(client)
    p, tok, _ = _mover(client, g)
    before = snapshot(client, g["id"])
    r = move(client, g["id"], tok, get(client, g["id"], tok)["legal"][0]["id"], 7)
    assert r.status_code == 409 and "version 0, not 7" in r.json()["error"]
    assert snapshot(client, g["id"]) == before


def test_a_move_by_the_seat_not_to_move_is_refused_with_403(client: TestClient) -> None:
    g = create(client)
    p, tok, other = _mover(client, g)
    before = snapshot(client, g["id"])
    r = move(client, g["id"], other, "draft 1", 0)
    assert r.status_code == 403 and "decision, not" in r.json()["error"]
    assert snapshot(client, g["id"]) == before


def test_a_move_with_a_wrong_token_is_refused_with_403(client: TestClient) -> None:
    g = create(client)
    before = snapshot(client, g["id"])
    r = move(client, g["id"], "forged-token", "draft 1", 0)
    assert r.status_code == 403
    assert snapshot(client, g["id"]) == before


def test_an_illegal_move_is_refused_with_422_and_the_engines_reason(
        client: TestClient) -> None:
    g = create(client, seed=5)
    p, tok, _ = _mover(client, g)
    before = snapshot(client, g["id"])
    r = move(client, g["id"], tok, "pass", 0)  # no passing in the starting draft
    assert r.status_code == 422
    assert "pass" in r.json()["error"]
    r = move(client, g["id"], tok, "fly to the moon", 0)
    assert r.status_code == 422 and "moon" in r.json()["error"]
    legal_ids = {a["id"] for a in get(client, g["id"], tok)["legal"]}
    illegal = next(i for i in range(99) if i not in legal_ids)
    r = move(client, g["id"], tok, illegal, 0)
    assert r.status_code == 422 and "illegal" in r.json()["error"]
    assert snapshot(client, g["id"]) == before


@pytest.mark.parametrize("body", [
    {"action": "draft 1", "version": 0},                       # no token
    {"token": "TOKEN", "action": "draft 1"},                   # no version
    {"token": "TOKEN", "action": "draft 1", "version": "0"},   # version not an integer
    {"token": "TOKEN", "action": True, "version": 0},          # action a boolean
    {"token": "TOKEN", "action": ["draft 1"], "version": 0},   # action a list
    {"token": "TOKEN", "action": 10_000, "version": 0},        # id outside the space
    {"token": "TOKEN", "version": 0},                          # no action
])
def test_a_malformed_move_is_refused_with_400_and_nothing_is_stored(
        client: TestClient, body: dict[str, Any]) -> None:
    g = create(client)
    p, tok, _ = _mover(client, g)
    body = {k: (tok if v == "TOKEN" else v) for k, v in body.items()}
    before = snapshot(client, g["id"])
    r = client.post(f"/api/games/{g['id']}/moves", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"]
    assert snapshot(client, g["id"]) == before


def test_a_move_body_that_is_not_json_or_not_an_object_is_refused_with_400(
        client: TestClient) -> None:
    g = create(client)
    before = snapshot(client, g["id"])
    r = client.post(f"/api/games/{g['id']}/moves", content=b"draft 1",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]
    r = client.post(f"/api/games/{g['id']}/moves", json=[1, 2])
    assert r.status_code == 400 and "JSON object" in r.json()["error"]
    assert snapshot(client, g["id"]) == before


def test_a_move_in_an_unknown_game_is_404(client: TestClient) -> None:
    r = move(client, "no-such-game", "t", "draft 1", 0)
    assert r.status_code == 404


def test_a_finished_game_refuses_moves_with_409_and_exports_a_replayable_record(
        client: TestClient, tmp_path: Path) -> None:
    g = create(client, "white-castle", 2, ["human", "random"], seed=21)
    tok = token_of(g, 0)
    r = client.get(f"/api/games/{g['id']}/record")
    assert r.status_code == 409 and "seed" in r.json()["error"]
    final = play_humans(client, g["id"], {0: tok})
    assert final["over"] and final["winners"] and final["to_move"] is None
    assert set(final["scores"][0]) >= {"total", "courtiers", "passage_of_time"}
    r = move(client, g["id"], tok, "pass", final["version"])
    assert r.status_code == 409 and "over" in r.json()["error"]
    rec = client.get(f"/api/games/{g['id']}/record")
    assert rec.status_code == 200
    record = GameRecord.from_json(rec.json())
    assert record.seed == 21 and record.seats == ["human", "random"]
    state = replay(record)
    assert state.is_over() and [s["total"] for s in state.scores()] == \
        [s["total"] for s in final["scores"]]
    path = tmp_path / "exported.json"
    path.write_text(rec.text)
    result = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert f"{len(record.actions):>4}. " in result.output and "Final scores" in result.output


def test_bots_move_server_side_until_a_human_is_to_decide(client: TestClient) -> None:
    g = create(client, "clansman", 4, ["random", "human", "easy", "random"], seed=8)
    tok = token_of(g, 1)
    p = wait_for(client, g["id"], tok, lambda q: q["to_move"] == 1)
    assert p["legal"]
    server = client.app.state.live  # type: ignore[attr-defined]
    rows = server.store.actions(g["id"])
    assert all(row.seat != 1 for row in rows)  # every stored move so far is a bot's


def test_an_all_bot_game_plays_itself_to_the_end(client: TestClient) -> None:
    g = create(client, "white-castle", 2, ["random", "random"], seed=2)
    p = wait_for(client, g["id"], None, lambda q: q["over"])
    assert p["winners"] and client.get(f"/api/games/{g['id']}/record").status_code == 200


def test_a_solo_payload_names_the_rival_that_scores_without_a_seat(
        client: TestClient) -> None:
    """Scores and winners index the seats and then the Tokugawa rival: the payload says
    who every index is, so a page can name the rival's column and a rival win."""
    created = create(client, players=1, seed=5150, options={"difficulty": "hard"})
    p = play_humans(client, created["id"], {0: token_of(created, 0)})
    assert p["over"] and len(p["seats"]) == 1 and len(p["scores"]) == 2
    assert p["scored"] == [{"index": 0, "name": "blue", "seat": 0, "kind": "seat"},
                           {"index": 1, "name": "tokugawa", "seat": None, "kind": "rival"}]
    assert p["winners"] == [1]


def test_every_api_route_is_in_the_servers_documented_route_table(client: TestClient) -> None:
    """docs/server.md's route table names every /api route the app serves (and no other),
    so the page stays true as routes come and go."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text()
    table = doc[doc.index("## The HTTP API"):doc.index("## The path of a move")]
    documented = {(m, p.split("?")[0]) for m, p in
                  re.findall(r"^  (GET|POST|WS)\s+(/api/\S+)", table, re.M)}
    app = client.app.app  # type: ignore[attr-defined]  (the FastAPI app inside the guard)
    served = set()
    for route in app.routes:
        path = getattr(route, "path", "").replace("{game_id}", "{id}")
        if not path.startswith("/api/"):
            continue
        for method in getattr(route, "methods", None) or {"WS"}:
            if method in ("GET", "POST", "WS"):
                served.add((method, path))
    assert documented == served


def test_unknown_routes_and_methods_answer_in_the_apis_shape_and_a_browser_gets_a_page(
        client: TestClient) -> None:
    """An unknown API route or method is `{"error"}` saying what was asked (not
    Starlette's `{"detail"}`); a browser asking for an unknown page gets an HTML page
    with a way back to the lobby; HEAD /api/health answers as GET does."""
    r = client.get("/api/nope")
    assert r.status_code == 404 and r.json() == {"error": "no such page or API route: /api/nope"}
    r = client.put("/api/health", json={})
    assert r.status_code == 405 and "PUT is not a method" in r.json()["error"]
    r = client.get("/no/such/page", headers={"accept": "text/html,*/*"})
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "No such page" in r.text and 'href="/"' in r.text
    assert client.head("/api/health").status_code == 200
