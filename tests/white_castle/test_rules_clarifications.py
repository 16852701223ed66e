"""The rule clarifications of components.json (`rule_clarifications`), one test each.

Each test names the clarification's id. Positions come from a real game past the
draft; the deciding clan's stores are emptied, the board is arranged by setting
fields, and the decisions are then played through the public protocol.
"""

from __future__ import annotations

import pytest

from kamon.core.errors import IllegalAction
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME
from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import load_data
from kamon.games.white_castle.setup import dark_action, deal_castle
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
CORAL, BLACK, WHITE = 0, 1, 2
COLOUR = ("coral", "black", "white")
GAIN_COIN = (("gain", (("coin", 1),)),)
PLAIN_WELL = ("die_tile_coral_food", "die_tile_black_iron")


def at_take(players: int = 2, seed: int = 3) -> tuple[WhiteCastleState, int]:
    """A game at its first 'take a die', the deciding clan's stores emptied."""
    s = after_draft(players, seed)
    p = s.to_move
    assert p is not None
    c = s.clans[p]
    c.coins = c.seals = c.cp = 0
    c.res = [0, 0, 0]
    c.lantern = []
    refresh(s)
    return s, p


def take(s: WhiteCastleState, colour: int, value: int) -> None:
    """Take a die of this colour and value from the right end (no Lantern reward)."""
    s.bridges[colour] = [1, value]
    refresh(s)
    act(s, f"take {COLOUR[colour]} right")


def at_worker(kind: str, players: int = 2) -> tuple[WhiteCastleState, int]:
    """A position at a Worker decision ('gardener' or 'warrior'), reached by placing a 5
    (no coins) Outside the Walls; the yards' tiles are set to a plain '+1 coin'."""
    s, p = at_take(players)
    s.yard_effects = [GAIN_COIN, GAIN_COIN, GAIN_COIN]
    take(s, CORAL, 5)
    act(s, "place outside-left" if kind == "gardener" else "place outside-right")
    assert frame(s) == "outside"
    return s, p


def choose_worker(s: WhiteCastleState, kind: str) -> None:
    """Pick the worker action at the Outside the Walls decision (after edits)."""
    refresh(s)
    act(s, f"worker {kind}")
    assert frame(s) == kind


# ------------------------------------------------------------------------------ caps

def draft_pick(resource_card: str, seals: int = 0, res: tuple[int, int, int] = (0, 0, 0),
               coins: int = 0) -> tuple[WhiteCastleState, int]:
    """The first draft pick of a 2-player game, the picker given these stores, taking
    `resource_card` (with the warrior action card)."""
    s = GAME.new_game(2, 4)
    p = s.to_move
    assert p is not None
    s.draft_pairs[0] = (resource_card, "start_action_warrior")
    c = s.clans[p]
    c.seals, c.res, c.coins = seals, list(res), coins
    refresh(s)
    act(s, "draft 1")
    return s, p


def test_clarification_caps_seals_above_5_are_lost() -> None:
    """Seals are capped at 5: 4 seals + 2 gained -> 5."""
    s, p = draft_pick("start_resource_9", seals=4)  # +2 seals
    assert s.clans[p].seals == 5


def test_clarification_caps_resources_above_7_are_lost() -> None:
    """Resources are capped at 7: 6 food + 4 gained -> 7; iron 5 + 2 -> 7."""
    s, p = draft_pick("start_resource_9", res=(6, 5, 7))  # +4 food, +2 iron
    assert s.clans[p].res == [7, 7, 7]


def test_clarification_caps_coins_are_unlimited() -> None:
    """Coins have no cap."""
    s, p = draft_pick("start_resource_9", coins=60)  # +3 coins
    assert s.clans[p].coins == 63


def test_clarification_caps_resource_of_choice_at_7_is_lost() -> None:
    """A resource of choice taken at 7 is lost, the others unchanged."""
    s = GAME.new_game(2, 4)
    p = s.to_move
    assert p is not None
    s.draft_pairs[0] = ("start_resource_7", "start_action_warrior")  # 1 of choice
    s.clans[p].res = [7, 0, 0]
    refresh(s)
    act(s, "draft 1", "gain food")
    assert s.clans[p].res == [7, 0, 0]


