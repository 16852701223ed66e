"""`kamon simulate`: many seeded bot games, a summary of wins and scores, records as JSONL."""

from __future__ import annotations

import json
import multiprocessing
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from kamon.agents import agent_seed, make_agent
from kamon.cli.app import (
    DifficultyOpt,
    EmperorSideOpt,
    ExpertOpt,
    FirstGameOpt,
    VariantOpt,
    app,
    friendly_errors,
    make_console,
)
from kamon.cli.shared import (
    CATEGORY_LABELS,
    MAX_DECISIONS,
    build_options,
    effective_options,
    new_game,
    seat_text,
)
from kamon.core.errors import KamonError
from kamon.core.protocol import State
from kamon.core.record import GameRecord
from kamon.games import get_game


@dataclass(frozen=True)
class SimJob:
    """One simulated game: everything a worker process needs to play it."""

    game: str
    players: int
    seed: int
    agents: tuple[str, ...]
    options: dict[str, Any]


def run_sim_game(job: SimJob) -> dict[str, Any]:
    """Play one seeded game with bots; top-level so spawned worker processes can run it."""
    game = get_game(job.game)
    state = new_game(game, job.players, job.seed, job.options)
    bots = [make_agent(name, agent_seed(job.seed, p)) for p, name in enumerate(job.agents)]
    decisions = 0
    while not state.is_over():
        p = state.to_move
        if p is None:
            break
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise KamonError(f"game with seed {job.seed} did not end after {MAX_DECISIONS} "
                             "decisions")
        state.apply(bots[p].act(state))
    record = GameRecord.of(game.name, state, job.seed, effective_options(state, job.options),
                           game.action_text, list(job.agents))
    return {"seed": job.seed, "scores": state.scores(), "winners": state.winners(),
            "decisions": decisions, "record": record.to_json()}


def sim_summary(state: State, agents: Sequence[str], results: Sequence[dict[str, Any]],
                elapsed: float, jobs: int) -> list[Any]:
    """The tables and the closing line of a simulation."""
    n = len(results)
    clans = len(results[0]["scores"]) if results else state.num_players
    wins = [0] * clans
    totals: list[list[int]] = [[] for _ in range(clans)]
    per_cat: dict[str, list[int]] = {}
    for res in results:
        for w in res["winners"]:
            wins[w] += 1
        for p, sc in enumerate(res["scores"]):
            totals[p].append(sc["total"])
            for cat, v in sc.items():
                per_cat.setdefault(cat, []).append(v)
    seats_tb = Table(title=f"Wins by seat ({n} games)", title_justify="left")
    for col in ("Seat", "Agent", "Wins", "Win %", "Mean total"):
        seats_tb.add_column(col, justify="left" if col in ("Seat", "Agent") else "right")
    for p in range(clans):
        mean = sum(totals[p]) / len(totals[p]) if totals[p] else 0.0
        who = agents[p] if p < len(agents) else "solo rival"
        seats_tb.add_row(seat_text(state, p), who, str(wins[p]),
                         f"{100 * wins[p] / n:.1f}" if n else "-", f"{mean:.1f}")
    cat_tb = Table(title="Score categories (every seat of every game)", title_justify="left")
    for col in ("Category", "Mean", "Min", "Max"):
        cat_tb.add_column(col, justify="left" if col == "Category" else "right")
    for cat, vals in per_cat.items():
        if cat == "total":
            cat_tb.add_section()
        cat_tb.add_row(CATEGORY_LABELS.get(cat, cat.replace("_", " ")),
                       f"{sum(vals) / len(vals):.2f}", str(min(vals)), str(max(vals)),
                       style="bold" if cat == "total" else "")
    decisions = sum(r["decisions"] for r in results) / n if n else 0.0
    rate = n / elapsed if elapsed > 0 else float("inf")
    closing = Text(f"{n} games in {elapsed:.2f} s with {jobs} job(s): {rate:.1f} games/sec; "
                   f"mean {decisions:.1f} decisions per game")
    return [seats_tb, cat_tb, closing]


@app.command()
def simulate(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to simulate")],
    players: Annotated[int, typer.Option(help="number of players")] = 4,
    games: Annotated[int, typer.Option(help="number of games")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first game (game i uses seed+i)")] = 0,
    agents: Annotated[str | None, typer.Option(
        help="comma-separated agent per seat, or one name for all (default: random)")] = None,
    jobs: Annotated[int, typer.Option(help="worker processes")] = 1,
    out: Annotated[Path | None, typer.Option(help="write one game record per line (JSONL)")
                   ] = None,
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
        game = get_game(game_name)
        if games < 1:
            raise KamonError("--games must be at least 1")
        if jobs < 1:
            raise KamonError("--jobs must be at least 1")
        names = [a.strip().lower() for a in (agents or "random").split(",") if a.strip()]
        if len(names) == 1:
            names = names * players
        if len(names) != players:
            raise KamonError(f"--agents names {len(names)} agents for {players} players")
        for name in set(names):
            make_agent(name, 0)  # fail early on unknown names
        opts = build_options(game, first_game, data_overlay, difficulty, expert, emperor_side,
                             variant)
        probe = new_game(game, players, seed, opts)  # fails early on bad options
        console.print(Text(f"Simulating {games} games of {game.title}: {players} players "
                           f"({', '.join(names)}), seeds {seed}-{seed + games - 1}", style="bold"))
        for line in game.describe_options(effective_options(probe, opts)):
            console.print(Text(f"  · {line}", style="dim"))
        todo = [SimJob(game.name, players, seed + i, tuple(names), opts) for i in range(games)]
        results: list[dict[str, Any]] = []
        sink = out.open("w", encoding="utf-8") if out is not None else None
        start = time.perf_counter()
        try:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), TimeRemainingColumn(), console=console) as bar:
                task = bar.add_task("games", total=games)
                for res in _run_jobs(todo, jobs):
                    results.append(res)
                    if sink is not None:
                        sink.write(json.dumps(res["record"], separators=(",", ":")) + "\n")
                    bar.advance(task)
        finally:
            if sink is not None:
                sink.close()
        elapsed = time.perf_counter() - start
        for item in sim_summary(probe, names, results, elapsed, jobs):
            console.print(item)
        if out is not None:
            console.print(Text(f"{len(results)} records written to {out} "
                               f"(replay one with: kamon replay {out} --index 1)", style="green"))


def _run_jobs(todo: list[SimJob], jobs: int) -> Iterator[dict[str, Any]]:
    """Results in game order, from this process or a spawn-safe process pool."""
    if jobs == 1 or len(todo) == 1:
        for job in todo:
            yield run_sim_game(job)
        return
    ctx = multiprocessing.get_context("spawn")
    chunk = max(1, len(todo) // (jobs * 8))
    with ctx.Pool(min(jobs, len(todo))) as pool:
        yield from pool.imap(run_sim_game, todo, chunksize=chunk)

