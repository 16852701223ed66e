"""A well-typed but inconsistent White Castle state is refused by GAME.from_json.

Each case takes the JSON of a real mid-game state (seeded uniform-random play, round 2,
at a 'take a die' decision, with courtiers, gardeners and warriors already sent out),
breaks one invariant the engine keeps, and checks that `GAME.from_json` raises
RecordError with a message naming that inconsistency (consistency.py). That valid states
load to the identical state and fields missing or of another type are refused is
checked for every game in tests/contract/.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from kamon.core.errors import RecordError
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME, WhiteCastleState

Corrupt = Callable[[dict[str, Any]], object]


def _ready(s: WhiteCastleState) -> bool:
    """Round 2, a 'take' decision, and clan 0 has every kind of worker both out and left."""
    if s.round != 2 or not s.stack or s.stack[-1].kind != "take":
        return False
    c = s.clans[0]
    out = (len(c.courtiers), sum(w.count(0) for w in s.garden_workers), len(c.warriors))
    return min(out) >= 1 and min(c.left) >= 1


@cache
def _base_text(players: int) -> str:
    """The JSON text of the first `_ready` state of seeded random play (solo: round 2)."""
    options: dict[str, Any] = {"difficulty": "medium"} if players == 1 else {}
    ready = _ready if players > 1 else (
        lambda s: s.round == 2 and bool(s.stack) and s.stack[-1].kind == "take")
    for seed in range(300):
        state = GAME.new_game(players, seed, **options)
        rng = Rng(seed)
        while not state.is_over():
            if ready(state):
                return state.dumps()
            ids = state.legal_ids()
            state.apply(ids[rng.below(len(ids))])
    raise AssertionError("no suitable state found")


def base(players: int = 3) -> dict[str, Any]:
    """A fresh copy of the base state's JSON."""
    data: dict[str, Any] = json.loads(_base_text(players))
    return data


def _bridge_with(d: dict[str, Any], k: int) -> int:
    """A bridge holding at least k dice (k distinct values when k > 1)."""
    return next(b for b, dice in enumerate(d["bridges"]) if len(set(dice)) >= k)


def _add_die(d: dict[str, Any]) -> None:
    """One die too many: a 6 at the right end of a bridge."""
    d["bridges"][0].append(6)


def _die_value_7(d: dict[str, Any]) -> None:
    """A die showing 7."""
    d["bridges"][_bridge_with(d, 1)][-1] = 7


def _descending(d: dict[str, Any]) -> None:
    """A bridge out of order."""
    b = _bridge_with(d, 2)
    d["bridges"][b] = sorted(d["bridges"][b], reverse=True)


def _held_without_place(d: dict[str, Any]) -> None:
    """A die taken into hand while the decision is still 'take'."""
    b = _bridge_with(d, 1)
    d["held"] = [b, d["bridges"][b].pop(0), True]


def _workers(kind: int) -> Corrupt:
    """One worker of a kind vanishes from clan 0's domain."""
    def corrupt(d: dict[str, Any]) -> None:
        d["clans"][0]["left"][kind] -= 1
    return corrupt


def _gardener_vanishes(d: dict[str, Any]) -> None:
    """Clan 0's gardener disappears from its garden."""
    g = next(g for g, w in enumerate(d["garden_workers"]) if 0 in w)
    d["garden_workers"][g].remove(0)


def _courtier_at_7(d: dict[str, Any]) -> None:
    """A courtier sent to location 7 (locations are 0-6), workers still adding up."""
    d["clans"][0]["left"][0] -= 1
    d["clans"][0]["courtiers"].append(7)


def _warrior_in_yard_4(d: dict[str, Any]) -> None:
    """A warrior in a fourth yard."""
    d["clans"][0]["left"][2] -= 1
    d["clans"][0]["warriors"].append(3)


def _clan(field: str, value: Any) -> Corrupt:
    """Clan 0's field set to a value."""
    return lambda d: d["clans"][0].__setitem__(field, value)


def _top_frame(value: list[Any]) -> Corrupt:
    """The decision now replaced."""
    return lambda d: d["stack"].__setitem__(-1, value)


def _other_seat(d: dict[str, Any]) -> None:
    """Another clan decides during the current turn."""
    frame = d["stack"][-1]
    frame[1] = (frame[1] + 1) % d["players"]


def _swap_gardens(d: dict[str, Any]) -> None:
    """A stone garden in a plant slot."""
    g = d["garden_cards"]
    g[0], g[1] = g[1], g[0]


