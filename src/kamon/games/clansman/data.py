"""Load I, Clansman's card data (JSON) into the compact, validated form the rules use.

`data/cards.json` is the shared fact sheet: every card with its cost, function,
source lines and confidence, plus the engine default of each ruling R01-R35
(`RULES_NOTES.md` beside it explains them). An owner of the game can correct any
fact with an overlay (`kamon.core.overlay`): a JSON object deep-merged over the
file, lists of items matched by `id` (so `{"cards": [{"id": "712", "name": ...}]}`
or `{"rulings": [{"id": "R20", "default": {...}}]}`), passed as the `data_overlay`
option and embedded in the game record.

Goods are small integers (index into GOODS); a cost or a yield is a tuple of
(good, count) pairs so it hashes, compares and copies for free. The first
VOLATILE goods live in the turn's pool and vanish at the end of the turn; iron,
statue and mirror are item tokens a player keeps.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from kamon.core.errors import DataError
from kamon.core.overlay import merge_overlay

GOODS = ("worker", "soldier", "architect", "monk", "bureaucrat", "cloth", "fish", "pork",
         "pot", "horse", "iron", "statue", "mirror")
G = {g: i for i, g in enumerate(GOODS)}
WORKER, SOLDIER = G["worker"], G["soldier"]
IRON, STATUE, MIRROR = G["iron"], G["statue"], G["mirror"]
VOLATILE = 10  # goods 0-9 vanish at the end of the turn (R18)
# Goods a card use can yield (an action id exists for each, whatever the data says).
OUTPUT_GOODS = tuple(range(1, MIRROR))
VP_COLOURS = ("military", "religion", "government", "economy", "others")
PRINTED_COLOUR = {"military": "red", "religion": "yellow", "government": "purple",
                  "economy": "green", "others": "white"}
CLAN_TYPES = frozenset({"kochisei_shuraku", "starting_clan", "clan"})
CARD_TYPES = frozenset({"tadokoro", "miyake", "kofun", "kochisei_shuraku", "starting_clan",
                        "clan", "mission", "royal_prince", "hero", "emperor"})
CENTURIES = (4, 5, 6, 7)
KOCHISEI = "300"
WEAK = ("reconstructed", "inferred", "unknown")
# Field confidences that do not change play (which face backs which, where a card lies).
IRRELEVANT_FIELDS = frozenset({"physical_card", "other_face", "placement"})

Goods = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Use:
    """One way to use a clan-like card: take `inp` from the pool, yield `out`.

    `key` is the good that names the use in the notation ('convert 401 soldier'):
    the first good of `out` in GOODS order, unique among one card's uses.
    """

    key: int
    inp: Goods
    out: Goods


@dataclass(frozen=True)
class Card:
    """Any card: cost options, uses (clan-like cards), VPs and items (missions), effect."""

    id: str
    type: str
    name: str
    century: int | None
    costs: tuple[Goods, ...]
    uses: tuple[Use, ...]
    vp_colour: str | None
    vp: int
    items: Goods
    mirror_vp_each: int
    effect: tuple[Any, ...] | None
    side: str | None
    flags: frozenset[str]
    weak: str | None  # what is reconstructed/unknown about it, or None if all stated

    @property
    def label(self) -> str:
        """'412 Contribution' (with a dagger when some of its text is reconstructed)."""
        return f"{self.id} {self.name}" + (" †" if self.weak else "")


@dataclass(frozen=True)
class Rules:
    """The engine defaults of the rulings (cards.json `rulings`) and round structure."""

    rounds: int
    rounds_per_century: int
    century_of_round: dict[int, int]
    draw_first: int
    draw_other: int
    no_pass_rounds: frozenset[int]
    kochisei_marriageable: bool
    flip_at: int
    needs_owner_statue: frozenset[str]
    statue_lock: bool
    statue_vp_enablers: frozenset[str]
    vp_per_statue: int
    beginner_vp_per_mirror: int
    century_end_rounds: frozenset[int]
    variant_slots: dict[int, tuple[str, ...]]
    f_cost: Goods
    f_tadokoro: int
    g_cost: Goods
    g_tadokoro: int
    start_tadokoro: int
    tadokoro_cards: int


@dataclass(frozen=True)
class CSData:
    """Everything the rules read, already validated."""

    cards: dict[str, Card]
    decks: dict[int, tuple[str, ...]]
    starting_clans: tuple[str, ...]
    princes_early: tuple[str, ...]
    princes_late: tuple[str, ...]
    heroes: tuple[str, ...]
    kofun: tuple[str, ...]
    emperor_sides: dict[str, tuple[str, ...]]
    rules: Rules
    weak: tuple[str, ...] = field(default=())
    inferred_rulings: tuple[str, ...] = field(default=())

    def card(self, card_id: str) -> Card:
        """A card by its printed number."""
        return self.cards[card_id]


def _goods(raw: Any, where: str, allow_empty: bool = True) -> Goods:
    """A {good: count} map as sorted (good index, count) pairs, validated."""
    if not isinstance(raw, dict) or (not raw and not allow_empty):
        raise DataError(f"{where}: expected a non-empty object of goods, got {raw!r}")
    out = []
    for k, v in raw.items():
        if k not in G:
            raise DataError(f"{where}: unknown good {k!r} (known: {', '.join(GOODS)})")
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            raise DataError(f"{where}: {k} must be a positive integer, got {v!r}")
        out.append((G[k], v))
    return tuple(sorted(out))


def _uses(fn: Any, where: str) -> tuple[Use, ...]:
    """Conversions and productions of a clan-like card, one Use per output alternative."""
    if not isinstance(fn, dict):
        raise DataError(f"{where}: function must be an object")
    uses: list[Use] = []
    for i, conv in enumerate(fn.get("conversions") or []):
        inp = _goods(conv.get("in"), f"{where} conversion {i} 'in'", allow_empty=False)
        if any(g >= VOLATILE for g, _ in inp):
            raise DataError(f"{where} conversion {i}: inputs must be pool goods (workers ...)")
        for j, alt in enumerate(conv.get("out") or []):
            out = _goods(alt, f"{where} conversion {i} out {j}", allow_empty=False)
            uses.append(Use(out[0][0], inp, out))
    for i, prod in enumerate(fn.get("productions") or []):
        for j, alt in enumerate(prod.get("produce") or []):
            out = _goods(alt, f"{where} production {i} alternative {j}", allow_empty=False)
            uses.append(Use(out[0][0], (), out))
    keys = [u.key for u in uses]
    if len(set(keys)) != len(keys):
        raise DataError(f"{where}: two uses yield the same first good; each alternative must "
                        "be named by a different good")
    if any(g == MIRROR for u in uses for g, _ in u.out):
        raise DataError(f"{where}: no card use may yield Mirrors")
    return tuple(uses)


def _weak_note(raw: dict[str, Any]) -> str | None:
    """Which play-relevant fields of a card are reconstructed/unknown (None if none)."""
    src = raw.get("source") or {}
    fc = src.get("field_confidence") or {}
    parts = [f"{k} {v}" for k, v in fc.items()
             if k not in IRRELEVANT_FIELDS and isinstance(v, str) and any(w in v for w in WEAK)]
    conf = src.get("confidence", "")
    if not parts and isinstance(conf, str) and any(w in conf for w in WEAK) and not fc:
        parts.append(conf)
    return "; ".join(parts) or None


def _effect(raw: dict[str, Any], where: str) -> tuple[Any, ...]:
    """An Emperor face's effect as a tuple the rules dispatch on."""
    eff = (raw.get("function") or {}).get("effect")
    if not isinstance(eff, dict):
        raise DataError(f"{where}: an Emperor card needs function.effect")
    kind = eff.get("kind")
    colour = eff.get("majority_colour") or eff.get("colour")
    if colour is not None and colour not in VP_COLOURS:
        raise DataError(f"{where}: unknown VP colour {colour!r}")
    vp = eff.get("vp") or {}
    if kind == "award_card_to_majority":
        if eff.get("tie", "nobody") != "nobody":
            raise DataError(f"{where}: only 'tie: nobody' is supported")
        becomes_clan = eff.get("becomes") == "clan"
        if not becomes_clan and (vp.get("colour") not in VP_COLOURS or
                                 not isinstance(vp.get("amount"), int)):
            raise DataError(f"{where}: an awarded card needs vp colour and amount")
        return ("award", colour, vp.get("colour"), int(vp.get("amount", 0)), becomes_clan)
    if kind == "extra_production_each_production_turn":
        return ("extra_each_turn", _goods(eff.get("produce"), where, allow_empty=False))
    if kind == "each_player_tadokoro_to_miyake_row":
        return ("levy", int(eff.get("amount", 1)))
    if kind == "on_obtain_mission_with_vp_colour":
        return ("bonus_on_obtain", colour, _goods(eff.get("gain"), where, allow_empty=False))
    if kind == "vp_per_obtained_mission_with_vp_colour":
        return ("vp_per_mission", colour, vp.get("colour"), int(vp.get("amount", 1)))
    if kind == "vp_per_statue_held":
        return ("vp_per_statue", vp.get("colour"), int(vp.get("amount", 1)),
                bool(eff.get("requires_temple", False)))
    raise DataError(f"{where}: unknown Emperor effect kind {kind!r}")


