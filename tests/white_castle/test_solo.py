"""The Tokugawa clan's visit (solitaire mode): each rival rule, each difficulty, the deck data.

The rival's turn runs by itself after the solo player's turn; a test arranges the
board and the Solitaire deck before the player's move, plays that move, then checks
what the rival did.
"""

from __future__ import annotations

import json

import pytest

from kamon.core.errors import DataError, IllegalAction
from kamon.core.record import GameRecord, replay
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME
from kamon.games.white_castle.data import load_data
from kamon.games.white_castle.state import WhiteCastleState

CORAL, BLACK, WHITE = 0, 1, 2
HUMAN, RIVAL = 0, 1
SEP = "exchange"


def solo(difficulty: str = "easy", seed: int = 3) -> WhiteCastleState:
    """A solo game at the player's first 'take a die' decision (easy: the player goes first)."""
    s = GAME.new_game(1, seed, difficulty=difficulty)
    while s.stack[-1].kind != "take":
        s.apply([i for i in s.legal_ids() if not GAME.action_text(i).startswith(SEP)][0])
    return s


def player_turn(s: WhiteCastleState, take: str = "take white right",
                place: str = "place well") -> None:
    """Play the solo player's turn (take, place, first choices) up to the rival's turn end."""
    s.apply(GAME.parse_action(s, take))
    s.apply(GAME.parse_action(s, place))
    while not s.is_over() and s.stack[-1].kind not in ("take", "rival_room", "rival_garden"):
        s.apply([i for i in s.legal_ids() if not GAME.action_text(i).startswith(SEP)][0])


def arrange(s: WhiteCastleState, deck: list[str], bridges: list[list[int]]) -> None:
    """Set the Solitaire deck order (top first) and the bridges."""
    s.solo_deck = deck + [c for c in s.solo_deck if c not in deck]
    s.bridges = [b[:] for b in bridges]
    s._legal = None


# -------------------------------------------------------------------------- setup


@pytest.mark.parametrize("difficulty, cp, first, passage", [
    ("easy", 0, HUMAN, 0), ("medium", 3, RIVAL, 1), ("hard", 8, RIVAL, 3)])
def test_solo_setup_difficulty_table(difficulty: str, cp: int, first: int, passage: int
                                     ) -> None:
    s = GAME.new_game(1, 11, difficulty=difficulty)
    # Read the setup before the rival's first turn changed anything: replay nothing.
    assert s.options["difficulty"] == difficulty
    events = " ".join(s.events[:3])
    assert f"starts with {cp} CP" in events
    assert f"at {passage} on the Passage of Time" in events
    assert ("first" if first == RIVAL else "second") + " in turn order" in events
    assert s.order[0] == first  # the heron order holds until the end of round 1
    if first == HUMAN:  # the rival has not moved yet: its markers are as set up
        assert (s.clans[RIVAL].cp, s.clans[RIVAL].pos) == (cp, passage)
    else:  # the rival moved first; it started from the table's values
        assert s.clans[RIVAL].cp >= cp and s.clans[RIVAL].pos >= passage


def test_solo_setup_is_a_two_player_setup_with_a_random_starting_pair() -> None:
    s = GAME.new_game(1, 4, difficulty="easy")
    assert s.num_players == 1 and len(s.clans) == 2 and s.rival == RIVAL
    assert all(len(b) == 3 for b in s.bridges)  # 3 dice per colour, as at 2 players
    diamond = {"steward_01", "steward_03", "steward_06", "steward_08", "steward_11",
               "steward_14", "diplomat_01", "diplomat_09", "diplomat_12"}
    assert not diamond & set(s.steward_deck + s.diplomat_deck + s.room_cards)
    assert s.draft_pairs == []  # no draft
    human = s.clans[HUMAN]
    assert human.card is not None and human.lantern[0].startswith("start_resource")
    assert s.clans[RIVAL].card is None and s.clans[RIVAL].lantern == []
    assert sorted(s.solo_deck) == sorted(load_data().solo_deck)
    decks = {tuple(GAME.new_game(1, k, difficulty="easy").solo_deck) for k in range(8)}
    assert len(decks) > 1  # shuffled


def test_solo_default_difficulty_and_bad_values() -> None:
    assert GAME.new_game(1, 1).options["difficulty"] == "medium"
    with pytest.raises(ValueError, match="'easy', 'medium' or 'hard'"):
        GAME.new_game(1, 1, difficulty="brutal")
    with pytest.raises(ValueError, match="games of 1 player only"):
        GAME.new_game(2, 1, difficulty="hard")


