"""Players' names in the browser: a name typed once in the lobby is kept by the browser,
carried onto every seat it takes, and shown wherever a seat is named — the seat list,
the turn order, the scores, the status line and the tab's title, the log.

Two people in two browser contexts: Alice creates a public game, Bob joins it from the
Open games list; each page names both. A hostile name is shown as the text it is.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, drive, game_id_of, shot, version, wait_my_turn

HOSTILE = "<img src=x onerror=f()>"  # 23 characters: within a name's 24
SEAT_URL = re.compile(r"/play/[^/?#]+\?token=")


def name_in_lobby(page: Any, server: Server, name: str) -> None:
    """Open the lobby and type the player's name in its field (kept as it is typed)."""
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='white-castle']", state="attached")
    page.fill("#player-name", name)
    page.press("#player-name", "Tab")


@pytest.mark.timeout(240)
def test_names_typed_once_show_on_seats_turns_and_the_log_of_both_players(
        server: Server, new_page: Callable[..., Any]) -> None:
    alice = new_page("alice")
    name_in_lobby(alice, server, "  Alice ")
    alice.reload()
    alice.wait_for_selector("#game-select option[value='white-castle']", state="attached")
    assert alice.input_value("#player-name") == "Alice"  # kept by the browser, stripped
    alice.fill("#player-name", "x" * 25)  # too long: said so, and the kept name stays
    alice.press("#player-name", "Tab")
    expect(alice.locator("#player-name-error")).to_contain_text("at most 24")
    alice.fill("#player-name", "Alice")
    alice.press("#player-name", "Tab")
    expect(alice.locator("#player-name-error")).to_be_hidden()

    alice.select_option("#game-select", "white-castle")
    alice.select_option("#players-select", "2")
    alice.select_option("#seat-0", "human")
    alice.select_option("#seat-1", "human")
    alice.check("#public-check")
    alice.click("#create-button")
    alice.wait_for_selector("#created:not([hidden]) #spectator-link[href^='/play/']")
    gid = game_id_of(alice.get_attribute("#spectator-link", "href"))
    assert [s["player"] for s in server.api(f"/api/games/{gid}")["seats"]] == ["Alice", None]
    alice.click("#invite-links a.invite[data-seat='0']")
    alice.wait_for_url(SEAT_URL)
    alice.wait_for_selector("#connection.live")
    assert "Alice (blue, you)" in alice.inner_text("#identity")

    bob = new_page("bob")
    name_in_lobby(bob, server, "Bob")
    entry = bob.locator(f"#open-games-list li.open-game[data-game-id='{gid}']")
    entry.wait_for()
    entry.locator("button.join-open").click()
    bob.wait_for_url(SEAT_URL)
    bob.wait_for_selector("#connection.live")
    expect(bob.locator("#identity")).to_contain_text("Bob (yellow, you)")

    for page in (alice, bob):  # Alice's page is told Bob's name live, without a move
        for where in ("#scores thead", "#board .wc-order"):
            expect(page.locator(where)).to_contain_text("Alice")
            expect(page.locator(where)).to_contain_text("Bob")
    expect(alice.locator("#board [data-area='domain-1'] .wc-area-title")).to_contain_text(
        "Bob (yellow)")

    names = {0: "Alice", 1: "Bob"}
    first = server.api(f"/api/games/{gid}")["to_move"]
    mover, waiter = (alice, bob) if first == 0 else (bob, alice)
    assert wait_my_turn(mover) == "turn"
    assert mover.title() == "Your turn — kamon"
    expect(waiter).to_have_title(f"{names[first]}'s turn — kamon")
    expect(waiter.locator("#status")).to_contain_text(f"{names[first]} (")
    # the deciding seat named once: "Bob (yellow) chooses a starting pair"
    expect(waiter.locator("#status")).to_contain_text(
        re.compile(rf"{names[first]} \(\w+\) chooses a starting pair"))
    expect(waiter.locator("#board .wc-now")).to_contain_text(f"Now: {names[first]} chooses")

    before = version(mover)
    mover.locator("#actions button.action").first.click()
    for page in (alice, bob):
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        lines = page.locator("#log li .log-t").all_inner_texts()
        assert any(line.startswith(f"{names[first]} takes starting pair") for line in lines), \
            lines
        assert not any(line.startswith(("blue ", "yellow ")) for line in lines), lines
    now = server.api(f"/api/games/{gid}")["to_move"]
    other = alice if now == 0 else bob
    expect(other).to_have_title("Your turn — kamon")
    shot(alice, "player-names-alice.png", top=True)
    shot(bob, "player-names-bob.png", top=True)

    for page in (alice, bob):  # the names are the server's: a reload shows them again
        page.reload()
        page.wait_for_selector("#connection.live")
        expect(page.locator("#scores thead")).to_contain_text("Alice")
        expect(page.locator("#scores thead")).to_contain_text("Bob")
    assert "Alice (blue, you)" in alice.inner_text("#identity")
    assert "Bob (yellow, you)" in bob.inner_text("#identity")
    bob.goto(server.url + "/")
    bob.wait_for_selector("#game-select option[value='white-castle']", state="attached")
    assert bob.input_value("#player-name") == "Bob"
    expect(bob.locator(f"#my-games-list li[data-game-id='{gid}']")).to_contain_text(
        "yellow Bob you")