def _card(raw: dict[str, Any]) -> Card:
    """One card record of cards.json, validated."""
    cid = raw["id"]
    if not isinstance(cid, str):
        raise DataError(f"card id {cid!r} must be a string")
    where = f"card {cid}"
    ctype = raw.get("type")
    if ctype not in CARD_TYPES:
        raise DataError(f"{where}: unknown type {ctype!r}")
    # no printed name: the card's kind ("712 Mission"); the data's display_name says
    # why the name is missing, which is a note for its readers, not a name
    name = raw.get("name") or str(ctype).capitalize()
    century = raw.get("century")
    if century is not None and century not in CENTURIES:
        raise DataError(f"{where}: century must be 4-7 or null, got {century!r}")
    costs: tuple[Goods, ...] = ()
    if raw.get("cost_options") is not None:
        opts = raw["cost_options"]
        if not isinstance(opts, list) or not opts:
            raise DataError(f"{where}: cost_options must be a non-empty list")
        costs = tuple(_goods(o, f"{where} cost option {i}") for i, o in enumerate(opts))
        if any(g == MIRROR for c in costs for g, _ in c):
            raise DataError(f"{where}: Mirrors are never part of a cost")
    fn = raw.get("function") or {}
    uses: tuple[Use, ...] = ()
    if ctype in CLAN_TYPES or ctype in ("royal_prince", "hero"):
        uses = _uses(fn, where)
        if not uses:
            raise DataError(f"{where}: a {ctype} card needs a conversion or production")
    vp_colour: str | None = None
    vp = mirror_vp = 0
    items: Goods = ()
    if ctype in ("mission", "kofun"):
        v = fn.get("vp")
        if not isinstance(v, dict) or v.get("colour") not in VP_COLOURS or not isinstance(
                v.get("amount"), int) or v["amount"] < 0:
            raise DataError(f"{where}: function.vp needs a colour ({', '.join(VP_COLOURS)}) "
                            "and a non-negative amount")
        vp_colour, vp = v["colour"], int(v["amount"])
        items = _goods(fn.get("items") or {}, f"{where} items")
        if any(g < VOLATILE for g, _ in items):
            raise DataError(f"{where}: a card's items must be iron, statue or mirror")
        if ctype == "kofun":
            mv = fn.get("mirror_vp_each") or {}
            mirror_vp = int(mv.get("amount", 0))
        if not costs:
            raise DataError(f"{where}: a {ctype} card needs a cost")
    if ctype in ("clan",) and not costs:
        raise DataError(f"{where}: a clan card needs a cost")
    effect = _effect(raw, where) if ctype == "emperor" else None
    if effect is not None and effect[0] == "award" and effect[4]:
        uses = _uses(raw["function"]["effect"], where)
    if ctype == "hero" and len(uses) != 1:
        raise DataError(f"{where}: a Hero must produce exactly one thing")
    flags = raw.get("flags") or []
    return Card(cid, ctype, str(name), century, costs, uses, vp_colour, vp, items, mirror_vp,
                effect, raw.get("side"), frozenset(flags), _weak_note(raw))


