"""The skill matrix: head-to-head rates (ahead of the other, ties 1/2, several seats by
their mean) with Wilson intervals on the games both played, openskill ratings as
`kamon tournament` computes them, and its section in the HTML and Markdown report."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from kamon.sim.analysis import analyse
from kamon.sim.backends import LocalBackend
from kamon.sim.ratings import rate
from kamon.sim.report import write_report
from kamon.sim.results import read_results
from kamon.sim.runner import SimSpec
from kamon.sim.simulation import run_simulation
from kamon.sim.skill import skill_matrix
from kamon.sim.tournament import run_tournament


def hand_table() -> pa.Table:
    """13 three-seat games of hard (H), normal (N) and random (R), placements by hand:
    0-6: H 1st, N 2nd, R 3rd; 7-9: N 1st, H 2nd, R 3rd; 10-11: N 1st, H 2nd, N 3rd (no
    R); 12: H and R share 1st, N 3rd."""
    games: list[list[tuple[str, int]]] = (
        [[("hard", 1), ("normal", 2), ("random", 3)]] * 7
        + [[("hard", 2), ("normal", 1), ("random", 3)]] * 3
        + [[("normal", 1), ("hard", 2), ("normal", 3)]] * 2
        + [[("hard", 1), ("normal", 3), ("random", 1)]])
    rows = [{"players": 3, "seed": 100 + g // 3, "rotation": g % 3, "seat": q + 1,
             "agent": agent, "placement": place}
            for g, clans in enumerate(games) for q, (agent, place) in enumerate(clans)]
    return pa.Table.from_pylist(rows)


def test_a_hand_made_table_gives_the_known_rates_and_intervals() -> None:
    """hard vs normal: ahead in 7 + 1, half of each of the 2 games with two normal seats,
    so 9 of 13; hard vs random: 10 and a tie, 10.5 of 11 (random is absent from 2 games);
    a pair's two cells add up to its games."""
    m = skill_matrix(hand_table())
    assert m is not None and m.games == 13
    hn = m.duel("hard", "normal")
    assert hn is not None and hn.games == 13 and hn.ahead == pytest.approx(9.0)
    assert hn.interval == pytest.approx((0.42369, 0.87319), abs=1e-5)
    hr = m.duel("hard", "random")
    assert hr is not None and (hr.games, hr.ahead) == (11, 10.5)
    assert hr.interval == pytest.approx((0.67855, 0.99524), abs=1e-5)
    nr = m.duel("normal", "random")
    assert nr is not None and (nr.games, nr.ahead) == (11, 10.0)
    for (a, b), d in m.duels.items():
        back = m.duel(b, a)
        assert back is not None and back.games == d.games
        assert d.ahead + back.ahead == pytest.approx(d.games)
    assert m.duel("hard", "hard") is None
    assert not hn.clear and hr.clear
    assert m.agents == [r.agent for r in m.ratings] and m.agents[0] == "hard"
    assert "hard finishes ahead of random in 95.5% (67.9-99.5%) of 11 games" in m.reading


def test_ratings_are_the_tournaments_own() -> None:
    """A tournament's rows give, through the matrix, exactly the tournament's ratings."""
    result = run_tournament("white-castle", ["greedy", "random", "easy"], 6, 3, seed=2,
                            rows=True)
    m = skill_matrix(result.table())
    assert m is not None
    want = result.ratings()
    assert [(r.agent, r.mu, r.sigma) for r in m.ratings] == \
        [(r.agent, r.mu, r.sigma) for r in want]
    assert rate([]) == []


def test_one_agent_has_no_matrix() -> None:
    """A table of one agent (and a solo rival) has no head-to-head matrix."""
    rows = [{"players": 1, "seed": s, "rotation": 0, "seat": q, "placement": q,
             "agent": "random" if q == 1 else "tokugawa (rival)"}
            for s in range(3) for q in (1, 2)]
    assert skill_matrix(pa.Table.from_pylist(rows)) is None


@pytest.fixture(scope="module")
def normal_vs_random(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """normal against random, 2 players, 10 deals x 2 rotations = 20 games."""
    out = tmp_path_factory.mktemp("skill") / "nr.parquet"
    run_simulation(SimSpec("white-castle", 2, ("normal", "random"), {}, rotate=True), 0, 10,
                   LocalBackend(1), out)
    return out


def test_normal_is_clearly_ahead_of_random(normal_vs_random: Path) -> None:
    """In 20 rotated games normal finishes ahead of random with an interval above 50%,
    and rates first."""
    a = analyse(read_results(normal_vs_random))
    assert a.games == 20 and a.seating == "rotated"
    m = a.skill
    assert m is not None and m.games == 20
    d = m.duel("normal", "random")
    assert d is not None and d.games == 20 and d.interval[0] > 0.5 and d.clear
    assert m.agents == ["normal", "random"]


def test_the_report_shows_the_matrix(normal_vs_random: Path, tmp_path: Path) -> None:
    """The HTML has the section with its figure and tables; the Markdown its table rows."""
    done = write_report(normal_vs_random, tmp_path / "r.html")
    m = done.analysis.skill
    assert m is not None
    d = m.duel("normal", "random")
    assert d is not None
    page = done.html.read_text()
    assert '<section id="head_to_head">' in page and "Head to head" in page
    section = page.split('<section id="head_to_head">')[1].split("</section>")[0]
    assert section.count('<img alt="Head to head') == 1 and section.count("<table>") == 2
    assert "normal finishes ahead of random" in section
    md = done.markdown.read_text()
    section = md.split("## Head to head: agents against each other")[1]
    lo, hi = d.interval
    cell = f"{100 * d.rate:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%), 20 games"
    assert f"| normal | - | {cell} |" in section
    assert "| ahead of: | normal | random |" in section
    assert "| agent | mu | sigma | ordinal |" in section
    assert m.reading in section and "Games**: 20 (deals 0-9, seats rotated)" in md
