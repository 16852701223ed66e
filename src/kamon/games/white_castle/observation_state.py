"""The White Castle observation read straight from the state: `encode_state(state, seat)`.

The same vector as `observation.encode(state.view(seat))`, bit for bit (tests hold them
equal over random games of every setup), without building the view. Import it from
`observation`, its public home, where `kamon.rl.encoding` finds it.

How it is fast:

- Almost every value is a small whole number over a cap fixed by its position (a one-hot
  1 / 1, coins / 20, a card's copies in the Lantern Area / 2, a die's pips / 6). The
  encoder writes the whole numbers into one `bytearray` of SIZE bytes, offsets and card
  positions looked up in tables built at import time; numpy then makes the vector in
  three passes, `min(count, cap) / cap` in float32. That equals `float32(_cap(count, cap))`
  exactly: a float32 division rounds the exact quotient once, and rounding it to float64
  first changes nothing (53 >= 2 x 24 + 2 bits; a test also checks every pair under 256).
  The one cap that varies, a clan's stack stamp / the game's latest stamp, picks its cap
  arrays by that stamp; a checkpoint's steps / CHECKPOINT_CAP (a choice's / CHOICE_CAP) is written
  into the vector afterwards.
- What the setup fixes (the players, options, gardens, die tiles, yards, the Daimyo's
  card) is encoded once per game, as a template.
- A clan's block, and the slow-moving part of the board (room cards, decks, Daimyo
  slots, gardeners, starting pairs), are remembered with what they were made of and
  remade only when that changed: between two decisions most clans do not move.

The remembered parts are checked by value on every use, so a field changed in place
(tests do that) only costs a rebuild. Anything outside the tables (a card id the bundled
data does not know, a negative or fractional count) falls back to `encode(state.view(
seat))`: the same vector by definition, or its clear error. Counts past 255 are clamped
where the cap is at most 100 (coins, clan points, the total score): both give 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kamon.core.layout import Observation, cap_array
from kamon.games.white_castle import actions as A
from kamon.games.white_castle import observation as _view
from kamon.games.white_castle.frames import Frame
from kamon.games.white_castle.observation import (
    _BLOCK_POS,
    _C,
    BRIDGES,
    C_CARD,
    C_COINS,
    C_COURTIERS,
    C_CP,
    C_DOMAIN,
    C_LANTERN,
    C_LEFT,
    C_ORDER,
    C_PLACED,
    C_POS,
    C_PRESENT,
    C_RES,
    C_RIVAL,
    C_SCORE,
    C_SEALS,
    C_SEQ,
    C_TO_MOVE,
    C_WARRIORS,
    CARD_BLOCKS,
    CASTLE_CARDS,
    CHECKPOINT_CAP,
    CHOICE_CAP,
    CLAN_SLOTS,
    CLANS,
    DAIMYO_CARD,
    DAIMYO_CARDS,
    DAIMYO_SLOTS,
    DECIDER,
    DECKS,
    DIE_TILES,
    DIFFICULTIES,
    DIFFICULTY,
    DIPLOMATS,
    DISCARDED,
    DOMAIN_CARDS,
    DRAFT,
    EFFECT_FEATURES,
    F_BLOCKS,
    F_CHOICE,
    F_COST,
    F_COURTIER,
    F_EFFECTS,
    F_FLOOR,
    F_GARDENS,
    F_OUTSIDE,
    F_PAY_FOR,
    FIELDS,
    FIRED,
    FIRST_GAME,
    FRAME,
    FRAME_KINDS,
    GARDEN_CARDS,
    GARDEN_WORKERS,
    GARDENS,
    HELD,
    LANTERN_CARDS,
    LONE,
    MAX_BRIDGE,
    MAX_EFFECTS,
    PENDING,
    PHASE,
    PHASES,
    PLAYERS,
    ROOM_BLOCKS,
    ROOM_CARDS,
    ROOM_TILES,
    ROUND,
    SCORE_KEYS,
    SEAT,
    SIZE,
    SOLO,
    SOLO_TOP,
    SPACES,
    START_ACTIONS,
    START_RESOURCES,
    STEWARDS,
    TURN,
    TURNS_PER_CLAN,
    WELL,
    WELL_TILES,
    YARDS,
    _cap,
    _effect_raw,
    encode,
)
from kamon.games.white_castle.scoring import COURTIER_CP

_NEFF = len(EFFECT_FEATURES)
_CLAN_SIZE = _C.size
_CACHE_LIMIT = 1024  # effect tuples remembered before starting afresh (bridges: 16x)
_GAME_LIMIT = 4096  # games remembered (about 10 kB each) before starting afresh: a batched
# environment of 1,024 games stepped in turn stays remembered (at 256 every call missed:
# 57 us against 10 us an observation, bench/bench_vector_env.py)

# The index arithmetic below relies on this layout (observation.py).
assert SCORE_KEYS == ("during_game", "coins_seals", "resources", "passage_of_time",
                      "courtiers", "warriors", "gardeners", "total")
assert (C_PRESENT, C_RIVAL, C_TO_MOVE, C_COINS) == (0, 1, 2, 3)
assert (C_SEALS, C_CP, C_RES, C_LEFT) == (C_COINS + 1, C_COINS + 2, C_COINS + 3, C_COINS + 6)
assert C_SCORE + len(SCORE_KEYS) == _CLAN_SIZE
_NAMES = [f.name for f in FIELDS if f.repeat == 1]
# The board's slow part, remembered as one slice: from the room cards to the held die.
assert _NAMES[_NAMES.index("room_cards"):_NAMES.index("held_die")] == [
    "room_cards", "room_tiles", "decks", "well_tiles", "daimyo_card", "daimyo_slots",
    "garden_cards", "garden_workers", "yard_effects", "draft_pairs"]
del _NAMES

# ------------------------------------------------------------- the caps per position
# What the whole number at each position is clipped at and divided by, per number of
# clans n: the field table's caps (observation.py declares them, once), and those that
# vary: the turn counter's (TURNS_PER_CLAN x n), the decision count's (CHOICE_CAP; a
# checkpoint's CHECKPOINT_CAP is written afterwards) and a clan's stamp (_caps_for).
_caps = cap_array(FIELDS, SIZE)
_caps[F_CHOICE] = CHOICE_CAP
CAPS: dict[int, np.ndarray] = {}
for _n in range(1, CLAN_SLOTS + 1):
    _caps[TURN] = TURNS_PER_CLAN * _n
    CAPS[_n] = _caps.copy()
    CAPS[_n].flags.writeable = False
del _caps
_SEQ_AT = [CLANS + k * _CLAN_SIZE + C_SEQ for k in range(CLAN_SLOTS)]
# (clans, latest stack stamp) -> the caps as float32.
_CAPS_BY_LATEST: dict[tuple[int, int], np.ndarray] = {}


def _caps_for(n: int, latest: int) -> np.ndarray:
    """The caps for n clans whose latest stack stamp is `latest` (stamps stay small, about
    ten a game); ValueError past 255 (the caller falls back to the definition)."""
    if not 1 <= latest <= 255:
        raise ValueError(f"stack stamp {latest} does not fit a byte")
    caps = CAPS[n].astype(np.float32)
    caps[_SEQ_AT] = latest
    caps.flags.writeable = False
    _CAPS_BY_LATEST[(n, latest)] = caps
    return caps


# ------------------------------------------------------------- positions of the vocabularies
# Per clans n and observer me: the clan slot of each absolute clan and its block's start.
_SLOTS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((q - me) % n for q in range(n)) for me in range(n))
    for n in range(1, CLAN_SLOTS + 1)}
_BASES: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple(CLANS + s * _CLAN_SIZE for s in slots) for slots in per_me)
    for n, per_me in _SLOTS.items()}
# Per clans n and observer me: the absolute clan in each clan slot.
_IN_SLOT: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((me + k) % n for k in range(n)) for me in range(n))
    for n in range(1, CLAN_SLOTS + 1)}

_DOMAIN_OFF = {c: C_CARD + i for i, c in enumerate(DOMAIN_CARDS)}
_LANTERN_OFF = {c: C_LANTERN + i for i, c in enumerate(LANTERN_CARDS)}
_ROOM_POS: tuple[dict[str, int], ...] = tuple(
    {c: ROOM_CARDS + r * len(STEWARDS) + i for i, c in enumerate(STEWARDS)} for r in range(3)
) + tuple({c: ROOM_CARDS + 3 * len(STEWARDS) + r * len(DIPLOMATS) + i
           for i, c in enumerate(DIPLOMATS)} for r in range(2))
_TILE_POS = {t: WELL_TILES + i for i, t in enumerate(DIE_TILES)}
_DAIMYO_POS = {c: DAIMYO_CARD + i for i, c in enumerate(DAIMYO_CARDS)}
_GARDEN_POS: tuple[dict[str, int], ...] = tuple(
    {c: GARDEN_CARDS + g * len(GARDENS) + i for i, c in enumerate(GARDENS)} for g in range(6))
_DISCARD_POS = {c: DISCARDED + i for i, c in enumerate(CASTLE_CARDS)}
_DRAFT_AT = tuple(DRAFT + i * (1 + len(START_RESOURCES) + len(START_ACTIONS))
                  for i in range(A.MAX_DRAFT))
_DRAFT_RES = {c: 1 + i for i, c in enumerate(START_RESOURCES)}
_DRAFT_ACT = {c: 1 + len(START_RESOURCES) + i for i, c in enumerate(START_ACTIONS)}
_PHASE_POS = {p: PHASE + i for i, p in enumerate(PHASES)}
_DIFF_POS = {d: DIFFICULTY + i for i, d in enumerate(DIFFICULTIES)}
_FRAME_IDX = {k: i for i, k in enumerate(FRAME_KINDS)}
_BLOCK_AT = {rb: F_BLOCKS + i for rb, i in _BLOCK_POS.items()}
_CARD_BLOCK_AT = F_BLOCKS + len(ROOM_BLOCKS)
_SOLO_POSITION = {"left": SOLO_TOP + 3, "center": SOLO_TOP + 4, "right": SOLO_TOP + 5}
_SPACE_AT = tuple(SPACES + s * 2 * 4 for s in range(7))
_RES_POINTS = (0, 0, 0, 1, 1, 1, 1, 2)  # scoring: 3-6 of a resource 1 CP, 7 2 CP
_SCORE_TOTAL = C_SCORE + SCORE_KEYS.index("total")

# Summed effect features of a tuple of effects as the bytes of their whole amounts (keys
# come from the component data: yard tile pairs and card effects, a small set).
_EFFECT_BYTES: dict[tuple[Any, ...], bytes] = {}


def _effect_bytes(effects: tuple[Any, ...]) -> bytes:
    """The EFFECT_FEATURES amounts of `effects` summed as `_effects_into` sums them, a byte
    each (above 255 clamped: /5 and clipped, both give 1); ValueError if one is not a
    whole number >= 0."""
    acc = [0.0] * _NEFF
    for e in effects:
        _effect_raw(e, acc)
    out = bytearray(_NEFF)
    for i, v in enumerate(acc):
        if v < 0 or v != int(v):
            raise ValueError(f"effect amount {v!r} is not a whole number >= 0")
        out[i] = min(int(v), 255)
    b = bytes(out)
    if len(_EFFECT_BYTES) >= _CACHE_LIMIT:
        _EFFECT_BYTES.clear()
    _EFFECT_BYTES[effects] = b
    return b


# A bridge's dice (its first five) as (present, pips) pairs, by the dice (a small set).
_BRIDGE_BYTES: dict[tuple[int, ...], bytes] = {}


def _bridge_bytes(dice: tuple[int, ...]) -> bytes:
    """(1, pips) per die of a bridge, its first MAX_BRIDGE dice; ValueError past 255."""
    pairs = bytes(x for v in dice[:MAX_BRIDGE] for x in (1, v))
    if len(_BRIDGE_BYTES) >= 16 * _CACHE_LIMIT:
        _BRIDGE_BYTES.clear()
    _BRIDGE_BYTES[dice] = pairs
    return pairs


# ------------------------------------------------------------- what a game remembers
class _Game:
    """One game's remembered encoding, shared by its copies (found by the id of the
    yard_effects list that clones share): the setup's template, and each clan's block
    and the board's slow part with what they were made of."""

    __slots__ = ("board", "clans", "garden_cp", "made_of", "template", "yard_effects")

    def __init__(self, state: Any) -> None:
        """Encode what the setup fixes (the same for every observer)."""
        n = state.n
        rival = state.rival
        options = state.options
        base = bytearray(SIZE)
        base[PLAYERS + (n - 1 if rival is None else 0)] = 1
        diff = options.get("difficulty")
        if diff in DIFFICULTIES:
            base[_DIFF_POS[diff]] = 1
        if options.get("first_game"):
            base[FIRST_GAME] = 1
        for g, cid in enumerate(state.garden_cards):
            base[_GARDEN_POS[g][cid]] = 1
        for r, tiles in enumerate(state.room_tiles):
            for col in tiles:
                base[ROOM_TILES + r * 3 + col] += 1
        for t in state.well_tiles:
            base[_TILE_POS[t]] = 1
        base[_DAIMYO_POS[state.daimyo_card]] = 1
        for y, effects in enumerate(state.yard_effects):
            at = YARDS + y * _NEFF
            base[at:at + _NEFF] = _effect_bytes(effects)
        if len(base) != SIZE:
            raise ValueError("a field ran past its slice")
        self.template = bytes(base)
        self.garden_cp = tuple(state.data.gardens[cid].cp for cid in state.garden_cards)
        self.yard_effects = state.yard_effects  # held: its id stays this game's key
        self.made_of = _made_of(state)
        self.clans: list[tuple[Any, bytes] | None] = [None] * n
        self.board: list[tuple[Any, bytes, tuple[int, ...]] | None] = [None] * n


