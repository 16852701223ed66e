"""The I, Clansman invariants, checked against the rules and the raw card data.

Shared by the seeded property tests (tests/clansman/test_invariants.py) and the
Hypothesis fuzzing (tests/fuzz/):
- `check_invariants`: every century card, Hero, Kofun and Emperor face in exactly one
  place; Tadokoro + Miyake row + Miyake + Bank == 32, and Tadokoro conserved with what
  was obtained from the Bank; items never negative; Mirrors only from Missions; one
  card obtained per player per round; piles, Supply, Royal Prince faces and start
  seat as the round says (R09, R10, R33); daughters on distinct legal targets; a
  decision exists (to_move set) exactly until the end.
- `check_transition`: what one action changed, against the rules and the raw card
  data: dowries (R13), F/G Tadokoro, Yuryaku's levy (R29), items paid and gained by
  an obtained card (Keitai R30), Mirrors under a new Kofun (R22), the century-end
  Emperor awards (R26, R28), colour VPs, and the workforce of each fresh Production
  turn (R01, R15, R16).
- `check_legal_independently` / `try_every_legal_action`: the legal set recomputed
  from the rules, and every legal action applied to a clone.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from kamon.games.clansman import GAME, ClansmanState
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import GOODS

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


def first_start_of(state: ClansmanState) -> int:
    """The start seat of round 1 that the current round's start seat implies (the inverse
    of `expected_start`), for a state whose first round was not seen."""
    for first in range(state.n):
        if expected_start(state, first) == state.start:
            return first
    raise AssertionError(f"start seat {state.start} fits no first start seat")


def invariants(start: Any) -> Callable[[Any, str], None]:
    """The checks the contract suite runs after every move of a game begun at `start`
    (tests/contract finds this function by the game's folder name): they need the game's
    first start player."""
    first_start = start.start
    return lambda state, where: check_invariants(state, where, first_start)
