"""Two people and a spectator on one game, reloads, server restarts and undo."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import (
    Clicks,
    Server,
    click_choice,
    create_in_lobby,
    log_lines,
    open_play,
    shot,
    snapshot,
    version,
    wait_my_turn,
    wait_version_after,
)

MARK = "window.__kamonSamePage = true"   # survives only as long as no reload happens
MARKED = "() => window.__kamonSamePage === true"


@pytest.mark.timeout(240)
def test_two_humans_and_a_spectator_see_moves_live(server: Server,
                                                  new_page: Callable[..., Any]) -> None:
    """Two browser contexts on the two invite links of one game (one of them phone-sized)
    and a spectator: every move by one appears in the others without a reload."""
    lobby = new_page("lobby")
    # two people: the server draws the seed (the lobby's seed field is off)
    created = create_in_lobby(lobby, server, "white-castle", ["human", "human"], seed=None)
    assert lobby.is_disabled("#seed-input")
    players = [new_page("wc-seat0"), new_page("wc-seat1-phone", phone=True)]
    spectator = new_page("wc-spectator")
    for page, url in ((players[0], created.invites[0]), (players[1], created.invites[1])):
        open_play(page, url)
    # the spectator comes in through the lobby's "join by link" (after a wrong link)
    spectator.goto(server.url + "/")
    spectator.fill("#join-input", "https://example.invalid/not-a-game")
    spectator.click("#join-form button[type=submit]")
    expect(spectator.locator("#join-error")).to_contain_text("not a kamon game link")
    spectator.fill("#join-input", created.spectator)
    spectator.click("#join-form button[type=submit]")
    spectator.wait_for_url(created.spectator)
    spectator.wait_for_selector("#connection.live")
    for page in (*players, spectator):
        page.evaluate(MARK)
    assert "spectator" in spectator.inner_text("#identity")
    assert spectator.inner_text("#actions-title").strip() == "Spectating"
    rng = random.Random(11)
    clicks = Clicks()
    grown = {id(other): 0 for other in (*players, spectator)}  # moves that added log lines
    for step in range(12):
        seat = server.api(f"/api/games/{created.game_id}")["to_move"]
        mover, other = players[seat], players[1 - seat]
        assert wait_my_turn(mover) == "turn"
        assert "your-turn" not in (other.get_attribute("#status", "class") or "")
        assert other.locator("button.action").count() == 0
        assert spectator.locator("button.action").count() == 0
        seen = {id(p): (version(p), len(log_lines(p))) for p in (other, spectator)}
        click_choice(mover, rng, clicks)
        v = version(mover)
        lines = log_lines(mover)
        for page in (other, spectator):
            wait_version_after(page, seen[id(page)][0])
            page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=v)
            assert version(page) == version(mover), f"step {step}: versions differ"
            got = log_lines(page)
            assert len(got) == len(lines), f"step {step}: {got[-3:]} vs {lines[-3:]}"
            grown[id(page)] += len(got) > seen[id(page)][1]
        if step == 5:
            shot(players[1], "wc-phone.png", top=True)
            shot(spectator, "wc-spectator.png", top=True)
    # the phone-sized page fits its width (a wide board scrolls inside its own box)
    assert players[1].evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert grown[id(spectator)] >= 6, grown
    assert all(grown[id(p)] >= 1 for p in players), grown
    for page in (*players, spectator):
        assert page.evaluate(MARKED), "a page was reloaded"
        assert "live" in (page.get_attribute("#connection", "class") or "")
    assert not clicks.board_failures, "\n".join(clicks.board_failures)


def _human_decisions(page: Any, rng: random.Random, n: int) -> None:
    """Make n decisions of this seat by clicking (list and board)."""
    clicks = Clicks()
    for _ in range(n):
        assert wait_my_turn(page) == "turn"
        click_choice(page, rng, clicks)
    assert not clicks.board_failures, "\n".join(clicks.board_failures)


@pytest.mark.timeout(240)
def test_reload_and_server_restart_resume_the_game(server_factory: Callable[..., Server],
                                                   new_page: Callable[..., Any],
                                                   tmp_path: Path) -> None:
    """A reload mid-game shows the same position; so does a server stopped and started
    again on the same database (the open page reconnects by itself), and a bot whose
    move was pending when the server stopped moves once it is back."""
    db = tmp_path / "restart.db"
    srv = server_factory(db=db)
    created = srv.create("white-castle", ["human", "random"], seed=9090)
    page = new_page("wc-restart")
    open_play(page, created["seats"][0]["url"])
    rng = random.Random(21)
    _human_decisions(page, rng, 6)
    assert wait_my_turn(page) == "turn"
    before = snapshot(page)
    assert len(before["log"]) > 1

    page.evaluate(MARK)
    page.reload()
    page.wait_for_selector("#connection.live")
    assert wait_my_turn(page) == "turn"
    assert not page.evaluate(MARKED), "the page was not reloaded"
    assert snapshot(page) == before

    # stop the server, start a new one on the same file and port, its bots slowed down
    port = srv.port
    srv.stop()
    page.wait_for_selector("#connection.lost")
    page.evaluate(MARK)
    srv = server_factory(db=db, port=port, bot_delay=300)
    page.wait_for_selector("#connection.live", timeout=30_000)   # reconnected by itself
    assert page.evaluate(MARKED)
    assert snapshot(page) == before
    page.reload()
    page.wait_for_selector("#connection.live")
    assert wait_my_turn(page) == "turn"
    assert snapshot(page) == before
    page.evaluate(MARK)

    # play on until the bot is to decide (its move now waits for the bot delay)
    clicks = Clicks()
    for _ in range(40):
        if "bot-turn" in (page.get_attribute("#status", "class") or ""):
            break
        assert wait_my_turn(page) == "turn"
        click_choice(page, rng, clicks)
    else:
        pytest.fail("the bot was never to decide")
    pending = version(page)
    assert srv.api(f"/api/games/{created['id']}")["version"] == pending

    # a restart with prompt bots: the pending bot decision is made at start-up
    srv.stop()
    page.wait_for_selector("#connection.lost")
    srv = server_factory(db=db, port=port)
    page.wait_for_selector("#connection.live", timeout=30_000)
    wait_version_after(page, pending)
    assert wait_my_turn(page) in ("turn", "over")
    assert page.evaluate(MARKED)
    assert not clicks.board_failures, "\n".join(clicks.board_failures)
    srv.stop()


@pytest.mark.timeout(180)
def test_undo_takes_back_a_decision(server: Server, new_page: Callable[..., Any]) -> None:
    """After a decision that revealed nothing (the same seat decides on), #undo appears;
    it restores the position before that decision (status, choices, log and board)."""
    created = server.create("white-castle", ["human", "random"], seed=5150)
    page = new_page("wc-undo")
    open_play(page, created["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    assert not page.locator("#undo").is_visible(), "undo offered before any move"
    rng = random.Random(2)
    clicks = Clicks()
    for _ in range(80):
        assert wait_my_turn(page) == "turn", "the game ended before an undoable decision"
        before = snapshot(page)
        board = page.inner_text("#board")
        click_choice(page, rng, clicks, board_share=0.3)
        if wait_my_turn(page) != "turn" or version(page) != before["version"] + 1:
            continue   # the bot moved since: nothing of this seat's to take back
        if not page.locator("#undo").is_visible():
            continue   # the decision revealed something (a card, a die)
        page.click("#undo")
        wait_version_after(page, before["version"] + 1)
        assert wait_my_turn(page) == "turn"
        assert page.inner_text("#choice-error").strip() == ""
        after = snapshot(page)
        assert after["version"] == before["version"] + 2   # the undo is a stored row
        del after["version"], before["version"]
        assert after == before
        assert page.inner_text("#board") == board
        break
    else:
        pytest.fail("no decision could be undone in 80 decisions")
    # the game goes on after the undo
    _human_decisions(page, rng, 2)
    assert not clicks.board_failures, "\n".join(clicks.board_failures)
