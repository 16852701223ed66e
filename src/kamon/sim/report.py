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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from kamon import __version__
from kamon.core.errors import KamonError
from kamon.games import get_game
from kamon.sim.analysis import Analysis, Bar, Chart, analyse, pct
from kamon.sim.metrics import LEADER_PREFIX, Metric, leader_metrics
from kamon.sim.results import read_results
from kamon.sim.skill import SkillMatrix
from kamon.sim.story import STORY_ID, STORY_TITLE, Story, load_story, story_html, story_markdown

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
    story: Story | None = None  # from the decision logs beside the results, if any


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
    deals = f"seeds {analysis.first_seed:,}-{analysis.last_seed:,}"
    if analysis.seating == "rotated":
        who += " in rotation 0; seats rotate, each deal played from every rotation"
        deals = f"deals {analysis.first_seed:,}-{analysis.last_seed:,}, seats rotated"
    elif analysis.seating == "tournament":
        who += " in the first game; a tournament, seats rotating between games"
        deals = f"deals {analysis.first_seed:,}-{analysis.last_seed:,}, a tournament"
    return [("Game", f"{game.title} ({analysis.game})"),
            ("Players", str(analysis.players)),
            ("Agents", who),
            ("Options", ", ".join(f"{k}={v}" for k, v in analysis.options.items()
                                  if k != game.options.overlay) or "none"),
            ("Games", f"{analysis.games:,} ({deals}), {analysis.rows:,} seat results")]


def notes_of(analysis: Analysis) -> list[str]:
    """The game's notes on its options and data (reconstructed facts), for honesty."""
    game = get_game(analysis.game)
    return [str(x) for x in game.describe_options(analysis.options)]


def html_of(analysis: Analysis, images: Sequence[bytes], source: str,
            story: Story | None = None) -> str:
    """The report page: run facts, then each chart's figure, reading and numbers (and the
    story of a game when the results have decision logs)."""
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
    links = [(c.key, c.title) for c in analysis.charts]
    links += [(METRICS_ID, METRICS_TITLE)] if analysis.metrics else []
    links += [(SKILL_ID, SKILL_TITLE)] if analysis.skill is not None else []
    links += [(STORY_ID, STORY_TITLE)] if story is not None else []
    out.append("<nav><ol>" + "".join(f'<li><a href="#{key}">{esc(title)}</a></li>'
                                      for key, title in links) + "</ol></nav>")
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
    out += metrics_html(analysis)
    out += skill_html(analysis)
    out += story_html(story)
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def markdown_of(analysis: Analysis, source: str, story: Story | None = None) -> str:
    """The Markdown summary: run facts, then each chart's reading and numbers (and the
    story of a game when the results have decision logs)."""
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
    out += metrics_markdown(analysis)
    out += skill_markdown(analysis)
    out += story_markdown(story)
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
    story = load_story(results, table)
    images = [png_of(draw(chart)) for chart in analysis.charts]
    try:
        html_path.write_text(html_of(analysis, images, results.name, story), encoding="utf-8")
        md_path.write_text(markdown_of(analysis, results.name, story), encoding="utf-8")
    except OSError as exc:
        raise KamonError(f"cannot write the report: {exc.strerror} ({exc.filename})") from None
    return Report(html_path, md_path, analysis, len(images), story)


# --- Game-level metrics (sim.metrics): one section after the charts ----------------------

METRICS_ID = "game_metrics"
METRICS_TITLE = "Game-level metrics"
METRICS_INTRO = (
    "Ludii/TAG-style measures of the game as these agents play it: each with its 95% "
    "interval (Wilson for rates, normal for means; none for the seat spread, which has a "
    "chi-square test instead), the games behind it and its meaning.")
METRICS_HEAD = ["metric", "value", "95% interval", "games", "spread", "meaning"]
METRIC_LABELS = {"first_player_advantage": "first-player advantage",
                 "seat_balance": "balance across seats", "margin": "winning margin",
                 "drawishness": "drawishness (shared wins)", "length": "length",
                 "branching": "branching factor", "leader_after_round": "leader after round r"}


def _signed_points(x: float) -> str:
    """0.025 -> '+2.5 pts' (a difference of rates, in percentage points)."""
    return f"{100 * x:+.1f} pts"


def _num(x: float) -> str:
    """7.0 -> '7', 4.79587 -> '4.80'."""
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.2f}"


def _quartiles(d: Mapping[str, float]) -> str:
    """'sd 8.70; quartiles 2.75 / 7 / 15; range 0-46'."""
    return (f"sd {d['sd']:.2f}; quartiles {_num(d['q1'])} / {_num(d['median'])} / "
            f"{_num(d['q3'])}; range {_num(d['min'])}-{_num(d['max'])}")


