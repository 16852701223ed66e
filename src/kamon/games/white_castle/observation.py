"""The White Castle as a fixed-size vector of numbers, built from one seat's `view` only.

`encode(view)` turns `state.view(seat)` (plain JSON-like data, hidden deck orders already
removed) into SIZE float32 values, every one in [0, 1]. Counts are divided by a cap
and clipped at 1 ("/cap" in a field's meaning); one-hot and multi-hot fields are 0/1.
Clans are seen from the observer: clan slot k is the clan (seat + k) mod clans, so slot 0
is always the observing seat (seat 0 for a spectator, `view(None)`); in the solo game slot
1 is the Tokugawa rival. `FIELDS` names every slice; docs/OBSERVATIONS.md is generated
from it. The reinforcement-learning interfaces (kamon.rl) use this encoding for all three
frameworks. Card identities are one-hot over the bundled component data; a card id the
bundled data does not know (an overlay that adds one) is refused with a clear error.
`observation_state.encode_state(state, seat)` is the same vector bit for bit, read straight
from the state without building the view: what the interfaces call.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from kamon.core.layout import Field, Layout
from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import COLOURS, load_data
from kamon.games.white_castle.frames import Frame, frame_of

GAME_NAME = "white-castle"
CLAN_SLOTS = 4
MARGIN_SCALE = 50.0  # a score margin this large counts as a decisive win (kamon.rl rewards)

_DATA = load_data()
STEWARDS: tuple[str, ...] = tuple(sorted(_DATA.stewards))
DIPLOMATS: tuple[str, ...] = tuple(sorted(_DATA.diplomats))
CASTLE_CARDS = STEWARDS + DIPLOMATS
START_RESOURCES: tuple[str, ...] = tuple(sorted(_DATA.start_resources))
START_ACTIONS: tuple[str, ...] = tuple(sorted(_DATA.start_actions))
DECREES: tuple[str, ...] = tuple(sorted(_DATA.decrees))
LANTERN_CARDS: tuple[str, ...] = START_RESOURCES + DECREES + START_ACTIONS + CASTLE_CARDS
DOMAIN_CARDS: tuple[str, ...] = START_ACTIONS + CASTLE_CARDS  # a castle card can replace it
DIE_TILES: tuple[str, ...] = tuple(sorted(_DATA.die_tiles))
DAIMYO_CARDS: tuple[str, ...] = tuple(sorted(_DATA.daimyo))
GARDENS: tuple[str, ...] = tuple(sorted(_DATA.gardens))
FRAME_KINDS = ("draft", "take", "place", "effects", "choice", "checkpoint", "blocks",
               "outside", "warrior", "gardener", "courtier", "daimyo", "row", "pay",
               "garden_round", "lantern", "rival_turn", "rival_actions", "rival_room",
               "rival_garden")
PHASES = ("draft", "play", "gardens", "over")
DIFFICULTIES = ("easy", "medium", "hard")
SCORE_KEYS = ("during_game", "coins_seals", "resources", "passage_of_time", "courtiers",
              "warriors", "gardeners", "total")
# What an effect does, summed over a list of effects (amounts /5, capped).
EFFECT_FEATURES = ("gain coin", "gain seal", "gain cp", "gain food", "gain iron", "gain pearl",
                   "resources of choice", "passage steps", "courtier action",
                   "gardener action", "warrior action", "lantern reward", "well action",
                   "light action", "domain action", "die tile coral", "die tile black",
                   "die tile white", "die tile any", "pay coin", "pay seal")
_EFF = {name: i for i, name in enumerate(EFFECT_FEATURES)}
_SIMPLE = {"courtier": "courtier action", "gardener": "gardener action",
           "warrior": "warrior action", "lantern": "lantern reward", "well": "well action",
           "light": "light action", "domain": "domain action"}
MAX_BRIDGE = 5  # dice per bridge at 4 players
MAX_EFFECTS = A.MAX_EFFECTS
ROOM_BLOCKS = tuple(sorted(A.BLOCK))  # (room, block) pairs in action-id order
CARD_BLOCKS = 3




def _names(seq: Sequence[str]) -> str:
    """A vocabulary in words, for a field's meaning."""
    return ", ".join(seq)


