"""Illegal actions of every kind are refused with a reason and leave the state untouched.

Each test finds (by seeded random play) or builds (by setting state fields) a state in
which a particular action is illegal, offers it (through `apply`, `GAME.parse_action` or,
with `refused_both_ways`, as an id, an Action and notation) and checks the IllegalAction
message gives the game's reason and that `dumps()` is byte-identical before and after.
Refusals every game owes (any illegal id, ids out of range, values that are no action,
garbage text, moves after the end, malformed JSON): tests/contract/.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable

import pytest

from kamon.core.errors import IllegalAction, RecordError
from kamon.core.protocol import Action
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME, WhiteCastleState
from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import COLOURS
from kamon.games.white_castle.names import SPACE_NAMES


def play_until(players: int, predicate: Callable[[WhiteCastleState], bool],
               seeds: range = range(300)) -> WhiteCastleState:
    """The first state of seeded uniform-random play for which predicate holds."""
    for seed in seeds:
        state = GAME.new_game(players, seed)
        rng = Rng(seed)
        while not state.is_over():
            if predicate(state):
                return state
            ids = state.legal_ids()
            state.apply(ids[rng.below(len(ids))])
        if predicate(state):
            return state
    raise AssertionError("no state found for the predicate")


def deciding(kind: str) -> Callable[[WhiteCastleState], bool]:
    """Predicate: the top decision frame is of this kind."""
    return lambda s: bool(s.stack) and s.stack[-1].kind == kind


def refused(state: WhiteCastleState, action: int | str, *fragments: str) -> str:
    """Offer the action (id via apply, text via parse_action); assert it is refused with a
    message containing every fragment and that the state is byte-identical afterwards."""
    before = state.dumps()
    legal_before = list(state.legal_ids())
    with pytest.raises(IllegalAction) as info:
        if isinstance(action, int):
            state.apply(action)
        else:
            state.apply(GAME.parse_action(state, action))
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert state.dumps() == before, f"refusing {action!r} changed the state"
    assert state.legal_ids() == legal_before
    return message


def refused_both_ways(state: WhiteCastleState, aid: int, *fragments: str) -> None:
    """Refused as an id, as an Action and as notation, with the same reason each way."""
    by_id = refused(state, aid, *fragments)
    by_text = refused(state, A.TEXTS[aid], *fragments)
    assert by_id == by_text
    before = state.dumps()
    with pytest.raises(IllegalAction):
        state.apply(Action(aid, A.TEXTS[aid]))
    assert state.dumps() == before


# ---------------------------------------------------------------- notation


def test_messy_notation_of_an_illegal_move_gets_the_games_reason() -> None:
    """Notation in another case and spacing is read, then refused for the game's reason."""
    state = play_until(3, deciding("take"))
    refused(state, " AUDIENCE ", "not legal now", "takes a die")


# ------------------------------------------------------------ wrong decision


@pytest.mark.parametrize("text", ["audience", "place well", "done", "draft 1", "gain food",
                                  "yard 1", "daimyo 1", "row coral", "pay", "effect 1"])
def test_legal_looking_notation_at_the_wrong_decision(text: str) -> None:
    """Real notation offered while a die must be taken is refused, saying what is decided."""
    state = play_until(4, deciding("take"))
    assert A.BY_TEXT[text] not in state.legal_ids()
    refused_both_ways(state, A.BY_TEXT[text], "is not legal now", "takes a die from")


def test_take_during_the_draft() -> None:
    """Taking a die while starting pairs are drafted is refused."""
    state = GAME.new_game(2, 3)
    assert state.phase == "draft"
    refused_both_ways(state, A.TAKE[(0, 0)], "chooses a starting pair")


def test_draft_of_a_pair_already_taken() -> None:
    """A starting pair another clan drafted cannot be drafted again."""
    state = play_until(3, lambda s: deciding("draft")(s) and None in s.draft_pairs)
    gone = state.draft_pairs.index(None)
    assert A.DRAFT[gone] not in state.legal_ids()
    refused_both_ways(state, A.DRAFT[gone], "is not legal now", "chooses a starting pair")


# --------------------------------------------------------------- placing dice


def test_die_in_a_room_without_its_colour() -> None:
    """A die may only go to a castle room showing a die tile of its colour."""
    def room_lacking(s: WhiteCastleState) -> bool:
        return (deciding("place")(s) and s.held is not None
                and any(s.held[0] not in s.room_tiles[r] for r in range(5)))

    state = play_until(3, room_lacking)
    assert state.held is not None
    colour = state.held[0]
    room = next(r for r in range(5) if colour not in state.room_tiles[r])
    refused_both_ways(state, A.PLACE[room], f"no {COLOURS[colour]} die tile",
                      f"{SPACE_NAMES[room]} has no")


