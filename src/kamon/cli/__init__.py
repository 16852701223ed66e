"""The `kamon` command: play a game in the terminal, simulate many, replay a record, report.

    kamon play white-castle --seats human,random,random
    kamon simulate white-castle --players 4 --games 200 --jobs 4 --out games.jsonl
    kamon simulate white-castle --games 100000 --backend ray --out results.parquet
    kamon report results.parquet --out report.html
    kamon replay game.json --step
    kamon tournament white-castle --agents hard,normal,easy,random --games 40 --jobs 2
    kamon train clansman --rounds 4 --out runs/clansman
    kamon review game.json --seat 0

One module per command (`play`, `simulate`, `replay`, `tournament`, `report`, `games`,
`serve`, `admin`), each registering itself on the Typer `app` of `kamon.cli.app`;
`kamon.cli.shared` holds what several of them use. Everything goes through the core protocol
(`kamon.games.get_game`, `State`, `GameRecord`), so a new game needs no new CLI code;
only its optional extras (`decision_text`, `describe`, `name`) are looked up when a game
offers them. Errors a person can fix (a bad file, an unknown game) print one red line
and exit with code 2, never a traceback.
"""

from __future__ import annotations

from importlib import import_module

from kamon.cli.app import app, main

# The command modules, in the order `kamon --help` lists them; importing one registers it.
COMMANDS = ("play", "simulate", "replay", "tournament", "report", "compare", "sweep", "search",
            "games", "serve", "admin", "train", "review", "effects")
for _module in COMMANDS:
    import_module(f"kamon.cli.{_module}")

__all__ = ["COMMANDS", "app", "main"]
