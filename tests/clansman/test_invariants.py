"""Property tests of the I, Clansman engine over thousands of seeded random games.

Every game is played by a uniform random chooser (kamon.core.rng.Rng seeded with the
game's seed, choosing from `legal_ids()`): 1,000 games in each of Beginner, Expert
side A and Expert side B, plus 100 each of the unofficial small-table variant (R35)
at 2 and 3 players and 30 each of five other option sets (R32 faces, start_player).

Cheap invariants are checked after EVERY action:
- `check_invariants`: every century card, Hero, Kofun and Emperor face in exactly one
  place; Tadokoro + Miyake row + Miyake + Bank == 32, and Tadokoro conserved with what
  was obtained from the Bank; items never negative; Mirrors only from Missions; one
  card obtained per player per round; piles, Supply, Royal Prince faces and start
  seat as the round says (R09, R10, R33); daughters on distinct legal targets; a
  decision exists (to_move set) exactly until the end.
- `check_transition`: what the action changed, against the rules and the raw card
  data: dowries (R13), F/G Tadokoro, Yuryaku's levy (R29), items paid and gained by
  an obtained card (Keitai R30), Mirrors under a new Kofun (R22), the century-end
  Emperor awards (R26, R28), colour VPs, and the workforce of each fresh Production
  turn (R01, R15, R16).

The expensive checks run only at SAMPLED points, to keep the ~3,400 games to about a
minute and a half on two cores: every `LEGAL_SAMPLE_EVERY`-th decision the legal set
is recomputed independently and every legal action is parsed, described and applied
to a clone; two mid-game snapshots per game (JSON text and a clone) are kept; at the
end the record replays to the identical `dumps()` and scores, JSON round trips are
exact, play continued from the restored first snapshot and from the cloned second
one ends identically, every `PARTIAL_REPLAY_EVERY`-th seed replays up to a snapshot,
and scores and winners (total, then Iron, then shared: R24) are recomputed from the
raw card data. `test_legal_actions_match_the_rules_at_every_decision` checks the legal
set at every decision of 750 further games.

Runs are parametrized by mode and chunk of seeds so `pytest -n 2` spreads them.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import pytest

from kamon.core.errors import IllegalAction
from kamon.core.record import GameRecord, replay
from kamon.core.rng import Rng
from kamon.games.clansman import GAME, ClansmanState
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import GOODS

# mode name -> (players, options)
MODES: dict[str, tuple[int, dict[str, Any]]] = {
    "beginner": (4, {}),
    "expert-A": (4, {"expert": True}),
    "expert-B": (4, {"expert": True, "emperor_side": "B"}),
}
GAMES_PER_MODE = 1000
CHUNKS = 5
CHUNK = GAMES_PER_MODE // CHUNKS
SMALL_TABLE_GAMES = 100
ROUNDS = 16
TADOKORO_CARDS = 32
START_TADOKORO = 4
FLIP_AT = 4  # Tadokoro in the Miyake row that flip to one Miyake (R15)
KOCHISEI = "300"
JINGU = "004"  # the Emperor face that goes into the Clan cards row (R28)
TEMPLES = ("601", "602")  # own one and Statues score 1 Religion VP each (R21)
TADOKORO_OBTAINS = {"2 tadokoro": 2, "1 tadokoro": 1}
VOLATILE = 10
COLOURS = ("military", "religion", "government", "economy", "others")
SEAT_NAMES = ("blue", "orange", "teal", "pink")
# Every LEGAL_SAMPLE_EVERY-th decision every legal action is tried on a clone.
LEGAL_SAMPLE_EVERY = 45
# Every PARTIAL_REPLAY_EVERY-th seed also replays the record up to the last snapshot.
PARTIAL_REPLAY_EVERY = 10


# ----------------------------------------------------------------- raw card data


@cache
def raw_cards() -> dict[str, dict[str, Any]]:
    """The bundled cards.json read directly (independent of the engine's data loader)."""
    text = (resources.files("kamon.games.clansman") / "data" / "cards.json").read_text(
        encoding="utf-8")
    return {c["id"]: c for c in json.loads(text)["cards"]}


@cache
def raw_decks() -> dict[int, frozenset[str]]:
    """Century -> the 16 card ids of its pile, from the raw data."""
    decks: dict[int, set[str]] = {4: set(), 5: set(), 6: set(), 7: set()}
    for cid, card in raw_cards().items():
        if card["type"] in ("clan", "mission"):
            decks[int(card["century"])].add(cid)
    return {c: frozenset(ids) for c, ids in decks.items()}


def ids_of(kind: str) -> list[str]:
    """All card ids of a raw card type, sorted."""
    return sorted(cid for cid, c in raw_cards().items() if c["type"] == kind)


CENTURY_OF_CARD = {cid: c for c, ids in raw_decks().items() for cid in ids}
ALL_CENTURY_CARDS = frozenset(CENTURY_OF_CARD)
CENTURY_CLANS = frozenset(c for c in ALL_CENTURY_CARDS if raw_cards()[c]["type"] == "clan")
MISSIONS = frozenset(c for c in ALL_CENTURY_CARDS if raw_cards()[c]["type"] == "mission")
DECKS = raw_decks()
EARLIER = {c: frozenset(x for x in ALL_CENTURY_CARDS if CENTURY_OF_CARD[x] < c)
           for c in range(4, 8)}
AWARDED_FACES = frozenset(
    cid for cid in ids_of("emperor")
    if raw_cards()[cid]["function"]["effect"]["kind"] == "award_card_to_majority")
STARTING_CLANS = frozenset(ids_of("starting_clan"))
HEROES = frozenset(ids_of("hero"))
KOFUN = frozenset(ids_of("kofun"))
EMPEROR_SIDES = {"A": ["000", "001", "002", "003"], "B": ["004", "005", "006", "007"]}
PRINCES_EARLY = ["800", "801", "802"]
PRINCES_LATE = ["803", "804", "805"]


def century_of_round(r: int) -> int:
    """Rounds 1-4 are the 4th Century, 5-8 the 5th, and so on."""
    return 4 + (r - 1) // 4


@cache
def mission_vp(cid: str) -> tuple[str, int]:
    """(colour, amount) a Mission is worth, from the raw data."""
    vp = raw_cards()[cid]["function"]["vp"]
    return str(vp["colour"]), int(vp["amount"])


@cache
def mirrors_given(cid: str) -> int:
    """Mirror tokens a Mission gives when obtained (the only source of Mirrors)."""
    return int(raw_cards()[cid]["function"].get("items", {}).get("mirror", 0))


MIRROR_GIVERS = {cid: mirrors_given(cid) for cid in MISSIONS if mirrors_given(cid)}


def expected_score_keys(state: ClansmanState) -> set[str]:
    """The breakdown keys a game with these options must have (fixed per options)."""
    keys = {f"{c}_missions" for c in COLOURS} | {"religion_statues", "total"}
    if not state.expert:
        return keys | {"mirrors"}
    keys |= {"religion_kofun", "religion_kofun_mirrors", "others_emperors"}
    for face in state.emperors:
        eff = raw_cards()[face]["function"]["effect"]
        if eff["kind"] == "vp_per_obtained_mission_with_vp_colour":
            keys.add(f"{eff['vp']['colour']}_jito")
        elif eff["kind"] == "vp_per_statue_held":
            keys.add(f"{eff['vp']['colour']}_shotoku")
    return keys


def independent_total(state: ClansmanState, p: int) -> int:
    """p's final VPs recomputed from the raw card data (R21, R22, R25-R31 defaults)."""
    pl = state.players[p]
    total = sum(mission_vp(cid)[1] for cid in pl.missions)
    temple = any(t in pl.clans for t in TEMPLES)
    if temple:
        total += pl.statue
    if not state.expert:
        return total + pl.mirror  # Beginner: 1 VP per Mirror (R22)
    if pl.kofun is not None:
        kofun = raw_cards()[pl.kofun]["function"]
        total += int(kofun["vp"]["amount"])
        total += pl.kofun_mirrors * int(kofun["mirror_vp_each"]["amount"])
    for face in pl.emperors:
        total += int(raw_cards()[face]["function"]["effect"]["vp"]["amount"])
    for face in state.emperors:
        eff = raw_cards()[face]["function"]["effect"]
        if eff["kind"] == "vp_per_obtained_mission_with_vp_colour":
            n = sum(1 for cid in pl.missions if mission_vp(cid)[0] == eff["colour"])
            total += n * int(eff["vp"]["amount"])
        elif eff["kind"] == "vp_per_statue_held" and (temple or not eff["requires_temple"]):
            total += pl.statue * int(eff["vp"]["amount"])
    return total


def expected_start(state: ClansmanState, first_start: int) -> int:
    """The start seat in the current round: passes left every Cleanup except after rounds
    4, 8, 12 (R10); every round in the 3-player small-table variant (R35)."""
    passes = state.round - 1
    if not (state.small_table and state.n == 3):
        passes -= sum(1 for r in (4, 8, 12) if r < state.round)
    elif state.is_over():
        passes += 1  # the marker passes at the final Cleanup too (harmless)
    return (first_start + passes) % state.n


# ------------------------------------------------------------------ invariants


def check_cards(state: ClansmanState, where: str) -> None:
    """Every card is in exactly one place, and each place holds only cards it may hold."""
    places = [c for pile in state.piles for c in pile] + state.supply + state.discard
    for p, pl in enumerate(state.players):
        clans = pl.clans
        assert clans[0] == KOCHISEI and clans[1] in STARTING_CLANS, (
            f"{where}: seat {p} clan row {clans}")
        for cid in clans[2:]:
            if cid != JINGU:
                assert cid in CENTURY_CLANS, f"{where}: seat {p} has {cid} in the clan row"
                places.append(cid)
        assert MISSIONS.issuperset(pl.missions), f"{where}: seat {p} missions {pl.missions}"
        assert ALL_CENTURY_CARDS.issuperset(pl.hand), f"{where}: hand {pl.hand}"
        places += pl.missions
        places += pl.hand
    if len(places) != len(ALL_CENTURY_CARDS) or set(places) != ALL_CENTURY_CARDS:
        count = Counter(places)
        raise AssertionError(
            f"{where}: century cards missing {sorted(ALL_CENTURY_CARDS - set(places))}, "
            f"unknown {sorted(set(places) - ALL_CENTURY_CARDS)}, in two places "
            f"{sorted(c for c, k in count.items() if k > 1)}")
    starting = {pl.clans[1] for pl in state.players}
    assert len(starting) == state.n, f"{where}: starting clans {starting}"
    assert all(pl.clans.count(KOCHISEI) == 1 for pl in state.players), f"{where}: two 300s"

    # Piles: later centuries untouched, the current one drawn 7 then 3 per round (R09).
    century = state.century
    assert century == century_of_round(state.round)
    k = (state.round - 1) % 4  # rounds of this century already begun before this one
    for c in range(4, 8):
        pile = state.piles[c - 4]
        assert DECKS[c].issuperset(pile), f"{where}: pile {c} holds {pile}"
        size = 16 if c > century else 0 if c < century else 16 - 7 - 3 * k
        assert len(pile) == size, f"{where}: pile {c} has {len(pile)} cards, expected {size}"
    assert DECKS[century].issuperset(state.supply), (
        f"{where}: Supply {state.supply} not all of the {century}th century")
    assert EARLIER[century].issuperset(state.discard), f"{where}: discard {state.discard}"
    if state.n == 4 and state.step == "produce":
        assert state.supply, f"{where}: empty Supply on a 4-player turn (R09)"

    # Heroes: centre or one player's; Kofun likewise (Expert only).
    heroes = state.heroes + [pl.hero for pl in state.players if pl.hero is not None]
    assert sorted(heroes) == sorted(HEROES), f"{where}: heroes {heroes}"
    kofun = state.kofun + [pl.kofun for pl in state.players if pl.kofun is not None]
    if state.expert:
        assert sorted(kofun) == sorted(KOFUN), f"{where}: kofun {kofun}"
    else:
        assert kofun == [], f"{where}: Kofun in a Beginner game: {kofun}"

    # Emperor faces: centre, set aside, a player's emperors, or 004 in a Clan cards row.
    if not state.expert:
        assert state.emperors == [] and state.emperor_centre == [] and state.set_aside == []
        assert all(pl.emperors == [] for pl in state.players)
        assert all(JINGU not in pl.clans for pl in state.players)
    else:
        emp = state.emperor_centre + state.set_aside
        for pl in state.players:
            emp += pl.emperors
            if JINGU in pl.clans:
                emp.append(JINGU)
            assert JINGU not in pl.emperors, f"{where}: 004 among awarded emperors"
        assert sorted(emp) == sorted(state.emperors), (
            f"{where}: emperor faces {emp} vs in play {state.emperors}")
        # A face whose century ended has been decided (if it is awarded); later ones wait.
        for i, face in enumerate(state.emperors):
            ended = state.is_over() or state.round > 4 * (i + 1)
            if not ended:
                assert face in state.emperor_centre, f"{where}: {face} left the centre early"
            elif face in AWARDED_FACES:
                assert face not in state.emperor_centre, f"{where}: {face} never awarded"

    # Royal Princes flip in round 9 (R33).
    princes = PRINCES_LATE if state.round >= 9 else PRINCES_EARLY
    assert state.princes == princes, f"{where}: princes {state.princes} in round {state.round}"


def check_daughters(state: ClansmanState, where: str) -> None:
    """Daughters lie on distinct legal targets; none lie anywhere outside a round's play."""
    assert len(state.daughters) == state.n
    seen = set()
    for q, d in enumerate(state.daughters):
        if d is None:
            continue
        owner, cid = d
        assert d not in seen, f"{where}: two daughters on {d}"
        seen.add(d)
        if owner < 0:
            assert cid in state.princes, f"{where}: seat {q} on a hidden prince face {cid}"
        else:
            assert cid in state.players[owner].clans, f"{where}: seat {q} on {d}"
    if state.phase == "marriage":
        # Seats marry start-1, start-2, ...: only those already married may have a daughter out.
        married = {(state.start - 1 - i) % state.n for i in range(state.turn)}
        for q, d in enumerate(state.daughters):
            if q not in married:
                assert d is None, f"{where}: seat {q} married out of turn"
    if state.is_over():
        assert all(d is None for d in state.daughters), f"{where}: daughters not returned"


def check_obtained(state: ClansmanState, p: int, where: str) -> None:
    """p's obtained list matches the round and the cards p holds (one card per round)."""
    pl = state.players[p]
    done = state.round - 1
    if state.is_over():
        done = ROUNDS
    elif state.phase == "production":
        order = [(state.start + i) % state.n for i in range(state.n)]
        pos = order.index(p)
        if pos < state.turn or (pos == state.turn and state.step == "hand"):
            done = state.round
    assert len(pl.obtained) == done, (
        f"{where}: seat {p} obtained {len(pl.obtained)} cards, expected {done} "
        f"(round {state.round}, {state.phase}, turn {state.turn}, step {state.step})")
    cards = [c for c in pl.obtained if c not in TADOKORO_OBTAINS]
    held = [c for c in pl.clans[2:] if c != JINGU] + pl.missions
    if pl.kofun is not None:
        held.append(pl.kofun)
    assert sorted(cards) == sorted(held), (
        f"{where}: seat {p} obtained {cards} but holds {held}")


def check_invariants(state: ClansmanState, where: str, first_start: int) -> None:
    """Assert the conservation and range invariants that must hold after any action."""
    n = state.n
    assert len(state.players) == n
    assert 1 <= state.round <= ROUNDS, f"{where}: round {state.round}"
    assert state.start == expected_start(state, first_start), (
        f"{where}: start seat {state.start} in round {state.round}")
    check_cards(state, where)
    check_daughters(state, where)

    # Tadokoro: cards conserved with the Bank, and with what was obtained from it.
    tado = sum(pl.tadokoro for pl in state.players)
    assert tado + state.miyake_row + state.miyake + state.bank_tadokoro == TADOKORO_CARDS, (
        f"{where}: Tadokoro {tado} + row {state.miyake_row} + Miyake {state.miyake} + Bank "
        f"{state.bank_tadokoro} != {TADOKORO_CARDS}")
    from_bank = sum(2 * pl.obtained.count("2 tadokoro") + pl.obtained.count("1 tadokoro")
                    for pl in state.players)
    assert tado + state.miyake_row + FLIP_AT * state.miyake == START_TADOKORO * n + from_bank, (
        f"{where}: Tadokoro not conserved: players {tado}, row {state.miyake_row}, "
        f"Miyake {state.miyake}, {from_bank} obtained from the Bank")
    assert 0 <= state.miyake_row < FLIP_AT, f"{where}: {state.miyake_row} unflipped in the row"
    assert state.miyake >= 0

    for p, pl in enumerate(state.players):
        for item in ("tadokoro", "iron", "statue", "mirror", "kofun_mirrors"):
            assert getattr(pl, item) >= 0, f"{where}: seat {p} has {getattr(pl, item)} {item}"
        mirrors = sum(MIRROR_GIVERS.get(cid, 0) for cid in pl.missions)
        assert pl.mirror + pl.kofun_mirrors == mirrors, (
            f"{where}: seat {p} has {pl.mirror}+{pl.kofun_mirrors} Mirrors, Missions gave "
            f"{mirrors}")
        if pl.kofun is None:
            assert pl.kofun_mirrors == 0, f"{where}: seat {p} Mirrors under no Kofun"
        check_obtained(state, p, where)
    assert len(state.pool) == VOLATILE and min(state.pool) >= 0, f"{where}: pool {state.pool}"
    assert state.lock in (0, 1), f"{where}: lock {state.lock}"
    assert len(set(state.used)) == len(state.used), f"{where}: a card used twice {state.used}"
    if state.phase != "production":
        assert state.pool == [0] * VOLATILE and state.usable == [] and state.used == [], (
            f"{where}: workforce left outside Production")
    assert (state.step == "payment") == (state.pending is not None), (
        f"{where}: step {state.step} pending {state.pending}")

    over = state.is_over()
    assert (state.to_move is None) == over, f"{where}: to_move {state.to_move}, over {over}"
    assert (state.phase == "over") == over
    legal = state.legal_ids()
    if over:
        assert legal == [] and state.legal_actions() == [], f"{where}: legal after the end"
        assert state.round == ROUNDS
    else:
        assert legal, f"{where}: no legal action before the end ({state.decision_text()})"
        assert legal == sorted(set(legal)), f"{where}: legal ids unsorted or repeated {legal}"
        assert state.to_move is not None and 0 <= state.to_move < n


def roundtrip(state: ClansmanState) -> ClansmanState:
    """The state through real JSON text and back."""
    return GAME.from_json(json.loads(json.dumps(state.to_json())))


def can_pay(state: ClansmanState, p: int, cost: dict[str, int]) -> bool:
    """Whether the producing seat covers a raw printed cost from the pool, its Iron and its
    Statues (less the one locked after using its own Hoko-ji, R20)."""
    pl = state.players[p]
    for good, k in cost.items():
        if good == "iron":
            have = pl.iron
        elif good == "statue":
            have = pl.statue - state.lock
        else:
            have = state.pool[GOODS.index(good)]
        if have < k:
            return False
    return True


def expected_legal_texts(state: ClansmanState) -> set[str] | None:
    """The legal notations recomputed from the rules and raw data (R12 marriage targets,
    obtain D/E/F/G and Kofun, Heroes, hand, payment), or None for a Production step, whose
    conversions are checked separately in `check_legal_independently`."""
    p = state.to_move
    assert p is not None
    pl = state.players[p]
    occupied = {d for d in state.daughters if d is not None}
    if state.step == "marry":
        out = set()
        for q, other in enumerate(state.players):
            if q != p and pl.tadokoro < 1:
                continue
            for cid in other.clans:
                if (q, cid) not in occupied:
                    out.add(f"marry {A.clan_key(q, cid)}")
        if pl.tadokoro >= 1:
            out |= {f"marry {f}" for f in state.princes if (-1, f) not in occupied}
        return out
    if state.step == "hand":
        return {f"hand {c}" for c in state.supply}
    if state.step == "payment":
        assert state.pending is not None
        costs = raw_cards()[state.pending]["cost_options"]
        return {f"payment {i + 1}" for i, c in enumerate(costs) if can_pay(state, p, c)}
    return None


def check_legal_independently(state: ClansmanState, where: str) -> None:
    """The engine's legal notations equal (or, for conversions, are allowed by) the rules."""
    legal = {a.text for a in state.legal_actions()}
    expected = expected_legal_texts(state)
    if expected is not None:
        assert legal == expected, (f"{where}: legal {sorted(legal)} vs expected "
                                   f"{sorted(expected)}")
        return
    p = state.to_move
    assert p is not None
    pl = state.players[p]
    obtain = {t for t in legal if t.startswith("obtain ")}
    want = {f"obtain {c}" for c in state.supply + pl.hand
            if any(can_pay(state, p, cost) for cost in raw_cards()[c]["cost_options"])}
    if state.expert and pl.kofun is None:
        want |= {f"obtain {k}" for k in state.kofun
                 if any(can_pay(state, p, cost) for cost in raw_cards()[k]["cost_options"])}
    if can_pay(state, p, {"worker": 2, "iron": 1}):
        want.add("obtain 2 tadokoro")
    want.add("obtain 1 tadokoro")  # always possible (R07)
    assert obtain == want, f"{where}: obtain {sorted(obtain)} vs expected {sorted(want)}"
    heroes = {t for t in legal if t.startswith("hero ")}
    assert heroes == ({f"hero {h}" for h in state.heroes} if pl.hero is None else set()), (
        f"{where}: heroes {heroes}")
    mine = state.daughters[p]
    for text in legal:
        if not text.startswith("convert "):
            continue
        key = text[len("convert "):].rsplit(" ", 1)[0]
        owner, cid = state.target_of(key)
        occupant = next((q for q, d in enumerate(state.daughters) if d == (owner, cid)), None)
        assert (owner == p and occupant in (None, p)) or mine == (owner, cid), (
            f"{where}: {text!r} is legal but {state.name(p)} may not use {key} (R04/R05)")
        assert key not in state.used, f"{where}: {text!r} legal after the card was used (R06)"
        if cid == "601":
            assert state.players[owner].statue >= 1, f"{where}: {text!r} without a Statue (R20)"


def try_every_legal_action(state: ClansmanState, where: str, first_start: int) -> None:
    """Each listed legal action parses from its notation, is described, and applies to a
    clone that keeps the invariants; the original is untouched."""
    check_legal_independently(state, where)
    before = state.dumps()
    assert isinstance(state.decision_text(), str)
    for action in state.legal_actions():
        assert 0 <= action.id < GAME.num_actions
        assert GAME.parse_action(state, action.text) == action
        assert GAME.action_text(action.id) == action.text
        assert isinstance(state.describe(action.id), str) and state.describe(action.id)
        child = state.clone()
        child.apply(action)
        check_invariants(child, f"{where} after trying {action.text!r}", first_start)
        assert child.history[-1] == action.id
    assert state.dumps() == before, f"{where}: trying actions on clones changed the original"
    assert state.winners() == [], f"{where}: winners before the end"


# ------------------------------------------------------- what one action changes


@dataclass
class Before:
    """What a transition check needs from the state before an action."""

    round: int
    phase: str
    turn: int
    mover: int
    pending: str | None
    tadokoro: list[int]
    iron: list[int]
    statue: list[int]
    mirror: list[int]
    pool: list[int]

    @classmethod
    def of(cls, state: ClansmanState) -> Before:
        """Capture the state before an action."""
        pl = state.players
        assert state.to_move is not None
        return cls(state.round, state.phase, state.turn, state.to_move, state.pending,
                   [g.tadokoro for g in pl], [g.iron for g in pl], [g.statue for g in pl],
                   [g.mirror + g.kofun_mirrors for g in pl], state.pool[:])


@cache
def raw_uses(cid: str) -> tuple[tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]],
                                ...]:
    """Every (input, output) alternative a clan-like card offers, from the raw data."""
    f = raw_cards()[cid]["function"]
    f = f.get("effect", f)
    out = []
    for conv in f.get("conversions", []):
        for alt in conv["out"]:
            out.append((tuple(conv["in"].items()), tuple(alt.items())))
    for prod in f.get("productions", []):
        for alt in prod["produce"]:
            out.append(((), tuple(alt.items())))
    return tuple(out)


