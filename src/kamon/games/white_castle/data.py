"""Load The White Castle's component data (JSON) into the compact form the rules use.

`data/components.json` is the shared fact sheet (every item with source and
confidence). An owner of the game can correct any fact with an overlay: a JSON
object deep-merged over the file (lists of items merge by their `id`, `row`,
`position` or `slot`), passed as the `data_overlay` option (the `kamon` command reads it from
`--data-overlay FILE` or the KAMON_DATA_OVERLAY environment variable and embeds it
in the game record, so a replay never depends on the environment).

Effects become tuples so they hash, compare and copy for free:
  ("gain", (("coin", 2), ...))   ("choice", n)   ("pay", (("seal", 1),), effect)
  ("courtier",) ("gardener",) ("warrior",) ("lantern",) ("well",) ("light",)
  ("domain",)   ("passage", n)  ("die_tile", colour)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from kamon.core.errors import DataError
from kamon.core.overlay import merge_overlay

COLOURS = ("coral", "black", "white")
RESOURCES = ("food", "iron", "pearl")
ROWS = ("top", "middle", "bottom")
WORKERS = ("courtier", "gardener", "warrior")
SIMPLE_ACTIONS = {"courtier", "gardener", "warrior", "lantern", "well", "light_action",
                  "personal_domain"}
GAIN_KINDS = {"coin", "seal", "cp", "food", "iron", "pearl"}
WEAK_CONFIDENCE = ("reconstructed", "inferred", "unknown", "one-source")

Effect = tuple[Any, ...]


@dataclass(frozen=True)
class Block:
    """One action block of a castle/action card: which rows it serves and what it does."""

    rows: tuple[str, ...]
    light: bool
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Card:
    """A castle, starting-action or decree card: blocks plus its Lantern-area icon."""

    id: str
    deck: str
    blocks: tuple[Block, ...]
    lantern: Effect | None
    diamond: bool = False


@dataclass(frozen=True)
class Garden:
    """A garden card: plant or stone, food cost, end-game CP and its effects."""

    id: str
    kind: str
    food: int
    cp: int
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class SoloCard:
    """A Solitaire card: its Bridge side (which die, where it goes) and its two icons."""

    id: str
    colour: int
    position: str
    destination: int
    actions: tuple[tuple[Any, ...], ...]
    reconstructed: int  # how many of its two faces are reconstructed (0-2)


# Main-board die spaces by data id, in the engine's space order (actions.SPACES).
SPACE_IDS = ("steward_room_1", "steward_room_2", "steward_room_3", "diplomat_room_1",
             "diplomat_room_2", "outside_the_walls_left", "outside_the_walls_right", "well")
SOLO_ICONS = {"place_gardener", "place_warrior", "courtier_to_gate", "courtier_climb",
              "gain_cp", "passage", "gain_coins"}
POSITIONS = ("left", "center", "right")


@dataclass(frozen=True)
class WCData:
    """Everything the rules read, already validated."""

    stewards: dict[str, Card]
    diplomats: dict[str, Card]
    daimyo: dict[str, tuple[tuple[Effect, ...], ...]]
    start_resources: dict[str, tuple[tuple[Effect, ...], str | None, Effect]]
    start_actions: dict[str, Card]
    start_action_copies: dict[str, int]
    decrees: dict[str, Card]
    die_tiles: dict[str, tuple[str, tuple[Effect, ...]]]
    first_game_well: tuple[str, ...]
    yard_costs: tuple[int, ...]
    yard_values: tuple[int, ...]
    yard_faces: tuple[tuple[str, ...], ...]
    yard_tiles: dict[str, dict[str, tuple[Effect, ...]]]
    gardens: dict[str, Garden]
    domain_visible: dict[str, Effect]
    domain_cells: dict[str, tuple[Effect, ...]]
    passage_cp: tuple[int, ...]
    checkpoints: dict[int, int]
    printed: dict[str, int]
    dice_per_colour: dict[int, int]
    outside: tuple[tuple[int, ...], ...]
    solo_deck: dict[str, SoloCard]
    solo_difficulty: dict[str, tuple[int, int, int]]
    weak: tuple[str, ...] = field(default=())

    def card(self, card_id: str) -> Card:
        """Any card with blocks by id."""
        for table in (self.stewards, self.diplomats, self.start_actions, self.decrees):
            if card_id in table:
                return table[card_id]
        raise KeyError(card_id)


def parse_effect(raw: Any, where: str) -> Effect:
    """Turn one JSON effect record into the engine's tuple form."""
    if not isinstance(raw, dict):
        raise DataError(f"{where}: an effect must be an object, got {raw!r}")
    if "gain" in raw:
        gains = raw["gain"]
        if not isinstance(gains, dict) or not gains:
            raise DataError(f"{where}: 'gain' must be a non-empty object")
        for k, v in gains.items():
            if k not in GAIN_KINDS:
                raise DataError(f"{where}: unknown gain {k!r} (known: {sorted(GAIN_KINDS)})")
            if not isinstance(v, int) or v <= 0:
                raise DataError(f"{where}: gain {k!r} must be a positive integer")
        return ("gain", tuple(sorted(gains.items())))
    if "gain_choice" in raw:
        n = raw["gain_choice"].get("resource") if isinstance(raw["gain_choice"], dict) else None
        if not isinstance(n, int) or n <= 0:
            raise DataError(f"{where}: gain_choice needs a positive 'resource' count")
        return ("choice", n)
    if "pay" in raw:
        cost = raw["pay"]
        if not isinstance(cost, dict) or not cost or any(
                k not in ("coin", "seal") or not isinstance(v, int) or v <= 0
                for k, v in cost.items()):
            raise DataError(f"{where}: 'pay' must map coin/seal to positive integers")
        if "then" not in raw:
            raise DataError(f"{where}: 'pay' needs a 'then' effect")
        return ("pay", tuple(sorted(cost.items())), parse_effect(raw["then"], where))
    if "action" in raw:
        act = raw["action"]
        if act == "passage":
            steps = raw.get("steps")
            if not isinstance(steps, int) or steps <= 0:
                raise DataError(f"{where}: passage needs positive 'steps'")
            return ("passage", steps)
        if act == "die_tile":
            colour = raw.get("color")
            if colour not in (*COLOURS, "any"):
                raise DataError(f"{where}: die_tile colour must be coral/black/white/any")
            return ("die_tile", colour)
        if act not in SIMPLE_ACTIONS:
            raise DataError(f"{where}: unknown action {act!r}")
        return ({"light_action": "light", "personal_domain": "domain"}.get(act, act),)
    raise DataError(f"{where}: unknown effect record {raw!r}")


