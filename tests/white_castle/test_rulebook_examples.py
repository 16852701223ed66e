"""Every worked example printed in The White Castle rulebook, one test each.

Each test sets up a real game, arranges the board as the example's picture shows
(by setting state fields before the decision), then plays the example's decisions
through the public protocol and checks the outcome the rulebook states.
"""

from __future__ import annotations

from kamon.games.white_castle import GAME
from kamon.games.white_castle.state import WhiteCastleState

CORAL, BLACK, WHITE = 0, 1, 2


def at_first_turn(players: int, seed: int = 7) -> WhiteCastleState:
    """A game past the starting-pair draft, at the first player's 'take a die' decision."""
    s = GAME.new_game(players, seed)
    while s.stack[-1].kind != "take":
        ids = [i for i in s.legal_ids() if not GAME.action_text(i).startswith("exchange")]
        s.apply(ids[0])
    return s


def blank(s: WhiteCastleState, p: int) -> None:
    """Empty a clan's stores so an example's numbers can be checked exactly."""
    c = s.clans[p]
    c.coins = c.seals = c.cp = 0
    c.res = [0, 0, 0]
    c.lantern = []
    s._legal = None


def do(s: WhiteCastleState, *moves: str) -> None:
    """Apply moves by notation (each must be legal)."""
    for m in moves:
        s.apply(GAME.parse_action(s, m))


def legal(s: WhiteCastleState) -> set[str]:
    """The legal notations now."""
    return {a.text for a in s.legal_actions()}


def test_stacking_example_coral_5_on_a_3_gains_2_then_a_1_on_that_5_pays_4() -> None:
    s = at_first_turn(3)
    p = s.to_move
    assert p is not None
    blank(s, p)
    s.room_tiles[0] = (CORAL, CORAL, BLACK)
    s.bridges[CORAL] = [1, 1, 1, 5]
    s._legal = None
    do(s, "take coral right", "place steward1")
    assert s.clans[p].coins == 2
    assert s.spaces[0] == [(CORAL, 5)]
    do(s, "done")  # decline the room's blocks
    q = s.to_move
    assert q is not None and q != p
    blank(s, q)
    s.clans[q].coins = 4
    s.bridges[CORAL] = [6, 1]
    s._legal = None
    do(s, "take coral right", "place steward1")
    assert s.clans[q].coins == 0
    assert s.spaces[0] == [(CORAL, 5), (CORAL, 1)]
    # Only one die may be stacked on another: the room is now full.
    assert s.space_cost(0, 6) is None


def test_castle_example_white_die_in_a_steward_room_seal_for_courtier_plus_2_iron() -> None:
    for order in (("block steward1 bottom", "block steward1 top"),
                  ("block steward1 top", "block steward1 bottom")):
        s = at_first_turn(2)
        p = s.to_move
        assert p is not None
        blank(s, p)
        s.clans[p].seals = 1
        s.room_cards[0] = "steward_02"  # top: pay 1 seal -> Courtier; bottom: 2 iron
        s.room_tiles[0] = (WHITE, CORAL, WHITE)
        s.bridges[WHITE] = [1, 1, 5]
        s._legal = None
        do(s, "take white right", "place steward1")
        assert s.clans[p].coins == 2  # a 5 on the printed 3
        assert {"block steward1 top", "block steward1 bottom"} <= legal(s)
        assert "block steward1 middle" not in legal(s)  # the coral tile's block
        do(s, order[0])
        if order[0].endswith("top"):
            do(s, "audience")  # no pearl for a climb: the Courtier action ends by itself
        do(s, order[1])
        if order[1].endswith("top"):
            do(s, "audience")
        c = s.clans[p]
        assert c.res[1] == 2 and c.seals == 0 and c.coins == 0
        assert c.courtiers == [0] and c.left[0] == 4


def test_castle_colour_example_a_die_colour_without_a_tile_cannot_enter_the_room() -> None:
    s = at_first_turn(3)
    s.room_tiles[0] = (WHITE, BLACK, WHITE)
    s.bridges[CORAL] = [1, 1, 5]
    s._legal = None
    do(s, "take coral right")
    assert "place steward1" not in legal(s)


