"""What is clickable looks clickable, from the first decision of every game on; and a click
on the words written inside a highlighted target plays it."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import (
    Server,
    drive,
    legal_ids,
    open_play,
    tokens_of,
    version,
    wait_my_turn,
    wait_version_after,
)

LEGAL = "rgb(224, 161, 0)"   # the highlight of a legal target, in both games

# Whether an action's board target looks legal: an HTML control with the highlight border,
# or an SVG target of which an outline in the highlight colour covers most of the box.
LOOKS_LEGAL_JS = """([id, legal]) => {
  const els = [...document.querySelectorAll(`#board .legal[data-action-id="${id}"]`)];
  if (!els.length) return 'no board target';
  return els.some(e => {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    if (!(e instanceof SVGElement)) {
      const cs = getComputedStyle(e);
      return cs.borderTopColor === legal && parseFloat(cs.borderTopWidth) >= 2;
    }
    return [e, ...e.querySelectorAll('rect, path, circle, polygon, ellipse')].some(s => {
      const cs = getComputedStyle(s);
      const b = s.getBoundingClientRect();
      return cs.stroke === legal && parseFloat(cs.strokeWidth) >= 2.5
        && cs.visibility !== 'hidden' && b.width * b.height >= 0.6 * r.width * r.height;
    });
  }) || 'not highlighted';
}"""


def _all_look_legal(page: Any, where: str) -> int:
    """Every legal action of the page has a highlighted board target; their number."""
    ids = legal_ids(page)
    assert ids, f"{where}: no choices"
    bad = {}
    for i in ids:
        got = page.evaluate(LOOKS_LEGAL_JS, [i, LEGAL])
        if got is not True:
            notation = page.get_attribute(f"button.action[data-action-id='{i}']",
                                          "data-notation")
            bad[notation] = got
    assert not bad, f"{where}: {bad}"
    return len(ids)


def _notations(page: Any) -> list[str]:
    """The notations of the legal actions the page lists."""
    return list(page.locator("#actions button.action").evaluate_all(
        "bs => bs.map(b => b.dataset.notation)"))


@pytest.mark.timeout(180)
def test_the_first_decisions_of_every_game_are_highlighted(
        server: Server, new_page: Callable[..., Any]) -> None:
    """The White Castle (3 players, first-game setup): the draft, the starting resources
    chosen on the food/iron/pearl tracks, the first die; the solo game's first die; I,
    Clansman's first marriage: every choice is highlighted on the board."""
    created = server.create("white-castle", ["human", "human", "human"], seed=3,
                            first_game=True)
    tokens = tokens_of(created)
    pages = {}
    for seat in range(3):
        pages[seat] = new_page(f"wc3-seat{seat}")
        open_play(pages[seat], created["seats"][seat]["url"])
    seen: set[str] = set()
    rng = random.Random(3)
    for step in range(9):
        seat = server.api(f"/api/games/{created['id']}")["to_move"]
        page = pages[seat]
        assert wait_my_turn(page) == "turn"
        notations = _notations(page)
        seen.update(n.split()[0] for n in notations)
        _all_look_legal(page, f"3 players, decision {step}: {notations}")
        before = version(page)
        drive(server, created["id"], {seat: tokens[seat]},
              lambda p, v=before: p["version"] > v, rng)
        wait_version_after(page, before)
    assert {"draft", "gain", "take"} <= seen, seen

    solo = server.create("white-castle", ["human"], seed=12, difficulty="medium")
    page = new_page("wc-solo")
    open_play(page, solo["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    assert _all_look_legal(page, "solo, first decision") >= 2

    clansman = server.create("clansman", ["human", "human", "human", "human"], seed=8)
    first = server.api(f"/api/games/{clansman['id']}")["to_move"]
    page = new_page("clansman-first")
    open_play(page, clansman["seats"][first]["url"])
    assert wait_my_turn(page) == "turn"
    assert all(n.startswith("marry") for n in _notations(page))
    assert _all_look_legal(page, "I, Clansman, first marriage") >= 4


def _click_words(page: Any, words: str) -> None:
    """Click the middle of the board's text that reads exactly `words`."""
    text = page.locator("#board svg text", has_text=re.compile(rf"^{re.escape(words)}$"))
    assert text.count() >= 1, f"no text {words!r} on the board"
    text.first.scroll_into_view_if_needed()
    box = text.first.bounding_box()
    assert box
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


@pytest.mark.timeout(120)
def test_a_click_on_the_words_of_the_gate_requests_an_audience(
        server: Server, new_page: Callable[..., Any]) -> None:
    """When an audience is legal the Gate is highlighted, and a click on its name plays it."""
    created = server.create("white-castle", ["human", "human"], seed=3)
    tokens = tokens_of(created)
    drive(server, created["id"], tokens,
          lambda p: p["you"] == 0 and any(a["notation"] == "audience" for a in p["legal"]),
          random.Random(3), prefer=("place outside", "worker courtier"))
    page = new_page("gate-words")
    open_play(page, created["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    assert "audience" in _notations(page)
    _all_look_legal(page, "audience")
    at_gate = server.api(f"/api/games/{created['id']}")["view"]["clans"][0]["courtiers"]
    before = version(page)
    _click_words(page, "Gate")
    wait_version_after(page, before, 5000)
    after = server.api(f"/api/games/{created['id']}")["view"]["clans"][0]["courtiers"]
    assert after.count(0) == at_gate.count(0) + 1, (at_gate, after)  # one more at the Gate


@pytest.mark.timeout(120)
def test_a_click_on_the_words_of_a_room_chooses_it_for_the_rival(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Solo: when the player chooses the room the rival's climbing courtier empties, a
    click on the room's name chooses it."""
    created = server.create("white-castle", ["human"], seed=8, difficulty="medium")
    tokens = tokens_of(created)
    drive(server, created["id"], tokens,
          lambda p: any(a["notation"].startswith("rival-room") for a in p["legal"]),
          random.Random(8))
    page = new_page("rival-room-words")
    open_play(page, created["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    rooms = [n for n in _notations(page) if n.startswith("rival-room")]
    assert rooms
    _all_look_legal(page, "rival-room")
    room = rooms[0].split()[1]   # steward2 -> "Steward room 2"
    words = re.sub(r"(steward|diplomat)(\d)", lambda m: f"{m[1].title()} room {m[2]}", room)
    where = ["steward1", "steward2", "steward3", "diplomat1", "diplomat2"].index(room) + 1
    game = f"/api/games/{created['id']}"
    rival = server.api(game)["view"]["rival"]
    there = server.api(game)["view"]["clans"][rival]["courtiers"].count(where)
    before = version(page)
    _click_words(page, words)
    wait_version_after(page, before, 5000)
    # the rival's courtier climbed to the room clicked
    assert server.api(game)["view"]["clans"][rival]["courtiers"].count(where) == there + 1
