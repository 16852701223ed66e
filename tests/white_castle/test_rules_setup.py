"""The White Castle's GAME SETUP (rulebook steps 1-13), one test per rule.

Random steps are checked over many seeds: a property must hold for every seed, and
where the rule is a random draw the tests also check that the draw really varies.
"""

from __future__ import annotations

from collections import Counter

import pytest

from kamon.core.rng import Rng
from kamon.games.white_castle import GAME
from kamon.games.white_castle.data import load_data
from kamon.games.white_castle.setup import dark_action, deal_castle
from kamon.games.white_castle.state import WhiteCastleState
from tests.white_castle.conftest import act, frame, legal_texts

DATA = load_data()
DIAMOND_STEWARDS = {f"steward_{n:02d}" for n in (1, 3, 6, 8, 11, 14)}
DIAMOND_DIPLOMATS = {f"diplomat_{n:02d}" for n in (1, 9, 12)}
SEEDS = range(150)


def castle_cards(s: WhiteCastleState) -> tuple[list[str], set[str], set[str]]:
    """Room cards, and every steward / diplomat card present (rooms plus decks)."""
    rooms = list(s.room_cards)
    stewards = set(rooms[:3]) | set(s.steward_deck)
    diplomats = set(rooms[3:]) | set(s.diplomat_deck)
    return rooms, stewards, diplomats


# ------------------------------------------------------------------ step 2: castle cards

def test_setup_step2_two_players_remove_diamond_cards() -> None:
    """At 2 players stewards 1,3,6,8,11,14 and diplomats 1,9,12 stay in the box."""
    assert {c.id for c in DATA.stewards.values() if c.diamond} == DIAMOND_STEWARDS
    assert {c.id for c in DATA.diplomats.values() if c.diamond} == DIAMOND_DIPLOMATS
    for seed in SEEDS:
        s = GAME.new_game(2, seed)
        rooms, stewards, diplomats = castle_cards(s)
        assert stewards == set(DATA.stewards) - DIAMOND_STEWARDS
        assert diplomats == set(DATA.diplomats) - DIAMOND_DIPLOMATS
        assert not set(rooms) & (DIAMOND_STEWARDS | DIAMOND_DIPLOMATS)
        assert len(s.steward_deck) == 9 - 3 and len(s.diplomat_deck) == 9 - 2


@pytest.mark.parametrize("players", [3, 4])
def test_setup_step2_three_four_players_keep_diamond_cards(players: int) -> None:
    """At 3-4 players all 15 stewards and 12 diplomats are shuffled into play."""
    seen_in_rooms: set[str] = set()
    for seed in SEEDS:
        s = GAME.new_game(players, seed)
        rooms, stewards, diplomats = castle_cards(s)
        assert stewards == set(DATA.stewards)
        assert diplomats == set(DATA.diplomats)
        assert len(s.steward_deck) == 12 and len(s.diplomat_deck) == 10
        seen_in_rooms.update(rooms)
    # Diamond cards really are dealt face up in some games.
    assert seen_in_rooms & DIAMOND_STEWARDS and seen_in_rooms & DIAMOND_DIPLOMATS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_step2_one_card_per_room_from_its_own_deck(players: int) -> None:
    """Stewards fill the 3 steward rooms, diplomats the 2 diplomat rooms, all distinct."""
    firsts = Counter()
    for seed in SEEDS:
        s = GAME.new_game(players, seed)
        assert len(s.room_cards) == 5 and len(set(s.room_cards)) == 5
        assert all(c in DATA.stewards for c in s.room_cards[:3])
        assert all(c in DATA.diplomats for c in s.room_cards[3:])
        assert not set(s.room_cards) & (set(s.steward_deck) | set(s.diplomat_deck))
        firsts[s.room_cards[0]] += 1
    assert len(firsts) >= 6  # shuffled, not a fixed deal