def _effects(raw: Any, where: str) -> tuple[Effect, ...]:
    if not isinstance(raw, list):
        raise DataError(f"{where}: effects must be a list")
    return tuple(parse_effect(e, f"{where}[{i}]") for i, e in enumerate(raw))


def _card(raw: dict[str, Any]) -> Card:
    cid = raw["id"]
    blocks = []
    for i, b in enumerate(raw.get("blocks", [])):
        rows = tuple(b["rows"])
        if not rows or any(r not in ROWS for r in rows):
            raise DataError(f"{cid} block {i}: rows must be among {ROWS}")
        if b.get("background") not in ("light", "dark"):
            raise DataError(f"{cid} block {i}: background must be light or dark")
        blocks.append(Block(rows, b["background"] == "light",
                            _effects(b["effects"], f"{cid} block {i}")))
    lantern = raw.get("lantern_icon")
    return Card(cid, raw.get("deck", ""), tuple(blocks),
                parse_effect(lantern, f"{cid} lantern_icon") if lantern else None,
                bool(raw.get("diamond", False)))


@lru_cache(maxsize=2)
def _package_text(name: str) -> str:
    return resources.files("kamon.games.white_castle").joinpath(
        f"data/{name}").read_text(encoding="utf-8")


def _raw_components() -> str:
    return _package_text("components.json")


