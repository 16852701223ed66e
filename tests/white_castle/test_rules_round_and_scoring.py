"""The White Castle's PASSAGE OF TIME, END OF THE ROUND and END OF THE GAME rules.

Passage of Time moves are triggered through the public protocol: a data overlay makes
every starting resource card grant N Passage steps, so picking a starting pair moves
the picker's influence marker (position and seals are set just before the pick).
Round ends are reached by playing real games, then arranging the board just before
the round's last turn, which is played onto the Well (its tiles fixed to plain gains).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kamon.games.white_castle import GAME
from kamon.games.white_castle.data import load_data
from kamon.games.white_castle.state import WhiteCastleState
from tests.white_castle.conftest import (
    act,
    after_draft,
    first_choice,
    frame,
    legal_texts,
    play_until,
    refresh,
)

DATA = load_data()
PLAIN_WELL = ("die_tile_coral_food", "die_tile_black_iron")  # 1 food, 1 iron: no decisions


# ------------------------------------------------------------------------ helpers

def passage_overlay(steps: int) -> dict[str, Any]:
    """An overlay making every starting resource card grant `steps` Passage steps only."""
    return {"starting_cards": {"starting_resource": [
        {"id": rid, "on_take": [{"action": "passage", "steps": steps}]}
        for rid in sorted(DATA.start_resources)]}}


def passage_game(steps: int, pos: int, seals: int, players: int = 2
                 ) -> tuple[WhiteCastleState, int]:
    """A game at the first draft pick, whose picker stands on `pos` with `seals` seals;
    picking any pair moves that marker `steps` spaces."""
    s = GAME.new_game(players, 1, data_overlay=passage_overlay(steps))
    p = s.to_move
    assert p is not None
    s.clans[p].pos = pos
    s.clans[p].seals = seals
    refresh(s)
    return s, p


def last_take(players: int, round_: int, seed: int = 1) -> WhiteCastleState:
    """A real game at the last 'take a die' of a round (4 dice left on the bridges)."""
    s = after_draft(players, seed)
    return play_until(s, lambda t: t.round == round_ and t.phase == "play"
                      and frame(t) == "take" and t.dice_left() == 4)


def last_turn_at_the_well(s: WhiteCastleState, bridges: list[list[int]]) -> int:
    """Set the bridges (4 dice; coral ends with [.., 1]), then the player to move takes the
    coral right-end 1 (no Lantern) and places it in the Well: no coins change hands, the
    player gains 1 seal, 1 food, 1 iron. Returns that seat."""
    assert sum(len(b) for b in bridges) == 4 and bridges[0][-2:] == [1, 1]
    p = s.to_move
    assert p is not None
    s.bridges = [b[:] for b in bridges]
    s.well_tiles = PLAIN_WELL
    refresh(s)
    act(s, "take coral right", "place well")
    return p


def no_gardeners(s: WhiteCastleState) -> None:
    """Remove every gardener from the garden cards."""
    s.garden_workers = [[] for _ in range(6)]


# ============================================================ PASSAGE OF TIME

def test_passage_each_step_moves_one_space() -> None:
    """N steps inside a season move the marker exactly N spaces, no decision needed."""
    for steps in (1, 2, 4):
        s, p = passage_game(steps, pos=0, seals=0)
        act(s, "draft 1")
        assert s.clans[p].pos == steps
        assert s.to_move != p  # the pick is over: the next player picks


@pytest.mark.parametrize(("start", "cost", "stop"), [(4, 1, 5), (9, 2, 10), (13, 3, 14)])
def test_passage_checkpoint_costs_1_2_3_seals_or_marker_stops(start: int, cost: int,
                                                              stop: int) -> None:
    """Entering 6 / 11 / 15 costs 1 / 2 / 3 seals: the player decides to pay or stop."""
    s, p = passage_game(3, pos=start, seals=cost + 1)
    act(s, "draft 1")
    assert frame(s) == "checkpoint" and s.to_move == p
    assert s.clans[p].pos == stop
    assert {"pay", "done"} <= legal_texts(s)
    assert s.describe(GAME.parse_action(s, "pay").id).startswith(f"pay {cost} seal")
    act(s, "pay")
    assert s.clans[p].seals == 1
    assert s.clans[p].pos == start + 3  # paid, then the remaining steps go on


@pytest.mark.parametrize(("start", "stop"), [(4, 5), (9, 10), (13, 14)])
def test_passage_checkpoint_refused_marker_stops_remaining_steps_lost(start: int,
                                                                     stop: int) -> None:
    """Declining to pay leaves the marker on 5 / 10 / 14 and the rest of the move is lost."""
    s, p = passage_game(4, pos=start, seals=5)
    act(s, "draft 1")
    assert frame(s) == "checkpoint"
    act(s, "done")
    assert s.clans[p].pos == stop
    assert s.clans[p].seals == 5
    assert s.to_move != p and frame(s) == "draft"


@pytest.mark.parametrize(("start", "cost", "stop"), [(3, 1, 5), (8, 2, 10), (12, 3, 14)])
def test_passage_checkpoint_unpayable_stops_at_5_10_14(start: int, cost: int,
                                                       stop: int) -> None:
    """Without enough seals the marker stops before the checkpoint; steps are lost."""
    s, p = passage_game(5, pos=start, seals=cost - 1)
    act(s, "draft 1")
    assert s.clans[p].pos == stop
    assert s.clans[p].seals == cost - 1
    assert frame(s) == "draft" and s.to_move != p


def test_passage_several_checkpoints_in_one_move() -> None:
    """A long move pays each checkpoint in turn and stops at the first it cannot pay."""
    s, p = passage_game(10, pos=5, seals=5)
    act(s, "draft 1")
    assert frame(s) == "checkpoint" and s.clans[p].pos == 5
    act(s, "pay")  # 1 seal into 6, on to 10
    assert frame(s) == "checkpoint" and s.clans[p].pos == 10
    act(s, "pay")  # 2 seals into 11, on to 14; 3 seals for 15 are missing
    assert s.clans[p].pos == 14
    assert s.clans[p].seals == 2
    assert frame(s) == "draft" and s.to_move != p


def test_passage_checkpoint_pay_illegal_once_the_seals_were_exchanged_away() -> None:
    """Exchanging the last seal at the checkpoint decision leaves nothing to pay with."""
    s, p = passage_game(1, pos=5, seals=1)
    act(s, "draft 1")
    assert frame(s) == "checkpoint"
    act(s, "exchange seal coin")
    assert s.clans[p].seals == 0
    assert "pay" not in legal_texts(s)
    act(s, "done")
    assert s.clans[p].pos == 5


def test_passage_arriving_on_an_occupied_space_goes_on_top() -> None:
    """The later arrival is on top of the stack, whatever the stack order was before."""
    s, p = passage_game(2, pos=0, seals=0)
    q = 1 - p
    assert s.clans[q].seq > s.clans[p].seq  # q starts on top (first player)
    s.clans[q].pos = 2
    refresh(s)
    act(s, "draft 1")  # p moves 0 -> 2 onto q
    assert s.clans[p].pos == s.clans[q].pos == 2
    assert s.clans[p].seq > s.clans[q].seq
    assert s.turn_order_now() == [p, q]


def test_passage_track_ends_at_20() -> None:
    """The marker never passes the last space (20)."""
    s, p = passage_game(5, pos=18, seals=0)
    act(s, "draft 1")
    assert s.clans[p].pos == 20
    s, p = passage_game(3, pos=20, seals=5)
    act(s, "draft 1")
    assert s.clans[p].pos == 20


# ============================================================ END OF THE ROUND

@pytest.mark.parametrize("players", [2, 3, 4])
def test_end_of_round_triggered_when_three_dice_left(players: int) -> None:
    """Each player plays exactly 3 dice; the round ends with 3 dice on the bridges."""
    s = after_draft(players, 4)
    takes = [0] * players
    left_at_last = None
    while s.round == 1:
        if frame(s) == "take":
            assert s.to_move is not None
            takes[s.to_move] += 1
            left_at_last = s.dice_left()
        s.apply(first_choice(s))
    assert takes == [3] * players
    assert left_at_last == 4  # the last die taken left 3 on the bridges
    assert any(e.startswith("end of round 1") for e in s.events)


def test_end_of_round_only_then_does_the_passage_change_the_turn_order() -> None:
    """Moving ahead on the Passage of Time mid-round does not reorder the current round."""
    s = after_draft(3, 2)
    order = list(s.order)
    s.clans[order[2]].pos = 12  # the last player is now far ahead
    s.seq_counter += 1
    s.clans[order[2]].seq = s.seq_counter
    refresh(s)
    seen = []
    while s.round == 1:
        if frame(s) == "take" and (not seen or seen[-1] != s.to_move):
            seen.append(s.to_move)
        s.apply(first_choice(s))
    assert seen == order * 3
    assert s.order[0] == order[2]  # from round 2 on, the farthest plays first


def test_end_of_round_turn_order_farthest_first_ties_top_of_stack() -> None:
    """New order: farthest on the Passage of Time first; on a tie, top of the stack first."""
    s = last_take(3, 1)
    a, b, c = s.order  # current order
    no_gardeners(s)
    for q, pos, seq in ((a, 4, 10), (b, 9, 1), (c, 4, 11)):
        s.clans[q].pos = pos
        s.clans[q].seq = seq
    s.seq_counter = 11
    last_turn_at_the_well(s, [[1, 1], [], [3, 4]])
    assert s.order == [b, c, a]
    assert s.round == 2 and s.to_move == b and frame(s) == "take"


def setup_gardens(s: WhiteCastleState, workers: list[list[int]]) -> None:
    """Plain garden cards (coins / seals / 2 resources of choice) with the given gardeners."""
    s.garden_cards = ["stone_7", "stone_8", "stone_7", "stone_8", "stone_8", "stone_7"]
    s.garden_workers = [w[:] for w in workers]


def gardens_offered(s: WhiteCastleState) -> set[str]:
    """The garden activations offered now."""
    return {t for t in legal_texts(s) if t.startswith("garden")}


def test_end_of_round_gardens_only_under_bridges_with_dice() -> None:
    """Cards under the emptied black bridge do not activate; coral and white ones do."""
    s = last_take(2, 1)
    p = s.to_move
    assert p is not None
    q = 1 - p
    setup_gardens(s, [[q], [], [p, q], [p, q], [], [q]])
    s.clans[p].seals = s.clans[q].seals = 0
    coins_q = s.clans[q].coins
    last_turn_at_the_well(s, [[1, 1], [], [3, 4]])  # black bridge emptied
    # p's gardeners are all under the black bridge: p has nothing to activate.
    assert frame(s) == "garden_round" and s.to_move == q
    assert gardens_offered(s) == {"garden coral plant", "garden white stone"}
    act(s, "garden coral plant")  # the white stone card follows by itself (no choice left)
    assert s.clans[q].coins == coins_q + 3 + 3
    assert s.clans[q].seals == 0  # the black stone card (2 seals) did not activate
    assert s.clans[p].seals == 1  # the Well's seal only
    assert s.round == 2 and s.phase == "play"


def test_end_of_round_gardens_in_new_turn_order_each_player_chooses_order() -> None:
    """Players activate in the NEW turn order; each picks the order of their own cards,
    and each gardener activates exactly once."""
    s = last_take(2, 1)
    p = s.to_move
    assert p is not None
    q = 1 - p
    assert s.order == [q, p]  # p plays last this round...
    s.clans[p].pos, s.clans[q].pos = 3, 0  # ...but is first next round
    # p: coral plant (3 coins) + white plant (2 seals); q: coral stone (2 seals) + white
    # stone (3 coins).
    setup_gardens(s, [[p], [q], [], [], [p], [q]])
    s.clans[p].seals = s.clans[q].seals = 0
    last_turn_at_the_well(s, [[1, 1], [2], [3]])
    coins_p, coins_q = s.clans[p].coins, s.clans[q].coins
    assert s.order == [p, q]
    assert s.phase == "gardens" and frame(s) == "garden_round" and s.to_move == p
    assert gardens_offered(s) == {"garden coral plant", "garden white plant"}
    n_events = len(s.events)
    act(s, "garden white plant")  # p's own choice of order: the seals first
    acts = [e for e in s.events[n_events:] if "activates" in e]
    assert len(acts) == 2 and "white plant" in acts[0] and "coral plant" in acts[1]
    # The coral plant card, p's last activation, followed by itself (no choice left).
    assert s.clans[p].seals == 1 + 2 and s.clans[p].coins == coins_p + 3
    assert s.phase == "gardens" and s.to_move == q
    assert gardens_offered(s) == {"garden coral stone", "garden white stone"}
    act(s, "garden white stone")
    assert s.clans[q].coins == coins_q + 3 and s.clans[q].seals == 2
    # Every gardener used once: the next round starts, p first.
    assert s.round == 2 and s.phase == "play" and s.to_move == p
    assert s.clans[p].seals == 3 and s.clans[p].coins == coins_p + 3


# The Appendix on the personal-domain action: "You cannot trigger the exact same line more
# than once in a single turn." The Gardens step is nobody's turn: each player's go in it
# starts with no row barred, and a row fired during that go stays barred until it ends.
DOMAIN_GARDENS = ["plant_5", "stone_7", "plant_4", "stone_8", "plant_3", "stone_6"]
ROW_TEXTS = {"row coral", "row black", "row white"}


def domain_gardens(s: WhiteCastleState, coral_plant: list[int], black_plant: list[int]
                   ) -> None:
    """The coral plant garden is plant_5 (pay 4 coins: a personal-domain action), the black
    plant garden plant_4 (pay 3 coins: a Warrior action); gardeners as given."""
    s.garden_cards = DOMAIN_GARDENS[:]
    s.garden_workers = [coral_plant[:], [], black_plant[:], [], [], []]


def rows_offered(s: WhiteCastleState) -> set[str]:
    """The personal-domain rows offered now."""
    assert frame(s) == "row"
    return legal_texts(s) & ROW_TEXTS


def test_end_of_round_gardens_domain_action_not_barred_by_the_rounds_last_turn() -> None:
    """The round's last player fires the coral row on their turn (a die in the domain);
    their own garden's personal-domain action in the Gardens step may fire it again."""
    s = last_take(2, 1)
    p = s.to_move
    assert p is not None
    c = s.clans[p]
    c.card = "start_action_warrior"
    c.coins, c.seals = 5 + 4, 0
    domain_gardens(s, [p], [])
    s.bridges = [[1, 1], [2], [3]]
    refresh(s)
    act(s, "take coral right", "place domain")  # a 1 on the printed 6: pay 5 coins
    assert c.domain[0] == (0, 1) and s.fired == [0]
    act(s, "done")  # decline the coral row's card block: the turn and the round end
    assert s.phase == "gardens" and s.to_move == p and frame(s) == "pay"
    act(s, "pay")  # plant_5: 4 coins for a personal-domain action
    assert rows_offered(s) == ROW_TEXTS
    food = c.res[0]
    act(s, "row coral")
    assert c.res[0] > food  # the coral row's visible food


