"""Illegal actions of every kind are refused with a reason and leave the state untouched.

Each test finds, by seeded uniform-random play (kamon.core.rng.Rng(seed) choosing from
`legal_ids()`), a state in which a particular action is illegal, offers it (as notation
through `GAME.parse_action`, and through `refused_all_ways` also as an id and as an
Action), and checks that the IllegalAction message gives the game's reason and that
`dumps()` is byte-identical before and after. Setup and JSON errors are checked at the
end (ValueError / RecordError). Refusals every game owes (any illegal id, ids out of
range, values that are no action, garbage text, moves after the end): tests/contract/.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from kamon.core.errors import IllegalAction, RecordError
from kamon.core.protocol import Action
from kamon.core.rng import Rng
from kamon.games.clansman import GAME, ClansmanState
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import GOODS

BEGINNER: dict[str, Any] = {}
EXPERT: dict[str, Any] = {"expert": True}


def play_until(predicate: Callable[[ClansmanState], bool], options: dict[str, Any] | None = None,
               seeds: range = range(200), players: int = 4) -> ClansmanState:
    """The first state of seeded uniform-random play for which predicate holds."""
    opts = dict(options or {})
    for seed in seeds:
        state = GAME.new_game(players, seed, **opts)
        rng = Rng(seed)
        while not state.is_over():
            if predicate(state):
                return state
            ids = state.legal_ids()
            state.apply(ids[rng.below(len(ids))])
        if predicate(state):
            return state
    raise AssertionError("no state found for the predicate")


def at_step(step: str) -> Callable[[ClansmanState], bool]:
    """Predicate: the decision now is of this step."""
    return lambda s: not s.is_over() and s.step == step


def mover(state: ClansmanState) -> int:
    """The seat to move (asserting there is one)."""
    assert state.to_move is not None
    return state.to_move


def refused(state: ClansmanState, action: int | str, *fragments: str) -> str:
    """Offer the action (id via apply, text via parse_action); assert it is refused with a
    message containing every fragment and that the state is byte-identical afterwards."""
    before = state.dumps()
    legal_before = state.legal_ids()
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


def refused_all_ways(state: ClansmanState, text: str, *fragments: str) -> str:
    """Refused as notation, as an id and as an Action, with the same reason each way."""
    aid = A.BY_TEXT[text]
    assert aid not in state.legal_ids(), f"{text!r} is legal here"
    by_text = refused(state, text, text, *fragments)
    by_id = refused(state, aid, text, *fragments)
    assert by_id == by_text
    assert state.why_illegal(aid) == by_id
    before = state.dumps()
    with pytest.raises(IllegalAction):
        state.apply(Action(aid, text))
    assert state.dumps() == before
    return by_id


# ---------------------------------------------------------------- notation


def test_messy_notation_of_an_illegal_move_gets_the_games_reason() -> None:
    """Notation in another case and spacing is read, then refused for the game's reason."""
    state = play_until(at_step("produce"))
    refused(state, "  MARRY   801 ", "'marry 801' is not legal now", "uses cards")


# ------------------------------------------------------------- wrong step


@pytest.mark.parametrize("text", ["obtain 412", "obtain 1 tadokoro", "obtain 2 tadokoro",
                                  "convert 300 blue soldier", "convert 301 cloth", "hero 902",
                                  "payment 1", "payment 2", "hand 405", "obtain 201"])
def test_production_notation_during_marriage(text: str) -> None:
    """Real notation of a Production step offered while a daughter must marry is refused,
    saying what is decided now."""
    state = play_until(at_step("marry"), EXPERT)
    who = state.name(mover(state))
    refused_all_ways(state, text, "is not legal now", f"{who} chooses where the daughter "
                     "marries")


@pytest.mark.parametrize("text", ["marry 801", "marry 300 blue", "marry 301", "payment 1",
                                  "hand 405"])
