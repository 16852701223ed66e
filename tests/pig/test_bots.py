"""Pig's evaluation hooks: the normal bot plays the literature's 'hold at 20' rule (and
goes for the win near the end), and beats random play."""

from __future__ import annotations

from kamon.agents import make_agent
from kamon.games.pig import GAME
from kamon.games.pig import actions as A
from kamon.games.pig.state import PigState


def position(turn_rolls: list[int], score: int = 0, other: int = 0,
             points_to_win: int = 100) -> PigState:
    """Seat 0 to move with these rolls this turn and these scores."""
    state = GAME.new_game(2, 1, start_player=0, points_to_win=points_to_win)
    state.rolls = list(turn_rolls)
    state.scores_ = [score, other]
    state.history = [A.ROLL] * len(turn_rolls)
    return state


def test_normal_rolls_under_twenty_and_holds_from_twenty() -> None:
    """With a turn total of 18 the normal bot rolls, with 22 it holds, whatever its seed
    (the sample's die does not decide for it; at exactly 20 both are worth the same)."""
    for seed in range(8):
        bot = make_agent("normal", seed)
        assert bot.act(position([6, 6, 6])).text == "roll"
        assert bot.act(position([6, 6, 6, 4])).text == "hold"


def test_normal_holds_to_win_and_rolls_when_a_roll_could_win() -> None:
    """Holding would win: it holds (even with a small total); 2 short of winning with
    a total under 20, it rolls on."""
    for seed in range(4):
        bot = make_agent("normal", seed)
        assert bot.act(position([3], score=97)).text == "hold"
        assert bot.act(position([6, 6, 6, 6], score=80)).text == "hold"
        assert bot.act(position([4], score=94)).text == "roll"


def test_normal_beats_random() -> None:
    """Over 30 two-player games (seats alternating), normal wins at least 24."""
    wins = 0
    for seed in range(30):
        state = GAME.new_game(2, seed)
        bots = [make_agent("normal", seed), make_agent("random", seed)]
        if seed % 2:
            bots.reverse()
        while not state.is_over():
            seat = state.to_move
            assert seat is not None
            state.apply(bots[seat].act(state))
        wins += bots[state.winners()[0]].name == "normal"
    assert wins >= 24, wins
