"""Find a game's optional result features (`kamon.games.<game>.features`) by the game's name.

A game may ship a `features` module with `COLUMNS` (column name -> "str" or "int"),
`seat_features(start, end)` (one dict per clan of the finished game: its values of
those columns, read from the state after setup and at the end) and `REPORT` (the
groupings `kamon report` draws). A game without one gets no extra columns.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from kamon.core.errors import KamonError
from kamon.core.protocol import State
from kamon.games import ALIASES, GAMES

KINDS = ("str", "int")
Extractor = Callable[[State, State], list[dict[str, Any]]]


def _none(start: State, end: State) -> list[dict[str, Any]]:
    """No extra columns: one empty dict per clan."""
    return [{} for _ in end.scores()]


@dataclass(frozen=True)
class GameFeatures:
    """A game's extra result columns, how to read them, and the report's groupings."""

    columns: Mapping[str, str] = field(default_factory=dict)
    extract: Extractor = _none
    report: Sequence[Mapping[str, Any]] = ()


@cache
def features_of(game: str) -> GameFeatures:
    """The features of a game by name (empty when the game ships no features module)."""
    key = ALIASES.get(game, game)
    package = GAMES.get(key)
    if package is None:
        raise KamonError(f"unknown game {game!r}")
    name = package + ".features"
    try:
        module: Any = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return GameFeatures()
    columns = dict(getattr(module, "COLUMNS", {}))
    for col, kind in columns.items():
        if kind not in KINDS:
            raise KamonError(f"{name}: column {col!r} has kind {kind!r}, not one of {KINDS}")
    return GameFeatures(columns, getattr(module, "seat_features", _none),
                        tuple(getattr(module, "REPORT", ())))
