"""`kamon report`: the numbers behind every figure (recomputed here from the rows), what the
figures draw, the HTML page and Markdown summary, and files that are not results refused."""

from __future__ import annotations

import base64
import io
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib.image as mpimg
import numpy as np
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.games.white_castle.features import value_words
from kamon.sim.analysis import Analysis, Chart, analyse
from kamon.sim.backends import LocalBackend
from kamon.sim.report import draw, numbers, write_report
from kamon.sim.results import read_results
from kamon.sim.runner import SimSpec
from kamon.sim.simulation import run_simulation
from kamon.sim.stats import wilson

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "160"}
Sim = tuple[Path, pa.Table, Analysis]  # a results file, its rows and its analysis
WC = SimSpec("white-castle", 4, ("greedy", "random", "random", "random"), {})
CS = SimSpec("clansman", 4, ("random",) * 4, {"expert": True, "emperor_side": "A"})


@pytest.fixture(scope="module")
def wc(tmp_path_factory: pytest.TempPathFactory) -> Sim:
    """40 White Castle games (greedy in seat 1) as Parquet, its rows and its analysis."""
    out = tmp_path_factory.mktemp("wc") / "wc.parquet"
    run_simulation(WC, 0, 40, LocalBackend(1), out)
    table = read_results(out)
    return out, table, analyse(table)


@pytest.fixture(scope="module")
def cs(tmp_path_factory: pytest.TempPathFactory) -> Sim:
    """30 Expert I, Clansman games as CSV, its rows and its analysis."""
    out = tmp_path_factory.mktemp("cs") / "cs.csv"
    run_simulation(CS, 0, 30, LocalBackend(1), out)
    table = read_results(out)
    return out, table, analyse(table)


def chart(analysis: Analysis, key: str) -> Chart:
    """The chart with this key."""
    found = [c for c in analysis.charts if c.key == key]
    assert found, f"no chart {key}; have {[c.key for c in analysis.charts]}"
    return found[0]


def rates_by(rows: list[dict[str, Any]], key: Callable[[dict[str, Any]], list[str]]
             ) -> dict[str, tuple[int, float]]:
    """(seat results, wins) per group, computed plainly from the rows."""
    out: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for r in rows:
        for k in key(r):
            out[k][0] += 1
            out[k][1] += r["win_share"]
    return {k: (int(v[0]), v[1]) for k, v in out.items()}


def check_rates(c: Chart, expected: dict[str, tuple[int, float]]) -> None:
    """A rates chart holds exactly the expected groups, counts, wins and intervals."""
    got = {b.label: (b.n, b.wins) for b in c.bars}
    assert got.keys() == expected.keys()
    for label, (n, wins) in expected.items():
        assert got[label][0] == n and got[label][1] == pytest.approx(wins)
    for b in c.bars:
        assert b.interval == pytest.approx(wilson(b.wins, b.n))


def test_win_rates_by_seat_agent_and_turn_order_match_the_rows(wc: Sim) -> None:
    """Seat, agent and first-player charts equal plain counts over the rows."""
    _, table, a = wc
    rows = table.to_pylist()
    assert (a.games, a.rows, a.agents) == (40, 160, list(WC.agents))
    check_rates(chart(a, "seat"), rates_by(rows, lambda r: [f"seat {r['seat']} ({r['colour']})"]))
    check_rates(chart(a, "agent"), rates_by(rows, lambda r: [r["agent"]]))
    first = chart(a, "first_player")
    ordinals = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
    check_rates(first, rates_by(rows, lambda r: [f"{ordinals[r['turn_position']]} player"]))
    assert [b.label for b in first.bars] == ["1st player", "2nd player", "3rd player",
                                             "4th player"]
    assert chart(a, "seat").baseline == 0.25
    greedy = next(b for b in chart(a, "agent").bars if b.label == "greedy")
    assert greedy.rate > 0.5  # greedy against random: the chart shows the gap
    assert "greedy" in chart(a, "agent").reading


def test_white_castle_groupings_match_the_rows(wc: Sim) -> None:
    """By starting pair (one value a row) and by castle card (each card a row took)."""
    _, table, a = wc
    rows = table.to_pylist()
    check_rates(chart(a, "by_start_pair"), rates_by(rows, lambda r: [r["start_pair"]]))
    named = value_words  # the report names each card (the rulebook's name, then its id)
    cards = chart(a, "by_castle_cards")
    check_rates(cards, rates_by(rows, lambda r: [named(c) for c in r["castle_cards"].split(";")
                                                 if c]))
    assert "Diplomat card" in " ".join(b.label for b in cards.bars)
    took = [r for r in rows if r["castle_cards"]]
    assert cards.rows == len(took) and cards.games == len({r["seed"] for r in took})
    assert cards.title == "Win rate by castle card taken"
    check_rates(chart(a, "by_gardens"),
                rates_by(rows, lambda r: [named(g) for g in r["gardens"].split(";") if g]))


def test_score_boxes_are_the_quartiles_of_each_category(wc: Sim) -> None:
    """Mean, quartiles and range of each score category over every row."""
    _, table, a = wc
    boxes = {b.label: b for b in chart(a, "scores").boxes}
    assert list(boxes)[-1] == "total" and "gardeners" in boxes
    for label, box in boxes.items():
        vals = np.array(table["score_" + label.replace(" ", "_")].to_pylist())
        assert box.n == len(vals) == 160
        assert box.mean == pytest.approx(vals.mean())
        assert (box.q1, box.median, box.q3) == pytest.approx(tuple(np.percentile(vals,
                                                                                  [25, 50, 75])))
        assert (box.low, box.high) == (vals.min(), vals.max())