# ---------------------------------------------------------------- the layout
# Each count's cap is declared here, in the table, and nowhere else: both encoders read it
# (`CAP`, `CAP_C` here; `cap_array` in observation_state.py) and docs/OBSERVATIONS.md
# prints it. Three caps vary with the position and are said in the meaning instead: the
# turn counter's (turns a round: TURNS_PER_CLAN x clans), a clan's Passage of Time stamp
# (the game's latest stamp) and the decision count (CHOICE_CAP resources, or
# CHECKPOINT_CAP steps at a checkpoint).
TURNS_PER_CLAN = 3
CHOICE_CAP = 3
CHECKPOINT_CAP = 5
_DIE = (1, 1, 1, 6)  # a die as (coral, black, white, pips)
_C = Layout()
C_PRESENT = _C.add("present", 1, "1 if this clan slot is in the game")
C_RIVAL = _C.add("rival", 1, "1 if this clan is the solo game's Tokugawa rival")
C_TO_MOVE = _C.add("to_move", 1, "1 if this clan's seat decides now")
C_COINS = _C.add("coins", 1, "coins", cap=20)
C_SEALS = _C.add("seals", 1, "Daimyo seals", cap=5)
C_CP = _C.add("cp", 1, "clan points scored so far", cap=100)
C_RES = _C.add("resources", 3, "food, iron, pearl", cap=7)
C_LEFT = _C.add("workers_left", 3, "courtiers, gardeners, warriors still in the domain",
                cap=5)
C_COURTIERS = _C.add("courtiers", len(A.LOCS),
                     f"courtiers at each location ({_names(A.LOCS)})", cap=5)
C_WARRIORS = _C.add("warriors", 3, "warriors in training yards 1-3", cap=5)
C_CARD = _C.add("action_card", len(DOMAIN_CARDS),
                "one-hot: the action card on the domain board (DOMAIN_CARDS: a castle card "
                "can replace the starting one)")
C_LANTERN = _C.add("lantern", len(LANTERN_CARDS),
                   "cards in the Lantern Area, copies per card of LANTERN_CARDS", cap=2)
C_POS = _C.add("passage", 1, "Passage of Time position", cap=20)
C_SEQ = _C.add("passage_stack", 1, "arrival stamp on the Passage of Time / the game's "
                                     "latest stamp (higher = on top of a shared space)")
C_DOMAIN = _C.add("domain_dice", 6, "personal domain rows coral, black, white: "
                                    "(die present, its pips) per row", cap=(1, 6) * 3)
C_PLACED = _C.add("placements", 1, "dice placed so far", cap=30)
C_ORDER = _C.add("turn_order", CLAN_SLOTS, "one-hot: position in the turn order")
C_SCORE = _C.add("score", len(SCORE_KEYS), "current score by category, then the total "
                 "(SCORE_KEYS)", cap=(50,) * (len(SCORE_KEYS) - 1) + (100,))

_L = Layout()
SEAT = _L.add("seat", 4, "one-hot: the observing seat's absolute number (clan slot 0 is "
                         "that seat)")
PLAYERS = _L.add("players", 4, "one-hot: number of players 1-4 (1 = solo)")
DIFFICULTY = _L.add("difficulty", 3, f"one-hot: solo difficulty ({_names(DIFFICULTIES)})")
FIRST_GAME = _L.add("first_game", 1, "1 with the first-game Well tiles")
CLANS = _L.repeated("clan", _C, CLAN_SLOTS)
ROUND = _L.add("round", 3, "one-hot: round 1-3")
PHASE = _L.add("phase", len(PHASES), f"one-hot: phase ({_names(PHASES)})")
TURN = _L.add("turn", 1, f"turns taken this round / ({TURNS_PER_CLAN} x players)")
BRIDGES = _L.add("bridges", 3 * MAX_BRIDGE * 2,
                 "bridges coral, black, white: 5 positions left to right, each (die present, "
                 "pips)", cap=(1, 6) * (3 * MAX_BRIDGE))
