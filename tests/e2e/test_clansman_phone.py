"""I, Clansman on a phone (390x844, touch) and a laptop (1366x900), in a real game with bots.

On a phone the board fills the screen's width (its drawings stretched to it, the cards
reaching the right edge, no sideways scroll) and no text on it is drawn under 11 px (an SVG
text's size is its font size times the drawing's scale). Goods are pictures with a count,
each named for assistive technology ("Worker: 2"); a tap on one shows that name in a tip
over it, and so does the keyboard's focus (Enter there plays nothing). On a laptop the page
does not scroll sideways either and the board shows every seat's panel.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import (
    Server,
    board_target,
    legal_ids,
    open_play,
    shot,
    tap_board,
    version,
    wait_my_turn,
    wait_version_after,
)

MIN_TEXT = 11   # px: no text on the board is drawn smaller
GOOD_WORDS = ("Worker", "Soldier", "Architect", "Monk", "Bureaucrat", "Cloth", "Fish", "Pork",
              "Pot", "Horse", "Iron", "Statue", "Mirror")  # the rulebook's words
LABEL = re.compile(rf"^({'|'.join(GOOD_WORDS)}): (\d+)$")

# The width the board and its drawings take: the board's box, the page's scroll width, the
# right edge of the rightmost card of the centre, and drawings narrower than their box (or
# beyond the screen's edges).
WIDTH_JS = """() => {
  const board = document.getElementById('board').getBoundingClientRect();
  const cards = [...document.querySelectorAll('#board [data-area="centre"] .cm-card')]
    .map(c => c.getBoundingClientRect().right);
  const narrow = [];
  for (const s of document.querySelectorAll('#board svg.cm-svg')) {
    const box = s.parentElement.getBoundingClientRect();
    const cs = getComputedStyle(s.parentElement);
    const inner = box.width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)
      - parseFloat(cs.borderLeftWidth) - parseFloat(cs.borderRightWidth);
    const r = s.getBoundingClientRect();
    if (r.width < inner - 1 || r.left < -0.5 || r.right > innerWidth + 0.5)
      narrow.push(`${s.getAttribute('class')}: ${Math.round(r.width)} of ${Math.round(inner)} px`);
  }
  return {vw: innerWidth, left: board.left, width: board.width,
          scroll: document.documentElement.scrollWidth,
          cardsRight: cards.length ? Math.max(...cards) : 0, narrow};
}"""

# Every visible text on the board drawn under `min` px: its words, its class (or its
# nearest classed ancestor's) and its size.
SMALL_TEXT_JS = """min => {
  const out = [];
  const walk = document.createTreeWalker(document.getElementById('board'), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!n.textContent.trim()) continue;
    const e = n.parentElement;
    if (!e || !e.getClientRects().length || e.closest('title, desc')) continue;
    const cs = getComputedStyle(e);
    if (cs.visibility === 'hidden' || cs.display === 'none') continue;
    let px = parseFloat(cs.fontSize);
    if (e instanceof SVGElement) {
      const m = e.getScreenCTM();
      if (m) px *= Math.hypot(m.a, m.b);
    }
    if (px < min - 0.01) {
      const classed = e.closest('[class]');
      out.push(`${JSON.stringify(n.textContent.trim().slice(0, 30))} `
        + `(.${classed ? classed.getAttribute('class') : e.tagName}) at ${px.toFixed(2)} px`);
    }
  }
  return out;
}"""

# What is wrong with the pictures of goods: no accessible name in the rulebook's words, a
# count that is not the one drawn, not focusable, not an image to assistive technology,
# or not exactly one Tab stop among them all (a roving tabindex: the arrows go between).
ICON_PROBLEMS_JS = """re => {
  const out = [];
  const label = new RegExp(re);
  const icons = [...document.querySelectorAll('#board .cm-res')];
  if (!icons.length) out.push('no picture of a good on the board');
  for (const i of icons) {
    const name = i.getAttribute('aria-label') || '';
    const m = label.exec(name);
    const drawn = (i.querySelector('text') || {}).textContent;
    if (!m) out.push(`a picture named ${JSON.stringify(name)}`);
    else if (m[2] !== drawn) out.push(`${name} drawn with the count ${drawn}`);
    if (i.getAttribute('role') !== 'img') out.push(`${name}: role ${i.getAttribute('role')}`);
    if (!['0', '-1'].includes(i.getAttribute('tabindex'))) out.push(`${name}: not focusable`);
  }
  const stops = icons.filter(i => i.getAttribute('tabindex') === '0').length;
  if (icons.length && stops !== 1) out.push(`${stops} Tab stops among the pictures, not 1`);
  return out;
}"""

# Whether a point of an element receives a tap (the docked bars may cover it).
TAP_POINT_JS = """e => {
  const r = e.getBoundingClientRect();
  for (const [fx, fy] of [[.75, .5], [.5, .5], [.85, .3], [.6, .7]]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    const hit = document.elementFromPoint(x, y);
    if (hit && e.contains(hit)) return [x, y];
  }
  return null;
}"""

TIP_JS = """() => {
  const t = document.querySelector('#board .cm-tip');
  if (!t || !t.getClientRects().length) return null;
  const r = t.getBoundingClientRect();
  return {text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
          px: parseFloat(getComputedStyle(t).fontSize)};
}"""


def _still(page: Any) -> None:
    """Wait until the page has stopped scrolling (the page brings each decision's target
    into view with a smooth scroll, which would carry a picture away from under a tap)."""
    for _ in range(40):
        y = page.evaluate("scrollY")
        page.wait_for_timeout(120)
        if page.evaluate("scrollY") == y:
            return


def _check_layout(page: Any, where: str, phone: bool) -> None:
    """The board spans the screen (phone: at least 95% of it, its cards to the right edge),
    nothing scrolls sideways, and no text on the board is drawn under 11 px."""
    w = page.evaluate(WIDTH_JS)
    assert w["scroll"] <= w["vw"] + 1, f"{where}: the page is {w['scroll']} px wide"
    if phone:   # (a laptop draws one unit a pixel: a drawing may be narrower than its box)
        assert not w["narrow"], f"{where}: drawings narrower than their box: {w['narrow']}"
        assert w["width"] >= 0.95 * w["vw"], f"{where}: the board is {w['width']} px wide"
        assert w["cardsRight"] >= 0.9 * w["vw"], \
            f"{where}: the cards reach only {w['cardsRight']:.0f} of {w['vw']} px"
    small = page.evaluate(SMALL_TEXT_JS, MIN_TEXT)
    assert not small, f"{where}: {len(small)} texts under {MIN_TEXT} px: " + "; ".join(small[:12])
    problems = page.evaluate(ICON_PROBLEMS_JS, LABEL.pattern)
    assert not problems, f"{where}: " + "; ".join(problems[:12])


def _tap_icons(page: Any, where: str) -> int:
    """Tap a picture of a good off the choices and one on a choice (when the board has
    one): each time a tip on screen shows its name, at 11 px or more, and nothing is
    played. Returns how many were tapped."""
    tapped = 0
    for on_choice in (False, True):
        sel = "#board .legal .cm-res" if on_choice else "#board .cm-res"
        icons = [i for i in page.locator(sel).all()
                 if on_choice or not i.evaluate("e => !!e.closest('.legal')")]
        for icon in icons[:6]:
            _still(page)
            icon.evaluate("e => e.scrollIntoView({block: 'center'})")
            _still(page)
            point = icon.evaluate(TAP_POINT_JS)
            if point is None:
                continue   # under a docked bar: the next one
            name = icon.get_attribute("aria-label")
            before = version(page)
            page.touchscreen.tap(point[0], point[1])
            page.wait_for_function(
                "n => { const t = document.querySelector('#board .cm-tip');"
                " return t && t.textContent === n; }", arg=name, timeout=5000)
            tip = page.evaluate(TIP_JS)
            assert tip, f"{where}: no tip after a tap on {name}"
            assert tip["px"] >= MIN_TEXT, f"{where}: the tip is {tip['px']} px"
            assert tip["left"] >= -0.5 and tip["right"] <= page.evaluate("innerWidth") + 0.5, \
                f"{where}: the tip of {name} is cut off: {tip}"
            box = icon.bounding_box()
            assert box and (tip["bottom"] <= box["y"] + 1
                            or tip["top"] >= box["y"] + box["height"] - 1), \
                f"{where}: the tip covers {name}"
            page.wait_for_timeout(150)
            assert version(page) == before, f"{where}: a tap on {name} played a move"
            if on_choice:   # the card around it is selected, as a tap on it anywhere does
                page.wait_for_selector("#confirm-bar:not([hidden])")
                page.locator("#confirm-cancel").tap()
                page.wait_for_selector("#confirm-bar", state="hidden")
            tapped += 1
            break
    # a tap elsewhere takes the tip away
    page.locator("#board .cm-status-bar strong").first.tap()
    page.wait_for_function("() => !document.querySelector('#board .cm-tip')", timeout=5000)
    if page.locator("#confirm-bar").is_visible():
        page.locator("#confirm-cancel").tap()
    return tapped


def _keyboard_names(page: Any, where: str) -> None:
    """The pictures are one Tab stop: reached with the keyboard, a picture shows its name;
    the arrow keys move to the next picture (and back), the tip with them; Tab leaves the
    pictures for the next thing on the page; Enter on a picture on a choice shows the name
    and plays nothing."""
    icons = page.locator("#board .cm-res")
    icon = page.locator("#board .cm-res[tabindex='0']")
    assert icon.count() == 1, f"{where}: {icon.count()} Tab stops among the pictures"
    icon.focus()
    name = icon.get_attribute("aria-label")
    page.wait_for_function(
        "n => (document.querySelector('#board .cm-tip') || {}).textContent === n", arg=name,
        timeout=5000)
    active_js = ("() => { const a = document.activeElement;"
                 " return a && a.classList && a.classList.contains('cm-res')"
                 " ? [...document.querySelectorAll('#board .cm-res')].indexOf(a) : -1; }")
    at = page.evaluate(active_js)
    page.keyboard.press("ArrowRight")
    assert page.evaluate(active_js) == at + 1, f"{where}: ArrowRight did not move on"
    second = icons.nth(at + 1).get_attribute("aria-label")
    tip = page.evaluate(TIP_JS)
    assert tip and tip["text"] == second, f"{where}: the tip says {tip}, not {second}"
    assert page.locator("#board .cm-res[tabindex='0']").count() == 1  # the stop moved
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(active_js) == at, f"{where}: ArrowLeft did not come back"
    page.keyboard.press("Tab")
    assert page.evaluate(active_js) == -1, f"{where}: Tab went to another picture"
    on_choice = page.locator("#board .legal .cm-res")
    if on_choice.count():
        before = version(page)
        on_choice.first.focus()
        page.keyboard.press("Enter")
        page.wait_for_timeout(300)
        assert version(page) == before, f"{where}: Enter on a picture played the card"
        tip = page.evaluate(TIP_JS)
        assert tip and tip["text"] == on_choice.first.get_attribute("aria-label"), tip
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#board .cm-tip')", timeout=5000)
    page.evaluate("document.activeElement && document.activeElement.blur()")


@pytest.mark.timeout(240)
def test_clansman_on_a_phone_fills_the_width_with_readable_text_and_named_goods(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Ten decisions of a 4-player game (3 bots) on a phone: at each the board fills the
    width, scrolls not sideways and draws no text under 11 px, and every good is a named
    picture; taps on pictures (on and off a choice) and the keyboard show their names.
    Each move is a tap on a board target, then Play."""
    created = server.create("clansman", ["human", "random", "random", "random"], seed=5)
    page = new_page("clansman-phone-fit", phone=True)
    open_play(page, created["seats"][0]["url"])
    rng = random.Random(5)
    tapped = production = 0
    for step in range(10):
        if wait_my_turn(page) == "over":
            break
        status = page.inner_text("#status").strip()
        where = f"decision {step} ({status!r})"
        _still(page)   # the board's drawing has settled, and its scroll into view ended
        _check_layout(page, where, phone=True)
        if "Production" in page.inner_text("#board .cm-status-bar"):
            production += 1
        if step in (0, 5) or (production == 1 and tapped < 4):
            tapped += _tap_icons(page, where)
            shot(page, f"clansman-phone-fit-{step}.png", top=True)
        if step == 1:
            _keyboard_names(page, where)
        before = version(page)
        target = board_target(page, rng.choice(legal_ids(page)))
        tap_board(page, target)
        page.wait_for_selector("#confirm-bar:not([hidden])")
        page.locator("#confirm-play").tap()
        wait_version_after(page, before)
        assert page.inner_text("#choice-error").strip() == ""
    assert tapped >= 3, f"only {tapped} pictures were tapped: the test proves little"
    assert production, "no Production decision was seen: the test proves little"
    shot(page, "clansman-phone-fit-full.png", full_page=True, top=True)