def test_solo_setup_line_marks_the_reconstructed_deck() -> None:
    lines = GAME.describe_options({"difficulty": "hard"})
    assert any("RECONSTRUCTED" in line and "Solitaire" in line for line in lines)
    assert sum(c.reconstructed for c in load_data().solo_deck.values()) == 16  # of 18 faces


# ------------------------------------------------------------------ the rival's turn


def test_rival_reveals_until_the_top_card_names_a_die_on_its_bridge() -> None:
    s = solo()
    # solo_3 names the white centre die, solo_4 the coral centre die, solo_5 the black left.
    # Coral and white bridges hold 2 dice (no centre); black has its left die.
    arrange(s, ["solo_1", "solo_3", "solo_4", "solo_5"], [[2, 5], [1, 3, 6], [2, 3, 4]])
    player_turn(s, "take white right")  # white: 2 3 left, centre empty
    # Row: solo_1 (top: solo_3 white centre: none), solo_3 (top: solo_4 coral centre: none),
    # solo_4 (top: solo_5 black left: the black 1) -> the die goes to diplomat_room_2.
    assert s.spaces[4] == [(BLACK, 1)]
    assert s.bridges[BLACK] == [3, 6]
    # The actions of the last two revealed cards: solo_3 (gate, 2 passage) and solo_4
    # (warrior to the 5-iron yard, 2 coins); solo_1's are not performed.
    rc = s.clans[RIVAL]
    assert rc.courtiers == [0] and rc.warriors == [0] and rc.coins == 2 and rc.pos == 2
    # The revealed cards go to the bottom of the deck, in the order they were revealed.
    assert s.solo_deck[-3:] == ["solo_1", "solo_3", "solo_4"]
    assert s.solo_deck[0] == "solo_5"


def test_rival_with_the_first_card_usable_performs_only_that_cards_actions() -> None:
    s = solo()
    arrange(s, ["solo_6", "solo_7"], [[1, 2, 3], [1, 2, 3], [1, 2, 3]])
    player_turn(s, "take white left")  # the coral right die (solo_7's) is still there
    rc = s.clans[RIVAL]
    # solo_7 names the coral right die -> outside_the_walls_right (printed 5): a 3 gains 0.
    assert s.spaces[6] == [(CORAL, 3)]
    # Only solo_6's actions: gardener on the lowest stone garden, 1 Passage step.
    assert rc.pos == 1
    assert sum(RIVAL in w for w in s.garden_workers) == 1
    assert rc.courtiers == [] and rc.warriors == []


def test_rival_die_on_an_occupied_position_goes_to_the_well_with_coins_only() -> None:
    s = solo()
    arrange(s, ["solo_6", "solo_7"], [[1, 2, 6], [1, 2, 3], [1, 2, 3]])
    s.spaces[6] = [(WHITE, 4)]  # outside-right is occupied (2 players: no stacking)
    player_turn(s, "take white left")
    rc = s.clans[RIVAL]
    assert s.spaces[6] == [(WHITE, 4)]
    assert (CORAL, 6) in s.spaces[7]  # the Well
    assert rc.coins == 5  # 6 against the Well's 1
    assert rc.seals == 0 and rc.res == [0, 0, 0]  # no seal, no tile rewards


def test_rival_gains_coins_but_never_pays_for_a_low_die() -> None:
    s = solo()
    arrange(s, ["solo_6", "solo_1"], [[1, 2, 3], [1, 2, 3], [1, 2, 3]])
    player_turn(s, "take white right")
    rc = s.clans[RIVAL]
    assert s.spaces[0] == [(CORAL, 1)]  # solo_1: coral left -> steward1 (printed 3)
    assert rc.coins == 0  # a 1 on a 3 would cost 2: the rival never pays


def test_rival_ignores_room_colours() -> None:
    s = solo()
    s.room_tiles[0] = (BLACK, WHITE, BLACK)  # no coral tile in steward1
    arrange(s, ["solo_6", "solo_1"], [[4, 5, 6], [1, 2, 3], [1, 2, 3]])
    player_turn(s, "take white right")
    assert s.spaces[0] == [(CORAL, 4)]


