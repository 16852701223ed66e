"""Every choice in words (like Board Game Arena), never an engine id: in both games, on a
desktop and on a phone, the list of choices labels each legal action with its words (the
server's `legal[i].text`, capitalised), the board's targets are named by them, and the
phone's Play button reads them; the notation ("place steward1", "marry 300 orange") is
only a developer's detail in a title attribute."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import (
    Server,
    board_target,
    drive,
    open_play,
    tap_board,
    tokens_of,
    wait_my_turn,
)

# game, seats, what the position must offer (a notation prefix), seed
CASES = [("white-castle", ["human", "random"], "place ", 21),
         ("clansman", ["human", "random", "random", "random"], "marry ", 22)]

LIST_JS = """bs => bs.map(b => ({id: b.dataset.actionId, notation: b.dataset.notation,
  label: b.innerText.trim(), title: b.title}))"""


def words(text: str) -> str:
    """A description as the page labels it (the first letter capitalised)."""
    return text[:1].upper() + text[1:]


def notation_in(notation: str, text: str) -> bool:
    """Whether a label shows this notation (a one-word one, "done", only as the whole)."""
    if " " not in notation:
        return text.strip().lower() == notation.lower()
    return notation.lower() in text.lower()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize(("game", "seats", "offer", "seed"), CASES,
                         ids=[c[0] for c in CASES])
def test_choices_are_labelled_in_words(server: Server, new_page: Callable[..., Any],
                                       game: str, seats: list[str], offer: str, seed: int,
                                       phone: bool) -> None:
    """The list, the board's targets and the Play button show words, never notation."""
    created = server.create(game, seats, seed=seed)
    p = drive(server, created["id"], tokens_of(created),
              lambda q: q.get("you") == 0 and any(a["notation"].startswith(offer)
                                                  for a in q.get("legal", [])),
              random.Random(seed))
    page = new_page(f"words-{game}", phone=phone)
    open_play(page, created["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    page.wait_for_function("v => Number(document.body.dataset.version) >= v",
                           arg=p["version"])
    by_id = {str(a["id"]): a for a in p["legal"]}
    shown = page.locator("#actions button.action").evaluate_all(LIST_JS)
    assert shown and len(shown) == len(p["legal"])
    for b in shown:
        a = by_id[b["id"]]
        assert b["label"] == words(a["text"]), b
        assert not notation_in(a["notation"], b["label"]), b
        assert a["notation"] in b["title"], b   # the notation: a developer's detail
    # the board's targets are named by the words
    target_id = next(a["id"] for a in p["legal"] if a["notation"].startswith(offer))
    target = board_target(page, target_id)
    text = by_id[str(target_id)]["text"]
    assert target.get_attribute("aria-label") == words(text)
    explain = target.get_attribute("data-explain") or ""
    assert words(text) in explain and not notation_in(by_id[str(target_id)]["notation"],
                                                      explain)
    if phone:  # a tap selects and explains; the Play button says what it plays, in words
        tap_board(page, target)
        page.wait_for_selector("#confirm-bar:not([hidden])")
        play = page.inner_text("#confirm-play").strip()
        assert play.startswith("Play: ") and play[6:].rstrip("…")[:20] == words(text)[:20], play
        assert not notation_in(by_id[str(target_id)]["notation"], play), play