def test_place_where_the_coins_cannot_be_paid() -> None:
    """With no coins and no seals, a placement that costs coins is refused with the cost."""
    def low_die(s: WhiteCastleState) -> bool:
        return (deciding("place")(s) and s.held is not None and s.held[1] < 6
                and s.clans[s.stack[-1].seat].domain[s.held[0]] is None)

    state = play_until(3, low_die)
    assert state.held is not None and state.to_move is not None
    clan = state.clans[state.to_move]
    clan.coins = 0
    clan.seals = 0
    state._legal = None  # fields were edited by hand: drop the legal-action cache
    colour, value, _ = state.held
    assert A.PLACE[A.SP_DOMAIN] not in state.legal_ids()
    assert state.legal_ids(), "the Well (which never costs) must stay possible"
    refused_both_ways(state, A.PLACE[A.SP_DOMAIN], f"costs {6 - value} coins",
                      "has 0 coins and 0 seals")
    for s in range(A.SP_WELL):
        cost = state.space_cost(s, value)
        if cost is not None and cost > 0 and (s >= 5 or colour in state.room_tiles[s]):
            refused_both_ways(state, A.PLACE[s], f"costs {cost} coins")


def test_seals_count_towards_a_coin_cost() -> None:
    """A placement is payable when coins plus Daimyo seals cover it (and not otherwise)."""
    def low_die(s: WhiteCastleState) -> bool:
        return (deciding("place")(s) and s.held is not None and s.held[1] <= 4
                and s.clans[s.stack[-1].seat].domain[s.held[0]] is None)

    state = play_until(2, low_die)
    assert state.held is not None and state.to_move is not None
    cost = 6 - state.held[1]
    clan = state.clans[state.to_move]
    clan.coins, clan.seals = 1, cost - 1
    state._legal = None
    assert A.PLACE[A.SP_DOMAIN] in state.legal_ids()
    clan.seals = cost - 2
    state._legal = None
    refused_both_ways(state, A.PLACE[A.SP_DOMAIN], f"costs {cost} coins")


def test_full_space_at_two_players() -> None:
    """At 2 players a die space holds one die: no stacking."""
    def occupied_target(s: WhiteCastleState) -> bool:
        if not deciding("place")(s) or s.held is None:
            return False
        return any(s.spaces[sp] and (sp >= 5 or s.held[0] in s.room_tiles[sp])
                   for sp in range(A.SP_WELL))

    state = play_until(2, occupied_target)
    assert state.held is not None
    sp = next(sp for sp in range(A.SP_WELL) if state.spaces[sp]
              and (sp >= 5 or state.held[0] in state.room_tiles[sp]))
    refused_both_ways(state, A.PLACE[sp], "full", "no stacking at 2 players")


def test_space_full_with_two_dice_at_three_players() -> None:
    """At 3-4 players a die space holds two dice at most."""
    def two_high(s: WhiteCastleState) -> bool:
        if not deciding("place")(s) or s.held is None:
            return False
        return any(len(s.spaces[sp]) >= 2 and (sp >= 5 or s.held[0] in s.room_tiles[sp])
                   for sp in range(A.SP_WELL))

    state = play_until(3, two_high)
    assert state.held is not None
    sp = next(sp for sp in range(A.SP_WELL) if len(state.spaces[sp]) >= 2
              and (sp >= 5 or state.held[0] in state.room_tiles[sp]))
    refused_both_ways(state, A.PLACE[sp], "full", "one die high")


def test_domain_row_already_holds_a_die() -> None:
    """A domain row takes one die per round."""
    def row_taken(s: WhiteCastleState) -> bool:
        return (deciding("place")(s) and s.held is not None
                and s.clans[s.stack[-1].seat].domain[s.held[0]] is not None)

    state = play_until(2, row_taken)
    assert state.held is not None
    refused_both_ways(state, A.PLACE[A.SP_DOMAIN],
                      f"your {COLOURS[state.held[0]]} row already holds a die")


# ------------------------------------------------------------------- bridges


def test_take_from_an_empty_bridge() -> None:
    """A bridge with no dice left offers nothing to take."""
    def empty_bridge(s: WhiteCastleState) -> bool:
        return deciding("take")(s) and any(not b for b in s.bridges)

    state = play_until(2, empty_bridge)
    b = next(b for b, dice in enumerate(state.bridges) if not dice)
    for end in (0, 1):
        refused_both_ways(state, A.TAKE[(b, end)], f"the {COLOURS[b]} bridge is empty")


def test_take_the_missing_end_of_a_lone_die() -> None:
    """A lone die stays at the end it ended up on; the other end is refused."""
    def lone_die(s: WhiteCastleState) -> bool:
        return deciding("take")(s) and any(len(b) == 1 for b in s.bridges)

    state = play_until(3, lone_die)
    b = next(b for b, dice in enumerate(state.bridges) if len(dice) == 1)
    wrong_end = 1 if state.lone_left[b] else 0
    assert A.TAKE[(b, 1 - wrong_end)] in state.legal_ids()
    refused_both_ways(state, A.TAKE[(b, wrong_end)], "the other end")


