"""`kamon compare`: two results files as one self-contained HTML page (a figure per family
of differences, embedded as PNG) and a Markdown summary of the same findings.

The figures are drawn on `matplotlib.figure.Figure` objects (no pyplot), with the page's
style, colours and PNG encoding of `kamon.sim.report`; the numbers come from
`kamon.sim.compare`.
"""

from __future__ import annotations

import base64
import html
import math
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure

from kamon import __version__
from kamon.core.errors import KamonError
from kamon.games import get_game
from kamon.sim.compare import (
    MIN_GAMES,
    MIN_ROWS,
    Comparison,
    Family,
    Finding,
    compare_tables,
    p_text,
)
from kamon.sim.report import ABOVE, BELOW, CSS, WIDTH, load, png_of
from kamon.sim.story import compare_stories

HOW_TO_READ = (
    "How to read it: every difference is the variant minus the base, with its 95% "
    "interval. Paired by seed, each game of the variant is set against the same deal "
    "of the base, so the deal's luck cancels out; unpaired, the two runs are independent "
    "samples. The p-values of every test on this page form one family, adjusted with the "
    "Benjamini-Hochberg procedure (false discovery rate {alpha:.0%}): a difference is "
    "\"more than chance\" when its adjusted p is below {alpha:g}. Groups by a choice (a card "
    "taken) show what goes with winning, not what causes it, and with an overlay the "
    "clans that take a card may change too.")
GLOSSARY = (
    ("95% interval", "the range of differences compatible with the games played: 95 times "
     "in 100 it holds the true difference. An interval that excludes 0 is a difference "
     "of that sign."),
    ("p", "how often chance alone (the variant changing nothing) would give a difference "
     "at least this large; small p, unlikely to be chance."),
    ("BH, adjusted p", "this page runs many tests at once, and some would look like "
     "findings by luck. The Benjamini-Hochberg (BH) procedure raises each p to an adjusted "
     "p that accounts for all the tests of the page, so that of the differences called "
     "\"more than chance\", at most {alpha:.0%} are expected to be false alarms."),
    ("more than chance / within chance", "adjusted p below {alpha:g} / at least {alpha:g} "
     "(a p shown as 0.0498 is below 0.05; it is never rounded across it)."),
    ("paired / unpaired", "paired: each game of the variant is set against the game of the "
     "same seed (the same deal) in the base, so the deal's luck cancels out; unpaired: the "
     "runs are two independent samples."),
    ("holders", "the clans that hold a card (or a starting pair, a mission...): a clan "
     "counts once per card it holds, however many of its pieces are on it."),
    ("n", "in a figure's rows: the seat results behind the value, base / variant (for a "
     "card: its holders)."),
    ("swap test", "for a paired test over few games that differ (a rarely held card, "
     "shared wins, a late round's leader), its p comes from swapping base and variant "
     "within games, every way or 20,000 times at random: sound where the t (used when "
     "many games differ) raises false alarms."),
)
MUTED = "#9e9e9e"


@dataclass
class CompareReport:
    """A written comparison: where it went and what it says."""

    html: Path
    markdown: Path
    comparison: Comparison
    figures: int


def verdict(f: Finding) -> str:
    """'more than chance' or 'within chance'."""
    return "more than chance" if f.significant else "within chance"


def _colour(f: Finding) -> str:
    """Green: significantly up, red: significantly down, grey: within chance."""
    if not f.significant:
        return MUTED
    return ABOVE if f.diff.estimate > 0 else BELOW


