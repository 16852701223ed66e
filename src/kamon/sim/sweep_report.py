"""The report of a `kamon sweep`: each chosen metric against the varied value, with its
95% interval, the games behind it and its paired difference from the base value, the
fitted value meeting a target (or the closest value), as one HTML page (figure embedded)
and a Markdown summary beside it."""

from __future__ import annotations

import base64
import html
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from kamon import __version__
from kamon.core.errors import KamonError
from kamon.games import get_game
from kamon.sim.report import CSS, WIDTH, png_of
from kamon.sim.stats import Difference
from kamon.sim.sweep import Estimate, Metric, Sweep, SweepAnalysis, Vary

REPORT_HTML = "sweep.html"
REPORT_MD = "sweep.md"


def estimate_text(metric: Metric, e: Estimate) -> tuple[str, str]:
    """('48.3%', '40.1-56.6%') or ('61.20', '58.90-63.50'); '-' when not measured."""
    if not e.known:
        return "-", "-"
    if metric.rate:
        return f"{100 * e.value:.1f}%", f"{100 * e.low:.1f}-{100 * e.high:.1f}%"
    if math.isnan(e.low):
        return f"{e.value:.2f}", "-"
    return f"{e.value:.2f}", f"{e.low:.2f}-{e.high:.2f}"


def target_text(metric: Metric, x: float) -> str:
    """A target in the metric's unit."""
    return f"{100 * x:.1f}%" if metric.rate else f"{x:g}"


def difference_text(metric: Metric, d: Difference | None) -> tuple[str, str]:
    """A paired difference from the base: ('-0.5 points', '-2.7 to +1.6') for a rate,
    ('+1.20', '+0.40 to +2.00') for a mean; ('base', '') for the base itself."""
    if d is None:
        return "base", ""
    if math.isnan(d.estimate):
        return "-", "-"
    scale, unit, dp = (100.0, " points", 1) if metric.rate else (1.0, "", 2)
    if math.isinf(d.low) or math.isinf(d.high):
        return f"{scale * d.estimate:+.{dp}f}{unit}", "-"
    if d.low == d.high:  # every paired game moved by the same amount
        return f"{scale * d.estimate:+.{dp}f}{unit}", "exactly (every game the same)"
    return (f"{scale * d.estimate:+.{dp}f}{unit}",
            f"{scale * d.low:+.{dp}f} to {scale * d.high:+.{dp}f}")


def fit_text(a: SweepAnalysis, metric: Metric) -> str | None:
    """The sentence giving the fitted value that meets the target, with its interval."""
    f = a.fits.get(metric.key)
    c = a.closest.get(metric.key)
    if f is None or c is None:
        return None
    path = a.sweep.varies[0].path
    why = f"the fair share 1/{a.clans}" if c.default else "the target"
    goal = target_text(metric, f.target)
    if f.logistic:
        head = (f"Fitted logistic curve: {100 * f.at(f.lo_x):.1f}% at {f.lo_x:g}, "
                f"{100 * f.at(f.hi_x):.1f}% at {f.hi_x:g}. ")
    else:
        head = f"Fitted line: {f.slope:+.3g} per unit of {path}. "
    if math.isnan(f.value):
        return head + f"It is flat: no value meets {why} ({goal})."
    text = head + f"It meets {why} ({goal}) at {path} = {f.value:.2f}"
    if not f.determined:
        return text + (f", but {100 * f.wrong_way:.0f}% of {f.boot:,} bootstrap lines over "
                       "the games run flat or the other way: the metric does not clearly "
                       "move with the value over this range, so no interval is given.")
    span = f.hi_x - f.lo_x  # an end far beyond the swept values is only "beyond" them
    lo = f"below {f.lo_x - span:g}" if f.low < f.lo_x - span else f"{f.low:.2f}"
    hi = f"above {f.hi_x + span:g}" if f.high > f.hi_x + span else f"{f.high:.2f}"
    text += (f" (95% interval {lo} to {hi}, a bootstrap of {f.boot:,} resamples of the "
             "shared games).")
    if not f.inside:
        text += (f" That is outside the swept values ({f.lo_x:g} to {f.hi_x:g}): an "
                 "extrapolation; sweep values around it to check.")
    return text


