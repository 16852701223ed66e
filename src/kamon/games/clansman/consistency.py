"""Is a state read from JSON one the rules could have reached? RecordError naming what is not.

`ClansmanState.from_json` checks the types of every field; this module checks that the
values fit together, verifying on the loaded state the invariants the engine keeps after
every action (the ones tests/clansman/test_invariants.py asserts): every century card,
Hero, Kofun and Emperor face in exactly one place; piles, Supply and Royal Prince faces as
the round says; Tadokoro conserved (players + Miyake row + Miyake + Bank = the 32 cards,
and = the starting Tadokoro + what was obtained from the Bank); no negative stores;
Mirrors only from Missions; one obtain per player per round, matching what each holds;
daughters on distinct cards that exist; the decision (phase, step, turn, pool, usable
cards, payment, hand) coherent and offering at least one legal action until the end.

It runs once per load, not per move: a few hundred microseconds at most.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, NoReturn

from kamon.core.errors import DataError, RecordError
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import CENTURIES, KOCHISEI, MIRROR, VOLATILE

if TYPE_CHECKING:
    from kamon.games.clansman.state import ClansmanState

PHASE_STEPS = {"marriage": ("marry",), "production": ("produce", "payment", "hand"),
               "over": ("",)}
ITEMS = {"tadokoro": "Tadokoro", "iron": "Iron", "statue": "Statues", "mirror": "Mirrors",
         "kofun_mirrors": "Mirrors under the Kofun"}
_KEYS = frozenset(A.KEYS)


def _fail(problem: str) -> NoReturn:
    """Refuse the state, saying what is inconsistent."""
    raise RecordError(f"not an I, Clansman state: {problem}")


def check_state(s: ClansmanState) -> None:
    """Raise RecordError naming the first inconsistency of a state read from JSON."""
    _check_structure(s)
    _check_options(s)
    _check_turn(s)
    _check_century_cards(s)
    _check_centre(s)
    _check_tokens(s)
    _check_obtained(s)
    _check_daughters(s)
    _check_workforce(s)


def _who(s: ClansmanState, p: int) -> str:
    """A seat's colour for messages."""
    return s.name(p)


def _check_structure(s: ClansmanState) -> None:
    """Counts and lengths agree, phase/step/round are known, every card id exists."""
    rules = s.data.rules
    cards = s.data.cards
    if not 2 <= s.n <= len(A.SEATS):
        _fail(f"{s.n} players (2-{len(A.SEATS)} are possible)")
    if len(s.players) != s.n or len(s.daughters) != s.n:
        _fail(f"{s.n} players but {len(s.players)} gozoku and {len(s.daughters)} daughters")
    if s.phase not in PHASE_STEPS:
        _fail(f"unknown phase {s.phase!r} (known: {', '.join(PHASE_STEPS)})")
    if s.step not in PHASE_STEPS[s.phase]:
        _fail(f"step {s.step!r} in the {s.phase} phase (possible: "
              + ", ".join(repr(x) for x in PHASE_STEPS[s.phase]) + ")")
    if s.round not in rules.century_of_round:
        _fail(f"round {s.round} (rounds are 1-{rules.rounds})")
    if len(s.piles) != len(CENTURIES):
        _fail(f"{len(s.piles)} century piles instead of {len(CENTURIES)}")
    if len(s.pool) != VOLATILE:
        _fail(f"the pool lists {len(s.pool)} goods instead of {VOLATILE}")
    if not 0 <= s.start < s.n:
        _fail(f"start player {s.start} is not a seat (0-{s.n - 1})")
    if s.lock not in (0, 1):
        _fail(f"{s.lock} Statues locked (R20 locks 0 or 1)")
    places: list[tuple[str, list[str]]] = [
        *((f"the {c}th-century pile", pile) for c, pile in zip(CENTURIES, s.piles, strict=True)),
        ("the Supply", s.supply), ("the discard", s.discard), ("the Royal Princes", s.princes),
        ("the Heroes in the centre", s.heroes), ("the Kofun in the centre", s.kofun),
        ("the Emperor faces in play", s.emperors), ("the Emperor centre", s.emperor_centre),
        ("the set-aside Emperor cards", s.set_aside),
        ("the cards usable this turn", [u[2] for u in s.usable]),
        ("the card pending payment", [s.pending] if s.pending is not None else [])]
    for p, g in enumerate(s.players):
        who = _who(s, p)
        places += [(f"{who}'s Clan cards row", g.clans), (f"{who}'s Missions", g.missions),
                   (f"{who}'s hand", g.hand), (f"{who}'s Emperor cards", g.emperors),
                   (f"{who}'s Kofun and Hero", [c for c in (g.kofun, g.hero) if c is not None])]
        d = s.daughters[p]
        if d is not None and d[1] not in cards:
            _fail(f"{who}'s daughter is on unknown card {d[1]!r}")
    for where, ids in places:
        for cid in ids:
            if cid not in cards:
                _fail(f"{where}: unknown card {cid!r}")
    for aid in s.history:
        if not 0 <= aid < A.NUM_ACTIONS:
            _fail(f"history holds action id {aid} (ids are 0-{A.NUM_ACTIONS - 1})")


