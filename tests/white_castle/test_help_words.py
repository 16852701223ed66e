"""The White Castle's Help, guided game and board words say what the rulebook says (issue 36,
item 5): each statement found wrong is pinned here in its corrected form, with the
rulebook's line (../shared/rules/white-castle-rulebook.txt, captions file for the
captions)."""

from __future__ import annotations

import re
from pathlib import Path

from kamon.games.white_castle.render import component_texts

WEB = Path(__file__).resolve().parents[2] / "src" / "kamon" / "games" / "white_castle" / "web"
HELP = (WEB / "help.js").read_text()
GUIDE = (WEB / "tutorial.js").read_text()
BOARD = (WEB / "domains.js").read_text()


def _words(source: str) -> str:
    """The words of a JS file's string literals joined (the "..." + "..." pieces)."""
    return " ".join(" ".join(re.findall(r'"((?:[^"\\]|\\.)*)"', source)).split())


HELP_WORDS, GUIDE_WORDS = _words(HELP), _words(GUIDE)


def test_a_die_in_the_domain_covers_a_printed_six_and_keeps_its_value() -> None:
    """Line 263: 'you will have to pay 3 coins, as it was placed on the printed 6'."""
    for words in (HELP_WORDS, GUIDE_WORDS, _words(BOARD)):
        assert "counts as a 6" not in words and "is a 6" not in words
    assert "on a printed 6: a lower die pays the difference" in HELP_WORDS
    texts = component_texts()
    for colour in ("coral", "black", "white"):
        text = texts[f"domain_{colour}"]["text"]
        assert "covers a printed 6 (a lower die pays the difference)" in text, text


def test_the_domain_is_carried_out_in_its_order_a_room_in_any() -> None:
    """Line 256: the domain's steps 'must be followed in the order they appear'; line 244:
    a steward room's two actions 'in any order'."""
    assert "Then, in this order: gain the row's visible rewards" in HELP_WORDS
    assert "a castle room's blocks in the order you like, your domain in its fixed order" \
        in HELP_WORDS
    assert "(Your domain is different: its row's rewards first, then the action card's " \
        "block.)" in GUIDE_WORDS


def test_the_well_counts_as_one_and_the_stacking_limits_are_said() -> None:
    """Captions line 102: the Well's value 'is always 1'; line 178: 'Only a single die can
    be stacked atop each die, and only on the spaces of the main board'; line 180: none in
    a 1- or 2-player game."""
    assert "the Well always counts as 1, whatever dice lie on it" in HELP_WORDS
    assert "On the main board one die at most can be stacked on another (the Well takes any " \
        "number), and with 1 or 2 players none" in HELP_WORDS
    assert "(the Well always counts as 1)" in GUIDE_WORDS


def test_a_climb_to_a_floor_and_to_the_daimyos_room_as_printed() -> None:
    """Lines 313-324: the old action card goes face down into the Lantern Area; with no card
    to replace, the light action is performed but the card not taken; the Daimyo's room
    gives the Lantern Reward first, then a free favour if one is left."""
    assert "swaps" not in HELP_WORDS
    assert "turns your action card face down into your Lantern area" in HELP_WORDS
    assert "if the room's deck is empty, it performs the light block but you keep your card" \
        in HELP_WORDS
    assert "first gives you your Lantern reward, then takes a free slot of the Daimyo's " \
        "favour (none left: nothing more)" in HELP_WORDS


def test_the_tie_break_the_colours_that_go_anywhere_and_the_decree_are_said() -> None:
    """Line 413: 'If there is a tie, whoever is higher in the order of turns wins'; captions
    line 87: Outside the Walls 'not restricted by color' (and the Well takes any die); line
    130: the Resource card 'may grant you a Decree card'."""
    assert "A tie goes to whoever is higher in the turn order" in HELP_WORDS
    for words in (HELP_WORDS, GUIDE_WORDS):
        assert "Outside the Walls and the Well take any colour" in words
        assert "Decree card" in words
