"""Helpers for building and driving I, Clansman positions in tests.

Games are real (`GAME.new_game`), with the start player fixed at seat 0 unless a
test says otherwise, so Marriage is played by seats 3, 2, 1, 0 and Production by
0, 1, 2, 3. A test arranges the table by moving cards (`put`) and setting
counters directly, calls `refresh` so the cached legal actions are recomputed,
and then plays the decisions under test through the public protocol (`act`).
"""

from __future__ import annotations

from typing import Any

from kamon.games.clansman import GAME
from kamon.games.clansman.actions import SEATS
from kamon.games.clansman.state import ClansmanState


def new(seed: int = 1, players: int = 4, start: int | None = 0, **options: Any
        ) -> ClansmanState:
    """A new game at its first marriage (start player seat 0 unless `start` says otherwise)."""
    if start is not None:
        options["start_player"] = start
    return GAME.new_game(players, seed, **options)


def refresh(state: ClansmanState) -> None:
    """Forget the cached legal actions after fields were edited directly."""
    state._legal = None


def act(state: ClansmanState, *moves: str) -> None:
    """Apply moves by notation; each must be legal (IllegalAction otherwise)."""
    for move in moves:
        state.apply(GAME.parse_action(state, move))


def legal_texts(state: ClansmanState) -> set[str]:
    """The notations of every legal action now."""
    return {a.text for a in state.legal_actions()}


def put(state: ClansmanState, cid: str, where: list[str]) -> None:
    """Move a card from wherever it is (piles, Supply, discard, a tableau or hand) to `where`."""
    places: list[list[str]] = [*state.piles, state.supply, state.discard]
    for g in state.players:
        places += [g.clans, g.missions, g.hand]
    for place in places:
        if cid in place:
            place.remove(cid)
            break
    where.append(cid)
    refresh(state)


def own_marriage(state: ClansmanState, p: int) -> str:
    """The default marriage of seat p in tests: its own Kochisei-Shuraku (free)."""
    return f"marry 300 {SEATS[p]}"


def marry(state: ClansmanState, **choices: str) -> None:
    """Play the whole Marriage phase: seats named by colour take the given move, others
    marry into their own Kochisei-Shuraku."""
    assert state.phase == "marriage"
    while state.phase == "marriage":
        p = state.to_move
        assert p is not None
        act(state, choices.get(SEATS[p], own_marriage(state, p)))


def until_turn(state: ClansmanState, seat: int) -> None:
    """In Production, let every seat before `seat` take a free Tadokoro and end its turn."""
    assert state.phase == "production"
    while state.to_move != seat:
        act(state, "obtain 1 tadokoro")


def finish_round(state: ClansmanState) -> None:
    """Play the rest of the round simply: own marriages, then a free Tadokoro each."""
    r = state.round
    if state.phase == "marriage":
        marry(state)
    while not state.is_over() and state.round == r:
        act(state, "obtain 1 tadokoro")


def to_round(state: ClansmanState, r: int) -> None:
    """Play simple rounds until round r's Marriage phase begins."""
    while state.round < r:
        finish_round(state)
    assert state.round == r and state.phase == "marriage"


def pool(state: ClansmanState, **goods: int) -> None:
    """Set the producing seat's pool (goods by name) and refresh."""
    from kamon.games.clansman.data import G

    for name, k in goods.items():
        state.pool[G[name]] = k
    refresh(state)
