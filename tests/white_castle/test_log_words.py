"""The log and every move description speak in the rulebook's words: random games of every
player count, the solo difficulties and the first game, with no internal id in any text a
player reads (issue 10: `start_resource_5`, `steward_10`, `die_tile_coral_food`, `solo_2`...).
The notation (the machine-readable move) keeps its ids."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from kamon.games.white_castle import GAME
from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import load_data
from kamon.games.white_castle.names import component_name

ID_LIKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+\d+\b|\boutside-(?:left|right)\b")


def known_ids() -> set[str]:
    """Every component id of the game's data (cards, tiles, gardens, the Solitaire deck)."""
    d = load_data()
    ids: set[str] = set()
    for table in (d.stewards, d.diplomats, d.start_actions, d.decrees, d.daimyo, d.die_tiles,
                  d.yard_tiles, d.gardens, d.solo_deck, d.start_resources):
        ids.update(table)
    return ids


KNOWN = known_ids()


def id_tokens(text: str) -> list[str]:
    """The id-like tokens of a text a player reads (snake_case, word+digits, known ids)."""
    found = ID_LIKE.findall(text)
    found += [k for k in KNOWN if re.search(rf"\b{re.escape(k)}\b", text)]
    return found


def play_and_read(players: int, seed: int, **options: Any) -> tuple[int, list[str]]:
    """A random game; every log line and legal-move description with an id, and how many
    texts were read."""
    state = GAME.new_game(players, seed=seed, **options)
    rng = random.Random(seed)
    bad: list[str] = []
    read = 0
    while not state.is_over():
        legal = state.legal_actions()
        texts = [state.decision_text()] + [state.describe(a.id) for a in legal]
        for text in texts:
            read += 1
            if id_tokens(text):
                bad.append(text)
        state.apply(rng.choice(legal))
    for line in state.events:
        read += 1
        if id_tokens(line):
            bad.append(line)
    return read, bad


CONFIGS = [(n, {}) for n in (2, 3, 4)] + [(4, {"first_game": True})] + [
    (1, {"difficulty": d}) for d in ("easy", "medium", "hard")]


@pytest.mark.parametrize(("players", "options"), CONFIGS,
                         ids=[f"{n}p-{'-'.join(map(str, o.values())) or 'base'}"
                              for n, o in CONFIGS])
def test_no_internal_id_in_the_log_or_move_descriptions(players: int,
                                                        options: dict[str, Any]) -> None:
    """Three random games of each setup: no log line, decision or description names an id."""
    for seed in range(3):
        read, bad = play_and_read(players, seed, **options)
        assert read > 200
        assert not bad, f"{len(bad)} texts with ids, e.g. {bad[:3]}"


def test_the_components_are_named_as_the_rulebook_does() -> None:
    """The names a player reads for ids of each deck, tile and space."""
    assert component_name("steward_10") == "Steward card 10"
    assert component_name("diplomat_02") == "Diplomat card 2"
    assert component_name("daimyo_01") == "Daimyo's favor card 1"
    assert component_name("start_resource_5") == "Starting Resource card 5"
    assert component_name("start_action_warrior") == "Warrior Starting Action card"
    assert component_name("die_tile_coral_food") == "coral die tile (food)"
    assert component_name("solo_2") == "Solitaire card 2"
    assert component_name("plant_4") == "Plant Garden card 4"
    assert component_name("steward2") == "Steward room 2"
    assert component_name("outside-left") == "Outside the Walls (left)"
    for cid in KNOWN:
        assert not id_tokens(component_name(cid)), cid


def test_the_notation_keeps_its_ids() -> None:
    """Only the words change: moves are still written and parsed with their ids."""
    state = GAME.new_game(3, seed=4)
    texts = [a.text for a in state.legal_actions()]
    assert texts[0].startswith("draft")
    assert "place steward2" in A.TEXTS and "climb gate diplomat1" in A.TEXTS
    assert GAME.parse_action(state, texts[0]).text == texts[0]


def test_the_board_words_name_components_as_the_rulebook_does() -> None:
    """The words of every component (the web board's explanations and card labels) and
    the terminal board name cards by the rulebook's names, never by id."""
    from rich.console import Console

    from kamon.games.white_castle.render import component_texts

    texts = component_texts()
    bad = {cid: e["text"] for cid, e in texts.items() if id_tokens(e["text"])}
    assert not bad, list(bad.items())[:3]
    assert texts["steward_10"]["name"] == "Steward card 10"
    state = GAME.new_game(3, seed=2)
    console = Console(width=140, record=True)
    console.print(GAME.render_text(state, 0))
    board = console.export_text()
    cards = [k for k in KNOWN if re.search(rf"\b{re.escape(k)}\b", board)]
    assert not cards, cards
    assert "Steward card" in board and "Daimyo's favor card" in board