@pytest.mark.timeout(120)
def test_a_hostile_name_is_shown_as_text(server: Server,
                                         new_page: Callable[..., Any]) -> None:
    page = new_page("hostile")
    name_in_lobby(page, server, HOSTILE)
    page.select_option("#game-select", "white-castle")
    page.select_option("#players-select", "2")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "random")
    page.click("#create-button")
    page.wait_for_url(SEAT_URL)  # one human seat: straight to it
    page.wait_for_selector("#connection.live")
    assert wait_my_turn(page) == "turn"
    before = version(page)
    page.locator("#actions button.action").first.click()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    expect(page.locator("#identity")).to_have_text(re.compile(re.escape(HOSTILE)))
    expect(page.locator("#scores thead")).to_contain_text(HOSTILE)
    expect(page.locator("#board .wc-order")).to_contain_text(HOSTILE)
    expect(page.locator("#scores thead")).to_contain_text("Random")  # the bot's level
    expect(page.locator("#scores thead th[title^='Random bot']")).to_have_count(1)
    lines = page.locator("#log li .log-t").all_inner_texts()
    assert any(line.startswith(f"{HOSTILE} ") for line in lines), lines
    # nothing of it became markup: no image was made, no handler ran (a page error, or
    # the CSP's refusal in the console, would fail the test)
    assert page.locator("img[src='x']").count() == 0
    assert page.evaluate("() => document.querySelectorAll('[onerror]').length") == 0


@pytest.mark.timeout(240)
def test_a_finished_games_replay_names_its_players(server: Server,
                                                   new_page: Callable[..., Any]) -> None:
    """The replay of a finished game says who played: the status and the scores name the
    player by the name she gave, the bot by its level, and the move line uses the name."""
    made = server.api("/api/games", {"game": "white-castle", "players": 2, "seed": 31,
                                     "seats": ["human", "random"], "name": "Chiyo"})
    token = made["seats"][0]["token"]
    drive(server, made["id"], {0: token}, lambda p: bool(p["over"]), random.Random(31))
    page = new_page("replay-names")
    page.goto(f"{server.url}/replay/{made['id']}")
    page.wait_for_selector("#replay-status[data-ready]")
    page.click("#replay-end")
    expect(page.locator("#replay-status")).to_contain_text("Game over")
    expect(page.locator("#scores")).to_contain_text("Chiyo")
    expect(page.locator("#scores")).to_contain_text("Random bot")
    page.click("#replay-start")
    said = []
    for _ in range(6):  # the first decisions: one of them is Chiyo's, named as she is
        before = page.inner_text("#replay-step")
        page.click("#replay-forward")
        expect(page.locator("#replay-step")).not_to_have_text(before)
        said.append(page.inner_text("#replay-move") + " | " + page.inner_text("#replay-status"))
    assert any(line.startswith("Chiyo") for line in said), said
    assert not any("blue" in line for line in said), said  # her colour never stands for her
