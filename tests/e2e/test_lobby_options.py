"""The lobby's options reach the game: solo difficulty, the Expert game and its Emperor
side, and the unofficial small-table variant that fewer players require."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Server, create_in_lobby, open_play

SEAT_URL = re.compile(r"/play/[^/?#]+\?token=")  # a seat's page (the lobby goes to it)


def _payload(srv: Server, url: str) -> dict[str, Any]:
    """The server's payload for an invite link."""
    gid_token = url.split("/play/", 1)[1]
    gid, _, token = gid_token.partition("?token=")
    return dict(httpx.get(f"{srv.url}/api/games/{gid}", params={"token": token}).json())


def test_solo_difficulty_and_expert_options_are_sent(server: Server,
                                                     new_page: Callable[..., Any]) -> None:
    page = new_page("lobby-options")
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='white-castle']", state="attached")
    page.select_option("#players-select", "1")
    page.select_option("#opt-difficulty", "hard")
    page.fill("#seed-input", "5")
    page.click("#create-button")
    page.wait_for_url(SEAT_URL)  # one human seat: the lobby goes straight to it
    solo = page.url
    p = _payload(server, solo)
    assert p["options"] == {"difficulty": "hard"} and p["view"]["rival"] is not None
    open_play(page, solo)
    page.wait_for_selector("#board svg")
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='clansman']", state="attached")
    page.select_option("#game-select", "clansman")
    page.locator("#opt-expert").set_checked(True)
    page.select_option("#opt-emperor_side", "B")
    page.select_option("#seat-1", "random")
    page.click("#create-button")
    page.wait_for_url(SEAT_URL)  # one human seat: the lobby goes straight to it
    first = page.url
    assert _payload(server, first)["options"] == {"expert": True, "emperor_side": "B"}


def test_three_player_clansman_uses_the_small_table_variant(
        server: Server, new_page: Callable[..., Any]) -> None:
    page = new_page("lobby-variant")
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='clansman']", state="attached")
    page.select_option("#game-select", "clansman")
    assert "unofficial" in page.inner_text("#players-select option[value='3']")
    page.select_option("#players-select", "3")
    assert page.is_disabled("#opt-variant")
    assert page.input_value("#opt-variant") == "small-table"
    created = create_in_lobby(page, server, "clansman", ["human", "random", "random"], 9)
    p = _payload(server, created.invites[0])
    assert p["players"] == 3 and p["options"]["variant"] == "small-table"


LABEL_BEFORE_JS = """id => {
  // the words a control is labelled with, and whether they come before it
  const control = document.getElementById(id);
  const label = control.closest('label') || document.querySelector(`label[for="${id}"]`);
  if (!label) return null;
  const text = label.textContent.trim();
  const pos = control.closest('label') ? (() => {
    const r = document.createRange();
    r.setStart(label, 0);
    r.setEndBefore(control);
    return r.toString().trim().length;
  })() : (label.compareDocumentPosition(control) & Node.DOCUMENT_POSITION_FOLLOWING ? 1 : 0);
  return {text, before: pos > 0,
          options: control.tagName === 'SELECT' ? [...control.options].map(o => o.text) : null,
          selected: control.tagName === 'SELECT' ? control.selectedOptions[0].text : null};
}"""


