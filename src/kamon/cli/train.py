"""`kamon train`: expert iteration for a game's policy-and-value network (kamon.learn).

    kamon train clansman --rounds 6 --out runs/cl --games 12 --bootstrap 400 --jobs 2
    kamon train white-castle --rounds 4 --out runs/wc --backend ray

Each round plays self-play games with the search (guided by the previous round's
network), trains the network on them, saves it (`DIR/net_NNN.npz`, `DIR/net_latest.npz`)
and checks its fast level against greedy; a line per round says how it went. Running the
same command again continues the run where it stopped (docs/training.md).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from kamon.cli.app import BackendOpt, RayAddressOpt, app, friendly_errors, make_console
from kamon.cli.shared import games_progress
from kamon.core.errors import KamonError
from kamon.learn.pipeline import RunSettings, run_rounds
from kamon.rl.encoding import canonical_name
from kamon.sim.backends import check_backend, default_jobs, open_backend


def round_line(figures: dict[str, Any]) -> str:
    """A finished round in one line: games, samples, CPU, losses, the strength check."""
    text = (f"round {figures['round']}: {figures['games']} games, {figures['samples']:,} "
            f"samples, self-play {figures['selfplay_cpu_s'] / 60:.1f} CPU min, training "
            f"{figures['train_cpu_s']:.0f} s (policy loss {figures['policy_loss']:.3f}, "
            f"value loss {figures['value_loss']:.3f})")
    check = figures.get("check")
    if check:
        text += (f"; fast vs {check['against']}: {100 * check['win_rate']:.0f}% of "
                 f"{check['games']} games, {check['mean_score']:.1f} points to "
                 f"{check['field_score']:.1f}")
    return text


@app.command()
def train(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to train for")],
    out: Annotated[Path, typer.Option(help="the run's folder (created, or continued)")],
    rounds: Annotated[int, typer.Option(help="search rounds in all, after round 0 (a "
                                             "continued run plays the ones missing)")] = 4,
    games: Annotated[int, typer.Option(help="self-play games a round")] = 12,
    bootstrap: Annotated[int, typer.Option(
        help="round 0's greedy games, before the first search round (0: none)")] = 0,
    iterations: Annotated[int, typer.Option(
        help="the self-play search's reference iterations a decision (scaled by the "
             "game's iteration cost, as the levels')")] = 1000,
    epochs: Annotated[int, typer.Option(help="training epochs a round")] = 3,
    window: Annotated[int, typer.Option(help="rounds of games each training sees")] = 4,
    check_games: Annotated[int, typer.Option(
        help="games of each round's check of the fast level against greedy (0: none)")] = 8,
    guide_values: Annotated[float, typer.Option(
        help="search rounds: the network's share of the values the search scores "
             "positions with (the rest: the game's evaluation)")] = 0.5,
    guide_priors: Annotated[float, typer.Option(
        help="search rounds: the network's share of the search's priors (the rest: the "
             "hand priors)")] = 0.0,
    jobs: Annotated[int | None, typer.Option(
        help="processes (local) or CPUs (a local Ray); default 1, or every core for Ray")
                    ] = None,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
) -> None:
    """Train a game's network by expert iteration: self-play with the search, training,
    a strength check, a checkpoint per round (resumable)."""
    console = make_console()
    with friendly_errors():
        name = canonical_name(game_name)
        check_backend(backend, ray_address)
        if rounds < 0 or (rounds == 0 and not bootstrap):
            raise KamonError("--rounds must be at least 1 (0 only with --bootstrap: round 0 "
                             "alone)")
        for label, value in (("--games", games),
                             ("--iterations", iterations), ("--epochs", epochs),
                             ("--window", window)):
            if value < 1:
                raise KamonError(f"{label} must be at least 1")
        if bootstrap < 0 or check_games < 0:
            raise KamonError("--bootstrap and --check-games must be 0 or more")
        if not (0 <= guide_values <= 1 and 0 <= guide_priors <= 1):
            raise KamonError("--guide-values and --guide-priors must be from 0 to 1")
        settings = RunSettings(name, games=games, iterations=iterations, epochs=epochs,
                               window=window, check_games=check_games, bootstrap=bootstrap,
                               guide_values=guide_values, guide_priors=guide_priors)
        workers = default_jobs(backend, jobs)
        os.environ.setdefault("OMP_NUM_THREADS", "1")  # (spawned workers inherit these)
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        with open_backend(backend, workers, ray_address) as where, \
                games_progress(console) as bar:
            task = bar.add_task("self-play", total=None)
            bar.disable = quiet

            def progress(what: str, done: int, total: int) -> None:
                """Move the bar."""
                bar.update(task, description=what, completed=done, total=total)

            def log(figures: dict[str, Any]) -> None:
                """A line per finished round."""
                bar.console.print(Text(round_line(figures)))

            run = run_rounds(out, settings, rounds, where, progress, log)
        last = run.rounds[-1] if run.rounds else None
        console.print(Text(f"{len(run.rounds)} rounds in {out}; the newest network: "
                           f"{out / 'net_latest.npz'}"))
        if last is not None and quiet:
            console.print(Text(json.dumps(last)))
