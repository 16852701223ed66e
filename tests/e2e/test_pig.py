"""Pig, the example game added from its folder alone, in the browser: the lobby presents it
as an example game and sets it up with its own option (the target), its board draws the
choices, and a game against a bot is played to the final score table by clicking the
board's Roll and Hold buttons alone."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, check_final_scores, game_id_of, play_to_end, shot


@pytest.mark.timeout(300)
def test_pig_from_the_lobby_to_the_final_scores_on_the_board(
        server: Server, new_page: Callable[..., Any]) -> None:
    """The lobby's card calls Pig an example game; a 2-player game to 20 points against
    an easy bot, set up in the lobby's form, plays to its end on the board alone and shows
    the scores and the winner as the server has them."""
    page = new_page("pig")
    page.goto(server.url + "/")
    card = page.locator(".game-card[data-game='pig']")
    expect(card).to_be_visible()
    expect(card.locator(".pitch")).to_contain_text("example game")
    page.wait_for_selector("#game-select option[value='pig']", state="attached")
    page.select_option("#game-select", "pig")
    page.select_option("#players-select", "2")
    page.select_option("#seat-1", "easy")
    expect(page.locator("#opt-points_to_win option")).to_have_count(4)
    page.select_option("#opt-points_to_win", "20")
    page.fill("#seed-input", "7")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/play/[^/?#]+\?token="))  # one human seat: straight to it
    gid = game_id_of(page.url)
    token = page.url.split("token=", 1)[1]
    payload = httpx.get(f"{server.url}/api/games/{gid}", params={"token": token}).json()
    assert payload["game"] == "pig" and payload["options"] == {"points_to_win": 20}
    page.wait_for_selector("#connection.live")
    page.wait_for_selector("#board .pig-board")
    expect(page.locator("#board .pig-goal")).to_have_text("First to 20 points wins.")
    clicks = play_to_end(page, random.Random(7), board_only=True)
    shot(page, "pig-final.png", top=True)
    final = check_final_scores(page, server, gid)
    assert clicks.board >= 2 and clicks.listed == 0 and not clicks.board_failures, clicks
    assert max(s["total"] for s in final["scores"]) >= 20
    winner = final["winners"][0]
    expect(page.locator(f"#board .pig-seat[data-seat='{winner}']")).to_have_class(
        re.compile("pig-winner"))