def draw_family(fam: Family, comparison: Comparison) -> Figure:
    """A forest plot: each finding's difference (variant - base) with its 95% interval."""
    rows = fam.findings
    fig = Figure(figsize=(WIDTH, 1.4 + 0.3 * len(rows)), layout="constrained")
    ax = fig.add_subplot()
    ys = list(range(len(rows)))[::-1]
    for y, f in zip(ys, rows, strict=True):
        s = f.scale
        est = s * f.diff.estimate
        lo, hi = s * f.diff.low, s * f.diff.high
        colour = _colour(f)
        if math.isfinite(lo) and math.isfinite(hi):
            ax.errorbar([est], [y], xerr=[[est - lo], [hi - est]], fmt="o", color=colour,
                        ecolor=colour, capsize=3, markersize=4)
        else:
            ax.plot([est], [y], "o", color=colour, markersize=4)
    ax.axvline(0, color="#555", linestyle="--", linewidth=1)
    ax.set_yticks(ys, [f"{f.subject}  (n={f.rows_base:,}/{f.rows_variant:,})" for f in rows],
                  fontsize=8)
    unit = "percentage points" if fam.kind == "rate" else "difference of the means"
    ax.set_xlabel(f"variant - base, {unit}; bars: 95% interval\ncoloured: more than "
                  f"chance after BH ({comparison.design}); n: {fam.counted}, base/variant",
                  fontsize=8)
    ax.set_title(f"{fam.title}: variant - base\n{_games_line(fam, comparison)}", fontsize=10)
    ax.grid(axis="x", alpha=.3)
    return fig


def _games_line(fam: Family, comparison: Comparison) -> str:
    """'60 games paired by seed' / '60 and 80 games, unpaired'."""
    if comparison.design == "paired":
        return f"{comparison.games_paired:,} games paired by seed"
    return (f"{comparison.games_variant:,} games (variant) and {comparison.games_base:,} "
            "(base), unpaired")


def table_of(fam: Family) -> tuple[list[str], list[list[str]]]:
    """The header and rows of a family's numbers."""
    rate = fam.kind == "rate"
    head = ["", "base", "variant", "difference" + (" (points)" if rate else ""),
            "95% interval", "p", "adjusted p", "games", f"{fam.counted} (base / variant)",
            "verdict"]
    rows = []
    for f in fam.findings:
        s, d = f.scale, f.diff
        digits = 1 if rate else 2
        rows.append([f.subject, f.value_text(f.base), f.value_text(f.variant),
                     f"{s * d.estimate:+.{digits}f}",
                     f"{_bound(s * d.low, digits)} to {_bound(s * d.high, digits)}",
                     p_text(d.p) + (f" ({d.p_from})" if d.p_from else ""),
                     p_text(f.p_adjusted), _games_cell(f),
                     f"{f.rows_base:,} / {f.rows_variant:,}", verdict(f)])
    return head, rows


def _bound(x: float, digits: int) -> str:
    return ("-inf" if x < 0 else "+inf") if math.isinf(x) else f"{x:+.{digits}f}"


def _games_cell(f: Finding) -> str:
    """The games behind a finding ('60 paired' / '60 / 80')."""
    if f.design == "paired":
        held = "" if f.games_base == f.games_variant == f.games else \
            f" (held in {f.games_base:,} / {f.games_variant:,})"
        return f"{f.games:,} paired{held}"
    return f"{f.games_base:,} / {f.games_variant:,}"


def metrics_table(comparison: Comparison) -> tuple[list[str], list[list[str]]]:
    """The game-level metrics of both runs side by side (kamon.sim.metrics)."""
    head = ["metric", "base", "variant", "games (base / variant)", "meaning"]

    def value(m: object) -> str:
        v = getattr(m, "value", None)
        if v is None:
            return "unavailable"
        lo, hi = getattr(m, "ci_low", None), getattr(m, "ci_high", None)
        return f"{v:.3f}" + (f" ({lo:.3f} to {hi:.3f})" if lo is not None and hi is not None
                             else "")
    rows = [[p.name, value(p.base), value(p.variant),
             f"{getattr(p.base, 'games', 0):,} / {getattr(p.variant, 'games', 0):,}",
             p.meaning] for p in comparison.metrics]
    return head, rows