def test_outside_the_walls_example_black_die_on_the_5_pays_1_then_warrior() -> None:
    s = at_first_turn(3)
    p = s.to_move
    assert p is not None
    blank(s, p)
    s.clans[p].coins = 1
    s.clans[p].res[1] = 1  # iron for the 1-iron yard
    s.spaces[5] = [(CORAL, 5), (WHITE, 6)]  # the left space already holds 2 dice
    s.bridges[BLACK] = [1, 1, 4]
    s._legal = None
    do(s, "take black right")
    assert "place outside-left" not in legal(s)  # a third die would exceed the maximum of 2
    do(s, "place outside-right")
    assert s.clans[p].coins == 0  # a 4 on the printed 5 pays 1
    assert legal(s) >= {"worker warrior", "worker courtier"}
    assert "worker gardener" not in legal(s)
    do(s, "worker warrior", "yard 3")
    assert s.clans[p].warriors == [2] and s.clans[p].res[1] == 0


def test_well_example_black_3_gives_2_coins_1_seal_1_pearl_and_1_resource_of_choice() -> None:
    s = at_first_turn(2)
    p = s.to_move
    assert p is not None
    blank(s, p)
    s.well_tiles = ("die_tile_coral_pearl", "die_tile_black_resource_of_choice")
    s.spaces[7] = [(CORAL, 2)]  # the coral die already there has no effect at all
    s.bridges[BLACK] = [1, 1, 3]
    s._legal = None
    do(s, "take black right", "place well", "gain iron")
    c = s.clans[p]
    assert (c.coins, c.seals, c.res) == (2, 1, [0, 1, 1])
    assert s.spaces[7] == [(CORAL, 2), (BLACK, 3)]


def test_personal_domain_example_die_on_printed_6_pays_3_gains_3_food_2_coins_then_card() -> None:
    s = at_first_turn(2)
    p = s.to_move
    assert p is not None
    blank(s, p)
    c = s.clans[p]
    c.coins = 3
    c.left[0] = 2  # three courtiers have left: food, food and 2 coins are uncovered
    c.courtiers = [0, 0, 0]
    c.card = "steward_10"  # top block: 1 seal + 1 resource of choice
    s.bridges[CORAL] = [1, 1, 3]
    s._legal = None
    do(s, "take coral right", "place domain")
    assert c.coins == 0 + 2 and c.res[0] == 3  # paid 3, then 3 food + 2 coins
    assert "card first" in legal(s)
    do(s, "card first", "gain pearl")
    assert c.seals == 1 and c.res == [3, 0, 1]
    assert c.domain[CORAL] == (CORAL, 3)


def test_warrior_example_red_pays_5_iron_black_tile_action_2cp_and_well_then_2_influence() -> None:
    s = at_first_turn(3)
    p = s.to_move
    assert p is not None
    blank(s, p)
    c = s.clans[p]
    c.res[1] = 5
    s.yard_effects[0] = (("die_tile", "black"), ("passage", 2))  # tiles 6 front + 2 back
    s.room_cards[3] = "diplomat_03"  # lower block: 2 CP + the Well
    s.room_tiles[3] = (CORAL, BLACK)
    s.well_tiles = ("die_tile_coral_pearl", "die_tile_black_iron")
    s.bridges[BLACK] = [1, 1, 5]
    s._legal = None
    do(s, "take black right", "place outside-right", "worker warrior", "yard 1")
    assert c.res[1] == 0 and c.warriors == [0]
    do(s, "effect 1")  # the black die-tile action first
    assert "block diplomat1 lower" in legal(s)
    assert "block diplomat1 upper" not in legal(s)  # beside the coral tile
    do(s, "block diplomat1 lower")
    assert c.cp == 2 and c.seals == 1 and c.res == [0, 1, 1]  # 2 CP, Well: seal+iron+pearl
    assert c.pos == 2  # then 2 spaces on the Passage of Time


def test_gardener_example_yellow_pays_4_food_then_3_coins_for_a_courtier_not_on_its_seal_card(
) -> None:
    s = at_first_turn(3)
    p = s.to_move
    assert p is not None
    blank(s, p)
    c = s.clans[p]
    c.res[0] = 4
    c.coins = 5
    c.left[1] = 4
    s.garden_cards[0] = "plant_3"  # 4 food; pay 3 coins -> Courtier action
    s.garden_cards[1] = "stone_8"  # 2 food; 2 seals
    s.garden_workers = [[], [p], [], [], [], []]
    s.bridges[BLACK] = [1, 1, 5]
    s._legal = None
    do(s, "take black right", "place outside-left")  # a 5 on the 5: no coins
    do(s, "worker gardener")
    assert "garden coral stone" not in legal(s)  # already holds a gardener of this clan
    assert "garden coral plant" in legal(s)
    do(s, "garden coral plant")
    assert c.res[0] == 0 and c.left[1] == 3  # the second gardener leaves the domain
    assert s.stack[-1].kind == "pay"
    do(s, "pay", "audience")  # 3 coins, then the usual 2 for the audience
    assert c.coins == 0 and c.courtiers == [0]


