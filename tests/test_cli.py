"""The `kamon` command line: play (bots and scripted humans), simulate, replay, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kamon.agents import RandomAgent, agent_seed, make_agent
from kamon.cli import app
from kamon.core.errors import KamonError
from kamon.core.record import GameRecord, replay
from kamon.games.white_castle import GAME

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "120"}
ENOUGH_ONES = "1\n" * 5000


@pytest.fixture
def runner() -> CliRunner:
    """A CLI runner with no data overlay from the environment and a wide console."""
    return CliRunner(env=ENV)


def totals_in(output: str) -> list[int]:
    """The numbers of the score table's Total row."""
    for line in output.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) > 2 and cells[1] == "Total":
            return [int(c) for c in cells[2:] if c]
    raise AssertionError("no Total row in the output:\n" + output[-2000:])


def test_bot_game_saves_a_record_that_replays_to_the_same_scores(runner: CliRunner,
                                                                 tmp_path: Path) -> None:
    """A bots-only game saved with --save replays to the scores the table showed."""
    path = tmp_path / "game.json"
    res = runner.invoke(app, ["play", "white-castle", "--seats", "random,random", "--seed", "11",
                              "--save", str(path)])
    assert res.exit_code == 0, res.output
    assert "Final scores" in res.output and "Winner:" in res.output
    record = GameRecord.load(path)
    assert record.seats == ["random", "random"] and record.seed == 11
    state = replay(record)
    assert state.is_over()
    assert totals_in(res.output) == [s["total"] for s in state.scores()]


def test_bot_games_are_reproducible_from_the_seed(runner: CliRunner, tmp_path: Path) -> None:
    """The same seed gives the same game (dice and bot choices)."""
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for p in paths:
        res = runner.invoke(app, ["play", "white-castle", "--seats", "random,random,random",
                                  "--seed", "5", "--quiet", "--save", str(p)])
        assert res.exit_code == 0, res.output
    assert GameRecord.load(paths[0]).actions == GameRecord.load(paths[1]).actions


def test_human_choosing_the_first_move_finishes_the_game(runner: CliRunner) -> None:
    """Scripted input '1' at every prompt plays a human game to the score table."""
    res = runner.invoke(app, ["play", "white-castle", "--seats", "human,random", "--seed", "3"],
                        input=ENOUGH_ONES)
    assert res.exit_code == 0, res.output
    assert "You left the game" not in res.output
    assert "Your turn, blue" in res.output
    assert "Final scores" in res.output and "blue (human)" in res.output
    assert len(totals_in(res.output)) == 2


def test_bad_input_is_explained_and_the_game_goes_on(runner: CliRunner) -> None:
    """Nonsense and out-of-range numbers get a message, then the game continues."""
    res = runner.invoke(app, ["play", "white-castle", "--seats", "human,random", "--seed", "4"],
                        input="xyz\n999\n?\n" + ENOUGH_ONES)
    assert res.exit_code == 0, res.output
    assert "Not a legal move: 'xyz' is not an action" in res.output
    assert "999 is not a move number" in res.output
    assert "Type the number of a move" in res.output
    assert "Final scores" in res.output
    assert "Traceback" not in res.output


def test_moves_can_be_typed_as_notation(runner: CliRunner, tmp_path: Path) -> None:
    """Notation is accepted in any case and spacing."""
    path = tmp_path / "g.json"
    res = runner.invoke(app, ["play", "white-castle", "--seats", "human,human", "--seed", "2",
                              "--save", str(path)], input="  DRAFT   2 \nquit\n")
    assert res.exit_code == 0, res.output
    assert GameRecord.load(path).actions == ["draft 2"]


def test_quit_and_end_of_input_leave_politely_and_save(runner: CliRunner,
                                                       tmp_path: Path) -> None:
    """'quit' and EOF end the game without a traceback; --save keeps the partial record."""
    path = tmp_path / "partial.json"
    res = runner.invoke(app, ["play", "white-castle", "--seats", "random,human", "--seed", "8",
                              "--save", str(path)], input="1\n1\n")
    assert res.exit_code == 0, res.output
    assert "You left the game" in res.output and "Traceback" not in res.output
    record = GameRecord.load(path)
    assert len(record.actions) >= 2
    assert not replay(record).is_over()
    res = runner.invoke(app, ["play", "white-castle", "--seats", "human,random", "--seed", "8"],
                        input="quit\n")
    assert res.exit_code == 0 and "You left the game" in res.output


