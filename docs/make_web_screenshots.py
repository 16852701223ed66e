"""Take the web client's screenshots in docs/ from the current build: the lobby, The White
Castle and I, Clansman at a desktop's size and a phone's, mid-game, and the end of a game
with its statistics.

Run: .venv/bin/python docs/make_web_screenshots.py   (about a minute; needs /usr/bin/chromium)

It serves a throwaway SQLite file on a free 127.0.0.1 port with `kamon serve` (the browser
tests' Server, tests/e2e/conftest.py), plays seeded choices by clicking as a player would,
and writes docs/screenshot-{lobby,web,phone,clansman,clansman-phone}.png; a whole game (its
human seat's choices made through the API) ends with docs/screenshot-game-over-phone.png
and docs/screenshot-statistics.png. The guided game's pictures (docs/screenshot-tutorial*.png)
come from tests/e2e/test_tutorial.py's run.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import (  # noqa: E402  (the repository's root on the path first)
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    Server,
    drive,
    free_port,
    open_play,
    tokens_of,
    version,
    wait_my_turn,
    wait_version_after,
)

DOCS = ROOT / "docs"
NAME = "Aiko"  # the player's name, typed once in the lobby


def play(page: Any, decisions: int, rng: random.Random) -> None:
    """Make `decisions` seeded choices from the list, each as a click, waiting for the
    bots between them."""
    for _ in range(decisions):
        if wait_my_turn(page) == "over":
            return
        buttons = page.locator("#actions button.action:not(.skip)")
        before = version(page)
        buttons.nth(rng.randrange(buttons.count())).click()
        wait_version_after(page, before)
    wait_my_turn(page)


def shoot(page: Any, name: str) -> None:
    """The window as a player sees it, once the page's own scroll to the decision ends."""
    page.wait_for_timeout(900)
    page.screenshot(path=str(DOCS / name))
    print(f"wrote docs/{name}")


def game(browser: Any, server: Server, game_name: str, seats: list[str], seed: int,
         moves: int, desktop_png: str, phone_png: str) -> None:
    """A game with one named human seat, played `moves` decisions on a desktop, then
    shown on a desktop and on a phone."""
    made = server.api("/api/games", {"game": game_name, "players": len(seats),
                                     "seats": seats, "seed": seed, "name": NAME})
    url = server.url + made["seats"][0]["link"]
    for size, png in ((DESKTOP, desktop_png), (PHONE, phone_png)):
        context = browser.new_context(viewport=size, device_scale_factor=1 if size is DESKTOP
                                      else 2, is_mobile=size is PHONE, has_touch=size is PHONE)
        page = context.new_page()
        open_play(page, url)
        if size is DESKTOP:
            play(page, moves, random.Random(seed))
        else:
            wait_my_turn(page)
        shoot(page, png)
        context.close()


def finished(browser: Any, server: Server) -> None:
    """A whole game against two bots, its human seat's choices made through the API while
    its page is open on a phone (the end comes to the top of the page), then its
    statistics on a desktop."""
    made = server.api("/api/games", {"game": "white-castle", "players": 3,
                                     "seats": ["human", "easy", "easy"], "seed": 8,
                                     "name": NAME})
    url = server.url + made["seats"][0]["link"]
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    open_play(page, url)
    drive(server, made["id"], tokens_of(made), lambda p: p["over"], random.Random(8))
    page.wait_for_selector("body[data-stats='ready']")
    shoot(page, "screenshot-game-over-phone.png")
    context.close()
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    open_play(page, url)
    page.wait_for_selector("body[data-stats='ready']")
    page.locator("#stats-panel").evaluate("e => e.scrollIntoView()")
    page.evaluate("window.scrollBy(0, -60)")  # (under the sticky status line)
    shoot(page, "screenshot-statistics.png")
    context.close()


def main() -> None:
    """Serve, shoot, stop."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "shots.db", free_port(), Path(tmp) / "server.log")
        server.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                context = browser.new_context(viewport=DESKTOP)
                page = context.new_page()
                page.goto(server.url + "/")
                page.fill("#player-name", NAME)
                page.keyboard.press("Tab")
                page.wait_for_selector(".game-card")
                shoot(page, "screenshot-lobby.png")
                context.close()
                game(browser, server, "white-castle", ["human", "easy", "easy"], 42, 24,
                     "screenshot-web.png", "screenshot-phone.png")
                game(browser, server, "clansman", ["human", "easy", "easy", "easy"], 5, 9,
                     "screenshot-clansman.png", "screenshot-clansman-phone.png")
                finished(browser, server)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