# ------------------------------------------------------------------- seal exchanges

def test_clarification_seal_exchange_any_moment_one_seal_for_one_coin() -> None:
    """1 seal -> 1 coin, as often as wished."""
    s, p = at_take()
    s.clans[p].seals = 3
    refresh(s)
    act(s, "exchange seal coin")
    assert (s.clans[p].seals, s.clans[p].coins) == (2, 1)
    act(s, "exchange seal coin", "exchange seal coin")
    assert (s.clans[p].seals, s.clans[p].coins) == (0, 3)
    assert "exchange seal coin" not in legal_texts(s)
    assert frame(s) == "take" and s.to_move == p  # a free action: the decision remains


@pytest.mark.parametrize("r", [0, 1, 2])
def test_clarification_seal_exchange_any_moment_two_seals_for_one_resource(r: int) -> None:
    """2 seals -> 1 food, iron or pearl; 1 seal is not enough."""
    name = ("food", "iron", "pearl")[r]
    s, p = at_take()
    s.clans[p].seals = 3
    refresh(s)
    act(s, f"exchange seals {name}")
    expected = [0, 0, 0]
    expected[r] = 1
    assert s.clans[p].res == expected and s.clans[p].seals == 1
    assert f"exchange seals {name}" not in legal_texts(s)
    assert "exchange seal coin" in legal_texts(s)


def test_clarification_seal_exchange_any_moment_offered_at_every_decision() -> None:
    """Whenever a player with seals decides anything, the exchanges are legal."""
    kinds = set()
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        s = after_draft(players, seed)
        for c in s.clans:
            c.seals = 5
        refresh(s)
        while not s.is_over():
            p = s.to_move
            assert p is not None
            c = s.clans[p]
            legal = legal_texts(s)
            assert ("exchange seal coin" in legal) == (c.seals >= 1)
            for r, name in enumerate(("food", "iron", "pearl")):
                assert (f"exchange seals {name}" in legal) == (c.seals >= 2 and c.res[r] < 7)
            if c.seals:
                kinds.add(frame(s))
            s.apply(first_choice(s))
    assert {"take", "place", "blocks", "choice", "courtier", "checkpoint"} <= kinds


def test_clarification_seal_exchange_any_moment_covers_a_die_cost_automatically() -> None:
    """A die costing more coins than held is placeable with seals; the shortfall is paid
    from the seals (1 seal per coin) and coins never go below 0."""
    s, p = at_take()
    s.clans[p].coins, s.clans[p].seals = 2, 3
    take(s, CORAL, 1)
    assert "place outside-left" in legal_texts(s)  # a 1 on the printed 5: pay 4
    act(s, "place outside-left")
    assert (s.clans[p].coins, s.clans[p].seals) == (0, 1)
    assert frame(s) == "outside"


def test_clarification_seal_exchange_any_moment_covers_a_worker_cost() -> None:
    """A gardener costing 4 food is placeable with 3 food + 2 seals (2 seals = 1 food)."""
    s, p = at_worker("gardener")
    s.garden_cards[0] = "plant_2"  # 4 food
    s.clans[p].res[0], s.clans[p].seals = 3, 2
    choose_worker(s, "gardener")
    assert "garden coral plant" in legal_texts(s)
    act(s, "garden coral plant")
    assert s.clans[p].res[0] == 0 and s.clans[p].seals == 0
    assert s.garden_workers[0] == [p]


def test_clarification_die_payment_required_cost_above_coins_and_seals_is_illegal() -> None:
    """A die whose difference cannot be paid, even with every seal exchanged, cannot go
    there; resources never pay coins. The state is left untouched."""
    s, p = at_take()
    s.clans[p].coins, s.clans[p].seals = 2, 1
    s.clans[p].res = [7, 7, 7]
    take(s, CORAL, 1)
    legal = legal_texts(s)
    assert "place outside-left" not in legal and "place outside-right" not in legal
    assert "place domain" not in legal  # a 1 on the printed 6: pay 5
    assert "place well" in legal  # the Well never costs
    before = s.dumps()
    with pytest.raises(IllegalAction, match="costs 4 coins"):
        s.apply(A.PLACE[5])
    assert s.dumps() == before


