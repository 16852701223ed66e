"""`kamon report`: a results file as one self-contained HTML page of figures and a
Markdown summary of the same numbers.

Each chart of `sim.analysis` becomes a matplotlib figure (PNG, embedded in the page as
base64), with the games behind it, its one-line reading and a table of its numbers.
Figures are drawn on `matplotlib.figure.Figure` objects (no pyplot, no global state).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
from matplotlib.figure import Figure

from kamon import __version__
from kamon.core.errors import KamonError
from kamon.games import get_game
from kamon.sim.analysis import Analysis, Bar, Chart, analyse, pct
from kamon.sim.results import read_results

ABOVE, EVEN, BELOW = "#2e7d32", "#5c6bc0", "#c62828"  # interval above / around / below even
WIDTH = 8.5
HOW_TO_READ = (
    "How to read it: these are the results of the agents named above, so with random agents "
    "they describe the game under random play, not expert play. A win counts 1/k to each of "
    "k shared winners; intervals are 95% Wilson score intervals, so among many groups about "
    "1 in 20 intervals misses the true rate by chance. Groups by a choice (a card taken, a "
    "garden used) show what goes with winning, not what causes it.")
CSS = """
body { font-family: system-ui, sans-serif; max-width: 980px; margin: 2em auto; color: #222;
       padding: 0 1em; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { margin-top: 2em; font-size: 1.25em; }
.meta { color: #666; margin: .2em 0 .6em; } .reading { font-size: 1.05em; }
table { border-collapse: collapse; font-size: .9em; margin: .5em 0; }
td, th { border: 1px solid #ddd; padding: .2em .6em; text-align: right; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; border: 1px solid #eee; }
dl.run { display: grid; grid-template-columns: max-content auto; gap: .1em 1em; }
dl.run dt { font-weight: 600; } dl.run dd { margin: 0; }
.notes { color: #666; font-size: .9em; }
"""


@dataclass
class Report:
    """A written report: where it went and what it says."""

    html: Path
    markdown: Path
    analysis: Analysis
    figures: int


def load(path: Path) -> pa.Table:
    """A results file for a report; KamonError if it is not kamon results or is empty."""
    table = read_results(path)
    if table.num_rows == 0:
        raise KamonError(f"{path} holds no games")
    return table


def colour_of(bar: Bar, baseline: float | None) -> str:
    """Green when the interval is above the even rate, red below, blue around it."""
    if baseline is None:
        return EVEN
    lo, hi = bar.interval
    return ABOVE if lo > baseline else BELOW if hi < baseline else EVEN


def draw(chart: Chart) -> Figure:
    """The matplotlib figure of a chart."""
    if chart.kind == "rates":
        return _draw_rates(chart)
    if chart.kind == "boxes":
        return _draw_boxes(chart)
    if chart.kind == "profile":
        return _draw_profile(chart)
    raise KamonError(f"unknown chart kind {chart.kind!r}")


def _title(chart: Chart) -> str:
    """The title drawn on a figure: what, and how many games."""
    return f"{chart.title}\n{chart.games:,} games, {chart.rows:,} seat results"


def _draw_rates(chart: Chart) -> Figure:
    """Horizontal bars of win rates with their 95% intervals and the even rate."""
    bars = chart.bars
    fig = Figure(figsize=(WIDTH, 1.2 + 0.34 * len(bars)), layout="constrained")
    ax = fig.add_subplot()
    ys = list(range(len(bars)))[::-1]
    rates = [100 * b.rate for b in bars]
    err = [[100 * (b.rate - b.interval[0]) for b in bars],
           [100 * (b.interval[1] - b.rate) for b in bars]]
    ax.barh(ys, rates, xerr=err, color=[colour_of(b, chart.baseline) for b in bars],
            alpha=.85, error_kw={"ecolor": "#333", "capsize": 3, "elinewidth": 1})
    ax.set_yticks(ys, [f"{b.label}  (n={b.n:,})" for b in bars], fontsize=8)
    top = max((100 * b.interval[1] for b in bars), default=100.0)
    for y, b in zip(ys, bars, strict=True):
        ax.text(100 * b.interval[1] + top * .01, y, pct(b.rate), va="center", fontsize=7)
    xlabel = "win rate, % (bars: 95% Wilson interval"
    if chart.baseline is not None:
        ax.axvline(100 * chart.baseline, color="#555", linestyle="--", linewidth=1)
        xlabel += f"; dashed: an even table's {pct(chart.baseline)}"
    ax.set_xlim(0, min(100.0, top * 1.12) if top > 0 else 100.0)
    ax.set_xlabel(xlabel + ")")
    ax.set_title(_title(chart), fontsize=10)
    ax.grid(axis="x", alpha=.3)
    return fig


def _draw_boxes(chart: Chart) -> Figure:
    """One box per score category (quartiles, whiskers, mean as a dot)."""
    boxes = chart.boxes
    fig = Figure(figsize=(WIDTH, 1.2 + 0.42 * len(boxes)), layout="constrained")
    ax = fig.add_subplot()
    stats = [{"label": b.label, "mean": b.mean, "med": b.median, "q1": b.q1, "q3": b.q3,
              "whislo": b.whislo, "whishi": b.whishi, "fliers": []} for b in boxes][::-1]
    try:
        ax.bxp(stats, orientation="horizontal", showmeans=True, showfliers=False)
    except TypeError:  # matplotlib before 3.10
        ax.bxp(stats, vert=False, showmeans=True, showfliers=False)
    for y, b in enumerate(boxes[::-1], 1):
        ax.text(b.whishi, y + .25, f"mean {b.mean:.1f}", fontsize=7, ha="right")
    ax.set_xlabel(chart.xlabel + " (boxes: quartiles; whiskers: 1.5 IQR; dot: mean)")
    ax.set_title(_title(chart), fontsize=10)
    ax.grid(axis="x", alpha=.3)
    return fig


def _draw_profile(chart: Chart) -> Figure:
    """Grouped bars: the mean of each count for each series (winners, the others)."""
    labels = chart.profile_labels
    fig = Figure(figsize=(WIDTH, 3.6), layout="constrained")
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(chart.profile))
    for i, (series, means) in enumerate(chart.profile.items()):
        xs = [x + (i - (len(chart.profile) - 1) / 2) * width for x in range(len(labels))]
        ax.bar(xs, means, width, label=f"{series} (n={chart.profile_rows.get(series, 0):,})",
               color=[ABOVE, EVEN][i % 2], alpha=.85)
        for x, m in zip(xs, means, strict=True):
            ax.text(x, m, f"{m:.2f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel(f"mean {chart.xlabel}")
    ax.legend(fontsize=8)
    ax.set_title(_title(chart), fontsize=10)
    ax.grid(axis="y", alpha=.3)
    return fig


def png_of(fig: Figure) -> bytes:
    """A figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    return buf.getvalue()


def wins_text(wins: float) -> str:
    """'25,153' (or '25,152.5' when shared victories split a win)."""
    return f"{wins:,.0f}" if float(wins).is_integer() else f"{wins:,.2f}"


def numbers(chart: Chart) -> tuple[list[str], list[list[str]]]:
    """The header and rows of a chart's numbers (for the HTML and Markdown tables)."""
    if chart.kind == "rates":
        head = ["", "seat results", "games", "wins", "win rate", "95% interval"]
        rows = [[b.label, f"{b.n:,}", f"{b.games:,}", wins_text(b.wins), pct(b.rate),
                 f"{pct(b.interval[0])}-{pct(b.interval[1])}"] for b in chart.bars]
        return head, rows
    if chart.kind == "boxes":
        head = ["category", "mean", "min", "Q1", "median", "Q3", "max"]
        rows = [[b.label, f"{b.mean:.2f}", f"{b.low:g}", f"{b.q1:g}", f"{b.median:g}",
                 f"{b.q3:g}", f"{b.high:g}"] for b in chart.boxes]
        return head, rows
    head = ["", *chart.profile_labels]
    rows = [[f"{s} (n={chart.profile_rows.get(s, 0):,})", *(f"{m:.3f}" for m in means)]
            for s, means in chart.profile.items()]
    return head, rows


def run_lines(analysis: Analysis) -> list[tuple[str, str]]:
    """What was simulated, as (name, value) pairs."""
    game = get_game(analysis.game)
    agents = analysis.agents
    who = (f"{agents[0]} in every seat" if len(set(agents)) == 1 and agents
           else ", ".join(f"seat {i + 1}: {a}" for i, a in enumerate(agents)))
    return [("Game", f"{game.title} ({analysis.game})"),
            ("Players", str(analysis.players)),
            ("Agents", who),
            ("Options", ", ".join(f"{k}={v}" for k, v in analysis.options.items()
                                  if k != "data_overlay") or "none"),
            ("Games", f"{analysis.games:,} (seeds {analysis.first_seed:,}-"
                      f"{analysis.last_seed:,}), {analysis.rows:,} seat results")]


def notes_of(analysis: Analysis) -> list[str]:
    """The game's notes on its options and data (reconstructed facts), for honesty."""
    game = get_game(analysis.game)
    return [str(x) for x in game.describe_options(analysis.options)]


def html_of(analysis: Analysis, images: Sequence[bytes], source: str) -> str:
    """The report page: run facts, then each chart's figure, reading and numbers."""
    esc = html.escape
    game = get_game(analysis.game)
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>kamon report: {esc(game.title)}, {analysis.games:,} games</title>",
           f"<style>{CSS}</style></head><body>",
           f"<h1>kamon balance report: {esc(game.title)}</h1>",
           f'<p class="meta">From {esc(source)}, by kamon {esc(__version__)} '
           "(<code>kamon report</code>).</p>", '<dl class="run">']
    out += [f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in run_lines(analysis)]
    out.append("</dl>")
    notes = notes_of(analysis)
    if notes:
        out.append('<ul class="notes">' + "".join(f"<li>{esc(n)}</li>" for n in notes)
                   + "</ul>")
    out.append(f"<p>{esc(HOW_TO_READ)} Green bars: the interval lies above the even "
               "table's rate (the dashed line), red: below.</p>")
    out.append("<nav><ol>" + "".join(f'<li><a href="#{c.key}">{esc(c.title)}</a></li>'
                                      for c in analysis.charts) + "</ol></nav>")
    for chart, png in zip(analysis.charts, images, strict=True):
        head, rows = numbers(chart)
        data = base64.b64encode(png).decode("ascii")
        out += [f'<section id="{chart.key}">', f"<h2>{esc(chart.title)}</h2>",
                f'<p class="meta">{chart.games:,} games, {chart.rows:,} seat results</p>',
                f'<img alt="{esc(chart.title)}" src="data:image/png;base64,{data}">',
                f'<p class="reading">{esc(chart.reading)}</p>',
                "<details><summary>The numbers</summary><table><tr>"
                + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>"]
        out += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows]
        out.append("</table></details></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def markdown_of(analysis: Analysis, source: str) -> str:
    """The Markdown summary: run facts, then each chart's reading and numbers."""
    game = get_game(analysis.game)
    out = [f"# kamon balance report: {game.title}", "",
           f"From `{source}`, by kamon {__version__} (`kamon report`).", ""]
    out += [f"- **{k}**: {v}" for k, v in run_lines(analysis)]
    out += [*(f"- {n}" for n in notes_of(analysis)), "", HOW_TO_READ, ""]
    for chart in analysis.charts:
        head, rows = numbers(chart)
        out += [f"## {chart.title}", "", f"*{chart.games:,} games, {chart.rows:,} seat "
                                         "results.*", "", chart.reading, "",
                "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        out.append("")
    return "\n".join(out)


def write_report(results: Path, out: Path | None = None, markdown: Path | None = None
                 ) -> Report:
    """Read a results file and write its HTML report (default: beside it, .html) and the
    Markdown summary (default: beside the HTML, .md)."""
    table = load(results)
    html_path = out if out is not None else results.with_suffix(".html")
    if html_path.suffix.lower() not in (".html", ".htm"):
        raise KamonError(f"--out {html_path}: the report is an HTML file (.html)")
    md_path = markdown if markdown is not None else html_path.with_suffix(".md")
    analysis = analyse(table)
    images = [png_of(draw(chart)) for chart in analysis.charts]
    try:
        html_path.write_text(html_of(analysis, images, results.name), encoding="utf-8")
        md_path.write_text(markdown_of(analysis, results.name), encoding="utf-8")
    except OSError as exc:
        raise KamonError(f"cannot write the report: {exc.strerror} ({exc.filename})") from None
    return Report(html_path, md_path, analysis, len(images))