LONE = _L.add("lone_left", 3, "per bridge: 1 if a single die is at its left end")
SPACES = _L.add("spaces", 7 * 2 * 4,
                "steward1-3, diplomat1-2, outside-left, outside-right: the 2 dice on each, "
                "bottom first, each as (coral, black, white, pips); all 0 = no die",
                cap=_DIE * (7 * 2))
WELL = _L.add("well", 5, "the Well: dice on it, then its top die (coral, black, white, pips)",
              cap=(10, *_DIE))
ROOM_CARDS = _L.add("room_cards", 3 * len(STEWARDS) + 2 * len(DIPLOMATS),
                    "one-hot per room: steward rooms 1-3 over STEWARDS, diplomat rooms 1-2 "
                    "over DIPLOMATS")
ROOM_TILES = _L.add("room_tiles", 5 * 3, "per room: die-colour tiles coral, black, white",
                    cap=3)
DECKS = _L.add("decks", 2, "cards left in the steward and diplomat decks", cap=(12, 10))
WELL_TILES = _L.add("well_tiles", len(DIE_TILES), "multi-hot: the two die tiles at the Well (DIE_TILES)")
DAIMYO_CARD = _L.add("daimyo_card", len(DAIMYO_CARDS), "one-hot: the Daimyo's favour card (DAIMYO_CARDS)")
DAIMYO_SLOTS = _L.add("daimyo_slots", 3 * (CLAN_SLOTS + 1),
                      "per slot 1-3: one-hot (empty, clan slot 0-3 holding it)")
GARDEN_CARDS = _L.add("garden_cards", 6 * len(GARDENS),
                      "per garden slot (coral plant, coral stone, black plant, ...): one-hot "
                      "over GARDENS")
GARDEN_WORKERS = _L.add("garden_workers", 6 * CLAN_SLOTS,
                        "per garden slot: which clan slots have a gardener there")
YARDS = _L.add("yard_effects", 3 * len(EFFECT_FEATURES),
               "per training yard: what its tiles give (EFFECT_FEATURES)", cap=5)
DRAFT = _L.add("draft_pairs", A.MAX_DRAFT * (1 + len(START_RESOURCES) + len(START_ACTIONS)),
               "per starting pair 1-5: (still offered, one-hot over START_RESOURCES, "
               "one-hot over the first 3 of DOMAIN_CARDS)")
HELD = _L.add("held_die", 6, "the die in hand: (present, coral, black, white, pips, taken "
                             "from the left end)", cap=(1, *_DIE, 1))
FIRED = _L.add("rows_used", 3, "domain rows coral, black, white already activated this turn")
FRAME = _L.add("decision", len(FRAME_KINDS), "one-hot: the kind of decision now (FRAME_KINDS)")
DECIDER = _L.add("decider", CLAN_SLOTS, "one-hot: the clan slot deciding now")
PENDING = _L.add("pending", len(FRAME_KINDS), "decisions waiting under the current one, "
                                              "count per kind of FRAME_KINDS", cap=3)
F_EFFECTS = _L.add("decision_effects", MAX_EFFECTS * len(EFFECT_FEATURES),
                   "'effects' decision: effect k (the action 'effect k+1') as EFFECT_FEATURES",
                   cap=5)
F_BLOCKS = _L.add("decision_blocks", len(ROOM_BLOCKS) + CARD_BLOCKS + 2,
                  "'blocks' decision: the offered room blocks (ROOM_BLOCKS), the action card's "
                  "blocks 1-3, then (a room placement, the decision may be declined)")
F_CHOICE = _L.add("decision_count", 1, f"'choice': resources still to choose /{CHOICE_CAP}; "
                                       f"'checkpoint': steps /{CHECKPOINT_CAP}")
F_COST = _L.add("decision_cost", 2, "'pay' / 'checkpoint': coins and seals to pay", cap=5)
F_PAY_FOR = _L.add("decision_pay_for", len(EFFECT_FEATURES),
                   "'pay': what paying gives (EFFECT_FEATURES)", cap=5)
