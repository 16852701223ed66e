"""Pig's invariants, run by the contract suite after every move of its random games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kamon.games.pig.state import PigState


def check_invariants(state: PigState, where: str, start: PigState) -> None:
    """Scores are whole, never negative and only a winner's reaches the target; this
    turn's rolls are 2-6 (a 1 ends the turn); the seat to move is the turn's seat."""
    assert len(state.scores_) == state.num_players, where
    assert all(isinstance(s, int) and s >= 0 for s in state.scores_), (where, state.scores_)
    reached = [p for p, s in enumerate(state.scores_) if s >= state.target]
    assert reached == ([] if state.winner is None else [state.winner]), (where, reached)
    assert all(2 <= r <= 6 for r in state.rolls), (where, state.rolls)
    assert state.target == start.target and state.seed == start.seed, where
    if state.winner is None:
        assert state.to_move == state.turn_seat in range(state.num_players), where


def invariants(start: Any) -> Callable[[Any, str], None]:
    """The checks the contract suite runs after every move of a game begun at `start`."""
    return lambda state, where: check_invariants(state, where, start)
