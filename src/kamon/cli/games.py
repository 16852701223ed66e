"""`kamon games`: the games kamon can play, with their player counts and options."""

from __future__ import annotations

from rich.text import Text

from kamon.cli.app import (
    app,
    friendly_errors,
    make_console,
)
from kamon.games import GAMES, get_game


@app.command("games")
def list_games() -> None:
    """List the games kamon can play."""
    console = make_console()
    with friendly_errors():
        for name in sorted(GAMES):
            game = get_game(name)
            counts = (str(game.min_players) if game.min_players == game.max_players
                      else f"{game.min_players}-{game.max_players}")
            console.print(Text.assemble(
                (name, "bold"), f"  {game.title}, {counts} players; "
                f"options: {', '.join(game.options) or 'none'}"))