@pytest.mark.timeout(120)
def test_clansman_on_a_laptop_shows_every_seat_without_sideways_scroll(
        server: Server, new_page: Callable[..., Any]) -> None:
    """At 1366x900 the page does not scroll sideways, the board shows the four seats'
    panels whole within the window's width, its text is 11 px or more, and a click on a
    picture of a good names it (so does the mouse over it)."""
    created = server.create("clansman", ["human", "random", "random", "random"], seed=9)
    page = new_page("clansman-laptop-fit")
    open_play(page, created["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    _check_layout(page, "laptop", phone=False)
    panels = page.locator("#board [data-area^='gozoku-']")
    assert panels.count() == 4
    for i in range(4):
        box = panels.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 1366, (i, box)
        assert box["width"] >= 300, f"panel {i} is {box['width']} px wide"
    seats = sorted(panels.evaluate_all("ps => ps.map(p => p.dataset.area)"))
    assert seats == [f"gozoku-{i}" for i in range(4)], seats
    icon = page.locator("#board .cm-res").first
    icon.scroll_into_view_if_needed()
    icon.hover()
    name = icon.get_attribute("aria-label")
    page.wait_for_function(
        "n => (document.querySelector('#board .cm-tip') || {}).textContent === n", arg=name,
        timeout=5000)
    page.mouse.move(5, 5)
    page.wait_for_function("() => !document.querySelector('#board .cm-tip')", timeout=5000)
    shot(page, "clansman-laptop-fit.png", full_page=True, top=True)


@pytest.mark.timeout(120)
def test_an_expert_clansman_board_on_a_phone_fits_too(
        server: Server, new_page: Callable[..., Any]) -> None:
    """The Expert game adds Kofun and Emperor cards (with rules in words) and a token in
    each panel: watched on a phone, it fills the width with no text under 11 px, and a tap
    on a good names it."""
    created = server.create("clansman", ["human"] * 4, seed=4, expert=True)
    page = new_page("clansman-phone-expert", phone=True)
    open_play(page, server.url + created["spectator_link"])
    page.wait_for_selector("#board [data-area='centre'] .cm-emperor")
    page.wait_for_timeout(300)
    _check_layout(page, "expert", phone=True)
    assert _tap_icons(page, "expert") == 1   # a spectator has no choice to tap on
    shot(page, "clansman-phone-expert.png", full_page=True, top=True)