def _check_options(s: ClansmanState) -> None:
    """The options are valid for the player count and in their canonical form."""
    from kamon.games.clansman import GAME  # the package imports this module's user

    try:
        canonical = GAME.checked(s.n, s.options)
    except (ValueError, DataError) as exc:
        _fail(f"options {s.options}: {exc}")
    if canonical != s.options:
        _fail(f"options {s.options} are not what the game records (expected {canonical})")


def _check_century_cards(s: ClansmanState) -> None:
    """Every century card lies in exactly one place; piles, Supply and discard fit the round;
    the Clan cards rows start with the Kochisei-Shuraku and a distinct starting clan."""
    data = s.data
    cards = data.cards
    century_of = {cid: c for c, ids in data.decks.items() for cid in ids}
    places: dict[str, list[str]] = {}

    def put(cid: str, where: str) -> None:
        """Record one place a century card lies in (refusing other cards there)."""
        if cid not in century_of:
            _fail(f"{where} holds {cid}, which is not a century card")
        places.setdefault(cid, []).append(where)

    century = data.rules.century_of_round[s.round]
    for c, pile in zip(CENTURIES, s.piles, strict=True):
        for cid in pile:
            put(cid, f"the {c}th-century pile")
    for cid in s.supply:
        put(cid, "the Supply")
    for cid in s.discard:
        put(cid, "the discard")
    starting = set()
    for p, g in enumerate(s.players):
        who = _who(s, p)
        if len(g.clans) < 2 or g.clans[0] != KOCHISEI or \
                cards[g.clans[1]].type != "starting_clan":
            _fail(f"{who}'s Clan cards row {g.clans} does not begin with the "
                  "Kochisei-Shuraku (300) and a starting clan")
        starting.add(g.clans[1])
        for cid in g.clans[2:]:
            card = cards[cid]
            if card.type == "emperor":
                continue  # an awarded Emperor face that becomes a clan: checked with them
            if card.type != "clan":
                _fail(f"{who}'s Clan cards row holds {cid}, a {card.type} card")
            put(cid, f"{who}'s Clan cards row")
        for cid in g.missions:
            if cards[cid].type != "mission":
                _fail(f"{who}'s Missions hold {cid}, a {cards[cid].type} card")
            put(cid, f"{who}'s Missions")
        for cid in g.hand:
            put(cid, f"{who}'s hand")
    if len(starting) != s.n:
        _fail("two players have the same starting clan")
    for cid in century_of:
        where = places.get(cid)
        if not where:
            _fail(f"century card {cid} is nowhere (not in a pile, the Supply, the discard, a "
                  "Clan cards row, the Missions or a hand)")
        if len(where) > 1:
            _fail(f"century card {cid} is in {len(where)} places: {' and '.join(where)}")
    for c, pile in zip(CENTURIES, s.piles, strict=True):
        for cid in pile:
            if century_of[cid] != c:
                _fail(f"the {c}th-century pile holds {cid} of the {century_of[cid]}th century")
    for cid in s.supply:
        if century_of[cid] != century:
            _fail(f"the Supply holds {cid} of the {century_of[cid]}th century in round "
                  f"{s.round} ({century}th century)")
    for cid in s.discard:
        if century_of[cid] >= century:
            _fail(f"the discard holds {cid} of the {century_of[cid]}th century in round "
                  f"{s.round} (only earlier centuries' Supplies are discarded)")
    rules = data.rules
    cor = rules.century_of_round
    begun = sum(1 for r in range(1, s.round + 1) if cor.get(r) == century)
    for i, pile in enumerate(s.piles):
        c = CENTURIES[i]
        full = len(data.decks[c])
        if c > century:
            want = full
        elif c < century:
            want = 0
        else:
            want = max(0, full - rules.draw_first - rules.draw_other * (begun - 1))
        if len(pile) != want:
            _fail(f"the {c}th-century pile has {len(pile)} cards; in round {s.round} it "
                  f"holds {want}")


