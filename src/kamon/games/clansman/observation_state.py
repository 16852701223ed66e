"""The I, Clansman observation read straight from the state: `encode_state(state, seat)` is
`observation.encode(state.view(seat))` bit for bit, without building the view.

The view copies the whole state to JSON and computes every seat's scores in dicts; this
writes the same float32 values into a copy of a template buffer instead:

- every card id maps straight to its absolute index through tables built at import (one
  per seat slot);
- what a (players, observer) pair fixes (the seat slots, the observer's one-hot, the player
  count, the seats present, which Kochisei-Shuraku is whose) is built once per pair;
- the VPs are added up as scoring.breakdown (the total, game-end Emperor VPs included) and
  scoring.colour_vp add them, from tables of each game's card data (an overlay may change
  it) built on first use;
- a count c with cap m is written only when c > 0, as c / m or 1.0 when c >= m: what
  observation._cap gives an integer. The VP fields and the pool field, pure functions of a
  few integers, are remembered as float32 blocks computed with _cap itself.

It reads only what the view shows (hands are public; of the century piles only their
sizes); tests/clansman/test_fast_observation.py holds it equal to the definition. Import
`encode_state` from kamon.games.clansman.observation, which re-exports it.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from kamon.core.layout import Observation
from kamon.games.clansman import actions as A
from kamon.games.clansman import observation as _view
from kamon.games.clansman.data import KOCHISEI, VOLATILE, VP_COLOURS, CSData
from kamon.games.clansman.observation import (
    _DATA,
    _G,
    CAP,
    CAP_G,
    CENTURY,
    CENTURY_CARDS,
    CLAN_ROW,
    DISCARD,
    EMPERORS,
    EMPERORS_IN,
    EMPERORS_LEFT,
    G_CLANS,
    G_COLOUR,
    G_DAUGHTER,
    G_EMPERORS,
    G_HAND,
    G_HERO,
    G_ITEMS,
    G_KOFUN,
    G_MISSIONS,
    G_OBTAINED,
    G_PRESENT,
    G_SCORE,
    G_START,
    G_TO_MOVE,
    HEROES,
    HEROES_LEFT,
    KOFUN,
    KOFUN_LEFT,
    LOCK,
    MISSIONS,
    MIYAKE,
    MODE,
    PENDING,
    PENDING_CARDS,
    PHASE,
    PHASES,
    PILES,
    PLAYERS,
    POOL,
    PRINCES,
    PRINCES_UP,
    ROUND,
    ROUNDS,
    SCORE_KEYS,
    SEAT,
    SEAT_SLOTS,
    SEATS,
    SET_ASIDE,
    SIZE,
    STEP,
    STEPS,
    SUPPLY,
    TURN,
    USABLE,
    USE_TARGETS,
    USED,
    _cap,
    _idx,
    encode,
)

if TYPE_CHECKING:
    from kamon.games.clansman.state import ClansmanState

_GS = _G.size
_FLOAT32 = np.dtype(np.float32)
_F_TADOKORO = "2 tadokoro"  # how option F and option G show in a seat's obtained list
_G_TADOKORO = "1 tadokoro"


def _flat(start: int, vocab: Sequence[str]) -> dict[str, int]:
    """Card id -> absolute index of a field starting at `start`."""
    return {c: start + i for i, c in enumerate(vocab)}


def _per_slot(start: int, vocab: Sequence[str]) -> tuple[dict[str, int], ...]:
    """Card id -> absolute index of a seat-block field, one table per seat slot."""
    return tuple(_flat(SEATS + k * _GS + start, vocab) for k in range(SEAT_SLOTS))


_CLANS_AT = _per_slot(G_CLANS, CLAN_ROW)
_HAND_AT = _per_slot(G_HAND, CENTURY_CARDS)
_KOFUN_AT = _per_slot(G_KOFUN, KOFUN)
_HERO_AT = _per_slot(G_HERO, HEROES)
_EMPERORS_AT = _per_slot(G_EMPERORS, EMPERORS)
_WIFE_PRINCE_AT = _per_slot(G_DAUGHTER + 1, PRINCES)
_WIFE_CLAN_AT = _per_slot(G_DAUGHTER + 1 + len(PRINCES) + SEAT_SLOTS, CLAN_ROW)
_SUPPLY_AT = _flat(SUPPLY, CENTURY_CARDS)
_DISCARD_AT = _flat(DISCARD, CENTURY_CARDS)
_PRINCES_AT = _flat(PRINCES_UP, PRINCES)
_HEROES_AT = _flat(HEROES_LEFT, HEROES)
_KOFUN_LEFT_AT = _flat(KOFUN_LEFT, KOFUN)
_EMPERORS_IN_AT = _flat(EMPERORS_IN, EMPERORS)
_EMPERORS_LEFT_AT = _flat(EMPERORS_LEFT, EMPERORS)
_SET_ASIDE_AT = _flat(SET_ASIDE, EMPERORS)
_PENDING_AT = _flat(PENDING, PENDING_CARDS)
_PHASE_AT = _flat(PHASE, PHASES)
_STEP_AT = _flat(STEP, STEPS)
# Round -> (its one-hot index, its century's): the bundled data's centuries, as encode reads.
_ROUND_AT = {r: (ROUND + r - 1, CENTURY + _idx("century", _DATA.rules.century_of_round[r]))
             for r in range(1, ROUNDS + 1)}

# What one (players, observer) pair fixes: a template holding the observer's seat, the player
# count and the seats present; per seat (by absolute number q) its slot k, the absolute
# indexes of its block's fields, its card tables, and where "married into seat r's card" is
# for each r; notation key -> USABLE and -> USED index (the Kochisei-Shuraku by seat slot).
_SeatGeo = tuple[int, int, int, int, int, int, int, int, int, dict[str, int], dict[str, int],
                 dict[str, int], dict[str, int], dict[str, int], tuple[int, ...],
                 dict[str, int], dict[str, int]]
_Geometry = tuple["array[float]", tuple[_SeatGeo, ...], dict[str, int], dict[str, int]]


def _geometry(n: int, me: int, spectator: bool) -> _Geometry:
    """What only the player count and the observer fix, as encode writes it."""
    slot_of = tuple((q - me) % n for q in range(n))
    template = array("f", bytes(4 * SIZE))
    if not spectator:
        template[SEAT + me] = 1.0
    if 2 <= n <= 4:
        template[PLAYERS + n - 2] = 1.0
    seats = []
    for q, k in enumerate(slot_of):
        at = SEATS + k * _GS
        template[at + G_PRESENT] = 1.0
        husband = tuple(at + G_DAUGHTER + 1 + len(PRINCES) + slot for slot in slot_of)
        seats.append((q, k, at + G_TO_MOVE, at + G_START, at + G_ITEMS, at + G_OBTAINED,
                      at + G_DAUGHTER, at + G_SCORE, at + G_COLOUR + len(VP_COLOURS),
                      _CLANS_AT[k], _HAND_AT[k], _KOFUN_AT[k], _HERO_AT[k], _EMPERORS_AT[k],
                      husband, _WIFE_PRINCE_AT[k], _WIFE_CLAN_AT[k]))
    targets = {key: i for i, key in enumerate(USE_TARGETS) if " " not in key}
    for q in range(n):  # what observation._target reads: a Kochisei-Shuraku at the table
        targets[A.clan_key(q, KOCHISEI)] = slot_of[q]
    return (template, tuple(seats), {key: USABLE + i for key, i in targets.items()},
            {key: USED + i for key, i in targets.items()})


# Seat None is the spectator (seen as seat 0, without the seat one-hot).
_GEOMETRY: dict[tuple[int, int | None], _Geometry] = {
    (n, me if seated else None): _geometry(n, me, not seated)
    for n in range(1, SEAT_SLOTS + 1) for me in range(n) for seated in (True, False)
    if seated or me == 0}

# What the VPs need from one game's card data (an overlay may change them), built on first use:
# per seat slot, mission id -> (absolute index, VP colour index, VPs); the statue-scoring
# temples, VPs per Statue and (Beginner) per Mirror; Kofun id -> (VPs, VPs per Mirror under
# it); Emperor face -> VPs as an awarded card; the Emperor faces in play -> their game-end
# terms (filled as games ask, see _end_terms).
_EndTerm = tuple[bool, int, int, bool]  # per Mission?, its colour index, VPs each, needs temple
_EndTerms = tuple[tuple[_EndTerm, ...], ...]
_Scoring = tuple[tuple[dict[str, tuple[int, int, int]], ...], frozenset[str], int, int,
                 dict[str, tuple[int, int]], dict[str, int],
                 dict[tuple[str, ...], _EndTerms]]
_SCORING: dict[int, tuple[CSData, _Scoring]] = {}


def _scoring_tables(data: CSData) -> _Scoring:
    """The VP tables of one card data (cached by identity; the data object is kept alive)."""
    hit = _SCORING.get(id(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    cards = data.cards
    colour = {c: i for i, c in enumerate(VP_COLOURS)}
    missions = tuple({cid: (at[cid], colour[cards[cid].vp_colour or ""], cards[cid].vp)
                      for cid in MISSIONS if cid in cards}
                     for at in _per_slot(G_MISSIONS, MISSIONS))
    kofun = {cid: (c.vp, c.mirror_vp_each) for cid, c in cards.items() if c.type == "kofun"}
    award = {cid: c.effect[3] if c.effect is not None and c.effect[0] == "award" else 0
             for cid, c in cards.items() if c.type == "emperor"}
    rules = data.rules
    tables: _Scoring = (missions, rules.statue_vp_enablers, rules.vp_per_statue,
                        rules.beginner_vp_per_mirror, kofun, award, {})
    if len(_SCORING) >= 64:
        _SCORING.clear()
    _SCORING[id(data)] = (data, tables)
    return tables


def _end_terms(data: CSData, faces: tuple[str, ...]) -> _EndTerms:
    """The game-end VPs of Emperor faces in play, as scoring.breakdown adds them: one group per
    category (f'{colour}_jito' for VPs per Mission of a colour, f'{colour}_shotoku' for VPs
    per Statue), its faces last first, since there a later face's value replaces an earlier
    one's and a per-Statue face needing a temple sets nothing without one."""
    colour = {c: i for i, c in enumerate(VP_COLOURS)}
    groups: dict[str, list[_EndTerm]] = {}
    for face in faces:
        eff = data.cards[face].effect
        if eff is not None and eff[0] == "vp_per_mission":
            groups.setdefault(f"{eff[2]}_jito", []).insert(
                0, (True, colour.get(eff[1], -1), eff[3], False))
        elif eff is not None and eff[0] == "vp_per_statue":
            groups.setdefault(f"{eff[1]}_shotoku", []).insert(0, (False, -1, eff[2], bool(eff[3])))
    return tuple(tuple(g) for g in groups.values())