def _made_of(state: Any) -> tuple[Any, ...]:
    """What a game's template is made of (lists copied: compared by value later)."""
    return (state.n, state.rival, dict(state.options), state.data, list(state.yard_effects),
            list(state.garden_cards), list(state.room_tiles), state.well_tiles,
            state.daimyo_card)


_GAMES: dict[int, _Game] = {}


def _game_of(state: Any) -> _Game:
    """The game's remembered encoding, made afresh if new or its setup fields changed."""
    ye = state.yard_effects
    game = _GAMES.get(id(ye))
    if game is not None:
        n, rival, options, data, ye0, gc, rt, wt, dc = game.made_of
        if (n == state.n and rival == state.rival and data is state.data and ye0 == ye
                and gc == state.garden_cards and rt == state.room_tiles
                and wt == state.well_tiles and dc == state.daimyo_card
                and options == state.options):
            return game
    game = _Game(state)
    if len(_GAMES) >= _GAME_LIMIT:
        _GAMES.clear()
    _GAMES[id(ye)] = game
    return game


# ------------------------------------------------------------- the encoder
def encode_state(state: Any, seat: int | None) -> np.ndarray:
    """`encode(state.view(seat))` read straight from the state, bit for bit (float32,
    shape (SIZE,)); only what `seat` may see (None: a spectator).
    About 10 µs against 67 µs for view + encode (6.5x), 4 players, this machine."""
    try:
        return _encode_fast(state, seat)
    except (KeyError, IndexError, ValueError, TypeError):
        # Outside the tables (an unknown card id, a count a byte cannot hold): the
        # definition itself, which gives the same vector or its clear error.
        return encode(state.view(seat))