def _ruling(rulings: dict[str, Any], rid: str, key: str) -> Any:
    """One field of a ruling's default; DataError naming it when missing."""
    try:
        return rulings[rid]["default"][key]
    except (KeyError, TypeError):
        raise DataError(f"ruling {rid} has no default {key!r}") from None


def _require(rulings: dict[str, Any], rid: str, key: str, value: Any) -> None:
    """A ruling default this engine implements only one way: refuse anything else."""
    got = _ruling(rulings, rid, key)
    if got != value:
        raise DataError(f"ruling {rid} default {key}={got!r} is not supported by this engine "
                        f"(only {value!r}); see RULES_NOTES.md#{rid.lower()}")


def _rules(raw: dict[str, Any], cards: dict[str, Card]) -> Rules:
    """Read the round structure and every ruling default the rules depend on."""
    rulings = {r["id"]: r for r in raw["rulings"]}
    rs = raw["round_structure"]
    rounds = int(rs["rounds"])
    per = int(rs["rounds_per_century"])
    cor = {int(k): int(v) for k, v in rs["century_of_round"].items()}
    if sorted(cor) != list(range(1, rounds + 1)) or any(c not in CENTURIES for c in cor.values()):
        raise DataError("round_structure.century_of_round must map rounds 1..N to 4-7")
    for rid, key, value in (("R04", "occupied_card_used_by", "daughter_owner_only"),
                            ("R05", "owner_may_use", False),
                            ("R06", "uses_per_card_per_round", 1),
                            ("R07", "obtain_mandatory", True),
                            ("R12", "marriage_mandatory", True),
                            ("R12", "no_legal_target", "daughter_stays_home"),
                            ("R13", "dowry_counts_for_receiver_this_round", True),
                            ("R16", "workers_counted_at", "start_of_own_production_turn"),
                            ("R17", "substitution", False),
                            ("R19", "hero_is_the_round_obtain", False),
                            ("R19", "heroes_per_player", 1),
                            ("R21", "cumulative_over_temples", False),
                            ("R23", "kofun_is_the_round_obtain", True),
                            ("R23", "kofun_per_player", 1),
                            ("R26", "tie_for_most", "nobody"),
                            ("R26", "all_zero", "nobody"),
                            ("R27", "one_side_for_all_four", True)):
        _require(rulings, rid, key, value)
    needs = set()
    if _ruling(rulings, "R20", "601_requires_owner_statue"):
        needs.add("601")
    if _ruling(rulings, "R20", "602_requires_owner_statue"):
        needs.add("602")
    enablers = frozenset(str(x) for x in _ruling(rulings, "R21", "statue_vp_enablers"))
    slots = {int(k.rstrip("thsnrd")): tuple(str(x) for x in v)
             for k, v in _ruling(rulings, "R32", "variant_slots").items()}
    for cid in (*needs, *enablers, *(x for v in slots.values() for x in v)):
        if cid not in cards:
            raise DataError(f"a ruling names card {cid}, which the data does not have")
    tado = cards.get("100")
    opts = {o["option"]: o for o in (_raw_card(raw, "100").get("obtain_options") or [])}
    if tado is None or set(opts) != {"F", "G"}:
        raise DataError("card 100 (Tadokoro) needs obtain_options F and G")
    per_player = raw["setup"]["per_player"]
    return Rules(
        rounds=rounds, rounds_per_century=per, century_of_round=cor,
        draw_first=int(_ruling(rulings, "R09", "draw_first_round")),
        draw_other=int(_ruling(rulings, "R09", "draw_other_rounds")),
        no_pass_rounds=frozenset(int(x) for x in _ruling(rulings, "R10", "no_pass_after_rounds")),
        kochisei_marriageable=bool(_ruling(rulings, "R14", "kochisei_marriageable")),
        flip_at=int(_ruling(rulings, "R15", "flip_when_tadokoro_in_miyake_row")),
        needs_owner_statue=frozenset(needs),
        statue_lock=bool(_ruling(rulings, "R20", "601_locks_one_owner_statue_in_turn_of_use")),
        statue_vp_enablers=enablers,
        vp_per_statue=int(_ruling(rulings, "R21", "vp_per_statue")),
        beginner_vp_per_mirror=int(_ruling(rulings, "R22", "beginner_vp_per_mirror")),
        century_end_rounds=frozenset(
            int(x) for x in _ruling(rulings, "R25", "century_end_cleanup_rounds")),
        variant_slots=slots,
        f_cost=_goods(opts["F"]["cost"], "card 100 option F cost"),
        f_tadokoro=int(opts["F"]["tadokoro"]),
        g_cost=_goods(opts["G"]["cost"], "card 100 option G cost"),
        g_tadokoro=int(opts["G"]["tadokoro"]),
        start_tadokoro=int(per_player["tadokoro"]),
        tadokoro_cards=int(raw["components"]["tadokoro_cards"]["count"]))