def test_setup_step2_dark_action_names_the_dark_block_worker_action() -> None:
    """dark_action reads the dark block: stewards' 'pay a seal -> X' and diplomats' X."""
    assert dark_action(DATA.card("steward_01").blocks) == "courtier"
    assert dark_action(DATA.card("steward_04").blocks) == "warrior"
    assert dark_action(DATA.card("steward_06").blocks) == "gardener"
    assert dark_action(DATA.card("diplomat_01").blocks) == "courtier"
    assert dark_action(DATA.card("diplomat_05").blocks) == "warrior"
    assert dark_action(DATA.card("diplomat_12").blocks) == "gardener"


@pytest.mark.parametrize("players", [2, 4])
def test_setup_step2_redeal_when_all_castle_cards_show_same_dark_action(players: int) -> None:
    """No dealt castle ever shows one dark action on all 5 cards; such deals are redone."""
    redealt = 0
    for seed in range(4000):
        rooms, stewards, diplomats, redeals = deal_castle(DATA, players, Rng(seed))
        kinds = {dark_action(DATA.card(c).blocks) for c in rooms}
        assert len(kinds) > 1, f"seed {seed}: all castle cards show {kinds}"
        # The redealt cards went back into their decks: nothing lost or duplicated.
        assert sorted(rooms[:3] + stewards) == sorted(
            c for c in DATA.stewards if players > 2 or c not in DIAMOND_STEWARDS)
        assert sorted(rooms[3:] + diplomats) == sorted(
            c for c in DATA.diplomats if players > 2 or c not in DIAMOND_DIPLOMATS)
        redealt += redeals > 0
    # About 1 deal in 150 needs a redeal: the rule was really exercised.
    assert redealt >= 5


def test_setup_step2_redeal_is_logged_in_a_real_game() -> None:
    """A game whose first deal had to be redone says so in its events."""
    seed = next(sd for sd in range(4000) if deal_castle(DATA, 2, Rng(sd))[3])
    s = GAME.new_game(2, seed)
    assert any("re-dealt" in e for e in s.events)
    assert len({dark_action(DATA.card(c).blocks) for c in s.room_cards}) > 1


# -------------------------------------------------------------------- step 3: daimyo card

def test_setup_step3_one_daimyo_card_drawn() -> None:
    """One Daimyo's favour card on the last level, its 3 slots free; the draw varies."""
    drawn = set()
    for seed in SEEDS:
        s = GAME.new_game(3, seed)
        assert s.daimyo_card in DATA.daimyo
        assert s.daimyo_slots == [None, None, None]
        drawn.add(s.daimyo_card)
    assert len(drawn) == len(DATA.daimyo) == 9


# ---------------------------------------------------------------------- step 4: die tiles

def tile_colour(tile: str) -> int:
    """Colour index of a die tile's colour side."""
    return ("coral", "black", "white").index(DATA.die_tiles[tile][0])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_step4_diamond_slots_one_die_tile_of_each_colour(players: int) -> None:
    """The 3 diamond slots (first slot of each steward room) hold one tile of each colour."""
    for seed in SEEDS:
        s = GAME.new_game(players, seed)
        assert sorted(s.room_tiles[r][0] for r in range(3)) == [0, 1, 2]


def test_setup_step4_every_room_has_at_least_two_die_colours() -> None:
    """Steward rooms get 3 tiles, diplomat rooms 2, and no room is single-coloured."""
    for players in (2, 3, 4):
        for seed in SEEDS:
            s = GAME.new_game(players, seed)
            assert [len(t) for t in s.room_tiles] == [3, 3, 3, 2, 2]
            for tiles in s.room_tiles:
                assert len(set(tiles)) >= 2, f"seed {seed}: room tiles {tiles}"


def test_setup_step4_thirteen_castle_tiles_and_two_well_tiles_are_all_fifteen() -> None:
    """13 castle tiles + 2 Well tiles use each of the 15 (5 per colour) exactly once."""
    wells = set()
    for seed in SEEDS:
        s = GAME.new_game(2, seed)
        w1, w2 = s.well_tiles
        assert w1 != w2 and w1 in DATA.die_tiles and w2 in DATA.die_tiles
        colours = Counter(c for tiles in s.room_tiles for c in tiles)
        colours.update([tile_colour(w1), tile_colour(w2)])
        assert colours == Counter({0: 5, 1: 5, 2: 5})
        wells.add(frozenset(s.well_tiles))
    assert len(wells) > 20  # the Well gets random tiles