def test_clarification_no_resource_to_coin_exchange() -> None:
    """The only exchanges are seal -> coin and 2 seals -> resource."""
    exchanges = {t for t in A.TEXTS if "exchange" in t or "sell" in t or "convert" in t}
    assert exchanges == {"exchange seal coin", "exchange seals food", "exchange seals iron",
                         "exchange seals pearl"}
    s, p = at_take()
    s.clans[p].res = [7, 7, 7]
    refresh(s)
    assert not {t for t in legal_texts(s) if t.startswith("exchange")}


# ------------------------------------------------------------------- die placement

def test_clarification_stacking_two_player_well_unlimited_rooms_outside_one_die() -> None:
    """At 2 players occupied rooms and Outside spaces are closed; the Well never is."""
    s, p = at_take(2)
    s.clans[p].coins = 20
    s.room_tiles[0] = (CORAL, BLACK, WHITE)
    s.room_tiles[1] = (CORAL, BLACK, WHITE)
    s.spaces[0] = [(BLACK, 1)]
    s.spaces[5] = [(WHITE, 1)]
    s.spaces[7] = [(CORAL, 2), (BLACK, 3), (WHITE, 4)]
    take(s, CORAL, 6)
    legal = legal_texts(s)
    assert "place steward1" not in legal and "place outside-left" not in legal
    assert "place steward2" in legal and "place outside-right" in legal
    assert "place well" in legal
    act(s, "place well")
    assert len(s.spaces[7]) == 4


def test_clarification_stacking_three_players_one_die_on_another_at_most() -> None:
    """From 3 players a die may cover another die, but only one: 2 dice per space."""
    s, p = at_take(3)
    s.clans[p].coins = 20
    s.room_tiles[0] = (CORAL, BLACK, WHITE)
    s.spaces[0] = [(BLACK, 1)]
    s.spaces[5] = [(WHITE, 1), (BLACK, 2)]
    s.spaces[7] = [(CORAL, 2), (BLACK, 3), (WHITE, 4)]
    take(s, CORAL, 6)
    legal = legal_texts(s)
    assert "place steward1" in legal and "place outside-left" not in legal
    assert "place well" in legal
    act(s, "place steward1")
    assert s.clans[p].coins == 20 + 5  # the 6 covers the 1 below it: gain 5
    assert s.space_cost(0, 6) is None


def test_clarification_castle_room_colour_needs_a_tile_of_the_die_colour() -> None:
    """A die may only enter a castle room holding a tile of its colour."""
    s, p = at_take(3)
    s.clans[p].coins = 20
    s.room_tiles[3] = (BLACK, WHITE)
    s.room_tiles[4] = (CORAL, WHITE)
    take(s, CORAL, 4)
    legal = legal_texts(s)
    assert "place diplomat1" not in legal and "place diplomat2" in legal


def test_clarification_personal_domain_once_per_round() -> None:
    """A domain row already holding a die this round takes no other die."""
    s, p = at_take()
    s.clans[p].coins = 20
    s.clans[p].domain[CORAL] = (CORAL, 2)
    take(s, CORAL, 6)
    assert "place domain" not in legal_texts(s)
    s, p = at_take()
    s.clans[p].domain[CORAL] = (CORAL, 2)
    take(s, BLACK, 6)
    assert "place domain" in legal_texts(s)


def test_clarification_lantern_timing_after_the_die_is_paid_before_the_space_action(
) -> None:
    """Left-end die: place it and settle its coins, then the Lantern reward, then the
    space's action."""
    s, p = at_take()
    s.clans[p].coins = 4
    s.clans[p].lantern = ["decree_coin"]  # Lantern: +1 coin
    s.bridges[CORAL] = [1, 6]
    refresh(s)
    act(s, "take coral left")
    assert s.clans[p].coins == 4  # nothing yet
    act(s, "place outside-left")  # pays 4 (the Lantern's coin is not there yet)
    assert s.clans[p].coins == 0 + 1
    assert frame(s) == "outside"  # the space action comes after the Lantern
    # With 3 coins the same die cannot go there: the Lantern coin comes too late.
    s, p = at_take()
    s.clans[p].coins = 3
    s.clans[p].lantern = ["decree_coin"]
    s.bridges[CORAL] = [1, 6]
    refresh(s)
    act(s, "take coral left")
    assert "place outside-left" not in legal_texts(s)


