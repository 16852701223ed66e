"""What just happened (issue 10): the payload's `recent` gives each other seat's last turn
since the viewer's own last decision — its moves' notation, and the log lines it wrote —
and it goes when the viewer decides; it survives a reload from the store."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import create, get, move, token_of


def play_first(c: TestClient, gid: str, tok: str) -> dict[str, Any]:
    """Play a seat's first legal move; the new payload of that seat."""
    p = get(c, gid, tok)
    r = move(c, gid, tok, p["legal"][0]["id"], p["version"])
    assert r.status_code == 200, r.text
    return get(c, gid, tok)


def test_recent_gives_the_other_seats_last_turn_until_the_viewer_decides(
        client: TestClient) -> None:
    """Two people: what one did is the other's `recent`, with its log lines, until the
    other decides; the mover's own moves are never its own `recent`."""
    created = create(client, players=2, seed=12)
    gid = created["id"]
    toks = {s: token_of(created, s) for s in (0, 1)}
    first = get(client, gid)["to_move"]
    other = 1 - first
    before = len(get(client, gid)["log"])
    played = []
    while get(client, gid)["to_move"] == first:  # the first seat drafts (and its gains)
        p = get(client, gid, toks[first])
        played.append(p["legal"][0]["notation"])
        mover = play_first(client, gid, toks[first])
        assert mover["recent"] == []
    seen = get(client, gid, toks[other])
    assert len(seen["recent"]) == 1
    entry = seen["recent"][0]
    assert entry["seat"] == first and entry["moves"] == played
    assert entry["moves"][0].startswith("draft ")
    assert entry["log_from"] == before and entry["log_to"] == len(seen["log"])
    assert entry["text"] == " · ".join(seen["log"][before:])
    assert "takes starting pair" in entry["text"]
    spectator = get(client, gid)
    assert spectator["recent"] == seen["recent"]
    after = play_first(client, gid, toks[other])   # the other decides: the mark goes
    assert get(client, gid, toks[other])["recent"] == []
    assert [e["seat"] for e in get(client, gid, toks[first])["recent"]] == [other]
    assert after["version"] == seen["version"] + 1


def test_recent_spans_a_whole_turn_and_survives_a_reload(client: TestClient) -> None:
    """Every consecutive decision of the other seat is in its turn's entry, also when the
    game is rebuilt from the store (the log positions replayed)."""
    created = create(client, players=2, seed=3)
    gid = created["id"]
    toks = {s: token_of(created, s) for s in (0, 1)}
    for _ in range(12):  # both drafts, then the first turns
        p = get(client, gid)
        if p["to_move"] is None:
            break
        play_first(client, gid, toks[p["to_move"]])
    p = get(client, gid)
    viewer = p["to_move"]
    mine = get(client, gid, toks[viewer])
    assert mine["recent"], mine["recent"]
    entry = mine["recent"][0]
    assert entry["seat"] == 1 - viewer
    server = client.app.state.live  # type: ignore[attr-defined]
    server.service.cache.drop(gid)      # rebuilt from the store on the next read
    again = get(client, gid, toks[viewer])
    assert again["recent"] == mine["recent"]
    lines = again["log"][entry["log_from"]:entry["log_to"]]
    assert lines and all(line for line in lines)


def test_the_solo_rivals_last_turn_is_recent_too(client: TestClient) -> None:
    """The rival has no seat and plays inside the player's moves: its last turn is still
    an entry (seat None, its party index), with the die space its die went to."""
    created = create(client, players=1, seats=["human"], seed=5, options={"difficulty": "hard"})
    gid = created["id"]
    tok = token_of(created, 0)
    p = get(client, gid, tok)
    for _ in range(40):
        rival = [e for e in p["recent"] if e["seat"] is None]
        if rival and len([line for line in p["log"] if "the rival reveals" in line]) >= 2:
            break
        p = play_first(client, gid, tok)
    entry = rival[0]
    assert entry["party"] == 1 and entry["name"] == "tokugawa"
    lines = p["log"][entry["log_from"]:entry["log_to"]]
    assert lines[0].startswith("the rival reveals") and entry["text"] == " · ".join(lines)
    assert any(m.startswith("place ") for m in entry["moves"]), entry
    last = max(i for i, line in enumerate(p["log"]) if line.startswith("the rival reveals"))
    assert entry["log_from"] == last
    assert 0 < entry["version"] <= p["version"]