def load_data(overlay: dict[str, Any] | None = None) -> WCData:
    """The validated component data, with an optional overlay applied."""
    key = json.dumps(overlay, sort_keys=True) if overlay else ""
    return _load_cached(key)


@lru_cache(maxsize=16)
def _load_cached(overlay_key: str) -> WCData:
    raw = json.loads(_raw_components())
    cards = raw.get("solo", {}).get("cards")
    if isinstance(cards, dict) and cards.get("contents") is None:
        # The fact sheet has no Solitaire card text; kamon ships a reconstructed deck.
        cards["contents"] = json.loads(_package_text("solo_deck.json"))["cards"]
    if overlay_key:
        raw = merge_overlay(raw, json.loads(overlay_key))
    try:
        return _build(raw)
    except DataError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise DataError(f"component data is malformed: {type(exc).__name__}: {exc}") from None


def _weak_items(raw: Any, path: str, out: list[str]) -> None:
    """Collect the paths of items whose confidence is weak (reconstructed/inferred/...)."""
    if isinstance(raw, dict):
        conf = raw.get("confidence")
        if isinstance(conf, str) and any(w in conf for w in WEAK_CONFIDENCE) and (
                "id" in raw or "space" in raw or "position" in raw):
            label = raw.get("id") or f"{path}.{raw.get('space', raw.get('position'))}"
            out.append(f"{label} ({conf})")
        here = f"{path}[{raw['die_colour']}]" if "die_colour" in raw else path
        for k, v in raw.items():
            if k not in ("source", "note"):
                _weak_items(v, f"{here}.{k}" if here else k, out)
    elif isinstance(raw, list):
        for item in raw:
            _weak_items(item, path, out)


