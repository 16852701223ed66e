"""What makes the search cheaper changes no result: memoised evaluations equal the plain
ones, samples equal determinize's, kept positions never change; and the expert level."""

from __future__ import annotations

import time
from typing import Any

import pytest

import kamon.agents as agents_pkg
from kamon.agents import LEVELS, GreedyAgent, MCTSAgent, make_agent
from kamon.agents.base import hooks_for
from kamon.core.protocol import State
from kamon.core.rng import Rng
from kamon.games.clansman import GAME as CLANSMAN
from kamon.games.clansman import evaluation as cs_eval
from kamon.games.white_castle import GAME as WC
from kamon.games.white_castle import evaluation as wc_eval

LINES: list[tuple[Any, Any, int, int, dict[str, Any], Any]] = [
    (WC, wc_eval, 4, 11, {}, wc_eval.PLAY),
    (WC, wc_eval, 1, 12, {"difficulty": "hard"}, wc_eval.PLAY),
    (WC, wc_eval, 1, 8, {"difficulty": "hard"}, wc_eval.SOLO_SEARCH),  # the solo search's
    (CLANSMAN, cs_eval, 4, 13, {}, cs_eval.GREEDY),
    (CLANSMAN, cs_eval, 4, 14, {"expert": True, "emperor_side": "B"}, cs_eval.GREEDY),
    (CLANSMAN, cs_eval, 4, 31, {}, cs_eval.SEARCH),  # the search's weights
    (CLANSMAN, cs_eval, 4, 31, {"expert": True}, cs_eval.SEARCH),
]


@pytest.mark.parametrize(("game", "module", "players", "seed", "options", "weights"), LINES)
def test_memoised_evaluations_equal_the_plain_ones(game: Any, module: Any, players: int,
                                                   seed: int, options: dict[str, Any],
                                                   weights: Any) -> None:
    """Along a seeded game, and after every move from its positions (what priors value),
    fresh_evaluation's values and evaluate are exactly values and evaluate, with greedy's
    weights and with the search's."""
    values, evaluate = module.fresh_evaluation(weights)
    state = game.new_game(players, seed, **options)
    rng = Rng(seed)
    checked = 0
    while not state.is_over() and checked < 900:
        for aid in state.legal_ids()[:5]:
            child = state.clone()
            child.apply(aid)
            for s in (state, child):
                assert values(s) == module.values(s, weights)
                for q in range(s.num_players):
                    assert evaluate(s, q) == module.evaluate(s, q, weights)
                checked += 1
        state.apply(rng.choice(state.legal_ids()))
    assert checked > 200


@pytest.mark.parametrize(("game", "players", "options"),
                         [(WC, 3, {}), (CLANSMAN, 4, {"expert": True})])
def test_a_sampler_draws_what_determinize_draws(game: Any, players: int,
                                                options: dict[str, Any]) -> None:
    """sampler(state, seat)(rng) prepares once what determinize does every time: the same
    sample for the same rng (log aside, which samples leave out)."""
    state = game.new_game(players, 5, **options)
    rng = Rng(5)
    for _ in range(30):
        state.apply(rng.choice(state.legal_ids()))
    hooks = hooks_for(state)
    assert hooks.sampler is not None
    draw = hooks.sampler(state, 1)
    for k in range(3):
        a, b = draw(Rng(k)), hooks.determinize(state, 1, Rng(k))
        assert a.dumps() == b.dumps()
        assert a.events == [] and a.history == []
        assert a.view(1)["round"] == state.view(1)["round"]


def positions(game: Any, players: int, seed: int, steps: int,
              **options: Any) -> State:
    """A position after `steps` seeded random decisions."""
    state = game.new_game(players, seed, **options)
    rng = Rng(seed)
    for _ in range(steps):
        assert not state.is_over()
        state.apply(rng.choice(state.legal_ids()))
    return state


@pytest.mark.parametrize(("game", "players", "steps"),
                         [(WC, 4, 70), (WC, 2, 50), (CLANSMAN, 4, 60)])
def test_kept_positions_make_the_search_replay_nothing_and_change_nothing(
        game: Any, players: int, steps: int) -> None:
    """A search keeps positions on its nodes (those games say what is hidden); the position
    it was shown is untouched, and the same seed still gives the same move."""
    state = positions(game, players, 3, steps)
    before = state.dumps()
    agent = MCTSAgent(4, iterations=150)
    move = agent.act(state)
    assert agent.last_iterations == 150 and agent.last_kept > 50
    assert state.dumps() == before
    assert MCTSAgent(4, iterations=150).act(state) == move
    assert move in state.legal_actions()


def test_below_a_chance_move_each_determinization_is_walked_alike() -> None:
    """Near a round's end (dice are rolled for the next round) the search keeps at most
    `determinizations` samples per node and plays legal moves only."""
    state = WC.new_game(3, 8)
    rng = Rng(8)
    while state.dice_left() > 5:  # a few dice before the round ends
        state.apply(rng.choice(state.legal_ids()))
    for k in (1, 3):
        agent = MCTSAgent(2, iterations=200, determinizations=k)
        assert agent.act(state) in state.legal_actions()
    with pytest.raises(ValueError, match="determinizations"):
        MCTSAgent(0, determinizations=0)


