"""The bot levels on the server: the catalogue describes them (per game, from kamon.agents),
and an expert bot keeps its own time budget and plays a game the server drives."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import kamon.agents as agents_pkg
from kamon.agents import EXPERT_SECONDS, MCTSAgent, level_descriptions
from kamon.server.bots import BOT_SECONDS, server_agent
from tests.server.conftest import create, play_humans, token_of


def test_catalog_describes_each_level_as_kamon_agents_does(client: TestClient) -> None:
    """The seat kinds' summaries, and each game's own level lines, are level_descriptions."""
    cat = client.get("/api/catalog").json()
    summaries = {s["kind"]: s["summary"] for s in cat["seats"]}
    for name, text in level_descriptions():
        assert summaries[name] == text
    for g in cat["games"]:
        assert g["levels"] == dict(level_descriptions(g["name"]))
    by_name = {g["name"]: g for g in cat["games"]}
    assert "3,600 iterations" in by_name["white-castle"]["levels"]["hard"]
    assert "5,400 iterations" in by_name["clansman"]["levels"]["hard"]
    assert "expert" in summaries


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
    p = play_humans(client, created["id"], {0: token_of(created, 0)}, moves=4)
    assert p["version"] >= 5  # four human moves and at least one of the bot's
