"""End-of-game rewards: placement (+1 first ... -1 last, shared places averaged, zero-sum)
and margin (score minus the best other, scaled and clipped), on real finished games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kamon.core.protocol import State
from kamon.games import get_game
from kamon.rl.encoding import check_reward_mode, encoding, final_rewards, placements
from tests.rl.registry import SETUPS, setup_id


def finished(game: str, players: int, seed: int, **options: Any) -> State:
    """A random game played to its end."""
    state = get_game(game).new_game(players, seed=seed, **options)
    rng = random.Random(seed)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    return state


# Every registered game in each of its set-ups with two or more clans (the solo game's
# reward is its own test).
RANKED = [s for s in SETUPS if s[1] > 1]


@pytest.mark.parametrize(("game", "players", "options"), RANKED, ids=map(setup_id, RANKED))
def test_placement_rewards_rank_the_clans_and_sum_to_zero(
        game: str, players: int, options: dict[str, Any]) -> None:
    """Winners get the top reward, a higher total never earns less, the rewards sum to 0 and
    run from +1 to -1 when nobody shares a place."""
    for seed in range(6):
        state = finished(game, players, seed, **options)
        rewards = final_rewards(state, "placement", encoding(game).margin_scale)
        totals = [s["total"] for s in state.scores()]
        assert sum(rewards) == pytest.approx(0.0)
        best = max(rewards)
        assert {q for q, r in enumerate(rewards) if r == best} == set(state.winners())
        losers = [q for q in range(players) if q not in state.winners()]
        for a in losers:
            for b in losers:
                if totals[a] > totals[b]:
                    assert rewards[a] > rewards[b]
        if len(set(placements(state))) == players:
            assert sorted(rewards) == pytest.approx(
                [-1 + 2 * i / (players - 1) for i in range(players)])


def test_shared_places_split_their_rewards() -> None:
    """A seat's place is the clans ahead of it (winners first, then higher totals) plus half
    of the others sharing its place; its reward is that place on the +1..-1 scale. Ties
    (non-winners with equal totals, or a shared I, Clansman victory) do occur."""
    seen_shared = False
    for seed in range(30):
        state = finished("clansman", 4, seed)
        totals = [s["total"] for s in state.scores()]
        winners = set(state.winners())
        rewards = final_rewards(state, "placement", 30.0)
        for q in range(4):
            if q in winners:
                ahead, group = 0, len(winners)
            else:
                ahead = len(winners) + sum(1 for o in range(4)
                                           if o not in winners and totals[o] > totals[q])
                group = sum(1 for o in range(4) if o not in winners and totals[o] == totals[q])
            seen_shared = seen_shared or group > 1
            place = ahead + (group - 1) / 2
            assert rewards[q] == pytest.approx(1 - 2 * place / 3)
    assert seen_shared  # 30 random games hold some tie, so sharing was exercised


def test_solo_reward_is_win_or_loss_against_the_rival() -> None:
    """In the solo game only seat 0 has a reward: +1 if it beats the Tokugawa rival, -1 if
    the rival wins (the rival is a clan in the scores, not a seat)."""
    for seed in range(5):
        state = finished("white-castle", 1, seed, difficulty="easy")
        rewards = final_rewards(state, "placement", 50.0)
        assert len(rewards) == 1
        assert rewards[0] == (1.0 if state.winners() == [0] else -1.0)


def test_margin_reward_is_the_scaled_lead_over_the_best_other() -> None:
    """Margin: (own total - best other total) / MARGIN_SCALE, clipped to [-1, 1]."""
    for game, players in (("white-castle", 3), ("clansman", 4), ("white-castle", 1)):
        scale = encoding(game).margin_scale
        for seed in range(4):
            state = finished(game, players, seed)
            totals = [s["total"] for s in state.scores()]
            rewards = final_rewards(state, "margin", scale)
            for q, r in enumerate(rewards):
                lead = totals[q] - max(t for o, t in enumerate(totals) if o != q)
                assert r == pytest.approx(max(-1.0, min(1.0, lead / scale)))


def test_an_unknown_reward_mode_is_refused() -> None:
    """A reward mode that does not exist is named in the error with the known ones."""
    with pytest.raises(ValueError, match="placement, margin"):
        check_reward_mode("points")
