"""The story of a game (`kamon.sim.story`): lead changes, drama and decisiveness on hand-made
logs whose answers are known, the decision logs of `kamon simulate --decisions` (one row
per decision, the final totals those of the results, resumable, refused when foreign),
and their sections in `kamon report` and in the compare section, for both games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.sim.backends import LocalBackend
from kamon.sim.report import write_report
from kamon.sim.results import key_of, read_results
from kamon.sim.runner import SimSpec
from kamon.sim.simulation import run_simulation
from kamon.sim.story import (
    compare_stories,
    decisions_path,
    decisions_table,
    early_choices,
    game_stories,
    read_decisions,
    story_of,
    summarise,
)

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "160"}
WC = SimSpec("white-castle", 3, ("random",) * 3, {}, decisions=True)
CS = SimSpec("clansman", 4, ("random",) * 4, {}, decisions=True)


def test_a_game_with_known_lead_changes_drama_and_decisiveness() -> None:
    """Totals after each decision of a 3-clan game the winner (clan 2) came back in."""
    totals = np.array([
        [0, 0, 0],  # all tied: no sole leader yet
        [2, 0, 0],  # clan 0 leads; the winner trails by 2
        [2, 0, 3],  # clan 2 leads (change 1)
        [5, 0, 3],  # clan 0 (change 2); the winner trails by 2
        [5, 6, 3],  # clan 1 (change 3); the winner trails by 3 (largest)
        [5, 6, 6],  # tied at the top: the lead stays with clan 1; not behind
        [5, 6, 9],  # clan 2 (change 4)
        [5, 6, 9],
    ])
    changes, trailed, deficit, settled = story_of(totals, [2])
    assert (changes, trailed, deficit) == (4, True, 3)
    assert settled == 5 / 8  # behind after decision 5 at the latest


def test_a_wire_to_wire_win_and_a_shared_victory() -> None:
    """A winner never behind: no drama, settled from the start; of two shared winners, the
    better total counts."""
    totals = np.array([[1, 0], [2, 1], [4, 3]])
    assert story_of(totals, [0]) == (0, False, 0, 0.0)
    assert story_of(np.array([[0, 2], [3, 2]]), [0, 1]) == (1, False, 0, 0.0)


def _results(games: list[tuple[int, list[bool]]]) -> pa.Table:
    """Result rows of hand-made games: (seed, winner flag of each seat)."""
    rows = [{"seed": s, "rotation": 0, "seat": q + 1, "winner": w,
             "win_share": 1.0 if w else 0.0}
            for s, flags in games for q, w in enumerate(flags)]
    return pa.Table.from_pylist(rows)


def test_stories_and_their_summary_from_a_hand_made_log() -> None:
    """Two 2-clan games as a decisions table: one comeback, one wire-to-wire win."""
    key = WC.key
    logs = [decisions_table({"seed": [1] * 4, "rotation": [0] * 4, "decision": [1, 2, 3, 4],
                             "round": [1, 1, 2, 2], "seat": [1, 2, 1, 2],
                             "action": [77, 78, 0, 1],
                             "scores": [[1, 0], [1, 0], [1, 3], [1, 3]]}, key),
            decisions_table({"seed": [2] * 2, "rotation": [0] * 2, "decision": [1, 2],
                             "round": [1, 1], "seat": [2, 1], "action": [77, 78],
                             "scores": [[0, 1], [0, 2]]}, key)]
    table = pa.concat_tables(logs)
    results = _results([(1, [False, True]), (2, [False, True])])
    stories = game_stories(table, results)
    assert [(s.seed, s.lead_changes, s.trailed, s.max_deficit, s.settled) for s in stories] \
        == [(1, 1, True, 1, 0.5), (2, 0, False, 0, 0.0)]
    by = {m.name: m for m in summarise(stories)}
    assert by["lead changes"].value == 0.5
    assert by["drama: the winner trailed"].value == 0.5
    assert by["drama: the winner's largest deficit"].value == 1.0
    assert by["decisiveness: settled after"].value == 25.0
    picks, in_round, order = early_choices(table, results, "white-castle")
    assert picks == []  # each first pick made once: under the table's minimum
    assert [(c.label, c.n, c.wins) for c in order] == [("moved 1st", 2, 1.0),
                                                       ("moved 2nd", 2, 1.0)]
    assert in_round == []


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Logged runs of both games (tiny, random players) as Parquet files."""
    d = tmp_path_factory.mktemp("story")
    out = {"wc": d / "wc.parquet", "cs": d / "cs.parquet", "wc2": d / "wc2.parquet"}
    run_simulation(WC, 0, 12, LocalBackend(1), out["wc"])
    run_simulation(CS, 0, 4, LocalBackend(1), out["cs"])
    run_simulation(WC, 100, 12, LocalBackend(1), out["wc2"])
    return out


@pytest.mark.parametrize("name", ["wc", "cs"])
def test_the_log_has_every_decision_and_ends_on_the_results_totals(
        runs: dict[str, Path], name: str) -> None:
    """One row per decision of each game (game_decisions of the results), numbered 1..n,
    and the totals after the last one are the results' score totals."""
    results = read_results(runs[name])
    log = read_decisions(decisions_path(runs[name]), key_of(results))
    first = results.filter(pa.compute.equal(results["seat"], 1))
    for seed, n in zip(first["seed"].to_pylist(), first["game_decisions"].to_pylist(),
                       strict=True):
        mine = log.filter(pa.compute.equal(log["seed"], seed))
        assert mine["decision"].to_pylist() == list(range(1, n + 1))
        totals = results.filter(pa.compute.equal(results["seed"], seed))["score_total"]
        assert mine["scores"][-1].as_py() == totals.to_pylist()