def expected_pool_and_items(b: Before, p: int, inp: dict[str, int],
                            out: dict[str, int]) -> tuple[list[int], int, int]:
    """The pool, Iron and Statues of the mover after spending `inp` and gaining `out`."""
    pool = b.pool[:]
    iron, statue = b.iron[p], b.statue[p]
    for good, k in inp.items():
        pool[GOODS.index(good)] -= k
    for good, k in out.items():
        if good == "iron":
            iron += k
        elif good == "statue":
            statue += k
        else:
            pool[GOODS.index(good)] += k
    return pool, iron, statue


def effect_kind(face: str) -> str:
    """The raw effect kind of an Emperor face."""
    return str(raw_cards()[face]["function"]["effect"]["kind"])


def independent_colour_vp(state: ClansmanState, p: int) -> dict[str, int]:
    """p's VPs by colour as majorities compare them (R26), from the raw data."""
    pl = state.players[p]
    out = dict.fromkeys(COLOURS, 0)
    for cid in pl.missions:
        colour, vp = mission_vp(cid)
        out[colour] += vp
    if any(t in pl.clans for t in TEMPLES):
        out["religion"] += pl.statue
    if state.expert and pl.kofun is not None:
        kofun = raw_cards()[pl.kofun]["function"]
        out["religion"] += int(kofun["vp"]["amount"])
        out["religion"] += pl.kofun_mirrors * int(kofun["mirror_vp_each"]["amount"])
    for face in pl.emperors:  # awarded Emperor cards: Others VPs, which no card compares
        vp = raw_cards()[face]["function"]["effect"]["vp"]
        out[vp["colour"]] += int(vp["amount"])
    return out


