"""Replays, open games and rematches through the HTTP API (real app, real SQLite).

Replays: a finished game's every step is the position the record replays to; an uploaded
record gives the same steps; an unfinished game, a step out of range and a corrupt file
are refused with the reason. Open games: listed while a seat is free; a join takes one
seat, and of many people joining the last seat at once exactly one gets it. Rematch:
same seats and tokens, a new deal, one rematch per game, refused while the game is on.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from kamon.core.record import GameRecord, replay
from tests.server.conftest import create, free_port, get, play_humans, token_of


def finished_solo(c: TestClient, seed: int = 3) -> dict[str, Any]:
    """A solo White Castle practice game (seeded), played to its end through the API."""
    created = create(c, "white-castle", 1, ["human"], seed=seed)
    play_humans(c, created["id"], {0: token_of(created, 0)})
    return created


def record_of(c: TestClient, gid: str) -> dict[str, Any]:
    """The finished game's record as the API exports it."""
    r = c.get(f"/api/games/{gid}/record")
    assert r.status_code == 200, r.text
    return dict(r.json())


# --- replays -----------------------------------------------------------------------------

def test_every_step_of_a_finished_game_is_the_position_its_record_replays_to(
        client: TestClient) -> None:
    created = finished_solo(client)
    gid = created["id"]
    rec = GameRecord.from_json(record_of(client, gid))
    end = client.get(f"/api/games/{gid}/replay").json()
    n = len(rec.actions)
    assert end["steps"] == n and end["step"] == n and end["payload"]["over"]
    assert [m["notation"] for m in end["moves"]] == rec.actions
    for k in (0, 1, n // 2, n - 1, n):
        r = client.get(f"/api/games/{gid}/replay", params={"step": k})
        assert r.status_code == 200, r.text
        ans = r.json()
        state = replay(rec, upto=k)
        p = ans["payload"]
        assert ans["step"] == k and p["version"] == k
        assert p["scores"] == state.scores()
        assert p["log"] == state.view(None)["events"]
        assert p["view"]["round"] == state.view(None)["round"]
        assert p["legal"] == [] and p["you"] is None
        a, b = ans["lines"]
        if k:  # the lines the step added: the log grew from a to b
            assert a == len(replay(rec, upto=k - 1).events) and b == len(p["log"])
    rounds = end["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, 3]
    for r in rounds[1:]:  # each round starts at the step that entered it
        assert replay(rec, upto=r["step"]).view(None)["round"] == r["round"]
        assert replay(rec, upto=r["step"] - 1).view(None)["round"] == r["round"] - 1


def test_the_replay_page_is_served_for_a_game_and_for_an_upload(client: TestClient) -> None:
    for path in ("/replay", "/replay/abc123"):
        r = client.get(path)
        assert r.status_code == 200 and "/static/replay.js" in r.text, path
    assert client.get("/static/replay.js").status_code == 200
    assert "upload-form" in client.get("/replay").text


def test_an_unfinished_game_and_a_step_out_of_range_are_refused(client: TestClient) -> None:
    created = create(client, "white-castle", 1, ["human"], seed=3)
    gid = created["id"]
    r = client.get(f"/api/games/{gid}/replay", params={"step": 0})
    assert r.status_code == 409 and "when it is over" in r.json()["error"]
    play_humans(client, gid, {0: token_of(created, 0)})
    steps = client.get(f"/api/games/{gid}/replay").json()["steps"]
    for bad in (steps + 1, -1, "x"):
        r = client.get(f"/api/games/{gid}/replay", params={"step": bad})
        assert r.status_code == 400, r.text
        assert "out of range" in r.json()["error"] and f"to {steps}" in r.json()["error"]
    assert client.get("/api/games/nosuchgame/replay").status_code == 404


def test_an_uploaded_record_replays_the_same_steps_as_the_hosted_game(
        client: TestClient) -> None:
    gid = finished_solo(client)["id"]
    text = json.dumps(record_of(client, gid), indent=1)
    for k in (0, 5, None):
        body: dict[str, Any] = {"text": text}
        if k is not None:
            body["step"] = k
        up = client.post("/api/replays", json=body)
        assert up.status_code == 200, up.text
        hosted = client.get(f"/api/games/{gid}/replay",
                            params={} if k is None else {"step": k}).json()
        u = up.json()
        assert u["source"] == "record" and u["step"] == hosted["step"]
        assert u["payload"]["view"] == hosted["payload"]["view"]
        assert u["payload"]["scores"] == hosted["payload"]["scores"]
        assert u["payload"]["log"] == hosted["payload"]["log"]
        assert u["moves"] == hosted["moves"] and u["lines"] == hosted["lines"]


def test_a_jsonl_file_of_records_replays_the_chosen_line() -> None:
    from kamon.server.replays import parse_record_text
    recs = [GameRecord("white-castle", 1, s, {}, [], ["human"]) for s in (4, 5)]
    text = "\n".join(json.dumps(r.to_json()) for r in recs)
    assert parse_record_text(text, 2).seed == 5
    try:
        parse_record_text(text)
    except Exception as exc:
        assert "2 records, one per line" in str(exc)
    else:
        raise AssertionError("a JSONL file without a chosen line was accepted")


def test_a_corrupt_record_is_refused_with_what_is_wrong(client: TestClient) -> None:
    gid = finished_solo(client)["id"]
    good = record_of(client, gid)
    bad_move = dict(good, actions=[*good["actions"][:3], "take nothing left"])
    cases = [
        ("{not json", "not valid JSON"),
        ("", "empty"),
        (json.dumps([1, 2]), "must be a JSON object"),
        (json.dumps({**good, "game": "chess"}), "chess"),
        (json.dumps({k: v for k, v in good.items() if k != "seed"}), "'seed'"),
        (json.dumps({**good, "players": 9}), "9 players"),
        (json.dumps(bad_move), "move 4 ('take nothing left') does not apply"),
        (json.dumps({**good, "actions": [*good["actions"], "done"]}),
         f"move {len(good['actions']) + 1}"),
    ]
    for text, words in cases:
        r = client.post("/api/replays", json={"text": text})
        assert r.status_code == 400, (text[:40], r.text)
        err = r.json()["error"]
        assert err.startswith("this game record cannot be replayed") and words in err, err
    r = client.post("/api/replays", json={"text": json.dumps(good), "step": 10_000})
    assert r.status_code == 400 and "out of range" in r.json()["error"]


# --- open games --------------------------------------------------------------------------

def public_game(c: TestClient, seats: list[str]) -> dict[str, Any]:
    """Create a public game through the API."""
    r = c.post("/api/games", json={"game": "white-castle", "players": len(seats),
                                   "seats": seats, "public": True})
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_a_public_game_is_listed_with_its_free_seats_until_they_are_taken(
        client: TestClient, db_path: Path) -> None:
    created = public_game(client, ["human", "human", "easy"])
    gid = created["id"]
    assert created["public"] and created["mode"] == "casual"
    mine = [s for s in created["seats"] if s["token"]]
    assert [s["seat"] for s in mine] == [0]  # the creator has their seat only
    assert created["seats"][1]["open"] and created["seats"][1]["link"] is None
    listed = {g["id"]: g for g in client.get("/api/open").json()["games"]}
    assert gid in listed
    entry = listed[gid]
    assert entry["free"] == [1] and entry["title"] == "The White Castle"
    assert [s["free"] for s in entry["seats"]] == [False, True, False]
    assert entry["seats"][2]["level"] == "easy"
    j = client.post(f"/api/open/{gid}/join", json={})
    assert j.status_code == 200, j.text
    joined = j.json()
    assert joined["seat"] == 1 and joined["link"] == f"/play/{gid}?token={joined['token']}"
    assert get(client, gid, joined["token"])["you"] == 1  # the token acts for seat 1
    assert gid not in {g["id"] for g in client.get("/api/open").json()["games"]}
    # the table forgets a taken seat's token
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT token FROM open_seats WHERE game_id = ?",
                          (gid,)).fetchall() == [(None,)]
    r = client.post(f"/api/open/{gid}/join", json={})
    assert r.status_code == 409 and "every seat" in r.json()["error"]


def test_joining_a_full_unknown_private_or_finished_game_is_refused(
        client: TestClient) -> None:
    assert client.post("/api/open/nosuchgame/join", json={}).status_code == 404
    private = create(client, "white-castle", 2, ["human", "human"])
    r = client.post(f"/api/open/{private['id']}/join", json={})
    assert r.status_code == 404 and "not an open game" in r.json()["error"]
    pub = public_game(client, ["human", "human"])
    r = client.post(f"/api/open/{pub['id']}/join", json={"seat": 0})
    assert r.status_code == 409 and "seat 1" in r.json()["error"]
    r = client.post(f"/api/open/{pub['id']}/join", json={"seat": "one"})
    assert r.status_code == 400
    for body, words in (({"game": "white-castle", "players": 2, "seats": ["human", "easy"],
                          "public": True}, "two human seats"),
                        ({"game": "white-castle", "players": 2, "seats": ["human", "human"],
                          "public": True, "seed": 4}, "leave 'seed' out"),
                        ({"game": "white-castle", "players": 2, "seats": ["human", "human"],
                          "public": "yes"}, "true or false")):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and words in r.json()["error"], r.text


def test_a_finished_public_game_cannot_be_joined(client: TestClient, db_path: Path
                                                 ) -> None:
    pub = public_game(client, ["human", "human"])
    gid = pub["id"]
    with sqlite3.connect(db_path) as db:  # the free seat's token, as only the store has it
        (free,) = db.execute("SELECT token FROM open_seats WHERE game_id = ?",
                             (gid,)).fetchone()
    play_humans(client, gid, {0: token_of(pub, 0), 1: free})
    r = client.post(f"/api/open/{gid}/join", json={})
    assert r.status_code == 409 and "is over" in r.json()["error"]
    assert gid not in {g["id"] for g in client.get("/api/open").json()["games"]}


def test_of_many_people_joining_the_last_seat_at_once_exactly_one_gets_it(
        tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "race.db"
    proc = subprocess.Popen([sys.executable, "-m", "kamon.cli", "serve", "--host",
                             "127.0.0.1", "--port", str(port), "--db", str(db),
                             "--bot-workers", "0", "--rate-limit", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                httpx.get(base + "/api/catalog", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        for _round in range(3):
            r = httpx.post(base + "/api/games", json={
                "game": "white-castle", "players": 2, "seats": ["human", "human"],
                "public": True})
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            results: list[httpx.Response] = []
            gate = threading.Barrier(8)

            def join(url: str, gate: threading.Barrier, out: list[httpx.Response]) -> None:
                gate.wait()
                out.append(httpx.post(url, json={}, timeout=20))

            threads = [threading.Thread(target=join, args=(
                f"{base}/api/open/{gid}/join", gate, results)) for _ in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            ok = [x for x in results if x.status_code == 200]
            refused = [x for x in results if x.status_code == 409]
            assert len(ok) == 1 and len(refused) == 7, [x.text for x in results]
            assert all("taken" in x.json()["error"] for x in refused)
            token = ok[0].json()["token"]
            p = httpx.get(f"{base}/api/games/{gid}", params={"token": token}).json()
            assert p["you"] == 1
    finally:
        proc.terminate()
        proc.wait(timeout=15)


# --- rematch -----------------------------------------------------------------------------

def test_a_rematch_has_the_same_seats_with_tokens_of_their_own_and_a_new_deal(
        client: TestClient) -> None:
    """Each seat that asks gets its own token in the rematch (the finished game's does not
    act there); asking again gives the same; the rematch is one game however many ask."""
    created = create(client, "white-castle", 2, ["human", "human"])
    gid = created["id"]
    tokens = {0: token_of(created, 0), 1: token_of(created, 1)}
    r = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]})
    assert r.status_code == 409 and "still being played" in r.json()["error"]
    assert client.get(f"/api/games/{gid}/rematch").json() == {"rematch": None}
    play_humans(client, gid, tokens)
    r = client.post(f"/api/games/{gid}/rematch", json={})
    assert r.status_code == 400 and "token" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/rematch", json={"token": "not-a-seat"})
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[1], "seed": 5})
    assert r.status_code == 400 and "practice" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[1]})
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["id"] != gid and new["token"] not in tokens.values()
    assert new["link"] == f"/play/{new['id']}?token={new['token']}"
    assert [s["kind"] for s in new["seats"]] == ["human", "human"]
    again = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]})
    assert again.status_code == 200 and again.json()["id"] == new["id"]
    mine = {1: new["token"], 0: again.json()["token"]}
    assert mine[0] != mine[1] and mine[0] not in tokens.values()
    for seat, tok in mine.items():  # each seat's own token is its seat in the new game
        p = get(client, new["id"], tok)
        assert p["you"] == seat and not p["over"] and p["version"] == 0
    for tok in tokens.values():  # the finished game's tokens do not act there
        assert client.get(f"/api/games/{new['id']}", params={"token": tok}).status_code == 403
    repeat = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[1]})
    assert repeat.json()["token"] == mine[1]  # (a reload, another tab: the same)
    assert client.get(f"/api/games/{gid}/rematch").json()["rematch"]["id"] == new["id"]
    server = client.app.state.live  # type: ignore[attr-defined]
    old_row = server.store.game(gid)
    new_row = server.store.game(new["id"])
    assert new_row.seed != old_row.seed and new_row.mode == "casual"
    assert new_row.options == old_row.options