def test_setup_step4_first_game_puts_coral_pearl_and_black_iron_in_the_well() -> None:
    """first_game=True: the Well holds die_tile_coral_pearl + die_tile_black_iron."""
    for seed in range(40):
        s = GAME.new_game(3, seed, first_game=True)
        assert set(s.well_tiles) == {"die_tile_coral_pearl", "die_tile_black_iron"}
        colours = Counter(c for tiles in s.room_tiles for c in tiles)
        assert colours == Counter({0: 4, 1: 4, 2: 5})
        assert sorted(s.room_tiles[r][0] for r in range(3)) == [0, 1, 2]
        assert all(len(set(t)) >= 2 for t in s.room_tiles)


# ------------------------------------------------------------------------ step 5: round

def test_setup_step5_round_marker_on_first_space() -> None:
    """The game starts in round 1, in the starting-pair draft."""
    s = GAME.new_game(4, 3)
    assert s.round == 1
    assert s.phase == "draft"


# ---------------------------------------------------------------------- step 7: bridges

@pytest.mark.parametrize(("players", "per"), [(2, 3), (3, 4), (4, 5)])
def test_setup_step7_three_four_five_dice_per_colour_ascending(players: int, per: int) -> None:
    """3/4/5 dice of each colour at 2/3/4 players, lowest on the left."""
    values = Counter()
    for seed in SEEDS:
        s = GAME.new_game(players, seed)
        assert len(s.bridges) == 3
        for dice in s.bridges:
            assert len(dice) == per
            assert dice == sorted(dice)
            assert all(1 <= v <= 6 for v in dice)
            values.update(dice)
    assert set(values) == {1, 2, 3, 4, 5, 6}  # rolled, not fixed


# ---------------------------------------------------------------------- step 8: gardens

def test_setup_step8_one_plant_one_stone_garden_per_bridge() -> None:
    """Under each bridge a plant and a stone card; the six cards are distinct."""
    drawn = set()
    for seed in SEEDS:
        s = GAME.new_game(2, seed)
        assert len(s.garden_cards) == 6 and len(set(s.garden_cards)) == 6
        for b in range(3):
            assert DATA.gardens[s.garden_cards[2 * b]].kind == "plant"
            assert DATA.gardens[s.garden_cards[2 * b + 1]].kind == "stone"
        assert s.garden_workers == [[] for _ in range(6)]
        drawn.update(s.garden_cards)
    assert drawn == set(DATA.gardens)  # random draws: every card turns up sometimes


# ------------------------------------------------------------------ step 9: training yards

def yard_layouts(yard_effects: list[tuple]) -> list[tuple[str, str, str, str]]:
    """Every choice of 4 distinct tiles (y1 front, y1 back, y2 front, y3 back) matching."""
    t = DATA.yard_tiles
    out = []
    for a in t:
        for b in t:
            for c in t:
                for d in t:
                    if len({a, b, c, d}) < 4:
                        continue
                    if (tuple(yard_effects[0]) == t[a]["front"] + t[b]["back"]
                            and tuple(yard_effects[1]) == t[c]["front"]
                            and tuple(yard_effects[2]) == t[d]["back"]):
                        out.append((a, b, c, d))
    return out


def test_setup_step9_four_distinct_yard_tiles_with_the_printed_side_up() -> None:
    """Yard 1: a front + a back; yard 2: a front; yard 3: a back; four different tiles."""
    assert DATA.yard_faces == (("front", "back"), ("front",), ("back",))
    used = set()
    for seed in range(60):
        s = GAME.new_game(2, seed)
        layouts = yard_layouts(list(s.yard_effects))
        assert layouts, f"seed {seed}: yards {s.yard_effects} are not 4 distinct tiles"
        used.update(layouts[0])
    assert used == set(DATA.yard_tiles)


