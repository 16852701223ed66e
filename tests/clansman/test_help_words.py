"""I, Clansman's Help and guided game say what the rulebook says (issue 36, item 5): each
statement found wrong or imprecise is pinned here in its corrected form, with the line of
../shared/rules/i-clansman-rulebook.txt."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "kamon" / "games" / "clansman" / "web"


def _words(source: str) -> str:
    """The words of a JS file's string literals joined (the "..." + "..." pieces)."""
    return " ".join(" ".join(re.findall(r'"((?:[^"\\]|\\.)*)"', source)).split())


HELP = _words((WEB / "help.js").read_text())
GUIDE = _words((WEB / "tutorial.js").read_text())


def test_iron_and_statues_are_kept() -> None:
    """Line 226: Irons and Statues 'can be saved for later rounds (while workers, skilled
    labourers and special products cannot)'."""
    assert "Workers and what they make vanish" not in GUIDE
    assert "goods vanish at the end of your turn (Iron and Statues are kept)" in GUIDE


def test_the_aim_ends_with_the_shared_victory_and_names_every_vp_source() -> None:
    """Line 295: most Iron breaks a tie, 'If there's still a tie, the tied players share
    the victory'; lines 291-293, 313, 317: Statues, Mirrors, Kofun and Emperors score."""
    assert "a tie goes to the most Iron, and if still tied the tied players share the " \
        "victory" in HELP
    assert "Victory Points (VPs) come from Mission cards (in five colours), from Statues " \
        "while you own a temple, from Mirrors" in HELP


def test_a_round_has_the_discard_the_flip_and_the_start_players_pass() -> None:
    """Line 150: the Supply's cards are discarded at a Century's first round; line 154:
    the Royal Princes flip at round 9; line 283: the Start Player marker passes to the
    left except at rounds 4, 8, 12 and 16."""
    assert "at a Century's first round its remaining cards are discarded and seven are " \
        "drawn" in HELP
    assert "at round 9 the Royal Princes also turn to their 6th-7th Century sides" in HELP
    assert "the Start Player marker passes to the left — except at a Century's last round " \
        "(rounds 4, 8, 12 and 16)" in HELP


def test_mirrors_are_said_for_both_games() -> None:
    """Line 293: 'A Mirror token provides 1 VP (only in Beginner Games)'; line 313: in the
    Expert game a Mirror not under a Kofun 'provides nothing'."""
    assert "A Mirror scores 1 VP in the Beginner game; in the Expert game only under a " \
        "Kofun." in HELP
    assert "Mirrors gained later score nothing" in HELP


def test_the_emperor_cards_and_missions_as_printed() -> None:
    """Lines 315-319: four Emperor cards, side A or side B, some give VPs at a Century's or
    the game's end, some a bonus during the Century; line 81 and 251: a Mission gives VPs
    of its colour, some items too."""
    assert "One Emperor card per Century that changes its rules" not in HELP
    assert "four Emperor cards, one for each Century, all on side A or all on side B" in HELP
    assert "a Mission card gives the Victory Points of its colour (some an Iron or a " \
        "Mirror too)" in GUIDE
