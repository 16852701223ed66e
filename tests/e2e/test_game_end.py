"""The end of a game, brought to the player (issue 36, items 2 and the statistics): a whole
game of each game is played with its page open, and when it ends the page shows, at the
top and in the window without scrolling (on a phone too), the result, every score and the
next steps; then the game's statistics — the points through the game as an SVG chart,
the final points by category, what each player did — and a log that filters by player.

White Castle solo on a phone (390x844), I, Clansman with three bots on a desktop.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, drive, open_play, shot, tokens_of

# Each of the end's parts lies in the window (nothing to scroll to) and shows.
IN_VIEW_JS = """ids => ids.map(id => {
  const e = document.getElementById(id);
  if (!e || !e.getClientRects().length) return `${id} not shown`;
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight + 0.5 && r.height > 0 ? ''
    : `${id} at ${Math.round(r.top)}..${Math.round(r.bottom)} (window ${innerHeight})`;
}).filter(Boolean)"""


def _play_out(server: Server, page: Any, created: dict[str, Any], seed: int) -> None:
    """Play the human seat through the API until the game is over, the page open."""
    open_play(page, server.url + created["seats"][0]["link"])
    drive(server, created["id"], tokens_of(created), lambda p: p["over"], random.Random(seed))
    page.wait_for_function("() => document.body.dataset.over === 'true'", timeout=60000)


def _result_in_view(page: Any) -> None:
    """When the game ends, the result, the scores and the next steps come into the window
    (within 2 s: the page first lets a running scroll end) and stay there."""
    ids = ["result", "result-scores", "next-steps"]
    with contextlib.suppress(Exception):  # the assertion below says what is out of view
        page.wait_for_function(f"ids => ({IN_VIEW_JS})(ids).length === 0", arg=ids,
                               timeout=2000)
    page.wait_for_timeout(300)
    problems = page.evaluate(IN_VIEW_JS, ids)
    assert not problems, problems


def _statistics(page: Any, server: Server, gid: str, parties: int, rounds: int,
                picture: str) -> None:
    """The statistics: a chart with a line per party over the game's moments (the start,
    each round, the end), a figures table with a column per party, and the log's filter
    showing one party's lines only."""
    page.wait_for_selector("body[data-stats='ready']")
    chart = page.locator("#stats svg.stats-chart")
    expect(chart).to_be_visible()
    assert chart.locator("g.stats-party").count() == parties
    assert chart.locator("g.stats-party").first.locator("circle").count() == rounds + 1
    final = server.api(f"/api/games/{gid}")["scores"]
    legend = page.inner_text("#stats .stats-legend")
    for sc in final:
        assert str(sc["total"]) in legend, (legend, final)
    figures = page.locator("#stats-figures")
    expect(figures).to_be_visible()
    assert figures.locator("thead th").count() == parties + 1
    page.locator("#stats-panel").evaluate("e => e.scrollIntoView()")
    shot(page, picture)
    # one category through the game
    page.select_option("#stats-category", index=1)
    assert "points through the game" in chart.get_attribute("aria-label")
    # every category in the game's own words (its stats' labels, from its folder)
    words = [t.strip() for t in page.locator("#stats-category option").all_inner_texts()]
    assert words[0] == "Total" and all(w and "_" not in w for w in words), words
    assert chart.get_attribute("aria-label").startswith(words[1]), words
    # the log by player: only that party's lines, then everyone's again
    lines = page.locator("#log li")
    every = lines.count()
    page.locator("#log-filter button[data-party='0']").click()
    shown = page.locator("#log li:not([hidden])")
    assert 0 < shown.count() < every
    texts = shown.locator(".log-t").all_inner_texts()
    assert all(t.startswith("blue") for t in texts), texts[:5]  # seat 0's lines only
    page.locator("#log-filter button[data-party='all']").click()
    assert page.locator("#log li:not([hidden])").count() == every


@pytest.mark.timeout(300)
def test_a_solo_game_ends_on_a_phone_with_the_result_on_screen_and_its_statistics(
        server: Server, new_page: Callable[..., Any]) -> None:
    page = new_page("end-phone", phone=True)
    created = server.create("white-castle", ["human"], seed=7, difficulty="easy")
    _play_out(server, page, created, 7)
    # when the game ends: the result, the scores and the next steps in the window
    _result_in_view(page)
    expect(page.locator("#result")).to_contain_text("point")
    assert "tokugawa" not in page.inner_text("#result-scores")  # the rival by its name
    expect(page.locator("#result-scores")).to_contain_text("Tokugawa")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _statistics(page, server, created["id"], 2, 3, "statistics-phone.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # readable: no sideways


@pytest.mark.timeout(420)
def test_a_clansman_game_ends_with_its_statistics(server: Server,
                                                  new_page: Callable[..., Any]) -> None:
    page = new_page("end-desktop")
    created = server.create("clansman", ["human", "random", "random", "random"], seed=11,
                            expert=True, emperor_side="B")
    _play_out(server, page, created, 11)
    _result_in_view(page)
    _statistics(page, server, created["id"], 4, 16, "statistics.png")
    rows = page.locator("#stats-figures tbody th").all_inner_texts()
    for figure in ("Marriages", "Missions", "Tadokoro spent"):
        assert figure in rows, rows
    # the replay shows the same statistics, its log filtered by player too
    page.goto(f"{server.url}/replay/{created['id']}")
    page.wait_for_selector("#stats[data-ready]")
    expect(page.locator("#replay-stats svg.stats-chart")).to_be_visible()
    expect(page.locator("#log-filter button[data-party='3']")).to_be_visible()
