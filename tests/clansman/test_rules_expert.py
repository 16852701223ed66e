"""I, Clansman's EXPERT game, one test per rule: Kofun (R22, R23) and every Emperor card
with its timing (R01, R25, R26, R28-R32). Seat 0 (blue) starts the game."""

from __future__ import annotations

import pytest

from kamon.core.errors import IllegalAction
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import G, load_data
from tests.clansman.conftest import (
    act,
    finish_round,
    legal_texts,
    marry,
    new,
    pool,
    put,
    refresh,
    to_round,
    until_turn,
)

DATA = load_data()
BLUE, ORANGE, TEAL, PINK = range(4)


# ------------------------------------------------------------------------------ Kofun

def test_R23_a_kofun_is_the_rounds_card_and_one_per_player() -> None:
    """A Kofun is obtained like a Mission (its cost paid) as the round's one card; each
    player gets at most one, first come first served."""
    s = new(expert=True, emperor_side="B")
    marry(s)
    assert {"obtain 200", "obtain 201"} <= legal_texts(s)
    assert "obtain 202" not in legal_texts(s)  # needs a Pot
    act(s, "obtain 201")
    g = s.players[BLUE]
    assert g.kofun == "201" and g.obtained == ["201"] and "201" not in s.kofun
    assert s.to_move == ORANGE and "obtain 201" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="taken by another player"):
        act(s, "obtain 201")
    finish_round(s)
    marry(s)
    until_turn(s, BLUE)
    assert not any(t in legal_texts(s) for t in ("obtain 200", "obtain 202", "obtain 203"))
    with pytest.raises(IllegalAction, match="already has a Kofun"):
        act(s, "obtain 200")


def test_R23_a_kofun_is_never_taken_into_the_hand() -> None:
    """Option F's hand card is a Clan+Mission card: no action puts a Kofun in a hand."""
    assert not any(c in A.HAND for c in DATA.kofun)
    assert set(A.HAND) == {c for d in DATA.decks.values() for c in d}


def test_R22_mirrors_go_under_the_kofun_later_ones_score_nothing() -> None:
    """Mirrors held when the Kofun is obtained go under it (2 Religion VPs each, counted
    during the game); Mirrors gained afterwards are worth 0, their Mission's VPs still count."""
    s = new(expert=True)
    s.players[BLUE].mirror = 2
    marry(s)
    pool(s, pot=1)
    act(s, "obtain 202")
    g = s.players[BLUE]
    assert (g.kofun_mirrors, g.mirror) == (2, 0)
    sc = s.scores()[BLUE]
    assert (sc["religion_kofun"], sc["religion_kofun_mirrors"], sc["total"]) == (2, 4, 6)
    assert s.vp_by_colour(BLUE)["religion"] == 6
    finish_round(s)
    put(s, "408", s.supply)
    marry(s)
    until_turn(s, BLUE)
    pool(s, soldier=2)
    act(s, "obtain 408")
    assert g.mirror == 1 and g.kofun_mirrors == 2
    sc = s.scores()[BLUE]
    assert sc["military_missions"] == 2 and sc["total"] == 8


def test_hofun_200_is_worth_nothing_of_its_own_reconstructed() -> None:
    """200 Hofun prints no function line: 0 VPs of its own, a Mirror holder (reconstructed,
    marked in the data and flagged at setup)."""
    assert DATA.cards["200"].vp == 0 and DATA.cards["200"].weak
    s = new(expert=True)
    s.players[BLUE].mirror = 1
    marry(s)
    act(s, "obtain 200")
    assert s.scores()[BLUE]["total"] == 2


# ---------------------------------------------------------------------- Emperor cards

def test_R01_emperor_000_gives_each_player_a_soldier_every_turn_rounds_1_to_4() -> None:
    """Side A, 4th Century: +1 Soldier in every Production turn, so a cost with Soldiers
    needs one less; gone from round 5; not in Beginner or side B."""
    s = new(expert=True, emperor_side="A")
    put(s, "408", s.supply)  # 2 Soldiers
    s.players[BLUE].tadokoro = 2
    marry(s)
    assert s.pool[G["soldier"]] == 1 and s.pool[G["worker"]] == 2
    assert "obtain 408" not in legal_texts(s)
    act(s, "convert 300 blue soldier")  # 2 Workers -> 1 Soldier: printed cost minus one
    act(s, "obtain 408")
    assert s.players[BLUE].missions == ["408"]
    assert s.pool[G["soldier"]] == 1  # orange's turn: his extra Soldier
    to_round(s, 5)
    marry(s)
    assert s.pool[G["soldier"]] == 0
    for opts in ({}, {"expert": True, "emperor_side": "B"}):
        b = new(**opts)  # type: ignore[arg-type]
        marry(b)
        assert b.pool[G["soldier"]] == 0


