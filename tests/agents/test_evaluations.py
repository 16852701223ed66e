"""The games' evaluations for the bots: exact at the end, public-only samples, sane terms."""

from __future__ import annotations

import pytest

from kamon.agents.base import hooks_for
from kamon.core.rng import Rng
from kamon.games.clansman import GAME as CLANSMAN
from kamon.games.clansman import actions as CA
from kamon.games.clansman import evaluation as cs_eval
from kamon.games.clansman.state import ClansmanState
from kamon.games.white_castle import GAME as WC
from kamon.games.white_castle import actions as A
from kamon.games.white_castle import evaluation as wc_eval
from kamon.games.white_castle.state import WhiteCastleState


def wc_random(players: int, seed: int, steps: int) -> WhiteCastleState:
    """A White Castle position after `steps` random decisions."""
    state = WC.new_game(players, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_ids()))
    return state


def cs_random(seed: int, steps: int, **options: object) -> ClansmanState:
    """An I, Clansman position after `steps` random decisions."""
    state = CLANSMAN.new_game(4, seed, **options)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_ids()))
    return state


def test_both_games_provide_their_evaluation_hooks() -> None:
    """The bots find each game's evaluation module from the state alone."""
    wc = hooks_for(WC.new_game(2, 1))
    cs = hooks_for(CLANSMAN.new_game(4, 1))
    assert wc.has_evaluation and cs.has_evaluation
    assert wc.greedy_depth == 2 and cs.greedy_depth == 1


@pytest.mark.parametrize("players", [1, 2, 4])
def test_white_castle_values_are_the_final_scores_at_the_end(players: int) -> None:
    """Once the game is over the estimate is the score itself (solo rival included)."""
    state = wc_random(players, 3, 100_000)
    assert state.is_over()
    assert wc_eval.values(state) == [float(s["total"]) for s in state.scores()]


def test_clansman_values_are_the_final_scores_at_the_end() -> None:
    """Once the game is over the estimate is the score itself."""
    state = cs_random(3, 100_000)
    assert state.is_over()
    assert cs_eval.values(state) == [float(s["total"]) for s in state.scores()]


def test_white_castle_values_count_resources_while_turns_remain() -> None:
    """Early on, a resource more is worth more than nothing; in the last turn only thresholds."""
    state = WC.new_game(2, 4)
    while state.stack[-1][0] != "take":
        state.apply(state.legal_ids()[0])
    richer = state.clone()
    richer.clans[0].res[0] += 1
    assert wc_eval.values(richer)[0] > wc_eval.values(state)[0]
    assert wc_eval.turns_left(state, 1) == 9


def test_white_castle_candidates_skip_seal_exchanges_before_the_last_turn() -> None:
    """Exchanges are legal but not searched while the engine would exchange by itself."""
    state = wc_random(3, 2, 30)
    state.clans[state.to_move or 0].seals = 3
    state._legal = None
    legal = set(state.legal_ids())
    assert A.EXCHANGE_COIN in legal
    assert A.EXCHANGE_COIN not in wc_eval.candidates(state)
    assert set(wc_eval.candidates(state)) == legal - wc_eval.EXCHANGES


def test_white_castle_evaluate_is_value_minus_half_the_best_rival() -> None:
    """evaluate() = own value - REL * the best other clan's value."""
    state = wc_random(4, 5, 60)
    vals = wc_eval.values(state)
    assert wc_eval.evaluate(state, 2) == pytest.approx(
        vals[2] - wc_eval.REL * max(v for q, v in enumerate(vals) if q != 2))


def test_white_castle_samples_depend_on_the_view_only() -> None:
    """Two states differing in hidden deck order and dice RNG give the same sample."""
    state = wc_random(3, 6, 40)
    other = state.clone()
    Rng(99).shuffle(other.steward_deck)
    Rng(98).shuffle(other.diplomat_deck)
    other.rng = Rng(12345)
    a = wc_eval.determinize(state, 0, Rng(7))
    b = wc_eval.determinize(other, 0, Rng(7))
    assert a.dumps() == b.dumps()
    assert sorted(a.steward_deck) == sorted(state.steward_deck)


def test_clansman_samples_depend_on_the_view_only() -> None:
    """Two states differing in the century piles' order and the RNG give the same sample."""
    state = cs_random(6, 30)
    other = state.clone()
    for k, pile in enumerate(other.piles):
        Rng(k).shuffle(pile)
    other.rng = Rng(4242)
    a = cs_eval.determinize(state, 0, Rng(7))
    b = cs_eval.determinize(other, 0, Rng(7))
    assert a.dumps() == b.dumps()


def test_clansman_turn_planner_finds_an_obtain() -> None:
    """At the start of a Production turn the plan is worth something, and a free Tadokoro's worth."""
    state = CLANSMAN.new_game(4, 2)
    while state.phase != "production":
        state.apply(state.legal_ids()[0])
    p = state.to_move
    assert p is not None
    after_g = state.clone()
    after_g.apply(CA.OBTAIN_G)
    gain_g = cs_eval.seat_value(after_g, p) - cs_eval.seat_value(state, p, plan=False)
    finish = cs_eval.best_finish(state, p)
    assert finish > 0 and finish >= gain_g - 1e-9


def test_clansman_outlook_values_a_marriage_by_the_turn_it_enables() -> None:
    """During the Marriage phase evaluate() looks ahead to the seat's Production turn."""
    state = CLANSMAN.new_game(4, 5)
    assert state.phase == "marriage"
    p = state.to_move
    assert p is not None
    ahead = cs_eval.outlook(state, p)
    assert ahead is not None and ahead > cs_eval.seat_value(state, p, plan=False)
    assert cs_eval.outlook(cs_random(5, 100_000), p) is None


def test_clansman_expert_positions_evaluate() -> None:
    """Expert games (Kofun, Emperors) evaluate at every decision without error."""
    state = CLANSMAN.new_game(4, 8, expert=True, emperor_side="B")
    rng = Rng(8)
    while not state.is_over():
        p = state.to_move
        assert p is not None
        assert isinstance(cs_eval.evaluate(state, p), float)
        state.apply(rng.choice(state.legal_ids()))
