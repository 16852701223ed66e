"""I, Clansman's two sets of evaluation weights: MCTS judges positions with SEARCH (fitted
to final VPs), greedy with GREEDY (set by hand); and the script that fitted SEARCH
recovers known weights. (The memoised evaluation with either equals the plain one:
test_search_speed.)"""

from __future__ import annotations

import random

import pytest

from kamon.agents.base import hooks_for
from kamon.core.rng import Rng
from kamon.games.clansman import GAME as CLANSMAN
from kamon.games.clansman import evaluation as cs_eval
from kamon.games.clansman.evaluation import GREEDY, SEARCH
from kamon.games.clansman.state import ClansmanState
from kamon.games.white_castle import GAME as WC
from tests.bench_scripts import bench_module


def _midgame(seed: int, steps: int = 120, **options: object) -> ClansmanState:
    """A position after `steps` seeded random decisions."""
    state = CLANSMAN.new_game(4, seed, **options)
    rng = Rng(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_ids()))
    return state


def test_mcts_searches_with_the_fitted_weights_and_greedy_with_the_hand_set_ones() -> None:
    """The hooks give MCTS the SEARCH evaluation and greedy the GREEDY one, and the two
    differ; The White Castle with 2 players searches with greedy's own weights."""
    state = _midgame(21)
    hooks = hooks_for(state)
    assert hooks.fresh_search_evaluation is not None and hooks.fresh_evaluation is not None
    search_values = hooks.fresh_search_evaluation(state)[0](state)
    greedy_values = hooks.fresh_evaluation()[0](state)
    assert search_values == [cs_eval.seat_value(state, q, w=SEARCH) for q in range(4)]
    assert greedy_values == cs_eval.values(state)
    assert search_values != greedy_values
    wc = WC.new_game(2, 3)
    wc_hooks = hooks_for(wc)
    assert wc_hooks.fresh_search_evaluation is not None
    assert wc_hooks.fresh_search_evaluation(wc)[0](wc) == wc_hooks.values(wc)


def test_the_fit_recovers_the_weights_that_made_the_final_scores() -> None:
    """Final VPs made exactly by known weights (and a per-round term) are fitted back to
    those weights: the fit's features and least squares are the evaluation's own."""
    fit = bench_module("fit_clansman_eval")
    truth = cs_eval.Weights(vp_per_worth=0.41, saturation=GREEDY.saturation, iron=1.1,
                            statue=0.35, mirror_kofun=GREEDY.mirror_kofun, hand=0.12)
    rng = random.Random(7)
    rows = []
    for _ in range(200):
        ra, worth = rng.randrange(16), rng.randrange(2, 15) + 0.5 * rng.randrange(2)
        iron, statue, hand, total = (rng.randrange(5), rng.randrange(4), rng.randrange(12),
                                     rng.randrange(30))
        final = (total + ra * (cs_eval.round_vp(worth, truth) + 0.7) + truth.iron * iron
                 + truth.statue * statue + truth.hand * hand)
        rows.append(fit.Row(total, ra, worth, iron, statue, hand, 16 - ra, final))
    fitted, per_round = fit.fit(rows)
    for name in ("vp_per_worth", "iron", "statue", "hand"):
        assert getattr(fitted, name) == pytest.approx(getattr(truth, name), abs=1e-9)
    assert per_round == pytest.approx(0.7, abs=1e-9)
    assert fit.rmse(rows, fitted, per_round) == pytest.approx(0.0, abs=1e-9)
    assert fit.rmse(rows, GREEDY) > 1.0


def test_the_fit_on_real_games_predicts_no_worse_than_the_hand_set_weights() -> None:
    """On a few greedy games, every seat noted at every round's start: the fitted weights
    (a family that holds GREEDY's) predict the final VPs at least as well as GREEDY's."""
    fit = bench_module("fit_clansman_eval")
    rows = fit.collect(3, 5000)
    assert len(rows) == 3 * 16 * 4
    assert {r.round for r in rows} == set(range(1, 17))
    fitted, per_round = fit.fit(rows)
    assert fit.rmse(rows, fitted, per_round) <= fit.rmse(rows, GREEDY) + 1e-9
