"""The smaller points of issue 36 (item 6), each as a person meets it: a refused name
creates no game (and emoji joined by a zero-width joiner are a name); a 24-character name
with no space fits a phone; bots of one level are told apart in the score table; the
keyboard's place on the board is not the gold of a choice; a seat open in two tabs says
so; thirty quick presses of → in a replay go thirty steps on."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, drive, open_play, tokens_of
from tests.e2e.test_player_names import name_in_lobby


@pytest.mark.timeout(120)
def test_a_refused_name_creates_no_game_and_an_emoji_sequence_is_a_name(
        server: Server, new_page: Callable[..., Any]) -> None:
    page = new_page("names")
    name_in_lobby(page, server, "Ana\u200d")  # a joiner that joins nothing: refused
    expect(page.locator("#player-name-error")).to_contain_text("joiner")
    page.select_option("#game-select", "white-castle")
    page.select_option("#players-select", "1")
    page.click("#create-button")
    expect(page.locator("#create-error")).to_contain_text("Your name")
    page.wait_for_timeout(300)
    assert "/play/" not in page.url and page.locator("#created").is_hidden()
    emoji = "\U0001F469\u200d\U0001F4BB"  # woman technologist: three code points, one sign
    page.fill("#player-name", emoji)
    page.press("#player-name", "Tab")
    expect(page.locator("#player-name-error")).to_be_hidden()
    page.click("#create-button")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-version]")
    expect(page.locator("#identity")).to_contain_text(emoji)


@pytest.mark.timeout(120)
def test_a_long_unbroken_name_fits_a_phone(server: Server,
                                           new_page: Callable[..., Any]) -> None:
    """A 24-character name without a space wraps: the page stays 390 px wide and the score
    table inside its panel."""
    page = new_page("long-name", phone=True)
    name_in_lobby(page, server, "W" * 24)
    page.select_option("#game-select", "white-castle")
    page.select_option("#players-select", "2")
    page.click("#create-button")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#connection.live")
    expect(page.locator("#scores thead")).to_contain_text("W" * 24)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("(b => b.scrollWidth <= b.clientWidth + 1)"
                         "(document.getElementById('scores'))")
    # the phone's decision bar leaves the board most of the screen, and does not say again
    # what the status line says
    if page.locator("#decision-bar").is_visible():
        bar = page.locator("#decision-bar").bounding_box()
        assert bar["height"] <= 0.31 * 844, bar
        status = page.inner_text("#status")
        assert page.inner_text("#dock-text") not in status


@pytest.mark.timeout(180)
def test_bots_of_one_level_are_told_apart_and_two_tabs_of_a_seat_say_so(
        server: Server, new_page: Callable[..., Any]) -> None:
    created = server.create("white-castle", ["human", "normal", "normal"], seed=3)
    url = server.url + created["seats"][0]["link"]
    page = new_page("tabs")
    open_play(page, url)
    heads = [h.strip() for h in page.locator("#scores thead th").all_inner_texts()[1:]]
    assert len(set(heads)) == 3, heads  # "Normal yellow", "Normal red": not alike
    assert "yellow" in heads[1] and "red" in heads[2], heads
    assert heads[0] == "you", heads  # (an unnamed seat of this page: no stray words)
    # the keyboard's place on the board: another colour than a choice's gold
    page.keyboard.press("Tab")
    target = page.locator("#board g.legal[tabindex='0']:has(> .frame)").first
    target.focus()
    stroke = target.evaluate("e => getComputedStyle(e.querySelector(':scope > .frame')).stroke")
    gold = page.evaluate("() => getComputedStyle(document.querySelector("
                         "'#board g.legal:not(:focus) > .frame')).stroke")
    assert stroke != gold and stroke == "rgb(26, 86, 219)", (stroke, gold)
    other = page.context.new_page()
    open_play(other, url)
    for p in (page, other):
        expect(p.locator("#tab-note")).to_contain_text("also open in another tab")
    other.close()


@pytest.mark.timeout(240)
def test_thirty_quick_presses_go_thirty_steps_on_in_a_replay(
        server: Server, new_page: Callable[..., Any]) -> None:
    created = server.create("white-castle", ["human", "random"], seed=9)
    drive(server, created["id"], tokens_of(created), lambda p: p["over"], random.Random(9))
    page = new_page("replay-keys")
    page.goto(f"{server.url}/replay/{created['id']}")
    page.wait_for_selector("#replay-status[data-ready]")
    page.locator("#replay-forward").focus()
    page.locator("body").click(position={"x": 5, "y": 5})
    for _ in range(30):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-step='30']")
    page.wait_for_timeout(300)
    assert page.get_attribute("body", "data-step") == "30"