def test_marriage_notation_during_production(text: str) -> None:
    """Marriage (and payment/hand) notation offered during a Production turn is refused."""
    state = play_until(lambda s: at_step("produce")(s) and "405" not in s.supply)
    who = state.name(mover(state))
    refused_all_ways(state, text, "is not legal now", f"{who} uses cards")


def payment_state() -> ClansmanState:
    """A 'payment' decision: random play until 611 or 702 (Monk or Bureaucrat) lies in the
    Supply, then a Monk and a Bureaucrat are put in the pool by hand (random play reaches
    this step only about once in 500 games) and the card is obtained."""
    state = play_until(lambda s: at_step("produce")(s) and bool({"611", "702"} & set(s.supply)))
    cid = next(c for c in ("611", "702") if c in state.supply)
    state.pool[GOODS.index("monk")] += 1
    state.pool[GOODS.index("bureaucrat")] += 1
    state._legal = None  # fields were edited by hand: drop the legal-action cache
    state.apply(GAME.parse_action(state, f"obtain {cid}"))
    assert state.step == "payment" and state.pending == cid
    return state


def test_obtain_while_a_payment_is_chosen() -> None:
    """While the printed cost of a card is chosen, obtaining or converting is refused."""
    state = payment_state()
    assert state.pending is not None
    who = state.name(mover(state))
    for text in ("obtain 1 tadokoro", f"obtain {state.pending}", "convert 300 blue soldier",
                 "hero 900", "marry 801"):
        refused_all_ways(state, text, "is not legal now", f"{who} chooses how to pay for "
                         f"{state.pending}")


def test_payment_beyond_the_printed_costs() -> None:
    """A card with two printed costs offers payments 1 and 2 only."""
    state = payment_state()
    assert state.pending is not None
    assert [a.text for a in state.legal_actions()] == ["payment 1", "payment 2"]
    for text in ("payment 3", "payment 4"):
        refused_all_ways(state, text, f"{state.pending} has 2 printed cost(s)")


def test_hand_card_not_in_the_supply() -> None:
    """After option F, only a card lying in the Supply can be taken into hand."""
    state = play_until(at_step("hand"), seeds=range(400))
    p = mover(state)
    absent = next(c for c in A.CENTURY_CARDS if c not in state.supply)
    refused_all_ways(state, f"hand {absent}", f"{absent} is not in the Supply")
    for cid in state.players[p].hand:
        if cid not in state.supply:
            refused_all_ways(state, f"hand {cid}", "is not in the Supply")
    refused_all_ways(state, "obtain 1 tadokoro", "is not legal now", "takes a Supply card")


# ------------------------------------------------------------------ marriage


def test_marry_a_card_that_already_holds_a_daughter() -> None:
    """No card holds two daughters (line 168): every occupied card is refused, naming
    whose daughter is on it."""
    def occupied(s: ClansmanState) -> bool:
        return at_step("marry")(s) and any(d is not None for d in s.daughters)

    state = play_until(occupied)
    for q, d in enumerate(state.daughters):
        if d is None:
            continue
        owner, cid = d
        key = A.clan_key(owner, cid) if owner >= 0 else cid
        refused_all_ways(state, f"marry {key}", f"{state.name(q)}'s daughter is already on it",
                         "no card holds two daughters")


@pytest.mark.parametrize("players", [2, 3])
def test_small_table_marry_or_convert_a_seat_not_at_the_table(players: int) -> None:
    """The small-table variant (R35) has only 2-3 Kochisei-Shuraku cards: the notation of an
    absent seat's card is refused with a reason (it named a seat the state does not have)."""
    state = play_until(at_step("marry"), {"variant": "small-table"}, players=players)
    for seat in A.SEATS[players:]:
        refused_all_ways(state, f"marry 300 {seat}", "in nobody's Clan cards row")
    state = play_until(at_step("produce"), {"variant": "small-table"}, players=players)
    for seat in A.SEATS[players:]:
        refused_all_ways(state, f"convert 300 {seat} soldier", "in nobody's Clan cards row")