def test_rival_impossible_action_scores_the_round_number_in_cp() -> None:
    s = solo()
    s.round = 2
    rc = s.clans[RIVAL]
    rc.left = [5, 5, 0]  # no warrior left
    cp = rc.cp
    # Row solo_4 (warrior 5 + 2 coins) then top solo_5 (black left) is there.
    arrange(s, ["solo_4", "solo_5"], [[1, 2, 3], [1, 2, 3], [1, 2, 3]])
    player_turn(s, "take white right")
    assert rc.cp == cp + 2
    assert rc.coins == 2 and rc.warriors == []
    assert any("cannot place a warrior" in e and "2 CP instead" in e for e in s.events)


def test_rival_climb_with_no_courtier_in_the_castle_is_impossible() -> None:
    s = solo()
    rc = s.clans[RIVAL]
    cp = rc.cp
    arrange(s, ["solo_9", "solo_1"], [[1, 2, 3], [1, 2, 3], [1, 2, 3]])  # climb 1 + passage 1
    player_turn(s, "take white right")
    assert rc.cp == cp + 1  # round 1
    assert rc.pos == 1


def test_rival_lowest_courtier_climbs_and_the_player_chooses_the_room() -> None:
    s = solo()
    rc = s.clans[RIVAL]
    rc.courtiers = [4, 0]  # one on floor 2, one at the Gate: the Gate one is lowest
    rc.left[0] = 3
    arrange(s, ["solo_9", "solo_1"], [[1, 2, 3], [1, 2, 3], [1, 2, 3]])
    player_turn(s, "take white right")
    assert s.to_move == HUMAN and s.stack[-1].kind == "rival_room"
    choices = {a.text for a in s.legal_actions() if not a.text.startswith(SEP)}
    assert choices == {"rival-room steward1", "rival-room steward2", "rival-room steward3"}
    old = s.room_cards[1]
    top = s.steward_deck[-1]
    s.apply(GAME.parse_action(s, "rival-room steward2"))
    assert rc.courtiers == [4, 2]
    assert s.room_cards[1] == top and old in s.discarded  # removed, replaced at once
    assert s.clans[HUMAN].card != old


def test_rival_courtier_reaching_the_daimyo_takes_the_first_free_slot_from_the_left(
) -> None:
    s = solo()
    rc = s.clans[RIVAL]
    rc.courtiers = [4]
    rc.left[0] = 4
    s.daimyo_card = "daimyo_02"  # Well / 2 pearl / 3 coins
    s.daimyo_slots = [HUMAN, None, None]
    arrange(s, ["solo_9", "solo_1"], [[1, 2, 3], [1, 2, 3], [1, 2, 3]])
    player_turn(s, "take white right")
    assert rc.courtiers == [6] and s.daimyo_slots == [HUMAN, RIVAL, None]
    assert rc.res == [0, 0, 0]  # slot 2 gives pearl: the rival never gains resources


def test_rival_daimyo_slot_gives_it_coins_cp_and_passage_only() -> None:
    s = solo()
    rc = s.clans[RIVAL]
    rc.courtiers = [4]
    rc.left[0] = 4
    s.daimyo_card = "daimyo_02"
    s.daimyo_slots = [HUMAN, HUMAN, None]  # the free slot gives 3 coins
    arrange(s, ["solo_9", "solo_1"], [[1, 2, 3], [1, 2, 3], [1, 2, 3]])
    coins = rc.coins
    player_turn(s, "take white right")
    assert s.daimyo_slots[2] == RIVAL and rc.coins == coins + 3 + 0


def test_rival_gardener_goes_to_the_lowest_value_garden_of_the_type() -> None:
    s = solo()
    s.garden_cards = ["plant_1", "stone_8", "plant_5", "stone_10", "plant_2", "stone_6"]
    arrange(s, ["solo_2", "solo_1"], [[1, 2, 3], [1, 2, 3], [1, 2, 3]])  # plant gardener
    player_turn(s, "take white right")
    assert s.garden_workers[2] == [RIVAL]  # plant_5 (5 CP) is the lowest plant card


def test_rival_gardener_tie_is_chosen_by_the_player() -> None:
    s = solo()
    s.garden_cards = ["plant_2", "stone_8", "plant_3", "stone_9", "plant_4", "stone_10"]
    arrange(s, ["solo_2", "solo_1"], [[1, 2, 3], [1, 2, 3], [1, 2, 3]])
    player_turn(s, "take white right")
    assert s.stack[-1].kind == "rival_garden" and s.to_move == HUMAN
    choices = {a.text for a in s.legal_actions() if not a.text.startswith(SEP)}
    assert choices == {"rival-garden coral plant", "rival-garden black plant",
                       "rival-garden white plant"}
    s.apply(GAME.parse_action(s, "rival-garden black plant"))
    assert s.garden_workers[2] == [RIVAL]


