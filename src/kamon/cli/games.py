"""`kamon games`: the games kamon can play, their player counts and options, and the bot levels."""

from __future__ import annotations

from rich.text import Text

from kamon.agents import level_summaries, level_words
from kamon.cli.app import (
    app,
    friendly_errors,
    make_console,
)
from kamon.core.options import DESIGNER, PLAYER
from kamon.core.registry import games


@app.command("games")
def list_games() -> None:
    """List the games kamon can play, and the bot levels with what each is in that game."""
    console = make_console()
    with friendly_errors():
        for name, game in games().items():
            counts = (str(game.min_players) if game.min_players == game.max_players
                      else f"{game.min_players}-{game.max_players}")
            flags = [o.flag + (f" {'|'.join(str(c.value) for c in o.choices)}"
                               if o.choices else "")
                     for o in game.options.settable((PLAYER, DESIGNER))]
            console.print(Text.assemble(
                (name, "bold"), f"  {game.title}, {counts} players; "
                f"options: {', '.join(flags) or 'none'}"))
            words = level_words()
            for level, text in level_summaries(game.new_game(game.min_players, 0)).items():
                console.print(Text.assemble(f"  level {level}: {words[level]}",
                                            (f"  ({text})", "dim")))