def closest_text(a: SweepAnalysis, metric: Metric) -> str | None:
    """The sentence on the metric's target: the fitted value (a numeric axis), else the
    value whose estimate comes closest."""
    fitted = fit_text(a, metric)
    if fitted is not None:
        return fitted
    c = a.closest.get(metric.key)
    if c is None:
        return None
    paths = " and ".join(v.path for v in a.sweep.varies)
    est, interval = estimate_text(metric, c.estimate)
    why = (f"the fair share 1/{a.clans}" if c.default else "the target")
    inside = ("inside" if c.estimate.low <= c.target <= c.estimate.high else "outside")
    text = (f"Closest to {why} ({target_text(metric, c.target)}): {paths} = {c.point.label}, "
            f"{est} (95% interval {interval}, n={c.estimate.n:,}); the target is {inside} "
            "its interval.")
    if len(c.containing) > 1:
        text += (f" The intervals of {len(c.containing)} values hold the target "
                 f"({'; '.join(c.containing)}): more games would be needed to tell them apart.")
    elif not c.containing:
        text += " No value's interval holds the target."
    return text


def _numbers(a: SweepAnalysis, metric: Metric) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a metric's table: one row per point."""
    per_game = metric.unit == "games"
    unit = "clans" if metric.unit == "seat results" else metric.unit
    base = a.base_point.label
    head = [v.path for v in a.sweep.varies] + ["results file", f"n ({unit})",
                                              *([] if per_game else ["games"]),
                                              "estimate", "95% interval",
                                              f"paired vs {base}", "95% interval"]
    rows = []
    diffs = a.paired.get(metric.key) or [None] * len(a.sweep.points)
    for p, e, d in zip(a.sweep.points, a.values[metric.key], diffs, strict=True):
        est, interval = estimate_text(metric, e)
        rows.append([*p.texts, p.out.name, f"{e.n:,}",
                     *([] if per_game else [f"{e.games:,}"]), est, interval,
                     *difference_text(metric, d)])
    return head, rows


def _x_positions(vary: Vary) -> tuple[list[float], list[str], bool]:
    """Where each value of the first vary sits on the x axis (numbers as they are)."""
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in vary.values)
    if numeric:
        return [float(v) for v in vary.values], list(vary.texts), True
    return [float(i) for i in range(len(vary.values))], list(vary.texts), False


def games_line(sweep: Sweep) -> str:
    """'20 games per value (seeds 0-19, the same deals for every value)'."""
    per = "pair of values" if len(sweep.varies) > 1 else "value"
    return (f"{sweep.games:,} games per {per} (seeds {sweep.seed:,}-"
            f"{sweep.seed + sweep.games - 1:,}, the same deals for every {per})")