def _raw_card(raw: dict[str, Any], cid: str) -> dict[str, Any]:
    """The raw record of one card (empty if absent)."""
    return next((c for c in raw["cards"] if c.get("id") == cid), {})


@lru_cache(maxsize=1)
def _raw_text() -> str:
    """The bundled cards.json text (read once)."""
    return resources.files("kamon.games.clansman").joinpath("data/cards.json").read_text(
        encoding="utf-8")


def load_data(overlay: dict[str, Any] | None = None) -> CSData:
    """The validated card data, with an optional overlay applied."""
    key = json.dumps(overlay, sort_keys=True) if overlay else ""
    return _load_cached(key)


@lru_cache(maxsize=16)
def _load_cached(overlay_key: str) -> CSData:
    """Build (and cache) the data for one overlay, given as canonical JSON text."""
    raw = json.loads(_raw_text())
    if overlay_key:
        raw = merge_overlay(raw, json.loads(overlay_key))
    try:
        data = _build(raw)
    except DataError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise DataError(f"I, Clansman card data is malformed: {type(exc).__name__}: {exc}"
                        ) from None
    if overlay_key:
        base = _load_cached("")
        for cid, card in base.cards.items():
            if data.cards[cid].type != card.type:
                raise DataError(f"the overlay changes the type of card {cid} ({card.type} -> "
                                f"{data.cards[cid].type}); the action space is fixed, so types "
                                "cannot be changed")
    return data