def _check_centre(s: ClansmanState) -> None:
    """Heroes, Kofun and Emperor faces each in exactly one place; Royal Princes by round."""
    data = s.data
    cards = data.cards
    heroes = list(s.heroes)
    kofun = list(s.kofun)
    for p, g in enumerate(s.players):
        if g.hero is not None:
            if cards[g.hero].type != "hero":
                _fail(f"{_who(s, p)}'s Hero is {g.hero}, a {cards[g.hero].type} card")
            if g.hero in s.heroes:
                _fail(f"Hero {g.hero} is both in the centre and {_who(s, p)}'s")
            heroes.append(g.hero)
        if g.kofun is not None:
            if cards[g.kofun].type != "kofun":
                _fail(f"{_who(s, p)}'s Kofun is {g.kofun}, a {cards[g.kofun].type} card")
            if g.kofun in s.kofun:
                _fail(f"Kofun {g.kofun} is both in the centre and {_who(s, p)}'s")
            kofun.append(g.kofun)
    if Counter(heroes) != Counter(data.heroes):
        _fail(f"the Heroes in the centre and held are {sorted(heroes)}; the game has "
              f"{', '.join(data.heroes)} once each")
    want_kofun = Counter(data.kofun) if s.expert else Counter()
    if Counter(kofun) != want_kofun:
        _fail(f"the Kofun in the centre and held are {sorted(kofun)}; "
              + (f"the Expert game has {', '.join(data.kofun)} once each" if s.expert
                 else "the Beginner game has none"))
    _check_emperors(s)
    century = data.rules.century_of_round[s.round]
    princes = data.princes_late if century >= 6 else data.princes_early
    if s.princes != list(princes):
        _fail(f"the Royal Prince faces showing are {s.princes}; in round {s.round} they are "
              f"{', '.join(princes)}")


def _check_emperors(s: ClansmanState) -> None:
    """The Expert game's four Emperor faces (by the options), each in exactly one place."""
    data = s.data
    cards = data.cards
    held = [(p, cid) for p, g in enumerate(s.players) for cid in g.clans[2:]
            if cards[cid].type == "emperor"]
    if not s.expert:
        if s.emperors or s.emperor_centre or s.set_aside or held or any(
                g.emperors for g in s.players):
            _fail("Emperor cards in a Beginner game")
        return
    if len(s.emperors) != len(CENTURIES):
        _fail(f"{len(s.emperors)} Emperor face(s) in play; the Expert game has one per "
              f"century ({len(CENTURIES)})")
    for i, face in enumerate(s.emperors):
        card = cards[face]
        if card.type != "emperor" or card.century != CENTURIES[i]:
            _fail(f"{face} is not an Emperor card of the {CENTURIES[i]}th century")
    side = str(s.options.get("emperor_side", "A"))
    want = list(data.emperor_sides[side])
    for face in str(s.options.get("emperor_variant") or "").split(","):
        if face:
            want[(cards[face].century or CENTURIES[0]) - CENTURIES[0]] = face
    if s.emperors != want:
        _fail(f"the Emperor faces in play are {s.emperors}; side {side}"
              + (f" with {s.options['emperor_variant']}" if s.options.get("emperor_variant")
                 else "") + f" gives {want}")
    where: dict[str, list[str]] = {}
    for face in s.emperor_centre:
        where.setdefault(face, []).append("the centre")
    for face in s.set_aside:
        where.setdefault(face, []).append("set aside")
    for p, g in enumerate(s.players):
        for face in g.emperors:
            eff = cards[face].effect
            if cards[face].type != "emperor" or eff is None or eff[0] != "award" or eff[4]:
                _fail(f"{_who(s, p)} holds {face} as an awarded Emperor card, which it is not")
            where.setdefault(face, []).append(f"{_who(s, p)}'s")
    for p, face in held:
        eff = cards[face].effect
        if eff is None or eff[0] != "award" or not eff[4]:
            _fail(f"{_who(s, p)}'s Clan cards row holds the Emperor card {face}, which never "
                  "becomes a clan")
        where.setdefault(face, []).append(f"{_who(s, p)}'s Clan cards row")
    for face in where:
        if face not in s.emperors:
            _fail(f"Emperor card {face} is {where[face][0]} but not in play")
    rules = data.rules
    cor = rules.century_of_round
    for i, face in enumerate(s.emperors):
        places = where.get(face, [])
        if len(places) != 1:
            _fail(f"Emperor card {face} is in {len(places)} places"
                  + (f": {' and '.join(places)}" if places else ""))
        ended = s.is_over() or any(r < s.round for r in rules.century_end_rounds
                                   if cor.get(r) == CENTURIES[i])
        eff = cards[face].effect
        if not ended and places[0] != "the centre":
            _fail(f"Emperor card {face} left the centre before its century ended")
        if ended and eff is not None and eff[0] == "award" and places[0] == "the centre":
            _fail(f"Emperor card {face} is still in the centre after its century ended")