# --------------------------------------------------------------------- step 10: players

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_step10_fifteen_workers_and_resources_at_zero(players: int) -> None:
    """5 courtiers, 5 gardeners, 5 warriors in the domain; resources on 0; nothing else."""
    s = GAME.new_game(players, 11)
    assert len(s.clans) == players
    for c in s.clans:
        assert c.left == [5, 5, 5]
        assert c.res == [0, 0, 0]
        assert (c.coins, c.seals, c.cp, c.pos) == (0, 0, 0, 0)
        assert c.courtiers == [] and c.warriors == [] and c.lantern == []
        assert c.card is None
        assert c.domain == [None, None, None]


# ------------------------------------------------------------------ step 11: turn order

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_step11_turn_order_is_the_influence_stack_first_player_on_top(
        players: int) -> None:
    """Markers stacked at random on space 0; the herons copy it: top plays first."""
    firsts = set()
    for seed in range(40):
        s = GAME.new_game(players, seed)
        assert sorted(s.order) == list(range(players))
        seqs = [s.clans[p].seq for p in s.order]
        assert seqs == sorted(seqs, reverse=True) and len(set(seqs)) == players
        assert s.turn_order_now() == s.order
        firsts.add(s.order[0])
    assert firsts == set(range(players))  # random stacking


# ------------------------------------------------------------ steps 12-13: starting pairs

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_step12_players_plus_one_starting_pairs(players: int) -> None:
    """players + 1 pairs: a distinct resource card with a starting action card under it."""
    for seed in range(40):
        s = GAME.new_game(players, seed)
        pairs = s.draft_pairs
        assert len(pairs) == players + 1
        assert all(p is not None for p in pairs)
        res = [p[0] for p in pairs if p]
        assert len(set(res)) == len(res) and set(res) <= set(DATA.start_resources)
        acts = Counter(p[1] for p in pairs if p)
        assert set(acts) <= set(DATA.start_actions)
        assert all(n <= DATA.start_action_copies[a] for a, n in acts.items())
        assert {f"draft {i + 1}" for i in range(players + 1)} <= legal_texts(s)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_step13_draft_in_reverse_turn_order_last_player_picks_first(
        players: int) -> None:
    """The last player in turn order chooses first, the first player last."""
    s = GAME.new_game(players, 5)
    pickers = []
    while s.phase == "draft":
        if frame(s) == "draft":
            pickers.append(s.to_move)
            act(s, sorted(t for t in legal_texts(s) if t.startswith("draft"))[0])
        else:  # resources of choice from the pair just taken
            act(s, "gain iron")
    assert pickers == list(reversed(s.order))
    assert s.to_move == s.order[0] and frame(s) == "take"


def test_setup_step13_pair_gives_action_card_resources_and_lantern_cards() -> None:
    """Action card to the domain; the resource card's gains; resource card (+ decree) to
    the Lantern Area; the pair leaves the offer."""
    s = GAME.new_game(3, 2)
    s.draft_pairs = [("start_resource_1", "start_action_warrior"),  # decree_coin
                     ("start_resource_9", "start_action_gardener"),
                     ("start_resource_5", "start_action_courtier"),  # 3 of choice
                     ("start_resource_3", "start_action_courtier")]
    s._legal = None
    first, second, third = reversed(s.order)
    act(s, "draft 1")
    c = s.clans[first]
    assert c.card == "start_action_warrior"
    assert c.lantern == ["start_resource_1", "decree_coin"]
    assert (c.coins, c.seals, c.res) == (2, 1, [2, 1, 0])
    assert s.draft_pairs[0] is None and "draft 1" not in legal_texts(s)
    assert s.to_move == second
    act(s, "draft 3")
    assert s.to_move == second and frame(s) == "choice"  # 3 resources of choice
    act(s, "gain pearl", "gain pearl", "gain food")
    c = s.clans[second]
    assert c.card == "start_action_courtier"
    assert c.lantern == ["start_resource_5"]
    assert (c.coins, c.seals, c.res) == (4, 1, [1, 0, 2])
    assert s.to_move == third
    act(s, "draft 2")
    c = s.clans[third]
    assert c.card == "start_action_gardener" and c.lantern == ["start_resource_9"]
    assert (c.coins, c.seals, c.res) == (3, 2, [4, 2, 0])
    # One pair is left over; play starts with the first player.
    assert sum(p is not None for p in s.draft_pairs) == 1
    assert s.phase == "play" and s.to_move == s.order[0]
