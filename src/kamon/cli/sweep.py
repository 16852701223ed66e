"""`kamon sweep`: try a component value at several settings (each an ordinary, resumable
simulation on the same seeds) and report chosen metrics against the value."""

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
from kamon.core.errors import KamonError
from kamon.games import get_game
from kamon.sim.backends import check_backend, default_jobs, open_backend


@app.command()
@game_flags
def sweep(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to simulate")],
    vary: Annotated[list[str], typer.Option(
        help="PATH=V1,V2,...: a component value in overlay terms and the values to try, e.g. "
             "gardens.cards\\[id=plant_1].cp=6,9,12; or an option of the game, e.g. "
             "expert=false,true (its name alone: every value it allows); twice: every pair "
             "of values")],
    out: Annotated[Path, typer.Option(
        help="folder: one results file per value (<value>.parquet, resumable), the report "
             "sweep.html + sweep.md")],
    players: Annotated[int | None, typer.Option(
        help="number of players (default: the game's usual count, 4 in both of kamon's "
             "board games)")] = None,
    games: Annotated[int, typer.Option(help="games per value (the same seeds for each)")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first game (game i uses seed+i)")] = 0,
    agents: Annotated[str | None, typer.Option(
        help="comma-separated agent per seat, or one for all (default: random)")] = None,
    metric: Annotated[list[str] | None, typer.Option(
        help="what to report (repeat or comma-separate): users_win_rate, use_rate, "
             "seat1_win_rate, first_player_win_rate, mean_<category>, "
             "users_mean_<category> (default: users_win_rate, use_rate, seat1_win_rate, "
             "mean_total)")] = None,
    target: Annotated[list[str] | None, typer.Option(
        help="METRIC=VALUE: the value meeting it, from a line fitted to the metric with a "
             "bootstrap interval (values that are not numbers: the closest), e.g. "
             "users_win_rate=0.5 (default for a win rate: the fair share 1/players)")] = None,
    base: Annotated[str | None, typer.Option(
        help="the value every other is compared with game by game (paired, on the shared "
             "seeds), as written in --vary, e.g. 9 (the printed value); two --vary: "
             "'9,3' (default: the first value)")] = None,
    jobs: JobsOpt = None,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    batch_size: Annotated[int | None, typer.Option(help="games per batch")] = None,
    option_flags: dict[str, Any] | None = None,
) -> None:
    """Simulate each value of a component (same seeds) and report metrics against it."""
    console = make_console()
    with friendly_errors():
        from kamon.sim.sweep import (
            analyse_sweep,
            parse_axis,
            parse_targets,
            plan_sweep,
            run_sweep,
        )
        from kamon.sim.sweep_report import (
            closest_text,
            difference_text,
            estimate_text,
            write_sweep_report,
        )

        game = get_game(game_name)
        players = players if players is not None else game.default_players
        if games < 1:
            raise KamonError("--games must be at least 1")
        backend = check_backend(backend, ray_address)
        jobs = default_jobs(backend, jobs)
        varies = [parse_axis(game.name, v) for v in vary]
        metrics = [m.strip() for ms in metric or [] for m in ms.split(",") if m.strip()]
        targets = parse_targets(target or [])
        names = seat_agents(agents, players)
        check_agents(names, game)
        opts = options_from_flags(game, option_flags or {})
        plan = plan_sweep(game.name, players, names, opts, varies, seed, games, out)
        for p in plan.recovered:
            console.print(Text(f"{p.out.name} could not be read (cut short?): moved to "
                               f"{p.damaged}; playing {p.label} again, the other values are "
                               "kept", style="yellow"))
        points = len(plan.points)
        console.print(Text(f"Sweeping {' × '.join(v.path for v in varies)} in {game.title}: "
                           f"{points} runs of {games} games (seeds {seed}-{seed + games - 1}), "
                           f"{players} players ({', '.join(names)})", style="bold"))
        resumed = points * games - plan.to_play
        if resumed:
            console.print(Text(f"Resuming: {resumed} of the {points * games} games are already "
                               f"in {out}; playing the other {plan.to_play}", style="yellow"))
        try:
            with open_backend(backend if plan.to_play else "local", jobs,
                              ray_address if plan.to_play else None) as where, \
                    games_progress(console) as bar:
                task = bar.add_task(f"games ({where.label})", total=points * games,
                                    completed=resumed)
                run_sweep(plan, where, batch_size, progress=lambda k: bar.advance(task, k))
        except KeyboardInterrupt:
            fail(f"interrupted: the finished batches are kept in {out}; run the same command "
                 "again to resume")
        analysis = analyse_sweep(plan, metrics, targets, base)
        report = write_sweep_report(analysis)
        for m in analysis.metrics:
            tb = Table(title=escape(m.title), title_justify="left")
            unit = "clans" if m.unit == "seat results" else m.unit
            for col in (*(v.path for v in varies), f"n ({unit})", "estimate",
                        "95% interval", f"paired vs {analysis.base_point.label}",
                        "95% interval"):
                tb.add_column(escape(col), justify="right")
            for p, e, d in zip(plan.points, analysis.values[m.key], analysis.paired[m.key],
                               strict=True):
                tb.add_row(*(escape(t) for t in p.texts), f"{e.n:,}", *estimate_text(m, e),
                           *difference_text(m, d))
            console.print(tb)
            line = closest_text(analysis, m)
            if line:
                console.print(Text(line))
        for gone in analysis.missing:
            console.print(Text(f"{gone}: not measured (no feature column of {game.title} records "
                               "a clan taking what the path names)", style="yellow"))
        played = sum(p.played for p in plan.points)
        console.print(Text(f"{played} games played now; results in {out}/<value>.parquet; "
                           f"report: {report.html} and {report.markdown}", style="green"))
