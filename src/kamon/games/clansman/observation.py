"""I, Clansman as a fixed-size vector of numbers, built from one seat's `view` only.

`encode(view)` turns `state.view(seat)` (plain JSON-like data; the century piles appear as
their sizes only) into SIZE float32 values, every one in [0, 1]. Counts are divided by a
cap and clipped at 1 ("/cap" in a field's meaning); one-hot and multi-hot fields are 0/1.
Seats are seen from the observer: seat slot k is the seat (seat + k) mod players, so slot 0
is always the observing seat (seat 0 for a spectator, `view(None)`). `FIELDS` names every
slice; docs/OBSERVATIONS.md is generated from it. The reinforcement-learning interfaces
(kamon.rl) use this encoding for all three frameworks, through `encode_state(state, seat)`
(observation_state.py): the same vector bit for bit, read straight from the state without
building the view. Cards are identified by their printed number, one-hot over the bundled
card data (an overlay may correct a card but never adds one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from kamon.core.layout import Field, Layout
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import GOODS, KOCHISEI, VOLATILE, VP_COLOURS, load_data

if TYPE_CHECKING:
    pass

GAME_NAME = "clansman"
SEAT_SLOTS = 4
MARGIN_SCALE = 30.0  # a VP margin this large counts as a decisive win (kamon.rl rewards)

_DATA = load_data()
CENTURY_CARDS: tuple[str, ...] = A.CENTURY_CARDS
CLAN_ROW: tuple[str, ...] = (KOCHISEI,) + A.CLAN_CARDS
MISSIONS: tuple[str, ...] = tuple(sorted(c.id for c in _DATA.cards.values()
                                         if c.type == "mission"))
PRINCES: tuple[str, ...] = A.PRINCES
HEROES: tuple[str, ...] = _DATA.heroes
KOFUN: tuple[str, ...] = _DATA.kofun
EMPERORS: tuple[str, ...] = tuple(sorted(c.id for c in _DATA.cards.values()
                                         if c.type == "emperor"))
PENDING_CARDS: tuple[str, ...] = CENTURY_CARDS + KOFUN
# Cards a seat may use in its Production turn: the Kochisei-Shuraku of seat slot 0-3, the
# other clan-row cards, the Royal Princes.
USE_TARGETS: tuple[str, ...] = (tuple(f"{KOCHISEI} slot {k}" for k in range(SEAT_SLOTS))
                                + A.CLAN_CARDS + PRINCES)
PHASES = ("marriage", "production", "over")
STEPS = ("marry", "produce", "payment", "hand")
CENTURIES = (4, 5, 6, 7)
ROUNDS = 16
ITEMS = ("tadokoro", "iron", "statue", "mirror", "kofun_mirrors")  # a seat's items field
SCORE_KEYS = ("military_missions", "religion_missions", "religion_kofun",
              "religion_kofun_mirrors", "religion_statues", "government_missions",
              "economy_missions", "others_missions", "others_emperors", "total")




# ---------------------------------------------------------------- the layout
_G = Layout()
G_PRESENT = _G.add("present", 1, "1 if this seat slot is in the game")
G_TO_MOVE = _G.add("to_move", 1, "1 if this seat decides now")
G_START = _G.add("start_player", 1, "1 if this seat is the start player")
G_ITEMS = _G.add("items", 5, "Tadokoro, Iron, Statues, Mirrors, Mirrors under the Kofun",
                 cap=(20, 10, 10, 10, 10))
G_CLANS = _G.add("clan_row", len(CLAN_ROW), "multi-hot: the Clan cards row (CLAN_ROW)")
G_MISSIONS = _G.add("missions", len(MISSIONS), "multi-hot: the Mission cards obtained "
                                               "(MISSIONS)")
G_HAND = _G.add("hand", len(CENTURY_CARDS), "multi-hot: the cards in hand (public, R08), "
                                            "over CENTURY_CARDS")
G_KOFUN = _G.add("kofun", len(KOFUN), "one-hot: the seat's Kofun (KOFUN; none = all 0)")
G_HERO = _G.add("hero", len(HEROES), "one-hot: the Hero the seat took (HEROES; none "
                                        "= all 0)")
G_EMPERORS = _G.add("emperors", len(EMPERORS), "multi-hot: Emperor cards won (EMPERORS)")
G_OBTAINED = _G.add("obtained", 3, "rounds in which the seat obtained a card, 2 Tadokoro "
                                   "(option F), 1 Tadokoro (option G)", cap=ROUNDS)
G_DAUGHTER = _G.add("daughter", 1 + len(PRINCES) + SEAT_SLOTS + len(CLAN_ROW),
                    "where the seat's daughter is married this round: (married, one-hot over "
                    "PRINCES, one-hot owner seat slot of the clan card, one-hot over CLAN_ROW)")
G_SCORE = _G.add("score", len(SCORE_KEYS), "current VPs by source, then the total "
                                           "(SCORE_KEYS)",
                 cap=(20,) * (len(SCORE_KEYS) - 1) + (60,))
G_COLOUR = _G.add("vp_by_colour", len(VP_COLOURS), "VPs by colour (military, religion, "
                                                   "government, economy, others)", cap=30)

_L = Layout()
SEAT = _L.add("seat", SEAT_SLOTS, "one-hot: the observing seat's absolute number (a few "
                                  "actions name a seat's colour)")
MODE = _L.add("mode", 5, "expert, Emperor side A, side B, the unofficial Emperor variant, the "
                         "unofficial small-table variant")
PLAYERS = _L.add("players", 3, "one-hot: 2, 3 or 4 players")
SEATS = _L.repeated("seat", _G, SEAT_SLOTS)
ROUND = _L.add("round", ROUNDS, "one-hot: round 1-16")
CENTURY = _L.add("century", len(CENTURIES), "one-hot: century 4-7")
PHASE = _L.add("phase", len(PHASES), "one-hot: phase (marriage, production, over)")
STEP = _L.add("step", len(STEPS), "one-hot: the decision now (marry, produce, payment, hand)")
TURN = _L.add("turn", 1, "turns taken in this phase / players")
PILES = _L.add("piles", len(CENTURIES), "cards left in the century 4-7 piles (their "
                                        "order is hidden)", cap=16)
SUPPLY = _L.add("supply", len(CENTURY_CARDS), "multi-hot: the Supply (CENTURY_CARDS)")
DISCARD = _L.add("discard", len(CENTURY_CARDS), "multi-hot: Supply cards discarded at a "
                                                "century's start (CENTURY_CARDS)")
PRINCES_UP = _L.add("princes", len(PRINCES), "multi-hot: the Royal Prince faces showing (PRINCES)")
MIYAKE = _L.add("miyake", 3, "Miyake cards, Tadokoro in the Miyake row, Tadokoro in the Bank",
                cap=(8, 4, 30))
HEROES_LEFT = _L.add("heroes", len(HEROES), "multi-hot: Heroes left in the centre (HEROES)")
KOFUN_LEFT = _L.add("kofun_left", len(KOFUN), "multi-hot: Kofun left in the centre (KOFUN)")
EMPERORS_IN = _L.add("emperors_in_play", len(EMPERORS), "multi-hot: the Emperor faces in play (EMPERORS)")
EMPERORS_LEFT = _L.add("emperors_left", len(EMPERORS), "multi-hot: Emperor faces still in the "
                                                       "centre (EMPERORS)")
SET_ASIDE = _L.add("set_aside", len(EMPERORS), "multi-hot: Emperor faces nobody won (EMPERORS)")
POOL = _L.add("pool", VOLATILE, "the producing seat's workforce (" + ", ".join(
    GOODS[:VOLATILE]) + ")", cap=10)
USABLE = _L.add("usable", len(USE_TARGETS), "multi-hot: cards the producing seat may use "
                                            "this turn (USE_TARGETS: the Kochisei-Shuraku of "
                                            "seat slot 0-3, clan-like cards, Royal Princes)")
USED = _L.add("used", len(USE_TARGETS), "multi-hot: cards already used this round "
                                        "(USE_TARGETS)")
LOCK = _L.add("statue_lock", 1, "Statues the producing seat may not spend this turn", cap=2)
PENDING = _L.add("pending", len(PENDING_CARDS), "one-hot: the card chosen and awaiting its "
                                                "payment decision (PENDING_CARDS)")

SIZE = _L.size
FIELDS: tuple[Field, ...] = tuple(_L.fields)
CAP_G = _G.caps_by_start()  # a seat block's caps (declared above, once), by field start
CAP = _L.caps_by_start()  # the vector's caps, by field start

# The ordered lists the one-hot and multi-hot fields index (docs/OBSERVATIONS.md lists them).
VOCABULARIES: dict[str, tuple[str, ...]] = {
    "CENTURY_CARDS": CENTURY_CARDS, "CLAN_ROW": CLAN_ROW, "MISSIONS": MISSIONS,
    "PRINCES": PRINCES, "HEROES": HEROES, "KOFUN": KOFUN, "EMPERORS": EMPERORS,
    "PENDING_CARDS": PENDING_CARDS, "USE_TARGETS": USE_TARGETS, "SCORE_KEYS": SCORE_KEYS,
}

_INDEX: dict[str, dict[Any, int]] = {
    "century card": {c: i for i, c in enumerate(CENTURY_CARDS)},
    "clan-row card": {c: i for i, c in enumerate(CLAN_ROW)},
    "mission": {c: i for i, c in enumerate(MISSIONS)},
    "prince": {c: i for i, c in enumerate(PRINCES)},
    "hero": {c: i for i, c in enumerate(HEROES)},
    "kofun": {c: i for i, c in enumerate(KOFUN)},
    "emperor": {c: i for i, c in enumerate(EMPERORS)},
    "pending card": {c: i for i, c in enumerate(PENDING_CARDS)},
    "use target": {c: i for i, c in enumerate(USE_TARGETS)},
    "phase": {c: i for i, c in enumerate(PHASES)},
    "step": {c: i for i, c in enumerate(STEPS)},
    "century": {c: i for i, c in enumerate(CENTURIES)},
}
_COLOUR_SEAT = {colour: q for q, colour in enumerate(A.SEATS)}


def _idx(kind: str, key: Any) -> int:
    """The vocabulary index of a card id or name; ValueError naming it if unknown."""
    try:
        return _INDEX[kind][key]
    except KeyError:
        raise ValueError(f"The I, Clansman observation does not know the {kind} {key!r} "
                         "(not in the bundled card data; the encoding needs updating)") from None


def _cap(x: float, cap: float) -> float:
    """x / cap, clipped to [0, 1]."""
    v = x / cap
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v


def _target(key: str, slot_of: Sequence[int]) -> int:
    """USE_TARGETS index of a notation key ('300 teal' -> the Kochisei of teal's slot)."""
    if " " in key:
        cid, colour = key.split(" ", 1)
        if cid == KOCHISEI and colour in _COLOUR_SEAT and _COLOUR_SEAT[colour] < len(slot_of):
            return slot_of[_COLOUR_SEAT[colour]]
        raise ValueError(f"The I, Clansman observation does not know the card key {key!r}")
    return _idx("use target", key)


def _seat_into(out: list[float], at: int, g: Mapping[str, Any], daughter: Any,
               slot_of: Sequence[int], score: Mapping[str, int],
               colours: Mapping[str, int]) -> None:
    """One seat slot's block."""
    out[at + G_PRESENT] = 1.0
    for i, key in enumerate(ITEMS):
        out[at + G_ITEMS + i] = _cap(g[key], CAP_G[G_ITEMS][i])
    for cid in g["clans"]:
        out[at + G_CLANS + _idx("clan-row card", cid)] = 1.0
    for cid in g["missions"]:
        out[at + G_MISSIONS + _idx("mission", cid)] = 1.0
    for cid in g["hand"]:
        out[at + G_HAND + _idx("century card", cid)] = 1.0
    if g["kofun"] is not None:
        out[at + G_KOFUN + _idx("kofun", g["kofun"])] = 1.0
    if g["hero"] is not None:
        out[at + G_HERO + _idx("hero", g["hero"])] = 1.0
    for cid in g["emperors"]:
        out[at + G_EMPERORS + _idx("emperor", cid)] = 1.0
    f = sum(1 for o in g["obtained"] if o == "2 tadokoro")
    gg = sum(1 for o in g["obtained"] if o == "1 tadokoro")
    caps = CAP_G[G_OBTAINED]
    out[at + G_OBTAINED] = _cap(len(g["obtained"]) - f - gg, caps[0])
    out[at + G_OBTAINED + 1] = _cap(f, caps[1])
    out[at + G_OBTAINED + 2] = _cap(gg, caps[2])
    if daughter is not None:
        owner, cid = int(daughter[0]), daughter[1]
        d = at + G_DAUGHTER
        out[d] = 1.0
        if owner < 0:
            out[d + 1 + _idx("prince", cid)] = 1.0
        else:
            out[d + 1 + len(PRINCES) + slot_of[owner]] = 1.0
            out[d + 1 + len(PRINCES) + SEAT_SLOTS + _idx("clan-row card", cid)] = 1.0
    for i, key in enumerate(SCORE_KEYS):
        out[at + G_SCORE + i] = _cap(score.get(key, 0), CAP_G[G_SCORE][i])
    for i, colour in enumerate(VP_COLOURS):
        out[at + G_COLOUR + i] = _cap(colours.get(colour, 0), CAP_G[G_COLOUR][i])


def encode(view: Mapping[str, Any]) -> np.ndarray:
    """The observation vector (float32, shape (SIZE,)) of a `state.view(seat)`."""
    out = [0.0] * SIZE
    n = int(view["players"])
    seat = view.get("seat")
    me = 0 if seat is None else int(seat)
    options = view.get("options") or {}
    slot_of = [(q - me) % n for q in range(n)]

    if seat is not None:
        out[SEAT + me] = 1.0
    if options.get("expert"):
        out[MODE] = 1.0
        out[MODE + (1 if options.get("emperor_side", "A") == "A" else 2)] = 1.0
    if options.get("emperor_variant"):
        out[MODE + 3] = 1.0
    if options.get("variant"):
        out[MODE + 4] = 1.0
    if 2 <= n <= 4:
        out[PLAYERS + n - 2] = 1.0

    to_move = view.get("to_move")
    start = int(view["start"])
    scores = view.get("scores") or [{} for _ in range(n)]
    colours = view.get("vp_by_colour") or [{} for _ in range(n)]
    for q, g in enumerate(view["gozoku"]):
        at = SEATS + slot_of[q] * _G.size
        _seat_into(out, at, g, view["daughters"][q], slot_of, scores[q], colours[q])
        if q == to_move:
            out[at + G_TO_MOVE] = 1.0
        if q == start:
            out[at + G_START] = 1.0

    rnd = int(view["round"])
    if 1 <= rnd <= ROUNDS:
        out[ROUND + rnd - 1] = 1.0
        out[CENTURY + _idx("century", _DATA.rules.century_of_round[rnd])] = 1.0
    out[PHASE + _idx("phase", view["phase"])] = 1.0
    if view["step"]:
        out[STEP + _idx("step", view["step"])] = 1.0
    out[TURN] = _cap(view["turn"], n)
    for i, size in enumerate(view["piles"]):
        out[PILES + i] = _cap(size, CAP[PILES][i])
    for cid in view["supply"]:
        out[SUPPLY + _idx("century card", cid)] = 1.0
    for cid in view["discard"]:
        out[DISCARD + _idx("century card", cid)] = 1.0
    for cid in view["princes"]:
        out[PRINCES_UP + _idx("prince", cid)] = 1.0
    out[MIYAKE] = _cap(view["miyake"], CAP[MIYAKE][0])
    out[MIYAKE + 1] = _cap(view["miyake_row"], CAP[MIYAKE][1])
    out[MIYAKE + 2] = _cap(view["bank_tadokoro"], CAP[MIYAKE][2])
    for cid in view["heroes"]:
        out[HEROES_LEFT + _idx("hero", cid)] = 1.0
    for cid in view["kofun"]:
        out[KOFUN_LEFT + _idx("kofun", cid)] = 1.0
    for cid in view["emperors"]:
        out[EMPERORS_IN + _idx("emperor", cid)] = 1.0
    for cid in view["emperor_centre"]:
        out[EMPERORS_LEFT + _idx("emperor", cid)] = 1.0
    for cid in view["set_aside"]:
        out[SET_ASIDE + _idx("emperor", cid)] = 1.0
    for i, k in enumerate(view["pool"][:VOLATILE]):
        out[POOL + i] = _cap(k, CAP[POOL][i])
    for key, _owner, _cid in view["usable"]:
        out[USABLE + _target(key, slot_of)] = 1.0
    for key in view["used"]:
        out[USED + _target(key, slot_of)] = 1.0
    out[LOCK] = _cap(view["lock"], CAP[LOCK][0])
    if view.get("pending") is not None:
        out[PENDING + _idx("pending card", view["pending"])] = 1.0
    return np.array(out, dtype=np.float32)


__all__ = ["FIELDS", "GAME_NAME", "MARGIN_SCALE", "SEAT_SLOTS", "SIZE", "VOCABULARIES", "Field",
           "encode"]