# ------------------------------------------------------------------- worker actions

def test_clarification_gardener_one_per_card_per_clan() -> None:
    """A clan's second gardener cannot join its first on the same card; another clan's
    gardener does not block; the plant and stone card of a bridge are separate cards."""
    s, p = at_worker("gardener")
    q = 1 - p
    s.clans[p].res[0] = 7
    s.garden_cards = ["stone_6", "stone_7", "stone_8", "stone_9", "stone_10", "plant_5"]
    s.garden_workers = [[p], [q], [q], [], [], []]
    choose_worker(s, "gardener")
    offered = {t for t in legal_texts(s) if t.startswith("garden")}
    assert offered == {"garden coral stone", "garden black plant", "garden black stone",
                       "garden white plant", "garden white stone"}
    act(s, "garden coral stone")
    assert s.garden_workers[1] == [q, p]


def test_clarification_warriors_same_yard_several_of_one_clan() -> None:
    """A clan may put several warriors in one yard; each pays and triggers the tiles."""
    s, p = at_worker("warrior")
    c = s.clans[p]
    c.warriors = [0]
    c.left[2] = 4
    c.res[1] = 7
    s.clans[1 - p].warriors = [0]
    choose_worker(s, "warrior")
    assert "yard 1" in legal_texts(s)
    act(s, "yard 1")
    assert c.warriors == [0, 0] and c.left[2] == 3
    assert c.res[1] == 2  # 5 iron
    assert c.coins == 1  # the yard's (test) tile: +1 coin
    assert s.scores()[p]["warriors"] == 0  # no courtier inside the castle yet
    c.courtiers = [1]
    assert s.scores()[p]["warriors"] == 4


def test_clarification_unpayable_or_impossible_worker_action_is_dropped() -> None:
    """A worker action with no worker left (or unpayable) is simply not performed; the
    die stays placed and the turn ends."""
    s, p = at_worker("gardener")
    s.clans[p].left[1] = 0
    s.clans[p].res[0] = 7
    refresh(s)
    act(s, "worker gardener")
    assert s.to_move != p and frame(s) == "take"
    assert s.spaces[5] == [(CORAL, 5)]
    assert s.clans[p].res[0] == 7 and all(p not in g for g in s.garden_workers)
    s, p = at_worker("warrior")
    s.clans[p].res[1] = 0  # not even the 1-iron yard is payable
    refresh(s)
    act(s, "worker warrior")
    assert s.to_move != p and s.clans[p].warriors == []


def test_clarification_courtier_subactions_one_audience_one_climb_same_courtier_ok(
) -> None:
    """At most one audience and one climb per Courtier action; the climber may be the
    courtier that just reached the Gate."""
    s, p = at_worker("gardener")  # Outside the Walls (left) also offers the Courtier
    c = s.clans[p]
    c.coins, c.res[2] = 4, 7
    refresh(s)
    act(s, "worker courtier")
    assert frame(s) == "courtier"
    assert "audience" in legal_texts(s) and not any(
        t.startswith("climb") for t in legal_texts(s))
    act(s, "audience")
    assert c.courtiers == [0] and c.coins == 2
    legal = legal_texts(s)
    assert "audience" not in legal  # a second audience is refused
    assert "climb gate steward1" in legal  # the courtier just placed may climb
    act(s, "climb gate steward1")
    assert c.courtiers == [1] and c.res[2] == 5
    assert frame(s) != "courtier"  # no second climb


def test_clarification_climb_cost_2_pearl_one_floor_5_pearl_two_floors() -> None:
    """One floor up costs 2 pearl, two floors 5; never more than two floors."""
    s, p = at_worker("gardener")
    c = s.clans[p]
    c.courtiers, c.left[0] = [0, 1], 3
    c.res[2] = 4
    refresh(s)
    act(s, "worker courtier")
    climbs = {t for t in legal_texts(s) if t.startswith("climb")}
    assert "climb gate steward2" in climbs and "climb steward1 diplomat1" in climbs
    assert "climb gate diplomat1" not in climbs and "climb steward1 daimyo" not in climbs
    c.res[2] = 5
    refresh(s)
    climbs = {t for t in legal_texts(s) if t.startswith("climb")}
    assert {"climb gate diplomat2", "climb steward1 daimyo"} <= climbs
    assert not any(t.startswith("climb gate daimyo") for t in climbs)
    act(s, "climb gate diplomat2")
    assert c.res[2] == 0 and sorted(c.courtiers) == [1, 5]


