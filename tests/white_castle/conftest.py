"""Generic helpers for building and driving White Castle positions in tests.

Positions are built from a real game (`GAME.new_game`) whose fields are then set
directly before the decision under test; call `refresh(state)` after such edits so
the cached legal actions are recomputed. Decisions are then played through the
public protocol with `act` (by notation) or `play_until` (a fixed, seat-agnostic
policy: the first legal action that is not a Daimyo-seal exchange).
"""

from __future__ import annotations

from collections.abc import Callable

from kamon.core.protocol import Action
from kamon.games.white_castle import GAME
from kamon.games.white_castle.state import WhiteCastleState


def refresh(state: WhiteCastleState) -> None:
    """Forget the cached legal actions after fields were edited directly."""
    state._legal = None


def act(state: WhiteCastleState, *moves: str) -> None:
    """Apply moves by notation; each must be legal (IllegalAction otherwise)."""
    for move in moves:
        state.apply(GAME.parse_action(state, move))


def legal_texts(state: WhiteCastleState) -> set[str]:
    """The notations of every legal action now."""
    return {a.text for a in state.legal_actions()}


def frame(state: WhiteCastleState) -> str | None:
    """The kind of the decision being taken now ('take', 'place', ...), None at the end."""
    return state.stack[-1].kind if state.stack else None


def first_choice(state: WhiteCastleState) -> Action:
    """The default test policy: the first legal action that is not a seal exchange."""
    acts = [a for a in state.legal_actions() if not a.text.startswith("exchange")]
    return acts[0]


def play_until(state: WhiteCastleState, predicate: Callable[[WhiteCastleState], bool],
               choose: Callable[[WhiteCastleState], Action] = first_choice,
               limit: int = 5000) -> WhiteCastleState:
    """Apply `choose` until `predicate` holds; fails if the game ends or `limit` runs out."""
    for _ in range(limit):
        if predicate(state):
            return state
        assert not state.is_over(), "the game ended before the awaited position"
        state.apply(choose(state))
    raise AssertionError(f"position not reached within {limit} actions")


def after_draft(players: int, seed: int = 1, **options: object) -> WhiteCastleState:
    """A new game played through the starting-pair draft, at the first 'take a die'."""
    state = GAME.new_game(players, seed, **options)
    return play_until(state, lambda s: s.phase == "play" and frame(s) == "take")