def run_lines(c: Comparison) -> list[tuple[str, str]]:
    """What was compared, as (name, value) pairs."""
    game = get_game(c.game)
    if c.design == "paired":
        design = f"paired by seed (and seat): {c.games_paired:,} games both runs played"
        if c.games_paired < max(c.games_base, c.games_variant):
            design += (f" (of {c.games_base:,} and {c.games_variant:,}: only the shared "
                       "seeds are compared)")
    else:
        design = f"unpaired ({c.why_unpaired or 'two independent samples'})"
    return [("Game", f"{game.title} ({c.game}), {c.players} players"),
            ("Base", f"{c.base_name}: {c.games_base:,} games"),
            ("Variant", f"{c.variant_name}: {c.games_variant:,} games"),
            ("What differs", "; ".join(c.differences)),
            ("Design", design),
            ("Tests", f"{len(c.findings)}, of which {len(c.significant)} more than chance "
                      f"after Benjamini-Hochberg at {c.alpha:g}")]


def summary_lines(c: Comparison) -> list[str]:
    """The headline: the findings that are more than chance (or that none is)."""
    if not c.significant:
        return [f"No difference is more than chance: all {len(c.findings)} tests have an "
                f"adjusted p of at least {c.alpha:g}."]
    return [f.sentence(c.alpha) for f in c.significant]


def glossary(c: Comparison) -> list[tuple[str, str]]:
    """The page's statistical words, each in a sentence."""
    return [(word, text.format(alpha=c.alpha)) for word, text in GLOSSARY]


def skipped_text(fam: Family) -> str:
    """The groups listed but not tested, and why."""
    return (f"Not tested (held fewer than {MIN_ROWS} times or in fewer than {MIN_GAMES} "
            f"games of a run, or no spread to test; variant and base): "
            f"{', '.join(fam.skipped)}.")


