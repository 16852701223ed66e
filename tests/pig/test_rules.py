"""Pig's rules, one test each (src/kamon/games/pig/state.py says them): a turn starts
with a roll; a 2-6 adds to the turn total; a 1 loses it and passes the die on; holding
banks it and passes the die on; reaching the target wins at once; the seats take turns
in order; the options are refused by name; only the future dice are hidden."""

from __future__ import annotations

import json

import pytest

from kamon.core.errors import IllegalAction, RecordError
from kamon.core.rng import Rng
from kamon.games import get_game
from kamon.games.pig import GAME
from kamon.games.pig import actions as A
from kamon.games.pig.state import PigState


def rigged(faces: list[int], players: int = 2, **options: object) -> PigState:
    """A new game whose generator rolls `faces` in order: a seed searched for them (the
    rules see only the generator, so any seed that rolls these faces will do)."""
    for seed in range(200_000):
        rng = Rng(seed)
        if all(1 + rng.below(6) == f for f in faces):
            state = GAME.new_game(players, 0, **options)
            state.rng = Rng(seed)
            return state
    raise AssertionError(f"no seed rolls {faces}")


def test_pig_is_registered_from_its_folder_alone() -> None:
    """The registry finds Pig by its name, with its title and player counts."""
    game = get_game("pig")
    assert game is GAME and game.title == "Pig"
    assert (game.min_players, game.max_players, game.num_actions) == (2, 4, 2)


def test_a_turn_starts_with_a_roll() -> None:
    """At a turn's start only 'roll' is legal; 'hold' is refused saying why."""
    state = GAME.new_game(2, 1)
    assert [a.text for a in state.legal_actions()] == ["roll"]
    with pytest.raises(IllegalAction, match="a turn starts with a roll"):
        state.apply(A.HOLD)
    assert state.history == []


def test_a_roll_of_two_to_six_adds_to_the_turn_total() -> None:
    """Rolling 4 then 5 makes a turn total of 9 and the same seat decides again, with
    'roll' and 'hold' both legal."""
    state = rigged([4, 5])
    me = state.to_move
    assert me is not None
    state.apply(A.ROLL)
    state.apply(A.ROLL)
    assert state.turn_total == 9 and state.rolls == [4, 5] and state.to_move == me
    assert [a.text for a in state.legal_actions()] == ["roll", "hold"]
    assert state.events[-1] == f"{state.name(me)} rolls a 5 (turn total 9)"


def test_a_one_loses_the_turn_total_and_passes_the_die() -> None:
    """A 1 after 6 and 3: the 9 is lost, the score stays 0, the next seat starts a turn."""
    state = rigged([6, 3, 1])
    me = state.to_move
    assert me is not None
    for _ in range(3):
        state.apply(A.ROLL)
    assert state.scores_[me] == 0 and state.turn_total == 0
    assert state.to_move == (me + 1) % 2 and state.last_rolls == [6, 3, 1]
    assert "loses the turn total of 9" in state.events[-1]


def test_holding_banks_the_turn_total_and_passes_the_die() -> None:
    """Holding after 6 and 2 adds 8 to the score; the next seat starts with nothing."""
    state = rigged([6, 2])
    me = state.to_move
    assert me is not None
    state.apply(A.ROLL)
    state.apply(A.ROLL)
    state.apply(A.HOLD)
    assert state.scores_[me] == 8 and state.rolls == []
    assert state.to_move == (me + 1) % 2 and not state.is_over()


def test_reaching_the_target_wins_at_once() -> None:
    """With 20 to win, holding 6+6+6+2 ends the game: the holder wins with 20 points and
    nobody moves again; a score of 18 held would not have."""
    state = rigged([6, 6, 6, 2], points_to_win=20)
    me = state.to_move
    assert me is not None
    for _ in range(3):
        state.apply(A.ROLL)
    assert state.describe(A.HOLD) == "hold: bank 18 (score 0 -> 18)"
    state.apply(A.ROLL)
    assert state.describe(A.HOLD).endswith("and win")
    state.apply(A.HOLD)
    assert state.is_over() and state.winners() == [me] and state.to_move is None
    assert state.scores()[me] == {"points": 20, "total": 20}
    assert state.legal_actions() == [] and state.decision_text() == "the game is over"
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(A.ROLL)


def test_seats_take_turns_in_order() -> None:
    """With 3 players, the die goes round the table in seat order, starting with the chosen
    first player."""
    state = GAME.new_game(3, 5, start_player=2)
    seen = [state.to_move]
    while len(seen) < 7:
        state.apply(A.HOLD if state.rolls else A.ROLL)
        if state.to_move != seen[-1]:
            seen.append(state.to_move)
    assert seen == [2, 0, 1, 2, 0, 1, 2]


def test_the_first_player_is_drawn_from_the_seed() -> None:
    """Without start_player, the seed draws the first player: both seats start some game."""
    assert {GAME.new_game(2, seed).to_move for seed in range(20)} == {0, 1}


def test_the_options_default_and_are_refused_by_name() -> None:
    """The classic target of 100 by default; a target not offered, a seat the game does not
    have and an unknown option are refused naming what is wrong."""
    assert GAME.new_game(2, 1).options == {"points_to_win": 100}
    assert GAME.new_game(4, 1, points_to_win=30).target == 30
    with pytest.raises(ValueError, match="points_to_win"):
        GAME.new_game(2, 1, points_to_win=77)
    with pytest.raises(ValueError, match="start_player"):
        GAME.new_game(2, 1, start_player=2)
    with pytest.raises(ValueError, match="played by 2-4 players"):
        GAME.new_game(5, 1)


def test_only_the_future_dice_are_hidden() -> None:
    """Every seat and a spectator see the same view, without the generator; a
    determinized state keeps the view and the choices but rolls other dice."""
    state = rigged([5, 5])
    state.apply(A.ROLL)
    views = [state.view(s) for s in (None, 0, 1)]
    assert all({k: v for k, v in v.items() if k != "you"} ==
               {k: v for k, v in views[0].items() if k != "you"} for v in views)
    assert "rng" not in json.dumps(views[0])
    outcomes = set()
    for k in range(12):
        sample = state.determinize(0, Rng(k))
        assert sample.view(0) == state.view(0)
        assert GAME.hidden_key(sample) != GAME.hidden_key(state)
        sample.apply(A.ROLL)
        outcomes.add(sample.turn_total)
    assert len(outcomes) > 1  # other dice, not the real next roll every time


def test_a_state_written_as_json_reads_back_and_refuses_another_game() -> None:
    """to_json / from_json is exact mid-turn; a document of another game is refused."""
    state = rigged([3, 4, 6])
    for _ in range(3):
        state.apply(A.ROLL)
    data = json.loads(json.dumps(state.to_json()))
    again = GAME.from_json(data)
    assert again.to_json() == state.to_json()
    with pytest.raises(RecordError, match="not a Pig state"):
        GAME.from_json({**data, "game": "clansman"})