def draw_sweep(a: SweepAnalysis) -> Figure:
    """One panel per metric: the estimate against the value with its 95% interval, the
    target dashed, the fitted line and the value meeting the target (or, on a non-numeric
    axis, the closest value ringed); the games behind it in the title."""
    sweep, metrics = a.sweep, a.metrics
    fig = Figure(figsize=(WIDTH, 0.6 + 2.6 * max(1, len(metrics))), layout="constrained")
    first = sweep.varies[0]
    xs, labels, numeric = _x_positions(first)
    series = (list(enumerate(sweep.varies[1].texts)) if len(sweep.varies) > 1
              else [(0, "")])
    span = (max(xs) - min(xs)) if len(xs) > 1 else 1.0
    step = 0.06 * span / max(1, len(series))
    axes: list[Any] = (list(fig.subplots(len(metrics), 1, squeeze=False)[:, 0]) if metrics
                       else [])
    for ax, metric in zip(axes, metrics, strict=True):
        est = a.values[metric.key]
        scale = 100.0 if metric.rate else 1.0
        for s, (j, text) in enumerate(series):
            idx = [i for i, p in enumerate(sweep.points)
                   if len(sweep.varies) == 1 or p.texts[1] == sweep.varies[1].texts[j]]
            px = [xs[first.texts.index(sweep.points[i].texts[0])] +
                  (s - (len(series) - 1) / 2) * step for i in idx]
            ys = [scale * est[i].value if est[i].known else math.nan for i in idx]
            lo = [scale * (est[i].value - est[i].low) if est[i].known and not math.isnan(
                est[i].low) else 0.0 for i in idx]
            hi = [scale * (est[i].high - est[i].value) if est[i].known and not math.isnan(
                est[i].high) else 0.0 for i in idx]
            label = f"{sweep.varies[1].path} = {text}" if text else None
            ax.errorbar(px, ys, yerr=[lo, hi], marker="o", capsize=4, linewidth=1.2,
                        label=label)
            if metric.key in a.closest and metric.key not in a.fits:
                best = a.closest[metric.key].point
                for x, i in zip(px, idx, strict=True):
                    if sweep.points[i] is best:
                        ax.plot([x], [scale * est[i].value], marker="o", markersize=14,
                                markerfacecolor="none", markeredgecolor="#c62828")
        fit = a.fits.get(metric.key)
        if fit is not None:
            line_x = [min(xs) + (max(xs) - min(xs)) * i / 40 for i in range(41)]
            ax.plot(line_x, [scale * fit.at(x) for x in line_x], color="#c62828",
                    linewidth=1, label="fitted " + ("logistic curve" if fit.logistic
                                                    else "line"))
            if fit.determined and fit.inside:
                x_lo = max(fit.low, min(xs))
                x_hi = min(fit.high, max(xs))
                ax.errorbar([fit.value], [scale * fit.target], xerr=[[fit.value - x_lo],
                            [x_hi - fit.value]], color="#c62828", marker="D", capsize=4,
                            label=f"meets it at {fit.value:.2f} ({fit.low:.2f} to "
                                  f"{fit.high:.2f})")
        if metric.key in a.closest:
            c = a.closest[metric.key]
            ax.axhline(scale * c.target, color="#555", linestyle="--", linewidth=1,
                       label=("fair share " if c.default else "target ")
                       + target_text(metric, c.target))
        ns = [e.n for e in est]
        n_text = f"{min(ns):,}" if min(ns) == max(ns) else f"{min(ns):,}-{max(ns):,}"
        unit = "clans" if metric.unit == "seat results" else metric.unit
        ax.set_title(f"{metric.title}\n{games_line(sweep)}; n = {n_text} {unit} "
                     "per point", fontsize=9)
        ax.set_ylabel(("%" if metric.rate else "mean") + " (bars: 95% interval)", fontsize=8)
        ax.set_xticks(xs, labels if not numeric else [f"{x:g}" for x in xs])
        ax.set_xlabel(first.path, fontsize=8)
        ax.grid(alpha=.3)
        if len(series) > 1 or metric.key in a.closest:
            ax.legend(fontsize=7)
    return fig


def run_facts(a: SweepAnalysis) -> list[tuple[str, str]]:
    """What was swept, as (name, value) pairs."""
    sweep = a.sweep
    game = get_game(sweep.game)
    agents = sweep.agents
    who = (f"{agents[0]} in every seat" if len(set(agents)) == 1 and agents
           else ", ".join(f"seat {i + 1}: {x}" for i, x in enumerate(agents)))
    facts = [("Game", f"{game.title} ({sweep.game})"), ("Players", str(sweep.players)),
             ("Agents", who), ("Games", games_line(sweep)),
             ("Paired against", f"{', '.join(v.path for v in sweep.varies)} = "
              f"{a.base_point.label}, on the {a.shared:,} games every value holds")]
    for v in sweep.varies:
        facts.append(("Varied", f"{v.path} = {', '.join(v.texts)}"))
    where = game.options.overlay
    opts = {k: v for k, v in sweep.options.items() if k != where}
    if opts:
        facts.append(("Options", ", ".join(f"{k}={v}" for k, v in opts.items())))
    if where is not None and sweep.options.get(where):
        facts.append(("Base overlay", json.dumps(sweep.options[where])))
    if a.columns:
        facts.append(("Users", f"clans whose {' or '.join(a.columns)} names {a.component} "
                      "(each clan once)"))
    return facts