def test_clarification_climb_takes_card_old_card_to_lantern_room_refilled() -> None:
    """Reaching floor 1 or 2: own card -> Lantern Area, the room's card onto the domain,
    one of its light actions, the room refilled from its deck."""
    s, p = at_worker("gardener")
    c = s.clans[p]
    old = c.card
    c.courtiers, c.left[0], c.res[2] = [0], 4, 2
    room_card = s.room_cards[1]
    refill = s.steward_deck[-1]
    refresh(s)
    act(s, "worker courtier", "climb gate steward2")
    assert c.card == room_card and c.lantern[-1] == old
    assert s.room_cards[1] == refill and refill not in s.steward_deck
    light = [i for i, b in enumerate(DATA.card(room_card).blocks) if b.light]
    assert frame(s) == "blocks"
    assert {t for t in legal_texts(s) if t.startswith("card")} == {
        f"card {('first', 'second', 'third')[i]}" for i in light}
    assert "done" not in legal_texts(s)  # one light action must be carried out


def test_clarification_daimyo_arrival_lantern_first_then_a_free_slot() -> None:
    """In the Daimyo's room: the Lantern reward first, then one free favour slot."""
    s, p = at_worker("gardener")
    c = s.clans[p]
    c.courtiers, c.left[0], c.res[2] = [4], 4, 2
    c.lantern = ["decree_coin"]
    s.daimyo_slots = [1 - p, None, None]
    refresh(s)
    act(s, "worker courtier", "climb diplomat1 daimyo")
    assert c.courtiers == [6]
    assert frame(s) == "daimyo" and c.coins == 1  # the Lantern came first
    assert {t for t in legal_texts(s) if t.startswith("daimyo")} == {"daimyo 2", "daimyo 3"}


# ------------------------------------------------------------- actions from effects

def yard3_effect(effect: tuple) -> tuple[WhiteCastleState, int]:
    """Send a warrior to yard 3 (1 iron) whose tile is set to `effect`."""
    s, p = at_worker("warrior")
    s.yard_effects = [GAIN_COIN, GAIN_COIN, (effect,)]
    s.clans[p].res[1] = 1
    choose_worker(s, "warrior")
    act(s, "yard 3")
    return s, p


def test_clarification_well_action_is_a_1_in_the_well_seal_and_both_tiles() -> None:
    """'Perform the Well action': 1 seal + both Well tiles' rewards, no coins, no die."""
    s, p = at_worker("warrior")
    s.yard_effects = [GAIN_COIN, GAIN_COIN, (("well",),)]
    s.well_tiles = PLAIN_WELL
    s.clans[p].res[1] = 1
    choose_worker(s, "warrior")
    act(s, "yard 3")
    c = s.clans[p]
    assert (c.coins, c.seals, c.res) == (0, 1, [1, 1, 0])
    assert s.spaces[7] == []


def test_clarification_light_action_offers_every_light_block_in_the_castle() -> None:
    """'A light-background action': one light block of any of the 5 castle cards (8)."""
    s, p = yard3_effect(("light",))
    assert frame(s) == "blocks"
    offered = {t for t in legal_texts(s) if t.startswith("block")}
    expected = {f"block {A.ROOMS[r]} {A.BLOCK_NAMES[r][i]}" for r in range(5)
                for i, b in enumerate(DATA.card(s.room_cards[r]).blocks) if b.light}
    assert len(expected) == 8
    assert offered == expected