def _encode_fast(state: Any, seat: int | None) -> np.ndarray:
    """The fast path of `encode_state` (raises on anything outside its tables)."""
    n = state.n
    game = _game_of(state)
    me = 0 if seat is None else seat
    if not 0 <= me < n:
        raise IndexError(f"no seat {seat} in a game of {n} clans")
    cnt = bytearray(game.template)  # the setup's part
    if seat is not None:
        cnt[SEAT + me] = 1
    slots = _SLOTS[n][me]

    # The board's slow part (room cards, decks, Daimyo slots, gardeners, starting pairs).
    steward_deck = state.steward_deck
    diplomat_deck = state.diplomat_deck
    board_key = (tuple(state.room_cards), len(steward_deck), len(diplomat_deck),
                 tuple(state.daimyo_slots), tuple(map(tuple, state.garden_workers)),
                 tuple(state.draft_pairs))
    board = game.board[me]
    if board is None or board[0] != board_key:
        board = game.board[me] = _board(state, game, me, board_key)
    cnt[ROOM_CARDS:HELD] = board[1]
    gardener_cp = board[2]

    # The clans' blocks, in clan-slot order (who moves and the turn order come after).
    rival = state.rival
    data = state.data
    placements = state.placements
    clans = state.clans
    memo = game.clans
    blocks = []
    for q in _IN_SLOT[n][me]:
        c = clans[q]
        clan_key = (c.coins, c.seals, c.cp, c.pos, c.seq, c.card, tuple(c.res),
                    tuple(c.left), tuple(c.courtiers), tuple(c.warriors), tuple(c.lantern),
                    tuple(c.domain), placements[q], gardener_cp[q])
        block = memo[q]
        if block is None or block[0] != clan_key:
            block = memo[q] = (clan_key, _clan_block(c, placements[q], gardener_cp[q],
                                                q == rival, data))
        blocks.append(block[1])
    cnt[CLANS:CLANS + n * _CLAN_SIZE] = b"".join(blocks)
    bases = _BASES[n][me]
    stack = state.stack
    if stack:
        cnt[bases[stack[-1].seat] + C_TO_MOVE] = 1
    for i, q in enumerate(state.order):
        cnt[bases[q] + C_ORDER + i] = 1

    # The board's fast part: round, phase and turn, the dice.
    rnd = state.round
    if 1 <= rnd <= 3:
        cnt[ROUND + rnd - 1] = 1
    cnt[_PHASE_POS[state.phase]] = 1
    cnt[TURN] = state.turn_idx
    at = BRIDGES
    for dice in state.bridges:
        if dice:
            dice_key = tuple(dice)
            pairs = _BRIDGE_BYTES.get(dice_key) or _bridge_bytes(dice_key)
            cnt[at:at + len(pairs)] = pairs
        at += 2 * MAX_BRIDGE
    lone_left = state.lone_left
    if lone_left[0]:
        cnt[LONE] = 1
    if lone_left[1]:
        cnt[LONE + 1] = 1
    if lone_left[2]:
        cnt[LONE + 2] = 1
    spaces = state.spaces
    for at, space in zip(_SPACE_AT, spaces, strict=False):  # the first 7: not the Well
        if space:
            col, v = space[0]
            cnt[at + col] = 1
            cnt[at + 3] = v
            if len(space) > 1:
                col, v = space[1]
                cnt[at + 4 + col] = 1
                cnt[at + 7] = v
    well = spaces[A.SP_WELL]
    if well:
        k = len(well)
        cnt[WELL] = k if k < 255 else 255
        col, v = well[-1]
        cnt[WELL + 1 + col] = 1
        cnt[WELL + 4] = v
    held = state.held
    if held:
        cnt[HELD] = 1
        cnt[HELD + 1 + held[0]] = 1
        cnt[HELD + 4] = held[1]
        if held[2]:
            cnt[HELD + 5] = 1
    for col in state.fired:
        cnt[FIRED + col] = 1

    # The decision now and the ones waiting under it.
    checkpoint = None
    if stack:
        for f in stack[:-1]:
            cnt[PENDING + _FRAME_IDX[f.kind]] += 1
        checkpoint = _frame(cnt, stack[-1], slots)

    # The Solitaire deck (its length, its face-up top Bridge side) and the discards.
    solo_deck = state.solo_deck
    cnt[SOLO] = len(solo_deck)
    if rival is not None and solo_deck:
        top = data.solo_deck[solo_deck[0]]
        cnt[SOLO_TOP + top.colour] = 1
        cnt[_SOLO_POSITION[top.position]] = 1
        cnt[SOLO_TOP + 6 + top.destination] = 1
    for cid in state.discarded:
        cnt[_DISCARD_POS[cid]] = 1

    if len(cnt) != SIZE:
        raise ValueError("a field ran past its slice")  # (a slice write of a wrong size)
    latest = state.seq_counter
    if latest < 1:
        latest = 1
    caps = _CAPS_BY_LATEST.get((n, latest))
    if caps is None:
        caps = _caps_for(n, latest)
    vec: np.ndarray = np.frombuffer(cnt, dtype=np.uint8).astype(np.float32)
    np.minimum(vec, caps, out=vec)
    np.divide(vec, caps, out=vec)
    if checkpoint is not None:
        vec[F_CHOICE] = checkpoint
    return vec