def _build(raw: dict[str, Any]) -> CSData:
    """Validate the raw data and build the compact form the rules use."""
    cards: dict[str, Card] = {}
    for c in raw["cards"]:
        card = _card(c)
        if card.id in cards:
            raise DataError(f"card {card.id} appears twice")
        cards[card.id] = card
    decks: dict[int, tuple[str, ...]] = {}
    for century in CENTURIES:
        deck = raw["century_decks"][str(century)]
        ids = tuple(deck["clan_ids"]) + tuple(deck["mission_ids"])
        if len(ids) != int(deck["total"]):
            raise DataError(f"century {century}: total {deck['total']} does not match its ids")
        for cid in ids:
            if cid not in cards:
                raise DataError(f"century {century} deck names unknown card {cid}")
            card = cards[cid]
            if card.type not in ("clan", "mission") or card.century != century:
                raise DataError(f"card {cid} in the century-{century} deck must be a clan or "
                                f"mission of century {century}")
            want = "clan" if cid in deck["clan_ids"] else "mission"
            if card.type != want:
                raise DataError(f"card {cid} is listed as a {want} of century {century} but "
                                f"its type is {card.type}")
        decks[century] = ids
    seen = [c for ids in decks.values() for c in ids]
    if len(set(seen)) != len(seen):
        raise DataError("a card appears in two century decks")

    def of_type(t: str) -> tuple[str, ...]:
        """Sorted ids of every card of one type."""
        return tuple(sorted(cid for cid, c in cards.items() if c.type == t))

    starting = of_type("starting_clan")
    princes = of_type("royal_prince")
    early = tuple(p for p in princes if cards[p].side == "4th-5th")
    late = tuple(p for p in princes if cards[p].side == "6th-7th")
    if len(early) != 3 or len(late) != 3:
        raise DataError("there must be 3 Royal Prince faces for the 4th-5th and 3 for the "
                        "6th-7th centuries")
    heroes = of_type("hero")
    kofun = of_type("kofun")
    if KOCHISEI not in cards or cards[KOCHISEI].type != "kochisei_shuraku":
        raise DataError("card 300 must be the Kochisei-Shuraku")
    if len(starting) != 4:
        raise DataError(f"there must be 4 starting clans, found {len(starting)}")
    ec = raw["components"]["emperor_cards"]
    sides = {"A": tuple(ec["side_a"]), "B": tuple(ec["side_b"])}
    for side, faces in sides.items():
        if [cards[f].century for f in faces] != list(CENTURIES) or any(
                cards[f].type != "emperor" for f in faces):
            raise DataError(f"Emperor side {side} must be 4 Emperor faces for centuries 4-7")
    rules = _rules(raw, cards)
    for cid in rules.statue_vp_enablers | rules.needs_owner_statue:
        if cards[cid].type not in CLAN_TYPES:
            raise DataError(f"card {cid} is named as a temple but is not a clan card")
    weak = tuple(f"{c.id} {c.name}: {c.weak}" for c in cards.values() if c.weak)
    inferred = tuple(f"{r['id']} {r.get('title', '')}" for r in raw["rulings"]
                     if r.get("confidence") in ("inferred", "unknown"))
    return CSData(cards=cards, decks=decks, starting_clans=starting, princes_early=early,
                  princes_late=late, heroes=heroes, kofun=kofun, emperor_sides=sides,
                  rules=rules, weak=weak, inferred_rulings=inferred)