def test_R25_R26_century_end_majority_card_awarded_at_that_cleanup() -> None:
    """001 (5th Century): at round 8's Cleanup the strict Economy leader takes it
    (3 Others VPs); it is still in the centre during round 8."""
    s = new(expert=True)
    to_round(s, 8)
    put(s, "413", s.players[TEAL].missions)
    assert "001" in s.emperor_centre
    marry(s)
    assert "001" in s.emperor_centre  # Production of round 8: not yet
    finish_round(s)
    assert s.players[TEAL].emperors == ["001"] and "001" not in s.emperor_centre
    sc = s.scores()[TEAL]
    assert sc["others_emperors"] == 3 and sc["economy_missions"] == 3


def test_R26_a_tie_for_most_or_all_zero_gives_the_card_to_nobody() -> None:
    """Only a single strict leader obtains; a tie or everyone at 0 sets the card aside; a
    lone player with 1 VP against zeros wins it."""
    s = new(expert=True)
    to_round(s, 8)
    finish_round(s)  # nobody has Economy VPs
    assert "001" in s.set_aside and not any(g.emperors for g in s.players)
    s = new(expert=True)
    to_round(s, 12)
    put(s, "405", s.players[BLUE].missions)  # 2 Government
    put(s, "612", s.players[PINK].missions)  # 4 Government ...
    put(s, "406", s.players[PINK].missions)
    s.players[BLUE].missions.append("605")  # ... vs 2 + 4 = 6 ...
    s.players[PINK].missions.remove("612")
    put(s, "612", s.players[ORANGE].missions)
    put(s, "702", s.players[ORANGE].missions)  # ... vs 4 + 2 = 6: a tie
    finish_round(s)
    assert "002" in s.set_aside
    s = new(expert=True)
    to_round(s, 16)
    put(s, "408", s.players[PINK].missions)  # 2 Military against zeros
    finish_round(s)
    assert s.is_over() and s.players[PINK].emperors == ["003"]


def test_R26_religion_majority_counts_kofun_mirrors_and_temple_statues() -> None:
    """What a colour majority compares: Missions of that colour, and for Religion the
    Kofun's VPs, 2 per Mirror under it and 1 per Statue with a temple (inferred). Checked
    with 008 (Religion majority, 5th Century) of the R32 variant."""
    s = new(expert=True, emperor_variant="008")
    to_round(s, 8)
    put(s, "505", s.players[BLUE].missions)  # 3 Religion
    s.players[ORANGE].kofun = "201"  # 1 + 2 Mirrors x 2 = 5 Religion
    s.kofun.remove("201")
    s.players[ORANGE].kofun_mirrors = 2
    put(s, "601", s.players[TEAL].clans)  # a temple and 4 Statues: 4 Religion
    s.players[TEAL].statue = 4
    finish_round(s)
    assert s.players[ORANGE].emperors == ["008"]
    assert s.scores()[ORANGE]["others_emperors"] == 3


def test_R28_jingu_becomes_a_clan_usable_from_round_5_and_marriageable() -> None:
    """004 (side B): the strict Military leader at round 4's Cleanup puts it in his Clan
    cards row; from round 5 it turns 1 Worker into 1 Horse and any daughter may marry in."""
    s = new(expert=True, emperor_side="B")
    to_round(s, 4)
    put(s, "408", s.players[PINK].missions)
    finish_round(s)
    assert s.players[PINK].clans[-1] == "004" and s.players[PINK].emperors == []
    assert s.round == 5 and "marry 004" in legal_texts(s)  # pink marries first (start 3)
    marry(s, teal="marry 004")
    until_turn(s, TEAL)
    act(s, "convert 004 horse")
    assert s.pool[G["horse"]] == 1
    finish_round(s)
    marry(s)
    until_turn(s, PINK)
    assert "convert 004 horse" in legal_texts(s)


def test_R29_yuryaku_each_player_pays_a_tadokoro_to_the_miyake_row_at_round_8() -> None:
    """005 (side B): at round 8's Cleanup every player with a Tadokoro puts one in the
    Miyake row (flipping at 4); a player with none pays nothing."""
    s = new(expert=True, emperor_side="B")
    to_round(s, 8)
    assert s.start == TEAL  # round 8's start player (R10 table)
    s.miyake_row = 2
    marry(s)
    while s.turn < 3:
        act(s, "obtain 1 tadokoro")
    s.players[TEAL].tadokoro = 0  # teal has none when Cleanup comes
    before = [g.tadokoro for g in s.players]
    last = s.to_move
    assert last is not None
    before[last] += 1  # the free Tadokoro the last seat takes now
    act(s, "obtain 1 tadokoro")
    assert s.round == 9
    assert [g.tadokoro for g in s.players] == [t - 1 if t else 0 for t in before]
    assert s.miyake == 1 and s.miyake_row == 1  # 2 + 3 = 5: one flip, one left
    levy = [e for e in s.events if e.startswith("005")]
    assert len(levy) == 4 and "teal has no Tadokoro and pays nothing" in levy[0]
    assert [e.split(": ")[1].split()[0] for e in levy] == ["teal", "pink", "blue", "orange"]