def _second_resource_card(d: dict[str, Any]) -> None:
    """Clan 1 also has clan 0's starting resource card."""
    d["clans"][1]["lantern"].append(d["clans"][0]["lantern"][0])


CASES: list[tuple[str, Corrupt, str]] = [
    ("dice-not-conserved", _add_die, "coral dice in play"),
    ("die-value-7", _die_value_7, "showing 7"),
    ("bridge-not-ascending", _descending, "not in ascending order"),
    ("held-without-place", _held_without_place, "a die in hand without a 'place' decision"),
    ("placements", lambda d: d["placements"].__setitem__(0, d["placements"][0] + 1),
     "the clans have placed"),
    ("resource-8", lambda d: d["clans"][0]["res"].__setitem__(1, 8), "resources"),
    ("seals-6", _clan("seals", 6), "has 6 Daimyo seals"),
    ("coins-negative", _clan("coins", -1), "has -1 coins"),
    ("cp-negative", _clan("cp", -4), "has -4 CP"),
    ("passage-21", _clan("pos", 21), "at 21 on the Passage of Time"),
    ("courtiers-not-conserved", _workers(0), "courtiers in the domain"),
    ("warriors-not-conserved", _workers(2), "warriors in the domain"),
    ("gardener-vanished", _gardener_vanishes, "gardeners in the domain"),
    ("courtier-location-7", _courtier_at_7, "courtiers are at"),
    ("warrior-yard-4", _warrior_in_yard_4, "warriors are in yards"),
    ("seq-shared", lambda d: d["clans"][1].__setitem__("seq", d["clans"][0]["seq"]),
     "share a stacking order"),
    ("castle-card-twice", lambda d: d["steward_deck"].append(d["room_cards"][0]),
     "is in 2 places"),
    ("castle-card-missing", lambda d: d["diplomat_deck"].pop(), "is nowhere"),
    ("castle-card-unknown", lambda d: d["room_cards"].__setitem__(0, "steward_99"),
     "no castle card"),
    ("castle-card-wrong-deck", lambda d: d["room_cards"].__setitem__(
        0, d["diplomat_deck"].pop()), "a diplomat card"),
    ("start-resource-twice", _second_resource_card, "2 starting resource card(s)"),
    ("room-one-colour", lambda d: d["room_tiles"].__setitem__(0, [1, 1, 1]),
     "shows one die colour only"),
    ("room-tile-colour-5", lambda d: d["room_tiles"].__setitem__(3, [0, 5]),
     "die-tile colours"),
    ("tiles-not-15", lambda d: d["room_tiles"].__setitem__(
        3, [0, 1] if d["room_tiles"][3] != [0, 1] else [0, 2]), "the game has 5 coral"),
    ("well-tiles-same", lambda d: d["well_tiles"].__setitem__(1, d["well_tiles"][0]),
     "the Well tiles"),
    ("garden-kind", _swap_gardens, "a stone card"),
    ("daimyo-card-unknown", lambda d: d.__setitem__("daimyo_card", "daimyo_99"),
     "unknown Daimyo card"),
    ("daimyo-slot-seat-9", lambda d: d["daimyo_slots"].__setitem__(0, 9), "not a seat"),
    ("daimyo-slot-no-courtier", lambda d: d["daimyo_slots"].__setitem__(
        0, next(p for p, c in enumerate(d["clans"]) if 6 not in c["courtiers"])),
     "slot(s) of the Daimyo's favour with 0 courtier(s)"),
    ("yard-effects", lambda d: d["yard_effects"].__setitem__(0, [["fly"]]),
     "training yards"),
    ("round-4", lambda d: d.__setitem__("round", 4), "round 4"),
    ("phase-unknown", lambda d: d.__setitem__("phase", "lunch"), "unknown phase 'lunch'"),
    ("over-with-a-decision", lambda d: d.update(phase="over", round=2),
     "over in round 2"),
    ("order-not-a-permutation", lambda d: d["order"].__setitem__(0, d["order"][1]),
     "is not an order of the seats"),
    ("frame-unknown", _top_frame(["dance", 0]), "unknown decision frame"),
    ("frame-too-short", _top_frame(["effects", 0]), "has 2 fields; 'effects' frames have 4"),
    ("frame-bad-effect", lambda d: d["stack"].append(["effects", d["stack"][-1][1],
                                                      [["fly", 2]], "x"]),
     "effects=(('fly', 2),), source='x') is malformed"),
    ("frame-other-seat", _other_seat, "during"),
    ("frame-block-offered-twice", lambda d: d["stack"].append(
        ["blocks", d["stack"][-1][1], [[0, 0], [0, 0]], True, True, "x"]), "is malformed"),
    ("frame-worker-offered-twice", lambda d: d["stack"].append(
        ["outside", d["stack"][-1][1], [1, 1]]), "is malformed"),
    ("no-decision", lambda d: d.__setitem__("stack", []), "no decision pending"),
    ("turn-index", lambda d: d.__setitem__("turn_idx", d["turn_idx"] + d["players"]),
     "dice taken from the bridges"),
    ("unknown-option", lambda d: d["options"].__setitem__("turbo", True),
     "unknown option(s) turbo"),
    ("solo-difficulty-without-rival", lambda d: d["options"].__setitem__(
        "difficulty", "hard"), "difficulty option and the solo rival"),
    ("history-id", lambda d: d["history"].append(10_000), "action id 10000"),
    ("draft-pairs", lambda d: d["draft_pairs"].append(None), "starting pairs"),
]


