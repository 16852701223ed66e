"""Replays in the browser: a finished game from its page, and an uploaded record file.

The replay page asks the server for each step; what it shows (the step, the round on the
board, every score, the log with the step's lines highlighted) must be what the server's
payload for that step says, and it must change as the viewer steps and jumps.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import STEP_MS, Server, open_play, tokens_of


def finish(srv: Server, game_id: str, tokens: dict[int, str], seed: int) -> dict[str, Any]:
    """Play the human seats through the API (random legal moves) until the game is over."""
    rng = random.Random(seed)
    for _ in range(3000):
        public = srv.api(f"/api/games/{game_id}")
        if public["over"]:
            return dict(public)
        seat = public["to_move"]
        assert seat in tokens, "only human seats here"
        p = srv.api(f"/api/games/{game_id}?token={tokens[seat]}")
        plain = [a for a in p["legal"] if not a["notation"].startswith("exchange")]
        pick = rng.choice(plain or p["legal"])
        srv.api(f"/api/games/{game_id}/moves",
                {"token": tokens[seat], "action": pick["id"], "version": p["version"]})
    raise AssertionError("the game did not end")


def at_step(page: Any, k: int) -> None:
    """Wait until the replay shows step k."""
    page.wait_for_selector(f"body[data-step='{k}']", timeout=STEP_MS)


def check_step(page: Any, srv: Server, answer: dict[str, Any]) -> None:
    """The page shows the server's step: number, round on the board, scores, log."""
    p = answer["payload"]
    k = answer["step"]
    assert page.get_attribute("body", "data-steps") == str(answer["steps"])
    assert page.inner_text("#replay-step").startswith(f"Step {k} of {answer['steps']}")
    rnd = p["view"]["round"]
    assert page.get_attribute("body", "data-round") == str(rnd)
    assert f"Round {rnd} of 3" in page.inner_text("#board")  # the board's own header
    for i, sc in enumerate(p["scores"]):
        for cat, value in sc.items():
            cell = page.locator(f"#replay-scores tr[data-category='{cat}'] "
                                f"td[data-party='{i}']")
            assert cell.inner_text().strip() == str(value), (k, i, cat)
    lines = [t.strip() for t in page.locator("#log li .log-t").all_inner_texts()]
    assert lines == p["log"]
    a, b = answer["lines"]
    current = [t.strip() for t in page.locator("#log li.current .log-t").all_inner_texts()]
    assert current == p["log"][a:b]
    if k:
        move = answer["moves"][k - 1]
        assert (move["text"] or move["notation"]) in page.inner_text("#replay-move")