def test_a_practice_rematch_may_choose_its_deal_and_keeps_bot_levels(
        client: TestClient) -> None:
    created = create(client, "white-castle", 2, ["human", "easy"], seed=11)
    gid = created["id"]
    play_humans(client, gid, {0: token_of(created, 0)})
    r = client.post(f"/api/games/{gid}/rematch", json={"token": token_of(created, 0),
                                                       "seed": 12})
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["mode"] == "practice" and new["seats"][1]["level"] == "easy"
    server = client.app.state.live  # type: ignore[attr-defined]
    assert server.store.game(new["id"]).seed == 12


def test_on_postgresql_one_of_many_joiners_gets_the_last_seat_and_one_rematch_is_made(
        postgres_url: str) -> None:
    """The same guarantees on PostgreSQL (row locks instead of SQLite's single writer):
    eight threads join the last seat at once, one gets it; two rematch requests at once
    make one rematch."""
    from concurrent.futures import ThreadPoolExecutor

    from kamon.server import open_games, rematch
    from kamon.server.service import GameService, ServiceError
    from kamon.server.store import Store

    store = Store(postgres_url)
    try:
        service = GameService(store)
        created = open_games.create(service, {"game": "white-castle", "players": 2,
                                              "seats": ["human", "human"], "public": True})
        gid = created["id"]

        def try_join(_: int) -> Any:
            try:
                return open_games.join(service, gid, {})
            except ServiceError as exc:
                return exc

        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(try_join, range(8)))
        ok = [r for r in results if isinstance(r, dict)]
        refused = [r for r in results if isinstance(r, ServiceError)]
        assert len(ok) == 1 and len(refused) == 7, results
        assert all(r.status == 409 for r in refused)
        tokens = {0: token_of(created, 0), 1: ok[0]["token"]}
        game = service.load(gid)
        while not game.state.is_over():
            seat = game.state.to_move
            assert seat is not None
            game = service.move(gid, tokens[seat], game.state.legal_actions()[0].id,
                                game.version)
        with ThreadPoolExecutor(2) as pool:
            made = list(pool.map(lambda s: rematch.create(service, gid, {"token": tokens[s]}),
                                 (0, 1)))
        assert made[0][0]["id"] == made[1][0]["id"]
        assert sorted(m[1] for m in made) == [False, True]
    finally:
        store.close()


def test_a_rematch_seat_revoked_by_the_operator_is_not_claimed_with_the_old_token(
        client: TestClient) -> None:
    """`kamon admin revoke` of a rematch's seat takes its claim away: the finished game's
    token is refused there (403, saying the operator gave a new link) and the printed
    link acts for the seat; the other seat still claims its own."""
    from kamon.server import admin

    created = create(client, "white-castle", 2, ["human", "human"])
    gid = created["id"]
    tokens = {0: token_of(created, 0), 1: token_of(created, 1)}
    play_humans(client, gid, tokens)
    new = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]}).json()
    live = client.app.state.live  # type: ignore[attr-defined]
    link = admin.revoke_seat(live.store, new["id"], 2)
    live.service.cache.drop(new["id"])
    r = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[1]})
    assert r.status_code == 403 and "operator" in r.json()["error"]
    assert get(client, new["id"], link.split("token=")[1])["you"] == 1
    again = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]})
    assert again.status_code == 200 and again.json()["token"] == new["token"]