def test_simulate_prints_a_summary_and_writes_records_that_replay(runner: CliRunner,
                                                                  tmp_path: Path) -> None:
    """simulate --out writes one replayable record per game, seeds S..S+N-1."""
    out = tmp_path / "sim.jsonl"
    res = runner.invoke(app, ["simulate", "white-castle", "--players", "3", "--games", "5",
                              "--seed", "40", "--out", str(out)])
    assert res.exit_code == 0, res.output
    for text in ("Wins by seat", "Win %", "Score categories", "games/sec",
                 "decisions per game"):
        assert text in res.output
    lines = out.read_text().splitlines()
    assert len(lines) == 5
    for i, line in enumerate(lines):
        record = GameRecord.from_json(json.loads(line))
        assert record.seed == 40 + i and record.players == 3
        assert replay(record).is_over()
    res = runner.invoke(app, ["replay", str(out), "--index", "2"])
    assert res.exit_code == 0, res.output
    assert "Final scores" in res.output


def test_simulate_with_two_processes_matches_one(runner: CliRunner, tmp_path: Path) -> None:
    """A process pool gives exactly the games a single process gives."""
    outs = [tmp_path / "one.jsonl", tmp_path / "two.jsonl"]
    for jobs, out in zip(("1", "2"), outs, strict=True):
        res = runner.invoke(app, ["simulate", "white-castle", "--players", "2", "--games", "4",
                                  "--seed", "7", "--jobs", jobs, "--out", str(out)])
        assert res.exit_code == 0, res.output
    assert outs[0].read_text() == outs[1].read_text()


def test_replay_steps_and_stops_where_asked(runner: CliRunner, tmp_path: Path) -> None:
    """--upto stops early; --step advances on Enter and quits on q."""
    path = tmp_path / "g.json"
    runner.invoke(app, ["play", "white-castle", "--seats", "random,random", "--seed", "9",
                        "--quiet", "--save", str(path)])
    total = len(GameRecord.load(path).actions)
    res = runner.invoke(app, ["replay", str(path), "--upto", "5"])
    assert res.exit_code == 0, res.output
    assert f"After 5 of {total} actions" in res.output and "Not over" in res.output
    res = runner.invoke(app, ["replay", str(path), "--step"], input="\n\nq\n")
    assert res.exit_code == 0, res.output
    assert f"After 2 of {total} actions" in res.output
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 0 and "Final scores" in res.output


@pytest.mark.parametrize("content", ["this is not json", "[1, 2]", '{"game": "white-castle"}',
                                     '{"game": "white-castle", "players": 2, "seed": 1, '
                                     '"actions": ["draft 9"]}'])
def test_replay_of_a_malformed_record_exits_2(runner: CliRunner, tmp_path: Path,
                                              content: str) -> None:
    """Broken record files give a one-line error and exit code 2."""
    path = tmp_path / "bad.json"
    path.write_text(content)
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 2
    assert "error:" in res.output and "Traceback" not in res.output


def test_replay_of_a_missing_file_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    """A missing record file gives a one-line error and exit code 2."""
    res = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert res.exit_code == 2 and "cannot read" in res.output


@pytest.mark.parametrize("args", [["play", "chess", "--seats", "random,random"],
                                  ["simulate", "chess", "--games", "1"],
                                  ["play", "white-castle", "--seats", "random,random,random,"
                                   "random,random"],
                                  ["play", "white-castle", "--seats", "random",
                                   "--difficulty", "impossible"],
                                  ["play", "white-castle", "--players", "3", "--seats",
                                   "human,random"],
                                  ["play", "white-castle", "--players", "2", "--difficulty",
                                   "hard"],
                                  ["play", "white-castle", "--seats", "random,robot"],
                                  ["simulate", "white-castle", "--players", "2",
                                   "--agents", "random,random,random"]])
def test_unknown_game_or_bad_seats_exit_2(runner: CliRunner, args: list[str]) -> None:
    """Unknown games, agents and player counts exit 2 without a traceback."""
    res = runner.invoke(app, args)
    assert res.exit_code == 2
    assert "error:" in res.output and "Traceback" not in res.output


def test_unknown_game_names_the_known_ones(runner: CliRunner) -> None:
    """The error for an unknown game lists the games there are."""
    res = runner.invoke(app, ["play", "chess"])
    assert res.exit_code == 2 and "white-castle" in res.output


