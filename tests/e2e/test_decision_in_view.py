"""The decision stays in view on a laptop (1366x900): the side panel (choices, explanation,
scores, log) is sticky, and the page brings the part of the board where the decision is
into view — but never while the player is using the board."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import (
    Server,
    click_board,
    drive,
    open_play,
    tokens_of,
    version,
    wait_my_turn,
    wait_version_after,
)

SIDE_PANELS = ("#actions-panel", "#explain-panel", "#scores-panel", "#log-panel")

# The decision's board targets (seal exchanges, free at every decision, aside) that show at
# least half of themselves between the sticky status line and the bottom of the window.
IN_VIEW_JS = """() => {
  const top = document.getElementById('status').getBoundingClientRect().bottom;
  const targets = [...document.querySelectorAll('#board .legal[data-action-id]')]
    .filter(e => !e.closest('[data-free]'));
  if (!targets.length) return 'none';
  return targets.some(e => {
    const r = e.getBoundingClientRect();
    const seen = Math.min(r.bottom, innerHeight) - Math.max(r.top, top);
    return r.height > 0 && seen >= Math.min(r.height / 2, 40) && r.right > 0 && r.left < innerWidth;
  });
}"""


def _side_panels_in_view(page: Any) -> list[str]:
    """The side panels whose title or first lines are outside the window."""
    out = []
    for sel in SIDE_PANELS:
        box = page.locator(f"{sel} h2").bounding_box()
        if box is None or box["y"] < 0 or box["y"] + box["height"] > 900:
            out.append(f"{sel} title at {box}")
    side = page.locator("aside.side").bounding_box()
    if side is None or side["y"] + side["height"] > 900 + 1:
        out.append(f"the side panel runs below the window: {side}")
    return out


@pytest.mark.timeout(120)
def test_the_side_panel_stays_in_view_while_the_page_scrolls(
        server: Server, new_page: Callable[..., Any]) -> None:
    """At 1366x900 a 3-player White Castle page is taller than the window; wherever the
    page is scrolled to, the choices, the explanation, the scores and the log stay in it."""
    created = server.create("white-castle", ["human", "random", "random"], seed=31)
    page = new_page("sticky")
    open_play(page, created["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height > 1800, f"the page is only {height} px tall: nothing to scroll"
    for y in (0, height // 3, 2 * height // 3, height):
        page.evaluate(f"window.scrollTo(0, {y})")
        page.wait_for_timeout(100)
        missing = _side_panels_in_view(page)
        assert not missing, f"scrolled to {y}: " + "; ".join(missing)


@pytest.mark.timeout(180)
def test_the_board_brings_each_decision_into_view(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Playing by clicks on the board, the page shows every new decision: after each
    click, some target of the next decision is (or comes) into the window by itself."""
    created = server.create("white-castle", ["human", "random"], seed=8080)
    page = new_page("follow")
    open_play(page, created["seats"][0]["url"])
    rng = random.Random(8080)
    scrolled = 0
    for step in range(18):
        if wait_my_turn(page) == "over":
            break
        y0 = page.evaluate("scrollY")
        try:
            page.wait_for_function(IN_VIEW_JS, timeout=5000)
        except Exception:
            status = page.inner_text("#status")
            raise AssertionError(f"decision {step} ({status!r}) is not in view") from None
        scrolled += page.evaluate("scrollY") != y0
        assert page.evaluate(IN_VIEW_JS) is True
        targets = [e for e in page.locator("#board .legal[data-action-id]").all()
                   if e.is_visible() and not e.evaluate("e => !!e.closest('[data-free]')")]
        before = version(page)
        click_board(page, rng.choice(targets))
        wait_version_after(page, before)
    assert scrolled >= 2, "the decisions never needed a scroll: the test proves nothing"


@pytest.mark.timeout(120)
def test_the_page_does_not_jump_while_the_player_reads_the_board(
        server: Server, new_page: Callable[..., Any]) -> None:
    """The opponent moves while the player hovers over the bottom of the board: the page
    stays where it is while the pointer moves, and brings the new decision (the draft,
    at the top of the board) into view once the pointer has rested."""
    created = server.create("white-castle", ["human", "human"], seed=4242)
    tokens = tokens_of(created)
    mover = server.api(f"/api/games/{created['id']}")["to_move"]
    reader = 1 - mover
    page = new_page("reader")
    open_play(page, created["seats"][reader]["url"])
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(300)
    y = page.evaluate("scrollY")
    assert y > 600
    assert page.evaluate(IN_VIEW_JS) in ("none", False)
    before = version(page)

    def read(seconds: float) -> None:
        """The pointer wanders over the board: the player reads (hovering explains)."""
        until = time.monotonic() + seconds
        k = 0
        while time.monotonic() < until:
            k += 1
            page.mouse.move(200 + 40 * (k % 6), 500 + 30 * (k % 4))
            page.wait_for_timeout(120)

    # while the pointer wanders, the first player chooses a starting pair (through the API,
    # from another thread): then the reader is to choose one
    opponent = threading.Thread(target=drive, args=(
        server, created["id"], {mover: tokens[mover]}, lambda p: p["to_move"] == reader,
        random.Random(1)))
    opponent.start()
    read(3.0)
    opponent.join()
    assert version(page) > before, "the opponent's move did not arrive"
    assert wait_my_turn(page) == "turn"
    assert page.evaluate("scrollY") == y, "the page jumped while the pointer moved"
    page.wait_for_function(IN_VIEW_JS, timeout=5000)  # rested: the decision comes into view
    assert page.evaluate("scrollY") < y