def test_courtier_example_blue_audience_then_climb_floor1_to_floor2_takes_the_card() -> None:
    s = at_first_turn(3)
    p = s.to_move
    assert p is not None
    blank(s, p)
    c = s.clans[p]
    c.coins, c.res[2] = 2, 2
    c.courtiers = [0, 1]  # one at the Gate, one in steward room 1
    c.left[0] = 3
    old_card = c.card
    s.room_cards[4] = "diplomat_01"  # light block: 3 resources of choice
    deck_before = list(s.diplomat_deck)
    s.bridges[WHITE] = [1, 1, 5]
    s._legal = None
    do(s, "take white right", "place outside-left", "worker courtier", "audience")
    assert c.courtiers == [0, 1, 0] and c.coins == 0
    do(s, "climb steward1 diplomat2")
    assert c.res[2] == 0 and c.courtiers == [0, 5, 0]
    assert c.lantern == [old_card]  # the old action card, face down in the Lantern Area
    assert c.card == "diplomat_01"
    assert s.room_cards[4] == deck_before[-1] and s.diplomat_deck == deck_before[:-1]
    assert legal(s) - {a for a in legal(s) if a.startswith("exchange")} == {"card second"}
    do(s, "card second", "gain food", "gain iron", "gain iron")
    assert c.res == [1, 2, 0]


def test_climb_when_the_room_card_cannot_be_replaced_only_the_light_action_happens() -> None:
    s = at_first_turn(3)
    p = s.to_move
    assert p is not None
    blank(s, p)
    c = s.clans[p]
    c.res[2] = 2
    c.courtiers = [1]
    c.left[0] = 4
    old_card = c.card
    s.room_cards[4] = "diplomat_01"
    s.diplomat_deck = []
    s.bridges[WHITE] = [1, 1, 5]
    s._legal = None
    do(s, "take white right", "place outside-left", "worker courtier",
       "climb steward1 diplomat2")
    assert c.card == old_card and c.lantern == [] and s.room_cards[4] == "diplomat_01"
    do(s, "block diplomat2 lower", "gain food", "gain food", "gain food")
    assert c.res[0] == 3


def test_courtier_example_green_pays_5_pearl_floor1_to_daimyo_lantern_then_2_seals() -> None:
    s = at_first_turn(3)
    p = s.to_move
    assert p is not None
    blank(s, p)
    c = s.clans[p]
    c.res[2] = 5
    c.coins = 2
    c.courtiers = [2]
    c.left[0] = 4
    c.lantern = ["start_resource_4"]  # lantern icon: 1 iron
    s.daimyo_card = "daimyo_01"  # slots: Well / 2 CP / 2 seals
    s.bridges[WHITE] = [1, 1, 5]
    s._legal = None
    do(s, "take white right", "place outside-left", "worker courtier")
    assert "audience" in legal(s)  # green chooses not to pay for the audience
    do(s, "climb steward2 daimyo")
    assert c.res == [0, 1, 0]  # the Lantern reward came first
    assert {"daimyo 1", "daimyo 2", "daimyo 3"} <= legal(s)
    do(s, "daimyo 3")
    assert c.seals == 2 and s.daimyo_slots[2] == p and c.courtiers == [6]
    assert c.coins == 2  # the audience was not taken


def test_daimyo_room_with_no_free_slot_the_courtier_stays_and_nothing_more() -> None:
    s = at_first_turn(3)
    p = s.to_move
    assert p is not None
    blank(s, p)
    c = s.clans[p]
    c.res[2] = 2
    c.coins = 2
    c.courtiers = [4]
    c.left[0] = 4
    s.daimyo_slots = [9, 9, 9]
    s.bridges[WHITE] = [1, 1, 5]
    s._legal = None
    do(s, "take white right", "place outside-left", "worker courtier", "climb diplomat1 daimyo")
    assert c.courtiers == [6]
    assert s.stack[-1].kind == "courtier"  # straight back to the unused audience


