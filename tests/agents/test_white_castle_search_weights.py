"""The White Castle's solo search weights: MCTS judges a solo game with SOLO_SEARCH (fitted
to final points), greedy and every game of 2-4 players with PLAY (set by hand); the fitting
script splits a standing exactly as the evaluation adds it up, and recovers known weights.
(The memoised evaluation with either equals the plain one: test_search_speed.)"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kamon.agents.base import hooks_for
from kamon.agents.greedy import lookahead
from kamon.agents.mcts import MCTSAgent
from kamon.agents.mcts import _Node as MCTSNode
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME as WC
from kamon.games.white_castle import evaluation as wc_eval
from kamon.games.white_castle.evaluation import PLAY, SOLO_SEARCH
from kamon.games.white_castle.state import WhiteCastleState
from tests.bench_scripts import bench_module


def _walk(players: int, seed: int) -> list[WhiteCastleState]:
    """The positions of a seeded random game, one per decision."""
    options = {"difficulty": "hard"} if players == 1 else {}
    state = WC.new_game(players, seed, **options)
    rng = Rng(seed)
    out = []
    while not state.is_over():
        out.append(state.clone())
        state.apply(rng.choice(state.legal_ids()))
    return out


def test_mcts_searches_a_solo_game_with_the_fitted_weights_and_others_with_play() -> None:
    """The solo game's search values are SOLO_SEARCH's, greedy's are PLAY's, and they
    differ; a 4-player game's search values are PLAY's."""
    solo = _walk(1, 5)[15]
    hooks = hooks_for(solo)
    assert hooks.fresh_search_evaluation is not None and hooks.fresh_evaluation is not None
    searched = hooks.fresh_search_evaluation(solo)[0](solo)
    assert searched == wc_eval.values(solo, SOLO_SEARCH)
    assert hooks.fresh_evaluation()[0](solo) == wc_eval.values(solo)
    assert searched != wc_eval.values(solo)
    four = _walk(4, 6)[40]
    assert hooks.fresh_search_evaluation(four)[0](four) == wc_eval.values(four, PLAY)


class _RecordingMCTS(MCTSAgent):
    """The real search, noting how deep each search's root priors looked."""

    def __init__(self) -> None:
        """A tiny budget: only the root priors matter here."""
        super().__init__(seed=1, iterations=4)
        self.depths: list[int] = []

    def _softmax(self, node: Any, sample: Any, seat: int, cands: list[int], hooks: Any,
                 depth: int) -> dict[int, float]:
        """Note the depth, then the real priors."""
        self.depths.append(depth)
        return super()._softmax(node, sample, seat, cands, hooks, depth)


def test_a_solo_search_takes_its_root_priors_from_a_whole_turn_and_others_from_greedy(
        ) -> None:
    """In the solo game MCTS's root priors look SOLO_ROOT_DEPTH (a turn) of the player's
    decisions ahead; with 4 players as far as greedy does; and the priors of a whole
    turn favour the move a whole-turn greedy player makes."""
    hooks = hooks_for(_walk(1, 5)[0])
    assert wc_eval.SOLO_ROOT_DEPTH == 6 > hooks.greedy_depth == 2
    agent = _RecordingMCTS()
    solo = next(s for s in _walk(1, 5)[10:] if len(hooks.candidates(s)) > 3)
    four = next(s for s in _walk(4, 6)[40:] if len(hooks.candidates(s)) > 3)
    agent.act(solo)
    agent.act(four)
    assert agent.depths == [6, 2]
    sample = hooks.determinize(solo, solo.to_move, Rng(3))
    evaluate = hooks.fresh_search_evaluation(solo)[1]
    whole_turn = {a: lookahead(_after(sample, a), solo.to_move, hooks, 5,
                               evaluate=evaluate, start=sample)
                  for a in hooks.candidates(sample)}
    priors = agent._softmax(MCTSNode(solo.to_move), sample, solo.to_move,
                            hooks.candidates(sample), hooks, 6)
    assert max(priors, key=priors.__getitem__) == max(whole_turn,
                                                      key=whole_turn.__getitem__)


def _after(state: WhiteCastleState, aid: int) -> WhiteCastleState:
    """A copy of the state after one move."""
    child = state.clone()
    child.apply(aid)
    return child


@pytest.mark.parametrize(("players", "seed"), [(1, 9), (4, 10)])
def test_the_fit_splits_a_standing_as_the_evaluation_adds_it_up(players: int, seed: int
                                                                ) -> None:
    """At every position of a game, the fitting script's parts weighed by PLAY add up to
    the evaluation's own standing of every clan but the rival. (The Lantern and garden
    parts are effects valued in PLAY's units of coins, seals and resources, so with other
    weights the sum is the fit's linear reading of the standing, not the standing.)"""
    fit = bench_module("fit_white_castle_eval")
    checked = 0
    for state in [s for k in range(3) for s in _walk(players, seed + 100 * k)]:
        for q in range(len(state.clans)):
            if q == state.rival:
                continue
            certain, passage, weighed, ahead = fit.parts(state, q)
            row = fit.Row(certain, passage, weighed, ahead, 0, 0.0)
            tl = wc_eval.turns_left(state, q)
            ctx = wc_eval._Ctx(state, q, wc_eval._Units(state.clans[q], tl, PLAY))
            assert fit.predict(row, PLAY) == pytest.approx(wc_eval._standing(ctx), abs=1e-9)
            checked += 1
    assert checked > 80


