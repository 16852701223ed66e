"""When it becomes your turn the page says so even when you look elsewhere: the tab's title
and icon change, a sound plays if you turned it on (remembered), and a browser
notification shows if you allowed them and the page is in the background."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import Server, drive, open_play, tokens_of, wait_my_turn

# Counts what the page asks of the browser's sound and notification APIs (the real APIs
# still run: the spy only counts calls).
SPY_JS = """
window.__sounds = 0;
window.__notes = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...a) { window.__sounds += 1; return start.apply(this, a); };
const Real = window.Notification;
if (Real) {
  window.Notification = class extends Real {
    constructor(title, opts) { super(title, opts); window.__notes.push(title + ' | ' + (opts && opts.body)); }
  };
}
"""

ICON_JS = "() => document.querySelector('link[rel~=icon]').href"


def _hand_over(server: Server, game_id: str, tokens: dict[int, str], to: int) -> None:
    """The other seat plays until it is seat `to`'s decision."""
    other = {s: t for s, t in tokens.items() if s != to}
    drive(server, game_id, other, lambda p: p["to_move"] == to, random.Random(2))


@pytest.mark.timeout(150)
def test_your_turn_changes_the_title_and_icon_sounds_and_notifies(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Seat 0 waits while seat 1 plays: when the turn comes, the title and the icon
    change; with the sound toggle on (it starts off and is remembered after a reload) a
    tone is synthesized; with "Notify me" on, permission granted and the page hidden, a
    notification says it is your turn. Back to waiting, title and icon are plain again."""
    created = server.create("white-castle", ["human", "human"], seed=4242)
    tokens = tokens_of(created)
    game = created["id"]
    first = server.api(f"/api/games/{game}")["to_move"]
    me = 1 - first
    page = new_page("alert")
    page.context.grant_permissions(["notifications"], origin=server.url)
    page.add_init_script(SPY_JS)
    open_play(page, created["seats"][me]["url"])
    assert "Your turn" not in page.title()
    plain_icon = page.evaluate(ICON_JS)
    assert plain_icon.endswith(".svg")

    sound = page.locator("#sound-toggle")
    assert not sound.is_checked(), "the sound must start off"
    sound.check()
    page.reload()
    page.wait_for_selector("#connection.live")
    assert page.locator("#sound-toggle").is_checked(), "the sound toggle is not remembered"
    page.locator("#notify-toggle").check()   # a user gesture: the permission is asked
    page.wait_for_function("() => Notification.permission === 'granted'")
    # the page goes to the background (another tab in front)
    page.evaluate("""() => {
      Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
      Object.defineProperty(document, 'hidden', {value: true, configurable: true});
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    _hand_over(server, game, tokens, me)
    assert wait_my_turn(page) == "turn"
    page.wait_for_function("() => document.title.includes('Your turn')")
    assert page.evaluate(ICON_JS) != plain_icon
    page.wait_for_function("() => window.__sounds > 0")
    page.wait_for_function("() => window.__notes.length > 0")
    note = page.evaluate("() => window.__notes[0]")
    assert "your turn" in note.lower(), note

    # back in front and playing: after the move, waiting again, all is plain
    page.evaluate("""() => {
      Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
      Object.defineProperty(document, 'hidden', {value: false, configurable: true});
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    drive(server, game, {me: tokens[me]}, lambda p: p["to_move"] != me, random.Random(3))
    page.wait_for_function("() => !document.title.includes('Your turn')")
    assert page.evaluate(ICON_JS) == plain_icon


@pytest.mark.timeout(90)
def test_no_sound_and_no_notification_unless_asked(server: Server,
                                                   new_page: Callable[..., Any]) -> None:
    """By default the turn changes only the title and icon: no sound, no notification,
    and no permission asked without a click."""
    created = server.create("white-castle", ["human", "human"], seed=4243)
    tokens = tokens_of(created)
    first = server.api(f"/api/games/{created['id']}")["to_move"]
    me = 1 - first
    page = new_page("alert-quiet")
    page.add_init_script(SPY_JS)
    open_play(page, created["seats"][me]["url"])
    _hand_over(server, created["id"], tokens, me)
    assert wait_my_turn(page) == "turn"
    page.wait_for_function("() => document.title.includes('Your turn')")
    page.wait_for_timeout(300)
    assert page.evaluate("() => [window.__sounds, window.__notes.length]") == [0, 0]
    assert page.evaluate("() => Notification.permission") == "default"