def _board(state: Any, game: _Game, me: int, key: tuple[Any, ...]
           ) -> tuple[Any, bytes, tuple[int, ...]]:
    """The board's slow part for observer `me`: the slice from the room cards to the held
    die (the setup's fields in it included), and each clan's gardeners' CP."""
    out = bytearray(game.template)
    slots = _SLOTS[state.n][me]
    for pos_of, cid in zip(_ROOM_POS, state.room_cards, strict=False):
        out[pos_of[cid]] = 1
    out[DECKS] = len(state.steward_deck)
    out[DECKS + 1] = len(state.diplomat_deck)
    at = DAIMYO_SLOTS
    for holder in state.daimyo_slots:
        out[at if holder is None else at + 1 + slots[holder]] = 1
        at += CLAN_SLOTS + 1
    gardener_cp = [0] * state.n
    garden_cp = game.garden_cp
    at = GARDEN_WORKERS
    for g, workers in enumerate(state.garden_workers):
        for q in workers:
            out[at + slots[q]] = 1
            gardener_cp[q] += garden_cp[g]
        at += CLAN_SLOTS
    for at, pair in zip(_DRAFT_AT, state.draft_pairs, strict=False):
        if pair:
            out[at] = 1
            out[at + _DRAFT_RES[pair[0]]] = 1
            out[at + _DRAFT_ACT[pair[1]]] = 1
    if len(out) != SIZE:
        raise ValueError("a field ran past its slice")
    return key, bytes(out[ROOM_CARDS:HELD]), tuple(gardener_cp)


