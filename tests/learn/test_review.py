"""The post-game review (kamon.learn.review): a deliberately bad decision is the game's
biggest mistake, in both games; the result is JSON data; the terminal command prints it;
the review reads only the reviewed seat's view."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kamon.agents import make_agent
from kamon.agents.base import hooks_for
from kamon.agents.mcts import MCTSAgent
from kamon.cli import app
from kamon.core.record import GameRecord
from kamon.games import get_game
from kamon.learn.review import review

BUDGET = 600  # reference iterations a decision: small, so the test is quick


@cache
def record_with_a_blunder(game: str, players: int, seed: int, after: int = 20
                          ) -> tuple[GameRecord, int]:
    """A greedy game in which seat 0, once, plays its worst move where that costs most
    (by a search that values every move, on every fifth of the game's decisions after the
    first `after`): (the record, the blunder's index in it)."""
    g = get_game(game)
    state = g.new_game(players, seed)
    bots = [make_agent("greedy", q) for q in range(players)]
    probe = state.clone()
    best_gap, where, worst_id = 0.0, -1, -1
    n = 0
    while not probe.is_over():
        p = probe.to_move
        assert p is not None
        a = bots[p].act(probe)
        if p == 0 and n > after and n % 5 == 0:
            cands = hooks_for(probe).candidates(probe)
            if len(cands) > 2:
                judge = MCTSAgent(n, iterations=BUDGET, scale_budget=True)
                judge.force, judge.force_visits = tuple(cands), 24
                judge.search(probe, 0)
                vals = judge.last_margins
                worst = min(vals, key=lambda x: vals[x])
                if vals[a.id] - vals[worst] > best_gap:
                    best_gap, where, worst_id = vals[a.id] - vals[worst], n, worst
        probe.apply(a)
        n += 1
    assert where > 0 and best_gap > 3, best_gap
    bots = [make_agent("greedy", q) for q in range(players)]
    for i in range(n):
        if state.is_over():
            break
        mover = state.to_move
        assert mover is not None
        a = bots[mover].act(state)
        if i == where:
            a = next(x for x in state.legal_actions() if x.id == worst_id)
        state.apply(a)
    return GameRecord.of(game, state, seed, {}, g.action_text), where


@pytest.mark.parametrize(("game", "players"), [("white-castle", 2), ("clansman", 4)])
def test_a_deliberate_blunder_is_the_biggest_mistake(game: str, players: int) -> None:
    """Seat 0 plays its worst move once: the review names that decision first, with the
    bot's better choice, and its round's line counts a mistake."""
    record, where = record_with_a_blunder(game, players, 3)
    res = review(record, 0, iterations=BUDGET, guided=False)
    assert res["mistakes"] and res["mistakes"][0] == where, (where, res["mistakes"])
    blunder = next(d for d in res["decisions"] if d["index"] == where)
    assert blunder["cost"] >= 1.0 and blunder["bot"] != blunder["chosen"]
    assert blunder["mistake_rank"] == 1
    line = next(r for r in res["rounds"] if r["round"] == blunder["round"])
    assert line["mistakes"] >= 1 and "mistake" in line["text"]
    json.dumps(res)  # plain JSON data
    assert len(res["mistakes"]) <= 3
    assert all(d["cost"] >= 0 for d in res["decisions"])


@pytest.mark.parametrize("guided", [False, True])
def test_the_review_reads_only_the_seats_view(guided: bool) -> None:
    """A decision judged from a state whose hidden parts (deck orders, dice) were
    re-drawn, the seat's view the same: the same judgement, to the digit (hard's search,
    and learned's with the shipped network)."""
    from kamon.core.rng import Rng
    from kamon.learn.review import _agent, _judge

    g = get_game("white-castle")
    state = g.new_game(2, 5)
    bots = [make_agent("greedy", q) for q in range(2)]
    for _ in range(14):
        mover = state.to_move
        assert mover is not None
        state.apply(bots[mover].act(state))
    seat = state.to_move
    assert seat is not None
    other = state.determinize(seat, Rng(99))  # the same view, other hidden parts
    assert other.view(seat) == state.view(seat)
    chosen = bots[seat].act(state).id
    a = _judge(state, seat, 0, chosen, _agent("white-castle", BUDGET, 1, guided), g, 1)
    b = _judge(other, seat, 0, chosen, _agent("white-castle", BUDGET, 1, guided), g, 1)
    assert a == b


def test_kamon_review_prints_the_table_and_the_rounds(tmp_path: Path) -> None:
    """The terminal command: the table, the biggest mistakes, a line per round; --json;
    a seat the game does not have is a clear error."""
    record, where = record_with_a_blunder("white-castle", 2, 3)
    path = tmp_path / "game.json"
    record.save(path)
    runner = CliRunner()
    res = runner.invoke(app, ["review", str(path), "--seat", "0", "--iterations", "200"])
    assert res.exit_code == 0, res.output
    assert "decisions, about" in res.output and "The biggest mistakes: (1) decision" in \
        res.output
    assert "Round 1:" in res.output
    res = runner.invoke(app, ["review", str(path), "--seat", "1", "--iterations", "50",
                              "--guided", "--json"])
    assert res.exit_code == 0, res.output
    data: dict[str, Any] = json.loads(res.output)
    assert data["seat"] == 1 and data["decisions"]
    res = runner.invoke(app, ["review", str(path), "--seat", "5"])
    assert res.exit_code == 2 and "seat 5" in res.output