def test_marry_elsewhere_without_a_tadokoro() -> None:
    """Without a Tadokoro to pay, a daughter may only marry into her own clans (line 176)."""
    # Random play almost never empties a Tadokoro row: return them to the Bank by hand.
    state = play_until(lambda s: at_step("marry")(s) and s.round >= 3
                       and any(d is not None for d in s.daughters))
    p = mover(state)
    state.bank_tadokoro += state.players[p].tadokoro
    state.players[p].tadokoro = 0
    state._legal = None  # fields were edited by hand: drop the legal-action cache
    assert state.legal_ids(), "own clans stay possible"
    who = state.name(p)
    occupied = {d for d in state.daughters if d is not None}
    for q, pl in enumerate(state.players):
        for cid in pl.clans:
            key = A.clan_key(q, cid)
            if q != p and (q, cid) not in occupied:
                refused_all_ways(state, f"marry {key}", f"{who} has no Tadokoro to pay")
    for face in state.princes:
        if (-1, face) not in occupied:
            refused_all_ways(state, f"marry {face}", f"{who} has no Tadokoro to pay")
    for aid in state.legal_ids():
        owner, _ = state.target_of(A.MARRY_OF[aid])
        assert owner == p, f"{A.TEXTS[aid]} legal without a Tadokoro"


def test_marry_a_card_nobody_owns_or_a_hidden_prince() -> None:
    """Only cards in a Clan cards row and the three Prince faces showing are targets."""
    state = play_until(at_step("marry"))
    assert state.round < 9
    for face in ("803", "804", "805"):
        refused_all_ways(state, f"marry {face}", "no Royal Prince shows this face now")
    for cid in ("401", "600", "004"):
        refused_all_ways(state, f"marry {cid}", "in nobody's Clan cards row")
    late = play_until(lambda s: at_step("marry")(s) and s.round >= 9)
    for face in ("800", "801", "802"):
        refused_all_ways(late, f"marry {face}", "no Royal Prince shows this face now")


# ------------------------------------------------------------------ production


def test_obtain_a_card_you_cannot_pay_for() -> None:
    """A Supply card whose cost the pool and items cannot cover is refused with the cost
    and what the seat has."""
    def unaffordable(s: ClansmanState) -> bool:
        return at_step("produce")(s) and any(
            A.OBTAIN[c] not in s.legal_ids() for c in s.supply)

    state = play_until(unaffordable)
    p = mover(state)
    cid = next(c for c in state.supply if A.OBTAIN[c] not in state.legal_ids())
    message = refused_all_ways(state, f"obtain {cid}", f"{state.card_name(cid)} costs",
                               f"and {state.name(p)} has")
    assert "worker" in message or "nothing" in message


def test_obtain_two_tadokoro_without_iron() -> None:
    """Option F costs 2 Workers + 1 Iron: refused without the Iron."""
    state = play_until(lambda s: at_step("produce")(s) and s.players[mover(s)].iron == 0)
    refused_all_ways(state, "obtain 2 tadokoro", "costs 2 workers + 1 iron")


def test_obtain_a_card_neither_in_supply_nor_hand() -> None:
    """A century card elsewhere (pile, other hand, tableau) cannot be obtained."""
    state = play_until(at_step("produce"))
    p = mover(state)
    here = set(state.supply) | set(state.players[p].hand)
    for cid in ("715", state.piles[-1][0]):
        assert cid not in here
        refused_all_ways(state, f"obtain {cid}", f"{cid} is neither in the Supply nor in "
                         f"{state.name(p)}'s hand")


def test_obtain_a_kofun_in_the_beginner_game() -> None:
    """Kofun are Expert-only."""
    state = play_until(at_step("produce"))
    for kofun in ("200", "201", "202", "203"):
        refused_all_ways(state, f"obtain {kofun}", "Kofun cards are used only in the Expert")