def test_R30_keitai_iron_for_each_military_mission_obtained_in_rounds_9_to_12() -> None:
    """006 (side B): +1 Iron per Mission with Military VPs obtained (Supply or hand, any
    century) in rounds 9-12; not for other Missions, not for a card taken into the hand."""
    s = new(expert=True, emperor_side="B")
    to_round(s, 9)
    put(s, "606", s.supply)  # 3 Soldiers, 4 Military
    put(s, "408", s.players[ORANGE].hand)  # a 4th-century Military Mission in hand
    put(s, "613", s.supply)  # Contribution (Economy) + 1 Iron
    marry(s)  # round 9: teal starts, then pink, blue, orange
    until_turn(s, TEAL)
    pool(s, cloth=1, fish=1)
    act(s, "obtain 613")
    assert s.players[TEAL].iron == 1  # the card's own Iron only
    until_turn(s, PINK)
    put(s, "607", s.supply)
    s.players[PINK].iron = 1
    refresh(s)
    act(s, "obtain 2 tadokoro", "hand 607")
    assert s.players[PINK].hand == ["607"] and s.players[PINK].iron == 0
    until_turn(s, BLUE)
    pool(s, soldier=3)
    act(s, "obtain 606")
    assert s.players[BLUE].iron == 1
    until_turn(s, ORANGE)
    pool(s, soldier=2)
    act(s, "obtain 408")
    assert s.players[ORANGE].iron == 1 and s.players[ORANGE].mirror == 1
    to_round(s, 13)
    put(s, "707", s.supply)
    marry(s)
    p = s.to_move
    assert p is not None
    pool(s, soldier=5)
    s.players[p].iron = 1
    refresh(s)
    act(s, "obtain 707")
    assert s.players[p].iron == 0


def test_R31_jito_one_government_vp_per_government_mission_at_game_end() -> None:
    """007 (side B): at the end, +1 Government VP per Mission with Government VPs."""
    s = new(expert=True, emperor_side="B")
    to_round(s, 16)
    for cid in ("405", "612", "703"):
        put(s, cid, s.players[ORANGE].missions)
    put(s, "408", s.players[ORANGE].missions)
    finish_round(s)
    sc = s.scores()[ORANGE]
    assert sc["government_jito"] == 3 and sc["government_missions"] == 2 + 4 + 4


def test_R31_shotoku_one_religion_vp_per_statue_temple_or_not() -> None:
    """009 (R32 variant): at the end, +1 Religion VP per Statue held, without a temple too;
    with a temple a Statue is then worth 2."""
    s = new(expert=True, emperor_variant="009")
    s.players[BLUE].statue = 2
    s.players[PINK].statue = 2
    put(s, "602", s.players[PINK].clans)
    while not s.is_over():
        finish_round(s)
    assert s.scores()[BLUE]["religion_shotoku"] == 2 and s.scores()[BLUE]["total"] == 2
    assert s.scores()[PINK]["total"] == 4


def test_R25_game_end_effects_score_at_the_end_not_in_majorities() -> None:
    """Jito's VPs are part of scores() but not of the colour counts majorities compare
    (inferred: they come 'at the end of the game')."""
    s = new(expert=True, emperor_side="B")
    put(s, "405", s.players[BLUE].missions)
    assert s.vp_by_colour(BLUE)["government"] == 2
    assert s.scores()[BLUE]["government_jito"] == 1


def test_R25_century_end_cleanup_order_daughters_then_emperor_then_marker() -> None:
    """Round 4's Cleanup: daughters return, then the Emperor card resolves, and the marker
    stays (century end)."""
    s = new(expert=True, emperor_side="B")
    to_round(s, 4)
    start = s.start
    put(s, "408", s.players[BLUE].missions)
    marry(s, blue="marry 801")
    while s.round == 4:
        act(s, "obtain 1 tadokoro")
    assert s.daughters == [None] * 4 and s.start == start
    assert s.players[BLUE].clans[-1] == "004"
    i_award = max(i for i, e in enumerate(s.events) if "obtains 004" in e)
    i_round = max(i for i, e in enumerate(s.events) if e.startswith("round 5"))
    assert i_award < i_round
