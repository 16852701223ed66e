"""The games kamon knows: one package each, found by `kamon.core.registry` (a package
here that declares `GAME` is a game; so is an installed entry point of `kamon.games`).
`get_game(name)` is a game's entry point; `GAMES` every game by name."""

from __future__ import annotations

from typing import Any

from kamon.core.registry import canonical, games, get_game

__all__ = ["GAMES", "canonical", "games", "get_game"]


def __getattr__(name: str) -> Any:
    """`GAMES`: every registered game by name (found on first use)."""
    if name == "GAMES":
        return games()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
