"""Results as data: the schema, one row per game and clan, the games' own columns, CSV
and Parquet agreeing, and files that are not kamon results refused."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from kamon.agents import agent_seed, make_agent
from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.games import get_game
from kamon.games.white_castle.names import words
from kamon.sim.backends import LocalBackend
from kamon.sim.results import CORE, NotResults, key_of, read_results
from kamon.sim.runner import SimSpec, play_seed
from kamon.sim.simulation import run_simulation

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "120"}
WC = SimSpec("white-castle", 4, ("random", "greedy", "random", "random"), {})
CS = SimSpec("clansman", 4, ("random",) * 4, {"expert": True, "emperor_side": "A"})


@pytest.fixture(scope="module")
def wc_table(tmp_path_factory: pytest.TempPathFactory) -> pa.Table:
    """12 games of The White Castle (one greedy seat) written to Parquet and read back."""
    out = tmp_path_factory.mktemp("wc") / "r.parquet"
    run_simulation(WC, 30, 12, LocalBackend(1), out)
    return read_results(out)


def replayed(spec: SimSpec, seed: int) -> tuple[Any, Any]:
    """The game of a seed played again by hand: its state after setup and at the end."""
    game = get_game(spec.game)
    state = game.new_game(spec.players, seed, **spec.options)
    start = state.clone()
    bots = [make_agent(a, agent_seed(seed, p)) for p, a in enumerate(spec.agents)]
    while not state.is_over():
        state.apply(bots[state.to_move].act(state))
    return start, state


def test_the_schema_has_the_core_columns_scores_and_the_games_features(
        wc_table: pa.Table) -> None:
    """Typed core columns, one score column per category (total last), then features."""
    schema = wc_table.schema
    for name, typ in CORE:
        assert schema.field(name).type == typ
    scores = [n for n in schema.names if n.startswith("score_")]
    assert scores == ["score_during_game", "score_coins_seals", "score_resources",
                      "score_passage_of_time", "score_courtiers", "score_warriors",
                      "score_gardeners", "score_total"]
    for name in ("turn_position", "start_pair", "castle_cards", "gardens", "yards"):
        assert name in schema.names
    meta = json.loads(schema.metadata[b"kamon"])
    assert meta["format"] == "kamon-results" and meta["agents"] == list(WC.agents)
    assert key_of(wc_table) == WC.key


def test_one_row_per_game_and_seat_sorted_with_consistent_outcomes(wc_table: pa.Table) -> None:
    """48 rows = 12 games x 4 seats, by seed then seat; the winner places 1st; shares sum 1."""
    assert wc_table.num_rows == 48
    rows = wc_table.to_pylist()
    assert [(r["seed"], r["seat"]) for r in rows] == [(s, q) for s in range(30, 42)
                                                       for q in range(1, 5)]
    for seed in range(30, 42):
        game = [r for r in rows if r["seed"] == seed]
        assert sum(r["win_share"] for r in game) == pytest.approx(1.0)
        assert all(r["placement"] == 1 for r in game if r["winner"])
        best = max(r["score_total"] for r in game if not r["winner"])
        assert all(r["score_total"] >= best for r in game if r["winner"])
        assert sum(r["decisions"] for r in game) == game[0]["game_decisions"]
        assert [r["agent"] for r in game] == list(WC.agents)


@pytest.mark.parametrize("seed", [32, 41])
def test_rows_match_the_game_played_again(wc_table: pa.Table, seed: int) -> None:
    """Scores, winners and the White Castle features equal a hand replay of the seed."""
    rows = [r for r in wc_table.to_pylist() if r["seed"] == seed]
    assert sum(r["castle_cards_taken"] for r in rows) >= 2  # something to check
    assert sum(r["warriors"] for r in rows) >= 1 and sum(r["gardeners"] for r in rows) >= 2
    start, end = replayed(WC, seed)
    view = end.view(None)
    order = start.view(None)["order"]
    for q, row in enumerate(rows):
        assert row["score_total"] == end.scores()[q]["total"]
        assert row["winner"] == (q in end.winners())
        assert row["colour"] == end.name(q)
        assert row["turn_position"] == order.index(q) + 1
        taken = [e for e in end.events if e.startswith(f"{end.name(q)} takes starting pair")]
        assert len(taken) == 1 and words(row["start_resource"]) in taken[0] \
            and words(row["start_action"]) in taken[0]
        onto = re.findall(rf"^{end.name(q)} takes (.+?) onto the domain", "\n".join(end.events),
                          re.M)
        cards = row["castle_cards"].split(";") if row["castle_cards"] else []
        assert [words(c) for c in cards] == onto
        assert row["castle_cards_taken"] == len(onto)
        mine = sorted(view["garden_cards"][g] for g, who in enumerate(view["garden_workers"])
                      if q in who)
        assert row["gardens"] == ";".join(mine) and row["gardeners"] == len(mine)
        assert row["warriors"] == len(view["clans"][q]["warriors"])


def test_clansman_rows_carry_clan_missions_by_century_emperors_and_kofun() -> None:
    """I, Clansman: the starting clan of the setup line, missions per century adding up."""
    rows, _ = play_seed(CS, 8)
    start, end = replayed(CS, 8)
    setup = end.events[0]
    view = end.view(None)
    for q, row in enumerate(rows):
        assert row["starting_clan"] and f"{end.name(q)} {row['starting_clan']}" in setup
        missions = [m for m in row["missions"].split(";") if m]
        assert row["missions_obtained"] == len(missions)
        assert sum(row[f"missions_c{c}"] for c in (4, 5, 6, 7)) == len(missions)
        assert {m.split()[0] for m in missions} == set(view["gozoku"][q]["missions"])
        assert row["emperor_cards"] == len(view["gozoku"][q]["emperors"])
        assert (row["kofun"] != "") == (view["gozoku"][q]["kofun"] is not None)
        assert row["turn_position"] == (q - start.view(None)["start"]) % 4 + 1


def test_a_solo_game_has_a_row_for_the_rival(tmp_path: Path) -> None:
    """Solo White Castle: the seat, then the Tokugawa rival as `tokugawa (rival)`."""
    spec = SimSpec("white-castle", 1, ("random",), {"difficulty": "easy"})
    rows, _ = play_seed(spec, 4)
    assert [r["seat"] for r in rows] == [1, 2]
    assert rows[1]["agent"] == "tokugawa (rival)" and rows[1]["start_pair"] == ""
    assert rows[0]["start_pair"].startswith("resource ")


def test_csv_and_parquet_hold_the_same_table(tmp_path: Path, wc_table: pa.Table) -> None:
    """The CLI's CSV, read back with its types and key, equals the Parquet table."""
    out = tmp_path / "r.csv"
    res = CliRunner(env=ENV).invoke(app, ["simulate", "white-castle", "--games", "12",
                                          "--seed", "30", "--agents",
                                          "random,greedy,random,random", "--fixed-seats",
                                          "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "48 result rows of 12 games" in res.output
    assert read_results(out).equals(wc_table, check_metadata=True)


@pytest.mark.parametrize("content, why", [
    (b"just some text\n", "cannot read it as PARQUET"),
    (None, "no kamon metadata"),
])
def test_a_parquet_file_that_is_not_results_is_refused(tmp_path: Path, content: bytes | None,
                                                       why: str) -> None:
    """Not Parquet at all, or Parquet without kamon's metadata: refused, saying why."""
    path = tmp_path / "x.parquet"
    if content is None:
        pq.write_table(pa.table({"seed": [1, 2]}), path)
    else:
        path.write_bytes(content)
    with pytest.raises(NotResults, match=why):
        read_results(path)


def test_a_csv_that_is_not_results_is_refused(tmp_path: Path) -> None:
    """A CSV without kamon's columns names the missing ones."""
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(NotResults, match="lacks the column"):
        read_results(path)


def test_simulate_will_not_overwrite_a_foreign_file(tmp_path: Path) -> None:
    """--out naming a file that is not kamon results: exit 2, the file untouched."""
    path = tmp_path / "notes.csv"
    path.write_text("my,own\nnotes,here\n")
    res = CliRunner(env=ENV).invoke(app, ["simulate", "white-castle", "--games", "2",
                                          "--out", str(path)])
    assert res.exit_code == 2
    assert "not kamon simulation results" in res.output and "will not overwrite" in res.output
    assert path.read_text() == "my,own\nnotes,here\n"


@pytest.mark.parametrize("args, message", [
    (["--out", "r.txt"], "write .parquet or .csv"),
    (["--backend", "spark"], "unknown backend 'spark'"),
    (["--ray-address", "head:6379"], "--ray-address needs --backend ray"),
    (["--batch-size", "0", "--out", "r.parquet"], "--batch-size must be at least 1"),
])
def test_bad_simulate_options_are_refused(tmp_path: Path, args: list[str],
                                          message: str) -> None:
    """Bad output names, backends and batch sizes: one clear line, exit 2, nothing written."""
    res = CliRunner(env=ENV).invoke(app, ["simulate", "white-castle", "--games", "2",
                                          *[a.replace("r.", str(tmp_path / "r.")) for a in args]])
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_game_has_no_features() -> None:
    """The features slot is read from a registered game: an unknown one is named, not
    guessed."""
    from kamon.games import get_game

    with pytest.raises(KamonError, match="unknown game"):
        assert get_game("chess").features is not None
