"""I, Clansman's PRODUCTION phase, one test per rule: the workforce, converting (R04-R06,
R16, R20), the Hero (R19), obtaining one card D/E/F/G (R03, R07, R08, R17, R18) and
the payment decision. Seat 0 (blue) starts, so it produces first."""

from __future__ import annotations

import pytest

from kamon.core.errors import IllegalAction
from kamon.games.clansman.data import GOODS, G, load_data
from tests.clansman.conftest import (
    act,
    finish_round,
    legal_texts,
    marry,
    new,
    pool,
    put,
    refresh,
    until_turn,
)

DATA = load_data()
BLUE, ORANGE, TEAL, PINK = range(4)


def test_production_clockwise_from_the_start_player() -> None:
    """Production is played clockwise beginning with the start player."""
    s = new(start=2)
    marry(s)
    order = []
    while s.phase == "production":
        order.append(s.to_move)
        act(s, "obtain 1 tadokoro")
    assert order == [2, 3, 0, 1]


def test_R16_workers_counted_at_the_start_of_the_turn_from_own_tadokoro() -> None:
    """One Worker per own Tadokoro, counted when the turn starts (inferred); Tadokoro in the
    Miyake row count nothing without a Royal Prince marriage."""
    s = new()
    s.players[BLUE].tadokoro = 6
    s.miyake, s.miyake_row = 2, 3
    marry(s)
    assert s.to_move == BLUE and s.pool[G["worker"]] == 6
    act(s, "obtain 1 tadokoro")
    assert s.players[BLUE].tadokoro == 7
    assert s.to_move == ORANGE and s.pool[G["worker"]] == 4


def test_royal_prince_marriage_adds_the_miyake_row_miyake() -> None:
    """After a Royal Prince marriage: own Tadokoro plus every Miyake in the row."""
    s = new()
    s.miyake = 2
    refresh(s)
    marry(s, blue="marry 802")
    assert s.pool[G["worker"]] == 3 + 2  # paid one of 4 Tadokoro as the dowry


def test_R06_each_card_converts_once_per_round_into_one_listed_output() -> None:
    """A use takes the printed input and gives exactly ONE alternative; once per round."""
    s = new()
    put(s, "401", s.players[BLUE].clans)  # 2 Workers -> 1 Soldier or 1 Architect
    marry(s)
    texts = legal_texts(s)
    assert {"convert 401 soldier", "convert 401 architect", "convert 300 blue soldier"} <= texts
    act(s, "convert 401 architect")
    assert s.pool[G["worker"]] == 2 and s.pool[G["architect"]] == 1 and s.pool[G["soldier"]] == 0
    assert not any(t.startswith("convert 401") for t in legal_texts(s))
    with pytest.raises(IllegalAction, match="only once in every round"):
        act(s, "convert 401 soldier")
    act(s, "convert 300 blue soldier")
    assert s.pool[G["worker"]] == 0 and s.pool[G["soldier"]] == 1
    with pytest.raises(IllegalAction, match="cannot yield"):
        act(s, f"convert {s.players[BLUE].clans[1]} horse")


def test_R06_a_use_needs_its_full_input() -> None:
    """No partial use: without the printed input the conversion is not offered."""
    s = new()
    s.players[BLUE].tadokoro = 1
    marry(s)
    assert "convert 300 blue soldier" not in legal_texts(s)  # needs 2 Workers
    with pytest.raises(IllegalAction, match="needs 2 workers"):
        act(s, "convert 300 blue soldier")


def test_R04_R05_a_card_with_another_daughter_is_used_by_her_father_only() -> None:
    """Teal's daughter on blue's starting clan: teal uses it this round, blue may not."""
    s = new()
    blue_clan = s.players[BLUE].clans[1]
    move = f"convert {blue_clan} {GOODS[DATA.cards[blue_clan].uses[0].key]}"
    marry(s, teal=f"marry {blue_clan}")
    assert s.to_move == BLUE
    assert not any(t.startswith(f"convert {blue_clan}") for t in legal_texts(s))
    with pytest.raises(IllegalAction, match="R05"):
        act(s, move)
    until_turn(s, TEAL)
    assert move in legal_texts(s)
    assert any(t.startswith(f"convert {blue_clan}") for t in legal_texts(s))