def test_end_of_round_gardens_each_players_domain_action_starts_with_no_row_barred() -> None:
    """Both clans have a gardener on the personal-domain garden: the row the first one
    fires in the Gardens step does not bar the second."""
    s = last_take(2, 1)
    for clan in s.clans:
        clan.card = "start_action_warrior"
        clan.coins, clan.seals = 4, 0
    domain_gardens(s, [0, 1], [])
    last_turn_at_the_well(s, [[1, 1], [2], [3]])
    first, second = s.order
    assert s.phase == "gardens" and s.to_move == first and frame(s) == "pay"
    act(s, "pay")
    assert rows_offered(s) == ROW_TEXTS
    act(s, "row coral", "done")  # fire coral; decline its card block
    assert s.to_move == second and frame(s) == "pay"
    act(s, "pay")
    assert rows_offered(s) == ROW_TEXTS


def test_end_of_round_gardens_a_row_fired_stays_barred_for_the_rest_of_that_players_go(
        ) -> None:
    """One player's activations in the Gardens step count as one turn: after the domain
    garden fired coral, a warrior the other garden sends to a domain-action yard may fire
    black or white, not coral again."""
    s = last_take(2, 1)
    p = s.to_move
    assert p is not None
    c = s.clans[p]
    c.card = "start_action_warrior"
    c.coins, c.seals, c.res[1] = 4 + 3, 0, 1
    c.left[2], c.warriors = 5, []
    s.clans[1 - p].pos = 0
    c.pos = 5  # p first in the Gardens step (alone in it anyway)
    domain_gardens(s, [p], [p])
    s.yard_effects = [(("domain",),)] * 3
    last_turn_at_the_well(s, [[1, 1], [2], [3]])
    assert s.phase == "gardens" and s.to_move == p and frame(s) == "garden_round"
    act(s, "garden coral plant", "pay", "row coral", "done")
    # The black plant garden follows by itself: pay 3 coins for a Warrior action.
    assert frame(s) == "pay"
    act(s, "pay", "yard 3")  # 1 iron; the yard's personal-domain action
    assert rows_offered(s) == {"row black", "row white"}