def test_the_fit_recovers_the_weights_that_made_the_final_points() -> None:
    """Final points made exactly by known weights, points per turn and a constant are
    fitted back to them."""
    fit = bench_module("fit_white_castle_eval")
    truth = wc_eval.Weights(coin=0.3, seal=0.9, res=0.8, left_die=1.2, garden_fires=0.4,
                            warrior_hope=0.7)
    rng = random.Random(3)
    rows = []
    for _ in range(300):
        weighed = tuple(float(rng.randrange(12)) for _ in fit.WEIGHED)
        row = fit.Row(float(rng.randrange(40)), float(rng.randrange(6)), weighed,
                      rng.randrange(7), 0, 0.0)
        rows.append(fit.Row(row.certain, row.passage, weighed, row.ahead, 0,
                            fit.predict(row, truth, 3.7, 2.5)))
    fitted, ahead, constant = fit.fit(rows)
    for name in fit.WEIGHED:
        assert getattr(fitted, name) == pytest.approx(getattr(truth, name), abs=1e-9)
    assert (ahead, constant) == (pytest.approx(3.7, abs=1e-9), pytest.approx(2.5, abs=1e-9))
    assert fit.rmse(rows, PLAY) > 1.0


def test_the_fit_on_real_games_predicts_no_worse_than_the_hand_set_weights() -> None:
    """On a few greedy solo games, the player at the start of each of its 9 turns: the
    fitted weights (a family that holds PLAY's) predict its final points at least as well."""
    fit = bench_module("fit_white_castle_eval")
    rows = fit.collect(4, 5000)
    assert len(rows) == 4 * wc_eval.TURNS
    assert sorted({r.turns_left for r in rows}) == list(range(wc_eval.TURNS))
    fitted, ahead, constant = fit.fit(rows)
    assert fit.rmse(rows, fitted, ahead, constant) <= fit.rmse(rows, PLAY) + 1e-9


def test_the_fit_collects_the_same_rows_in_worker_processes_and_reads_them_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Games of any bot split over two processes give the serial run's rows in its order,
    and a rows file written by one run is read by the next (which then plays nothing)."""
    fit = bench_module("fit_white_castle_eval")
    serial = fit.collect(3, 5000, "random")
    assert fit.collect(3, 5000, "random", jobs=2) == serial
    assert [r.game for r in serial] == [k for k in (5000, 5001, 5002)
                                        for _ in range(wc_eval.TURNS)]
    saved = tmp_path / "rows.jsonl"
    fit.main(["--games", "3", "--agent", "random", "--rows", str(saved)])
    first = capsys.readouterr().out
    assert len(saved.read_text().splitlines()) == len(serial)
    fit.main(["--games", "3", "--agent", "random", "--rows", str(saved)])
    again = capsys.readouterr().out
    assert "3 random solo games" in first
    assert again.splitlines()[1:] == first.splitlines()[1:]  # the same fit, but the time


def test_the_tuning_plays_every_weight_set_on_the_same_deals_in_one_process_or_two() -> None:
    """A weight set's margins are the same deal by deal whether played in this process or
    in two workers (so two sets are compared on common deals), and a set changed in
    one weight plays differently somewhere."""
    tuner = bench_module("tune_white_castle_eval")
    one = tuner.Judge(range(5000, 5003), 6, 1)
    two = tuner.Judge(range(5000, 5003), 6, 2)
    try:
        serial = one.margins(PLAY)
        assert two.margins(PLAY) == serial
        assert one.margins(replace(PLAY, res=0.0)) != serial
    finally:
        two.close()


def test_the_tuning_keeps_no_trial_that_does_not_gain(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """A trial equal to the current weights gains nothing and is not kept; `--check`
    prints the paired difference of two sets; an unknown weight is refused by name."""
    tuner = bench_module("tune_white_castle_eval")
    judge = tuner.Judge(range(5000, 5002), 6, 1)
    assert tuner.tune(judge, PLAY, ["seal"], [1.0], keep=0.0) == PLAY
    out = capsys.readouterr().out
    assert "seal x1.0" in out and "paired +0.00" in out and "kept" not in out
    tuner.main(["--deals", "2", "--seed", "5000", "--check", f"seal={PLAY.seal}"])
    assert "paired +0.00 (se 0.00)" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="unknown weight 'gold'"):
        tuner.main(["--deals", "2", "--check", "gold=1"])
