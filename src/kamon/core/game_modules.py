"""A game's optional helper modules (games/<game>/evaluation.py, hidden.py, recent.py),
looked up once per game package so the rest of kamon sees games only generically."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

_MODULES: dict[tuple[str, str], ModuleType | None] = {}


def game_module(state: Any, name: str) -> ModuleType | None:
    """The module `name` of the game package `state` belongs to; None if it has none."""
    package = type(state).__module__.rpartition(".")[0]
    key = (package, name)
    if key not in _MODULES:
        try:
            _MODULES[key] = importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.{name}":
                raise
            _MODULES[key] = None
    return _MODULES[key]
