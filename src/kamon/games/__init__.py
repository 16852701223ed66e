"""The games kamon knows, by name. Each is a package exposing `GAME`."""

from __future__ import annotations

import importlib

from kamon.core.errors import KamonError
from kamon.core.protocol import Game

GAMES: dict[str, str] = {
    "white-castle": "kamon.games.white_castle",
    "clansman": "kamon.games.clansman",
}

ALIASES: dict[str, str] = {"white_castle": "white-castle", "wc": "white-castle",
                           "i-clansman": "clansman", "i_clansman": "clansman"}


def get_game(name: str) -> Game:
    """The GAME object of a game by name (e.g. 'white-castle')."""
    key = ALIASES.get(name, name)
    if key not in GAMES:
        known = ", ".join(sorted(GAMES))
        raise KamonError(f"unknown game {name!r}; known games: {known}")
    module = importlib.import_module(GAMES[key])
    game: Game = module.GAME
    return game
