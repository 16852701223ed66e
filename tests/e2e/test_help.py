"""Rules help in the page: the top bar's Help opens each game's rules in short, the glossary
of the marks and terms on the board, and for The White Castle a first-game walkthrough of
the first three decisions that shows where each one is made."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, open_play, wait_my_turn


def _open_help(page: Any) -> None:
    """Open the help panel from the top bar."""
    page.click("#help-button")
    page.wait_for_selector("#help[open]")


@pytest.mark.timeout(120)
def test_help_has_rules_glossary_and_a_first_game_walkthrough(
        server: Server, new_page: Callable[..., Any]) -> None:
    """The White Castle's help: the rules in short, a glossary naming the board's marks
    (choice highlight, reconstructed mark, seals, lantern), and three walkthrough steps,
    each of which closes the help and brings its part of the board into view, marked."""
    created = server.create("white-castle", ["human", "random", "random"], seed=5)
    page = new_page("help-wc")
    open_play(page, created["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    _open_help(page)
    help_text = page.inner_text("#help")
    for heading in ("Rules in short", "Glossary", "Your first game"):
        assert heading in help_text, heading
    glossary = page.locator("#help .glossary dt").all_inner_texts()
    assert len(glossary) >= 10, glossary
    assert page.locator("#help .glossary .recon-mark").count() == 1
    assert page.locator("#help .glossary .legal-sample").count() == 1
    for term in ("Daimyo seal", "Lantern", "Passage of Time", "Clan Points"):
        assert any(term.lower() in g.lower() for g in glossary), term
    steps = page.locator("#help .walkthrough > li")
    assert steps.count() == 3
    for i in range(3):
        if i:
            _open_help(page)
        step = steps.nth(i)
        area = step.get_attribute("data-area")
        assert area, "a step names the part of the board it is about"
        step.locator("button.show-me").click()
        page.wait_for_selector("#help:not([open])", state="attached")
        region = page.locator(f"#board [data-area='{area}']").first
        page.wait_for_function(
            """a => { const e = document.querySelector(`#board [data-area='${a}']`);
                      const r = e.getBoundingClientRect();
                      return e.classList.contains('tour') && r.top < innerHeight && r.bottom > 0; }""",
            arg=area, timeout=5000)
        assert region.is_visible()
    page.keyboard.press("Escape")


@pytest.mark.timeout(90)
def test_help_for_i_clansman_has_its_own_rules_and_glossary(
        server: Server, new_page: Callable[..., Any]) -> None:
    """I, Clansman's help speaks of its own game (generations, daughters, Tadokoro), shows
    goods as the board draws them (a count beside the good's picture) and closes with
    Escape."""
    created = server.create("clansman", ["human", "random", "random", "random"], seed=5)
    page = new_page("help-clansman")
    open_play(page, created["seats"][0]["url"])
    _open_help(page)
    text = page.inner_text("#help")
    for word in ("daughter", "Tadokoro", "Supply", "Glossary"):
        assert word in text, word
    assert "Daimyo" not in text
    goods = page.locator("#help .glossary dt", has_text="Goods")
    assert goods.locator("svg[aria-label='Worker: 2'] .cm-tile").count() == 1
    assert "chips" not in text  # the old letter codes ("2W, 1So") are gone
    page.keyboard.press("Escape")
    page.wait_for_selector("#help:not([open])", state="attached")


# Each game's rules sections in its Help (help/*.js RULES), each beside a diagram.
SECTIONS = {"white-castle": 7, "clansman": 5}
DIAGRAMS_JS = """() => [...document.querySelectorAll('#help-body .help-part')].map(part => ({
  topic: part.dataset.topic,
  svg: part.querySelectorAll('svg.help-diagram').length,
  title: part.querySelector('svg.help-diagram')?.getAttribute('aria-label') || '',
  labels: [...part.querySelectorAll('svg.help-diagram .hd-part[data-part]')]
    .map(g => [g.dataset.part, g.querySelector('text')?.textContent || '']),
  width: part.querySelector('svg.help-diagram')?.getBoundingClientRect().width || 0,
}))"""


def _check_diagrams(page: Any, game: str) -> list[dict[str, Any]]:
    """Every rules section of the open Help has one drawn SVG diagram with labelled parts
    (each part's label is the words of its <text>)."""
    parts = page.evaluate(DIAGRAMS_JS)
    assert len(parts) == SECTIONS[game], [p["topic"] for p in parts]
    for part in parts:
        assert part["svg"] == 1, part["topic"]
        assert part["title"], part["topic"]
        assert part["width"] > 100, part   # drawn at a readable size
        assert len(part["labels"]) >= 2, part
        for name, text in part["labels"]:
            assert name and text.startswith(name), (part["topic"], name, text)
    return list(parts)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("game,area,part", [
    ("white-castle", "castle", "Castle"),
    ("clansman", "centre", "Centre"),
])
def test_each_help_section_has_a_diagram_and_shows_its_parts_on_the_board(
        server: Server, new_page: Callable[..., Any], game: str, area: str, part: str,
        phone: bool) -> None:
    """On a play page, each rules section sits beside a labelled SVG diagram of its board
    part, with "Show on the board" buttons: one closes the Help and rings that part of the
    board (in view, marked with the tour class)."""
    seats = ["human", "random"] if game == "white-castle" else ["human", "random", "random",
                                                                 "random"]
    created = server.create(game, seats, seed=5)
    page = new_page(f"help-diagrams-{game}", phone=phone)
    open_play(page, created["seats"][0]["url"])
    _open_help(page)
    _check_diagrams(page, game)
    shows = page.locator("#help-body button.show-on-board")
    assert shows.count() >= SECTIONS[game], "a Show on the board button per section at least"
    enabled = [b for b in shows.all() if b.is_enabled()]
    assert len(enabled) >= 4, [b.inner_text() for b in shows.all()]
    page.locator(f"#help-body button.show-on-board[data-part='{part}']").first.click()
    page.wait_for_selector("#help:not([open])", state="attached")
    ring = page.locator("#help-ring")
    expect(ring).to_be_visible()
    target = page.locator(f"#board [data-area='{area}']").first
    expect(target).to_have_class(re.compile(r"\btour\b"))
    box = page.evaluate("() => document.getElementById('help-ring').getBoundingClientRect().toJSON()")
    tbox = target.evaluate("e => e.getBoundingClientRect().toJSON()")
    assert abs(box["left"] - (tbox["left"] - 4)) < 2 and abs(box["top"] - (tbox["top"] - 4)) < 2, \
        (box, tbox)
    assert tbox["top"] < page.viewport_size["height"] and tbox["bottom"] > 0, "in view"
    # the mark goes away by itself
    expect(ring).to_be_hidden(timeout=8000)


@pytest.mark.timeout(120)
def test_the_lobby_help_has_the_diagrams_and_starts_the_guided_game(
        server: Server, new_page: Callable[..., Any]) -> None:
    """The lobby's Help (/#help-GAME) shows the same diagrams (no board: no Show buttons)
    and its "Guided first game" starts the practice game with its guide."""
    page = new_page("lobby-help-diagrams")
    page.goto(server.url + "/#help-white-castle")
    expect(page.locator("#help-body")).to_have_attribute("data-game", "white-castle")
    page.wait_for_selector("#help-body .help-part svg.help-diagram")
    _check_diagrams(page, "white-castle")
    assert page.locator("#help-body button.show-on-board").count() == 0
    assert "Glossary" in page.inner_text("#help-body")
    page.locator("#help-body button.tutorial-start").click()
    page.wait_for_url(re.compile(r"/play/[^/?#]+\?token=[^&]+&tutorial=1$"))
    expect(page.locator("#tutorial")).to_be_visible()
    expect(page.locator("#tutorial")).to_have_attribute("data-step", "intro")