def test_a_second_kofun_or_one_taken() -> None:
    """A player obtains at most one Kofun; a Kofun another player took is gone."""
    def kofun_holder(s: ClansmanState) -> bool:
        return at_step("produce")(s) and s.players[mover(s)].kofun is not None and bool(s.kofun)

    state = play_until(kofun_holder, EXPERT, seeds=range(400))
    pl = state.players[mover(state)]
    for kid in state.kofun:
        refused_all_ways(state, f"obtain {kid}", f"already has a Kofun ({pl.kofun})")

    def kofun_taken(s: ClansmanState) -> bool:
        return at_step("produce")(s) and s.players[mover(s)].kofun is None and len(s.kofun) < 4

    state = play_until(kofun_taken, EXPERT, seeds=range(400))
    gone = next(k for k in ("200", "201", "202", "203") if k not in state.kofun)
    refused_all_ways(state, f"obtain {gone}", "that Kofun was taken by another player")


def test_using_a_conversion_twice() -> None:
    """One card converts only once in every round (line 214), whichever output is asked."""
    def used_one(s: ClansmanState) -> bool:
        return at_step("produce")(s) and any(u[0] in s.used for u in s.usable)

    state = play_until(used_one)
    key, _, cid = next(u for u in state.usable if u[0] in state.used)
    for use in state.data.cards[cid].uses:
        text = A.TEXTS[A.CONVERT[(key, use.key)]]
        refused_all_ways(state, text, "a card converts only once in every round")


def test_conversion_without_enough_workers() -> None:
    """A conversion needs its full input in the pool; there is no partial use (R06)."""
    def short(s: ClansmanState) -> bool:
        if not at_step("produce")(s):
            return False
        return any(u[0] not in s.used and any(
            dict(use.inp).get(0, 0) > s.pool[0] for use in s.data.cards[u[2]].uses)
            for u in s.usable)

    state = play_until(short)
    key, _, cid = next(u for u in state.usable if u[0] not in state.used and any(
        dict(use.inp).get(0, 0) > state.pool[0] for use in state.data.cards[u[2]].uses))
    use = next(x for x in state.data.cards[cid].uses if dict(x.inp).get(0, 0) > state.pool[0])
    refused_all_ways(state, A.TEXTS[A.CONVERT[(key, use.key)]], "it needs",
                     f"the pool has {state.pool[0]} worker(s)")


def test_conversion_to_a_good_the_card_does_not_make() -> None:
    """A card yields only its printed outputs: 300 makes Soldiers, never Horses."""
    state = play_until(lambda s: at_step("produce")(s) and any(
        u[2] == "300" and u[0] not in s.used for u in s.usable))
    key = next(u[0] for u in state.usable if u[2] == "300" and u[0] not in state.used)
    refused_all_ways(state, f"convert {key} horse", "cannot yield horse")


def test_convert_a_card_occupied_by_another_daughter() -> None:
    """The owner may not use his own clan while another player's daughter is on it (R05)."""
    def blocked(s: ClansmanState) -> bool:
        if not at_step("produce")(s):
            return False
        p = mover(s)
        return any(d is not None and d[0] == p and q != p for q, d in enumerate(s.daughters))

    state = play_until(blocked)
    p = mover(state)
    q, (_, cid) = next((q, d) for q, d in enumerate(state.daughters)
                       if d is not None and d[0] == p and q != p)
    use = state.data.cards[cid].uses[0]
    refused_all_ways(state, A.TEXTS[A.CONVERT[(A.clan_key(p, cid), use.key)]],
                     f"{state.name(q)}'s daughter is on it", "(R05)")


