"""Whole games in the browser: created in the lobby, played by clicking to the final score."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import (
    Server,
    check_final_scores,
    create_in_lobby,
    play_to_end,
    shot,
    wait_my_turn,
)


def _play_from_lobby(page: Any, server: Server, game: str, seats: list[str], seed: int,
                     midgame_png: str, board_only: bool = False) -> tuple[Any, Any]:
    """Create the game in the lobby (which goes straight to seat 0), play to the end."""
    created = create_in_lobby(page, server, game, seats, seed)  # one human: lands on it
    page.wait_for_url(re.compile(r"/play/" + re.escape(created.game_id) + r"\?token="))
    page.wait_for_selector("#connection.live")
    page.wait_for_selector("body[data-version]")
    assert "(you)" in page.inner_text("#identity")
    bots = page.locator("#scores thead th[title$='(bot random)']")
    assert bots.count() == seats.count("random")

    def midgame(n: int) -> None:
        if n == 8 and wait_my_turn(page) == "turn":
            shot(page, midgame_png, top=True)

    clicks = play_to_end(page, random.Random(seed), on_decision=midgame, board_only=board_only)
    final = check_final_scores(page, server, created.game_id)
    return clicks, final


def _lobby_lists_finished(page: Any, server: Server, game_id: str) -> None:
    """Back in the lobby, "my games" lists the game as finished."""
    page.goto(server.url + "/")
    entry = page.locator(f"#my-games-list li.my-game[data-game-id='{game_id}']")
    expect(entry).to_contain_text("finished")


def _check_finish(page: Any, server: Server, clicks: Any, final: dict[str, Any],
                  name: str) -> None:
    """Screenshots of the end; the lobby lists the game as finished; at least one choice
    was made on the board and every board element marked legal acted."""
    shot(page, f"{name}-final.png", top=True)
    shot(page, f"{name}-final-full.png", full_page=True)
    _lobby_lists_finished(page, server, final["id"])
    assert clicks.board >= 1, f"no choice was made on the board: {clicks}"
    assert not clicks.board_failures, "board elements marked legal did not act:\n" + \
        "\n".join(clicks.board_failures)


@pytest.mark.timeout(300)
def test_white_castle_three_players_on_the_board_alone(server: Server,
                                                       new_page: Callable[..., Any]) -> None:
    """The lobby creates a 3-player White Castle game with two random bots; the invite link
    plays it to the final score table and its winner by clicks on the board alone: every
    choice of every decision has its place on the board, so the list is never needed."""
    page = new_page("wc-blue")
    clicks, final = _play_from_lobby(page, server, "white-castle",
                                     ["human", "random", "random"], seed=20251,
                                     midgame_png="wc-midgame.png", board_only=True)
    _check_finish(page, server, clicks, final, "wc-3p")
    assert final["players"] == 3 and clicks.listed == 0, clicks


@pytest.mark.timeout(300)
def test_clansman_four_players_against_three_bots(server: Server,
                                                  new_page: Callable[..., Any]) -> None:
    """The same for a 4-player I, Clansman game with three random bots."""
    page = new_page("clansman-seat0")
    clicks, final = _play_from_lobby(page, server, "clansman",
                                     ["human", "random", "random", "random"],
                                     seed=7713, midgame_png="clansman-midgame.png")
    _check_finish(page, server, clicks, final, "clansman-4p")
    assert final["players"] == 4