F_OUTSIDE = _L.add("decision_workers", 3, "'outside': the worker actions offered (courtier, "
                                          "gardener, warrior)")
F_COURTIER = _L.add("decision_courtier", 2, "'courtier': audience done, climb done")
F_GARDENS = _L.add("decision_gardens", 6, "'garden_round' / 'rival_garden': the garden slots "
                                          "offered")
F_FLOOR = _L.add("decision_floor", 1, "'rival_room': the floor the rival's courtier reaches",
                 cap=3)
SOLO = _L.add("solo_deck", 1, "Solitaire cards left in the deck", cap=9)
SOLO_TOP = _L.add("solo_top", 3 + 3 + len(A.SPACES),
                  "one-hot x3: the Solitaire deck's face-up top Bridge side: die colour "
                  "(coral, black, white), bridge position (left, center, right), "
                  "destination (the main-board die spaces, in the engine's order)")
DISCARDED = _L.add("discarded", len(CASTLE_CARDS),
                   "multi-hot: castle cards the rival's courtiers removed from the game "
                   "(CASTLE_CARDS)")

SIZE = _L.size
FIELDS: tuple[Field, ...] = tuple(_L.fields)
CAP_C = _C.caps_by_start()  # a clan block's caps, by a field's start in the block
CAP = _L.caps_by_start()  # the vector's caps, by a field's start

# The ordered lists the one-hot and multi-hot fields index (docs/OBSERVATIONS.md lists them).
VOCABULARIES: dict[str, tuple[str, ...]] = {
    "STEWARDS": STEWARDS, "DIPLOMATS": DIPLOMATS, "START_RESOURCES": START_RESOURCES,
    "DOMAIN_CARDS": DOMAIN_CARDS, "LANTERN_CARDS": LANTERN_CARDS, "DIE_TILES": DIE_TILES,
    "DAIMYO_CARDS": DAIMYO_CARDS, "GARDENS": GARDENS, "CASTLE_CARDS": CASTLE_CARDS,
    "FRAME_KINDS": FRAME_KINDS, "EFFECT_FEATURES": EFFECT_FEATURES, "SCORE_KEYS": SCORE_KEYS,
    "ROOM_BLOCKS": tuple(A.TEXTS[A.BLOCK[rb]] for rb in ROOM_BLOCKS),
}

_INDEX = {
    "steward": {c: i for i, c in enumerate(STEWARDS)},
    "diplomat": {c: i for i, c in enumerate(DIPLOMATS)},
    "castle": {c: i for i, c in enumerate(CASTLE_CARDS)},
    "lantern": {c: i for i, c in enumerate(LANTERN_CARDS)},
    "resource": {c: i for i, c in enumerate(START_RESOURCES)},
    "action": {c: i for i, c in enumerate(START_ACTIONS)},
    "domain card": {c: i for i, c in enumerate(DOMAIN_CARDS)},
    "tile": {c: i for i, c in enumerate(DIE_TILES)},
    "daimyo": {c: i for i, c in enumerate(DAIMYO_CARDS)},
    "garden": {c: i for i, c in enumerate(GARDENS)},
    "frame": {c: i for i, c in enumerate(FRAME_KINDS)},
    "phase": {c: i for i, c in enumerate(PHASES)},
}
_BLOCK_POS = {rb: i for i, rb in enumerate(ROOM_BLOCKS)}


def _idx(kind: str, key: Any) -> int:
    """The vocabulary index of a card id or name; ValueError naming it if unknown."""
    try:
        return _INDEX[kind][key]
    except KeyError:
        raise ValueError(f"The White Castle observation does not know the {kind} {key!r} "
                         "(not in the bundled component data; the encoding needs updating)"
                         ) from None


def _cap(x: float, cap: float) -> float:
    """x / cap, clipped to [0, 1]."""
    v = x / cap
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v


