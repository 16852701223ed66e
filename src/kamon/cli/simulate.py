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
    JobsOpt,
    RayAddressOpt,
    app,
    fail,
    friendly_errors,
    make_console,
)
from kamon.cli.options import game_flags, options_from_flags
from kamon.cli.shared import (
    category_label,
    check_agents,
    games_progress,
    new_game,
    seat_agents,
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
                played: int, where: str, rotated: bool = False,
                labels: dict[str, str] | None = None) -> list[Any]:
    """The tables and the closing line of a simulation, from its result rows (`played`:
    games; `rotated`: the seats changed hands between games, so a seat has no one agent
    and a table by agent follows the one by seat; `labels`: agents' names by spec)."""
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
        who = ("solo rival" if p >= len(agents) else "each in turn" if rotated
               else agents[p])
        seats_tb.add_row(seat_text(state, p), who, str(won),
                         f"{100 * won / n:.1f}" if n else "-", f"{mean:.1f}")
    tables: list[Any] = [seats_tb]
    if rotated:
        tables.append(agent_table(table, labels or {}))
    cat_tb = Table(title="Score categories (every seat of every game)", title_justify="left")
    for col in ("Category", "Mean", "Min", "Max"):
        cat_tb.add_column(col, justify="left" if col == "Category" else "right")
    for cat in categories_of(table.schema):
        vals = column(table, SCORE_PREFIX + cat)
        if not len(vals):
            continue
        if cat == "total":
            cat_tb.add_section()
        cat_tb.add_row(category_label(state, cat),
                       f"{vals.mean():.2f}", str(vals.min()), str(vals.max()),
                       style="bold" if cat == "total" else "")
    decisions = float(column(table, "game_decisions")[first_rows].mean()) if n else 0.0
    rate = played / elapsed if elapsed > 0 else float("inf")
    closing = Text(f"{played} games in {elapsed:.2f} s on {where}: {rate:.1f} games/sec; "
                   f"mean {decisions:.1f} decisions per game")
    return [*tables, cat_tb, closing]


def agent_table(table: pa.Table, labels: dict[str, str]) -> Table:
    """Wins by agent: seat results, wins (shared victories split), win % and mean total
    (`labels`: how to show an agent the rows name by its spec, e.g. a plug-in's name)."""
    from kamon.sim.results import SCORE_PREFIX

    who = column(table, "agent")
    share = column(table, "win_share")
    totals = column(table, SCORE_PREFIX + "total")
    out = Table(title="Wins by agent (every seat it held)", title_justify="left")
    for col in ("Agent", "Seat results", "Wins", "Win %", "Mean total"):
        out.add_column(col, justify="left" if col == "Agent" else "right")
    for name in dict.fromkeys(who.tolist()):
        mine = who == name
        k = int(mine.sum())
        won = float(share[mine].sum())
        out.add_row(labels.get(str(name), str(name)), str(k), f"{won:g}", f"{100 * won / k:.1f}",
                    f"{float(totals[mine].mean()):.1f}")
    return out