def test_greedy_stays_within_its_turn_in_the_solo_game() -> None:
    """Solo: declining the card's Gardener action would only bring the next die sooner;
    greedy's lookahead no longer crosses into the next turn to prefer that."""
    state = WC.new_game(1, 5008, difficulty="hard")
    for text in ("take coral left", "place well", "take coral right", "place domain"):
        state.apply(WC.parse_action(state, text))
    assert [str(a) for a in state.legal_actions()][:2] == ["card first", "done"]
    assert str(GreedyAgent(3).act(state)) == "card first"
    assert str(MCTSAgent(0, iterations=300).act(state)) == "card first"


def test_white_castle_values_mean_the_same_at_every_stage_of_a_turn() -> None:
    """A turn begun (its die not yet taken) is worth TAKE, the turns to come AHEAD_TURN
    each, and the solo rival its points plus RIVAL_TURN a turn left."""
    state = WC.new_game(4, 2)
    while state.stack[-1][0] != "take":
        state.apply(state.legal_ids()[0])
    p = state.to_move
    assert p is not None
    vals = wc_eval.values(state)
    later = wc_eval.turns_left(state, p)
    assert later == wc_eval.TURNS - 1
    others = [q for q in range(4) if q != p]
    ahead = wc_eval.AHEAD_TURN * (wc_eval.TURNS - wc_eval.AHEAD_FROM)
    assert vals[p] > ahead - wc_eval.AHEAD_TURN + wc_eval.TAKE - 1
    assert all(vals[q] > ahead - 1 for q in others)
    solo = WC.new_game(1, 2, difficulty="hard")
    rival = solo.rival
    assert rival is not None
    assert wc_eval.values(solo)[rival] >= solo.clans[rival].cp + wc_eval.RIVAL_END + \
        wc_eval.RIVAL_TURN * wc_eval.turns_left(solo, rival) > 40


@pytest.mark.parametrize(("game", "players", "seed", "options"),
                         [(WC, 1, 31, {"difficulty": "hard"}), (WC, 4, 32, {}),
                          (CLANSMAN, 4, 33, {})])
def test_stopping_once_decided_plays_the_whole_budgets_move(
        game: Any, players: int, seed: int, options: dict[str, Any]) -> None:
    """stop_early ends a search once no other root move can catch up with the most visited
    one: the same move as the whole budget, from fewer iterations over a seeded game."""
    state = game.new_game(players, seed, **options)
    bot = GreedyAgent(seed)
    saved = searched = 0
    while searched < 10:
        if len(state.legal_ids()) > 1 and state.to_move is not None:
            early = MCTSAgent(seed + searched, iterations=400, stop_early=True)
            whole = MCTSAgent(seed + searched, iterations=400)
            assert early.act(state).id == whole.act(state).id
            assert early.last_iterations <= whole.last_iterations == 400
            saved += whole.last_iterations - early.last_iterations
            searched += 1
        state.apply(bot.act(state))
    assert saved > 0


def test_hard_stops_early_and_plain_mcts_does_not() -> None:
    """The hard level stops once decided; plain MCTSAgent (and the speed benchmark's
    budgets) spends its whole budget unless asked."""
    hard = make_agent("hard", 1)
    assert isinstance(hard, MCTSAgent) and hard.stop_early
    assert not MCTSAgent(1).stop_early


def test_expert_thinks_for_its_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """expert is MCTS with a wall-clock budget (EXPERT_SECONDS) and no iteration cap."""
    assert "wall clock" in LEVELS["expert"].summary
    agent = make_agent("expert", 1)
    assert isinstance(agent, MCTSAgent) and agent.name == "expert"
    assert agent.iterations is None and agent.seconds == agents_pkg.EXPERT_SECONDS
    monkeypatch.setattr(agents_pkg, "EXPERT_SECONDS", 0.2)
    state = positions(WC, 4, 6, 20)
    quick = make_agent("expert", 2)
    start = time.perf_counter()
    move = quick.act(state)
    assert time.perf_counter() - start < 5.0
    assert move in state.legal_actions()
    assert isinstance(quick, MCTSAgent) and quick.last_iterations >= 1


def test_white_castle_search_samples_write_no_log_and_search_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Search samples carry the one empty UNLOGGED log (their clones too, and their JSON
    says []), the real game keeps its own; and an MCTS search chooses exactly what it
    chose when samples kept a log, over the decisions of a seeded solo game."""
    from kamon.games.white_castle.base import UNLOGGED

    state = WC.new_game(1, 21, difficulty="hard")
    before = list(state.events)
    sample = wc_eval.determinize(state, 0, Rng(3))
    assert sample.events is UNLOGGED and sample.clone().events is UNLOGGED
    for _ in range(25):
        sample.apply(sample.legal_ids()[0])
    assert len(UNLOGGED) == 0 and sample.to_json()["events"] == []
    assert state.events == before and len(before) > 0
    chosen = _searched_moves(state)
    logged = wc_eval._canonical

    def with_log(s: Any) -> Any:
        canon = logged(s)
        canon.events = []
        return canon

    monkeypatch.setattr(wc_eval, "_canonical", with_log)
    assert wc_eval.determinize(state, 0, Rng(3)).events is not UNLOGGED
    assert _searched_moves(WC.new_game(1, 21, difficulty="hard")) == chosen


def _searched_moves(state: Any, count: int = 5) -> list[int]:
    """MCTS's choices at the first `count` real decisions of a game greedy plays on."""
    chosen: list[int] = []
    bot = GreedyAgent(4)
    while len(chosen) < count:
        if len(state.legal_ids()) > 1:
            chosen.append(MCTSAgent(7, iterations=150).act(state).id)
        state.apply(bot.act(state))
    return chosen