# Two fields are pure functions of a few integers, so their float32 values are remembered
# (the dicts are cleared when full): a seat's VP fields (score then vp_by_colour, adjacent)
# from its VPs by SCORE_KEYS, and the pool field from the pool.
_MEMO_SIZE = 4096
_ITEM_CAPS = CAP_G[G_ITEMS]  # the caps of the table (observation.py), read, never written
_OBTAINED_CAPS = CAP_G[G_OBTAINED]
_PILE_CAP = CAP[PILES][0]
assert set(CAP[PILES]) == {_PILE_CAP}  # one cap for every pile (the unrolled loop's)
_VP_FIELDS: dict[tuple[int, ...], array[float]] = {}
_POOL_FIELD: dict[tuple[int, ...], array[float]] = {}
assert G_SCORE + len(SCORE_KEYS) == G_COLOUR and SCORE_KEYS[-1] == "total"


def _vp_fields(vp: tuple[int, ...]) -> array[float]:
    """The score and vp_by_colour fields of VPs given in SCORE_KEYS order, as encode writes
    them (the colours summed as scoring.colour_vp does), over the table's caps."""
    mil, rel, kof, kofm, statues, gov, eco, oth, emp, total = vp
    colours = (mil, rel + statues + kof + kofm, gov, eco, oth + emp)
    block = array("f", [_cap(v, c) for v, c in zip(vp, CAP_G[G_SCORE], strict=True)] + [
        _cap(v, c) for v, c in zip(colours, CAP_G[G_COLOUR], strict=True)])
    if len(_VP_FIELDS) >= _MEMO_SIZE:
        _VP_FIELDS.clear()
    _VP_FIELDS[vp] = block
    return block


