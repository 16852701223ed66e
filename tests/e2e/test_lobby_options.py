"""The lobby's options reach the game: solo difficulty, the Expert game and its Emperor
side, and the unofficial small-table variant that fewer players require."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from tests.e2e.conftest import Server, create_in_lobby, open_play


def _payload(srv: Server, url: str) -> dict[str, Any]:
    """The server's payload for an invite link."""
    gid_token = url.split("/play/", 1)[1]
    gid, _, token = gid_token.partition("?token=")
    return dict(httpx.get(f"{srv.url}/api/games/{gid}", params={"token": token}).json())


def test_solo_difficulty_and_expert_options_are_sent(server: Server,
                                                     new_page: Callable[..., Any]) -> None:
    page = new_page("lobby-options")
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='white-castle']", state="attached")
    page.select_option("#players-select", "1")
    page.select_option("#opt-difficulty", "hard")
    page.fill("#seed-input", "5")
    page.click("#create-button")
    page.wait_for_selector("#invite-links a.invite")
    solo = server.url + page.get_attribute("#invite-links a.invite", "href")
    p = _payload(server, solo)
    assert p["options"] == {"difficulty": "hard"} and p["view"]["rival"] is not None
    open_play(page, solo)
    page.wait_for_selector("#board svg")
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='clansman']", state="attached")
    page.select_option("#game-select", "clansman")
    page.locator("#opt-expert").set_checked(True)
    page.select_option("#opt-emperor_side", "B")
    page.select_option("#seat-1", "random")
    page.click("#create-button")
    page.wait_for_selector("#invite-links a.invite")
    first = server.url + page.get_attribute("#invite-links a.invite", "href")
    assert _payload(server, first)["options"] == {"expert": True, "emperor_side": "B"}


def test_three_player_clansman_uses_the_small_table_variant(
        server: Server, new_page: Callable[..., Any]) -> None:
    page = new_page("lobby-variant")
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='clansman']", state="attached")
    page.select_option("#game-select", "clansman")
    assert "unofficial" in page.inner_text("#players-select option[value='3']")
    page.select_option("#players-select", "3")
    assert page.is_disabled("#opt-variant")
    assert page.input_value("#opt-variant") == "small-table"
    created = create_in_lobby(page, server, "clansman", ["human", "random", "random"], 9)
    p = _payload(server, created.invites[0])
    assert p["players"] == 3 and p["options"]["variant"] == "small-table"