# ------------------------------------------------------------- Daimyo seals


def test_exchange_seals_with_none() -> None:
    """Exchanging Daimyo seals needs seals: refused with the seal count."""
    state = play_until(3, lambda s: s.to_move is not None and s.clans[s.to_move].seals == 0)
    assert A.EXCHANGE_COIN not in state.legal_ids()
    refused_both_ways(state, A.EXCHANGE_COIN, "Daimyo seal", "has 0")
    for r in range(3):
        refused_both_ways(state, A.EXCHANGE_RES[r], "Daimyo seal")


def test_exchange_two_seals_with_one() -> None:
    """A resource costs two seals; one seal buys only a coin."""
    state = play_until(3, deciding("take"))
    assert state.to_move is not None
    state.clans[state.to_move].seals = 1
    state._legal = None
    assert A.EXCHANGE_COIN in state.legal_ids()
    refused_both_ways(state, A.EXCHANGE_RES[0], "has 1 Daimyo seal")


def test_exchange_for_a_resource_already_at_seven() -> None:
    """Seals are not exchanged for a resource that is already at its maximum of 7."""
    state = play_until(2, deciding("take"))
    assert state.to_move is not None
    clan = state.clans[state.to_move]
    clan.seals, clan.res[1] = 4, 7
    state._legal = None
    assert A.EXCHANGE_RES[0] in state.legal_ids()
    refused_both_ways(state, A.EXCHANGE_RES[1], "already at 7")


def test_checkpoint_pay_needs_the_seals_still_held() -> None:
    """After exchanging away the seals a checkpoint asks for, 'pay' must be refused
    (found by the invariant tests: paying drove seals to -1)."""
    def checkpoint(s: WhiteCastleState) -> bool:
        if not deciding("checkpoint")(s):
            return False
        return s.clans[s.stack[-1].seat].seals == s.stack[-1].cost

    state = play_until(2, checkpoint)
    seat = state.stack[-1].seat
    state.apply(A.EXCHANGE_COIN)
    assert state.stack[-1].kind == "checkpoint"
    assert state.clans[seat].seals < state.stack[-1].cost
    refused_both_ways(state, A.PAY, "seal")
    state.apply(A.DONE)
    assert state.clans[seat].seals >= 0


# ------------------------------------------------------------ setup and JSON


@pytest.mark.parametrize("players", [0, 5, 6, -2])
def test_new_game_with_a_bad_player_count(players: int) -> None:
    """Only 1-4 players are supported (1 = solo); the message says so."""
    with pytest.raises(ValueError, match=r"1-4 players") as info:
        GAME.new_game(players, 1)
    assert str(players) in str(info.value)


def test_new_game_with_an_unknown_option() -> None:
    """An unknown option is refused, naming it and the known ones."""
    with pytest.raises(ValueError, match="unknown option") as info:
        GAME.new_game(3, 1, fast_mode=True)
    assert "fast_mode" in str(info.value)
    assert "first_game" in str(info.value)


@pytest.mark.parametrize("value", [1, 0, "yes", 1.0])
def test_first_game_is_true_or_false(value: object) -> None:
    """first_game is a boolean: 1, 0 or "yes" are refused with the value, not read as
    true or false."""
    with pytest.raises(ValueError, match="first_game must be true or false"):
        GAME.new_game(2, 1, first_game=value)


def test_true_is_no_player_count() -> None:
    """True is not 1 player (a bool is an int in Python): refused like any other count."""
    with pytest.raises(ValueError, match="1-4 players"):
        GAME.new_game(True, 1)


@pytest.mark.parametrize(("options", "fault"), [
    ({"first_game": 1}, "first_game must be true or false"),
    ({"first_game": False}, "not as a game keeps them"),
    ({"turbo": True}, "unknown option"),
])
def test_from_json_checks_the_options_as_new_game_does(options: dict[str, object],
                                                       fault: str) -> None:
    """A state's options are held to new_game's checks (and kept as a game keeps them),
    so a stored game cannot carry an option new_game would refuse."""
    doc = json.loads(json.dumps(GAME.new_game(2, 1, first_game=True).to_json()))
    doc["options"] = options
    with pytest.raises(RecordError, match=fault):
        GAME.from_json(doc)


def test_from_json_of_a_die_in_hand_of_the_wrong_shape() -> None:
    """A die in hand that is not (bridge, value, from the left) raises RecordError (not an
    IndexError later); fields missing or of another type: tests/contract/."""
    state = play_until(3, deciding("place"))
    good = json.loads(json.dumps(state.to_json()))
    assert len(good["held"]) == 3 and GAME.from_json(copy.deepcopy(good)).dumps() == state.dumps()
    good["held"] = [1]
    with pytest.raises(RecordError, match="not a White Castle state"):
        GAME.from_json(good)
