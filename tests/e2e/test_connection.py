"""An honest connection indicator (issue 36, item 4): chromium's network emulation cuts the
page off for a few seconds during a bot's turn; the heartbeat notices within 5 s (the dot
red, "reconnecting…"), and once the network is back the page reconnects and shows the
position the server reached meanwhile. A choice made while cut off is refused beside the
choices at once, and the message goes when the connection is back.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, drive, open_play, tokens_of, version, wait_my_turn


@pytest.fixture(scope="module")
def slow_bots(server_factory: Callable[..., Server]) -> Server:
    """A server whose bots take a second over each decision (a bot's turn lasts)."""
    return server_factory(bot_delay=1.0)


@pytest.mark.timeout(240)
def test_offline_during_a_bots_turn_turns_the_dot_red_and_recovers(
        slow_bots: Server, new_page: Callable[..., Any]) -> None:
    created = slow_bots.create("white-castle", ["human", "easy"], seed=5)
    gid = created["id"]
    tokens = tokens_of(created)
    page = new_page("offline")
    open_play(page, slow_bots.url + created["seats"][0]["link"])
    # the bot's turn: the human's choices made through the API until the bot is to move
    drive(slow_bots, gid, tokens, lambda p: p["to_move"] == 1, random.Random(5))
    before = slow_bots.api(f"/api/games/{gid}")["version"]
    page.context.set_offline(True)
    page.wait_for_selector("#connection.lost", timeout=5000)
    expect(page.locator("#connection")).to_contain_text("reconnecting")
    # the server goes on without the page (the bot moves)
    deadline = page.evaluate("performance.now()") + 20000
    while slow_bots.api(f"/api/games/{gid}")["version"] <= before:
        assert page.evaluate("performance.now()") < deadline, "the bot did not move"
        page.wait_for_timeout(200)
    assert page.locator("#connection.lost").count() == 1  # still down while offline
    page.context.set_offline(False)
    page.wait_for_selector("#connection.live", timeout=15000)
    expect(page.locator("#connection")).not_to_contain_text("reconnecting")
    # the page catches up with the server (what it missed is read again)
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v",
        arg=slow_bots.api(f"/api/games/{gid}")["version"], timeout=15000)

    # a choice made while cut off: said beside the choices at once, gone once back
    assert wait_my_turn(page, 60000) == "turn"
    page.context.set_offline(True)
    page.wait_for_selector("#connection.lost", timeout=5000)
    at = version(page)
    page.locator("#actions button.action").first.click()
    expect(page.locator("#choice-error")).to_contain_text("cannot be reached", timeout=5000)
    assert version(page) == at
    page.context.set_offline(False)
    page.wait_for_selector("#connection.live", timeout=15000)
    expect(page.locator("#choice-error")).to_have_text("")
