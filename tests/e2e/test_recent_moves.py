"""What just happened, in the browser (issue 10): another player's last turn is marked on
the board (a legend-explained "just played" mark, neither the choice outline nor the
reconstructed-data mark) with its log lines highlighted, until that player moves again or
you decide; it arrives with an animation unless the reader prefers reduced motion. And
the page's log speaks in the rulebook's words, never an internal id."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server, drive, log_lines, open_play, tokens_of

ID_LIKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+\d+\b|\boutside-(?:left|right)\b")


def placed(p: dict[str, Any]) -> bool:
    """The viewer decides and another seat's last turn placed a die."""
    return p.get("you") is not None and p["to_move"] == p["you"] and any(
        m.startswith("place ") for e in p.get("recent", []) for m in e["moves"])


def shown(page: Any, p: dict[str, Any]) -> None:
    """Wait until the page shows this payload's version."""
    page.wait_for_function("v => Number(document.body.dataset.version) >= v",
                           arg=p["version"])


def marked(page: Any) -> list[dict[str, Any]]:
    """The board's "just played" elements: key, seat, classes, filter, animation."""
    return list(page.locator("#board .recent-move").evaluate_all(
        """es => es.map(e => ({key: e.dataset.key || e.dataset.card || '',
                 seat: e.dataset.recentSeat, legal: e.classList.contains('legal'),
                 filter: getComputedStyle(e).filter,
                 animation: getComputedStyle(e).animationName}))"""))


def test_the_last_turn_of_a_bot_is_marked_until_you_decide(
        server: Server, new_page: Callable[..., Any]) -> None:
    """After the bot's turn its die space is marked and its log lines highlighted; after
    your next decision both are gone; after its next turn the new one is marked."""
    created = server.create("white-castle", ["human", "random"], seed=14)
    toks = tokens_of(created)
    rng = random.Random(14)
    p = drive(server, created["id"], toks, placed, rng)
    page = new_page("recent-wc")
    open_play(page, created["seats"][0]["url"])
    shown(page, p)
    turn = p["recent"][0]
    assert turn["seat"] == 1
    where = next(m for m in turn["moves"] if m.startswith("place "))
    marks = marked(page)
    assert any(m["key"] == where for m in marks), (where, marks)
    assert all(m["seat"] == "1" and "drop-shadow(rgb(0, 184, 212)" in m["filter"]
               for m in marks), marks
    others = page.locator("#board .legal:not(.recent-move)").evaluate_all(
        "es => es.map(e => getComputedStyle(e).filter)")
    assert others and not [f for f in others if "0, 184, 212" in f], others  # distinct
    assert any(m["animation"] == "kamon-arrive" for m in marks), marks
    expect(page.locator("#board .legend .recent-sample")).to_have_count(1)
    assert "just played" in page.inner_text("#board .legend")
    lit = page.locator("#log li.recent-log .log-t").all_inner_texts()
    assert lit == p["log"][turn["log_from"]:turn["log_to"]] and lit, lit
    words = page.locator(f"#board .recent-move[data-key='{where}']").first.get_attribute(
        "data-explain") or ""
    assert f"Just played by {turn['name']}" in words, words

    before = p["version"]
    page.locator("#actions button.action").first.click()   # your decision
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    expect(page.locator("#board .recent-move")).to_have_count(0)
    expect(page.locator("#log li.recent-log")).to_have_count(0)

    again = drive(server, created["id"], toks, lambda q: placed(q) and q["version"] > before
                  + 1, rng)
    shown(page, again)
    new_turn = again["recent"][0]
    assert new_turn["version"] > turn["version"]
    expect(page.locator("#board .recent-move").first).to_be_attached()
    lit = page.locator("#log li.recent-log .log-t").all_inner_texts()
    assert lit == again["log"][new_turn["log_from"]:new_turn["log_to"]]


def test_no_arrival_animation_for_reduced_motion(server: Server,
                                                 new_page: Callable[..., Any]) -> None:
    """A reader who prefers reduced motion sees the mark without the animation."""
    created = server.create("white-castle", ["human", "random"], seed=14)
    p = drive(server, created["id"], tokens_of(created), placed, random.Random(14))
    page = new_page("recent-reduced")
    page.emulate_media(reduced_motion="reduce")
    open_play(page, created["seats"][0]["url"])
    shown(page, p)
    marks = marked(page)
    assert marks and all(m["animation"] == "none" for m in marks), marks


def test_clansman_marks_the_cards_of_the_last_turns(server: Server,
                                                    new_page: Callable[..., Any]) -> None:
    """I, Clansman: the card another player obtained or married into is marked."""
    created = server.create("clansman", ["human", "random", "random", "random"], seed=6)
    carded = re.compile(r"^(marry|obtain|hero|convert) \d+(?! tadokoro)")

    def cards_moved(q: dict[str, Any]) -> bool:
        return q.get("you") == 0 and q["to_move"] == 0 and any(
            carded.match(m) for e in q.get("recent", []) for m in e["moves"])

    p = drive(server, created["id"], tokens_of(created), cards_moved, random.Random(6))
    page = new_page("recent-clansman")
    open_play(page, created["seats"][0]["url"])
    shown(page, p)
    cards = {m.split()[1] for e in p["recent"] for m in e["moves"] if carded.match(m)}
    marks = marked(page)
    assert {m["key"] for m in marks} & cards, (cards, marks)
    assert page.locator("#log li.recent-log").count() == sum(
        e["log_to"] - e["log_from"] for e in p["recent"])
    assert "just played" in page.inner_text("#board")


def test_the_page_log_names_no_internal_id(server: Server,
                                           new_page: Callable[..., Any]) -> None:
    """A solo game well into its first round (setup, draws, the rival's cards and moves):
    no line of the page's log, and no listed choice, carries an internal id."""
    created = server.create("white-castle", ["human"], seed=8, difficulty="hard")
    p = drive(server, created["id"], tokens_of(created),
              lambda q: sum("the rival reveals" in line for line in q["log"]) >= 3,
              random.Random(8))
    page = new_page("log-words")
    open_play(page, created["seats"][0]["url"])
    shown(page, p)
    lines = log_lines(page)
    assert len(lines) >= 10 and any("Solitaire card" in line for line in lines), lines
    bad = [line for line in lines if ID_LIKE.search(line)]
    assert not bad, bad
    choices = page.locator("#actions button.action .what").all_inner_texts()
    assert choices and not [c for c in choices if ID_LIKE.search(c)], choices


def test_the_solo_rivals_last_turn_is_marked(server: Server,
                                             new_page: Callable[..., Any]) -> None:
    """The Tokugawa rival has no seat: where its die went is marked all the same, and its
    lines are highlighted in the log."""
    created = server.create("white-castle", ["human"], seed=5, difficulty="hard")
    p = drive(server, created["id"], tokens_of(created),
              lambda q: q["to_move"] == 0 and any(e["seat"] is None for e in q["recent"])
              and sum("the rival reveals" in line for line in q["log"]) >= 2,
              random.Random(5))
    page = new_page("recent-rival")
    open_play(page, created["seats"][0]["url"])
    shown(page, p)
    turn = next(e for e in p["recent"] if e["seat"] is None)
    keys = {m["key"] for m in marked(page) if m["seat"] == str(turn["party"])}
    assert keys & set(turn["moves"]), (keys, turn["moves"])
    lit = page.locator(f"#log li.recent-log[data-recent-seat='{turn['party']}'] .log-t")
    assert lit.all_inner_texts() == p["log"][turn["log_from"]:turn["log_to"]]
