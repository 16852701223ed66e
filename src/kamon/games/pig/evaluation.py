"""Pig's search hooks (`kamon.agents.base`) and its hidden key.

The bots judge a position by the points each seat would have if the seat to move held
now, a win worth a whole target more. A roll is judged before its die is known: greedy's
lookahead runs on one sample of the dice (`determinize`), and the face that sample
happened to roll would decide for it, so `evaluate` replaces a roll just made by the
average over the six faces. That alone makes the normal bot play the well-known rule of
the literature: roll while the turn total is under 20, hold from 20 (where the expected
gain of a roll, 20/6, equals the expected loss, the turn total / 6); and roll on whenever
a 2-6 would win, near the end.
"""

from __future__ import annotations

from typing import Any

from kamon.games.pig import actions as A
from kamon.games.pig.state import BUST, DIE, PigState

REL = 0.5  # weight of the best other seat's value in a relative evaluation
greedy_depth = 1  # one decision: the next one would be judged on the sample's own die


def hidden_key(state: Any) -> tuple[Any, ...]:
    """What Pig hides: the generator, that is every future roll (nothing else)."""
    assert isinstance(state, PigState)
    return (state.rng.state,)


def _worth(state: PigState, seat: int, score: int, turn: int) -> float:
    """A seat's value with `score` banked and `turn` unbanked: their sum, and a whole
    target more when that sum wins."""
    total = score + turn
    return float(total + (state.target if total >= state.target else 0))


def values(state: Any) -> list[float]:
    """Every seat's points if the seat to move held now (a winner's, a target more)."""
    assert isinstance(state, PigState)
    out = [_worth(state, p, s, 0) for p, s in enumerate(state.scores_)]
    if state.winner is None and state.rolls:
        me = state.turn_seat
        out[me] = _worth(state, me, state.scores_[me], state.turn_total)
    return out


def _rolled_by(state: PigState) -> tuple[int, int] | None:
    """(seat, turn total before it) of a roll that was the last move, else None."""
    if not state.history or state.history[-1] != A.ROLL:
        return None
    if state.rolls:  # a 2-6: the roller goes on
        return state.turn_seat, sum(state.rolls[:-1])
    roller = (state.turn_seat - 1) % state.num_players  # a 1 passed the die on
    return roller, sum(state.last_rolls[:-1])


def evaluate(state: Any, seat: int) -> float:
    """How good the position is for `seat`: its value minus REL times the best other's,
    a roll of its own that was the last move averaged over the die's faces."""
    assert isinstance(state, PigState)
    vals = values(state)
    best_other = max((v for q, v in enumerate(vals) if q != seat), default=0.0)
    rolled = _rolled_by(state)
    if rolled is None or rolled[0] != seat:
        return vals[seat] - REL * best_other
    before = rolled[1]
    score = state.scores_[seat]
    faces = [_worth(state, seat, score, 0 if f == BUST else before + f)
             for f in range(1, DIE + 1)]
    return sum(faces) / DIE - REL * best_other

# Two choices a decision need far fewer iterations than the reference game's dozens:
# the levels divide their budget by this (hard: 5,400 -> 540; measured in the commit
# message with `kamon simulate pig --agents hard,normal`).
mcts_iteration_weight = 10.0