@pytest.mark.parametrize("round_", [1, 2])
def test_end_of_round_gardens_activate_after_rounds_1_and_2(round_: int) -> None:
    """Gardens are step 2 of the end of rounds 1 and 2."""
    s = last_take(2, round_)
    p = s.to_move
    assert p is not None
    setup_gardens(s, [[p], [], [], [], [], []])
    coins = s.clans[p].coins
    last_turn_at_the_well(s, [[1, 1], [2], [3]])
    assert s.round == round_ + 1
    assert s.clans[p].coins == coins + 3


def test_end_of_round_3_no_gardens_and_the_game_ends() -> None:
    """After round 3: turn order updated, then straight to the end (no gardens)."""
    s = last_take(2, 3)
    p = s.to_move
    assert p is not None
    q = 1 - p
    setup_gardens(s, [[p, q], [p, q], [p, q], [p, q], [p, q], [p, q]])
    s.clans[q].pos, s.clans[p].pos = 0, 2
    s.clans[p].coins = s.clans[q].coins = 0
    s.clans[p].seals = s.clans[q].seals = 0
    last_turn_at_the_well(s, [[1, 1], [2], [3]])
    assert s.is_over() and s.phase == "over" and s.to_move is None
    assert s.legal_actions() == []
    assert s.round == 3
    assert s.order == [p, q]
    assert (s.clans[q].coins, s.clans[q].seals) == (0, 0)
    assert s.clans[p].seals == 1  # the Well's seal, no garden seals
    assert not any("activates" in e for e in s.events[-5:])


