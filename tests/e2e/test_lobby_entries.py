"""The lobby's "My games" entries and level words (issue 10): each entry says the game,
its mode, who sits where and the date the server created it (not when this browser first
opened it), and the bot levels' tooltips give the figures of the bot table in
docs/playing.md (the README's until issue 29)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server, open_play

BOT_TABLE = Path(__file__).resolve().parents[2] / "docs" / "playing.md"


def test_an_entry_opened_from_a_link_says_game_mode_seats_and_the_creation_date(
        server: Server, new_page: Callable[..., Any]) -> None:
    """An invite opened a while after the game was made: the entry's date is the game's."""
    created = server.create("clansman", ["human"] * 4, seed=21, expert=True,
                            emperor_side="B")
    time.sleep(2.2)  # the browser opens the link later than the game was created
    page = new_page("lobby-entry-date")
    open_play(page, created["seats"][2]["url"])
    payload = server.api(f"/api/games/{created['id']}")
    page.goto(server.url + "/")
    entry = page.locator(f"#my-games-list li.my-game[data-game-id='{created['id']}']")
    expect(entry).to_have_attribute("data-loaded", "true")
    text = entry.inner_text()
    assert "I, Clansman" in text and "Expert" in text and "side B" in text, text
    assert "4 players" in text and "seats:" in text, text
    assert re.search(r"\bteal you\b|\borange you\b|\bblue you\b|\bpink you\b", text), text
    stamp = entry.locator("time").get_attribute("datetime")
    shown = page.evaluate("d => new Date(d).getTime() / 1000", stamp)
    assert abs(shown - payload["created_at"]) < 0.01, (stamp, payload["created_at"])


def test_the_level_tooltips_give_the_docs_figures(server: Server,
                                                  new_page: Callable[..., Any]) -> None:
    """The hard level's tooltip names the game's own iteration figure, the bot table's."""
    row = next(line for line in BOT_TABLE.read_text(encoding="utf-8").splitlines()
               if line.startswith("| `hard`"))
    page = new_page("lobby-level-figures")
    page.goto(server.url + "/")
    seen = set()
    for game in ("white-castle", "clansman"):
        page.wait_for_selector(f"#game-select option[value='{game}']", state="attached")
        page.select_option("#game-select", game)
        title = page.get_attribute("#seat-1 option[value='hard']", "title") or ""
        m = re.search(r"([\d,]+) iterations", title)
        assert m and "reference" not in title, title
        assert m[1] in row, (game, title, row)
        seen.add(m[1])
    assert len(seen) == 2