def _effect_raw(e: Sequence[Any], acc: list[float]) -> None:
    """Add one effect (the view's list form) to a raw feature accumulator."""
    kind = e[0]
    if kind == "gain":
        for k, n in e[1]:
            acc[_EFF["gain " + k]] += n
    elif kind == "choice":
        acc[_EFF["resources of choice"]] += e[1]
    elif kind == "passage":
        acc[_EFF["passage steps"]] += e[1]
    elif kind == "die_tile":
        acc[_EFF["die tile " + e[1]]] += 1
    elif kind == "pay":
        for k, n in e[1]:
            acc[_EFF["pay " + k]] += n
        _effect_raw(e[2], acc)
    elif kind in _SIMPLE:
        acc[_EFF[_SIMPLE[kind]]] += 1
    else:
        raise ValueError(f"The White Castle observation does not know the effect {kind!r}")


def _effects_into(out: list[float], at: int, effects: Sequence[Sequence[Any]],
                  cap: int) -> None:
    """Write the summed effect features of `effects` at `at` (amounts over the field's cap)."""
    acc = [0.0] * len(EFFECT_FEATURES)
    for e in effects:
        _effect_raw(e, acc)
    for i, v in enumerate(acc):
        if v:
            out[at + i] = _cap(v, cap)


def _die_into(out: list[float], at: int, die: Sequence[int], caps: Sequence[int]) -> None:
    """(coral, black, white, pips) of a (colour, value) die, over the field's caps."""
    out[at + int(die[0])] = 1.0
    out[at + 3] = _cap(die[1], caps[3])


def _clan_into(out: list[float], at: int, clan: Mapping[str, Any], score: Mapping[str, int],
               latest_seq: int) -> None:
    """One clan slot's block."""
    out[at + C_PRESENT] = 1.0
    out[at + C_COINS] = _cap(clan["coins"], CAP_C[C_COINS][0])
    out[at + C_SEALS] = _cap(clan["seals"], CAP_C[C_SEALS][0])
    out[at + C_CP] = _cap(clan["cp"], CAP_C[C_CP][0])
    for i in range(3):
        out[at + C_RES + i] = _cap(clan["res"][i], CAP_C[C_RES][i])
        out[at + C_LEFT + i] = _cap(clan["left"][i], CAP_C[C_LEFT][i])
    counts = [0] * len(A.LOCS)
    for loc in clan["courtiers"]:
        counts[loc] += 1
    for i, n in enumerate(counts):
        if n:
            out[at + C_COURTIERS + i] = _cap(n, CAP_C[C_COURTIERS][i])
    yards = [0, 0, 0]
    for y in clan["warriors"]:
        yards[y] += 1
    for i, n in enumerate(yards):
        if n:
            out[at + C_WARRIORS + i] = _cap(n, CAP_C[C_WARRIORS][i])
    if clan["card"] is not None:
        out[at + C_CARD + _idx("domain card", clan["card"])] = 1.0
    copies = Counter(_idx("lantern", cid) for cid in clan["lantern"])
    for i, n in copies.items():
        out[at + C_LANTERN + i] = _cap(n, CAP_C[C_LANTERN][i])
    out[at + C_POS] = _cap(clan["pos"], CAP_C[C_POS][0])
    out[at + C_SEQ] = _cap(clan["seq"], max(1, latest_seq))
    for row, die in enumerate(clan["domain"]):
        if die is not None:
            out[at + C_DOMAIN + 2 * row] = 1.0
            out[at + C_DOMAIN + 2 * row + 1] = _cap(die[1], CAP_C[C_DOMAIN][2 * row + 1])
    for i, key in enumerate(SCORE_KEYS):
        out[at + C_SCORE + i] = _cap(score.get(key, 0), CAP_C[C_SCORE][i])


