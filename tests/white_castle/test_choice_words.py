"""Every choice in words (like Board Game Arena), never an engine id: over random positions of
every setup, each legal action's `describe` is non-empty, is not its notation, carries no
engine id, and a die placed in a room says what the room gives, not only what it costs.

The patterns a description must not contain (the notation's, see actions.py):
  * the notation itself, in any case ("place steward1", "take coral left"); a one-word
    notation ("done", "pay", "audience") only as the whole text;
  * a word+digits or snake_case id ("steward1", "diplomat2", "steward_10",
    "die_tile_coral_food": tests/white_castle/test_log_words.py's ID_LIKE);
  * a hyphenated space or solo id ("outside-left", "rival-room", "rival-garden");
  * a notation verb followed by its argument ("block steward", "card first", "effect 2",
    "yard 1", "daimyo 3", "row white", "draft 2", "worker gardener", "exchange seal coin").
"training yard 2" is the rulebook's name of a yard (names.py), so it is words.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from kamon.games.white_castle import GAME
from kamon.games.white_castle import actions as A

ID_LIKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+\d+\b"
                     r"|\b(?:outside-(?:left|right)|rival-room|rival-garden)\b")
NOTATION_WORDS = re.compile(
    r"\b(?:block (?:steward|diplomat)|card (?:first|second|third)|effect \d|yard \d"
    r"|daimyo \d|row (?:coral|black|white)|draft \d|worker (?:courtier|gardener|warrior)"
    r"|exchange seals? (?:coin|food|iron|pearl)|climb (?:gate|steward|diplomat))\b")

CONFIGS = [(n, {}) for n in (2, 3, 4)] + [(4, {"first_game": True})] + [
    (1, {"difficulty": d}) for d in ("easy", "medium", "hard")]


def problems(notation: str, text: str) -> list[str]:
    """What is wrong with one description of the action with this notation."""
    bad = []
    if not text.strip():
        bad.append("empty")
    if text.strip().lower() == notation.lower():
        bad.append("is its notation")
    text = re.sub(r"\btraining yard \d\b", "training yard", text)
    if " " in notation and re.search(rf"\b{re.escape(notation)}\b", text, re.IGNORECASE):
        bad.append("contains its notation")
    if ID_LIKE.search(text):
        bad.append(f"engine id {ID_LIKE.search(text)}")
    if NOTATION_WORDS.search(text):
        bad.append("notation words")
    return bad


def test_the_patterns_catch_the_old_descriptions() -> None:
    """The checks refuse the notation-like texts of before and accept words."""
    assert problems("place steward1", "place steward1")
    assert problems("rival-room diplomat2", "rival-room diplomat2")
    assert problems("block diplomat1 lower", "block diplomat1 lower")
    assert problems("done", "done")
    assert problems("worker courtier", "worker courtier")
    assert not problems("place steward3", "place the coral 4 on Steward room 3: pay 2 coins, "
                                          "then the top block (2 pearl)")


@pytest.mark.parametrize(("players", "options"), CONFIGS,
                         ids=[f"{n}p-{'-'.join(map(str, o.values())) or 'base'}"
                              for n, o in CONFIGS])
def test_every_legal_action_is_described_in_words(players: int,
                                                   options: dict[str, Any]) -> None:
    """Two random games of each setup: every legal action's description is words, and a
    room placement says what the room gives."""
    kinds: set[str] = set()
    for seed in range(2):
        state = GAME.new_game(players, seed=seed, **options)
        rng = random.Random(seed)
        bad: list[str] = []
        while not state.is_over():
            legal = state.legal_actions()
            for a in legal:
                text = state.describe(a.id)
                kinds.add(a.text.split()[0])
                bad += [f"{a.text!r} -> {text!r}: {p}" for p in problems(a.text, text)]
                if a.id in A.PLACE_OF and A.PLACE_OF[a.id] < 5 and (
                        ", then " not in text and "no " not in text):
                    bad.append(f"{a.text!r} -> {text!r}: does not say what the room gives")
            state.apply(rng.choice(legal))
        assert not bad, f"{len(bad)} descriptions, e.g. {bad[:5]}"
    assert {"take", "place", "done"} <= kinds


def test_a_room_placement_names_the_room_its_cost_and_its_gain() -> None:
    """'place steward1' reads like 'place the coral 4 on Steward room 1: pay 1 coin, then
    the top block (...)'."""
    state = GAME.new_game(3, seed=1)
    rng = random.Random(1)
    while not any(a.id in A.PLACE_OF and A.PLACE_OF[a.id] < 5 for a in state.legal_actions()):
        state.apply(rng.choice(state.legal_actions()))
    a = next(a for a in state.legal_actions() if a.id in A.PLACE_OF and A.PLACE_OF[a.id] < 5)
    text = state.describe(a.id)
    room = ("Steward room", "Diplomat room")[A.PLACE_OF[a.id] >= 3]
    assert text.startswith("place the ") and room in text, text
    assert re.search(r"(pay|gain) \d+ coins?|free", text) and ", then " in text, text
