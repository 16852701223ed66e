"""Every choice in words (like Board Game Arena), never an engine id: over random positions of
every setup, each legal action's `describe` is non-empty, is not its notation, names every
card by its number AND its name, and carries none of the notation's tokens.

The patterns a description must not contain (the notation's, see actions.py):
  * the notation itself, in any case ("obtain 1 tadokoro", "hand 403");
  * a bare card number: a three-digit number not followed by that card's name
    ("marry 300 orange", "hero 902" — "orange's 300 Kochisei-Shuraku" is words);
  * a notation verb followed by a number ("convert 401", "payment 2");
  * a snake_case or word+digits id (tests/clansman/test_log_words.py's ID_LIKE).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from kamon.games.clansman import GAME
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import load_data

CARDS = load_data().cards
ID_LIKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+\d+\b")
VERB_NUMBER = re.compile(r"\b(?:marry|convert|hero|obtain|payment|hand) \d", re.IGNORECASE)
NUMBER = re.compile(r"\b(\d{3})\b")

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (4, {}), (4, {"expert": True, "emperor_side": "A"}),
    (4, {"expert": True, "emperor_side": "B"}),
    (4, {"expert": True, "emperor_side": "A", "emperor_variant": "008,009"}),
    (2, {"variant": "small-table"}), (3, {"variant": "small-table"})]


def problems(notation: str, text: str) -> list[str]:
    """What is wrong with one description of the action with this notation."""
    bad = []
    if not text.strip():
        bad.append("empty")
    if notation.lower() in text.lower():
        bad.append("contains its notation")
    at = 0
    while (m := NUMBER.search(text, at)) is not None:
        card = CARDS.get(m.group(1))
        if card is None or not text[m.end():].startswith(f" {card.name}"):
            bad.append(f"bare card number {m.group(1)}")
            at = m.end()
        else:  # "712 Mission 712 (...)": the name may hold the number
            at = m.end() + 1 + len(card.name)
    if VERB_NUMBER.search(text):
        bad.append("notation verb + number")
    if ID_LIKE.search(text):
        bad.append("id-like token")
    return bad


def test_the_patterns_catch_the_old_descriptions() -> None:
    """The checks refuse notation-like texts and accept cards named by number and name."""
    assert problems("hand 403", "hand 403")
    assert problems("marry 300 orange", "marry 300 orange: pay 1 Tadokoro")
    assert problems("obtain 1 tadokoro", "Obtain 1 Tadokoro: free")
    assert problems("hero 902", "hero 902: 1 statue")
    assert not problems("marry 300 orange",
                        "marry into orange's 300 Kochisei-Shuraku (2 workers → 1 soldier): "
                        "pay 1 Tadokoro to orange")


@pytest.mark.parametrize(("players", "options"), CONFIGS,
                         ids=[f"{n}p-{'-'.join(map(str, o.values())) or 'beginner'}"
                              for n, o in CONFIGS])
def test_every_legal_action_is_described_in_words(players: int,
                                                   options: dict[str, Any]) -> None:
    """Two random games of each setup: every legal action's description is words."""
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
            state.apply(rng.choice(legal))
        assert not bad, f"{len(bad)} descriptions, e.g. {bad[:5]}"
    assert {"marry", "convert", "obtain"} <= kinds


def test_the_descriptions_say_what_a_choice_gives() -> None:
    """A marriage names the card and what it makes; obtaining a card, its cost and gain."""
    state = GAME.new_game(4, seed=3)
    rng = random.Random(3)
    seen: dict[str, str] = {}
    while not state.is_over() and len(seen) < 3:
        for a in state.legal_actions():
            verb = a.text.split()[0]
            text = state.describe(a.id)
            if verb == "marry" and "→" in text or "produces" in text:
                seen.setdefault("marry", text)
            if verb == "obtain" and a.id in A.OBTAIN_OF:
                seen.setdefault("obtain", text)
            if verb == "convert":
                seen.setdefault("convert", text)
        state.apply(rng.choice(state.legal_actions()))
    assert seen["marry"].startswith("marry "), seen
    assert seen["obtain"].startswith("obtain ") and "pay " in seen["obtain"] \
        and "gain " in seen["obtain"], seen
    assert seen["convert"].startswith("use "), seen
