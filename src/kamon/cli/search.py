"""`kamon search`: several component values searched at once (Optuna's TPE) toward
targets, each trial an ordinary, resumable simulation on the same seeds; the best
variants compared game by game with the original."""

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
def search(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to simulate")],
    vary: Annotated[list[str], typer.Option(
        help="PATH=LOW..HIGH: a component value in overlay terms and its range, e.g. "
             "gardens.cards\\[id=plant_1].cp=3..12 (integers when both ends are), or "
             "PATH=V1,V2,... to choose among; repeat for several")],
    target: Annotated[list[str], typer.Option(
        help="METRIC=VALUE (come near) or METRIC<=VALUE (stay under), e.g. "
             "first_player_win_rate=0.25, max_missions_win_rate<=0.4, mean_total=60; "
             "repeat for several (their misses add up)")],
    out: Annotated[Path, typer.Option(
        help="folder: trials/<values>.parquet (resumable), original.parquet, search.md")],
    trials: Annotated[int, typer.Option(help="sets of values to try")] = 20,
    best: Annotated[int, typer.Option(help="best variants to compare with the original")] = 3,
    players: Annotated[int | None, typer.Option(
        help="number of players (default: the game's usual count)")] = None,
    games: Annotated[int, typer.Option(help="games per trial (the same seeds)")] = 100,
    seed: Annotated[int, typer.Option(
        help="seed of the first game (game i uses seed+i); also seeds the sampler")] = 0,
    agents: Annotated[str | None, typer.Option(
        help="comma-separated agent per seat, or one for all (default: random)")] = None,
    jobs: JobsOpt = None,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    option_flags: dict[str, Any] | None = None,
) -> None:
    """Search several component values at once toward targets (same seeds per trial)."""
    console = make_console()
    with friendly_errors():
        from kamon.sim.search import (
            SEARCH_MD,
            best_trials,
            markdown_of,
            parse_goals,
            parse_param,
            plan_search,
            play,
            rate_or_mean,
            run_search,
            versus_original,
            versus_text,
        )

        game = get_game(game_name)
        players = players if players is not None else game.default_players
        if trials < 1 or best < 1:
            raise KamonError("--trials and --best must be at least 1")
        backend = check_backend(backend, ray_address)
        jobs = default_jobs(backend, jobs)
        params = [parse_param(v) for v in vary]
        goals = parse_goals(target)
        names = seat_agents(agents, players)
        check_agents(names, game)
        opts = options_from_flags(game, option_flags or {})
        plan = plan_search(game.name, players, names, opts, params, goals, seed, games, out)
        console.print(Text(f"Searching {', '.join(p.path for p in params)} in {game.title} "
                           f"toward {', '.join(g.text for g in goals)}: {trials} trials of "
                           f"{games} games (seeds {seed}-{seed + games - 1})", style="bold"))
        try:
            with open_backend(backend, jobs, ray_address) as where, \
                    games_progress(console) as bar:
                task = bar.add_task(f"games ({where.label})", total=(trials + 1) * games)
                step = lambda k: bar.advance(task, k)  # noqa: E731
                original, _ = play(plan, (), out / "original.parquet", where, step)
                done = run_search(plan, trials, where, step)
        except KeyboardInterrupt:
            fail(f"interrupted: the finished trials are kept in {out}; run the same command "
                 "again to resume")
        top = best_trials(done, best)
        (out / SEARCH_MD).write_text(markdown_of(plan, done, original, top), encoding="utf-8")
        for t in top:
            tb = Table(title=escape(f"Trial {t.number}: {t.label(plan)} (miss {t.loss:.2f})"),
                       title_justify="left")
            for col in ("target", "variant", "original", "paired difference",
                        "95% interval"):
                tb.add_column(col, justify="right")
            for v in versus_original(plan, t, original):
                tb.add_row(escape(v.goal.text), rate_or_mean(v.goal.metric, v.variant),
                           rate_or_mean(v.goal.metric, v.original), *versus_text(v))
            console.print(tb)
        played = sum(t.played for t in done)
        console.print(Text(f"{played} games played now; {len(done)} trials in {out}/trials; "
                           f"report: {out / SEARCH_MD}", style="green"))
