"""I, Clansman's ROUND: Preparation, the Marriage phase and Cleanup, one test per rule
(R09, R10, R11, R12, R13, R14, R15, R33), plus the 16-round game length."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from kamon.core.errors import IllegalAction
from kamon.games.clansman import GAME
from kamon.games.clansman.data import load_data
from tests.clansman.conftest import (
    act,
    finish_round,
    legal_texts,
    marry,
    new,
    put,
    refresh,
    to_round,
    until_turn,
)

DATA = load_data()


# ------------------------------------------------------------------------ Preparation

def test_R09_first_round_of_a_century_discards_the_supply_and_draws_seven() -> None:
    """Round 5: the old Supply is discarded (out of the game) and 7 5th-century cards come."""
    s = new()
    to_round(s, 4)
    marry(s)
    while s.round == 4:
        act(s, "obtain 1 tadokoro")
    assert s.round == 5
    assert len(s.supply) == 7 and all(DATA.cards[c].century == 5 for c in s.supply)
    assert len(s.discard) == 16 - 0  # nobody took a card: all 16 4th-century cards gone
    assert all(DATA.cards[c].century == 4 for c in s.discard) and s.piles[0] == []


def test_R09_other_rounds_draw_three() -> None:
    """Rounds 2-4 of a century add 3 cards to the Supply."""
    s = new()
    before = len(s.supply)
    finish_round(s)
    assert len(s.supply) == before + 3 and len(s.piles[0]) == 6


def test_R09_century_pile_empties_exactly_at_the_round_four_draw() -> None:
    """7 + 3 + 3 + 3 = 16: each century pile is empty after its fourth round's draw."""
    s = new()
    for r in (4, 8, 12, 16):
        to_round(s, r)
        assert s.piles[s.century - 4] == []
        assert all(len(p) == 16 for p in s.piles[s.century - 3:])


def test_R33_royal_princes_flip_at_round_nine_before_marriage() -> None:
    """Round 9's Preparation flips the Royal Princes; round-9 marriages see 803-805."""
    s = new()
    to_round(s, 8)
    assert s.princes == ["800", "801", "802"]
    to_round(s, 9)
    assert s.princes == ["803", "804", "805"]
    assert {"marry 803", "marry 804", "marry 805"} <= legal_texts(s)
    assert "marry 800" not in legal_texts(s)


# --------------------------------------------------------------------------- Marriage

@pytest.mark.parametrize("start", [0, 1, 2, 3])
def test_R11_marriage_counter_clockwise_from_the_right_of_the_start_player(start: int
                                                                           ) -> None:
    """Marriage is played by start-1, start-2, start-3, then the start player."""
    s = new(start=start)
    order = []
    while s.phase == "marriage":
        p = s.to_move
        assert p is not None
        order.append(p)
        act(s, f"marry 300 {s.name(p)}")
    assert order == [(start - k) % 4 for k in (1, 2, 3, 4)]


def test_marriage_A_own_clan_is_free() -> None:
    """A daughter on a clan in her own father's tableau costs nothing."""
    s = new()
    assert s.to_move == 3
    clan = s.players[3].clans[1]
    act(s, f"marry {clan}")
    assert s.daughters[3] == (3, clan) and s.players[3].tadokoro == 4


def test_marriage_B_other_players_clan_pays_a_tadokoro_to_that_player() -> None:
    """A daughter on another player's clan: 1 Tadokoro goes to that player, at once."""
    s = new()
    clan = s.players[1].clans[1]
    act(s, f"marry {clan}")
    assert s.daughters[3] == (1, clan)
    assert s.players[3].tadokoro == 3 and s.players[1].tadokoro == 5


def test_marriage_C_royal_prince_pays_a_tadokoro_to_the_miyake_row() -> None:
    """A daughter on a Royal Prince: 1 Tadokoro goes to the Miyake row."""
    s = new()
    act(s, "marry 801")
    assert s.daughters[3] == (-1, "801")
    assert s.players[3].tadokoro == 3 and s.miyake_row == 1 and s.miyake == 0


def test_R15_every_four_tadokoro_in_the_miyake_row_flip_one_and_return_three() -> None:
    """When the 4th Tadokoro arrives, one flips to Miyake and the other 3 go to the Bank."""
    s = new()
    bank = s.bank_tadokoro
    act(s, "marry 800", "marry 801", "marry 802")
    assert s.miyake_row == 3 and s.miyake == 0
    finish_round(s)
    act(s, "marry 800")
    assert s.miyake_row == 0 and s.miyake == 1
    assert s.bank_tadokoro == bank + 3 - 4  # 4 free Tadokoro taken in round 1, 3 back
    assert any("flips to Miyake" in e for e in s.events)


def test_marriage_no_card_holds_two_daughters() -> None:
    """A card already carrying a daughter is no target; the message says whose she is."""
    s = new()
    act(s, "marry 801")
    assert "marry 801" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="blue|pink.*already on it"):
        act(s, "marry 801")
    clan = s.players[1].clans[1]
    act(s, f"marry {clan}")  # teal on orange's starting clan
    assert f"marry {clan}" not in legal_texts(s)  # not even for its owner, orange