def encode(view: Mapping[str, Any]) -> np.ndarray:
    """The observation vector (float32, shape (SIZE,)) of a `state.view(seat)`."""
    out = [0.0] * SIZE
    n = int(view["players"])  # clans, the solo rival included
    seat = view.get("seat")
    me = 0 if seat is None else int(seat)
    options = view.get("options") or {}
    rival = view.get("rival")
    human_seats = 1 if rival is not None else n
    slot_of = [(q - me) % n for q in range(n)]  # absolute clan -> clan slot

    if seat is not None:
        out[SEAT + me] = 1.0
    out[PLAYERS + human_seats - 1] = 1.0
    if options.get("difficulty") in DIFFICULTIES:
        out[DIFFICULTY + DIFFICULTIES.index(options["difficulty"])] = 1.0
    if options.get("first_game"):
        out[FIRST_GAME] = 1.0

    clans = view["clans"]
    scores = view.get("scores") or [{} for _ in clans]
    to_move = view.get("to_move")
    order = view["order"]
    latest = int(view.get("seq_counter", 0))
    for q, clan in enumerate(clans):
        at = CLANS + slot_of[q] * _C.size
        _clan_into(out, at, clan, scores[q], latest)
        if q == rival:
            out[at + C_RIVAL] = 1.0
        if q == to_move:
            out[at + C_TO_MOVE] = 1.0
        out[at + C_PLACED] = _cap(view["placements"][q], CAP_C[C_PLACED][0])
        if q in order:
            out[at + C_ORDER + order.index(q)] = 1.0

    rnd = int(view["round"])
    if 1 <= rnd <= 3:
        out[ROUND + rnd - 1] = 1.0
    out[PHASE + _idx("phase", view["phase"])] = 1.0
    out[TURN] = _cap(view["turn_idx"], TURNS_PER_CLAN * n)

    for b, dice in enumerate(view["bridges"]):
        for i, v in enumerate(dice[:MAX_BRIDGE]):
            at = (b * MAX_BRIDGE + i) * 2
            out[BRIDGES + at] = 1.0
            out[BRIDGES + at + 1] = _cap(v, CAP[BRIDGES][at + 1])
        if view["lone_left"][b]:
            out[LONE + b] = 1.0
    spaces = view["spaces"]
    for s in range(7):
        for i, die in enumerate(spaces[s][:2]):
            at = (s * 2 + i) * 4
            _die_into(out, SPACES + at, die, CAP[SPACES][at:at + 4])
    well = spaces[A.SP_WELL]
    if well:
        out[WELL] = _cap(len(well), CAP[WELL][0])
        _die_into(out, WELL + 1, well[-1], CAP[WELL][1:])

    for r, cid in enumerate(view["room_cards"]):
        if r < 3:
            out[ROOM_CARDS + r * len(STEWARDS) + _idx("steward", cid)] = 1.0
        else:
            out[ROOM_CARDS + 3 * len(STEWARDS) + (r - 3) * len(DIPLOMATS)
                + _idx("diplomat", cid)] = 1.0
    for r, tiles in enumerate(view["room_tiles"]):
        for col, n in Counter(tiles).items():
            out[ROOM_TILES + r * 3 + col] = _cap(n, CAP[ROOM_TILES][r * 3 + col])
    out[DECKS] = _cap(view["steward_deck"], CAP[DECKS][0])
    out[DECKS + 1] = _cap(view["diplomat_deck"], CAP[DECKS][1])
    for t in view["well_tiles"]:
        out[WELL_TILES + _idx("tile", t)] = 1.0
    out[DAIMYO_CARD + _idx("daimyo", view["daimyo_card"])] = 1.0
    for s, holder in enumerate(view["daimyo_slots"]):
        out[DAIMYO_SLOTS + s * (CLAN_SLOTS + 1) + (0 if holder is None else 1 + slot_of[holder])] = 1.0
    for g, cid in enumerate(view["garden_cards"]):
        out[GARDEN_CARDS + g * len(GARDENS) + _idx("garden", cid)] = 1.0
    for g, workers in enumerate(view["garden_workers"]):
        for q in workers:
            out[GARDEN_WORKERS + g * CLAN_SLOTS + slot_of[q]] = 1.0
    for y, effects in enumerate(view["yard_effects"]):
        _effects_into(out, YARDS + y * len(EFFECT_FEATURES), effects, CAP[YARDS][0])
    stride = 1 + len(START_RESOURCES) + len(START_ACTIONS)
    for i, pair in enumerate(view["draft_pairs"][:A.MAX_DRAFT]):
        if pair is not None:
            at = DRAFT + i * stride
            out[at] = 1.0
            out[at + 1 + _idx("resource", pair[0])] = 1.0
            out[at + 1 + len(START_RESOURCES) + _idx("action", pair[1])] = 1.0
    held = view.get("held")
    if held:
        out[HELD] = 1.0
        _die_into(out, HELD + 1, held, CAP[HELD][1:5])
        out[HELD + 5] = 1.0 if held[2] else 0.0
    for col in view["fired"]:
        out[FIRED + col] = 1.0

    stack = [frame_of(f) for f in view["stack"]]
    for k, n in Counter(_idx("frame", f.kind) for f in stack[:-1]).items():
        out[PENDING + k] = _cap(n, CAP[PENDING][k])
    if stack:
        _frame_into(out, stack[-1], slot_of)
    out[SOLO] = _cap(view.get("solo_deck", 0), CAP[SOLO][0])
    top = view.get("solo_top")
    if top:
        out[SOLO_TOP + top["colour"]] = 1.0
        out[SOLO_TOP + 3 + ("left", "center", "right").index(top["position"])] = 1.0
        out[SOLO_TOP + 6 + top["destination"]] = 1.0
    for cid in view.get("discarded", ()):
        out[DISCARDED + _idx("castle", cid)] = 1.0
    return np.array(out, dtype=np.float32)


