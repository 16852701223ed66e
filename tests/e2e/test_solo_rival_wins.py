"""A solo White Castle game that the Tokugawa rival wins, played in the browser to its end.

The rival scores but has no seat: the end of such a game once left a blank page (the
status looked the winner up among the seats), on reload and for spectators too.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import (
    Server,
    check_final_scores,
    open_play,
    play_to_end,
    shot,
)


def _final_table_names_the_rival(page: Any, server: Server, game_id: str) -> None:
    """The final table (every category, a named rival column) and the status naming the
    rival as the winner."""
    final = check_final_scores(page, server, game_id)
    assert final["players"] == 1 and len(final["scores"]) == 2
    assert final["scored"][1] == {"index": 1, "name": "tokugawa", "seat": None,
                                  "kind": "rival"}
    assert final["winners"] == [1], "this seed's game is won by the rival"
    heads = page.locator("table#final-scores thead th").all_inner_texts()
    assert "Tokugawa (rival)" in heads[2], heads  # the rival by its name, capitalised
    assert "Tokugawa" in page.inner_text("#status")


@pytest.mark.timeout(300)
def test_solo_game_won_by_the_rival_ends_on_the_final_table(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Created in the lobby at Hard, played by clicks on the board alone (every choice,
    the rival's rooms and gardens included, has its place there) to the end: the final
    score table shows with a column for the rival, and so does a reload and the spectator
    link."""
    page = new_page("solo")
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='white-castle']", state="attached")
    page.select_option("#players-select", "1")
    page.select_option("#opt-difficulty", "hard")
    page.fill("#seed-input", "5150")
    page.click("#create-button")  # a solo game: the lobby goes straight to the seat
    page.wait_for_url(re.compile(r"/play/[^?]+\?token="))
    page.wait_for_selector("#connection.live")
    game_id = page.url.split("/play/", 1)[1].split("?", 1)[0]
    spectator = f"{server.url}/play/{game_id}"
    clicks = play_to_end(page, random.Random(5150), board_only=True)
    assert clicks.listed == 0 and not clicks.board_failures, clicks
    _final_table_names_the_rival(page, server, game_id)
    shot(page, "solo-rival-wins-final.png", top=True)
    page.reload()
    page.wait_for_selector("body[data-over='true']")
    _final_table_names_the_rival(page, server, game_id)
    watcher = new_page("solo-spectator")
    open_play(watcher, spectator)
    _final_table_names_the_rival(watcher, server, game_id)
