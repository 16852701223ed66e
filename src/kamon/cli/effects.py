"""`kamon effects`: what each card does, measured by changing its value (a what-if variant
per card, played on the same seeds as the unchanged game) and reported as paired changes
in its holders' win rate and score, with intervals: a table to sort for the outliers."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from kamon.cli.app import (
    BackendOpt,
    JobsOpt,
    RayAddressOpt,
    app,
    fail,
    friendly_errors,
    make_console,
)
from kamon.cli.options import game_flags, options_from_flags
from kamon.cli.shared import check_agents, games_progress, seat_agents
from kamon.games import get_game
from kamon.sim.backends import check_backend, default_jobs, open_backend


@app.command()
@game_flags
def effects(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to simulate")],
    out: Annotated[Path, typer.Option(
        help="folder: base.parquet and one results file per card (resumable), and the "
             "tables effects.html (sortable), effects.md, effects.csv, effects.json")],
    cards: Annotated[list[str] | None, typer.Option(
        help="card ids to change (comma-separated or repeated), each optionally with its "
             "own change: 715,716:+5 (default: every card of the game's default kind: "
             "I, Clansman's missions, The White Castle's garden cards)")] = None,
    change: Annotated[str, typer.Option(
        help="the what-if for each card: =N sets its value (=0: its points taken away), "
             "+N / -N moves it")] = "=0",
    value_path: Annotated[str | None, typer.Option(
        help="the value changed, in overlay terms with * for the card id (default: "
             "cards[id=*].function.vp.amount in I, Clansman, gardens.cards[id=*].cp in "
             "The White Castle)")] = None,
    column: Annotated[str | None, typer.Option(
        help="the results column that says who holds a card (default: missions, "
             "gardens)")] = None,
    players: Annotated[int | None, typer.Option(
        help="number of players (default: the game's usual count)")] = None,
    games: Annotated[int, typer.Option(help="games per run (the same seeds for each)")] = 200,
    seed: Annotated[int, typer.Option(help="seed of the first game (game i uses seed+i)")] = 0,
    agents: Annotated[str | None, typer.Option(
        help="comma-separated agent per seat, or one for all (default: random; fast for "
             "strong play)")] = None,
    jobs: JobsOpt = None,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    batch_size: Annotated[int | None, typer.Option(help="games per batch")] = None,
    option_flags: dict[str, Any] | None = None,
) -> None:
    """Change each card's value in turn (same seeds) and report what it does to its holders."""
    console = make_console()
    with friendly_errors():
        from kamon.sim.effects import (
            analyse_effects,
            parse_cards,
            parse_change,
            plan_effects,
            row_cells,
            run_effects,
            values_for,
            write_effects,
        )

        game = get_game(game_name)
        players = players if players is not None else game.default_players
        backend = check_backend(backend, ray_address)
        jobs = default_jobs(backend, jobs)
        default = parse_change(change)
        asked = parse_cards(cards, default) if cards else None
        values = values_for(game.name, value_path, column)
        names = seat_agents(agents, players)
        check_agents(names, game)
        opts = options_from_flags(game, option_flags or {})
        plan = plan_effects(game.name, players, names, opts, asked, values, seed, games, out,
                            default)
        runs = plan.runs()
        console.print(Text(f"Effects of {len(plan.variants)} cards of {game.title} "
                           f"({values.path}): {len(runs)} runs of {games} games (seeds "
                           f"{seed}-{seed + games - 1}), {players} players "
                           f"({', '.join(names)})", style="bold"))
        total = len(runs) * games
        resumed = total - plan.to_play
        if resumed:
            console.print(Text(f"Resuming: {resumed} of the {total} games are already in "
                               f"{out}; playing the other {plan.to_play}", style="yellow"))
        try:
            with open_backend(backend if plan.to_play else "local", jobs,
                              ray_address if plan.to_play else None) as where, \
                    games_progress(console) as bar:
                task = bar.add_task(f"games ({where.label})", total=total, completed=resumed)
                run_effects(plan, where, batch_size, progress=lambda k: bar.advance(task, k))
        except KeyboardInterrupt:
            fail(f"interrupted: the finished batches are kept in {out}; run the same command "
                 "again to resume")
        found = analyse_effects(plan)
        files = write_effects(plan, found)
        tb = Table(title="What each card does to its holders (variant minus base, 95% "
                         "intervals)", title_justify="left")
        for col in ("card", "value", "holders", "holder win rate", "change (pts)",
                    "adj. p", "flagged"):
            tb.add_column(col, justify="right")
        for e in found:
            cells = row_cells(e)
            tb.add_row(*(escape(c) for c in (cells[0], cells[2], cells[4], cells[5],
                                                cells[6].replace(" pts", ""), *cells[7:9])))
        console.print(tb)
        flagged = [e.card for e in found if e.flagged]
        console.print(Text(f"Flagged (more than chance): {', '.join(flagged)}" if flagged
                           else "No card flagged: no change is more than chance here."))
        console.print(Text(f"tables: {files.html}, {files.markdown}, {files.csv}, {files.json}",
                           style="green"))