def test_usable_cards_are_the_daughters_card_and_own_unoccupied_cards() -> None:
    """Blue's daughter on teal's clan: blue uses it and his own two cards; teal only his
    Kochisei-Shuraku."""
    s = new()
    teal_clan = s.players[TEAL].clans[1]
    marry(s, blue=f"marry {teal_clan}")
    keys = {u[0] for u in s.usable}
    assert keys == {"300 blue", s.players[BLUE].clans[1], teal_clan}
    until_turn(s, TEAL)
    assert {u[0] for u in s.usable} == {"300 teal"}


def test_royal_princes_and_some_clans_produce_without_input() -> None:
    """Royal Prince 800 produces 2 Iron and Jotojin (503) a Soldier, with no Workers."""
    s = new()
    s.players[BLUE].tadokoro = 1
    put(s, "503", s.players[BLUE].clans)
    marry(s, blue="marry 800")
    assert s.pool[G["worker"]] == 0
    assert {"convert 800 iron", "convert 503 soldier"} <= legal_texts(s)
    act(s, "convert 800 iron", "convert 503 soldier")
    assert s.players[BLUE].iron == 2 and s.pool[G["soldier"]] == 1


def test_R20_hoko_ji_needs_its_owners_statue_and_locks_it() -> None:
    """601 works only while its owner holds a Statue (inferred); in the turn its owner uses
    it, that Statue may not be spent; a Statue the temple makes may."""
    s = new()
    s.players[BLUE].tadokoro = 6
    put(s, "601", s.players[BLUE].clans)
    put(s, "609", s.supply)  # 3 Soldiers + 1 Statue
    marry(s)
    assert "convert 601 monk" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="R20"):
        act(s, "convert 601 monk")
    s.players[BLUE].statue = 1
    pool(s, soldier=3)
    assert "obtain 609" in legal_texts(s)
    snapshot = s.clone()
    act(s, "convert 601 monk")
    assert s.lock == 1 and "obtain 609" not in legal_texts(s)
    act(s, "convert 300 blue soldier")  # the turn goes on; the lock stays
    assert "obtain 609" not in legal_texts(s)
    act(snapshot, "convert 601 statue")  # makes a second Statue: one may be spent
    assert snapshot.players[BLUE].statue == 2 and "obtain 609" in legal_texts(snapshot)
    act(snapshot, "obtain 609")
    assert snapshot.players[BLUE].statue == 1


def test_R20_hachioka_dera_needs_no_statue() -> None:
    """602 prints no Statue condition (inferred); an overlay of R20 can add one."""
    s = new()
    s.players[BLUE].tadokoro = 3
    put(s, "602", s.players[BLUE].clans)
    marry(s)
    assert s.players[BLUE].statue == 0 and "convert 602 statue" in legal_texts(s)
    overlay = {"rulings": [{"id": "R20", "default": {"602_requires_owner_statue": True}}]}
    s = new(data_overlay=overlay)
    s.players[BLUE].tadokoro = 3
    put(s, "602", s.players[BLUE].clans)
    marry(s)
    assert "convert 602 statue" not in legal_texts(s)


def test_R19_hero_once_per_game_and_not_the_rounds_card() -> None:
    """A Hero's goods come at once, the Hero goes to the tableau, the player still obtains
    his one card, and he never takes another Hero; others cannot take that Hero."""
    s = new()
    marry(s)
    act(s, "hero 901")
    assert s.pool[G["soldier"]] == 2 and s.players[BLUE].hero == "901"
    assert "901" not in s.heroes and s.to_move == BLUE
    assert not any(t.startswith("hero") for t in legal_texts(s))
    act(s, "obtain 1 tadokoro")
    assert "hero 901" not in legal_texts(s) and "hero 900" in legal_texts(s)
    with pytest.raises(IllegalAction, match="taken by another player"):
        act(s, "hero 901")
    finish_round(s)
    marry(s)
    until_turn(s, BLUE)
    assert not any(t.startswith("hero") for t in legal_texts(s))
    with pytest.raises(IllegalAction, match="already used a Hero"):
        act(s, "hero 900")


def test_R19_soga_no_umako_statue_is_a_token_kept() -> None:
    """Hero 902's Statue is an item token: it stays after the turn."""
    s = new()
    marry(s)
    act(s, "hero 902", "obtain 1 tadokoro")
    assert s.players[BLUE].statue == 1