@pytest.mark.parametrize(("players", "per"), [(2, 3), (3, 4), (4, 5)])
def test_end_of_round_dice_rerolled_spaces_cleared_round_marker_advances(
        players: int, per: int) -> None:
    """Prepare the next round: all dice re-rolled onto the bridges in ascending order,
    the main board and the domains emptied of dice, round marker + 1."""
    s = last_take(players, 1)
    no_gardeners(s)
    p = s.to_move
    assert p is not None
    assert any(s.spaces[sp] for sp in range(8))
    s.clans[(p + 1) % players].domain[1] = (1, 4)  # a die on a domain row too
    last_turn_at_the_well(s, [[1, 1], [2], [3]])
    assert s.round == 2 and s.phase == "play"
    for dice in s.bridges:
        assert len(dice) == per and dice == sorted(dice)
        assert all(1 <= v <= 6 for v in dice)
    assert s.spaces == [[] for _ in range(8)]
    assert all(c.domain == [None, None, None] for c in s.clans)
    assert s.to_move == s.order[0] and frame(s) == "take"


def test_end_of_round_rerolls_differ_between_rounds() -> None:
    """The dice really are rolled again (not the setup values) over a few games."""
    changed = 0
    for seed in range(8):
        s = after_draft(3, seed)
        first = [b[:] for b in s.bridges]
        play_until(s, lambda t: t.round == 2 and frame(t) == "take")
        changed += s.bridges != first
    assert changed >= 6


