"""`kamon compare`: the paired design found for two runs of the same seeds, the changed score
category reported as more than chance, a run against itself showing nothing, the HTML page
and Markdown summary, and the refusals (other game, other player count, not results)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.sim.backends import LocalBackend
from kamon.sim.compare import Comparison, compare_tables
from kamon.sim.compare_report import write_comparison
from kamon.sim.results import read_results
from kamon.sim.runner import SimSpec
from kamon.sim.simulation import run_simulation

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "160"}
GAMES = 60
# Every plant garden card worth 30 CP instead of 5-9: the gardeners score must rise.
OVERLAY = {"gardens": {"cards": [{"id": f"plant_{i}", "cp": 30} for i in range(1, 6)]}}
Runs = dict[str, Path]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    """60 games of 2-player White Castle (random agents), with and without the overlay;
    the base again as CSV from other seeds, 3 players, and 4 games of I, Clansman."""
    d = tmp_path_factory.mktemp("cmp")
    out = {"base": d / "base.parquet", "variant": d / "variant.parquet",
           "other_seeds": d / "other.csv", "three": d / "three.parquet",
           "clansman": d / "cs.parquet"}
    wc = SimSpec("white-castle", 2, ("random", "random"), {})
    run_simulation(wc, 0, GAMES, LocalBackend(1), out["base"])
    run_simulation(SimSpec("white-castle", 2, ("random", "random"), {"data_overlay": OVERLAY}),
                   0, GAMES, LocalBackend(1), out["variant"])
    run_simulation(wc, 10_000, GAMES, LocalBackend(1), out["other_seeds"])
    run_simulation(SimSpec("white-castle", 3, ("random",) * 3, {}), 0, 4, LocalBackend(1),
                   out["three"])
    run_simulation(SimSpec("clansman", 4, ("random",) * 4, {}), 0, 2, LocalBackend(1),
                   out["clansman"])
    return out


def compared(runs: Runs, base: str, variant: str, **kw: object) -> Comparison:
    return compare_tables(read_results(runs[base]), read_results(runs[variant]), base,
                          variant, **kw)  # type: ignore[arg-type]


def finding(c: Comparison, family: str, subject: str):  # type: ignore[no-untyped-def]
    found = [f for f in c.findings if f.family == family and f.subject == subject]
    assert found, f"no {subject} in {family}: {[f.subject for f in c.findings]}"
    return found[0]


def test_overlay_run_is_paired_and_the_changed_category_shows(runs: Runs) -> None:
    """Same seeds: the paired design; the gardeners score rises, more than chance, and the
    sentence says so with its numbers; the overlay is named as the difference."""
    c = compared(runs, "base", "variant")
    assert c.design == "paired" and c.games_paired == GAMES
    assert any(d.startswith("data_overlay: none in the base") for d in c.differences)
    g = finding(c, "scores", "gardeners")
    assert g.variant > g.base and g.diff.low > 0 and g.significant
    assert g.p_adjusted < 0.05
    text = g.sentence()
    assert "paired by seed over 60 games" in text and text.endswith("more than chance.")
    assert f"{g.variant:.2f} against {g.base:.2f}" in text
    # categories the overlay cannot touch stay put
    assert not finding(c, "scores", "warriors").significant
    # the BH adjustment: never below the raw p, monotone in it
    ps = sorted((f.diff.p, f.p_adjusted) for f in c.findings)
    assert all(adj >= p for p, adj in ps)
    assert all(a[1] <= b[1] for a, b in zip(ps, ps[1:], strict=False))
    # every seat, the turn order, the game length and the margin are compared
    families = {f.family for f in c.findings}
    assert {"seat", "turn", "seat_score", "scores", "game"} <= families
    subjects = {f.subject for f in c.findings if f.family == "game"}
    assert {"length (decisions)", "margin of victory"} <= subjects


def test_a_run_against_itself_shows_nothing(runs: Runs) -> None:
    """Compared with itself: every difference 0, p = 1, nothing significant."""
    c = compared(runs, "base", "base")
    assert c.design == "paired" and c.findings
    assert not c.significant
    assert all(f.diff.estimate == 0 and f.p_adjusted == 1.0 for f in c.findings)


def test_other_seeds_are_unpaired(runs: Runs) -> None:
    """Runs of different seeds (one CSV): unpaired, two-proportion and Welch tests."""
    c = compared(runs, "base", "other_seeds")
    assert c.design == "unpaired" and c.games_paired == 0
    seat = finding(c, "seat", "seat 1 (blue)")
    assert seat.diff.method == "two-proportion z"
    assert finding(c, "scores", "total").diff.method == "Welch t"
    assert "unpaired, 60 against 60 games" in seat.sentence()
    with pytest.raises(KamonError, match="do not share enough games"):
        compared(runs, "base", "other_seeds", paired=True)
    forced = compared(runs, "base", "variant", paired=False)
    assert forced.design == "unpaired"


def test_refusals(runs: Runs, tmp_path: Path) -> None:
    """Another game, another player count, a file that is not results: refused, why said."""
    with pytest.raises(KamonError, match="different games"):
        compared(runs, "base", "clansman")
    with pytest.raises(KamonError, match=r"2 players\) with three \(3 players\)"):
        compared(runs, "base", "three")
    bogus = tmp_path / "bogus.parquet"
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"x": [1, 2]}), bogus)
    with pytest.raises(KamonError, match="not kamon simulation results"):
        write_comparison(runs["base"], bogus, tmp_path / "c.html")


def test_html_and_markdown(runs: Runs, tmp_path: Path) -> None:
    """The page embeds a figure per family and says the findings; the Markdown beside it
    holds the same sentences and the games behind every table."""
    done = write_comparison(runs["base"], runs["variant"], tmp_path / "compare.html")
    assert done.markdown == tmp_path / "compare.md"
    page = done.html.read_text()
    md = done.markdown.read_text()
    images = re.findall(r'src="data:image/png;base64,', page)
    assert len(images) == done.figures >= 5
    g = finding(done.comparison, "scores", "gardeners")
    import html
    assert html.escape(g.sentence()) in page
    assert g.sentence() in md
    assert "## What changed" in md and "paired by seed (and seat): 60 games" in md
    assert md.count("*60 games paired by seed;") == done.figures
    assert "(n=60)" not in md  # n is in the figures' labels and the tables' games column
    assert "60 paired" in md


def test_cli(runs: Runs, tmp_path: Path) -> None:
    """`kamon compare BASE VARIANT --out`: the findings printed, files written; a refusal
    is one red line and exit code 2."""
    cli = CliRunner()
    out = tmp_path / "c.html"
    res = cli.invoke(app, ["compare", str(runs["base"]), str(runs["variant"]), "--out",
                           str(out)], env=ENV)
    assert res.exit_code == 0, res.output
    assert "paired by seed over 60 games" in res.output
    assert "gardeners score" in res.output
    assert out.exists() and out.with_suffix(".md").exists()
    res = cli.invoke(app, ["compare", str(runs["base"]), str(runs["clansman"]), "--out",
                           str(out)], env=ENV)
    assert res.exit_code == 2
    assert "error: cannot compare" in res.output and "different games" in res.output
    res = cli.invoke(app, ["compare", str(runs["base"]), str(tmp_path / "nope.txt")],
                     env=ENV)
    assert res.exit_code == 2 and "results are .parquet or .csv" in res.output


def test_partially_overlapping_seeds_pair_on_the_shared_ones(runs: Runs, tmp_path: Path
                                                             ) -> None:
    """60 games against 20 of the same seeds (the issue's 2,000 against 400): paired on the
    20, and the page and the command line say so; --paired and --unpaired both work, and
    an unpaired page says why it is unpaired."""
    import pyarrow.compute as pc

    from kamon.sim.compare_report import run_lines
    from kamon.sim.results import write_results
    short = read_results(runs["variant"])
    short = short.filter(pc.less(short["seed"], 20))
    path = tmp_path / "short.parquet"
    write_results(short, path)
    c = compare_tables(read_results(runs["base"]), short, "base", "short")
    assert c.design == "paired" and c.games_paired == 20
    assert (c.games_base, c.games_variant) == (60, 20)
    assert any("40 games whose seed only one run played are left out" in n for n in c.notes)
    design = dict(run_lines(c))["Design"]
    assert "20 games both runs played (of 60 and 20: only the shared seeds" in design
    cli = CliRunner()
    res = cli.invoke(app, ["compare", str(runs["base"]), str(path), "--paired", "--out",
                           str(tmp_path / "p.html")], env=ENV)
    assert res.exit_code == 0, res.output
    assert "paired by seed over 20 games (the seeds both played, of 60 and 20)" in res.output
    res = cli.invoke(app, ["compare", str(runs["base"]), str(path), "--unpaired", "--out",
                           str(tmp_path / "u.html")], env=ENV)
    assert res.exit_code == 0 and "asked with --unpaired (the runs share 20 games)" in \
        res.output
    res = cli.invoke(app, ["compare", str(runs["base"]), str(runs["other_seeds"]),
                           "--paired", "--out", str(tmp_path / "x.html")], env=ENV)
    assert res.exit_code == 2 and "do not share enough games" in res.output
    other = compared(runs, "base", "other_seeds")
    assert dict(run_lines(other))["Design"] == "unpaired (the runs do not share their seeds)"


def test_p_values_stay_on_their_side_of_alpha(runs: Runs) -> None:
    """An adjusted p of 0.04977 is 'more than chance' and never shown as 0.05; one of
    0.0502 is 'within chance' and shown as 0.050."""
    from dataclasses import replace

    from kamon.sim.compare import p_text
    c = compared(runs, "base", "variant")
    f = replace(finding(c, "scores", "gardeners"), p_adjusted=0.04977, significant=True)
    assert "adjusted p = 0.0498): more than chance." in f.sentence()
    g = replace(f, p_adjusted=0.0502, significant=False)
    assert "adjusted p = 0.050): within chance." in g.sentence()
    for p in np.linspace(0.001, 0.2, 4001):
        text = p_text(float(p))
        shown = float(text.lstrip("<> "))
        assert (shown < 0.05) == (p < 0.05) or text.startswith("<"), (p, text)


def test_rare_and_degenerate_groups_are_listed_not_tested(runs: Runs) -> None:
    """A card held in fewer than MIN_GAMES games of a run is listed, not tested; a paired
    group held in few games gets its p from the swap test; a rate whose interval has no
    width ('CI -50.0 to -50.0') is not a finding."""
    from kamon.sim.compare import MIN_GAMES, SWAP_GAMES, Family, compare_sums
    fam = Family("by_x", "x", "rate", counted="clans holding")
    n = 200
    rare = np.zeros(n)
    rare[:MIN_GAMES - 1] = 1  # held in 9 games of each run
    few = np.zeros(n)
    few[:40] = 1
    rng = np.random.default_rng(1)
    wins_b, wins_v = few * rng.integers(0, 2, n), few * rng.integers(0, 2, n)
    always = few.copy()
    compare_sums(fam, {"rare": (rare, rare), "few": (wins_b, few), "flat": (0 * few, few)},
                 {"rare": (rare, rare), "few": (wins_v, few), "flat": (always, few)},
                 "paired")
    assert [f.subject for f in fam.findings] == ["few"]
    assert fam.findings[0].diff.p_from == "swap test" and SWAP_GAMES > 40
    assert any(s.startswith("rare (9 and 9 clans holding, in 9 and 9 games)")
               for s in fam.skipped)
    assert any(s.startswith("flat (no spread to test") for s in fam.skipped)


def test_the_page_explains_its_words(runs: Runs, tmp_path: Path) -> None:
    """The page and the summary carry a glossary (BH, adjusted p, holders, n...), and a
    card's table counts clans holding."""
    done = write_comparison(runs["base"], runs["variant"], tmp_path / "g.html")
    page, md = done.html.read_text(), done.markdown.read_text()
    for word in ("BH, adjusted p", "holders", "swap test", "95% interval"):
        assert f"<dt>{word}</dt>" in page and f"- **{word}**:" in md
    assert "Benjamini-Hochberg (BH)" in md
    assert "clans holding (base / variant)" in md