def _pool_field(pool: tuple[int, ...]) -> array[float]:
    """The pool field of a pool, as encode writes it."""
    values = [_cap(k, c) for k, c in zip(pool[:VOLATILE], CAP[POOL], strict=False)]
    block = array("f", values + [0.0] * (VOLATILE - len(values)))
    if len(_POOL_FIELD) >= _MEMO_SIZE:
        _POOL_FIELD.clear()
    _POOL_FIELD[pool] = block
    return block


def encode_state(state: ClansmanState, seat: int | None) -> np.ndarray:
    """encode(state.view(seat)) bit for bit, read from the state without building the view
    (about 13.5 µs against 80 µs for view+encode, 6x, 4 players, this machine); a state the
    tables do not cover (an unknown card id, a seat off the table) goes through the view, so
    it fails the way encode does."""
    try:
        return _encode_state(state, seat)
    except (KeyError, IndexError):
        return encode(state.view(seat))


def _encode_state(s: ClansmanState, seat: int | None) -> np.ndarray:
    """The fast path of encode_state (KeyError or IndexError where encode would refuse)."""
    n = s.n
    template, seats, usable_at, used_at = _GEOMETRY[
        n, None if seat is None else int(seat)]
    tad_c, iron_c, statue_c, mirror_c, kofm_c = _ITEM_CAPS  # the table's, as locals
    obt_c, f_c, g_c = _OBTAINED_CAPS
    o = template[:]
    options = s.options
    if options.get("expert"):
        o[MODE] = 1.0
        o[MODE + (1 if options.get("emperor_side", "A") == "A" else 2)] = 1.0
    if options.get("emperor_variant"):
        o[MODE + 3] = 1.0
    if options.get("variant"):
        o[MODE + 4] = 1.0

    # ---- the seat blocks
    data = s.data
    missions_of, temples, per_statue, per_mirror, kofun_of, award, end_terms_of = \
        _scoring_tables(data)
    expert = s.expert
    end_terms: _EndTerms = ()
    if expert:
        faces = tuple(s.emperors)
        found = end_terms_of.get(faces)
        if found is None:
            found = end_terms_of[faces] = _end_terms(data, faces)
        end_terms = found
    to_move = s.to_move
    start = s.start
    daughters = s.daughters
    players = s.players
    for (q, k, to_move_at, start_at, i, obtained_at, daughter_at, vp_at, vp_end, clans_at,
         hand_at, kofun_at, hero_at, emp_at, husband_at, wife_prince_at, wife_clan_at) in seats:
        g = players[q]
        if q == to_move:
            o[to_move_at] = 1.0
        if q == start:
            o[start_at] = 1.0
        x = g.tadokoro  # i: the items field
        if x > 0:
            o[i] = x / tad_c if x < tad_c else 1.0
        x = g.iron
        if x > 0:
            o[i + 1] = x / iron_c if x < iron_c else 1.0
        statue = g.statue
        if statue > 0:
            o[i + 2] = statue / statue_c if statue < statue_c else 1.0
        mirror = g.mirror
        if mirror > 0:
            o[i + 3] = mirror / mirror_c if mirror < mirror_c else 1.0
        x = g.kofun_mirrors
        if x > 0:
            o[i + 4] = x / kofm_c if x < kofm_c else 1.0
        clans = g.clans
        for cid in clans:
            o[clans_at[cid]] = 1.0
        for cid in g.hand:
            o[hand_at[cid]] = 1.0
        if g.kofun is not None:
            o[kofun_at[g.kofun]] = 1.0
        if g.hero is not None:
            o[hero_at[g.hero]] = 1.0
        emp = 0
        for face in g.emperors:
            o[emp_at[face]] = 1.0
            emp += award[face]
        obtained = g.obtained
        if obtained:
            i = obtained_at
            f = obtained.count(_F_TADOKORO)
            x = obtained.count(_G_TADOKORO)
            c = len(obtained) - f - x
            if c > 0:
                o[i] = c / obt_c if c < obt_c else 1.0
            if f > 0:
                o[i + 1] = f / f_c if f < f_c else 1.0
            if x > 0:
                o[i + 2] = x / g_c if x < g_c else 1.0
        d = daughters[q]
        if d is not None:
            owner, cid = d
            o[daughter_at] = 1.0
            if owner < 0:
                o[wife_prince_at[cid]] = 1.0
            else:
                o[husband_at[owner]] = 1.0
                o[wife_clan_at[cid]] = 1.0

        # VPs as scoring.breakdown (the total, game end included) and colour_vp count them
        mission_at = missions_of[k]
        missions = g.missions
        if missions:
            col = [0, 0, 0, 0, 0]
            for cid in missions:
                i, c, x = mission_at[cid]
                o[i] = 1.0
                col[c] += x
            mil, rel, gov, eco, oth = col
        else:
            mil = rel = gov = eco = oth = 0
        temple = not temples.isdisjoint(clans)
        statues = statue * per_statue if temple else 0
        total = mil + rel + gov + eco + oth + statues
        kof = kofm = 0
        if not expert:
            total += mirror * per_mirror
            emp = 0  # Beginner: no Emperor cards score
        else:
            if g.kofun is not None:
                kof, each = kofun_of[g.kofun]
                kofm = g.kofun_mirrors * each
            total += kof + kofm + emp
            for group in end_terms:  # the first face of a category that scores
                for per_mission, colour, each, needs_temple in group:
                    if per_mission:
                        for cid in missions:
                            if mission_at[cid][1] == colour:
                                total += each
                        break
                    if not needs_temple or temple:
                        total += statue * each
                        break
        vps = (mil, rel, kof, kofm, statues, gov, eco, oth, emp, total)  # as SCORE_KEYS
        block = _VP_FIELDS.get(vps)
        o[vp_at:vp_end] = _vp_fields(vps) if block is None else block

    # ---- the table
    rnd = _ROUND_AT.get(s.round)
    if rnd is not None:
        o[rnd[0]] = 1.0
        o[rnd[1]] = 1.0
    o[_PHASE_AT[s.phase]] = 1.0
    if s.step:
        o[_STEP_AT[s.step]] = 1.0
    x = s.turn
    if x > 0:
        o[TURN] = x / n if x < n else 1.0
    piles = s.piles
    pc = _PILE_CAP
    if len(piles) == 4:  # as the loop below, unrolled
        p4, p5, p6, p7 = piles
        x = len(p4)
        if x:
            o[PILES] = x / pc if x < pc else 1.0
        x = len(p5)
        if x:
            o[PILES + 1] = x / pc if x < pc else 1.0
        x = len(p6)
        if x:
            o[PILES + 2] = x / pc if x < pc else 1.0
        x = len(p7)
        if x:
            o[PILES + 3] = x / pc if x < pc else 1.0
    else:
        for i, pile in enumerate(piles, PILES):
            x = len(pile)
            if x:
                o[i] = x / pc if x < pc else 1.0
    for cid in s.supply:
        o[_SUPPLY_AT[cid]] = 1.0
    for cid in s.discard:
        o[_DISCARD_AT[cid]] = 1.0
    for cid in s.princes:
        o[_PRINCES_AT[cid]] = 1.0
    miyake_c, row_c, bank_c = CAP[MIYAKE]
    x = s.miyake
    if x > 0:
        o[MIYAKE] = x / miyake_c if x < miyake_c else 1.0
    x = s.miyake_row
    if x > 0:
        o[MIYAKE + 1] = x / row_c if x < row_c else 1.0
    x = s.bank_tadokoro
    if x > 0:
        o[MIYAKE + 2] = x / bank_c if x < bank_c else 1.0
    for cid in s.heroes:
        o[_HEROES_AT[cid]] = 1.0
    for cid in s.kofun:
        o[_KOFUN_LEFT_AT[cid]] = 1.0
    for cid in s.emperors:
        o[_EMPERORS_IN_AT[cid]] = 1.0
    for cid in s.emperor_centre:
        o[_EMPERORS_LEFT_AT[cid]] = 1.0
    for cid in s.set_aside:
        o[_SET_ASIDE_AT[cid]] = 1.0
    pool = s.pool
    if any(pool):
        counts = tuple(pool)
        block = _POOL_FIELD.get(counts)
        o[POOL:POOL + VOLATILE] = _pool_field(counts) if block is None else block
    for key, _owner, _cid in s.usable:
        o[usable_at[key]] = 1.0
    for key in s.used:
        o[used_at[key]] = 1.0
    x = s.lock
    lock_c = CAP[LOCK][0]
    if x > 0:
        o[LOCK] = x / lock_c if x < lock_c else 1.0
    if s.pending is not None:
        o[_PENDING_AT[s.pending]] = 1.0
    return np.frombuffer(o, _FLOAT32)




# The game's observation slot (kamon.core.layout.Observation). The information state's
# bounds: random play over 150 games per set-up reached 252 decisions / 15 reveals: the 15
# rounds after the first bound the reveals.
OBSERVATION = Observation(_view.FIELDS, _view.SIZE, _view.encode, _view.MARGIN_SCALE,
                          encode_state, _view.VOCABULARIES, recall_limits=(400, 24))
