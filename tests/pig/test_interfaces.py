"""Pig reaches every front end through its folder alone: `kamon play` and `kamon simulate`
(its option a flag), the server's catalogue, PettingZoo, Gymnasium and OpenSpiel."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.record import GameRecord, replay

ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "120"}


def test_kamon_play_pig_with_a_human_typing_notation(tmp_path: Path) -> None:
    """A human typing 'roll' and 'hold' (a hold before any roll is explained and refused)
    plays to 20 against a bot; the saved record replays to the same winner."""
    path = tmp_path / "pig.json"
    res = CliRunner(env=ENV).invoke(
        app, ["play", "pig", "--seats", "human,normal", "--seed", "5", "--points-to-win",
              "20", "--save", str(path)], input="hold\nroll\n" * 400)
    assert res.exit_code == 0, res.output[-2000:]
    assert "a turn starts with a roll" in res.output
    assert "Final scores" in res.output and "Winner:" in res.output
    record = GameRecord.load(path)
    assert record.game == "pig" and record.options == {"points_to_win": 20}
    state = replay(record)
    assert state.is_over() and max(s["total"] for s in state.scores()) >= 20


def test_kamon_simulate_pig(tmp_path: Path) -> None:
    """`kamon simulate pig` plays seeded bot games and writes one row per game and seat."""
    out = tmp_path / "pig.csv"
    res = CliRunner(env=ENV).invoke(
        app, ["simulate", "pig", "--players", "3", "--games", "6", "--agents", "normal",
              "--points-to-win", "30", "--out", str(out)])
    assert res.exit_code == 0, res.output[-2000:]
    assert "Wins by seat" in res.output
    rows = out.read_text().splitlines()
    assert len(rows) == 1 + 6 * 3, rows[:3]


def test_the_catalogue_offers_pigs_options() -> None:
    """The server's catalogue (the lobby's form) lists Pig with its target's choices."""
    from kamon.games.pig import GAME

    catalog = GAME.options.catalog()
    assert [c["value"] for c in catalog["points_to_win"]["choices"]] == [100, 50, 30, 20]
    assert catalog["start_player"]["type"] == "seat"


def test_pettingzoo_and_gymnasium() -> None:
    """PettingZoo's own API test passes on a 3-player game to 20; the Gymnasium id is
    registered and plays a seat against normal bots to the end."""
    import gymnasium
    import numpy as np
    from pettingzoo.test import api_test

    import kamon.rl as rl

    api_test(rl.make_env("pig", players=3, points_to_win=20), num_cycles=300)
    assert rl.GYM_IDS["kamon/Pig-v0"] == "pig"
    env = gymnasium.make("kamon/Pig-v0", points_to_win=20)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    done = False
    for _ in range(500):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(action)
        if term or trunc:
            done = True
            break
    assert done


def test_openspiel_random_sim_test() -> None:
    """OpenSpiel's own random simulation test (serialising every state) passes for
    python_kamon_pig, in 2 and 4 players, with its parameters from the option schema."""
    import pyspiel

    import kamon.rl as rl

    assert rl.OPENSPIEL_GAMES["pig"] == "python_kamon_pig"
    game = pyspiel.load_game("python_kamon_pig", {"points_to_win": 20})
    assert game.get_parameters()["points_to_win"] == 20
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    four = pyspiel.load_game("python_kamon_pig", {"players": 4, "points_to_win": 30,
                                                  "start_player": 3})
    pyspiel.random_sim_test(four, num_sims=1, serialize=True, verbose=False)