def metric_cells(m: Metric) -> list[str]:
    """A metric as table cells: name, value, interval, games, spread, meaning."""
    name = METRIC_LABELS.get(m.name, m.name.replace(LEADER_PREFIX, "leader after round ")
                             .replace("_", " "))
    if not m.available or m.value is None:
        return [name, "unavailable", "-", f"{m.games:,}", "-", m.meaning]
    d = m.detail
    lo, hi = m.ci_low, m.ci_high
    interval = "-"
    if m.name == "first_player_advantage":
        value = _signed_points(m.value)
        if lo is not None and hi is not None:
            interval = f"{_signed_points(lo)} to {_signed_points(hi)}"
        extra = f"the first wins {pct(d['win_rate'])} (fair {pct(d['fair'])})"
    elif m.name == "seat_balance":
        value = f"{100 * m.value:.1f} pts"
        rates = [f"{k.rsplit('_', 1)[1]}: {pct(v)}" for k, v in d.items()
                 if k.startswith("win_rate_")]
        where = "seat" if any(k.startswith("win_rate_seat_") for k in d) else "turn position"
        extra = (f"chi-square {d['chi2']:.2f}, df {d['df']:g}, p = {d['p_value']:.3g}; "
                 f"win rate by {where} {', '.join(rates)}")
    elif m.name in ("margin", "length", "branching"):
        unit = {"margin": "points", "length": "decisions", "branching": "legal moves"}[m.name]
        value = f"{m.value:.2f} {unit}"
        if lo is not None and hi is not None:
            interval = f"{lo:.2f}-{hi:.2f}"
        extra = _quartiles(d)
        if m.name == "margin":
            extra += f"; {pct(d['zero'])} tied on points"
        if m.name == "branching":
            extra += f"; {d['per_decision']:.2f} over all decisions"
    else:  # a rate: drawishness, leader after round r
        value = pct(m.value)
        if lo is not None and hi is not None:
            interval = f"{pct(lo)}-{pct(hi)}"
        extra = (f"{pct(d['tie_broken'])} decided by a tie-break" if "tie_broken" in d
                 else f"fair {pct(d['fair'])}" if "fair" in d else "")
    return [name, value, interval, f"{m.games:,}", extra, m.meaning]


def metrics_reading(analysis: Analysis) -> str:
    """One line on the leader curve and the margin, when they are known."""
    parts = []
    curve = leader_metrics(analysis.metrics)
    if curve:
        first, last = curve[0], curve[-1]
        parts.append(f"The leader after round 1 wins {pct(first.value or 0.0)}, after round "
                     f"{len(curve)} {pct(last.value or 0.0)}")
    margin = analysis.metrics.get("margin")
    if margin is not None and margin.available:
        parts.append(f"the median winning margin is {margin.detail['median']:g} points")
    return ("; ".join(parts) + ".") if parts else ""


def draw_metrics(analysis: Analysis) -> Figure | None:
    """The leader-after-round-r curve (with intervals and the fair rate) beside the
    distribution of winning margins; None when neither is known."""
    curve = leader_metrics(analysis.metrics)
    margins = analysis.margins
    if not curve and not margins:
        return None
    panels = int(bool(curve)) + int(bool(margins))
    fig = Figure(figsize=(WIDTH, 3.4), layout="constrained")
    axes = fig.subplots(1, panels, squeeze=False)[0]
    at = 0
    if curve:
        ax = axes[at]
        at += 1
        xs = list(range(1, len(curve) + 1))
        ys = [100 * (m.value or 0.0) for m in curve]
        err = [[y - 100 * (m.ci_low or 0.0) for y, m in zip(ys, curve, strict=True)],
               [100 * (m.ci_high or 0.0) - y for y, m in zip(ys, curve, strict=True)]]
        ax.errorbar(xs, ys, yerr=err, marker="o", color=ABOVE, capsize=3, linewidth=1.2)
        fair = [100 * m.detail.get("fair", 0.0) for m in curve]
        ax.plot(xs, fair, linestyle="--", color="#555", linewidth=1, label="fair share")
        ax.set_xticks(xs)
        ax.set_ylim(0, 100)
        ax.set_xlabel("after round")
        ax.set_ylabel("leader wins, % (95% interval)")
        ax.set_title(f"How often the leader after round r wins\n{curve[0].games:,} games",
                     fontsize=10)
        ax.legend(fontsize=8)
        ax.grid(alpha=.3)
    if margins:
        ax = axes[at]
        games = sum(margins.values())
        ax.bar(list(margins), list(margins.values()), width=0.9, color=EVEN, alpha=.85)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("winner's total minus the runner-up's (points)")
        ax.set_ylabel("games")
        ax.set_title(f"Winning margin\n{games:,} games", fontsize=10)
        ax.grid(axis="y", alpha=.3)
    return fig


def metrics_html(analysis: Analysis) -> list[str]:
    """The HTML section of the game-level metrics (nothing when there are none)."""
    if not analysis.metrics:
        return []
    esc = html.escape
    out = [f'<section id="{METRICS_ID}">', f"<h2>{METRICS_TITLE}</h2>",
           f'<p class="meta">{analysis.games:,} games</p>', f"<p>{esc(METRICS_INTRO)}</p>"]
    fig = draw_metrics(analysis)
    if fig is not None:
        data = base64.b64encode(png_of(fig)).decode("ascii")
        out.append(f'<img alt="{METRICS_TITLE}" src="data:image/png;base64,{data}">')
    reading = metrics_reading(analysis)
    if reading:
        out.append(f'<p class="reading">{esc(reading)}</p>')
    out.append("<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in METRICS_HEAD) + "</tr>")
    out += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in metric_cells(m)) + "</tr>"
            for m in analysis.metrics.values()]
    out.append("</table></section>")
    return out