def check_century_end(state: ClansmanState, ended_round: int, where: str) -> None:
    """The century's Emperor award went to the single strict leader in its colour, or was
    set aside on a tie or all zero (R25, R26, R28)."""
    face = state.emperors[ended_round // 4 - 1]
    eff = raw_cards()[face]["function"]["effect"]
    if eff["kind"] != "award_card_to_majority":
        return
    vps = [independent_colour_vp(state, q)[eff["majority_colour"]] for q in range(state.n)]
    best = max(vps)
    holders = [q for q in range(state.n)
               if face in state.players[q].emperors or face in state.players[q].clans]
    if best > 0 and vps.count(best) == 1:
        leader = vps.index(best)
        assert holders == [leader], (
            f"{where}: {face} ({eff['majority_colour']} {vps}) went to {holders}, not {leader}")
        row = state.players[leader].clans if face == JINGU else state.players[leader].emperors
        assert face in row, f"{where}: {face} in the wrong row"
    else:
        assert holders == [] and face in state.set_aside, (
            f"{where}: {face} with tied/zero {eff['majority_colour']} VPs {vps} went to {holders}")


def check_transition(b: Before, aid: int, state: ClansmanState, where: str) -> None:
    """What the action (and the Cleanup/Preparation it triggered) changed: Tadokoro flow
    (dowries R13, F/G, Yuryaku's levy R29), items gained and paid for an obtained card
    (Keitai R30), Mirrors under a new Kofun (R22), a Hero's goods, the century-end awards,
    and the workforce of a fresh Production turn (R01, R15, R16)."""
    p = b.mover
    text = A.TEXTS[aid]
    round_ended = state.round != b.round or state.is_over()

    # Tadokoro flow.
    tado = b.tadokoro[:]
    if aid in A.MARRY_OF:
        q, _ = state.target_of(A.MARRY_OF[aid])
        if q != p:
            tado[p] -= 1
            if q >= 0:
                tado[q] += 1
    elif aid == A.OBTAIN_F:
        tado[p] += 2
    elif aid == A.OBTAIN_G:
        tado[p] += 1
    if round_ended and state.expert and b.round % 4 == 0:
        face = state.emperors[b.round // 4 - 1]
        if effect_kind(face) == "each_player_tadokoro_to_miyake_row":
            tado = [t - 1 if t >= 1 else t for t in tado]
    got = [pl.tadokoro for pl in state.players]
    assert got == tado, f"{where}: Tadokoro {b.tadokoro} -> {got} after {text!r}, expected {tado}"

    # Items: only the mover's change, and as the obtained card / Hero says.
    for q, pl in enumerate(state.players):
        if q != p:
            assert (pl.iron, pl.statue, pl.mirror + pl.kofun_mirrors) == (
                b.iron[q], b.statue[q], b.mirror[q]), f"{where}: seat {q} items changed"
    pl = state.players[p]
    cid = A.OBTAIN_OF.get(aid) or (b.pending if aid in A.PAYMENT_OF else None)
    if cid is not None and state.pending is None:
        card = raw_cards()[cid]
        costs = card["cost_options"]
        cost = costs[A.PAYMENT_OF[aid]] if aid in A.PAYMENT_OF else costs[0]
        items = card["function"].get("items", {}) if card["type"] == "mission" else {}
        bonus = 0
        if state.expert and card["type"] == "mission" and 9 <= b.round <= 12:
            eff = raw_cards()[state.emperors[2]]["function"]["effect"]
            if eff["kind"] == "on_obtain_mission_with_vp_colour" and \
                    card["function"]["vp"]["colour"] == eff["colour"]:
                bonus = int(eff["gain"].get("iron", 0))
        if len(costs) == 1 or aid in A.PAYMENT_OF:
            assert pl.iron == b.iron[p] - cost.get("iron", 0) + items.get("iron", 0) + bonus, (
                f"{where}: iron {b.iron[p]} -> {pl.iron} after {text!r}")
            assert pl.statue == b.statue[p] - cost.get("statue", 0), (
                f"{where}: statues {b.statue[p]} -> {pl.statue} after {text!r}")
        assert pl.mirror + pl.kofun_mirrors == b.mirror[p] + items.get("mirror", 0)
        if card["type"] == "kofun":
            assert pl.kofun == cid and pl.mirror == 0 and pl.kofun_mirrors == b.mirror[p], (
                f"{where}: Mirrors not under the new Kofun {cid}")
    elif aid in A.HERO_OF:
        gain = raw_cards()[A.HERO_OF[aid]]["function"]["productions"][0]["produce"][0]
        want = expected_pool_and_items(b, p, {}, gain)
        assert (state.pool, pl.iron, pl.statue) == want, f"{where}: {text!r} gave {want}?"
        assert pl.hero == A.HERO_OF[aid]
    elif aid in A.CONVERT_OF:
        # One use: exactly the printed input, exactly one output alternative (R06).
        key, good = A.CONVERT_OF[aid]
        _, cid = state.target_of(key)
        name = GOODS[good]
        alts = [(dict(i), dict(o)) for i, o in raw_uses(cid)
                if min(GOODS.index(g) for g, _ in o) == good]
        assert len(alts) == 1, f"{where}: {text!r} names {len(alts)} uses of {cid}"
        inp, out = alts[0]
        assert name in out
        want = expected_pool_and_items(b, p, inp, out)
        assert (state.pool, pl.iron, pl.statue) == want, (
            f"{where}: {text!r}: pool/iron/statue {(state.pool, pl.iron, pl.statue)}, "
            f"expected {want}")
        assert key in state.used
    elif aid in A.MARRY_OF or aid in A.HAND_OF or aid == A.OBTAIN_G:
        assert (pl.iron, pl.statue) == (b.iron[p], b.statue[p]), f"{where}: items changed"
    elif aid == A.OBTAIN_F:
        assert (pl.iron, pl.statue) == (b.iron[p] - 1, b.statue[p]), f"{where}: F cost"

    if round_ended and state.expert and b.round % 4 == 0:
        check_century_end(state, b.round, f"{where} (Cleanup of round {b.round})")
    if round_ended:
        for q in range(state.n):
            assert state.vp_by_colour(q) == independent_colour_vp(state, q), (
                f"{where}: seat {q} colour VPs {state.vp_by_colour(q)}")

    # A fresh Production turn: the workforce is counted (R15, R16) and 000's Soldier added.
    if state.step == "produce" and (state.phase, state.turn, state.round) != (
            b.phase, b.turn, b.round):
        q = state.to_move
        assert q is not None
        d = state.daughters[q]
        workers = state.players[q].tadokoro + (state.miyake if d is not None and d[0] < 0 else 0)
        pool = [0] * VOLATILE
        pool[GOODS.index("worker")] = workers
        if state.expert and effect_kind(state.emperors[state.century - 4]) == \
                "extra_production_each_production_turn":
            pool[GOODS.index("soldier")] += 1
        assert state.pool == pool, f"{where}: fresh turn of seat {q} with pool {state.pool}"
        assert state.lock == 0, f"{where}: a Statue locked at the start of a turn"
        if state.turn == 0:
            assert state.used == [], f"{where}: cards used before the round's first turn"


# ---------------------------------------------------------------- checked games


@dataclass
class Snapshot:
    """A mid-game point: how many choices were made, the state's JSON text and a clone."""

    index: int
    text: str
    clone: ClansmanState


@dataclass
class Run:
    """One checked random game: the final state, every choice and mid-game snapshots."""

    state: ClansmanState
    choices: list[int] = field(default_factory=list)
    snapshots: list[Snapshot] = field(default_factory=list)


def snapshot_points(seed: int) -> set[int]:
    """Two decision indices (varying by seed) at which a mid-game snapshot is taken
    (a 4-player game has about 220 decisions, a 2-player one about 110)."""
    return {3 + seed % 47, 55 + seed % 43}


def play_checked(players: int, seed: int, **options: Any) -> Run:
    """Play a seeded uniform-random game, checking invariants after every action."""
    state = GAME.new_game(players, seed, **options)
    first_start = state.start
    rng = Rng(seed)
    run = Run(state)
    points = snapshot_points(seed)
    where = f"{players}p {options} seed {seed}"
    check_invariants(state, f"{where} at setup", first_start)
    assert all(pl.obtained == [] and pl.tadokoro == START_TADOKORO for pl in state.players)
    rounds_seen = [state.round]
    while not state.is_over():
        i = len(run.choices)
        if i in points:
            run.snapshots.append(Snapshot(i, state.dumps(), state.clone()))
        if i % LEGAL_SAMPLE_EVERY == seed % LEGAL_SAMPLE_EVERY:
            try_every_legal_action(state, f"{where} decision {i}", first_start)
        before = [len(pl.obtained) for pl in state.players]
        snap = Before.of(state)
        ids = state.legal_ids()
        aid = ids[rng.below(len(ids))]
        run.choices.append(aid)
        state.apply(aid)
        check_transition(snap, aid, state, f"{where} action {i + 1}")
        after = [len(pl.obtained) for pl in state.players]
        # At most the seat that acted obtained something, and exactly one entry.
        grew = [p for p in range(players) if after[p] != before[p]]
        assert grew in ([], [snap.mover]), f"{where} action {i + 1}: obtained {before} -> {after}"
        if grew:
            assert after[snap.mover] == before[snap.mover] + 1
        if state.round != rounds_seen[-1]:
            assert state.round == rounds_seen[-1] + 1, f"{where}: round jumped"
            assert after == [state.round - 1] * players, (
                f"{where}: round {state.round} begins with obtained counts {after}")
            rounds_seen.append(state.round)
        check_invariants(state, f"{where} after action {i + 1} ({A.TEXTS[aid]!r})", first_start)
    assert rounds_seen == list(range(1, ROUNDS + 1)), f"{where}: rounds {rounds_seen}"
    return run


def check_final(run: Run, seed: int, options: dict[str, Any]) -> None:
    """End-of-game checks: 16 rounds, scores, winners, replay, JSON and continued play."""
    state = run.state
    players = state.n
    where = f"{players}p {options} seed {seed}"
    assert state.is_over() and state.to_move is None and state.round == ROUNDS
    assert all(len(pl.obtained) == ROUNDS for pl in state.players), where
    assert state.history == run.choices
    scores = state.scores()
    assert len(scores) == players
    keys = expected_score_keys(state)
    for p, row in enumerate(scores):
        assert set(row) == keys, f"{where}: score keys {sorted(row)} vs {sorted(keys)}"
        assert row["total"] == sum(v for k, v in row.items() if k != "total")
        assert all(v >= 0 for v in row.values()), f"{where}: negative score {row}"
        assert row["total"] == independent_total(state, p), (
            f"{where}: seat {p} total {row['total']} vs recomputed "
            f"{independent_total(state, p)} ({row})")
        for colour in COLOURS:
            missions = sum(mission_vp(c)[1] for c in state.players[p].missions
                           if mission_vp(c)[0] == colour)
            assert row[f"{colour}_missions"] == missions, f"{where}: {colour} missions {row}"
        vp = state.vp_by_colour(p)
        assert set(vp) == set(COLOURS) and all(v >= 0 for v in vp.values())
    totals = [row["total"] for row in scores]
    best = max(totals)
    tied = [p for p in range(players) if totals[p] == best]
    iron = max(state.players[p].iron for p in tied)
    expected_winners = [p for p in tied if state.players[p].iron == iron]
    assert state.winners() == expected_winners, (
        f"{where}: winners {state.winners()} vs {expected_winners} (totals {totals})")
    final = state.dumps()

    # The record (through JSON text) replays to the identical state and scores.
    record = GameRecord.of("clansman", state, seed, options, GAME.action_text)
    assert len(record.actions) == len(run.choices)
    record = GameRecord.from_json(json.loads(record.dumps()))
    replayed = replay(record)
    assert replayed.dumps() == final, f"{where}: replay differs"
    assert replayed.scores() == scores
    assert replayed.winners() == expected_winners

    # JSON round trip at the end is exact and stays over.
    restored = roundtrip(state)
    assert restored.dumps() == final
    assert restored.is_over() and restored.legal_ids() == [] and restored.to_move is None
    assert restored.scores() == scores and restored.winners() == expected_winners

    # Mid-game: each snapshot round-trips; play continued with the same choices from the
    # first snapshot restored from JSON, and from the second one's clone, ends identically.
    assert len(run.snapshots) == 2, f"{where}: snapshots {[s.index for s in run.snapshots]}"
    for k, snap in enumerate(run.snapshots):
        assert snap.clone.dumps() == snap.text, f"{where}: clone changed at {snap.index}"
        from_text = GAME.from_json(json.loads(snap.text))
        assert from_text.dumps() == snap.text, f"{where}: round trip differs at {snap.index}"
        assert from_text.legal_ids() == snap.clone.legal_ids()
        resumed = from_text if k == 0 else snap.clone
        for aid in run.choices[snap.index:]:
            resumed.apply(aid)
        assert resumed.dumps() == final, f"{where}: continued play from {snap.index} differs"
    if seed % PARTIAL_REPLAY_EVERY == 0:
        last = run.snapshots[-1]
        assert replay(record, upto=last.index).dumps() == last.text, f"{where}: partial replay"


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("mode", sorted(MODES))
def test_random_games_keep_invariants(mode: str, chunk: int) -> None:
    """CHUNK seeded random games per parameter: all invariants hold throughout."""
    players, options = MODES[mode]
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        run = play_checked(players, seed, **options)
        side = options.get("emperor_side", "A") if options.get("expert") else None
        assert run.state.emperors == (EMPEROR_SIDES[side] if side else [])
        check_final(run, seed, options)


@pytest.mark.parametrize("players", (2, 3))
def test_small_table_variant_keeps_invariants(players: int) -> None:
    """The unofficial 2-3 player variant (R35): the same invariants in 100 games each,
    half Beginner and half Expert (alternating sides)."""
    for seed in range(SMALL_TABLE_GAMES):
        options: dict[str, Any] = {"variant": "small-table"}
        if seed % 2:
            options.update(expert=True, emperor_side="AB"[seed // 2 % 2])
        run = play_checked(players, seed, **options)
        assert run.state.small_table and run.state.n == players
        check_final(run, seed, options)


@pytest.mark.parametrize("options", [
    {"expert": True, "emperor_variant": "008"},
    {"expert": True, "emperor_variant": "009", "emperor_side": "B"},
    {"expert": True, "emperor_variant": "008,009"},
    {"start_player": 2},
    {"expert": True, "emperor_side": "B", "start_player": 0},
], ids=["ev008", "ev009-B", "ev008-009", "start2", "B-start0"])
def test_other_options_keep_invariants(options: dict[str, Any]) -> None:
    """The unofficial Emperor faces (R32) and a named start player play to a correct end."""
    for seed in range(30):
        run = play_checked(4, seed, **options)
        if "start_player" in options:
            assert GAME.new_game(4, seed, **options).start == options["start_player"]
        for face in str(options.get("emperor_variant", "")).split(","):
            if face:
                assert face in run.state.emperors
        check_final(run, seed, options)


@pytest.mark.parametrize("mode", [*sorted(MODES), "small-table-2", "small-table-3"])
def test_legal_actions_match_the_rules_at_every_decision(mode: str) -> None:
    """Over 150 random games per mode, at EVERY decision the legal notations equal those
    recomputed from the rules and raw card data (`check_legal_independently`)."""
    if mode.startswith("small-table"):
        players, options = int(mode[-1]), {"variant": "small-table", "expert": True}
    else:
        players, options = MODES[mode]
    for seed in range(5000, 5150):
        state = GAME.new_game(players, seed, **options)
        rng = Rng(seed)
        while not state.is_over():
            check_legal_independently(state, f"{mode} seed {seed} decision {len(state.history)}")
            ids = state.legal_ids()
            state.apply(ids[rng.below(len(ids))])


def test_reference_data_cross_checks() -> None:
    """The raw data this file recomputes from is what the rulebook counts (RULES_NOTES
    section 1): 4 x 16 century cards, 9 Mirror Missions, 4 Heroes/Kofun/starting clans."""
    assert {c: len(ids) for c, ids in DECKS.items()} == {4: 16, 5: 16, 6: 16, 7: 16}
    assert len(MIRROR_GIVERS) == 9 and sum(MIRROR_GIVERS.values()) == 9
    assert len(HEROES) == len(KOFUN) == len(STARTING_CLANS) == 4
    assert sorted(AWARDED_FACES) == ["001", "002", "003", "004", "008"]
    assert len(CENTURY_CLANS) == 15 and len(MISSIONS) == 49


def test_same_seed_same_game_different_seed_differs() -> None:
    """Setup is a function of (players, seed, options): equal seeds equal states."""
    for players, options in [*MODES.values(), (3, {"variant": "small-table"})]:
        a = GAME.new_game(players, 7, **options).dumps()
        assert GAME.new_game(players, 7, **options).dumps() == a
        assert GAME.new_game(players, 8, **options).dumps() != a


def test_start_player_is_drawn_from_the_seed() -> None:
    """Without the option every seat is sometimes the first start player (R10)."""
    starts = Counter(GAME.new_game(4, seed).start for seed in range(200))
    assert set(starts) == {0, 1, 2, 3}, starts


@pytest.mark.parametrize("mode", sorted(MODES))
def test_clone_is_independent(mode: str) -> None:
    """Playing on and mutating a clone never changes the original (and vice versa)."""
    players, options = MODES[mode]
    rng = Rng(len(mode))
    for seed in range(15):
        state = GAME.new_game(players, 500 + seed, **options)
        for _ in range(10 + seed * 13):
            ids = state.legal_ids()
            state.apply(ids[rng.below(len(ids))])
        assert not state.is_over()
        before = state.dumps()
        legal_before = state.legal_ids()
        copy = state.clone()
        assert copy.dumps() == before and copy.legal_ids() == legal_before
        # Play the clone to the end, then scribble over its mutable parts.
        while not copy.is_over():
            ids = copy.legal_ids()
            copy.apply(ids[rng.below(len(ids))])
        pl = copy.players[0]
        pl.tadokoro += 9
        pl.iron += 9
        pl.clans.append("x")
        pl.missions.append("x")
        pl.hand.append("x")
        pl.obtained.append("x")
        pl.emperors.append("x")
        copy.piles[3].append("x")
        copy.supply.append("x")
        copy.discard.append("x")
        copy.daughters[0] = (0, "x")
        copy.princes[0] = "x"
        copy.heroes.append("x")
        copy.kofun.append("x")
        copy.emperor_centre.append("x")
        copy.set_aside.append("x")
        copy.pool[0] = 99
        copy.usable.append(("x", 0, "x"))
        copy.used.append("x")
        copy.events.append("x")
        copy.history.append(0)
        copy.rng.next_u64()
        assert state.dumps() == before, f"{mode} seed {500 + seed}: clone not independent"
        assert state.legal_ids() == legal_before
        # And the other way round: advancing the original leaves a fresh clone untouched.
        other = state.clone()
        state.apply(state.legal_ids()[0])
        assert other.dumps() == before


def test_legal_ids_are_copies() -> None:
    """Mutating the list legal_ids()/legal_actions() return does not change the state."""
    state = GAME.new_game(4, 3)
    ids = state.legal_ids()
    ids.clear()
    assert state.legal_ids()
    acts = state.legal_actions()
    acts.clear()
    assert state.legal_actions()


def test_illegal_ids_are_refused_at_random_points() -> None:
    """At sampled decisions, every id not listed as legal is refused and changes nothing."""
    rng = Rng(99)
    for players, options in MODES.values():
        state = GAME.new_game(players, 4242, **options)
        step = 0
        while not state.is_over():
            legal = set(state.legal_ids())
            if step % 17 == 0:
                before = state.dumps()
                for aid in range(GAME.num_actions):
                    if aid in legal:
                        continue
                    with pytest.raises(IllegalAction) as info:
                        state.apply(aid)
                    assert str(info.value), "refusal without a reason"
                    assert A.TEXTS[aid] in str(info.value)
                    assert state.dumps() == before, f"refused {A.TEXTS[aid]!r} changed state"
            ids = state.legal_ids()
            state.apply(ids[rng.below(len(ids))])
            step += 1


@pytest.mark.parametrize("mode", sorted(MODES))
def test_determinize_keeps_the_public_view(mode: str) -> None:
    """A determinized copy shows every seat the same view and the same choices, leaves
    the original alone, keeps each pile's cards, and plays on to a correct end."""
    players, options = MODES[mode]
    rng = Rng(1000 + len(mode))
    for seed in range(6):
        state = GAME.new_game(players, 700 + seed, **options)
        first_start = state.start
        step = 0
        while not state.is_over():
            if step % 37 == 5:
                before = state.dumps()
                seat = state.to_move
                sample = state.determinize(seat, rng.spawn())
                assert state.dumps() == before, "determinize changed the original"
                for viewer in [None, *range(players)]:
                    assert sample.view(viewer) == state.view(viewer)
                view = state.view(seat)
                assert "rng" not in view and "seed" not in view
                assert view["piles"] == [len(p) for p in state.piles]
                assert sample.legal_ids() == state.legal_ids()
                for a, b in zip(sample.piles, state.piles, strict=True):
                    assert sorted(a) == sorted(b)
                while not sample.is_over():
                    ids = sample.legal_ids()
                    sample.apply(ids[rng.below(len(ids))])
                    check_invariants(sample, f"{mode} seed {700 + seed} determinized",
                                     first_start)
            ids = state.legal_ids()
            state.apply(ids[rng.below(len(ids))])
            step += 1


def test_seat_names_and_describe() -> None:
    """Seats are named by colour; decision_text and describe speak for every legal action."""
    state = GAME.new_game(4, 11, expert=True)
    assert [state.name(p) for p in range(4)] == list(SEAT_NAMES)
    assert state.num_players == 4
    assert GAME.num_actions == len(A.TEXTS) == len(set(A.TEXTS))
    over = GAME.new_game(4, 11)
    rng = Rng(11)
    while not over.is_over():
        ids = over.legal_ids()
        over.apply(ids[rng.below(len(ids))])
    assert over.decision_text() == "the game is over"