def test_clansman_charts_by_clan_mission_and_century(cs: Sim) -> None:
    """Starting clan and missions as win rates; missions per century for winners/others."""
    _, table, a = cs
    rows = table.to_pylist()
    check_rates(chart(a, "by_starting_clan"), rates_by(rows, lambda r: [r["starting_clan"]]))
    check_rates(chart(a, "by_missions"),
                rates_by(rows, lambda r: [m for m in r["missions"].split(";") if m]))
    prof = chart(a, "profile_missions_c4_missions_c5_missions_c6_missions_c7")
    winners = [r for r in rows if r["winner"]]
    others = [r for r in rows if not r["winner"]]
    for i, c in enumerate((4, 5, 6, 7)):
        assert prof.profile["winners"][i] == pytest.approx(
            np.mean([r[f"missions_c{c}"] for r in winners]))
        assert prof.profile["the others"][i] == pytest.approx(
            np.mean([r[f"missions_c{c}"] for r in others]))
    assert prof.profile_rows == {"winners": len(winners), "the others": len(others)}
    assert prof.profile_labels == ["4th century", "5th century", "6th century", "7th century"]


def test_figures_draw_the_charts_numbers(wc: tuple, cs: Sim) -> None:
    """Bar lengths are the win rates, tick labels carry n, titles the games; boxes and the
    century profile likewise."""
    for _, _, a in (wc, cs):
        for c in a.charts:
            fig = draw(c)
            ax = fig.axes[0]
            assert f"{c.games:,} games" in ax.get_title()
            if c.kind == "rates":
                widths = [p.get_width() for p in ax.patches]
                assert widths == pytest.approx([100 * b.rate for b in c.bars])
                ticks = [t.get_text() for t in ax.get_yticklabels()]  # top to bottom
                assert ticks == [f"{b.label}  (n={b.n:,})" for b in c.bars]
            elif c.kind == "boxes":
                assert [t.get_text() for t in ax.get_yticklabels()][::-1] == \
                    [b.label for b in c.boxes]
            else:
                heights = [p.get_height() for p in ax.patches]
                assert heights == pytest.approx(c.profile["winners"] + c.profile["the others"])


def test_html_page_and_markdown_summary(wc: Sim, tmp_path: Path) -> None:
    """One section per chart: title, games, an embedded PNG of the figure, the reading and
    the numbers; the Markdown has the same readings and tables."""
    src, _, a = wc
    done = write_report(src, tmp_path / "report.html")
    page = done.html.read_text()
    md = done.markdown.read_text()
    assert done.markdown == tmp_path / "report.md" and done.figures == len(a.charts) >= 8
    charts = "".join(page[page.index(f'<section id="{c.key}">'):].split("</section>")[0]
                     for c in a.charts)  # later sections (head to head, ...) draw their own
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', charts)
    assert len(images) == len(a.charts)
    for data in images:
        pixels = mpimg.imread(io.BytesIO(base64.b64decode(data)), format="png")
        assert pixels.shape[1] == 850 and pixels.shape[0] > 150  # 8.5 in at 100 dpi
    assert "The White Castle" in page and "40 (seeds 0-39), 160 seat results" in page
    for c in a.charts:
        section = page[page.index(f'<section id="{c.key}">'):]
        section = section[:section.index("</section>")]
        assert f"<h2>{c.title}</h2>" in section
        assert f"{c.games:,} games, {c.rows:,} seat results" in section
        assert c.reading.replace("&", "&amp;") in section
        head, rows = numbers(c)
        assert f"## {c.title}" in md and c.reading in md
        assert "| " + " | ".join(rows[0]) + " |" in md
    for title in ("Win rate by starting pair", "Win rate by castle card taken",
                  "First-player advantage: win rate by turn order"):
        assert f"<h2>{title}</h2>" in page


def test_cli_report_writes_beside_the_results(cs: Sim, tmp_path: Path) -> None:
    """kamon report cs.csv: cs.html and cs.md beside it; each chart's reading printed."""
    src, _, a = cs
    copy = tmp_path / "cs.csv"
    copy.write_bytes(src.read_bytes())
    res = CliRunner(env=ENV).invoke(app, ["report", str(copy)])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "cs.html").is_file() and (tmp_path / "cs.md").is_file()
    assert f"{len(a.charts)} figures from 30 games" in res.output
    html = (tmp_path / "cs.html").read_text()
    for title in ("Win rate by starting clan", "Win rate by mission obtained",
                  "Missions obtained by century: winners and the others"):
        assert f"<h2>{title}</h2>" in html


@pytest.mark.parametrize("name, content, message", [
    ("notes.csv", "when,what\nmonday,rain\n", "not kamon simulation results: its header lacks"),
    ("data.parquet", "PAR1 not really", "cannot read it as PARQUET"),
    ("results.json", "{}", "results are .parquet or .csv files"),
    ("missing.parquet", None, "no such file"),
])
def test_report_refuses_what_is_not_kamon_results(tmp_path: Path, name: str,
                                                  content: str | None, message: str) -> None:
    """A clear one-line refusal, exit 2, and no report written."""
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    res = CliRunner(env=ENV).invoke(app, ["report", str(path), "--out",
                                          str(tmp_path / "r.html")])
    assert res.exit_code == 2
    assert message in res.output
    assert not (tmp_path / "r.html").exists()
