"""`kamon tournament`: agents against each other with rotated seats; win rates, ratings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from kamon.cli.app import (
    BackendOpt,
    JobsOpt,
    RayAddressOpt,
    app,
    friendly_errors,
    make_console,
)
from kamon.cli.options import game_flags, options_from_flags
from kamon.cli.shared import (
    check_agents,
    games_progress,
    new_game,
    parse_agents,
)
from kamon.cli.tournament_round_robin import round_robin_games, run_round_robin, subsets
from kamon.core.errors import KamonError
from kamon.games import get_game
from kamon.sim.backends import check_backend, default_jobs, open_backend
from kamon.sim.tournament import Line, TournamentResult, run_tournament


def _rate_cells(line: Line) -> list[str]:
    """Games, wins, win %, the 95% interval and the mean score of a results line."""
    lo, hi = line.interval
    return [str(line.games), f"{line.wins:g}", f"{100 * line.win_rate:.1f}",
            f"{100 * lo:.1f}-{100 * hi:.1f}", f"{line.mean_score:.1f}"]


def tournament_tables(result: TournamentResult) -> list[Any]:
    """The tables of a tournament: by agent, by seat, openskill ratings; then a closing line."""
    head = ("Games", "Wins", "Win %", "95% interval", "Mean score")
    n = len(result.results)
    by_agent = Table(title=f"By agent ({n} games)", title_justify="left")
    for col in ("Agent", *head, "s/decision"):
        by_agent.add_column(col, justify="left" if col == "Agent" else "right")
    for line in result.by_agent():
        by_agent.add_row(line.label, *_rate_cells(line),
                         f"{line.seconds_per_decision:.3f}" if line.decisions else "-")
    by_seat = Table(title="By seat (whoever sat there)", title_justify="left")
    for col in ("Seat", *head):
        by_seat.add_column(col, justify="left" if col == "Seat" else "right")
    for line in result.by_seat():
        by_seat.add_row(line.label, *_rate_cells(line))
    ratings = Table(title="openskill ratings (ordinal = mu - 3 sigma)",
                    title_justify="left")
    for col in ("Agent", "mu", "sigma", "ordinal"):
        ratings.add_column(col, justify="left" if col == "Agent" else "right")
    for r in result.ratings():
        ratings.add_row(r.agent, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}")
    closing = Text(f"{n} games in {result.elapsed:.1f} s")
    return [by_agent, by_seat, ratings, closing]


def check_seats(names: list[str], seats: int, title: str, round_robin: bool,
                out: bool) -> None:
    """Refuse, before any output, more agents than a game seats without --round-robin
    (and --out with it: a results file holds one lineup's games)."""
    if round_robin and out:
        raise KamonError("--out keeps the games of one lineup: with --round-robin write "
                         "--csv (one row per player of every game), or run each lineup "
                         "on its own")
    if not round_robin and len(names) > seats:
        raise KamonError(f"{len(names)} agents for {seats} seats: this game of {title} has "
                         f"{seats}; give --round-robin to play every {seats} of them "
                         "in turn, or --players, or fewer agents")


@app.command()
@game_flags
def tournament(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to play")],
    agents: Annotated[str, typer.Option(
        help="comma-separated agents or levels, or plug-ins (module:Name, "
             "path/to/file.py:Name, policy.zip, model.pt; docs/agents.md: a plug-in must be "
             "importable or readable where the games run, every worker and Ray node); seats "
             "rotate between games")] = "hard,normal,easy,random",
    games: Annotated[int, typer.Option(
        help="number of games (with --round-robin: per table)")] = 8,
    players: Annotated[int | None, typer.Option(
        help="seats per game (default: one per agent, within the game's player counts)")
                       ] = None,
    round_robin: Annotated[bool, typer.Option(
        "--round-robin",
        help="more agents than seats: every combination of --players of them plays "
             "--games games (seats rotated, the same deals at every table), and one set "
             "of tables and ratings sums them all")] = False,
    seed: Annotated[int, typer.Option(help="first deal's seed (each deal is played once per "
                                           "seat rotation)")] = 0,
    jobs: JobsOpt = None,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    csv: Annotated[Path | None, typer.Option(
        help="write one row per player of every game (CSV with a header)")] = None,
    out: Annotated[Path | None, typer.Option(
        help="results.parquet or .csv: the results data of kamon simulate (one row per game "
             "and clan, with the deal's seed, the rotation and the agent in each seat), for "
             "kamon report")] = None,
    option_flags: dict[str, Any] | None = None,
) -> None:
    """Play agents against each other with rotated seats: win rates, intervals, ratings."""
    console = make_console()
    with friendly_errors():
        game = get_game(game_name)
        backend = check_backend(backend, ray_address)
        jobs = default_jobs(backend, jobs)
        if out is not None and out.suffix.lower() not in (".parquet", ".csv"):
            raise KamonError(f"--out {out}: write .parquet or .csv (results, one row per game "
                             "and clan)")
        names = parse_agents(agents)
        seats = players if players is not None else min(max(len(names), game.min_players),
                                                        game.max_players)
        check_seats(names, seats, game.title, round_robin, out is not None)
        check_agents(names, game)  # unknown names, plug-ins that do not load or fit the game
        opts = options_from_flags(game, option_flags or {})
        new_game(game, seats, seed, opts)  # fails early on bad options or player counts
        if games < 1:
            raise KamonError("a tournament needs at least one game")
        tables = len(subsets(names, seats)) if round_robin else 1
        total = round_robin_games(len(names), seats, games) if round_robin else games
        console.print(Text(f"Tournament of {game.title}: {total} games, {seats} seats, "
                           f"agents {', '.join(names)}, seeds from {seed}"
                           + (f"; round robin: {tables} table{'s' * (tables != 1)} of "
                              f"{seats}, {games} games each" if round_robin else ""),
                           style="bold"))
        if backend == "ray":
            console.print(Text("Connecting to Ray..." if ray_address else
                               f"Starting a local Ray with {jobs} CPU(s)...", style="dim"))
        with open_backend(backend, jobs, ray_address) as where, \
                games_progress(console) as bar:
            task = bar.add_task(f"games ({where.label})", total=total)
            if round_robin:
                result = run_round_robin(game.name, names, games, seats, seed, jobs, opts,
                                         where, progress=lambda _res: bar.advance(task))
            else:
                result = run_tournament(game.name, names, games, seats, seed, jobs, opts,
                                        backend=where,
                                        progress=lambda _res: bar.advance(task),
                                        rows=out is not None)
        for item in tournament_tables(result):
            console.print(item)
        if csv is not None:
            try:
                rows = result.write_csv(csv)
            except OSError as exc:
                raise KamonError(f"cannot write {csv}: {exc.strerror}") from None
            console.print(Text(f"{rows} rows written to {csv}", style="green"))
        if out is not None:
            try:
                rows = result.write_results(out)
            except OSError as exc:
                raise KamonError(f"cannot write {out}: {exc.strerror}") from None
            console.print(Text(f"{rows} result rows of {len(result.results)} games written to "
                               f"{out}; report: kamon report {out}", style="green"))