# ============================================================ END OF THE GAME

def scored(players: int = 2) -> WhiteCastleState:
    """A fresh game (scores() can be read at any time) with nothing on the board."""
    return GAME.new_game(players, 9)


@pytest.mark.parametrize(("coins", "seals", "points"),
                         [(0, 0, 0), (4, 0, 0), (5, 0, 1), (4, 1, 1), (3, 3, 1), (9, 0, 1),
                          (7, 5, 2), (10, 5, 3), (23, 2, 5)])
def test_end_game_coins_and_seals_one_point_per_five_rounded_down(coins: int, seals: int,
                                                                 points: int) -> None:
    """1 CP for every 5 coins and/or seals together."""
    s = scored()
    s.clans[0].coins, s.clans[0].seals = coins, seals
    assert s.scores()[0]["coins_seals"] == points


@pytest.mark.parametrize(("res", "points"),
                         [([0, 0, 0], 0), ([2, 2, 2], 0), ([3, 0, 0], 1), ([6, 6, 6], 3),
                          ([7, 0, 0], 2), ([7, 7, 7], 6), ([2, 3, 7], 3)])
def test_end_game_resources_3_to_6_one_point_7_two_points(res: list[int], points: int) -> None:
    """Per resource: 3-6 left -> 1 CP, 7 left -> 2 CP, fewer than 3 -> 0."""
    s = scored()
    s.clans[1].res = res
    assert s.scores()[1]["resources"] == points


def test_end_game_passage_0_3_6_then_printed_10_to_15() -> None:
    """Season 1 (0-5): 0; season 2 (6-10): 3; season 3 (11-14): 6; 15..20: 10..15."""
    expected = [0] * 6 + [3] * 5 + [6] * 4 + [10, 11, 12, 13, 14, 15]
    s = scored()
    got = []
    for pos in range(21):
        s.clans[0].pos = pos
        got.append(s.scores()[0]["passage_of_time"])
    assert got == expected