def test_convert_another_players_clan_without_a_daughter_on_it() -> None:
    """Another player's clan is usable only by the daughter on it (R04)."""
    state = play_until(at_step("produce"))
    p = mover(state)
    other = (p + 1) % 4
    target = (other, "300")
    assert state.daughters[p] != target
    refused_all_ways(state, f"convert {A.clan_key(other, '300')} soldier",
                     "his own cards not occupied by another daughter; this is neither")


def test_convert_a_prince_without_a_daughter_on_it() -> None:
    """A Royal Prince is used only by the player whose daughter married it."""
    state = play_until(lambda s: at_step("produce")(s) and s.round < 9
                       and s.daughters[mover(s)] != (-1, "800"))
    p = mover(state)
    refused_all_ways(state, "convert 800 iron", f"{state.name(p)}'s daughter is not on this "
                     "Royal Prince")


def test_convert_a_card_nobody_owns() -> None:
    """Converting with a century clan nobody has obtained is refused with a true reason
    (it once claimed the daughter was 'not on this Royal Prince')."""
    state = play_until(lambda s: at_step("produce")(s)
                       and all("401" not in pl.clans for pl in s.players))
    message = refused_all_ways(state, "convert 401 soldier", "401 is in nobody's Clan cards row")
    assert "Royal Prince" not in message, message


def test_a_hero_twice_in_a_game() -> None:
    """A player takes one Hero in the whole game (R19); another's Hero is gone."""
    def hero_holder(s: ClansmanState) -> bool:
        return at_step("produce")(s) and s.players[mover(s)].hero is not None and bool(s.heroes)

    state = play_until(hero_holder)
    p = mover(state)
    mine = state.players[p].hero
    for h in state.heroes:
        refused_all_ways(state, f"hero {h}", f"{state.name(p)} already used a Hero ({mine})")
    refused_all_ways(state, f"hero {mine}", "already used a Hero")

    def hero_taken(s: ClansmanState) -> bool:
        return at_step("produce")(s) and s.players[mover(s)].hero is None and len(s.heroes) < 4

    state = play_until(hero_taken)
    gone = next(h for h in ("900", "901", "902", "903") if h not in state.heroes)
    refused_all_ways(state, f"hero {gone}", "that Hero was taken by another player")


def test_hero_taken_this_turn_cannot_be_taken_again() -> None:
    """Taking a Hero, then the same or another one in the same turn, is refused."""
    state = play_until(lambda s: at_step("produce")(s) and s.players[mover(s)].hero is None
                       and len(s.heroes) >= 2)
    first, second = state.heroes[0], state.heroes[1]
    state.apply(GAME.parse_action(state, f"hero {first}"))
    assert state.step == "produce"
    refused_all_ways(state, f"hero {first}", "already used a Hero")
    refused_all_ways(state, f"hero {second}", "already used a Hero")


# ------------------------------------------------------------ setup and JSON


@pytest.mark.parametrize("players", [3, 5, 2, 1, 0])
def test_other_player_counts_need_the_variant(players: int) -> None:
    """Only 4 players without the unofficial variant; the message names it."""
    with pytest.raises(ValueError, match="small-table") as info:
        GAME.new_game(players, 1)
    assert str(players) in str(info.value) and "4 players" in str(info.value)


@pytest.mark.parametrize("players", [4, 5, 1])
def test_small_table_only_for_two_or_three(players: int) -> None:
    """The small-table variant is for 2 or 3 players only."""
    with pytest.raises(ValueError, match="2 or 3 players") as info:
        GAME.new_game(players, 1, variant="small-table")
    assert str(players) in str(info.value)
    for ok in (2, 3):
        assert GAME.new_game(ok, 1, variant="small-table").n == ok


@pytest.mark.parametrize("players", ["4", 4.0, True, None])
def test_player_count_must_be_an_integer(players: Any) -> None:
    """A player count that is not an int is refused."""
    with pytest.raises(ValueError):
        GAME.new_game(players, 1)


