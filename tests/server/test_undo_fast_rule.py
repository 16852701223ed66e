"""The undo rule's cheap answer (a move that left the game's hidden parts untouched
revealed nothing) gives the same answer as the sampling rule, over random games of both
games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kamon.core.undo import hidden_key_of, may_undo, reveals, reveals_by_sampling
from kamon.games import get_game

CASES = [
    ("white-castle", 2, {}), ("white-castle", 3, {}), ("white-castle", 4, {}),
    ("white-castle", 1, {"difficulty": "hard"}),
    ("clansman", 4, {}), ("clansman", 4, {"expert": True}),
]


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_hidden_key_answer_matches_the_sampling_rule(name: str, players: int,
                                                     options: dict[str, Any]) -> None:
    game = get_game(name)
    key = None
    untouched = touched = 0
    for seed in (3, 11, 19):
        rng = random.Random(seed)
        state = game.new_game(players, seed, **options)
        key = hidden_key_of(state)
        assert key is not None, f"{name} has no hidden_key helper"
        for _ in range(3000):  # whole games (a game ends well before)
            if state.is_over():
                break
            seat = state.to_move
            assert seat is not None
            aid = rng.choice([a.id for a in state.legal_actions()])
            before = state.clone()
            state.apply(aid)
            sampled = reveals_by_sampling(before, aid, state, seat)
            if key(before) == key(state):
                untouched += 1
                assert not sampled, f"{name} seed {seed}: move {aid} left the hidden " \
                                    f"parts untouched but the sampling rule sees it reveal"
            else:
                touched += 1
            assert reveals(before, aid, state, seat) == sampled
            assert may_undo(before, aid, state, seat, seat) == (
                not sampled and not state.is_over())
    assert untouched > 20 and touched > 3, (untouched, touched)  # both answers exercised


def test_the_key_sees_a_draw_and_a_roll() -> None:
    state = get_game("white-castle").new_game(2, 5)
    key = hidden_key_of(state)
    assert key is not None
    before = key(state)
    state.rng.next_u64()
    assert key(state) != before  # a die rolled
    after_roll = key(state)
    state.steward_deck.pop()
    assert key(state) != after_roll  # a card drawn


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_every_seat_sees_the_spectators_view(name: str, players: int,
                                             options: dict[str, Any]) -> None:
    # What lets the server build one view a move (hidden.SAME_VIEW_FOR_EVERY_SEAT).
    from kamon.server.views import same_view_for_every_seat
    state = get_game(name).new_game(players, 7, **options)
    assert same_view_for_every_seat(state)
    rng = random.Random(7)
    for step in range(400):
        if state.is_over():
            break
        if step % 7 == 0:
            public = state.view(None)
            for seat in range(players):
                assert state.view(seat) == {**public, "seat": seat}
        state.apply(rng.choice([a.id for a in state.legal_actions()]))
