"""The post-game review in the browser (issue 37): at the end of a game a seat asks for
the review of its own decisions, watches its progress, and reads the three biggest
mistakes (a deliberately bad decision first), each a link to that moment of the replay,
where the mistakes are marked on the timeline; the replay of a seat's own link shows the
same review."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import Server, open_play
from tests.learn.test_review import BUDGET, record_with_a_blunder


@pytest.mark.timeout(600)
def test_a_seats_review_puts_its_deliberate_blunder_first_and_marks_it_in_the_replay(
        server_factory: Callable[..., Server], new_page: Callable[..., Any]) -> None:
    srv = server_factory(extra=("--review-iterations", str(BUDGET)))
    record, where = record_with_a_blunder("white-castle", 2, 3)
    created = srv.create("white-castle", ["human", "human"], seed=record.seed)
    gid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    for version, text in enumerate(record.actions):
        mover = srv.api(f"/api/games/{gid}")["to_move"]
        srv.api(f"/api/games/{gid}/moves",
                {"token": tokens[mover], "action": text, "version": version})
    page = new_page("review")
    open_play(page, created["seats"][0]["url"])
    page.wait_for_selector("body[data-over='true']")
    page.click("#review-button")
    page.wait_for_selector("#review-panel[data-ready='true']", timeout=300_000)
    first = page.locator("#review-mistakes li").first
    assert first.get_attribute("data-index") == str(where)
    assert f"decision {where + 1}" in first.inner_text()
    assert "points lost" in page.inner_text("#review-summary")
    assert page.locator("#review-rounds li").count() >= 1
    href = first.locator("a.review-jump").get_attribute("href")
    assert href == f"/replay/{gid}?token={tokens[0]}&step={where}"
    first.locator("a.review-jump").click()
    page.wait_for_url(re.compile(rf"/replay/{gid}\?token=.*&step={where}"))
    page.wait_for_selector(f"body[data-step='{where}']")
    page.wait_for_selector("#review-marks .review-mark")  # the stored review, at once
    mark = page.locator("#review-marks .review-mark[data-rank='1']")
    assert mark.get_attribute("data-index") == str(where)
    page.click("#replay-end")
    page.wait_for_selector(f"body[data-step='{len(record.actions)}']")
    mark.click()  # a mark goes to its decision
    page.wait_for_selector(f"body[data-step='{where}']")