def _clan_block(c: Any, placed: int, gardens: int, is_rival: bool, data: Any) -> bytes:
    """A clan's whole block but who moves and the turn order, with its score by category
    (Scoring.scores: the rival's coins, seals and resources score nothing)."""
    out = bytearray(_CLAN_SIZE)
    out[C_PRESENT] = 1
    if is_rival:
        out[C_RIVAL] = 1
    coins = c.coins
    seals = c.seals
    cp = c.cp
    res = c.res
    left = c.left
    out[C_COINS:C_LEFT + 3] = (coins if coins < 255 else 255, seals, cp if cp < 255 else 255,
                               res[0], res[1], res[2], left[0], left[1], left[2])
    court = inside = 0
    for loc in c.courtiers:
        out[C_COURTIERS + loc] += 1
        court += COURTIER_CP[loc]
        if loc:
            inside += 1
    yard_values = data.yard_values
    warr = 0
    for y in c.warriors:
        out[C_WARRIORS + y] += 1
        warr += yard_values[y]
    warr *= inside
    if c.card is not None:
        out[_DOMAIN_OFF[c.card]] = 1
    for cid in c.lantern:
        out[_LANTERN_OFF[cid]] += 1
    out[C_POS] = c.pos
    out[C_SEQ] = c.seq  # / the latest stamp (the caps)
    row = C_DOMAIN
    for die in c.domain:
        if die is not None:
            out[row] = 1
            out[row + 1] = die[1]
        row += 2
    out[C_PLACED] = placed
    if is_rival:
        coins_seals = resources = 0
    else:
        coins_seals = (coins + seals) // 5
        resources = _RES_POINTS[res[0]] + _RES_POINTS[res[1]] + _RES_POINTS[res[2]]
    passage = data.passage_cp[c.pos]
    total = cp + coins_seals + resources + passage + court + warr + gardens
    out[C_SCORE:_SCORE_TOTAL + 1] = (cp if cp < 255 else 255, coins_seals, resources, passage,
                                     court, warr, gardens, total if total < 255 else 255)
    if len(out) != _CLAN_SIZE:
        raise ValueError("a clan field ran past its slice")
    return bytes(out)


