"""The flow of a game around the board, held to Board Game Arena's standard: a solo game
starts at once at the player's seat; the end says who won, every clan's score and the
next steps, and a rematch takes each player who accepts into the new game; skipping a
reward is never the first or most prominent choice; the About panel follows the game; a
wrong link says what is wrong and leads back to the lobby; the tab says whose turn it is,
and undo shows only when it can be used.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import (
    Server,
    _with_csp,
    board_target,
    drive,
    open_play,
    tokens_of,
    version,
    wait_my_turn,
    wait_version_after,
)
from tests.e2e.test_replay import finish

SEAT_URL = re.compile(r"/play/[^/?#]+\?token=")


def test_a_solo_game_from_the_lobby_starts_at_the_players_seat(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Creating a solo game takes the player straight into it, at their seat: no invite
    link to their own seat; the tab says it is their turn."""
    page = new_page("solo")
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='white-castle']", state="attached")
    page.select_option("#game-select", "white-castle")
    page.select_option("#players-select", "1")
    page.click("#create-button")
    page.wait_for_url(SEAT_URL)
    page.wait_for_selector("body[data-version]")
    assert "(you)" in page.inner_text("#identity")
    assert page.locator("#invite-links a.invite").count() == 0
    wait_my_turn(page)
    assert page.title() == "Your turn — kamon"


@pytest.mark.timeout(120)
def test_the_end_shows_the_result_and_a_rematch_takes_both_players_into_it(
        server: Server, new_page: Callable[..., Any]) -> None:
    """The game-over panel names the winner, every clan's score and the next steps
    (Replay, Rematch, Back to the lobby); a rematch asked by one player and accepted by
    the other moves both pages to their seats in the new game."""
    created = server.create("white-castle", ["human", "human"], seed=4242)
    gid = created["id"]
    tokens = tokens_of(created)
    final = finish(server, gid, tokens, 4242)
    a = new_page("a")
    b = new_page("b")
    open_play(a, created["seats"][0]["url"])
    open_play(b, created["seats"][1]["url"])
    for page in (a, b):
        page.wait_for_selector("#endgame:visible")
        result = page.inner_text("#result")
        for w in final["winners"]:
            assert final["scored"][w]["name"] in result, result
        items = page.locator("#result-scores li")
        assert items.count() == len(final["scored"])
        shown = {page.locator("#result-scores li").nth(i).get_attribute("data-party"):
                 page.locator("#result-scores li").nth(i).inner_text()
                 for i in range(items.count())}
        for party in final["scored"]:
            assert str(final["scores"][party["index"]]["total"]) in shown[party["name"]]
        for step in ("#replay-link", "#rematch-button", "#lobby-link"):
            assert page.locator(step).is_visible(), step
        assert page.get_attribute("#lobby-link", "href") == "/"
        assert page.title() == "Game over — kamon"
        assert "Your choice" not in page.inner_text("#explain")
        assert "over" in page.inner_text("#explain")
    a.click("#rematch-button")
    b.wait_for_selector("#rematch-link")  # offered live
    new_id = server.api(f"/api/games/{gid}/rematch")["rematch"]["id"]
    a.wait_for_url(re.compile(rf"/play/{new_id}\?token="))
    b.click("#rematch-link")  # accepted: the seat's own token in the rematch
    b.wait_for_url(re.compile(rf"/play/{new_id}\?token="))
    for seat, page in ((0, a), (1, b)):
        page.wait_for_selector("body[data-version='0']")
        assert created["seats"][seat]["name"] in page.inner_text("#identity")


def _skip_position(p: dict[str, Any]) -> bool:
    """Seat 0 decides between a reward and skipping it."""
    notes = [a["notation"] for a in p.get("legal", [])]
    plain = [n for n in notes if not n.startswith("exchange")]
    return p.get("you") == 0 and p["to_move"] == 0 and "done" in notes and len(plain) >= 2


