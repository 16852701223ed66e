"""The current decision is always at hand, in both games, on a phone (390x844) and a
laptop (1366x900): the page brings the decision's first board target into view by itself,
a phone docks the decision and its choices in a bar at the bottom of the screen (the same
choices as the list, words as labels, a skip last; foldable), and on a laptop the list of
choices shows every choice whole (no scroll box that cuts one in half)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import (
    Server,
    legal_ids,
    open_play,
    tap_board,
    version,
    wait_my_turn,
    wait_version_after,
)

# The decision's first board target (free actions and skips aside) shows at least half of
# itself (or 40 px) between the sticky status line and the bars docked at the bottom.
FIRST_IN_VIEW_JS = """() => {
  const top = document.getElementById('status').getBoundingClientRect().bottom;
  let bottom = innerHeight;
  for (const id of ['confirm-bar', 'decision-bar']) {
    const bar = document.getElementById(id);
    if (!bar.hidden && bar.getClientRects().length)
      bottom = Math.min(bottom, bar.getBoundingClientRect().top);
  }
  const first = [...document.querySelectorAll('#board .legal[data-action-id]')]
    .find(e => !e.closest('[data-free]') && !e.classList.contains('skip')
               && e.getClientRects().length);
  if (!first) return 'none';
  const r = first.getBoundingClientRect();
  const seen = Math.min(r.bottom, bottom) - Math.max(r.top, top);
  return seen >= Math.min(r.height / 2, 40) && r.right > 0 && r.left < innerWidth;
}"""

# What is wrong with the phone's decision bar: missing, other choices than the list's (or
# in another order than non-skips first), a first choice not wholly on screen, a label in
# notation rather than words.
DOCK_PROBLEMS_JS = """() => {
  const out = [];
  const bar = document.getElementById('decision-bar');
  if (bar.hidden || !bar.getClientRects().length) return ['no decision bar'];
  const b = bar.getBoundingClientRect();
  if (b.top < 0 || b.bottom > innerHeight + 0.5) out.push(`the bar is at ${b.top}..${b.bottom}`);
  const listed = [...document.querySelectorAll('#actions button.action')];
  const docked = [...bar.querySelectorAll('button.dock-choice')];
  const ids = bs => bs.map(x => x.dataset.actionId).join(',');
  if (ids(listed) !== ids(docked)) out.push(`bar ${ids(docked)} != list ${ids(listed)}`);
  const skips = docked.map(x => x.classList.contains('skip'));
  if (skips.some((s, i) => !s && skips.slice(0, i).some(Boolean))) out.push('a skip before a choice');
  docked.forEach((x, i) => {
    const words = listed[i] && listed[i].innerText.trim();
    if (words && x.innerText.trim() !== words) out.push(`label ${x.innerText} != ${words}`);
  });
  const first = docked[0] && docked[0].getBoundingClientRect();
  if (!first || first.top < b.top - 0.5 || first.bottom > innerHeight + 0.5)
    out.push(`the first choice is not on screen: ${JSON.stringify(first)} in ${JSON.stringify(b)}`);
  return out;
}"""


def _decisions_at_hand(page: Any, rng: random.Random, count: int, phone: bool) -> int:
    """Play `count` decisions (fewer if the game ends); at each, the first target comes into
    view by itself and (phone) the bar shows the choices. Returns how many needed a scroll."""
    scrolled = 0
    for step in range(count):
        if wait_my_turn(page) == "over":
            break
        status = page.inner_text("#status").strip()
        try:
            page.wait_for_function(FIRST_IN_VIEW_JS, timeout=5000)
        except Exception:
            raise AssertionError(f"decision {step} ({status!r}): its first target is "
                                 "not in view") from None
        page.wait_for_timeout(700)  # a smooth scroll has ended: it stays in view
        assert page.evaluate(FIRST_IN_VIEW_JS) in (True, "none"), status
        scrolled += page.evaluate("scrollY") > 0
        before = version(page)
        if phone:
            problems = page.evaluate(DOCK_PROBLEMS_JS)
            assert not problems, f"decision {step} ({status!r}): " + "; ".join(problems)
            if step % 2 == 0:  # a choice of the bar plays at once
                buttons = page.locator("#decision-bar button.dock-choice:not(.skip)")
                pick = buttons.nth(rng.randrange(buttons.count()))
                pick.scroll_into_view_if_needed()
                pick.tap()
            else:  # a target on the board: tap, then tap again
                target = page.locator(
                    f"#board .legal[data-action-id='{rng.choice(legal_ids(page))}']").first
                tap_board(page, target)
                page.wait_for_selector("#confirm-bar:not([hidden])")
                page.locator("#confirm-play").tap()
        else:
            buttons = page.locator("#actions button.action")
            buttons.nth(rng.randrange(buttons.count())).click()
        wait_version_after(page, before)
        assert page.inner_text("#choice-error").strip() == ""
    return scrolled


@pytest.mark.timeout(150)
@pytest.mark.parametrize(("game", "seats", "seed"), [
    ("clansman", ["human", "random", "random", "random"], 5),
    ("white-castle", ["human", "random"], 8080),
])
def test_on_a_phone_the_decision_is_docked_and_its_target_in_view(
        server: Server, new_page: Callable[..., Any], game: str, seats: list[str],
        seed: int) -> None:
    """Ten decisions on a phone: each time the bar at the bottom shows the decision and its
    choices without scrolling, and the board's first target comes into view by itself."""
    created = server.create(game, seats, seed=seed)
    page = new_page(f"{game}-dock", phone=True)
    open_play(page, created["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    # the bar folds to a line and opens again; a new decision opens it
    toggle = page.locator("#dock-toggle")
    toggle.tap()
    assert page.locator("#dock-choices").is_hidden()
    assert "Choices" in toggle.inner_text()
    toggle.tap()
    assert page.locator("#dock-choices").is_visible()
    scrolled = _decisions_at_hand(page, random.Random(seed), 10, phone=True)
    assert scrolled >= 1, "no decision needed a scroll: the test proves nothing"


@pytest.mark.timeout(120)
def test_on_a_laptop_every_choice_shows_whole_and_the_target_is_in_view(
        server: Server, new_page: Callable[..., Any]) -> None:
    """At 1366x900, an I, Clansman decision with 7 or more choices lists every one whole
    (the list is no scroll box, and each button lies inside the window once the side panel
    is scrolled to it), and the decision's first target is in view."""
    created = server.create("clansman", ["human", "random", "random", "random"], seed=5)
    page = new_page("clansman-laptop")
    open_play(page, created["seats"][0]["url"])
    rng = random.Random(5)
    seen_many = 0
    for _ in range(20):
        if wait_my_turn(page) == "over":
            break
        page.wait_for_function(FIRST_IN_VIEW_JS, timeout=5000)
        buttons = page.locator("#actions button.action")
        n = buttons.count()
        assert page.evaluate("(l => l.scrollHeight <= l.clientHeight + 1)"
                             "(document.getElementById('actions'))"), "the list scrolls"
        if n >= 7:
            seen_many += 1
            for i in range(n):
                b = buttons.nth(i)
                b.evaluate("e => e.scrollIntoView({block: 'nearest'})")
                box = b.bounding_box()
                assert box and box["y"] >= 0 and box["y"] + box["height"] <= 900 + 0.5, \
                    f"choice {i} of {n} is cut: {box}"
                hit = b.evaluate("e => { const r = e.getBoundingClientRect();"
                                 " return [.1, .5, .9].every(f => e.contains("
                                 "document.elementFromPoint(r.left + r.width / 2,"
                                 " r.top + r.height * f))); }")
                assert hit, f"choice {i} of {n} is covered or cut"
            if seen_many >= 2:
                break
        before = version(page)
        buttons.nth(rng.randrange(n)).click()
        wait_version_after(page, before)
    assert seen_many, "no decision had 7 choices: the test proves nothing"
