"""The lobby presents each game, like a game portal: a picture, the players, a length, a
pitch and a Help link that opens that game's rules; and where a seat is chosen, each bot
level in plain words first (the catalogue's), with the technical line after it. Page
errors fail the test (the new_page fixture)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server

# A word of each game's own rules that its Help must show (help/*.js).
HELP_WORD = {"white-castle": "bridge", "clansman": "Tadokoro", "pig": "turn total"}
PLAYERS = {"white-castle": ("1–4", "solo"), "clansman": ("4", "unofficial"), "pig": ("2–4",)}


def test_each_game_has_picture_players_length_pitch_and_help(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Both games have a card; its picture loads; players, length and pitch are said; its
    Help link opens that game's rules in short and glossary, and closes again."""
    catalog = server.api("/api/catalog")
    page = new_page("lobby-presents")
    page.goto(server.url + "/")
    for entry in catalog["games"]:
        name, title = entry["name"], entry["title"]
        card = page.locator(f".game-card[data-game='{name}']")
        expect(card).to_be_visible()
        expect(card.locator("h3")).to_have_text(title)
        img = card.locator("img.game-picture")
        expect(img).to_be_visible()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                               arg=img.element_handle())
        players = card.locator(".game-players").inner_text()
        assert all(w in players for w in PLAYERS[name]), players
        length = card.locator(".game-length").inner_text()
        assert "decisions per player" in length, length
        pitch = card.locator(".pitch").inner_text()
        assert len(pitch) > 80, pitch

        card.locator("a.game-help").click()
        dialog = page.locator("dialog#help")
        expect(dialog).to_be_visible()
        expect(page.locator("#help-title")).to_have_text(f"{title}: help")
        expect(page.locator("#help-body")).to_have_attribute("data-game", name)
        body = page.locator("#help-body").inner_text()
        assert "Rules in short" in body and "Glossary" in body, body[:300]
        assert HELP_WORD[name] in body, body[:300]
        page.click("#help-close")
        expect(dialog).to_be_hidden()
        expect(page).not_to_have_url(re.compile("#help"))  # closing clears the address
    assert "90 minutes" in page.locator(
        ".game-card[data-game='clansman'] .game-length").inner_text()


def test_a_help_link_opens_the_help_when_followed(server: Server,
                                                  new_page: Callable[..., Any]) -> None:
    """The Help link is a real address: opened directly, the lobby shows that Help."""
    page = new_page("lobby-help-link")
    page.goto(server.url + "/#help-clansman")
    expect(page.locator("dialog#help")).to_be_visible()
    expect(page.locator("#help-body")).to_have_attribute("data-game", "clansman")


def test_the_card_button_chooses_the_game_in_the_form(server: Server,
                                                      new_page: Callable[..., Any]) -> None:
    """A card's New game button selects its game in the New game form."""
    page = new_page("lobby-choose")
    page.goto(server.url + "/")
    page.locator(".game-card[data-game='clansman'] button.choose").click()
    expect(page.locator("#game-select")).to_have_value("clansman")
    expect(page.locator("#players-select")).to_have_value("4")


def test_each_level_is_said_in_plain_words_where_a_seat_is_chosen(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Choosing each bot level for a seat shows its plain words (the catalogue's), then the
    technical line; the plain words carry no search jargon."""
    catalog = server.api("/api/catalog")
    page = new_page("lobby-level-words")
    page.goto(server.url + "/")
    for entry in catalog["games"]:
        page.wait_for_selector(f"#game-select option[value='{entry['name']}']",
                               state="attached")
        page.select_option("#game-select", entry["name"])
        for level, words in entry["level_words"].items():
            page.select_option("#seat-1", level)
            expect(page.locator("#seat-1-words")).to_have_text(words)
            expect(page.locator("#seat-1-help")).to_have_text(entry["levels"][level])
            assert "MCTS" not in words and "greedy" not in words, words
        words = page.locator("#seat-1-words").inner_text()
        assert words.startswith("the strongest"), words
    seats = {s["kind"]: s for s in catalog["seats"]}
    page.select_option("#seat-1", "random")
    expect(page.locator("#seat-1-words")).to_have_text(seats["random"]["words"])
    expect(page.locator("#seat-0-words")).to_have_text(seats["human"]["words"])
