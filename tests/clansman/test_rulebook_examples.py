"""Every worked example printed in the I, Clansman rulebook, one test each.

Each test sets up a real game, arranges the table as the example describes (by moving
cards and setting counters before the decision), then plays the example's decisions
through the public protocol and checks the outcome the rulebook states.
"""

from __future__ import annotations

import pytest

from kamon.core.errors import IllegalAction
from tests.clansman.conftest import act, legal_texts, marry, new, pool, put, until_turn

BLUE, ORANGE, TEAL, PINK = range(4)


def test_royal_prince_example_4_tadokoro_plus_1_miyake_gives_5_workers() -> None:
    """'PLAYER A's daughter married a Royal Prince. PLAYER A has 4 Tadokoros while there is
    1 Miyake in Miyake row (There are 3 Tadokoros here but these don't count). PLAYER A
    gains 5 workers in this phase.' (line 210)"""
    s = new()  # blue (player A) starts: marries last, produces first
    s.players[BLUE].tadokoro = 5  # 4 after paying the dowry
    s.miyake, s.miyake_row = 1, 2  # 1 Miyake; the dowry makes 3 Tadokoro in the row
    marry(s, blue="marry 801")
    assert s.players[BLUE].tadokoro == 4 and s.miyake == 1 and s.miyake_row == 3
    assert s.to_move == BLUE
    assert s.pool[0] == 5
    assert "5 worker(s) (4 Tadokoro + 1 Miyake)" in s.events[-1]


def test_royal_prince_example_tadokoro_in_the_miyake_row_do_not_count() -> None:
    """The same table without the Royal Prince marriage: 4 workers, the row gives nothing;
    and Tadokoro in the row never count, even for a Royal Prince's in-law."""
    s = new()
    s.players[BLUE].tadokoro = 4
    s.miyake, s.miyake_row = 1, 3
    marry(s)
    assert s.pool[0] == 4
    s = new()
    s.players[BLUE].tadokoro = 5
    s.miyake, s.miyake_row = 0, 2
    marry(s, blue="marry 800")
    assert s.miyake_row == 3 and s.pool[0] == 4


def test_temple_example_owner_spent_his_only_statue_before_your_turn() -> None:
    """'Your daughter married to this temple owned by another player. But the owner spent
    the only Statue he/she had before your turn. So, you cannot utilise the function of
    this temple.' (601 Hoko-ji, line 712)"""
    s = new()  # production order: blue, orange, teal, pink
    put(s, "601", s.players[BLUE].clans)  # blue owns Hoko-ji and one Statue
    s.players[BLUE].statue = 1
    put(s, "609", s.supply)  # Teibi War: 3 Soldiers + 1 Statue
    marry(s, orange="marry 601")  # orange's daughter marries into blue's temple
    assert s.to_move == BLUE
    pool(s, soldier=3)
    act(s, "obtain 609")  # the owner spends his only Statue
    assert s.players[BLUE].statue == 0
    assert s.to_move == ORANGE
    assert not any(t.startswith("convert 601") for t in legal_texts(s))
    with pytest.raises(IllegalAction, match=r"only while its owner \(blue\) has a Statue"):
        act(s, "convert 601 monk")


def test_temple_example_owner_spends_his_statue_after_another_used_his_temple() -> None:
    """'You had only one Statue token. Another player's daughter married to this temple of
    yours. He/she utilised the function of it in his/her turn. Later, in your turn of the
    same phase, you may spend the Statue token you have as a part of cost to obtain a
    card.' (601 Hoko-ji, line 714)"""
    s = new(start=1)  # production order: orange, teal, pink, blue
    put(s, "601", s.players[BLUE].clans)  # blue ("you") owns Hoko-ji and one Statue
    s.players[BLUE].statue = 1
    put(s, "609", s.supply)
    s.players[ORANGE].tadokoro = 5
    marry(s, orange="marry 601")
    assert s.to_move == ORANGE
    act(s, "convert 601 monk")  # orange uses blue's temple in his turn
    assert s.players[BLUE].statue == 1 and s.lock == 0
    act(s, "obtain 1 tadokoro")
    until_turn(s, BLUE)
    pool(s, soldier=3)
    assert "obtain 609" in legal_texts(s)
    act(s, "obtain 609")
    assert s.players[BLUE].statue == 0 and s.players[BLUE].missions == ["609"]