@pytest.mark.parametrize(("locs", "points"),
                         [([0], 1), ([1], 3), ([2], 3), ([3], 3), ([4], 6), ([5], 6), ([6], 10),
                          ([0, 0, 1, 6, 6], 25), ([], 0)])
def test_end_game_courtiers_gate_1_floor1_3_floor2_6_daimyo_10(locs: list[int],
                                                              points: int) -> None:
    """Courtiers score by where they stand: Gate 1, stewards 3, diplomats 6, Daimyo 10."""
    s = scored()
    s.clans[0].courtiers = locs
    assert s.scores()[0]["courtiers"] == points


@pytest.mark.parametrize(("warriors", "courtiers", "points"),
                         [([0], [], 0),            # no courtier at all
                          ([0, 1, 2], [0, 0], 0),  # Gate courtiers do not count
                          ([0], [1], 2),           # yard 1 warriors are worth 2
                          ([1], [1], 1), ([2], [1], 1),  # yards 2 and 3: worth 1
                          ([0, 0, 1, 2], [6, 6, 1, 0, 0], 18),  # rulebook: 6 x 3
                          ([2, 2], [0, 4, 6], 4),
                          ([], [1, 4, 6], 0)])
def test_end_game_warriors_yard_values_times_courtiers_inside_the_castle(
        warriors: list[int], courtiers: list[int], points: int) -> None:
    """Sum of the warriors' yard values (2 / 1 / 1) x own courtiers inside (not the Gate)."""
    assert DATA.yard_values == (2, 1, 1)
    s = scored()
    s.clans[1].warriors = warriors
    s.clans[1].courtiers = courtiers
    assert s.scores()[1]["warriors"] == points


def test_end_game_gardeners_score_their_card_cp() -> None:
    """Each gardener scores the CP printed on its garden card."""
    s = scored(3)
    s.garden_cards = ["plant_1", "stone_6", "plant_5", "stone_8", "plant_2", "stone_10"]
    s.garden_workers = [[0, 1], [0], [], [0, 2], [2], []]
    sc = s.scores()
    assert [sc[p]["gardeners"] for p in range(3)] == [9 + 1 + 3, 9, 3 + 7]


def test_end_game_total_adds_every_category_to_the_clan_points_of_the_game() -> None:
    """total = points during the game + every end-game category."""
    s = scored()
    c = s.clans[0]
    c.cp, c.coins, c.seals, c.res, c.pos = 8, 5, 2, [7, 3, 0], 12
    c.courtiers, c.warriors = [6, 6, 1, 0, 0], [0, 0, 1, 2]
    s.garden_cards = ["plant_1", "stone_8", "plant_5", "stone_9", "plant_2", "stone_10"]
    s.garden_workers = [[0], [0], [], [0], [], []]
    row = s.scores()[0]
    assert row == {"during_game": 8, "coins_seals": 1, "resources": 3, "passage_of_time": 6,
                   "courtiers": 25, "warriors": 18, "gardeners": 15, "total": 76}


def test_end_game_tie_goes_to_the_higher_in_the_final_turn_order() -> None:
    """Equal totals: the player higher in the turn order set after round 3 wins."""
    s = last_take(2, 3)
    p = s.to_move
    assert p is not None
    q = 1 - p
    assert s.order == [q, p]  # q ahead in round 3's order...
    s.clans[q].pos, s.clans[p].pos = 7, 9  # ...but p ends farther (both score 3)
    no_gardeners(s)
    last_turn_at_the_well(s, [[1, 1], [2], [3]])
    assert s.is_over() and s.order == [p, q]
    for attr in ("coins", "seals", "cp", "res", "courtiers", "warriors"):
        setattr(s.clans[q], attr, copy.copy(getattr(s.clans[p], attr)))
    totals = [r["total"] for r in s.scores()]
    assert totals[p] == totals[q]
    assert s.winners() == [p]
    s.clans[q].cp += 1
    assert s.winners() == [q]


def test_end_game_scores_only_final_once_over_and_winner_has_most_points() -> None:
    """A complete game: no winner before the end; at the end the best total wins."""
    s = after_draft(3, 21)
    assert s.winners() == []
    play_until(s, lambda t: t.is_over())
    totals = [r["total"] for r in s.scores()]
    (w,) = s.winners()
    assert totals[w] == max(totals)
    assert any(e.startswith("final scores") for e in s.events)