@app.command()
@game_flags
def simulate(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to simulate")],
    players: Annotated[int | None, typer.Option(
        help="number of players (default: the game's usual count, 4 in both of kamon's "
             "board games)")] = None,
    games: Annotated[int, typer.Option(
        help="number of deals (seeds): with mixed agents each deal is played once from "
             "every rotation of the seats, so GAMES x rotations games (4 for a,b,c,d or "
             "a,b,b,b; 2 for a,b,a,b); with one agent or --fixed-seats, GAMES games")] = 100,
    fixed_seats: Annotated[bool, typer.Option(
        "--fixed-seats", help="keep every agent in its seat (one game per seed): a seat's "
                              "advantage then shows in its agent's figures")] = False,
    seed: Annotated[int, typer.Option(
        help="seed of the first deal (deal i uses seed+i; with rotated seats it is played "
             "once from each rotation)")] = 0,
    agents: Annotated[str | None, typer.Option(
        help="comma-separated agent per seat, or one for all (default: random): a level, an "
             "agent, or a plug-in (module:Name, path/to/file.py:Name, policy.zip, model.pt; "
             "docs/agents.md), which must be importable or readable where the games run "
             "(every worker, every Ray node)")] = None,
    jobs: JobsOpt = None,
    out: Annotated[Path | None, typer.Option(
        help="results.parquet or .csv: one row per game and seat (a rerun skips the seeds "
             "already there); games.jsonl: one game record per line")] = None,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    batch_size: Annotated[int | None, typer.Option(
        help="games per batch (default: about 8 batches per worker, at most 500)")] = None,
    decisions: Annotated[bool, typer.Option(
        "--decisions", help="also keep every decision (round, seat, action, every score "
                            "total after it) in <out stem>.decisions.parquet beside the "
                            "results, for the story of a game in kamon report "
                            "(docs/story.md)")] = False,
    option_flags: dict[str, Any] | None = None,
) -> None:
    """Play many seeded bot games and summarise wins and scores."""
    console = make_console()
    with friendly_errors():
        from kamon.sim.runner import SimSpec
        from kamon.sim.simulation import parts_dir, plan_run, run_plan

        game = get_game(game_name)
        players = players if players is not None else game.default_players
        if games < 1:
            raise KamonError("--games must be at least 1")
        if batch_size is not None and batch_size < 1:
            raise KamonError("--batch-size must be at least 1")
        backend = check_backend(backend, ray_address)
        jobs = default_jobs(backend, jobs)
        if out is not None and out.suffix.lower() not in (".parquet", ".csv", ".jsonl"):
            raise KamonError(f"--out {out}: write .parquet or .csv (results, one row per game "
                             "and seat) or .jsonl (game records)")
        if decisions and (out is None or out.suffix.lower() not in (".parquet", ".csv")):
            raise KamonError("--decisions needs --out results.parquet or results.csv: the "
                             "decision logs are written beside the results")
        names = seat_agents(agents, players)
        labels = check_agents(names, game)  # unknown names, plug-ins that do not load or fit
        opts = options_from_flags(game, option_flags or {})
        probe = new_game(game, players, seed, opts)  # fails early on bad options
        used = dict(probe.options)
        records = out is not None and out.suffix.lower() == ".jsonl"
        spec = SimSpec(game.name, players, tuple(names), used, records=records,
                       rotate=not fixed_seats, decisions=decisions)
        turns = spec.rotations
        total = games * turns
        if turns > 1:
            console.print(Text(f"Simulating {total} games of {game.title}: {games} deals "
                               f"(seeds {seed}-{seed + games - 1}) x {turns} rotations of the "
                               f"seats, {players} players ({', '.join(names)} in rotation 0)",
                               style="bold"))
        else:
            console.print(Text(f"Simulating {games} games of {game.title}: {players} players "
                               f"({', '.join(names)}), seeds {seed}-{seed + games - 1}",
                               style="bold"))
        for line in game.describe_options(used):
            console.print(Text(f"  · {line}", style="dim"))
        plan = plan_run(spec, seed, games, out)  # refuses a foreign --out before any work
        unit = "deals" if turns > 1 else "games"
        for name in plan.store.damaged if plan.store is not None else []:
            console.print(Text(f"A kept batch could not be read ({name}): moved aside as "
                               f"{name}.damaged; its games are played again", style="yellow"))
        if plan.resumed:
            console.print(Text(f"Resuming: {plan.resumed} of the {games} {unit} are already in "
                               f"{out}; playing the other {len(plan.missing)}", style="yellow"))
        if backend == "ray" and plan.missing:
            console.print(Text("Connecting to Ray..." if ray_address else
                               f"Starting a local Ray with {jobs} CPU(s)...", style="dim"))
        try:
            with open_backend(backend if plan.missing else "local", jobs,
                              ray_address if plan.missing else None) as where, \
                    games_progress(console) as bar:
                task = bar.add_task(f"games ({where.label})", total=total,
                                    completed=plan.resumed * turns,
                                    skipped=plan.resumed * turns)
                outcome = run_plan(plan, where, batch_size,
                                   progress=lambda k: bar.advance(task, k))
                label = where.label
        except KeyboardInterrupt:
            if out is not None and out.suffix.lower() in (".parquet", ".csv"):
                fail(f"interrupted: the finished batches are kept in {parts_dir(out)}; run the "
                     "same command again to resume")
            fail("interrupted")
        for item in sim_summary(probe, [labels[n] for n in names], outcome.table,
                                outcome.elapsed, outcome.played * turns, label, turns > 1,
                                labels):
            console.print(item)
        if out is None:
            return
        if records:
            console.print(Text(f"{outcome.records_written} records written to {out} "
                               f"(replay one with: kamon replay {out} --index 1)", style="green"))
        else:
            what = f"{total} games ({games} deals x {turns} rotations)" if turns > 1 \
                else f"{games} games"
            console.print(Text(f"{outcome.table.num_rows} result rows of {what} in {out} "
                               f"({outcome.played}{' deals' if turns > 1 else ''} played now, "
                               f"{outcome.resumed} already there); report: kamon report {out}", style="green"))
            if decisions:
                from kamon.sim.story import decisions_path

                logged = outcome.decisions.num_rows if outcome.decisions is not None else 0
                console.print(Text(f"{logged:,} decisions of the games played now logged in "
                                   f"{decisions_path(out)}", style="green"))