def test_obtain_D_a_supply_card_paying_its_cost() -> None:
    """D: a Supply Mission goes to the Mission row, its items from the Bank at once."""
    s = new()
    put(s, "408", s.supply)  # 2 Soldiers: 2 Military VPs + 1 Mirror
    marry(s)
    assert "obtain 408" not in legal_texts(s)
    pool(s, soldier=2)
    act(s, "obtain 408")
    g = s.players[BLUE]
    assert g.missions == ["408"] and g.mirror == 1 and "408" not in s.supply
    assert g.obtained == ["408"] and s.to_move == ORANGE


def test_obtain_D_a_clan_goes_to_the_clan_row() -> None:
    """A Clan card obtained lies in the Clan cards row."""
    s = new()
    put(s, "404", s.supply)  # 1 Soldier + 2 Workers
    marry(s)
    pool(s, soldier=1)
    act(s, "obtain 404")
    assert s.players[BLUE].clans[-1] == "404"


def test_obtain_E_a_hand_card_paying_its_cost() -> None:
    """E: a card from the hand, at its printed cost, even one of an earlier century."""
    s = new()
    put(s, "402", s.players[BLUE].hand)  # 2 Soldiers
    while s.round < 5:
        finish_round(s)
    marry(s)
    until_turn(s, BLUE)
    pool(s, soldier=2)
    act(s, "obtain 402")
    assert s.players[BLUE].hand == [] and "402" in s.players[BLUE].clans


def test_obtain_F_two_tadokoro_then_a_supply_card_into_hand() -> None:
    """F: 2 Workers + 1 Iron in total for 2 Tadokoro, then a Supply card into the hand."""
    s = new()
    s.players[BLUE].iron = 1
    marry(s)
    supply = list(s.supply)
    act(s, "obtain 2 tadokoro")
    g = s.players[BLUE]
    assert g.tadokoro == 6 and g.iron == 0 and s.pool[G["worker"]] == 2
    assert s.step == "hand" and s.to_move == BLUE
    assert legal_texts(s) == {f"hand {c}" for c in supply}
    act(s, f"hand {supply[2]}")
    assert g.hand == [supply[2]] and supply[2] not in s.supply
    assert g.obtained == ["2 tadokoro"] and s.to_move == ORANGE


def test_R08_option_F_hand_card_forced_or_absent() -> None:
    """With one Supply card it goes to the hand without asking; with none, no hand card."""
    s = new()
    s.players[BLUE].iron = 2
    marry(s)
    only = s.supply[0]
    for c in s.supply[1:]:
        put(s, c, s.discard)
    act(s, "obtain 2 tadokoro")
    assert s.players[BLUE].hand == [only] and s.to_move == ORANGE
    until_turn(s, TEAL)
    s.players[TEAL].iron = 1
    refresh(s)
    act(s, "obtain 2 tadokoro")
    assert s.players[TEAL].hand == [] and any("no card goes to the hand" in e for e in s.events)


def test_R08_hand_cards_are_public_and_unlimited() -> None:
    """Every seat's view shows every hand; there is no hand limit."""
    s = new()
    for c in ("404", "405", "406", "407", "408", "409", "410", "411"):
        put(s, c, s.players[PINK].hand)
    view = s.view(BLUE)
    assert view["gozoku"][PINK]["hand"] == ["404", "405", "406", "407", "408", "409", "410",
                                             "411"]


def test_obtain_G_one_free_tadokoro() -> None:
    """G: a Tadokoro from the Bank for nothing."""
    s = new()
    marry(s)
    bank = s.bank_tadokoro
    act(s, "obtain 1 tadokoro")
    assert s.players[BLUE].tadokoro == 5 and s.bank_tadokoro == bank - 1


def test_R07_obtaining_one_card_is_mandatory() -> None:
    """No pass: the free Tadokoro is always legal, obtaining ends the turn, and every player
    obtains exactly one card each round (inferred)."""
    s = new()
    s.players[BLUE].tadokoro = 0
    marry(s)
    texts = legal_texts(s)
    assert "obtain 1 tadokoro" in texts and not any(t in ("done", "pass") for t in texts)
    assert all(t.startswith(("convert", "hero", "obtain")) for t in texts)
    finish_round(s)
    assert all(len(g.obtained) == 1 for g in s.players)


