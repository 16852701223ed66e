"""The friends' table (issue 36, item 1): Ana types her name in the lobby and creates a
White Castle game for two people and a bot; Bo, in another browser, opens the invite link
she sends him (he never saw the lobby) and types his. Each is named as they typed, to the
end of the game.

Ana's browser keeps only the seat it was given (hers: "your seat", "Go to my seat", her
link marked "you"); the friend's link it holds in the list is not hers: opened there, it
says so and stamps no name on the seat.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, drive, game_id_of, open_play
from tests.e2e.test_player_names import name_in_lobby

SEAT_URL = re.compile(r"/play/[^/?#]+\?token=")


def _seats(server: Server, gid: str) -> list[Any]:
    """Who sits where, as the server has it (names included)."""
    return [s["player"] for s in server.api(f"/api/games/{gid}")["seats"]]


@pytest.mark.timeout(300)
def test_the_friends_table_names_each_player_as_they_typed(
        server: Server, new_page: Callable[..., Any]) -> None:
    ana = new_page("ana")
    name_in_lobby(ana, server, "Ana")
    ana.select_option("#game-select", "white-castle")
    ana.select_option("#players-select", "3")
    for i, kind in enumerate(["human", "human", "random"]):
        ana.select_option(f"#seat-{i}", kind)
    ana.click("#create-button")
    ana.wait_for_selector("#created:not([hidden]) #spectator-link[href^='/play/']")
    gid = game_id_of(ana.get_attribute("#spectator-link", "href"))

    # "Game created": her seat first, marked, with the way to it; the friend's link apart
    expect(ana.locator("#my-seat")).to_contain_text("You play")
    expect(ana.locator("#my-seat")).to_contain_text("Ana (blue)")
    mine = ana.get_attribute("#go-my-seat", "href")
    assert mine and SEAT_URL.search(mine)
    expect(ana.locator("#invite-links li.mine")).to_contain_text("blue (you)")
    expect(ana.locator("#invite-links li.friend")).to_contain_text("yellow — send to a friend")
    friend = server.url + ana.locator("#invite-links li.friend a.invite").get_attribute("href")
    assert _seats(server, gid) == ["Ana", None, "Random bot"]

    # "My games" lists her seat only: the friend's link is not "your seat"
    entry = ana.locator(f"#my-games-list li.my-game[data-game-id='{gid}']")
    expect(entry).to_have_count(1)
    expect(entry.locator("a")).to_contain_text("your seat: blue")

    # the friend's link opened in her browser: said to be theirs; it names nothing
    open_play(ana, friend)
    expect(ana.locator("#friend-note")).to_contain_text("which you made for a friend")
    expect(ana.locator("#name-form")).to_be_hidden()
    ana.wait_for_timeout(500)  # (a name would be stamped at once: there is none to wait for)
    assert _seats(server, gid)[1] is None
    ana.goto(server.url + "/")
    expect(ana.locator(f"#my-games-list li.my-game[data-game-id='{gid}']")).to_have_count(1)

    # Ana goes to her seat
    open_play(ana, server.url + mine)
    expect(ana.locator("#identity")).to_contain_text("Ana (blue, you)")
    expect(ana.locator("#friend-note")).to_be_hidden()

    # Bo opens the link he was sent, never having seen the lobby: asked his name
    bo = new_page("bo")
    open_play(bo, friend)
    form = bo.locator("#name-form")
    expect(form).to_be_visible()
    bo.fill("#name-input", "Bo")
    bo.click("#name-save")
    expect(bo.locator("#identity")).to_contain_text("Bo (yellow, you)")
    expect(form).to_be_hidden()
    assert _seats(server, gid) == ["Ana", "Bo", "Random bot"]
    expect(ana.locator("#scores thead")).to_contain_text("Bo")  # told live

    # a line that names the deciding seat does not name it again ("Ana (blue) chooses …")
    first = server.api(f"/api/games/{gid}")
    if first["to_move"] in (0, 1):
        watcher = bo if first["to_move"] == 0 else ana
        status = watcher.inner_text("#status")
        name = ("Ana", "Bo")[first["to_move"]]
        assert status.count(name) == 1, status

    # to the end of the game (their moves through the API): each named as they typed
    tokens = {0: mine.split("token=")[1], 1: friend.split("token=")[1]}
    drive(server, gid, tokens, lambda p: p["over"], random.Random(36))
    assert _seats(server, gid) == ["Ana", "Bo", "Random bot"]
    for page, me in ((ana, "Ana (blue, you)"), (bo, "Bo (yellow, you)")):
        page.wait_for_function("() => document.body.dataset.over === 'true'", timeout=60000)
        expect(page.locator("#endgame")).to_be_visible()
        scores = page.locator("#result-scores")
        expect(scores).to_contain_text(me)
        expect(scores).to_contain_text("Ana" if me.startswith("Bo") else "Bo")
        assert "Random bot" in scores.inner_text()