def test_rival_passes_passage_checkpoints_without_paying() -> None:
    s = solo()
    rc = s.clans[RIVAL]
    rc.pos = 5
    arrange(s, ["solo_3", "solo_1"], [[1, 2, 3], [1, 2, 3], [1, 2, 3]])  # gate + 2 steps
    player_turn(s, "take white right")
    assert rc.pos == 7 and rc.seals == 0


def test_rival_is_never_to_move_and_illegal_rival_choices_are_refused() -> None:
    s = solo()
    with pytest.raises(IllegalAction):
        s.apply(GAME.parse_action(s, "rival-room steward1"))
    for seed in range(30):
        g = GAME.new_game(1, seed, difficulty=("easy", "medium", "hard")[seed % 3])
        r = Rng(seed)
        while not g.is_over():
            assert g.to_move == HUMAN
            ids = g.legal_ids()
            g.apply(ids[r.below(len(ids))])


# -------------------------------------------------------------------------- round end


def end_round_on_players_turn(s: WhiteCastleState, bridges: list[list[int]], take: str
                              ) -> None:
    """Leave 4 dice on the bridges: the player's die brings them to 3 and ends the round
    before the rival moves again, so only the round-end rules touch the rival."""
    s.bridges = [b[:] for b in bridges]
    s._legal = None
    s.apply(GAME.parse_action(s, take))
    s.apply(GAME.parse_action(s, "place well"))
    while s.round == 1:
        s.apply([i for i in s.legal_ids() if not GAME.action_text(i).startswith(SEP)][0])


@pytest.mark.parametrize("rival_first, cp_gain, coins_left", [(True, 2, 1), (False, 1, 2)])
def test_rival_round_end_coins_for_cp_by_turn_position(rival_first: bool, cp_gain: int,
                                                        coins_left: int) -> None:
    s = solo()
    rc = s.clans[RIVAL]
    rc.pos, s.clans[HUMAN].pos = (9, 0) if rival_first else (0, 9)
    rc.coins = 7
    s.garden_workers = [[], [], [], [], [], []]
    cp = rc.cp
    end_round_on_players_turn(s, [[], [1], [2, 3, 4]], "take black left")
    assert (s.order[0] == RIVAL) == rival_first
    # First: 3 coins per round-number CP (7 -> 2 CP, 1 kept); second: 5 per CP (1 CP, 2 kept).
    assert rc.cp == cp + cp_gain
    assert rc.coins == coins_left


def test_rival_gardeners_under_bridges_with_dice_score_round_number_cp() -> None:
    s = solo()
    rc = s.clans[RIVAL]
    rc.coins = 0
    s.garden_workers = [[RIVAL], [RIVAL], [], [RIVAL], [], []]  # coral x2, black x1
    rc.left[1] = 2
    cp = rc.cp
    end_round_on_players_turn(s, [[5], [], [2, 3, 4]], "take white left")
    # Coral still holds a die (2 gardeners activate), black is empty (its gardener does not).
    assert rc.cp == cp + 2 * 1
    assert s.round == 2


def test_solitaire_deck_reshuffled_at_round_end() -> None:
    changed = 0
    for seed in range(6):
        s = solo(seed=seed)
        s.garden_workers = [[], [], [], [], [], []]
        before = list(s.solo_deck)
        end_round_on_players_turn(s, [[], [1], [2, 3, 4]], "take black left")
        assert sorted(before) == sorted(s.solo_deck)
        changed += before != s.solo_deck
    assert changed >= 4  # the rival did not move: only the shuffle can reorder the deck


def test_rival_final_score_has_no_coins_or_resources() -> None:
    s = solo()
    rc = s.clans[RIVAL]
    rc.coins = 14
    sc = s.scores()[RIVAL]
    assert sc["coins_seals"] == 0 and sc["resources"] == 0


# -------------------------------------------------------------- views, records, data


def test_solo_view_hides_the_deck_order_and_determinize_reshuffles_it() -> None:
    s = solo()
    v = s.view(HUMAN)
    assert v["solo_deck"] == 9
    assert "solo_1" not in json.dumps(v)
    orders = {tuple(s.determinize(HUMAN, Rng(k)).solo_deck) for k in range(6)}
    assert len(orders) > 1


