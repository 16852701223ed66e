"""Head-to-head matches of two agents built here (not by name): the training run's
strength check, and the tests' quick comparisons."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kamon.agents import agent_seed
from kamon.games import get_game


def play(game: str, players: int, options: dict[str, Any], seed: int,
         bots: list[Any]) -> tuple[list[float], list[int]]:
    """Play one game with `bots` in seat order; (every clan's final points, winners)."""
    state = get_game(game).new_game(players, seed, **options)
    while not state.is_over():
        p = state.to_move
        if p is None:
            break
        state.apply(bots[p].act(state))
    return [float(s["total"]) for s in state.scores()], list(state.winners())


def head_to_head(game: str, players: int, options: dict[str, Any],
                 make_a: Callable[[int], Any], make_b: Callable[[int], Any], games: int,
                 seed: int) -> dict[str, Any]:
    """A against B: seats alternate A, B, A, B (a solo game: A against the rival), the
    lineup rotated every game, each deal played from two rotations. A's win share
    (shared wins split), mean points and B's (the rival's in a solo game)."""
    wins = 0.0
    a_points: list[float] = []
    b_points: list[float] = []
    for g in range(games):
        deal = seed + g // 2
        rot = g % 2
        kinds = [(q + rot) % 2 for q in range(players)]  # 0: A, 1: B
        bots = [(make_a if k == 0 else make_b)(agent_seed(deal * 31 + rot, q))
                for q, k in enumerate(kinds)]
        totals, best = play(game, players, options, deal, bots)
        a_seats = [q for q, k in enumerate(kinds) if k == 0]
        b_seats = [q for q in range(len(totals)) if q not in a_seats]
        if players == 1:
            b_seats = [1]
        wins += sum(1 for q in best if q in a_seats) / max(1, len(best))
        a_points += [totals[q] for q in a_seats]
        b_points += [totals[q] for q in b_seats]
    return {"games": games, "win_rate": round(wins / max(1, games), 3),
            "mean_score": round(sum(a_points) / max(1, len(a_points)), 2),
            "field_score": round(sum(b_points) / max(1, len(b_points)), 2)}