def _check_tokens(s: ClansmanState) -> None:
    """No negative stores; Tadokoro conserved; Mirrors only from Missions."""
    rules = s.data.rules
    cards = s.data.cards
    for p, g in enumerate(s.players):
        for item, label in ITEMS.items():
            k = getattr(g, item)
            if k < 0:
                _fail(f"{_who(s, p)} has {k} {label}")
        if g.kofun is None and g.kofun_mirrors:
            _fail(f"{_who(s, p)} has {g.kofun_mirrors} Mirrors under a Kofun it does not have")
    if s.miyake < 0:
        _fail(f"{s.miyake} Miyake")
    if not 0 <= s.miyake_row < rules.flip_at:
        _fail(f"{s.miyake_row} Tadokoro unflipped in the Miyake row (always 0-"
              f"{rules.flip_at - 1}: {rules.flip_at} flip at once)")
    tado = sum(g.tadokoro for g in s.players)
    total = tado + s.miyake_row + s.miyake + s.bank_tadokoro
    if total != rules.tadokoro_cards:
        _fail(f"Tadokoro: players {tado} + Miyake row {s.miyake_row} + Miyake {s.miyake} + "
              f"Bank {s.bank_tadokoro} = {total}, not the {rules.tadokoro_cards} cards")
    from_bank = 0
    for g in s.players:
        for what in g.obtained:
            if what.endswith(" tadokoro"):
                from_bank += int(what.split(" ", 1)[0])
    start = rules.start_tadokoro * s.n
    if tado + s.miyake_row + rules.flip_at * s.miyake != start + from_bank:
        _fail(f"Tadokoro not conserved: players {tado} + Miyake row {s.miyake_row} + "
              f"{rules.flip_at} x {s.miyake} Miyake != {start} at the start + {from_bank} "
              "obtained from the Bank")
    # Mirrors come from Missions (an Emperor face yielding Mirrors would be another source).
    extra = any(eff is not None and eff[0] in ("extra_each_turn", "bonus_on_obtain")
                and any(g == MIRROR for g, _ in eff[-1])
                for eff in (cards[f].effect for f in s.emperors))
    for p, g in enumerate(s.players):
        given = sum(k for cid in g.missions for good, k in cards[cid].items if good == MIRROR)
        have = g.mirror + g.kofun_mirrors
        if have != given and not (extra and have > given):
            _fail(f"{_who(s, p)} has {have} Mirrors but its Missions gave {given}")


def _check_obtained(s: ClansmanState) -> None:
    """One obtain per player per round so far, and the cards obtained are the cards held."""
    cards = s.data.cards
    for p, g in enumerate(s.players):
        done = s.round - 1
        if s.is_over():
            done = s.data.rules.rounds
        elif s.phase == "production":
            pos = (p - s.start) % s.n
            if pos < s.turn or (pos == s.turn and s.step == "hand"):
                done = s.round
        if len(g.obtained) != done:
            _fail(f"{_who(s, p)} has obtained {len(g.obtained)} time(s); by now (round "
                  f"{s.round}, {s.phase}, turn {s.turn + 1}) it is {done} (once a round)")
        got = [c for c in g.obtained if not c.endswith(" tadokoro")]
        for cid in got:
            if cid not in cards:
                _fail(f"{_who(s, p)} obtained unknown card {cid!r}")
        held = [c for c in g.clans[2:] if cards[c].type != "emperor"] + g.missions
        if g.kofun is not None:
            held.append(g.kofun)
        if Counter(got) != Counter(held):
            _fail(f"{_who(s, p)} obtained {sorted(got)} but holds {sorted(held)}")