def test_unknown_option() -> None:
    """An unknown option is refused, naming it and the known ones."""
    with pytest.raises(ValueError, match="unknown option") as info:
        GAME.new_game(4, 1, fast_mode=True)
    assert "fast_mode" in str(info.value)
    assert "expert" in str(info.value) and "emperor_side" in str(info.value)


def test_unknown_variant() -> None:
    """Only the small-table variant exists."""
    with pytest.raises(ValueError, match="small-table"):
        GAME.new_game(4, 1, variant="big-table")


@pytest.mark.parametrize("options", [{"emperor_side": "A"}, {"emperor_side": "B"},
                                     {"expert": False, "emperor_side": "B"},
                                     {"emperor_variant": "008"}])
def test_emperor_options_need_expert(options: dict[str, Any]) -> None:
    """Emperor cards are Expert-only: their options without expert=True are refused."""
    with pytest.raises(ValueError, match="expert=True"):
        GAME.new_game(4, 1, **options)


@pytest.mark.parametrize("side", ["C", "", "AB", 1])
def test_bad_emperor_side(side: Any) -> None:
    """The side is 'A' or 'B'."""
    with pytest.raises(ValueError, match="emperor_side must be 'A' or 'B'"):
        GAME.new_game(4, 1, expert=True, emperor_side=side)


def test_emperor_side_is_case_insensitive_and_canonical() -> None:
    """'b' is side B, stored as 'B'; Expert without a side is side A, stored explicitly."""
    assert GAME.new_game(4, 1, expert=True, emperor_side="b").options["emperor_side"] == "B"
    assert GAME.new_game(4, 1, expert=True).options == {"expert": True, "emperor_side": "A"}


@pytest.mark.parametrize("value", ["000", "007", "010", "", 8, "foo"])
def test_bad_emperor_variant(value: Any) -> None:
    """Only the optional faces 008 and 009 can be put in play (R32)."""
    with pytest.raises(ValueError, match="emperor_variant"):
        GAME.new_game(4, 1, expert=True, emperor_variant=value)


@pytest.mark.parametrize("value", [-1, 4, "1", True])
def test_bad_start_player(value: Any) -> None:
    """The start player is a seat number."""
    with pytest.raises(ValueError, match="start_player"):
        GAME.new_game(4, 1, start_player=value)


@pytest.mark.parametrize("value", ["yes", 1, 0, 1.0])
def test_bad_expert_value(value: object) -> None:
    """expert is a boolean: "yes", 1 or 0 are refused with the value, not read as true
    or false (1 == True in Python, which the check once let through)."""
    with pytest.raises(ValueError, match="expert must be true or false"):
        GAME.new_game(4, 1, expert=value)


def _corruptions() -> list[tuple[str, Callable[[dict[str, Any]], object]]]:
    """Ways to break a state's JSON with values of the right type the game cannot hold,
    each named for the test id (a field missing or of another type: tests/contract/)."""
    def put(key: str, value: object) -> Callable[[dict[str, Any]], object]:
        return lambda d: d.__setitem__(key, value)

    return [
        ("players-seven", put("players", 7)),
        ("piles-three", lambda d: d["piles"].pop()),
        ("gozoku-short", lambda d: d["gozoku"].pop()),
        ("unknown-card", lambda d: d["supply"].append("999")),
        ("unknown-hand-card", lambda d: d["gozoku"][1]["hand"].append("x")),
        ("daughter-short", put("daughters", [[0], None, None, None])),
        ("round-17", put("round", 17)),
        ("phase-unknown", put("phase", "lunch")),
        ("step-unknown", put("step", "dance")),
        ("payment-without-card", put("step", "payment")),
        ("pool-short", put("pool", [0, 0])),
        ("start-seat-9", put("start", 9)),
        ("usable-short", put("usable", [["300 blue"]])),
    ]


