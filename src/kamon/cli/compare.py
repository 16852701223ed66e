"""`kamon compare`: two results files of one game and player count (e.g. the same
`kamon simulate` with and without `--data-overlay`) compared: what changed, and whether it
is more than chance, as an HTML page of figures and a Markdown summary."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from kamon.cli.app import app, friendly_errors, make_console
from kamon.core.errors import KamonError


@app.command()
def compare(
    base: Annotated[Path, typer.Argument(help="the base run's results (.parquet or .csv)")],
    variant: Annotated[Path, typer.Argument(help="the variant run's results")],
    out: Annotated[Path, typer.Option(help="the HTML page")] = Path("compare.html"),
    markdown: Annotated[Path | None, typer.Option(
        help="the Markdown summary (default: the page's name with .md)")] = None,
    unpaired: Annotated[bool, typer.Option(
        "--unpaired", help="treat the runs as independent even when they share seeds")
    ] = False,
    paired: Annotated[bool, typer.Option(
        "--paired", help="require the paired design (on the seeds both runs played, e.g. "
        "2,000 against 400 with the 400 shared); an error when they share too few")
    ] = False,
) -> None:
    """Compare two runs (variant minus base): what changed, and whether it is chance."""
    console = make_console()
    with friendly_errors():
        from kamon.sim.compare_report import write_comparison  # matplotlib: only here

        console.print(Text(f"Comparing {variant} (variant) against {base} (base)...",
                           style="dim"))
        if paired and unpaired:
            raise KamonError("--paired and --unpaired: choose one")
        done = write_comparison(base, variant, out, markdown,
                                False if unpaired else (True if paired else None))
        c = done.comparison
        design = (f"paired by seed over {c.games_paired:,} games" if c.design == "paired"
                  else f"unpaired, {c.games_variant:,} against {c.games_base:,} games "
                  f"({c.why_unpaired})")
        if c.design == "paired" and c.games_paired < max(c.games_base, c.games_variant):
            design += (f" (the seeds both played, of {c.games_base:,} and "
                       f"{c.games_variant:,})")
        console.print(Text(f"{c.game}, {c.players} players, {design}: {len(c.findings)} "
                           f"tests, {len(c.significant)} more than chance after "
                           "Benjamini-Hochberg", style="bold"))
        for line in c.differences:
            console.print(Text(f"  · differs: {line}", style="dim"))
        for f in c.significant:
            console.print(Text(f"  {f.sentence(c.alpha)}"))
        console.print(Text(f"Comparison: {done.html}  ·  summary: {done.markdown}",
                           style="green"))