def _build(raw: dict[str, Any]) -> WCData:
    cc = raw["castle_cards"]
    stewards = {c["id"]: _card(c) for c in cc["steward"]}
    diplomats = {c["id"]: _card(c) for c in cc["diplomat"]}
    for card in stewards.values():
        if len(card.blocks) != 3 or [b.rows for b in card.blocks] != [("top",), ("middle",),
                                                                          ("bottom",)]:
            raise DataError(f"{card.id}: a steward card needs exactly 3 one-row blocks")
    for card in diplomats.values():
        if len(card.blocks) != 2 or sorted(r for b in card.blocks for r in b.rows) != sorted(ROWS):
            raise DataError(f"{card.id}: a diplomat card needs 2 blocks covering the 3 rows")
    daimyo = {}
    for c in cc["daimyo_favor"]:
        slots = sorted(c["slots"], key=lambda s: s["slot"])
        if len(slots) != 3:
            raise DataError(f"{c['id']}: a Daimyo card needs 3 slots")
        daimyo[c["id"]] = tuple(_effects(s["effects"], f"{c['id']} slot {s['slot']}")
                                for s in slots)
    sc = raw["starting_cards"]
    start_resources = {}
    decrees = {c["id"]: _card(c) for c in sc["decree"]}
    for c in sc["starting_resource"]:
        decree = c.get("decree")
        if decree is not None and decree not in decrees:
            raise DataError(f"{c['id']}: unknown decree {decree!r}")
        start_resources[c["id"]] = (_effects(c["on_take"], c["id"]), decree,
                                    parse_effect(c["lantern_icon"], c["id"]))
    start_actions = {c["id"]: _card(c) for c in sc["starting_action"]}
    copies = {c["id"]: int(c.get("copies", 1)) for c in sc["starting_action"]}
    dt = raw["die_tiles"]
    die_tiles = {}
    for t in dt["tiles"]:
        if t["colour_side"] not in COLOURS:
            raise DataError(f"{t['id']}: colour_side must be one of {COLOURS}")
        die_tiles[t["id"]] = (t["colour_side"], _effects(t["reward_side"], t["id"]))
    if len(die_tiles) != 15:
        raise DataError(f"there must be 15 die tiles, found {len(die_tiles)}")
    first_game_well = tuple(dt["first_game_well"]["tiles"])
    if len(first_game_well) != 2 or any(t not in die_tiles for t in first_game_well):
        raise DataError("first_game_well must name 2 known die tiles")
    ty = raw["training_yards"]
    yards = ty["yards"]
    yard_tiles = {t["id"]: {"front": _effects(t["front"]["effects"], t["id"]),
                            "back": _effects(t["back"]["effects"], t["id"])}
                  for t in ty["tiles"]}
    gardens = {}
    for g in raw["gardens"]["cards"]:
        if g["kind"] not in ("plant", "stone"):
            raise DataError(f"{g['id']}: garden kind must be plant or stone")
        gardens[g["id"]] = Garden(g["id"], g["kind"], int(g["food_cost"]), int(g["cp"]),
                                  _effects(g["effects"], g["id"]))
    if sum(1 for g in gardens.values() if g.kind == "plant") < 3 or sum(
            1 for g in gardens.values() if g.kind == "stone") < 3:
        raise DataError("at least 3 plant and 3 stone garden cards are needed")
    domain_visible: dict[str, Effect] = {}
    domain_cells: dict[str, tuple[Effect, ...]] = {}
    for row in raw["personal_domain"]["rows"]:
        colour = row["die_colour"]
        domain_visible[colour] = parse_effect(row["always_visible_reward"], f"{colour} row")
        cells = sorted(row["spaces_under_workers"], key=lambda s: s["space"])
        if len(cells) != 5:
            raise DataError(f"{colour} row: 5 spaces under the workers are needed")
        for c in cells:
            if c["reward"] is None:
                raise DataError(f"{colour} row space {c['space']}: reward is unknown (null); "
                                "supply it with a data overlay")
        domain_cells[colour] = tuple(parse_effect(c["reward"], f"{colour} row space {c['space']}")
                                     for c in cells)
    spaces = sorted(raw["passage_of_time"]["spaces"], key=lambda s: s["position"])
    passage_cp = tuple(int(s["end_game_cp"]) for s in spaces)
    checkpoints = {s["position"]: int(s["checkpoint_to_enter"]["pay"]["seal"])
                   for s in spaces if s.get("checkpoint_to_enter")}
    printed = {s["id"]: int(s["printed_value"]) for s in raw["board"]["action_spaces"]}
    dpc = {int(k): int(v) for k, v in raw["board"]["bridges"]["dice_per_colour_by_players"].items()}
    outside = []
    for sp in raw["outside_the_walls"]["spaces"]:
        kinds = [e.get("action") for e in sp["choose_one_of"]]
        if any(k not in WORKERS for k in kinds):
            raise DataError(f"{sp['id']}: choose_one_of must name worker actions")
        outside.append(tuple(WORKERS.index(k) for k in kinds))
    solo_deck = parse_solo_deck(raw["solo"]["cards"]["contents"])
    solo_difficulty = {
        k: (int(v["cp"]), int(v["heron_position"]), int(v["passage_of_time"]))
        for k, v in raw["solo"]["setup"]["difficulty"].items()}
    weak: list[str] = []
    _weak_items(raw, "", weak)
    return WCData(
        stewards=stewards, diplomats=diplomats, daimyo=daimyo,
        start_resources=start_resources, start_actions=start_actions,
        start_action_copies=copies, decrees=decrees, die_tiles=die_tiles,
        first_game_well=first_game_well,
        yard_costs=tuple(int(y["iron_cost"]) for y in yards),
        yard_values=tuple(int(y["warrior_value"]) for y in yards),
        yard_faces=tuple(tuple(s["face_up"] for s in y["tile_slots"]) for y in yards),
        yard_tiles=yard_tiles, gardens=gardens, domain_visible=domain_visible,
        domain_cells=domain_cells, passage_cp=passage_cp, checkpoints=checkpoints,
        printed=printed, dice_per_colour=dpc, outside=tuple(outside), solo_deck=solo_deck,
        solo_difficulty=solo_difficulty, weak=tuple(weak))