@pytest.mark.parametrize(("name", "corrupt"), _corruptions(), ids=[c[0] for c in _corruptions()])
def test_from_json_of_a_corrupt_state(name: str,
                                      corrupt: Callable[[dict[str, Any]], object]) -> None:
    """A state holding what the game cannot have raises RecordError (not KeyError...)."""
    state = play_until(lambda s: at_step("produce")(s) and s.round >= 2, EXPERT)
    good = json.loads(json.dumps(state.to_json()))
    assert GAME.from_json(copy.deepcopy(good)).dumps() == state.dumps()
    bad = copy.deepcopy(good)
    corrupt(bad)
    with pytest.raises(RecordError, match="I, Clansman"):
        GAME.from_json(bad)


def _inconsistent() -> list[Any]:
    """Well-typed state dicts that break the game's invariants; from_json refuses them
    (consistency.py), each case named with the inconsistency it introduces."""
    def pile_top(d: dict[str, Any]) -> str:
        top: str = d["piles"][3][0]
        return top

    cases: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
        ("card-in-two-places", lambda d: d["supply"].append(pile_top(d)),
         "a century card in two places"),
        ("card-missing", lambda d: d["piles"][3].pop(), "a century card that vanished"),
        ("hero-in-two-places", lambda d: d["gozoku"][0].__setitem__("hero", d["heroes"][0]),
         "a Hero both in the centre and a player's"),
        ("hero-not-a-hero", lambda d: d["gozoku"][0].__setitem__("hero", "405"),
         "a Mission card as a player's Hero"),
        ("negative-tadokoro", lambda d: d["gozoku"][0].__setitem__("tadokoro", -3),
         "negative Tadokoro"),
        ("tadokoro-not-conserved", lambda d: d.__setitem__("bank_tadokoro",
                                                           d["bank_tadokoro"] + 5),
         "Tadokoro + Miyake + Bank != 32"),
        ("negative-pool", lambda d: d.__setitem__("pool", [-1] * 10), "a negative pool"),
        ("daughter-on-unknown-card", lambda d: d.__setitem__(
            "daughters", [[0, "999"], None, None, None]), "a daughter on an unknown card"),
        ("usable-unknown-key", lambda d: d.__setitem__("usable", [["zzz", 0, "300"]]),
         "an unknown usable key (legal_ids() then raises KeyError)"),
        ("hand-step-empty-supply", lambda d: d.update(step="hand", supply=[]),
         "a 'hand' decision with an empty Supply (no legal action, not over)"),
        ("one-prince", lambda d: d.__setitem__("princes", ["800"]),
         "one Royal Prince face instead of three"),
        ("turn-out-of-range", lambda d: d.__setitem__("turn", 99), "turn 99 of 4 seats"),
        ("emperors-short", lambda d: d.__setitem__("emperors", ["000"]),
         "one Emperor face in an Expert game"),
    ]
    return [pytest.param(corrupt, id=name) for name, corrupt, _ in cases]


@pytest.mark.parametrize("corrupt", _inconsistent())
def test_from_json_of_an_inconsistent_state(corrupt: Callable[[dict[str, Any]], object]) -> None:
    """A state breaking the invariants (cards, Tadokoro, decisions) raises RecordError, and a
    state it accepts must at least answer legal_ids() without crashing."""
    state = play_until(lambda s: at_step("produce")(s) and s.round >= 2, EXPERT)
    bad = json.loads(json.dumps(state.to_json()))
    corrupt(bad)
    with pytest.raises(RecordError, match="I, Clansman"):
        accepted = GAME.from_json(bad)
        # Reached only when accepted: it must still be playable to count as "not corrupt".
        if not accepted.is_over():
            assert accepted.legal_ids(), "accepted a state with no legal action"


def test_from_json_bad_data_overlay() -> None:
    """A state whose options carry a malformed data overlay is refused."""
    state = GAME.new_game(4, 1)
    bad = state.to_json()
    bad["options"] = {"data_overlay": "not an object"}
    with pytest.raises(RecordError, match="data_overlay"):
        GAME.from_json(bad)