def test_the_lobby_names_levels_and_options_in_words(server: Server,
                                                    new_page: Callable[..., Any]) -> None:
    """The solo difficulty shows a named level (medium) by default; I, Clansman's options
    are words with their label before the control; a solo game created without touching
    the difficulty is played at medium, said so."""
    page = new_page("lobby-words")
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='white-castle']", state="attached")
    page.select_option("#players-select", "1")
    solo = page.evaluate(LABEL_BEFORE_JS, "opt-difficulty")
    assert solo and solo["before"], solo
    assert solo["selected"] == "medium" and solo["options"] == ["easy", "medium", "hard"], solo
    assert "difficulty" in solo["text"].lower()
    page.fill("#seed-input", "11")
    page.click("#create-button")
    page.wait_for_url(SEAT_URL)  # one human seat: the lobby goes straight to it
    url = page.url
    assert _payload(server, url)["options"] == {"difficulty": "medium"}

    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='clansman']", state="attached")
    page.select_option("#game-select", "clansman")
    page.locator("#opt-expert").set_checked(True)
    expert = page.evaluate(LABEL_BEFORE_JS, "opt-expert")
    assert expert and expert["before"] and "Expert" in expert["text"], expert
    side = page.evaluate(LABEL_BEFORE_JS, "opt-emperor_side")
    assert side and side["before"] and side["text"].startswith("Emperor cards"), side
    assert side["options"] == ["side A", "side B"], side
    variant = page.evaluate(LABEL_BEFORE_JS, "opt-emperor_variant")
    assert variant and variant["before"] and variant["text"].startswith("Emperor variant")
    assert variant["options"][0] == "none" and "—" not in " ".join(variant["options"])
    for opts in (side["options"], variant["options"]):
        assert all(o.strip() and o != "—" for o in opts)


def test_my_games_say_game_mode_seats_and_date(server: Server,
                                              new_page: Callable[..., Any]) -> None:
    """Each entry of "My games" says the game, its mode, who sits where and when it was
    created."""
    page = new_page("lobby-my-games")
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='white-castle']", state="attached")
    page.select_option("#players-select", "1")
    page.select_option("#opt-difficulty", "hard")
    page.click("#create-button")
    page.wait_for_url(SEAT_URL)
    created = create_in_lobby(page, server, "clansman", ["human", "random", "easy", "human"],
                              seed=None)  # two people: the server draws the deal
    page.goto(server.url + "/")
    entries = page.locator("#my-games-list li.my-game")
    expect(entries.first).to_contain_text("seat")
    page.wait_for_function("() => [...document.querySelectorAll('#my-games-list li.my-game')]"
                           ".every(li => li.dataset.loaded)")
    texts = entries.all_inner_texts()
    solo = next(t for t in texts if "The White Castle" in t)
    assert "solo" in solo and "hard" in solo and "blue" in solo, solo
    clan = [t for t in texts if "I, Clansman" in t]
    # one seat of this browser: its creator's (the other human seat's link is a friend's)
    assert len(clan) == 1, texts
    for t in clan:
        assert "Beginner" in t and "4 players" in t, t
        assert "random" in t and "easy" in t, t     # the bots' seats
        assert "pink human" in t and "blue you" in t, t
    dates = page.locator(f"#my-games-list li[data-game-id='{created.game_id}'] time")
    assert dates.count() == 1
    iso = dates.first.get_attribute("datetime")
    shown = page.evaluate("d => new Date(d).getTime()", iso)
    assert abs(shown / 1000 - time.time()) < 600, iso   # created just now
    assert dates.first.inner_text().strip()


def test_the_level_tooltips_are_the_catalog_summaries(server: Server,
                                                     new_page: Callable[..., Any]) -> None:
    """What the lobby says about a bot level (its tooltip and the words under the seat)
    is the server's summary of it, for the selected game: the page writes no figures of
    its own."""
    catalog = server.api("/api/catalog")
    page = new_page("lobby-levels")
    page.goto(server.url + "/")
    for game in ("white-castle", "clansman"):
        page.wait_for_selector(f"#game-select option[value='{game}']", state="attached")
        page.select_option("#game-select", game)
        entry = next(g for g in catalog["games"] if g["name"] == game)
        summaries = {s["kind"]: s["summary"] for s in catalog["seats"]}
        summaries.update(entry.get("levels") or {})
        titles = page.locator("#seat-1 option").evaluate_all(
            "os => os.map(o => [o.value, o.title])")
        assert titles and all(t == summaries[k] for k, t in titles), titles
        page.select_option("#seat-1", "hard")
        expect(page.locator("#seat-1-help")).to_have_text(summaries["hard"])