def _solo_action(raw: Any, where: str) -> tuple[Any, ...]:
    """One Solitaire icon as a tuple: (icon, parameter?)."""
    if not isinstance(raw, dict) or raw.get("icon") not in SOLO_ICONS:
        raise DataError(f"{where}: an icon must be one of {sorted(SOLO_ICONS)}, got {raw!r}")
    icon = raw["icon"]
    if icon == "place_gardener":
        if raw.get("garden") not in ("plant", "stone", "any"):
            raise DataError(f"{where}: place_gardener needs garden plant|stone|any")
        return ("gardener", raw["garden"])
    if icon == "place_warrior":
        if raw.get("yard_iron") not in (1, 3, 5):
            raise DataError(f"{where}: place_warrior needs yard_iron 1, 3 or 5")
        return ("warrior", raw["yard_iron"])
    if icon == "courtier_to_gate":
        return ("gate",)
    if icon == "courtier_climb":
        if raw.get("levels") not in (1, 2):
            raise DataError(f"{where}: courtier_climb needs levels 1 or 2")
        return ("climb", raw["levels"])
    n = raw.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
        raise DataError(f"{where}: {icon} needs a positive integer n")
    return ({"gain_cp": "cp", "passage": "passage", "gain_coins": "coins"}[icon], n)


def parse_solo_deck(raw: Any) -> dict[str, SoloCard]:
    """Validate the 9 Solitaire cards: every colour+position pair once, known spaces, icons."""
    if not isinstance(raw, list) or len(raw) != 9:
        raise DataError("the Solitaire deck (solo.cards.contents) must list 9 cards")
    deck: dict[str, SoloCard] = {}
    pairs: set[tuple[str, str]] = set()
    for i, card in enumerate(raw):
        if not isinstance(card, dict) or not isinstance(card.get("id"), str):
            raise DataError(f"Solitaire card {i + 1}: needs an 'id'")
        cid = card["id"]
        bridge = card.get("bridge_side")
        if not isinstance(bridge, dict):
            raise DataError(f"{cid}: needs a 'bridge_side' object")
        colour, position, dest = (bridge.get("die_colour"), bridge.get("bridge_position"),
                                  bridge.get("destination"))
        if colour not in COLOURS:
            raise DataError(f"{cid}: bridge_side.die_colour must be one of {COLOURS}")
        if position not in POSITIONS:
            raise DataError(f"{cid}: bridge_side.bridge_position must be one of {POSITIONS}")
        if dest not in SPACE_IDS:
            raise DataError(f"{cid}: bridge_side.destination must be a main-board space "
                            f"({', '.join(SPACE_IDS)}), got {dest!r}")
        if (colour, position) in pairs:
            raise DataError(f"{cid}: the pair {colour} {position} is already on another card "
                            "(each of the 9 colour+position pairs appears once)")
        pairs.add((colour, position))
        side = card.get("action_side")
        acts = side.get("actions") if isinstance(side, dict) else None
        if not isinstance(acts, list) or not 1 <= len(acts) <= 2:
            raise DataError(f"{cid}: action_side.actions must list 1 or 2 icons")
        recon = sum(1 for part in (bridge, side) if isinstance(part, dict)
                    and "reconstructed" in str(part.get("confidence", "")))
        deck[cid] = SoloCard(cid, COLOURS.index(colour), position, SPACE_IDS.index(dest),
                             tuple(_solo_action(a, f"{cid} action {k + 1}")
                                   for k, a in enumerate(acts)), recon)
    return deck
