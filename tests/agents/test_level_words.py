"""What each bot level is said to be comes from one place (kamon.agents.level_summaries):
the lobby's catalogue gives it per game, and the bot table of docs/playing.md (once the
README's) says the same figures (issue 10: the lobby said "2700 reference iterations"
where the README said 900/1,227). Each level also has plain words for a player
(kamon.agents.level_words: no jargon), which the catalogue, that table and `kamon games`
give the same."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from kamon.agents import (
    EXPERT_SECONDS,
    HARD_ITERATIONS,
    LEVELS,
    level_summaries,
    level_words,
    make_agent,
)
from kamon.agents.base import hooks_for
from kamon.games import get_game
from kamon.server.app import create_app

# The bot levels table players read (moved there from the README, issue 29).
BOT_TABLE = Path(__file__).resolve().parents[2] / "docs" / "playing.md"


def summaries(name: str) -> dict[str, str]:
    """The level words of a game."""
    g = get_game(name)
    return level_summaries(g.new_game(g.min_players, 0))


def hard_iterations(name: str) -> int:
    """The iterations the hard level's words give for a game."""
    m = re.search(r"([\d,]+) iterations", summaries(name)["hard"])
    assert m, summaries(name)
    return int(m[1].replace(",", ""))


def test_the_hard_level_words_give_the_iterations_it_searches_with() -> None:
    """The figure in the words is the budget the hard agent really uses in that game."""
    for name in ("white-castle", "clansman"):
        g = get_game(name)
        state = g.new_game(g.min_players, 0)
        weight = hooks_for(state).mcts_iteration_weight
        assert hard_iterations(name) == max(1, round(HARD_ITERATIONS / weight))
        assert set(summaries(name)) == set(LEVELS)
        assert make_agent("hard", 1).name == "hard"
    assert hard_iterations("white-castle") != hard_iterations("clansman")


def test_the_docs_bot_table_says_what_the_levels_say() -> None:
    """The bot table's `hard` row names each game's iteration figure of the level words."""
    rows = [line for line in BOT_TABLE.read_text(encoding="utf-8").splitlines()
            if line.startswith("| `hard`")]
    assert len(rows) == 1, rows
    for name in ("white-castle", "clansman"):
        assert f"{hard_iterations(name):,}" in rows[0], (name, rows[0])


def test_the_catalog_gives_each_game_its_level_words(tmp_path: Path) -> None:
    """The lobby reads each game's `levels` from the catalogue: the same words."""
    with TestClient(create_app(str(tmp_path / "k.db"), bot_workers=0, bot_delay=0)) as c:
        catalog = c.get("/api/catalog").json()
    for entry in catalog["games"]:
        assert entry["levels"] == summaries(entry["name"])
        assert "reference" not in entry["levels"]["hard"]


JARGON = ("ISMCTS", "MCTS", "greedy", "iterations", "priors", "epsilon", "wall clock")


def test_the_plain_words_are_plain_and_say_what_each_level_is() -> None:
    """Every level has plain words, free of the technical terms, with its figures: easy's
    random move one time in four, expert's seconds a move."""
    words = level_words()
    assert set(words) == set(LEVELS)
    for level, text in words.items():
        assert text and not any(j.lower() in text.lower() for j in JARGON), (level, text)
    assert words["easy"].startswith("a beginner") and "one time in 4" in words["easy"]
    assert words["normal"].startswith("plays sensibly")
    assert words["hard"].startswith("plays well") and "second a move" in words["hard"]
    assert words["expert"].startswith("the strongest")
    assert f"{EXPERT_SECONDS:g} seconds a move" in words["expert"]


def test_the_docs_and_the_catalog_give_the_plain_words(tmp_path: Path) -> None:
    """The bot table of docs/playing.md and the catalogue (per game and per seat kind) say
    the same plain words."""
    table = BOT_TABLE.read_text(encoding="utf-8")
    for level, text in level_words().items():
        rows = [line for line in table.splitlines() if line.startswith(f"| `{level}`")]
        assert len(rows) == 1 and f"| {text} |" in rows[0], (level, rows)
    with TestClient(create_app(str(tmp_path / "k.db"), bot_workers=0, bot_delay=0)) as c:
        catalog = c.get("/api/catalog").json()
    for entry in catalog["games"]:
        assert entry["level_words"] == level_words()
    seats = {s["kind"]: s for s in catalog["seats"]}
    for level, text in level_words().items():
        assert seats[level]["words"] == text
        assert seats[level]["summary"] == LEVELS[level].summary   # the technical line
    assert all(s["words"] for s in catalog["seats"])