def _frame_into(out: list[float], f: Frame, slot_of: Sequence[int]) -> None:
    """The decision now: its kind, who decides, and what its choices refer to."""
    kind = f.kind
    out[FRAME + _idx("frame", kind)] = 1.0
    out[DECIDER + slot_of[f.seat]] = 1.0
    if f.kind == "effects":
        for k, e in enumerate(f.effects[:MAX_EFFECTS]):
            _effects_into(out, F_EFFECTS + k * len(EFFECT_FEATURES), [e], CAP[F_EFFECTS][0])
    elif f.kind == "blocks":
        for r, i in f.options:
            if r < 0:
                out[F_BLOCKS + len(ROOM_BLOCKS) + i] = 1.0
            else:
                out[F_BLOCKS + _BLOCK_POS[(r, i)]] = 1.0
        out[F_BLOCKS + len(ROOM_BLOCKS) + CARD_BLOCKS] = 1.0 if f.multi else 0.0
        out[F_BLOCKS + len(ROOM_BLOCKS) + CARD_BLOCKS + 1] = 1.0 if f.optional else 0.0
    elif f.kind == "choice":
        out[F_CHOICE] = _cap(f.remaining, CHOICE_CAP)
    elif f.kind == "checkpoint":
        out[F_CHOICE] = _cap(f.steps, CHECKPOINT_CAP)
        out[F_COST + 1] = _cap(f.cost, CAP[F_COST][1])
    elif f.kind == "pay":
        for what, n in f.cost:
            i = 0 if what == "coin" else 1
            out[F_COST + i] = _cap(n, CAP[F_COST][i])
        _effects_into(out, F_PAY_FOR, [f.effect], CAP[F_PAY_FOR][0])
    elif f.kind == "outside":
        for w in f.workers:
            out[F_OUTSIDE + w] = 1.0
    elif f.kind == "courtier":
        out[F_COURTIER] = 1.0 if f.audience_done else 0.0
        out[F_COURTIER + 1] = 1.0 if f.climb_done else 0.0
    elif f.kind == "garden_round" or f.kind == "rival_garden":
        for g in f.gardens:
            out[F_GARDENS + g] = 1.0
    elif f.kind == "rival_room":
        out[F_FLOOR] = _cap(f.floor, CAP[F_FLOOR][0])


__all__ = ["CLAN_SLOTS", "COLOURS", "EFFECT_FEATURES", "FIELDS", "GAME_NAME", "MARGIN_SCALE",
           "SIZE", "VOCABULARIES", "Field", "encode"]