def html_of(c: Comparison, images: list[bytes]) -> str:
    """The comparison page."""
    esc = html.escape
    game = get_game(c.game)
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>kamon compare: {esc(game.title)}, {esc(c.variant_name)} against "
           f"{esc(c.base_name)}</title>", f"<style>{CSS}</style></head><body>",
           f"<h1>kamon comparison: {esc(game.title)}</h1>",
           f'<p class="meta">{esc(c.variant_name)} (variant) against {esc(c.base_name)} '
           f"(base), by kamon {esc(__version__)} (<code>kamon compare</code>).</p>",
           '<dl class="run">']
    out += [f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in run_lines(c)]
    out.append("</dl>")
    if c.notes:
        out.append('<ul class="notes">' + "".join(f"<li>{esc(n)}</li>" for n in c.notes)
                   + "</ul>")
    out.append(f"<p>{esc(HOW_TO_READ.format(alpha=c.alpha))}</p>")
    out.append('<details><summary>The statistical words</summary><dl class="glossary">'
               + "".join(f"<dt>{esc(w)}</dt><dd>{esc(t)}</dd>" for w, t in glossary(c))
               + "</dl></details>")
    out.append("<h2>What changed</h2><ul>" + "".join(
        f"<li><strong>{esc(s)}</strong></li>" for s in summary_lines(c)) + "</ul>")
    out.append("<nav><ol>" + "".join(f'<li><a href="#{f.key}">{esc(f.title)}</a></li>'
                                      for f in c.families if f.findings) + "</ol></nav>")
    drawn = [f for f in c.families if f.findings]
    for fam, png in zip(drawn, images, strict=True):
        head, rows = table_of(fam)
        data = base64.b64encode(png).decode("ascii")
        out += [f'<section id="{fam.key}">', f"<h2>{esc(fam.title)}</h2>",
                f'<p class="meta">{esc(_games_line(fam, c))}; {len(fam.findings)} '
                "comparisons</p>",
                f'<img alt="{esc(fam.title)}" src="data:image/png;base64,{data}">']
        if fam.note:
            out.append(f'<p class="notes">{esc(fam.note)}</p>')
        out.append("<ul>" + "".join(
            f"<li>{'<strong>' if f.significant else ''}{esc(f.sentence(c.alpha))}"
            f"{'</strong>' if f.significant else ''}</li>" for f in fam.findings) + "</ul>")
        out.append("<details><summary>The numbers</summary><table><tr>"
                   + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>")
        out += ["<tr>" + "".join(f"<td>{esc(x)}</td>" for x in row) + "</tr>" for row in rows]
        out.append("</table></details>")
        if fam.skipped:
            out.append(f'<p class="notes">{esc(skipped_text(fam))}</p>')
        out.append("</section>")
    if c.metrics:
        head, rows = metrics_table(c)
        out += ['<section id="metrics">', "<h2>Game-level metrics, side by side</h2>",
                '<p class="meta">kamon.sim.metrics of each run (values with their 95% '
                "intervals); the per-game ones are tested above.</p><table><tr>"
                + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>"]
        out += ["<tr>" + "".join(f"<td>{esc(x)}</td>" for x in row) + "</tr>" for row in rows]
        out.append("</table></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(x.replace("|", "\\|") for x in cells) + " |"


def markdown_of(c: Comparison) -> str:
    """The Markdown summary: run facts, what changed, then each family's findings."""
    game = get_game(c.game)
    out = [f"# kamon comparison: {game.title}", "",
           f"`{c.variant_name}` (variant) against `{c.base_name}` (base), by kamon "
           f"{__version__} (`kamon compare`).", ""]
    out += [f"- **{k}**: {v}" for k, v in run_lines(c)]
    out += [*(f"- {n}" for n in c.notes), "", HOW_TO_READ.format(alpha=c.alpha), "",
            "The statistical words:", ""]
    out += [f"- **{w}**: {t}" for w, t in glossary(c)]
    out += ["", "## What changed", ""]
    out += [f"- {s}" for s in summary_lines(c)]
    out.append("")
    for fam in c.families:
        if not fam.findings:
            continue
        head, rows = table_of(fam)
        out += [f"## {fam.title}", "", f"*{_games_line(fam, c)}; {len(fam.findings)} "
                "comparisons.*", ""]
        if fam.note:
            out += [fam.note, ""]
        out += [f"- {'**' if f.significant else ''}{f.sentence(c.alpha)}"
                f"{'**' if f.significant else ''}" for f in fam.findings]
        out += ["", _md_row(head), "|" + "---|" * len(head)]
        out += [_md_row(r) for r in rows]
        if fam.skipped:
            out += ["", skipped_text(fam)]
        out.append("")
    if c.metrics:
        head, rows = metrics_table(c)
        out += ["## Game-level metrics, side by side", "",
                "*kamon.sim.metrics of each run; the per-game ones are tested above.*", "",
                _md_row(head), "|" + "---|" * len(head), *(_md_row(r) for r in rows), ""]
    return "\n".join(out)


def write_comparison(base: Path, variant: Path, out: Path | None = None,
                     markdown: Path | None = None, paired: bool | None = None
                     ) -> CompareReport:
    """Read two results files, compare them (variant minus base) and write the HTML page
    (default: compare.html) and the Markdown summary (default: beside it, .md)."""
    html_path = out if out is not None else Path("compare.html")
    if html_path.suffix.lower() not in (".html", ".htm"):
        raise KamonError(f"--out {html_path}: the comparison is an HTML file (.html)")
    md_path = markdown if markdown is not None else html_path.with_suffix(".md")
    base_table, variant_table = load(base), load(variant)
    comparison = compare_tables(base_table, variant_table, base.name, variant.name, paired)
    drawn = [f for f in comparison.families if f.findings]
    images = [png_of(draw_family(f, comparison)) for f in drawn]
    story = compare_stories(base, base_table, variant, variant_table)
    page = html_of(comparison, images)
    page = page.replace("</body>", "\n".join(story.html) + "\n</body>", 1)
    try:
        html_path.write_text(page, encoding="utf-8")
        md_path.write_text(markdown_of(comparison).rstrip("\n") + "\n\n"
                           + "\n".join(story.markdown), encoding="utf-8")
    except OSError as exc:
        raise KamonError(f"cannot write the comparison: {exc.strerror} ({exc.filename})"
                         ) from None
    return CompareReport(html_path, md_path, comparison, len(images))