def test_payment_asked_when_more_than_one_printed_cost_is_payable() -> None:
    """611 costs 1 Monk OR 1 Bureaucrat: with both, the player chooses; with one, not."""
    s = new()
    put(s, "611", s.supply)
    marry(s)
    pool(s, monk=1, bureaucrat=1)
    act(s, "obtain 611")
    assert s.step == "payment" and s.to_move == BLUE
    assert legal_texts(s) == {"payment 1", "payment 2"}
    act(s, "payment 2")
    assert s.to_move == ORANGE and s.players[BLUE].missions == ["611"]
    assert any("for 1 bureaucrat" in e for e in s.events)
    s = new()
    put(s, "611", s.supply)
    marry(s)
    pool(s, bureaucrat=1)
    act(s, "obtain 611")
    assert s.players[BLUE].missions == ["611"] and s.to_move == ORANGE


def test_R17_costs_are_paid_with_exactly_the_printed_goods() -> None:
    """No substitution: a Soldier is not a Worker, an Architect is not a Monk (inferred)."""
    s = new()
    s.players[BLUE].tadokoro = 3
    put(s, "405", s.supply)  # 4 Workers
    put(s, "602", s.supply)  # 1 Monk + 4 Workers + 1 Statue
    marry(s)
    pool(s, soldier=3, architect=2)
    assert "obtain 405" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="costs 4 workers"):
        act(s, "obtain 405")
    pool(s, worker=4, monk=0)
    s.players[BLUE].statue = 1
    refresh(s)
    assert "obtain 405" in legal_texts(s) and "obtain 602" not in legal_texts(s)


def test_R03_clans_and_tadokoro_obtained_work_from_the_next_round() -> None:
    """A clan obtained now is usable (and marriageable) from the next round; Tadokoro
    obtained now produce from the next round."""
    s = new()
    put(s, "404", s.supply)
    marry(s)
    pool(s, soldier=1)
    act(s, "obtain 404")
    until_turn(s, PINK)
    s.players[PINK].iron = 1
    refresh(s)
    act(s, "obtain 2 tadokoro")
    if s.step == "hand":
        act(s, sorted(legal_texts(s))[0])
    assert s.round == 2
    assert "marry 404" in legal_texts(s)  # pink may marry into it now
    marry(s)
    until_turn(s, PINK)  # round 2: orange starts, so pink produces before blue
    assert s.players[PINK].tadokoro == 6 and s.pool[G["worker"]] == 6
    until_turn(s, BLUE)
    assert ("404", 0, "404") in s.usable
    assert "convert 404 soldier" in legal_texts(s)


def test_R18_workforce_vanishes_items_are_kept() -> None:
    """Workers, labourers and products vanish at the end of the turn; Iron, Statue and
    Mirror tokens stay; Mission items arrive after the payment."""
    s = new()
    put(s, "410", s.supply)  # 1 Cloth: 1 Economy VP + 1 Iron
    s.players[BLUE].statue = 1
    marry(s)
    pool(s, cloth=1, horse=1)
    act(s, "convert 300 blue soldier")
    assert s.pool[G["soldier"]] == 1 and s.pool[G["worker"]] == 2
    act(s, "obtain 410")
    g = s.players[BLUE]
    assert (g.iron, g.statue, g.mirror) == (1, 1, 0)
    # Orange's turn starts from his own Tadokoro only: nothing of blue's pool is left.
    assert s.to_move == ORANGE and s.pool == [4] + [0] * 9
    finish_round(s)
    marry(s)
    until_turn(s, BLUE)
    assert s.pool == [4] + [0] * 9  # his own 4 Tadokoro again, nothing carried over


def test_R18_items_produced_this_turn_can_be_spent_at_once() -> None:
    """Iron made by a Royal Prince pays for option F in the same turn."""
    s = new()
    marry(s, blue="marry 800")
    assert "obtain 2 tadokoro" not in legal_texts(s)
    act(s, "convert 800 iron")
    assert "obtain 2 tadokoro" in legal_texts(s)
    act(s, "obtain 2 tadokoro")
    assert s.players[BLUE].iron == 1