def _check_daughters(s: ClansmanState) -> None:
    """Daughters lie on distinct cards that are on the table, only once married."""
    seen: dict[tuple[int, str], int] = {}
    allow_k = s.data.rules.kochisei_marriageable
    if s.phase == "marriage":
        married = {(s.start - 1 - i) % s.n for i in range(s.turn)}
    else:
        married = set(range(s.n)) if s.phase == "production" else set()
    for q, d in enumerate(s.daughters):
        if d is None:
            continue
        who = _who(s, q)
        if q not in married:
            _fail(f"{who}'s daughter is married ({d[1]}) but "
                  + ("the game is over" if s.is_over() else "has not had her turn yet"))
        owner, cid = d
        if d in seen:
            _fail(f"the daughters of {_who(s, seen[d])} and {who} are on the same card {cid}")
        seen[d] = q
        if owner == -1:
            if cid not in s.princes:
                _fail(f"{who}'s daughter is on Royal Prince {cid}, which is not showing")
        elif not 0 <= owner < s.n:
            _fail(f"{who}'s daughter is on a card of seat {owner}, which is not a seat")
        elif cid not in s.players[owner].clans:
            _fail(f"{who}'s daughter is on {cid}, which is not in {_who(s, owner)}'s Clan "
                  "cards row")
        elif cid == KOCHISEI and not allow_k:
            _fail(f"{who}'s daughter is on a Kochisei-Shuraku, not a marriage target (R14)")


def _check_turn(s: ClansmanState) -> None:
    """The turn fits the phase; a payment has its card, a hand choice its Supply cards."""
    rules = s.data.rules
    if s.is_over():
        if s.round != rules.rounds:
            _fail(f"the game is over in round {s.round} (it ends after round {rules.rounds})")
    elif not 0 <= s.turn < s.n:
        _fail(f"turn {s.turn} of the {s.phase} phase with {s.n} seats (0-{s.n - 1})")
    if (s.step == "payment") != (s.pending is not None):
        _fail(f"a card pending payment ({s.pending}) in step {s.step!r}"
              if s.pending is not None else "a payment decision without a pending card")
    if s.pending is not None:
        p = (s.start + s.turn) % s.n
        pl = s.players[p]
        kofun_ok = s.expert and pl.kofun is None and s.pending in s.kofun
        if s.pending not in s.supply and s.pending not in pl.hand and not kofun_ok:
            _fail(f"{_who(s, p)} is paying for {s.pending}, which is not in the Supply, "
                  f"{_who(s, p)}'s hand or (a Kofun) the centre")
    if s.step == "hand" and len(s.supply) < 2:
        _fail(f"a 'hand' decision with {len(s.supply)} Supply card(s) (with fewer than 2 "
              "there is nothing to choose)")


def _check_workforce(s: ClansmanState) -> None:
    """Pool, usable and used cards fit the Production turn; a legal action exists."""
    if min(s.pool) < 0:
        _fail(f"negative goods in the pool {s.pool}")
    for key in s.used:
        if key not in _KEYS:
            _fail(f"a used card is named {key!r}, which names no card")
    if len(set(s.used)) != len(s.used):
        _fail(f"a card was used twice this round ({s.used})")
    if s.phase != "production":
        if any(s.pool) or s.usable or s.used or s.lock:
            _fail(f"a workforce (pool, usable or used cards, locked Statue) outside the "
                  f"Production phase ({s.phase})")
    else:
        p = (s.start + s.turn) % s.n
        pl = s.players[p]
        want = []
        for cid in pl.clans:
            occ = s.occupant(p, cid)
            if occ is None or occ == p:
                want.append((A.clan_key(p, cid), p, cid))
        d = s.daughters[p]
        if d is not None and d[0] != p:
            want.append((A.clan_key(d[0], d[1]) if d[0] >= 0 else d[1], d[0], d[1]))
        if s.usable != want:
            _fail(f"the cards usable this turn are {[u[0] for u in s.usable]}; "
                  f"{_who(s, p)}'s clans and daughter give {[u[0] for u in want]}")
    if s.is_over():
        return
    try:
        legal = s.legal_ids()
    except Exception as exc:  # any crash means the state does not fit together
        s._legal = None
        _fail(f"the legal actions cannot be computed ({type(exc).__name__}: {exc})")
    if not legal:
        _fail(f"no legal action although the game is not over ({s.decision_text()})")