def test_marriage_without_tadokoro_only_option_A() -> None:
    """A player with no Tadokoro can only marry into his own clans."""
    s = new()
    s.players[3].tadokoro = 0
    refresh(s)
    targets = legal_texts(s)
    own = {f"marry 300 {s.name(3)}", f"marry {s.players[3].clans[1]}"}
    assert targets == own
    with pytest.raises(IllegalAction, match="no Tadokoro"):
        act(s, "marry 800")


def test_R12_no_legal_target_the_daughter_stays_home() -> None:
    """Own clans all taken by other daughters and no Tadokoro: no target, so she stays home
    (inferred) and that player has no card to use. In play the dowries those daughters pay
    him prevent this, so the position is built by hand."""
    s = new()
    act(s, "marry 300 blue", f"marry {s.players[0].clans[1]}", "marry 300 orange")
    assert s.to_move == 0 and s.players[0].tadokoro == 6  # two dowries received
    s.players[0].tadokoro = 0
    refresh(s)
    assert s.legal_actions() == []
    s._advance()  # the engine's automatic step for a seat with no target
    refresh(s)
    assert s.phase == "production" and s.daughters[0] is None
    assert any("stays home (R12)" in e for e in s.events)
    assert s.to_move == 0 and s.usable == [] and s.pool[0] == 0
    assert legal_texts(s) == {"obtain 1 tadokoro"} | {f"hero {h}" for h in s.heroes}


def test_R13_dowry_tadokoro_counts_for_the_receiver_this_round() -> None:
    """A Tadokoro received as a dowry yields a Worker in the receiver's coming turn and can
    pay his own dowry (inferred: 'placed in Tadokoro row immediately')."""
    s = new()
    s.players[2].tadokoro = 0
    refresh(s)
    act(s, f"marry {s.players[2].clans[1]}")  # pink pays teal 1 Tadokoro
    assert s.players[2].tadokoro == 1
    assert "marry 800" in legal_texts(s)  # teal may now pay a dowry with it
    act(s, "marry 300 teal", "marry 300 orange", "marry 300 blue")
    until_turn(s, 2)
    assert s.pool[0] == 1  # teal's one Tadokoro (the dowry) works this round


def test_R14_kochisei_shuraku_is_a_marriage_target() -> None:
    """Daughters may marry into a Kochisei-Shuraku, own or another player's (inferred);
    the ruling is read from the data, so an overlay can turn it off."""
    s = new()
    assert {f"marry 300 {c}" for c in ("blue", "orange", "teal", "pink")} <= legal_texts(s)
    overlay = {"rulings": [{"id": "R14", "default": {"kochisei_marriageable": False}}]}
    s = new(data_overlay=overlay)
    assert not any(t.startswith("marry 300") for t in legal_texts(s))
    with pytest.raises(IllegalAction, match="R14"):
        act(s, "marry 300 blue")


def test_marriage_marries_into_clan_cards_only() -> None:
    """Tadokoro, Missions, hand and Supply cards are never marriage targets."""
    s = new()
    put(s, "405", s.players[1].missions)
    put(s, "404", s.players[1].hand)
    texts = legal_texts(s)
    assert "marry 405" not in texts and "marry 404" not in texts
    assert all(t.startswith("marry") for t in texts)


# ---------------------------------------------------------------------------- Cleanup

def test_cleanup_daughters_return() -> None:
    """At Cleanup every daughter goes home; the next round's marriages start fresh."""
    s = new()
    act(s, "marry 800", "marry 801")
    finish_round(s)
    assert s.daughters == [None] * 4
    assert "marry 800" in legal_texts(s) and "marry 801" in legal_texts(s)


def test_R10_start_player_passes_left_except_after_rounds_4_8_12_16() -> None:
    """With seat 0 first: 0 1 2 3 | 3 0 1 2 | 2 3 0 1 | 1 2 3 0 (each seat once a century)."""
    s = new()
    starts = []
    while not s.is_over():
        starts.append(s.start)
        finish_round(s)
    assert starts == [0, 1, 2, 3, 3, 0, 1, 2, 2, 3, 0, 1, 1, 2, 3, 0]
    raw = json.loads(resources.files("kamon.games.clansman").joinpath(
        "data/cards.json").read_text(encoding="utf-8"))
    table = raw["round_structure"]["start_player_by_round_seat_offset"]
    assert starts == [table[str(r)] for r in range(1, 17)]


def test_sixteen_rounds_of_four_phases_then_the_game_ends() -> None:
    """16 rounds; each player obtains one card per round; then scoring and the end."""
    s = new()
    rounds = 0
    while not s.is_over():
        rounds += 1
        finish_round(s)
    assert rounds == 16 and s.to_move is None and s.legal_actions() == []
    assert all(len(g.obtained) == 16 for g in s.players)
    assert "final scores" in s.events[-1]
    with pytest.raises(IllegalAction, match="game is over"):
        s.apply(0)
    assert GAME.action_text(0) == "marry 300 blue"