@pytest.mark.timeout(300)
def test_a_finished_game_opens_as_a_replay_that_steps_and_jumps_to_rounds(
        server: Server, new_page: Callable[..., Any]) -> None:
    """From the finished game's page, Replay opens the game at its setup; Next, Back, the
    jump to a round, End and the arrow keys each show the server's position for the step."""
    created = server.create("white-castle", ["human"], seed=2024)
    gid = created["id"]
    finish(server, gid, tokens_of(created), 2024)
    page = new_page("replay")
    open_play(page, created["seats"][0]["url"])
    page.wait_for_selector("body[data-over='true']")
    page.click("#replay-link")
    page.wait_for_url(f"**/replay/{gid}?token=*")  # (a seat's replay: with its review)
    at_step(page, 0)

    def server_step(k: int) -> dict[str, Any]:
        return dict(server.api(f"/api/games/{gid}/replay?step={k}"))

    start = server_step(0)
    n = start["steps"]
    assert n > 10
    check_step(page, server, start)
    board0 = page.inner_html("#board")
    page.click("#replay-forward")
    at_step(page, 1)
    one = server_step(1)
    check_step(page, server, one)
    assert one["lines"][1] > one["lines"][0], "the first decision adds a log line"
    assert page.locator("#log li.current").count() >= 1
    assert page.inner_html("#board") != board0, "the board changed with the step"
    page.click("#replay-back")
    at_step(page, 0)
    assert page.inner_html("#board") == board0
    # jump to the start of round 2, then of round 3
    for rnd in (2, 3):
        target = next(r for r in start["rounds"] if r["round"] == rnd)
        page.select_option("#round-select", str(target["step"]))
        at_step(page, target["step"])
        answer = server_step(target["step"])
        assert answer["payload"]["view"]["round"] == rnd
        check_step(page, server, answer)
    page.click("#replay-end")
    at_step(page, n)
    end = server_step(n)
    check_step(page, server, end)
    assert page.inner_text("#scores-title") == "Final scores"
    assert "Game over" in page.inner_text("#replay-status")
    winners = page.locator("#replay-scores tr[data-category='total'] td.winner")
    assert sorted(int(x) for x in winners.evaluate_all(
        "ts => ts.map(t => t.dataset.party)")) == sorted(end["payload"]["winners"])
    assert page.is_disabled("#replay-forward")
    page.keyboard.press("ArrowLeft")
    at_step(page, n - 1)
    check_step(page, server, server_step(n - 1))
    page.keyboard.press("Home")
    at_step(page, 0)
    # a click on a log line goes to the decision that wrote it
    mid = server_step(n // 2)
    line = mid["lines"][0]
    assert mid["lines"][1] > line, "that step wrote a line"
    page.select_option("#round-select", str(n))
    at_step(page, n)
    page.locator("#log li").nth(line).click()
    at_step(page, n // 2)
    check_step(page, server, mid)


@pytest.mark.timeout(300)
def test_an_uploaded_record_replays_and_a_corrupt_file_is_refused(
        server: Server, browser: Any, tmp_path: Path) -> None:
    """The record downloaded from a finished game, uploaded on /replay, replays step by
    step as the server computes it; a file that is not a record is refused with what is
    wrong, and one whose move does not apply names the move."""
    created = server.create("white-castle", ["human"], seed=77)
    gid = created["id"]
    finish(server, gid, tokens_of(created), 77)
    record = server.api(f"/api/games/{gid}/record")
    good = tmp_path / "game.json"
    good.write_text(json.dumps(record, indent=1))
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "kamon-record/1", "game": "white-castle", ')
    wrong = tmp_path / "wrong-move.json"
    wrong.write_text(json.dumps({**record, "actions": [*record["actions"][:2],
                                                       "climb nowhere"]}))
    # its own context: a refused upload is a 400, which Chromium logs as a console error
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.set_default_timeout(STEP_MS)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(server.url + "/")
        page.click("#replay-upload-link")
        page.wait_for_url("**/replay")
        page.set_input_files("#record-file", str(good))
        page.click("#upload-button")
        at_step(page, 0)
        n = len(record["actions"])
        assert page.get_attribute("body", "data-steps") == str(n)
        for k in (0, 1, 2):
            if k:
                page.click("#replay-forward")
                at_step(page, k)
            answer = server.api(f"/api/games/{gid}/replay?step={k}")
            check_step(page, server, answer)
        page.click("#replay-end")
        at_step(page, n)
        check_step(page, server, server.api(f"/api/games/{gid}/replay"))
        assert errors == [], errors
        # a corrupt file: refused, the reason shown
        page.set_input_files("#record-file", str(broken))
        page.click("#upload-button")
        page.wait_for_selector("#replay-error:not(:empty)")
        err = page.inner_text("#replay-error")
        assert "cannot be replayed" in err and "not valid JSON" in err, err
        assert page.locator("#replay-main").is_hidden()
        page.set_input_files("#record-file", str(wrong))
        page.click("#upload-button")
        page.wait_for_function("() => document.getElementById('replay-error')"
                               ".textContent.includes('move 3')")
        assert "'climb nowhere'" in page.inner_text("#replay-error")
        assert all("status of 400" in e for e in errors), errors  # nothing else went wrong
    finally:
        ctx.close()


@pytest.mark.timeout(300)
def test_on_a_phone_the_replay_controls_stay_on_screen_and_are_big_enough_to_tap(
        server: Server, new_page: Callable[..., Any]) -> None:
    """At 390x844 the step buttons stay in view at the bottom while the board scrolls,
    each at least 44 px tall, and a tap steps the replay."""
    created = server.create("white-castle", ["human"], seed=31)
    gid = created["id"]
    finish(server, gid, tokens_of(created), 31)
    page = new_page("replay-phone", phone=True)
    page.goto(server.url + f"/replay/{gid}")
    at_step(page, 0)
    page.mouse.wheel(0, 1500)
    page.evaluate("window.scrollTo(0, 1500)")
    for button in ("#replay-start", "#replay-back", "#replay-forward", "#replay-end"):
        box = page.locator(button).bounding_box()
        assert box is not None and box["height"] >= 44, (button, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (button, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#replay-forward").tap()
    at_step(page, 1)
    check_step(page, server, server.api(f"/api/games/{gid}/replay?step=1"))
