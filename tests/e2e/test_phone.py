"""Both games on a phone (390x844, touch): a true phone layout and tap-to-explain.

No board section scrolls sideways inside itself, every legal choice has a target on the
board that lies within the screen's width and is at least 44 px each way, and a tap
selects and explains a target while a second tap (or Confirm) plays it. A mouse click and
a key still play at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import (
    HIT_POINT_JS,
    Server,
    board_point,
    board_target,
    click_board,
    legal_ids,
    open_play,
    shot,
    tap_board,
    version,
    wait_my_turn,
    wait_version_after,
)

MIN_TARGET = 44   # px, each way

# What keeps the position from being played on a phone: sideways scrolling (of the page or
# of anything inside the board), targets too small or beyond the screen's edges, and legal
# choices that only the list offers.
PHONE_PROBLEMS_JS = """min => {
  const out = [];
  const W = innerWidth;
  if (document.documentElement.scrollWidth > W + 1)
    out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  for (const e of document.querySelectorAll('#board, #board *')) {
    const cs = getComputedStyle(e);
    if (['auto', 'scroll'].includes(cs.overflowX) && e.scrollWidth > e.clientWidth + 1)
      out.push(`${e.tagName}.${e.getAttribute('class')} scrolls sideways`);
  }
  const onBoard = new Set();
  for (const t of document.querySelectorAll('#board .legal[data-action-id]')) {
    const r = t.getBoundingClientRect();
    const name = t.getAttribute('aria-label') || t.dataset.actionId;
    if (r.width < min || r.height < min)
      out.push(`${name}: ${Math.round(r.width)}x${Math.round(r.height)} px`);
    if (r.left < -0.5 || r.right > W + 0.5) out.push(`${name}: beyond the screen's width`);
    onBoard.add(t.dataset.actionId);
  }
  for (const b of document.querySelectorAll('#actions button.action'))
    if (!onBoard.has(b.dataset.actionId)) out.push(`${b.dataset.notation}: only in the list`);
  return out;
}"""


def _check_position(page: Any, where: str) -> None:
    """The phone rules hold here, and every target can be reached by a finger."""
    problems = page.evaluate(PHONE_PROBLEMS_JS, MIN_TARGET)
    assert not problems, f"{where}: " + "; ".join(problems)
    for action in legal_ids(page):
        try:
            board_point(board_target(page, action), "tap")
        except AssertionError:
            raise AssertionError(f"{where}: the target of action {action} is covered") from None


def _tap_to_play(page: Any, rng: random.Random, confirm_button: bool) -> None:
    """Tap a random target: it is selected and explained, nothing is played; then a second
    tap on it (or the Confirm button) plays it."""
    before = version(page)
    action = rng.choice(legal_ids(page))
    target = board_target(page, action)
    tap_board(page, target)
    page.wait_for_selector("#confirm-bar:not([hidden])")
    page.wait_for_timeout(150)
    assert version(page) == before, "a first tap played at once"
    target = board_target(page, action)
    assert "selected" in (target.get_attribute("class") or "")
    explain = target.get_attribute("data-explain") or ""
    shown = page.inner_text("#confirm-text")
    assert explain and shown.strip() and shown.strip()[:40] in explain, (shown, explain)
    button = page.locator("#confirm-play")
    box = button.bounding_box()
    assert box and box["height"] >= MIN_TARGET and box["width"] >= MIN_TARGET, box
    if confirm_button:
        point = button.evaluate(HIT_POINT_JS)
        page.touchscreen.tap(point[0], point[1])
    else:
        tap_board(page, target)
    wait_version_after(page, before)
    assert page.inner_text("#choice-error").strip() == ""


@pytest.mark.timeout(240)
def test_white_castle_on_a_phone_every_target_reachable_and_tap_explains(
        server: Server, new_page: Callable[..., Any]) -> None:
    """A White Castle game against a bot played by taps on the board for 20 decisions:
    at each one the phone rules hold; each move is a tap (explained) then a confirmation.
    A tap on what is not a choice (the Gate's name) explains it and plays nothing."""
    created = server.create("white-castle", ["human", "random"], seed=6061)
    page = new_page("wc-phone", phone=True)
    open_play(page, created["seats"][0]["url"])
    rng = random.Random(6061)
    assert wait_my_turn(page) == "turn"
    # a tap on something that is not a choice explains it, with nothing to play
    gate = page.locator("#board [data-area='castle'] svg text", has_text="Gate").first
    gate.scroll_into_view_if_needed()
    box = gate.bounding_box()
    assert box
    before = version(page)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector("#confirm-bar:not([hidden])")
    assert "Gate" in page.inner_text("#confirm-text")
    assert page.locator("#confirm-play").is_hidden() and version(page) == before
    page.locator("#confirm-cancel").tap()
    page.wait_for_selector("#confirm-bar", state="hidden")
    for step in range(20):
        if wait_my_turn(page) == "over":
            break
        _check_position(page, f"decision {step} ({page.inner_text('#status').strip()})")
        if step == 6:
            shot(page, "wc-phone-midgame.png")
        _tap_to_play(page, rng, confirm_button=step % 2 == 1)


@pytest.mark.timeout(240)
def test_clansman_on_a_phone_every_target_reachable_and_tap_explains(
        server: Server, new_page: Callable[..., Any]) -> None:
    """The same for I, Clansman (4 players, 3 bots), for 10 decisions."""
    created = server.create("clansman", ["human", "random", "random", "random"], seed=5)
    page = new_page("clansman-phone", phone=True)
    open_play(page, created["seats"][0]["url"])
    rng = random.Random(5)
    for step in range(10):
        if wait_my_turn(page) == "over":
            break
        _check_position(page, f"decision {step} ({page.inner_text('#status').strip()})")
        _tap_to_play(page, rng, confirm_button=step % 2 == 0)
    shot(page, "clansman-phone.png")


@pytest.mark.timeout(120)
def test_a_click_or_a_key_plays_at_once_on_the_desktop(
        server: Server, new_page: Callable[..., Any]) -> None:
    """With a mouse, a click on a board target plays it at once; so do Enter and Space on
    a target reached with the keyboard."""
    created = server.create("white-castle", ["human"], seed=77, difficulty="easy")
    page = new_page("desktop-keys")
    open_play(page, created["seats"][0]["url"])
    for how in ("click", "Enter", " "):
        assert wait_my_turn(page) == "turn"
        before = version(page)
        target = board_target(page, legal_ids(page)[0])
        if how == "click":
            click_board(page, target)
        else:
            target.focus()
            page.keyboard.press(how if how != " " else "Space")
        wait_version_after(page, before)
        assert page.locator("#confirm-bar").is_hidden()