def metrics_markdown(analysis: Analysis) -> list[str]:
    """The Markdown section of the game-level metrics (nothing when there are none)."""
    if not analysis.metrics:
        return []
    out = [f"## {METRICS_TITLE}", "", f"*{analysis.games:,} games.*", "", METRICS_INTRO, ""]
    reading = metrics_reading(analysis)
    if reading:
        out += [reading, ""]
    out += ["| " + " | ".join(METRICS_HEAD) + " |", "|" + "---|" * len(METRICS_HEAD)]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in metric_cells(m)) + " |"
            for m in analysis.metrics.values()]
    out.append("")
    return out


# --- Head to head (sim.skill): one section after the charts, with several agents ---------

SKILL_ID = "head_to_head"
SKILL_TITLE = "Head to head: agents against each other"
SKILL_INTRO = (
    "Each cell: how often the row's agent finished ahead of the column's (a lower placement; "
    "a tie counts 1/2; an agent in several seats of a game counts the mean of its seats), "
    "over the games both played, with its 95% Wilson interval and the number of games; "
    "a pair's two cells add up to 100%. Ratings: openskill Plackett-Luce over every game "
    "in order, as kamon tournament computes them (ordinal = mu - 3 sigma).")


def duel_cell(matrix: SkillMatrix, agent: str, opponent: str) -> str:
    """'95.0% (76.4-99.1%), 20 games'; '-' on the diagonal or where they never met."""
    d = matrix.duel(agent, opponent)
    if d is None or not d.games:
        return "-"
    lo, hi = d.interval
    return f"{pct(d.rate)} ({100 * lo:.1f}-{pct(hi)}), {d.games:,} games"


def skill_tables(matrix: SkillMatrix) -> list[tuple[list[str], list[list[str]]]]:
    """The matrix (rows: the agent, columns: the opponent) and the ratings, as tables."""
    head = ["ahead of:", *matrix.agents]
    rows = [[a, *(duel_cell(matrix, a, b) for b in matrix.agents)] for a in matrix.agents]
    rated = [[r.agent, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}"]
             for r in matrix.ratings]
    return [(head, rows), (["agent", "mu", "sigma", "ordinal"], rated)]


def draw_skill(matrix: SkillMatrix) -> Figure:
    """The matrix as a heat map: green where the row's agent is ahead, red behind."""
    k = len(matrix.agents)
    grid = np.full((k, k), np.nan)
    for i, a in enumerate(matrix.agents):
        for j, b in enumerate(matrix.agents):
            d = matrix.duel(a, b)
            if d is not None and d.games:
                grid[i, j] = 100 * d.rate
    fig = Figure(figsize=(min(WIDTH, 2.4 + 1.3 * k), 1.6 + 0.9 * k), layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=100)
    for i, a in enumerate(matrix.agents):
        for j, b in enumerate(matrix.agents):
            d = matrix.duel(a, b)
            text = "-" if d is None or not d.games else f"{pct(d.rate)}\n{d.games:,} games"
            ax.text(j, i, text, ha="center", va="center", fontsize=8)
    ax.set_xticks(range(k), matrix.agents, fontsize=8)
    ax.set_yticks(range(k), matrix.agents, fontsize=8)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent (finishing ahead of the opponent, %)")
    fig.colorbar(image, ax=ax, shrink=.8)
    ax.set_title(f"{SKILL_TITLE}\n{matrix.games:,} games", fontsize=10)
    return fig


def skill_html(analysis: Analysis) -> list[str]:
    """The HTML section of the head-to-head matrix (nothing with a single agent)."""
    matrix = analysis.skill
    if matrix is None:
        return []
    esc = html.escape
    data = base64.b64encode(png_of(draw_skill(matrix))).decode("ascii")
    out = [f'<section id="{SKILL_ID}">', f"<h2>{esc(SKILL_TITLE)}</h2>",
           f'<p class="meta">{matrix.games:,} games</p>', f"<p>{esc(SKILL_INTRO)}</p>",
           f'<img alt="{esc(SKILL_TITLE)}" src="data:image/png;base64,{data}">',
           f'<p class="reading">{esc(matrix.reading)}</p>']
    for head, rows in skill_tables(matrix):
        out.append("<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>")
        out += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows]
        out.append("</table>")
    out.append("</section>")
    return out


def skill_markdown(analysis: Analysis) -> list[str]:
    """The Markdown section of the head-to-head matrix (nothing with a single agent)."""
    matrix = analysis.skill
    if matrix is None:
        return []
    out = [f"## {SKILL_TITLE}", "", f"*{matrix.games:,} games.*", "", SKILL_INTRO, "",
           matrix.reading, ""]
    for head, rows in skill_tables(matrix):
        out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        out.append("")
    return out