@pytest.mark.parametrize("colour", ["coral", "black", "white", "any"])
def test_clarification_die_tile_action_offers_blocks_beside_that_colour(colour: str) -> None:
    """'Any action of a [colour] die tile': the blocks beside tiles of that colour (light
    or dark); 'any' offers all 13 castle blocks."""
    s, p = yard3_effect(("die_tile", colour))
    assert frame(s) == "blocks"
    assert s.clans[p].seals == 0  # so the stewards' dark 'pay a seal' blocks are out
    offered = {t for t in legal_texts(s) if t.startswith("block")}
    expected = {f"block {A.ROOMS[r]} {A.BLOCK_NAMES[r][i]}" for r in range(5)
                for i, t in enumerate(s.room_tiles[r]) if colour in ("any", COLOUR[t])}
    assert offered == {b for b in expected if not _needs_seal(s, b)}
    if colour == "any":
        assert len(expected) == 13


def _needs_seal(s: WhiteCastleState, block_text: str) -> bool:
    """Whether a castle block (by notation) is a steward's dark 'pay a seal' block."""
    r, i = A.BLOCK_OF[A.BY_TEXT[block_text]]
    blk = DATA.card(s.room_cards[r]).blocks[i]
    return len(blk.effects) == 1 and blk.effects[0][0] == "pay"


def test_clarification_personal_domain_action_as_a_6_not_the_row_fired_this_turn() -> None:
    """'A Personal Domain action': a row as if a 6 were placed (no coins); not a row that
    already fired this turn."""
    s, p = at_take()
    c = s.clans[p]
    c.card = "start_action_warrior"  # every row's card block: the Warrior action
    c.coins, c.res[1] = 1, 1
    s.yard_effects = [GAIN_COIN, GAIN_COIN, (("domain",),)]
    take(s, WHITE, 5)
    act(s, "place domain")  # a 5 on the printed 6: pay 1; white row: +1 pearl
    assert c.coins == 0 and c.res[2] == 1
    act(s, "card first", "yard 3")  # the card's Warrior action -> yard 3 -> domain action
    assert frame(s) == "row"
    rows = {t for t in legal_texts(s) if t.startswith("row")}
    assert rows == {"row coral", "row black"}
    act(s, "row coral")
    assert c.coins == 0 and c.res[0] == 1  # coral row's visible food, no coins paid
    assert c.domain[CORAL] is None  # no die was placed


# ----------------------------------------------------------- turn order and the end

def test_clarification_turn_order_tie_top_of_stack_first() -> None:
    """Same space: the marker on top (the later arrival) goes first."""
    s = after_draft(3, 5)
    a, b, c = s.order
    s.clans[a].pos = s.clans[b].pos = s.clans[c].pos = 7
    s.clans[a].seq, s.clans[b].seq, s.clans[c].seq = 1, 3, 2
    assert s.turn_order_now() == [b, c, a]


def test_clarification_final_tie_higher_in_updated_turn_order_wins() -> None:
    """Equal totals at the end: the player first in the final turn order wins."""
    s = after_draft(2, 6)
    play_until(s, lambda t: t.is_over())
    for c in s.clans:
        c.cp = c.coins = c.seals = c.pos = 0
        c.res = [0, 0, 0]
        c.courtiers, c.warriors = [], []
    s.garden_workers = [[] for _ in range(6)]
    assert s.winners() == [s.order[0]]
    s.order.reverse()
    assert s.winners() == [s.order[0]]


def test_clarification_dark_redeal_only_when_all_five_share_the_dark_action() -> None:
    """Four cards sharing the dark action is not enough for a redeal."""
    near = 0
    for seed in range(3000):
        rooms, _, _, redeals = deal_castle(DATA, 4, Rng(seed))
        kinds = [dark_action(DATA.card(r).blocks) for r in rooms]
        if redeals == 0 and max(kinds.count(k) for k in set(kinds)) == 4:
            near += 1
    assert near > 0


def test_clarification_matcha_exclusion_base_game_components_only() -> None:
    """Base game only: 9 Daimyo cards, 5 plant + 5 stone gardens, 15 + 12 castle cards."""
    assert len(DATA.daimyo) == 9
    kinds = [g.kind for g in DATA.gardens.values()]
    assert kinds.count("plant") == 5 and kinds.count("stone") == 5
    assert len(DATA.stewards) == 15 and len(DATA.diplomats) == 12
    assert len(DATA.yard_tiles) == 8 and len(DATA.die_tiles) == 15
