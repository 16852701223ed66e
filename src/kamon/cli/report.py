"""`kamon report`: a results file (.parquet / .csv from `kamon simulate --out`) as an HTML
page of figures and a Markdown summary."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from kamon.cli.app import app, friendly_errors, make_console


@app.command()
def report(
    results: Annotated[Path, typer.Argument(help="results of kamon simulate (.parquet or .csv)")],
    out: Annotated[Path | None, typer.Option(
        help="the HTML report (default: the results file's name with .html)")] = None,
    markdown: Annotated[Path | None, typer.Option(
        help="the Markdown summary (default: the report's name with .md)")] = None,
) -> None:
    """Write a balance report: win rates by seat, agent, turn order and each game's choices."""
    console = make_console()
    with friendly_errors():
        from kamon.sim.report import write_report  # matplotlib: only for this command

        console.print(Text(f"Reading {results}...", style="dim"))
        done = write_report(results, out, markdown)
        a = done.analysis
        console.print(Text(f"{done.figures} figures from {a.games:,} games "
                           f"({a.rows:,} seat results) of {a.game}", style="bold"))
        for chart in a.charts:
            console.print(Text.assemble((f"  {chart.title}: ", "bold"), chart.reading))
        from kamon.sim.report import METRICS_TITLE, SKILL_TITLE, metrics_reading

        reading = metrics_reading(a)
        if reading:
            console.print(Text.assemble((f"  {METRICS_TITLE}: ", "bold"), reading))
        if a.skill is not None:
            console.print(Text.assemble((f"  {SKILL_TITLE}: ", "bold"), a.skill.reading))
        if done.story is not None:
            from kamon.sim.story import STORY_TITLE, story_reading

            console.print(Text.assemble((f"  {STORY_TITLE}: ", "bold"),
                                        story_reading(done.story)))
        console.print(Text(f"Report: {done.html}  ·  summary: {done.markdown}", style="green"))
