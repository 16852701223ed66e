"""What each gozoku obtained in a finished game of I, Clansman, for designers' results.

`kamon simulate --out results.parquet` adds these columns to every seat's row, and
`kamon report` draws the groupings in REPORT. They are read from the public view of
the state after setup and at the end (`view(None)`) and the card data:

- `turn_position`: 1 for the start player of round 1, then clockwise;
- `starting_clan`: the seat's starting clan card (`302 Ukai-be`);
- `missions`: the Mission cards obtained (`;`-separated labels), how many, and how many
  in each century (`missions_c4` ... `missions_c7`: the century of the round it was
  obtained in);
- `emperors`: the Emperor cards awarded (Expert game), `kofun` and `kofun_mirrors`, the
  `hero` taken, the `clan_cards` in the row (the Kochisei-Shuraku and the starting
  clan included) and the final `tadokoro`.

A card label ends with † when some of its text is reconstructed (see docs/playing.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kamon.core.game import Features
from kamon.core.protocol import State
from kamon.games.clansman.data import CENTURIES, CSData, load_data

COLUMNS: Mapping[str, str] = {
    "turn_position": "int",
    "starting_clan": "str",
    "missions": "str",
    "missions_obtained": "int",
    **{f"missions_c{c}": "int" for c in CENTURIES},
    "emperors": "str",
    "emperor_cards": "int",
    "kofun": "str",
    "kofun_mirrors": "int",
    "hero": "str",
    "clan_cards": "int",
    "tadokoro": "int",
}

REPORT: Sequence[Mapping[str, Any]] = (
    {"kind": "category", "column": "starting_clan", "title": "Win rate by starting clan",
     "label": "starting clan"},
    {"kind": "multi", "column": "missions", "title": "Win rate by mission obtained",
     "label": "mission obtained"},
    {"kind": "profile", "columns": [f"missions_c{c}" for c in CENTURIES],
     "labels": [f"{c}th century" for c in CENTURIES],
     "title": "Missions obtained by century: winners and the others",
     "label": "missions obtained per seat"},
    {"kind": "category", "column": "kofun", "title": "Win rate by Kofun",
     "label": "Kofun built"},
    {"kind": "multi", "column": "emperors", "title": "Win rate by Emperor card awarded",
     "label": "Emperor card awarded"},
)


def _data(end: State) -> CSData:
    """The card data the game was played with (its overlay included)."""
    data = getattr(end, "data", None)
    return data if isinstance(data, CSData) else load_data(end.options.get("data_overlay"))


def gozoku_features(g: Mapping[str, Any], data: CSData, position: int
                    ) -> dict[str, str | int]:
    """One seat's columns from its gozoku entry of the final view."""
    cards = data.cards
    century_of_round = data.rules.century_of_round
    obtained = [str(c) for c in g.get("obtained", [])]
    per_century = dict.fromkeys(CENTURIES, 0)
    missions: list[str] = []
    for rnd, cid in enumerate(obtained, 1):
        card = cards.get(cid)
        if card is None or card.type != "mission":
            continue
        missions.append(card.label)
        century = century_of_round.get(rnd, card.century)
        if century in per_century:
            per_century[century] += 1
    starting = next((cards[c].label for c in g.get("clans", [])
                     if c in cards and cards[c].type == "starting_clan"), "")
    emperors = [cards[e].label if e in cards else e for e in g.get("emperors", [])]
    kofun, hero = g.get("kofun"), g.get("hero")
    return {
        "turn_position": position,
        "starting_clan": starting,
        "missions": ";".join(missions),
        "missions_obtained": len(missions),
        **{f"missions_c{c}": per_century[c] for c in CENTURIES},
        "emperors": ";".join(emperors),
        "emperor_cards": len(emperors),
        "kofun": cards[kofun].label if kofun in cards else "",
        "kofun_mirrors": int(g.get("kofun_mirrors", 0)),
        "hero": cards[hero].label if hero in cards else "",
        "clan_cards": len(g.get("clans", [])),
        "tadokoro": int(g.get("tadokoro", 0)),
    }


def seat_features(start: State, end: State) -> list[dict[str, str | int]]:
    """Every seat's columns, from the views after setup (the start player) and at the end."""
    first = int(start.view(None)["start"])
    final = end.view(None)
    data = _data(end)
    n = len(final["gozoku"])
    return [gozoku_features(g, data, (q - first) % n + 1)
            for q, g in enumerate(final["gozoku"])]


# The features slot of the game (kamon.core.game.Features).
FEATURES = Features(COLUMNS, seat_features, REPORT)
