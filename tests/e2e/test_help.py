"""Rules help in the page: the top bar's Help opens each game's rules in short, the glossary
of the marks and terms on the board, and for The White Castle a first-game walkthrough of
the first three decisions that shows where each one is made."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

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
    """I, Clansman's help speaks of its own game (generations, daughters, Tadokoro) and
    closes with Escape."""
    created = server.create("clansman", ["human", "random", "random", "random"], seed=5)
    page = new_page("help-clansman")
    open_play(page, created["seats"][0]["url"])
    _open_help(page)
    text = page.inner_text("#help")
    for word in ("daughter", "Tadokoro", "Supply", "Glossary"):
        assert word in text, word
    assert "Daimyo" not in text
    page.keyboard.press("Escape")
    page.wait_for_selector("#help:not([open])", state="attached")
