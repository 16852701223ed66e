"""`kamon review RECORD --seat N`: a finished game's decisions of one seat beside the bot's,
with what each cost, the three biggest mistakes and a line per round (kamon.learn.review).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from kamon.cli.app import app, friendly_errors, make_console
from kamon.cli.replay import load_record
from kamon.learn.review import REVIEW_ITERATIONS, review


@app.command("review")
def review_command(
    record_path: Annotated[Path, typer.Argument(metavar="RECORD", help="a game record")],
    seat: Annotated[int, typer.Option(help="the seat to review, from 0")] = 0,
    index: Annotated[int | None, typer.Option(
        help="line of a JSON-lines file of records (from 1)")] = None,
    iterations: Annotated[int, typer.Option(
        help="the search's reference iterations a decision (its cost)")] = REVIEW_ITERATIONS,
    guided: Annotated[bool, typer.Option(
        "--guided", help="judge with the learned level's search (the trained network's "
                         "values mixed in) instead of hard's")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the review as JSON")] = False,
) -> None:
    """Review a seat's decisions: the bot's choice beside each, and the points it cost."""
    console = make_console()
    with friendly_errors():
        record = load_record(record_path, index)
        result = review(record, seat, iterations=iterations, guided=guided)
    if as_json:
        console.print_json(json.dumps(result))
        return
    marks = {i: r for r, i in enumerate(result["mistakes"], 1)}
    table = Table(title=f"{result['seat_name']} (seat {seat}): {len(result['decisions'])} "
                        f"decisions, about {result['total_cost']:.1f} points lost",
                  title_justify="left")
    for col in ("#", "Round", "Decision", "Played", "The bot", "Cost"):
        table.add_column(col, justify="right" if col in ("#", "Round", "Cost") else "left")
    for d in result["decisions"]:
        mark = f" ({marks[d['index']]})" if d["index"] in marks else ""
        style = "bold red" if mark else ("yellow" if d["cost"] >= 1 else "")
        table.add_row(str(d["index"] + 1) + mark, str(d["round"]), d["decision"],
                      d["chosen"], "=" if d["bot"] == d["chosen"] else d["bot"],
                      f"{d['cost']:.1f}", style=style)
    console.print(table)
    if result["mistakes"]:
        console.print(Text("The biggest mistakes: " + ", ".join(
            f"({r}) decision {i + 1}" for r, i in enumerate(result["mistakes"], 1)),
            style="bold"))
    for line in result["rounds"]:
        console.print(Text(f"Round {line['round']}: {line['text']}"))
