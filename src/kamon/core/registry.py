"""The games kamon knows: found, never listed. Every package under `kamon.games` that
declares `GAME` is a game, and so is every installed entry point of the group
`kamon.games` (a game shipped by another distribution: `GAME`, or a module holding it).
A third game is therefore one folder: `src/kamon/games/<game>/` with its `GAME`.

Names are the games' own (`GAME.name`); each game's `aliases`, and its name written
with '_' for '-', find it too. The order is each game's `position`, then its name (the
lobby and every list show games in it).
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points
from typing import Any

from kamon.core.errors import KamonError
from kamon.core.protocol import Game

GROUP = "kamon.games"  # the entry point group (and the package scanned)
_games: dict[str, Game] | None = None
_aliases: dict[str, str] = {}


def _discover() -> dict[str, Game]:
    """Import every game package and entry point once; KamonError for two games of one
    name or an alias that names two games."""
    found: list[Game] = []
    package = importlib.import_module(GROUP)
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg and not info.name.startswith("_"):
            game = getattr(importlib.import_module(f"{GROUP}.{info.name}"), "GAME", None)
            if game is not None:
                found.append(game)
    for point in entry_points(group=GROUP):
        loaded: Any = point.load()
        game = getattr(loaded, "GAME", loaded)
        if not any(g is game for g in found):
            found.append(game)
    games: dict[str, Game] = {}
    for game in sorted(found, key=lambda g: (getattr(g, "position", 100), g.name)):
        if game.name in games:
            raise KamonError(f"two games are called {game.name!r}")
        games[game.name] = game
    aliases: dict[str, str] = {}
    for game in games.values():
        for alias in (*game.aliases, game.name.replace("-", "_")):
            if alias != game.name and aliases.setdefault(alias, game.name) != game.name:
                raise KamonError(f"the alias {alias!r} names two games")
    _aliases.clear()
    _aliases.update(aliases)
    return games


def games() -> dict[str, Game]:
    """Every registered game by name, in the order lists show them."""
    global _games
    if _games is None:
        _games = _discover()
    return _games


def canonical(name: str) -> str:
    """The registered name of a game given by name or alias; KamonError naming the known
    games if none."""
    known = games()
    key = _aliases.get(name, name)
    if key not in known:
        raise KamonError(f"unknown game {name!r}; known games: {', '.join(sorted(known))}")
    return key


def known(name: str) -> bool:
    """Is `name` (or an alias) a registered game?"""
    registered = games()  # (finds the aliases too)
    return _aliases.get(name, name) in registered


def get_game(name: str) -> Game:
    """The GAME of a game by name or alias (e.g. 'white-castle', 'wc')."""
    return games()[canonical(name)]