def test_lantern_example_2cp_1_food_1_coin_and_1_passage_step() -> None:
    s = at_first_turn(2)
    p = s.to_move
    assert p is not None
    blank(s, p)
    c = s.clans[p]
    c.pos = 0
    # Lantern Area: a food resource card, the CP decree, a flipped starting action card
    # (1 Passage step), a flipped diplomat (1 CP) and a flipped steward (1 coin).
    c.lantern = ["start_resource_7", "decree_cp", "start_action_courtier", "diplomat_02",
                 "steward_02"]
    s.bridges[WHITE] = [6, 6, 6]
    s._legal = None
    do(s, "take white left")
    do(s, "place well")  # a 6 in the Well: +5 coins, 1 seal (+ tiles); lantern comes first
    assert c.cp == 2 and c.pos == 1
    assert c.res[0] >= 1
    assert c.coins >= 1 + 5


def test_lantern_order_is_the_players_choice_when_it_matters() -> None:
    s = at_first_turn(2)
    p = s.to_move
    assert p is not None
    blank(s, p)
    c = s.clans[p]
    c.pos = 5  # the next step enters season 2 and costs 1 seal
    c.lantern = ["start_resource_4", "decree_seal", "start_action_courtier"]  # iron, seal, step
    s.bridges[WHITE] = [6, 6, 6]
    s._legal = None
    do(s, "take white left")
    do(s, "place well")
    # The seal icon and the step conflict (the step may need the seal): the player orders them.
    assert s.stack[-1].kind == "effects"
    texts = {s.describe(a.id) for a in s.legal_actions() if a.text.startswith("effect")}
    assert "1 seal" in texts and "1 Passage of Time step" in texts
    do(s, "effect 2")  # the seal first
    assert c.seals == 1
    do(s, "pay")  # then the step, paying the checkpoint
    assert c.pos == 6
    assert c.seals == 1  # the Well's seal, after the Lantern reward


def test_end_of_round_gardens_example_only_bridges_with_dice_activate_once_per_gardener(
) -> None:
    s = at_first_turn(4)
    blue, yellow, red, green = 0, 1, 2, 3
    p = s.to_move
    assert p is not None
    for q in range(4):
        blank(s, q)
    # Black bridge keeps dice, white is empty, coral will be emptied by this last turn.
    s.bridges = [[3], [2, 4], []]
    s.garden_cards = ["plant_2", "stone_6", "stone_7", "stone_8", "stone_9", "stone_10"]
    s.garden_workers = [[], [], [red, green], [red, green, blue, yellow], [yellow], []]
    s._legal = None
    do(s, "take coral left", "place well")
    while s.phase == "play":  # finish the last turn of the round (any Well tile choice)
        s.apply(s.legal_ids()[0])
    assert s.phase == "gardens"
    # Everyone who holds two activations chooses their order; one activation resolves alone.
    seen: list[tuple[int, tuple[int, ...]]] = []
    while s.phase == "gardens":
        f = s.stack[-1]
        if f.kind == "garden_round":
            seen.append((f.seat, tuple(sorted(f.gardens))))
            assert set(f.gardens) <= {2, 3}  # never a white-bridge or coral-bridge garden
            do(s, "garden black stone" if 3 in f.gardens else "garden black plant")
        else:
            ids = [i for i in s.legal_ids() if not GAME.action_text(i).startswith("exchange")]
            s.apply(ids[0])
    assert sorted(seen) == sorted([(red, (2, 3)), (green, (2, 3))])
    # stone_7 (3 coins) under black activated for red and green; stone_8 (2 seals) for all
    # four, including yellow, whose gardener under the empty white bridge did nothing.
    for q in (red, green, blue, yellow):
        if q != p:
            assert s.clans[q].seals == 2
            assert s.clans[q].coins == (3 if q in (red, green) else 0)
    assert s.round == 2


def test_final_scoring_example_blue_scores_76() -> None:
    s = at_first_turn(4)
    blue = 0
    c = s.clans[blue]
    c.cp = 8
    c.coins, c.seals = 5, 0  # 1 CP
    c.res = [3, 4, 1]  # 1 + 1 + 0 ... the example's 3 points come from three resources
    c.res = [3, 3, 3]
    c.pos = 12  # third season: 6 CP
    c.courtiers = [6, 6, 1, 0, 0]  # 10 + 10 + 3 + 1 + 1
    c.warriors = [0, 0, 1, 2]  # values 2 + 2 + 1 + 1 = 6, x 3 courtiers inside
    s.garden_cards = ["plant_2", "plant_3", "stone_6", "stone_7", "stone_8", "stone_9"]
    s.garden_workers = [[blue], [blue], [blue], [], [], []]  # 7 + 7 + 1 = 15
    sc = s.scores()[blue]
    assert sc == {"during_game": 8, "coins_seals": 1, "resources": 3, "passage_of_time": 6,
                  "courtiers": 25, "warriors": 18, "gardeners": 15, "total": 76}
