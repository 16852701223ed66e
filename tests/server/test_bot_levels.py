"""The bot levels on the server: the catalogue offers expert, and an expert bot keeps its
own time budget and plays a game the server drives (the level words per game:
tests/agents/test_level_words.py)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import kamon.agents as agents_pkg
from kamon.agents import EXPERT_SECONDS, LEVELS, MCTSAgent
from kamon.server.bots import BOT_SECONDS, server_agent
from tests.server.conftest import create, play_humans, token_of


def test_catalog_offers_expert_with_its_words(client: TestClient) -> None:
    """The seat kinds include expert, said to think 3 s of wall clock, in every game too."""
    cat = client.get("/api/catalog").json()
    summaries = {s["kind"]: s["summary"] for s in cat["seats"]}
    assert summaries["expert"] == LEVELS["expert"].summary
    assert "3 s" in summaries["expert"]
    for g in cat["games"]:
        assert g["levels"]["expert"] == LEVELS["expert"].summary


def test_server_bots_keep_expert_time_and_cap_iteration_searches() -> None:
    """hard stops after BOT_SECONDS on the server; expert keeps EXPERT_SECONDS (3 s)."""
    expert, hard = server_agent("expert", 1), server_agent("hard", 1)
    assert isinstance(expert, MCTSAgent) and isinstance(hard, MCTSAgent)
    assert expert.seconds == EXPERT_SECONDS == 3.0 > BOT_SECONDS
    assert expert.iterations is None
    assert hard.seconds == BOT_SECONDS and hard.iterations == agents_pkg.HARD_ITERATIONS


def test_an_expert_bot_plays_on_the_server(client: TestClient,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A game with an expert seat is created and its bot moves (time budget shortened)."""
    monkeypatch.setattr(agents_pkg, "EXPERT_SECONDS", 0.02)
    created = create(client, "white-castle", 2, ["human", "expert"])
    assert created["seats"][1]["level"] == "expert"
    tokens = {0: token_of(created, 0)}
    humans = 0
    p = play_humans(client, created["id"], tokens, moves=0)
    while p["version"] <= humans:  # every decision so far was the human's (a White
        p = play_humans(client, created["id"], tokens, moves=1)  # Castle turn is several)
        humans += 1
        assert humans < 100, "the expert bot never moved"
    assert p["version"] > humans  # the human's moves and at least one of the bot's