def test_skip_is_the_last_choice_and_never_focused_first(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Where a reward may be skipped, "done" is the last listed choice, styled as
    secondary; the board's skip is out of the keyboard order, so neither the page's focus
    nor the first Tab onto a choice lands on it."""
    created = server.create("white-castle", ["human", "random"], seed=31)
    tokens = tokens_of(created)
    drive(server, created["id"], tokens, _skip_position, random.Random(31))
    page = new_page("skip")
    open_play(page, created["seats"][0]["url"])
    wait_my_turn(page)
    notes = page.locator("#actions button.action").evaluate_all(
        "bs => bs.map(b => [b.dataset.notation, b.classList.contains('skip')])")
    assert notes[-1] == ["done", True], notes
    assert not any(skip for _, skip in notes[:-1]), notes
    for node in page.locator("#board .legal.skip").all():
        assert node.get_attribute("tabindex") == "-1"
    assert not page.evaluate("() => document.activeElement.matches('.skip')")
    for _ in range(40):  # Tab onto the first choice
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('.legal, .action')"):
            break
    else:
        raise AssertionError("Tab never reached a choice")
    assert not page.evaluate("() => document.activeElement.matches('.skip')")


def test_the_about_panel_follows_the_game(server: Server,
                                          new_page: Callable[..., Any]) -> None:
    """After a move the About panel no longer explains the choice just made: it says
    what is being decided now."""
    created = server.create("white-castle", ["human", "random"], seed=8)
    page = new_page("about")
    open_play(page, created["seats"][0]["url"])
    wait_my_turn(page)
    assert "Your decision" in page.inner_text("#explain")
    action = int(page.locator("#actions button.action").first.get_attribute("data-action-id"))
    target = board_target(page, action)
    target.scroll_into_view_if_needed()
    target.hover()
    hovered = page.inner_text("#explain")
    assert "Your choice" in hovered, hovered
    before = version(page)
    page.click(f"#actions button.action[data-action-id='{action}']")
    wait_version_after(page, before)
    now = page.inner_text("#explain")
    assert now != hovered and "Your choice" not in now, now
    assert "decision" in now or "deciding" in now or "over" in now, now


def test_a_wrong_link_says_what_is_wrong_and_leads_to_the_lobby(
        server: Server, browser: Any) -> None:
    """An unknown game and a seat link with a wrong token each show their message and a
    link back to the lobby, not an empty board. (Own context: the refused reads are
    logged by the browser as failed loads, which is what this test wants.)"""
    created = server.create("white-castle", ["human", "random"], seed=3)
    ctx = browser.new_context()
    ctx.route("**/*", _with_csp)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        cases = ((f"/play/no-such-game-{created['id']}", "This game does not exist"),
                 (f"/play/{created['id']}?token=not-a-seat", "This seat link is not valid"))
        for path, words in cases:
            page.goto(server.url + path)
            page.wait_for_selector("#page-error:visible")
            assert words in page.inner_text("#page-error-title")
            assert words in page.title()
            assert not page.locator("#board").is_visible()
            assert page.get_attribute("#page-error-lobby", "href") == "/"
        page.click("#page-error-lobby")
        page.wait_for_url(server.url + "/")
    finally:
        ctx.close()
    assert not errors, errors


def test_the_tab_names_whose_turn_it_is_and_undo_shows_only_when_usable(
        server: Server, new_page: Callable[..., Any]) -> None:
    """The waiting player's tab names the player to move; the player to move sees "Your
    turn"; undo is hidden before any move and on the waiting player's page."""
    created = server.create("white-castle", ["human", "human"], seed=12)
    names = [s["name"] for s in created["seats"]]
    a = new_page("a")
    b = new_page("b")
    open_play(a, created["seats"][0]["url"])
    open_play(b, created["seats"][1]["url"])
    first = server.api(f"/api/games/{created['id']}")["to_move"]
    mover, waiter = (a, b) if first == 0 else (b, a)
    wait_my_turn(mover)
    assert mover.title() == "Your turn — kamon"
    assert waiter.title() == f"{names[first].capitalize()}'s turn — kamon"
    for page in (a, b):
        assert not page.locator("#undo").is_visible()
    assert "Not your decision now" in waiter.inner_text("#actions")
