"""Open games and rematches in the browser, between two people in two browser contexts.

An open game: one person creates a public game in the lobby, another finds it under Open
games, joins, and both play. A rematch: at the end of a game one player asks for it; the
asker goes to the new game, the other sees the offer arrive live and accepts it, and both
sit at the same seats of a new deal.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import (
    Server,
    game_id_of,
    open_play,
    tokens_of,
    version,
    wait_version_after,
)
from tests.e2e.test_replay import finish


@pytest.mark.timeout(300)
def test_a_public_game_is_joined_from_the_open_list_and_both_play(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Created public with two human seats (and a bot), listed with its free seat, joined
    from the list by a second person who lands on their own seat; then each plays their
    decisions by clicks and each page shows the other's moves."""
    host = new_page("host")
    host.goto(server.url + "/")
    host.wait_for_selector("#game-select option[value='white-castle']", state="attached")
    host.select_option("#game-select", "white-castle")
    host.select_option("#players-select", "3")
    host.select_option("#seat-0", "human")
    host.select_option("#seat-1", "human")
    host.select_option("#seat-2", "easy")
    host.check("#public-check")
    host.click("#create-button")
    host.wait_for_selector("#created:not([hidden]) #spectator-link[href^='/play/']")
    links = host.locator("#invite-links a.invite[data-seat]")
    assert links.count() == 1 and links.get_attribute("data-seat") == "0"
    assert "anyone can take it" in host.inner_text("#invite-links li.open-seat")
    gid = game_id_of(host.get_attribute("#spectator-link", "href"))
    listed = {g["id"]: g for g in server.api("/api/open")["games"]}
    assert listed[gid]["free"] == [1]

    guest = new_page("guest")
    guest.goto(server.url + "/")
    entry = guest.locator(f"#open-games-list li.open-game[data-game-id='{gid}']")
    entry.wait_for()
    words = entry.inner_text()
    assert "The White Castle" in words and "1 free seat" in words and "bot easy" in words
    assert "casual" in words  # the mode: a game between people has the server's deal
    entry.locator("button.join-open").click()
    guest.wait_for_url(re.compile(rf"/play/{gid}\?token="))
    guest.wait_for_selector("body[data-version]")
    guest.wait_for_selector("#connection.live")
    assert "(you)" in guest.inner_text("#identity")
    name1 = server.api(f"/api/games/{gid}")["seats"][1]["name"]
    assert name1 in guest.inner_text("#identity")
    assert gid not in {g["id"] for g in server.api("/api/open")["games"]}

    host.click("#invite-links a.invite[data-seat='0']")
    host.wait_for_selector("body[data-version]")
    host.wait_for_selector("#connection.live")
    pages = {0: host, 1: guest}
    played = {0: 0, 1: 0}
    rng = random.Random(8)
    while min(played.values()) < 2:
        public = server.api(f"/api/games/{gid}")
        assert not public["over"]
        seat = public["to_move"]
        if seat not in pages:  # the bot's turn
            time.sleep(0.05)
            continue
        page = pages[seat]
        page.wait_for_function(
            "v => Number(document.body.dataset.version) >= v", arg=public["version"])
        page.wait_for_selector("#status.your-turn")
        before = version(page)
        buttons = page.locator("#actions button.action")
        buttons.nth(rng.randrange(buttons.count())).click()
        after = wait_version_after(page, before)
        other = pages[1 - seat]
        wait_version_after(other, after - 1)  # the other page saw the move live
        played[seat] += 1


@pytest.mark.timeout(300)
def test_a_rematch_offered_at_the_end_reaches_the_other_player_live(
        server: Server, new_page: Callable[..., Any]) -> None:
    """At the end of a two-player game, one player asks for a rematch and goes to their
    seat in it; the other's page, without a reload, offers to accept it, which opens the
    new game at the same seat, at its start, with a new deal."""
    created = server.create("white-castle", ["human", "human"], seed=99)
    gid = created["id"]
    tokens = tokens_of(created)
    finish(server, gid, tokens, 99)
    a = new_page("a")
    b = new_page("b")
    open_play(a, created["seats"][0]["url"])
    open_play(b, created["seats"][1]["url"])
    for page, tok in ((a, tokens[0]), (b, tokens[1])):
        page.wait_for_selector("body[data-over='true']")
        page.wait_for_selector("#rematch-button:visible")
        assert page.get_attribute("#replay-link", "href") == f"/replay/{gid}?token={tok}"
    assert b.locator("#rematch-link").count() == 0
    a.click("#rematch-button")  # asking is accepting: a goes to its seat in the rematch
    b.wait_for_selector("#rematch-link")  # pushed over the WebSocket: no reload
    new_id = server.api(f"/api/games/{gid}/rematch")["rematch"]["id"]
    assert new_id != gid
    a.wait_for_url(re.compile(rf"/play/{new_id}\?token="))
    mine_a = a.url.split("token=")[1]
    assert mine_a not in tokens.values()  # a seat of its own in the rematch
    assert b.locator("#rematch-button").is_hidden()
    b.click("#rematch-link")
    b.wait_for_url(re.compile(rf"/play/{new_id}\?token="))
    mine_b = b.url.split("token=")[1]
    assert mine_b not in (*tokens.values(), mine_a)
    b.wait_for_selector("body[data-version='0']")
    assert b.get_attribute("body", "data-over") == "false"
    p = server.api(f"/api/games/{new_id}?token={mine_b}")
    assert p["you"] == 1 and p["mode"] == "casual" and p["version"] == 0
    assert created["seats"][1]["name"] in b.inner_text("#identity")
    # the finished game opened again still offers the rematch, which takes the seat to
    # its own token there again; a spectator may watch it
    open_play(a, created["seats"][0]["url"])
    a.wait_for_selector("#rematch-link")
    a.click("#rematch-link")
    a.wait_for_url(f"**/play/{new_id}?token={mine_a}")
    watcher = new_page("watcher")
    open_play(watcher, server.url + f"/play/{gid}")
    watcher.wait_for_selector("#rematch-link")
    assert watcher.get_attribute("#rematch-link", "href") == f"/play/{new_id}"
    assert watcher.locator("#rematch-button").is_hidden()