@pytest.mark.parametrize("name", ["wc", "cs"])
def test_report_tells_the_story_for_both_games(runs: dict[str, Path], name: str,
                                                tmp_path: Path) -> None:
    """The report's HTML and Markdown have the lead changes, drama and decisiveness."""
    done = write_report(runs[name], tmp_path / "r.html")
    assert done.story is not None and done.story.games == (12 if name == "wc" else 4)
    md = done.markdown.read_text(encoding="utf-8")
    page = done.html.read_text(encoding="utf-8")
    for text in ("## The story of a game", "| lead changes |", "drama: the winner trailed",
                 "decisiveness: settled after", "moved 1st"):
        assert text in md
    assert '<section id="story">' in page and "lead changes" in page


def test_a_run_without_logs_has_no_story(tmp_path: Path) -> None:
    """Without --decisions nothing is written beside the results, and no section shown."""
    out = tmp_path / "plain.parquet"
    run_simulation(SimSpec("white-castle", 2, ("random",) * 2, {}), 0, 2, LocalBackend(1),
                   out)
    assert not decisions_path(out).exists()
    assert write_report(out, tmp_path / "r.html").story is None


def test_a_resumed_run_merges_its_logs(tmp_path: Path) -> None:
    """Two runs into one file log every game once, like one run of all the seeds."""
    out = tmp_path / "r.parquet"
    run_simulation(WC, 0, 3, LocalBackend(1), out)
    run_simulation(WC, 0, 5, LocalBackend(1), out, size=1)
    assert not (tmp_path / "r.parquet.parts").exists()
    whole = tmp_path / "whole.parquet"
    run_simulation(WC, 0, 5, LocalBackend(1), whole)
    assert pq.read_table(decisions_path(out)).equals(pq.read_table(decisions_path(whole)))


def test_a_foreign_log_is_refused_before_any_work(runs: dict[str, Path], tmp_path: Path
                                                  ) -> None:
    """A decisions file of another run beside --out stops the run, nothing written."""
    out = tmp_path / "x.parquet"
    decisions_path(out).write_bytes(decisions_path(runs["cs"]).read_bytes())
    with pytest.raises(KamonError, match="holds the decisions of clansman"):
        run_simulation(WC, 0, 2, LocalBackend(1), out)
    assert not out.exists()


def test_compare_puts_the_stories_side_by_side(runs: dict[str, Path], tmp_path: Path) -> None:
    """Both runs logged: a row per measure; one without logs: a line saying so."""
    a, b = read_results(runs["wc"]), read_results(runs["wc2"])
    done = compare_stories(runs["wc"], a, runs["wc2"], b)
    md = "\n".join(done.markdown)
    assert "| lead changes per game |" in md and "12 / 12" in md
    plain = tmp_path / "plain.parquet"
    run_simulation(SimSpec("white-castle", 3, ("random",) * 3, {}), 0, 2, LocalBackend(1),
                   plain)
    line = "\n".join(compare_stories(runs["wc"], a, plain, read_results(plain)).markdown)
    assert "Not compared: no decision logs (plain.decisions.parquet)" in line


def test_the_compare_page_carries_the_story_section(runs: dict[str, Path], tmp_path: Path
                                                    ) -> None:
    """kamon compare's HTML page and Markdown summary end with the stories side by side."""
    from kamon.sim.compare_report import write_comparison
    made = write_comparison(runs["wc"], runs["wc2"], tmp_path / "c.html")
    page = made.html.read_text(encoding="utf-8")
    assert page.index('id="story"') < page.index("</body>")
    assert "| lead changes per game |" in made.markdown.read_text(encoding="utf-8")


def test_decisions_needs_a_results_file(tmp_path: Path) -> None:
    """--decisions without a .parquet/.csv --out is refused with the reason."""
    res = CliRunner(env=ENV).invoke(app, ["simulate", "white-castle", "--games", "1",
                                          "--decisions"])
    assert res.exit_code != 0 and "--decisions needs --out" in res.output
    res = CliRunner(env=ENV).invoke(app, ["simulate", "white-castle", "--games", "1",
                                          "--decisions", "--out", str(tmp_path / "g.jsonl")])
    assert res.exit_code != 0 and "--decisions needs --out" in res.output
    assert not (tmp_path / "g.jsonl").exists()


def test_the_commands_write_and_read_the_logs(tmp_path: Path) -> None:
    """`kamon simulate --decisions` says where the logs went; `kamon report` tells the
    story in its closing lines."""
    out = tmp_path / "r.parquet"
    cli = CliRunner(env=ENV)
    res = cli.invoke(app, ["simulate", "white-castle", "--players", "2", "--games", "2",
                           "--decisions", "--out", str(out)])
    assert res.exit_code == 0, res.output
    logged = pq.read_table(decisions_path(out)).num_rows
    assert logged > 0 and f"{logged:,} decisions of the games played now logged" in res.output
    res = cli.invoke(app, ["report", str(out)])
    assert res.exit_code == 0, res.output
    assert "The story of a game: The lead changed" in res.output