HOW_TO_READ = (
    "Each value is an ordinary simulation of its own (the results file named in the table; "
    "`kamon report FILE` reports it alone), played on the same seeds, so the values are "
    "compared on the same deals. Intervals are 95%: Wilson score intervals for one value's "
    "rate (over clans; a win counts 1/k to each of k shared winners), Student's t for its "
    "mean (the mean per clan over games). The column 'paired vs' is each value minus the "
    "base value game by game on the shared deals (a paired t, or the delta method by game "
    "for a rate over a varying number of clans): much narrower than two separate intervals, "
    "and the one to read when asking whether two values differ. With a target and numbers "
    "for values, a line is fitted to the metric (weighted by each value's precision) and "
    "solved for the value that meets the target; its interval is a bootstrap over the "
    "shared games. Users are counted by clan: a clan that took or used the component counts "
    "once however many times it holds it (two warriors on one yard make one user), as "
    "`compare` counts its holders. The "
    "results describe the agents named above, not expert play; the users' win rate says "
    "what goes with taking the component, not what it causes.")


def markdown_of(a: SweepAnalysis) -> str:
    """The Markdown report."""
    game = get_game(a.sweep.game)
    out = [f"# kamon sweep: {game.title}, {' and '.join(v.path for v in a.sweep.varies)}",
           "", f"By kamon {__version__} (`kamon sweep`).", ""]
    out += [f"- **{k}**: {v}" for k, v in run_facts(a)]
    out += ["", HOW_TO_READ, ""]
    for m in a.missing:
        out += [f"*{m}: not measured: the path names no component that the game's feature "
                "columns record a clan taking.*", ""]
    out += ["![The metrics against the value](sweep.png)", ""]
    for metric in a.metrics:
        head, rows = _numbers(a, metric)
        out += [f"## {metric.title}", "", f"*`{metric.key}`; {games_line(a.sweep)}.*", ""]
        line = closest_text(a, metric)
        if line:
            out += [line, ""]
        out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        out.append("")
    return "\n".join(out)


def html_of(a: SweepAnalysis, png: bytes) -> str:
    """The HTML report (the figure embedded)."""
    esc = html.escape
    game = get_game(a.sweep.game)
    title = f"kamon sweep: {game.title}, {' and '.join(v.path for v in a.sweep.varies)}"
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{esc(title)}</title>", f"<style>{CSS}</style></head><body>",
           f"<h1>{esc(title)}</h1>",
           f'<p class="meta">By kamon {esc(__version__)} (<code>kamon sweep</code>).</p>',
           '<dl class="run">']
    out += [f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in run_facts(a)]
    out += ["</dl>", f"<p>{esc(HOW_TO_READ)}</p>"]
    out += [f'<p class="notes">{esc(m)}: not measured: the path names no component that '
            "the game's feature columns record a clan taking.</p>" for m in a.missing]
    data = base64.b64encode(png).decode("ascii")
    out += [f'<p class="meta">{esc(games_line(a.sweep))}</p>',
            f'<img alt="the metrics against the value" src="data:image/png;base64,{data}">']
    for metric in a.metrics:
        head, rows = _numbers(a, metric)
        out += [f'<section id="{metric.key}">', f"<h2>{esc(metric.title)}</h2>",
                f'<p class="meta"><code>{metric.key}</code>; {esc(games_line(a.sweep))}</p>']
        line = closest_text(a, metric)
        if line:
            out.append(f'<p class="reading">{esc(line)}</p>')
        out.append("<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>")
        out += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows]
        out.append("</table></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


@dataclass
class SweepReport:
    """Where the report went and what it says."""

    html: Path
    markdown: Path
    figure: Path
    analysis: SweepAnalysis


def write_sweep_report(a: SweepAnalysis) -> SweepReport:
    """DIR/sweep.html (figure embedded), DIR/sweep.md and its figure DIR/sweep.png."""
    out = a.sweep.out
    png = png_of(draw_sweep(a))
    paths = (out / REPORT_HTML, out / REPORT_MD, out / "sweep.png")
    try:
        paths[2].write_bytes(png)
        paths[0].write_text(html_of(a, png), encoding="utf-8")
        paths[1].write_text(markdown_of(a), encoding="utf-8")
    except OSError as exc:
        raise KamonError(f"cannot write the report: {exc.strerror} ({exc.filename})") from None
    return SweepReport(paths[0], paths[1], paths[2], a)
