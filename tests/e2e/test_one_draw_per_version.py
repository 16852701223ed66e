"""The board is drawn once per version: the answer to a move and the socket's message of
the same version (or the page's first read and the socket's first message) do not draw
it twice, which would replace the board under the player's finger or pointer."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.e2e.conftest import (
    Server,
    click_board_moves,
    open_play,
    wait_my_turn,
)

# Record the version on screen at each redraw of the board (its children replaced).
WATCH_JS = """() => {
  window.__draws = [];
  new MutationObserver(records => {
    if (records.some(r => r.removedNodes.length))
      window.__draws.push(Number(document.body.dataset.version));
  }).observe(document.getElementById('board'), { childList: true });
}"""


def test_each_version_is_drawn_once_after_the_players_moves(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Five moves of a 2-player White Castle game against a bot, by clicks on the board:
    every version the page showed was drawn once, including the mover's own."""
    created = server.create("white-castle", ["human", "random"], seed=4242)
    page = new_page("one-draw")
    open_play(page, created["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    page.wait_for_timeout(500)  # the socket's first message has come (same version)
    page.evaluate(WATCH_JS)
    moves = click_board_moves(page, random.Random(4242), 5)
    page.wait_for_timeout(800)  # any second copy of the last version arrives
    draws: list[Any] = page.evaluate("() => window.__draws")
    assert moves >= 3 and draws
    twice = sorted({v for v in draws if draws.count(v) > 1})
    assert not twice, f"versions drawn more than once: {twice} (all draws: {draws})"