@pytest.mark.parametrize("content", [None, "{not json", "[1, 2, 3]"])
def test_bad_data_overlay_exits_2(runner: CliRunner, tmp_path: Path, content: str | None) -> None:
    """A missing, non-JSON or non-object overlay file exits 2 with a message."""
    path = tmp_path / "overlay.json"
    if content is not None:
        path.write_text(content)
    res = runner.invoke(app, ["play", "white-castle", "--seats", "random,random",
                              "--data-overlay", str(path)])
    assert res.exit_code == 2
    assert "data overlay" in res.output and "Traceback" not in res.output


def test_data_overlay_is_flagged_and_embedded_in_the_record(runner: CliRunner,
                                                            tmp_path: Path) -> None:
    """--data-overlay is announced and stored in the record, which replays."""
    overlay = {"board": {"bridges": {"dice_per_colour_by_players": {"2": 3}}}}
    opath = tmp_path / "overlay.json"
    opath.write_text(json.dumps(overlay))
    path = tmp_path / "g.json"
    res = runner.invoke(app, ["play", "white-castle", "--seats", "random,random", "--seed", "1",
                              "--quiet", "--data-overlay", str(opath), "--save", str(path)])
    assert res.exit_code == 0, res.output
    assert "corrected by a data overlay" in res.output
    record = GameRecord.load(path)
    assert record.options["data_overlay"] == overlay
    assert replay(record).is_over()


def test_reconstructed_data_is_flagged_at_setup(runner: CliRunner) -> None:
    """The setup lines flag reconstructed component data and the first-game setup."""
    res = runner.invoke(app, ["play", "white-castle", "--seats", "random,random", "--seed", "1",
                              "--quiet", "--first-game"])
    assert res.exit_code == 0, res.output
    assert "reconstructed" in res.output and "first-game setup" in res.output


def test_random_agent_is_reproducible_and_legal() -> None:
    """The random agent only plays legal moves and repeats itself given its seed."""
    def play_out(seed: int) -> list[int]:
        """The action ids of a whole 2-player random game."""
        state = GAME.new_game(2, seed)
        agents = [RandomAgent(agent_seed(seed, p)) for p in range(2)]
        while not state.is_over():
            p = state.to_move
            assert p is not None
            action = agents[p].act(state)
            assert action in state.legal_actions()
            state.apply(action)
        return state.history

    assert play_out(21) == play_out(21)
    assert agent_seed(21, 0) != agent_seed(21, 1)


def test_make_agent_names_the_known_agents() -> None:
    """make_agent ignores case and lists the known agents for an unknown name."""
    assert isinstance(make_agent("Random", 1), RandomAgent)
    with pytest.raises(KamonError, match="known agents: random"):
        make_agent("genius", 1)


def test_board_shows_every_area() -> None:
    """The board view names every area of the table and fits 120 columns."""
    state = GAME.new_game(4, 12)
    agent = RandomAgent(1)
    for _ in range(60):
        state.apply(agent.act(state))
    console = Console(width=120, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(GAME.render_text(state, 0))
    text = console.export_text()
    for word in ("round", "Turn order", "Now:", "lantern", "steward1", "diplomat2", "daimyo",
                 "gate", "outside-left", "well", "yard 3", "plant:", "stone:",
                 "Passage of Time", "blue (you)", "green", "Action card", "Lantern area"):
        assert word in text, word
    assert state.decision_text() in re.sub(r"\s+", " ", text)
    assert max(len(line) for line in text.splitlines()) <= 120


def test_solo_game_against_the_tokugawa_rival(runner: CliRunner, tmp_path: Path) -> None:
    """`kamon play white-castle --players 1 --difficulty hard` plays to a table with the rival."""
    path = tmp_path / "solo.json"
    res = runner.invoke(app, ["play", "white-castle", "--players", "1", "--difficulty", "hard",
                              "--seed", "5", "--save", str(path)], input=ENOUGH_ONES)
    assert res.exit_code == 0, res.output
    assert "RECONSTRUCTED" in res.output  # the setup line marks the Solitaire deck
    assert "the rival reveals" in res.output
    assert "Final scores" in res.output and "tokugawa" in res.output
    assert len(totals_in(res.output)) == 2
    record = GameRecord.load(path)
    assert record.players == 1 and record.options["difficulty"] == "hard"
    assert replay(record).is_over()


def test_simulate_solo_games(runner: CliRunner) -> None:
    """Solo simulation lists the rival as a clan of its own."""
    res = runner.invoke(app, ["simulate", "white-castle", "--players", "1", "--difficulty",
                              "easy", "--games", "5"])
    assert res.exit_code == 0, res.output
    assert "tokugawa" in res.output and "solo rival" in res.output
