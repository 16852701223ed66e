"""`kamon simulate`: many seeded bot games on this machine or a Ray cluster, a summary of
wins and scores, and the results as data (Parquet/CSV, resumable) or records (JSONL)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
import typer
from rich.table import Table
from rich.text import Text

from kamon.cli.app import (
    BackendOpt,
    DifficultyOpt,
    EmperorSideOpt,
    ExpertOpt,
    FirstGameOpt,
    RayAddressOpt,
    VariantOpt,
    app,
    fail,
    friendly_errors,
    make_console,
)
from kamon.cli.shared import (
    CATEGORY_LABELS,
    build_options,
    check_agents,
    effective_options,
    games_progress,
    new_game,
    parse_agents,
    seat_text,
)
from kamon.core.errors import KamonError
from kamon.core.protocol import State
from kamon.games import get_game
from kamon.sim.backends import check_backend, default_jobs, open_backend

if TYPE_CHECKING:  # pyarrow and the runner load when a simulation runs, not with every
    import pyarrow as pa  # command (`kamon serve` is 80 MB lighter without them)


def column(table: pa.Table, name: str) -> np.ndarray:
    """A column as a numpy array."""
    return np.asarray(table[name].to_numpy(zero_copy_only=False))


def sim_summary(state: State, agents: Sequence[str], table: pa.Table, elapsed: float,
                played: int, where: str) -> list[Any]:
    """The tables and the closing line of a simulation, from its result rows."""
    from kamon.sim.results import SCORE_PREFIX, categories_of

    seats = column(table, "seat")
    first_rows = seats == 1
    n = int(first_rows.sum())
    clans = int(seats.max()) if len(seats) else state.num_players
    wins = column(table, "winner")
    totals = column(table, SCORE_PREFIX + "total")
    seats_tb = Table(title=f"Wins by seat ({n} games)", title_justify="left")
    for col in ("Seat", "Agent", "Wins", "Win %", "Mean total"):
        seats_tb.add_column(col, justify="left" if col in ("Seat", "Agent") else "right")
    for p in range(clans):
        mine = seats == p + 1
        won = int(wins[mine].sum())
        mean = float(totals[mine].mean()) if mine.any() else 0.0
        who = agents[p] if p < len(agents) else "solo rival"
        seats_tb.add_row(seat_text(state, p), who, str(won),
                         f"{100 * won / n:.1f}" if n else "-", f"{mean:.1f}")
    cat_tb = Table(title="Score categories (every seat of every game)", title_justify="left")
    for col in ("Category", "Mean", "Min", "Max"):
        cat_tb.add_column(col, justify="left" if col == "Category" else "right")
    for cat in categories_of(table.schema):
        vals = column(table, SCORE_PREFIX + cat)
        if not len(vals):
            continue
        if cat == "total":
            cat_tb.add_section()
        cat_tb.add_row(CATEGORY_LABELS.get(cat, cat.replace("_", " ")),
                       f"{vals.mean():.2f}", str(vals.min()), str(vals.max()),
                       style="bold" if cat == "total" else "")
    decisions = float(column(table, "game_decisions")[first_rows].mean()) if n else 0.0
    rate = played / elapsed if elapsed > 0 else float("inf")
    closing = Text(f"{played} games in {elapsed:.2f} s on {where}: {rate:.1f} games/sec; "
                   f"mean {decisions:.1f} decisions per game")
    return [seats_tb, cat_tb, closing]


@app.command()
def simulate(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to simulate")],
    players: Annotated[int, typer.Option(help="number of players")] = 4,
    games: Annotated[int, typer.Option(help="number of games")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first game (game i uses seed+i)")] = 0,
    agents: Annotated[str | None, typer.Option(
        help="comma-separated agent per seat, or one for all (default: random): a level, an "
             "agent, or a plug-in (module:Name, path/to/file.py:Name, policy.zip, model.pt; "
             "docs/agents.md), which must be importable or readable where the games run "
             "(every worker, every Ray node)")] = None,
    jobs: Annotated[int | None, typer.Option(
        help="worker processes (local; default 1), or CPUs of a local Ray (default: every "
             "core)")] = None,
    out: Annotated[Path | None, typer.Option(
        help="results.parquet or .csv: one row per game and seat (a rerun skips the seeds "
             "already there); games.jsonl: one game record per line")] = None,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    batch_size: Annotated[int | None, typer.Option(
        help="games per batch (default: about 8 batches per worker, at most 500)")] = None,
    first_game: FirstGameOpt = False,
    expert: ExpertOpt = False,
    emperor_side: EmperorSideOpt = None,
    variant: VariantOpt = None,
    difficulty: DifficultyOpt = None,
    data_overlay: Annotated[Path | None, typer.Option(
        help="JSON file correcting the component data")] = None,
) -> None:
    """Play many seeded bot games and summarise wins and scores."""
    console = make_console()
    with friendly_errors():
        from kamon.sim.runner import SimSpec
        from kamon.sim.simulation import parts_dir, plan_run, run_plan

        game = get_game(game_name)
        if games < 1:
            raise KamonError("--games must be at least 1")
        if batch_size is not None and batch_size < 1:
            raise KamonError("--batch-size must be at least 1")
        backend = check_backend(backend, ray_address)
        jobs = default_jobs(backend, jobs)
        if out is not None and out.suffix.lower() not in (".parquet", ".csv", ".jsonl"):
            raise KamonError(f"--out {out}: write .parquet or .csv (results, one row per game "
                             "and seat) or .jsonl (game records)")
        names = parse_agents(agents or "random")
        if len(names) == 1:
            names = names * players
        if len(names) != players:
            raise KamonError(f"--agents names {len(names)} agents for {players} players")
        labels = check_agents(names, game)  # unknown names, plug-ins that do not load or fit
        opts = build_options(game, first_game, data_overlay, difficulty, expert, emperor_side,
                             variant)
        probe = new_game(game, players, seed, opts)  # fails early on bad options
        used = effective_options(probe, opts)
        records = out is not None and out.suffix.lower() == ".jsonl"
        spec = SimSpec(game.name, players, tuple(names), used, records=records)
        console.print(Text(f"Simulating {games} games of {game.title}: {players} players "
                           f"({', '.join(names)}), seeds {seed}-{seed + games - 1}", style="bold"))
        for line in game.describe_options(used):
            console.print(Text(f"  · {line}", style="dim"))
        plan = plan_run(spec, seed, games, out)  # refuses a foreign --out before any work
        if plan.resumed:
            console.print(Text(f"Resuming: {plan.resumed} of the {games} games are already in "
                               f"{out}; playing the other {len(plan.missing)}", style="yellow"))
        if backend == "ray" and plan.missing:
            console.print(Text("Connecting to Ray..." if ray_address else
                               f"Starting a local Ray with {jobs} CPU(s)...", style="dim"))
        try:
            with open_backend(backend if plan.missing else "local", jobs,
                              ray_address if plan.missing else None) as where, \
                    games_progress(console) as bar:
                task = bar.add_task(f"games ({where.label})", total=games,
                                    completed=plan.resumed, skipped=plan.resumed)
                outcome = run_plan(plan, where, batch_size,
                                   progress=lambda k: bar.advance(task, k))
                label = where.label
        except KeyboardInterrupt:
            if out is not None and out.suffix.lower() in (".parquet", ".csv"):
                fail(f"interrupted: the finished batches are kept in {parts_dir(out)}; run the "
                     "same command again to resume")
            fail("interrupted")
        for item in sim_summary(probe, [labels[n] for n in names], outcome.table, outcome.elapsed, outcome.played,
                                label):
            console.print(item)
        if out is None:
            return
        if records:
            console.print(Text(f"{outcome.records_written} records written to {out} "
                               f"(replay one with: kamon replay {out} --index 1)", style="green"))
        else:
            console.print(Text(f"{outcome.table.num_rows} result rows of {games} games in {out} "
                               f"({outcome.played} played now, {outcome.resumed} already "
                               f"there); report: kamon report {out}", style="green"))