def _frame(cnt: bytearray, f: Frame, slots: tuple[int, ...]) -> float | None:
    """The decision now (as `observation._frame_into`): its kind, who decides, and what its
    choices refer to; a checkpoint's steps /CHECKPOINT_CAP (not its position's cap), else None."""
    cnt[FRAME + _FRAME_IDX[f.kind]] = 1
    cnt[DECIDER + slots[f.seat]] = 1
    if f.kind == "effects":
        at = F_EFFECTS
        for e in f.effects[:MAX_EFFECTS]:
            one = (e,)
            cnt[at:at + _NEFF] = _EFFECT_BYTES.get(one) or _effect_bytes(one)
            at += _NEFF
    elif f.kind == "blocks":
        for r, i in f.options:
            cnt[_CARD_BLOCK_AT + i if r < 0 else _BLOCK_AT[(r, i)]] = 1
        if f.multi:
            cnt[_CARD_BLOCK_AT + CARD_BLOCKS] = 1
        if f.optional:
            cnt[_CARD_BLOCK_AT + CARD_BLOCKS + 1] = 1
    elif f.kind == "choice":
        cnt[F_CHOICE] = f.remaining
    elif f.kind == "checkpoint":
        cnt[F_COST + 1] = f.cost
        return _cap(f.steps, CHECKPOINT_CAP)
    elif f.kind == "pay":
        for k, n in f.cost:
            cnt[F_COST + (0 if k == "coin" else 1)] = n
        one = (f.effect,)
        cnt[F_PAY_FOR:F_PAY_FOR + _NEFF] = _EFFECT_BYTES.get(one) or _effect_bytes(one)
    elif f.kind == "outside":
        for w in f.workers:
            cnt[F_OUTSIDE + w] = 1
    elif f.kind == "courtier":
        if f.audience_done:
            cnt[F_COURTIER] = 1
        if f.climb_done:
            cnt[F_COURTIER + 1] = 1
    elif f.kind == "garden_round" or f.kind == "rival_garden":
        for g in f.gardens:
            cnt[F_GARDENS + g] = 1
    elif f.kind == "rival_room":
        cnt[F_FLOOR] = f.floor
    return None


# The game's observation slot (kamon.core.layout.Observation). The information state's
# bounds: random play over 150 games per set-up reached 170 decisions / 6 reveals (4
# players) and 50 / 15 (solo): the castle decks (22 cards), two re-rolls and the Solitaire
# deck bound the reveals.
OBSERVATION = Observation(_view.FIELDS, _view.SIZE, _view.encode, _view.MARGIN_SCALE,
                          encode_state, _view.VOCABULARIES, recall_limits=(400, 40))