def test_solo_deck_is_kept_bridge_side_up_so_its_top_face_is_public() -> None:
    """Rulebook: "shuffle the deck and leave it on the table with the Bridge side up";
    "look at the top card on the deck". The top card's Bridge side (die colour, bridge
    position, destination) is in every view, without the card's id (which would name its
    face-down action side); re-sampling keeps a card with that face on top."""
    data = load_data().solo_deck
    for seed, difficulty in ((3, "easy"), (4, "hard")):
        s = GAME.new_game(1, seed, difficulty=difficulty)
        r = Rng(seed)
        faces = set()
        while not s.is_over():
            top = data[s.solo_deck[0]]
            v = s.view(HUMAN)
            assert (v["solo_top"]["colour"], v["solo_top"]["position"],
                    v["solo_top"]["destination"]) == (top.colour, top.position,
                                                      top.destination)
            assert s.solo_deck[0] not in json.dumps(v["solo_top"])
            faces.add(json.dumps(v["solo_top"]))
            d = s.determinize(HUMAN, Rng(r.below(1000)))
            assert d.view(HUMAN)["solo_top"] == v["solo_top"]
            assert sorted(d.solo_deck) == sorted(s.solo_deck)
            ids = s.legal_ids()
            s.apply(ids[r.below(len(ids))])
        assert len(faces) > 2  # the top changes with the rival's turns and the shuffles
    assert GAME.new_game(2, 3).view(0)["solo_top"] is None  # no rival, no Solitaire deck


def test_solo_deck_top_after_the_rivals_turn_is_the_card_that_named_its_die() -> None:
    """After the rival's turn the revealed cards go under the deck, so the card whose
    Bridge side named the die stays on top, face up: the log's card and the view agree."""
    s = solo()
    arrange(s, ["solo_1", "solo_2"], [[1, 3, 5], [2, 4, 6], [1, 2, 6]])
    player_turn(s)
    named = load_data().solo_deck[s.solo_deck[0]]
    assert s.view(HUMAN)["solo_top"]["colour"] == named.colour
    assert s.view(HUMAN)["solo_top"]["position"] == named.position


def test_solo_record_replays_and_json_round_trips() -> None:
    for seed, diff in ((1, "easy"), (2, "medium"), (3, "hard")):
        s = GAME.new_game(1, seed, difficulty=diff)
        r = Rng(seed)
        while not s.is_over():
            ids = s.legal_ids()
            s.apply(ids[r.below(len(ids))])
        rec = GameRecord.of("white-castle", s, seed, s.options, GAME.action_text)
        assert rec.players == 1
        again = replay(GameRecord.from_json(json.loads(json.dumps(rec.to_json()))))
        assert again.dumps() == s.dumps()
        assert GAME.from_json(json.loads(s.dumps())).dumps() == s.dumps()


def test_real_deck_can_be_loaded_through_an_overlay() -> None:
    overlay = {"solo": {"cards": {"contents": [
        {"id": "solo_2", "action_side": {"actions": [{"icon": "gain_cp", "n": 4}],
                                         "confidence": "owner's copy"}}]}}}
    data = load_data(overlay)
    assert data.solo_deck["solo_2"].actions == (("cp", 4),)
    assert data.solo_deck["solo_2"].reconstructed == 0


@pytest.mark.parametrize("patch, message", [
    ({"id": "solo_2", "bridge_side": {"die_colour": "coral", "bridge_position": "left"}},
     "already on another card"),
    ({"id": "solo_2", "bridge_side": {"destination": "moon"}}, "main-board space"),
    ({"id": "solo_2", "bridge_side": {"bridge_position": "middle"}}, "bridge_position"),
    ({"id": "solo_2", "action_side": {"actions": [{"icon": "fly"}]}}, "icon must be"),
    ({"id": "solo_2", "action_side": {"actions": [{"icon": "gain_cp", "n": 1}] * 3}},
     "1 or 2 icons"),
    ({"id": "solo_2", "action_side": {"actions": [{"icon": "place_warrior", "yard_iron": 4}]}},
     "yard_iron"),
])
def test_malformed_solitaire_deck_is_refused_with_a_clear_message(patch: dict, message: str
                                                                  ) -> None:
    with pytest.raises(DataError, match=message):
        load_data({"solo": {"cards": {"contents": [patch]}}})


def test_solitaire_deck_must_have_nine_cards() -> None:
    with pytest.raises(DataError, match="9 cards"):
        load_data({"solo": {"cards": {"contents": []}}})
