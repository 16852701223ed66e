"""The solo White Castle's search evaluation: the player's own points against the rival as
valued at the search's root; any other game or player count is the plain evaluation."""

from __future__ import annotations

from kamon.agents import GreedyAgent, MCTSAgent
from kamon.agents.base import hooks_for
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME as WC
from kamon.games.white_castle import evaluation as wc_eval


def test_solo_search_values_hold_the_rival_at_the_root() -> None:
    """Along a seeded solo game, the search's values give the player what values() gives
    and the rival the root's value, and evaluate() weighs that fixed rival by REL."""
    root = WC.new_game(1, 41, difficulty="hard")
    rival = root.rival
    assert rival is not None
    values, evaluate = wc_eval.search_evaluation(root)
    fixed = wc_eval.values(root)[rival]
    state = root.clone()
    rng = Rng(41)
    seen_rival_change = False
    checked = 0
    while not state.is_over() and checked < 150:
        plain = wc_eval.values(state)
        got = values(state)
        assert got[0] == plain[0]
        assert got[rival] == fixed
        assert evaluate(state, 0) == plain[0] - wc_eval.REL * fixed
        seen_rival_change |= plain[rival] != fixed
        checked += 1
        state.apply(rng.choice(state.legal_ids()))
    assert seen_rival_change  # the plain rival value moved: holding it is not a no-op


def test_search_evaluation_is_plain_with_several_players() -> None:
    """With 4 clans there is no rival to hold: the search's values are values()."""
    root = WC.new_game(4, 42)
    values, evaluate = wc_eval.search_evaluation(root)
    state = root.clone()
    bot = GreedyAgent(42)
    for _ in range(60):
        assert values(state) == wc_eval.values(state)
        assert evaluate(state, 1) == wc_eval.evaluate(state, 1)
        state.apply(bot.act(state))


def test_mcts_uses_the_games_search_evaluation() -> None:
    """MCTS takes the solo game's search evaluation from the hooks (the rival held)."""
    state = WC.new_game(1, 43, difficulty="hard")
    hooks = hooks_for(state)
    assert hooks.search_evaluation is wc_eval.search_evaluation
    agent = MCTSAgent(43, iterations=60)
    agent.act(state)
    rival = state.rival
    assert rival is not None
    later = state.clone()
    bot = GreedyAgent(43)
    while later.placements[rival] == state.placements[rival]:
        later.apply(bot.act(later))
    assert agent._values(later)[rival] == wc_eval.values(state)[rival]
