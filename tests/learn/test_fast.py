"""The fast level (issue 37): greedy's lookahead with the trained network's value mixed
in (I, Clansman) or a deeper look at greedy's favourite moves (The White Castle)."""

from __future__ import annotations

from typing import Any

import numpy as np

from kamon.agents import make_agent
from kamon.agents.greedy import GreedyAgent
from kamon.games import get_game
from kamon.learn.agents import FAST_SETTINGS, FastAgent, FastSettings
from kamon.learn.net import Net, shipped_net


def _moves(game: str, players: int, options: dict[str, Any], bots: list[Any],
           decisions: int, seed: int = 5) -> list[str]:
    """The first `decisions` moves of a game played by `bots` (seat order)."""
    state = get_game(game).new_game(players, seed, **options)
    out = []
    for _ in range(decisions):
        if state.is_over():
            break
        mover = state.to_move
        assert mover is not None
        action = bots[mover].act(state)
        assert action in state.legal_actions()
        out.append(str(action))
        state.apply(action)
    return out


def _blind(net: Net) -> Net:
    """The network with its value head zeroed: every clan's estimated points equal."""
    arrays: dict[str, np.ndarray] = {}
    for i, (w, b) in enumerate(net.layers):
        arrays[f"W{i}"], arrays[f"b{i}"] = w, b
    arrays.update(Wp=net.wp, bp=net.bp, Wv=np.zeros_like(net.wv), bv=np.zeros_like(net.bv))
    return Net(arrays, net.meta)


def test_fast_adds_the_networks_lead_to_greedys_evaluation_in_clansman() -> None:
    """With a value head that sees no lead, greedy's evaluation plus the network's lead
    plays greedy's moves exactly (same seeds); with the shipped network's values it plays
    other moves somewhere in the first decisions: the network's value really steers the
    lookahead."""
    mixed = FAST_SETTINGS["clansman"]
    assert mixed.net_weight == 0.5 and not mixed.beam
    net = shipped_net("clansman")
    opts = {"expert": True}
    greedy = _moves("clansman", 4, opts, [GreedyAgent(q) for q in range(4)], 100)
    blind = _moves("clansman", 4, opts, [FastAgent(0, _blind(net), mixed)]
                   + [GreedyAgent(q) for q in range(1, 4)], 100)
    # seat 0's FastAgent and GreedyAgent(0) share the seed: the same determinizations
    assert blind == greedy
    seen = _moves("clansman", 4, opts, [FastAgent(0, net, mixed)]
                  + [GreedyAgent(q) for q in range(1, 4)], 100)
    assert seen != greedy


def test_the_sparse_value_pass_equals_the_dense_one() -> None:
    """`value_one` (the first layer over the nonzero inputs only) gives the value head's
    slots to float rounding, in both games."""
    for game in ("clansman", "white-castle"):
        net = shipped_net(game)
        state = get_game(game).new_game(4, 3)
        bots = [GreedyAgent(q) for q in range(4)]
        for _ in range(40):
            mover = state.to_move
            assert mover is not None
            x = net.encoding.observe(state, mover)
            assert np.allclose(net.value_one(x), net.value_slots(x), atol=1e-5)
            state.apply(bots[mover].act(state))


def test_fast_looks_deeper_at_greedys_favourites_in_the_white_castle() -> None:
    """The White Castle's fast level is greedy plus one more decision for its three
    favourite first moves: without the deeper look it is greedy move for move, with it
    some move differs."""
    settings = FAST_SETTINGS["white-castle"]
    assert settings.beam == 3 and settings.deeper == 1 and settings.net_weight == 0
    greedy = _moves("white-castle", 4, {}, [GreedyAgent(q) for q in range(4)], 120)
    plain = _moves("white-castle", 4, {},
                   [FastAgent(0, settings=FastSettings())] + [GreedyAgent(q) for q in range(1, 4)],
                   120)
    assert plain == greedy
    deep = _moves("white-castle", 4, {},
                  [FastAgent(0)] + [GreedyAgent(q) for q in range(1, 4)], 120)
    assert deep != greedy


def test_the_fast_level_plays_whole_games_of_both() -> None:
    """`fast` by name finishes a solo White Castle game against the rival and a
    Beginner I, Clansman game, every move legal."""
    state = get_game("white-castle").new_game(1, 7, difficulty="hard")
    bot = make_agent("fast", 3)
    while not state.is_over():
        action = bot.act(state)
        assert action in state.legal_actions()
        state.apply(action)
    assert len(state.scores()) == 2
    state = get_game("clansman").new_game(4, 7)
    bots = [make_agent("fast", q) for q in range(4)]
    while not state.is_over():
        mover = state.to_move
        assert mover is not None
        state.apply(bots[mover].act(state))
    assert state.winners()
