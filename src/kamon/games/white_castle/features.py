"""What each clan chose in a finished game of The White Castle, for designers' results.

`kamon simulate --out results.parquet` adds these columns to every clan's row, and
`kamon report` draws the win rate by each grouping in REPORT. Everything is read from
the public view of the state after setup and at the end (`view(None)`), so nothing
here depends on how the rules are coded:

- `turn_position`: 1 for the clan that played first in round 1 (the setup turn order);
- the starting pair: `start_resource` and `start_action` card ids, and `start_pair`, both
  in words (`resource 6 + courtier`);
- `castle_cards`: the steward and diplomat cards the clan took onto its domain, in the
  order taken (`;`-separated), and how many;
- `gardens`: the garden cards its gardeners sit on (`plant_5;stone_8`), and how many;
- `yards`: the training yard of each warrior sent (`yard_1;yard_3;yard_3`), and how many;
- `courtier_rooms`: where its courtiers ended (`gate`, `steward2`, `daimyo`...).

The solo rival has no starting pair: its empty text columns mean "nothing".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kamon.core.game import Features
from kamon.core.protocol import State
from kamon.games.white_castle.actions import LOCS
from kamon.games.white_castle.names import component_name

# Column name -> kind ("str" or "int"), in the order they appear in the results.
COLUMNS: Mapping[str, str] = {
    "turn_position": "int",
    "start_resource": "str",
    "start_action": "str",
    "start_pair": "str",
    "castle_cards": "str",
    "castle_cards_taken": "int",
    "gardens": "str",
    "gardeners": "int",
    "yards": "str",
    "warriors": "int",
    "courtier_rooms": "str",
    "courtiers": "int",
}

# The groupings `kamon report` draws a win rate for: one value per row ("category"),
# several `;`-separated values per row ("multi": a row counts once for each value).
def value_words(value: str) -> str:
    """A grouping's value as a designer reads it: the rulebook's name, then the id an
    overlay names it by ('Diplomat card 2 (diplomat_02)')."""
    name = component_name(value)
    return value if name == value else f"{name} ({value})"


REPORT: Sequence[Mapping[str, Any]] = (
    {"kind": "category", "column": "start_pair", "title": "Win rate by starting pair",
     "label": "starting pair"},
    {"kind": "category", "column": "start_action", "title": "Win rate by starting action card",
     "label": "starting action card", "words": value_words},
    {"kind": "multi", "column": "castle_cards", "title": "Win rate by castle card taken",
     "label": "castle card taken", "words": value_words},
    {"kind": "multi", "column": "gardens", "title": "Win rate by garden card used",
     "label": "garden card with a gardener", "words": value_words},
    {"kind": "multi", "column": "yards", "title": "Win rate by training yard used",
     "label": "training yard with a warrior", "words": value_words},
)

CASTLE_PREFIXES = ("steward_", "diplomat_")
START_RESOURCE = "start_resource_"
START_ACTION = "start_action_"


def _pair_words(resource: str, action: str) -> str:
    """'resource 6 + courtier' for start_resource_6 with start_action_courtier ('' if none)."""
    if not resource and not action:
        return ""
    res = resource.removeprefix(START_RESOURCE)
    act = action.removeprefix(START_ACTION)
    return f"resource {res} + {act}"


def clan_features(clan: Mapping[str, Any], garden_cards: Sequence[str],
                  garden_workers: Sequence[Sequence[int]], q: int, position: int
                  ) -> dict[str, str | int]:
    """One clan's columns from its entry of the final view and the gardens' occupants."""
    cards = [*clan.get("lantern", []), *([clan["card"]] if clan.get("card") else [])]
    resource = next((c for c in cards if c.startswith(START_RESOURCE)), "")
    action = next((c for c in cards if c.startswith(START_ACTION)), "")
    castle = [c for c in cards if c.startswith(CASTLE_PREFIXES)]
    gardens = [garden_cards[g] for g, who in enumerate(garden_workers) if q in who]
    yards = sorted(f"yard_{y + 1}" for y in clan.get("warriors", []))
    rooms = sorted(LOCS[i] for i in clan.get("courtiers", []))
    return {
        "turn_position": position,
        "start_resource": resource,
        "start_action": action,
        "start_pair": _pair_words(resource, action),
        "castle_cards": ";".join(castle),
        "castle_cards_taken": len(castle),
        "gardens": ";".join(sorted(gardens)),
        "gardeners": len(gardens),
        "yards": ";".join(yards),
        "warriors": len(yards),
        "courtier_rooms": ";".join(rooms),
        "courtiers": len(rooms),
    }


def seat_features(start: State, end: State) -> list[dict[str, str | int]]:
    """Every clan's columns (seats, then the solo rival), from the views after setup and at
    the end."""
    order = [int(q) for q in start.view(None)["order"]]
    final = end.view(None)
    clans = final["clans"]
    return [clan_features(clans[q], final["garden_cards"], final["garden_workers"], q,
                          order.index(q) + 1 if q in order else 0)
            for q in range(len(clans))]


# The features slot of the game (kamon.core.game.Features).
FEATURES = Features(COLUMNS, seat_features, REPORT)
