"""Terminal play as a session (issue 10): `undo` of your own last decision under the web's
rule, the board redrawn after each of your moves, `q` asking before leaving and offering to
save, and `kamon play --load` resuming the saved game. Driven through real stdin input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.record import GameRecord, replay
from kamon.games.white_castle import GAME

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "120"}
SOLO = ["play", "white-castle", "--players", "1", "--seed", "3"]
BOARD = "Bridges and gardens"  # the heading of the terminal board


@pytest.fixture
def runner() -> CliRunner:
    """A CLI runner with no data overlay from the environment and a wide console."""
    return CliRunner(env=ENV)


def first_reveal(seed: int) -> int:
    """How many first-listed moves of the solo game until one makes the rival show a card."""
    state = GAME.new_game(1, seed=seed)
    k = 0
    while True:
        shown = sum("the rival reveals" in e for e in state.events)
        state.apply(state.legal_actions()[0])
        k += 1
        if sum("the rival reveals" in e for e in state.events) > shown:
            return k


def test_undo_takes_back_your_own_last_decision(runner: CliRunner, tmp_path: Path) -> None:
    """Taking a die reveals nothing: undo puts it back and another die can be taken."""
    path = tmp_path / "g.json"
    res = runner.invoke(app, [*SOLO, "--save", str(path)], input="1\nundo\n2\nq\ny\n")
    assert res.exit_code == 0, res.output
    assert "Undone: take coral left" in res.output
    assert GameRecord.load(path).actions == ["take coral right"]


def test_undo_refused_once_the_move_revealed_something(runner: CliRunner,
                                                      tmp_path: Path) -> None:
    """The decision that ends your turn lets the rival show a Solitaire card: it stands."""
    k = first_reveal(3)
    path = tmp_path / "g.json"
    res = runner.invoke(app, [*SOLO, "--save", str(path)], input="1\n" * k + "u\nq\ny\n")
    assert res.exit_code == 0, res.output
    assert "Cannot undo: that decision revealed something new" in res.output
    assert len(GameRecord.load(path).actions) == k


def test_undo_with_nothing_of_yours_to_take_back(runner: CliRunner) -> None:
    """At the very first decision there is nothing to undo; the game goes on."""
    res = runner.invoke(app, SOLO, input="undo\nq\ny\n\n")
    assert res.exit_code == 0, res.output
    assert "Cannot undo: there is nothing to undo yet" in res.output


def test_the_board_is_redrawn_after_each_of_your_moves(runner: CliRunner) -> None:
    """Three decisions of one turn: the board is shown before each of them and the next."""
    res = runner.invoke(app, SOLO, input="1\n1\nq\ny\n\n")
    assert res.exit_code == 0, res.output
    assert res.output.count(BOARD) >= 3


def test_quit_asks_first_and_offers_to_save_a_game_that_load_resumes(
        runner: CliRunner, tmp_path: Path) -> None:
    """'q' then 'n' goes on playing; 'q' then 'y' asks for a file; --load resumes there."""
    path = tmp_path / "saved.json"
    res = runner.invoke(app, SOLO, input=f"1\nq\nn\nq\ny\n{path}\n")
    assert res.exit_code == 0, res.output
    assert res.output.count("Leave the game?") == 2
    flat = " ".join(res.output.split())  # long lines wrap at the console's width
    assert f"Resume it with: kamon play white-castle --load {path}" in flat
    record = GameRecord.load(path)
    assert record.actions == ["take coral left"] and record.seats == ["human"]
    assert record.seed == 3
    res = runner.invoke(app, ["play", "white-castle", "--load", str(path)], input="1\nq\ny\n\n")
    assert res.exit_code == 0, res.output
    assert "Resumed after 1 actions" in res.output
    assert "Now: blue places the coral 2" in res.output


def test_leaving_without_saving(runner: CliRunner, tmp_path: Path) -> None:
    """An empty answer to the file question saves nothing."""
    res = runner.invoke(app, SOLO, input="1\nq\ny\n\n")
    assert res.exit_code == 0, res.output
    assert "Game record saved" not in res.output and "You left the game" in res.output


def test_load_of_another_game_or_a_bad_file_is_refused(runner: CliRunner,
                                                       tmp_path: Path) -> None:
    """A record of another game, or not a record, is a clear error (exit 2)."""
    path = tmp_path / "c.json"
    GameRecord("clansman", 4, 1).save(path)
    res = runner.invoke(app, ["play", "white-castle", "--load", str(path)])
    assert res.exit_code == 2 and "is a game of 'clansman'" in res.output
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    res = runner.invoke(app, ["play", "white-castle", "--load", str(bad)])
    assert res.exit_code == 2 and "must be a JSON object" in res.output


def test_real_stdin_undo_save_and_resume(tmp_path: Path) -> None:
    """The installed command with a real pipe: a move, undo, another move, save, resume."""
    path = tmp_path / "piped.json"
    cmd = [sys.executable, "-m", "kamon.cli", *SOLO]
    out = subprocess.run(cmd, input=f"2\nu\n4\nq\ny\n{path}\n", capture_output=True,
                         text=True, timeout=120, env={"COLUMNS": "120", "PATH": ""})
    assert out.returncode == 0, out.stderr
    assert "Undone: take coral right" in out.stdout
    record = GameRecord.load(path)
    assert record.actions == ["take black right"]
    state = replay(record)
    assert state.to_move == 0 and not state.is_over()


def test_undo_refused_once_another_player_moved(runner: CliRunner) -> None:
    """Against a bot: at your first decision after its turn, undo says it moved since."""
    from kamon.agents import agent_seed, make_agent

    state = GAME.new_game(2, seed=9)
    bot = make_agent("random", agent_seed(9, 1))
    k, last = 0, None
    while True:
        seat = state.to_move
        if seat == 0 and last == 1 and k > 0:
            break
        if seat == 0:
            state.apply(state.legal_actions()[0])
            k += 1
        else:
            state.apply(bot.act(state))
        last = seat
    res = runner.invoke(app, ["play", "white-castle", "--seats", "human,random", "--seed", "9"],
                        input="1\n" * k + "undo\nq\ny\n\n")
    assert res.exit_code == 0, res.output
    flat = " ".join(res.output.split())
    assert f"Cannot undo: {state.name(1)} has moved since your last decision" in flat, flat[-800:]
