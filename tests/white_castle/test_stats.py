"""The White Castle's post-game statistics (stats.py), from a record by replay: the points
by category at the start and each round's end agree with the game's scores, and each
clan's figures with what its pieces and the record say."""

from __future__ import annotations

import random

import pytest

from kamon.games.white_castle import GAME
from kamon.games.white_castle import actions as A
from kamon.games.white_castle.stats import game_stats


def _played(players: int, seed: int, **options: object) -> tuple[list[int], object]:
    """A random game's action ids and its final state."""
    state = GAME.new_game(players, seed, **options)
    rng = random.Random(seed)
    ids = []
    while not state.is_over():
        a = rng.choice(state.legal_actions())
        ids.append(a.id)
        state.apply(a)
    return ids, state


@pytest.mark.parametrize(("players", "options"), [(3, {}), (1, {"difficulty": "hard"})])
def test_the_statistics_agree_with_the_game(players: int, options: dict[str, str]) -> None:
    """Points: the start, rounds 1 and 2, the end (the game's final scores); every clan
    took 9 dice (3 a round) and each climb's room is listed; the cards obtained are the
    starting card and the castle cards taken; every log line that starts with a clan's
    name is that clan's."""
    ids, final = _played(players, 4, **options)
    stats = game_stats(GAME.new_game(players, 4, **options), ids)
    assert [p["label"] for p in stats["points"]] == ["Start", "Round 1", "Round 2", "Final"]
    assert stats["points"][-1]["scores"] == final.scores()
    assert stats["points"][-1]["step"] == len(ids)
    assert all(set(s) == {*stats["categories"], "total"}
               for p in stats["points"] for s in p["scores"])
    fig = {f["label"]: f["values"] for f in stats["figures"]}
    for q, c in enumerate(final.clans):
        assert sum(fig["Dice taken"][q].values()) == 9 == final.placements[q]
        assert fig["Courtiers sent"][q] == 5 - c.left[0]
    climbs = [A.CLIMB_OF[a][1] for a in ids if a in A.CLIMB_OF]
    humans = sum(len([r for r in v.split(", ") if r != "none"]) for v in fig["Rooms reached"][:1])
    if players > 1:
        assert humans + sum(len([r for r in v.split(", ") if r != "none"])
                            for v in fig["Rooms reached"][1:]) == len(climbs)
    assert all(n >= 1 for n in fig["Cards obtained"][:final.num_players])
    assert len(stats["log_parties"]) == len(final.events)
    for line, q in zip(final.events, stats["log_parties"], strict=True):
        if q is not None:
            assert line.startswith(final.name(q)) or "rival" in line[:12], (line, q)
        else:
            assert not any(line.startswith(final.name(c) + " ") for c in range(players))
