"""The research interfaces' games and set-ups, read from the registry (never a list of
names): every registered game with an `observation` slot, at each player count it can be
played with (the variant a count needs set) and in each set-up its option schema makes
worth testing apart, so a new game folder is tested here with no edit."""

from __future__ import annotations

from typing import Any

from kamon.games import get_game
from kamon.rl import GYM_IDS, OPENSPIEL_GAMES
from kamon.rl.encoding import observed_games

GAMES: list[str] = sorted(observed_games())
GYM_ID: dict[str, str] = {game: gym_id for gym_id, game in GYM_IDS.items()}
SPIEL_NAME: dict[str, str] = dict(OPENSPIEL_GAMES)

Setup = tuple[str, int, dict[str, Any]]


def setups(game: str) -> list[Setup]:
    """One game's set-ups: each player count (with the variant it needs), then the
    schema's own set-ups (none twice)."""
    schema = get_game(game).options
    out: list[Setup] = []
    for players, options in [(n, schema.forced(n)) for n in schema.counts()] + schema.setups():
        made = (game, players, dict(options))
        if made not in out:
            out.append(made)
    return out


def default_setup(game: str) -> Setup:
    """A game at the player count tools use when none is given (its variant set)."""
    g = get_game(game)
    return game, g.default_players, dict(g.options.forced(g.default_players))


SETUPS: list[Setup] = [s for game in GAMES for s in setups(game)]
DEFAULTS: list[Setup] = [default_setup(game) for game in GAMES]


def setup_id(setup: Setup) -> str:
    """A short test id: 'clansman-4p-expert=True'."""
    game, players, options = setup
    opts = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game}-{players}p" + (f"-{opts}" if opts else "")