@pytest.mark.parametrize(("corrupt", "fragment"), [pytest.param(c, f, id=n) for n, c, f in CASES])
def test_an_inconsistent_state_is_refused(corrupt: Corrupt, fragment: str) -> None:
    """from_json refuses the state with a RecordError naming the inconsistency."""
    good = base()
    assert GAME.from_json(copy.deepcopy(good)).dumps() == _base_text(3)
    bad = copy.deepcopy(good)
    corrupt(bad)
    with pytest.raises(RecordError, match="not a White Castle state") as info:
        GAME.from_json(bad)
    assert fragment in str(info.value), f"{fragment!r} not in {str(info.value)!r}"


SOLO_CASES: list[tuple[str, Corrupt, str]] = [
    ("solo-deck-short", lambda d: d["solo_deck"].pop(), "the Solitaire deck"),
    ("solo-rival-clan-0", lambda d: d.__setitem__("rival", 0), "the solo rival is clan 0"),
    ("solo-three-clans", lambda d: d.__setitem__("players", 3), "the solo rival is clan 1 of 3"),
    ("solo-rival-decides", lambda d: d["stack"][-1].__setitem__(1, 1),
     "is for the solo rival (clan 1), which never decides"),
    ("solo-draft-pairs", lambda d: d["draft_pairs"].append(["start_resource_1",
                                                            "start_action_courtier"]),
     "starting pairs to draft in a solo game"),
]


@pytest.mark.parametrize(("corrupt", "fragment"),
                         [pytest.param(c, f, id=n) for n, c, f in SOLO_CASES])
def test_an_inconsistent_solo_state_is_refused(corrupt: Corrupt, fragment: str) -> None:
    """The solo game's own pieces (rival, Solitaire deck) are checked too."""
    good = base(1)
    assert GAME.from_json(copy.deepcopy(good)).dumps() == _base_text(1)
    bad = copy.deepcopy(good)
    corrupt(bad)
    with pytest.raises(RecordError, match="not a White Castle state") as info:
        GAME.from_json(bad)
    assert fragment in str(info.value), f"{fragment!r} not in {str(info.value)!r}"


def test_a_state_whose_legal_actions_fail_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """If computing the legal actions crashes, or finds none before the end, the state
    is refused with a RecordError saying so (never a KeyError later in play)."""
    text = _base_text(3)

    def crash(self: WhiteCastleState) -> list[int]:
        raise KeyError("zzz")

    monkeypatch.setattr(WhiteCastleState, "_compute_legal", crash)
    with pytest.raises(RecordError, match="legal actions cannot be computed"):
        GAME.from_json(json.loads(text))
    monkeypatch.setattr(WhiteCastleState, "_compute_legal", lambda self: [])
    with pytest.raises(RecordError, match="no legal action although the game is not over"):
        GAME.from_json(json.loads(text))


def test_a_state_with_a_malformed_overlay_is_refused_as_a_record_error() -> None:
    """An overlay in the options that is not an object, or names no component, is refused
    as a RecordError (not a DataError from deep inside)."""
    data = GAME.new_game(2, 1).to_json()
    data["options"] = {"data_overlay": "x"}
    with pytest.raises(RecordError, match="data_overlay"):
        GAME.from_json(data)
    data["options"] = {"data_overlay": {"gardens": {"cards": [{"id": "nope", "cp": 1}]}}}
    with pytest.raises(RecordError, match="overlay is malformed"):
        GAME.from_json(data)
