"""A post-game review: each of a seat's decisions beside the bot's, with what it cost.

`review(record, seat)` replays the record and, at each decision of `seat` with a real
choice, runs the search from that seat's view only (MCTSAgent draws its positions with
the game's sampler from what the seat may see; the true hidden deck order and dice of
the record are never read), with the chosen move forced to at least FORCE_VISITS visits
so it is valued too. A move's value is the search's mean estimate of the seat's final
margin (its points minus the best other clan's) after it; the choice's cost is the best
move's value minus the chosen one's (0 when it is the bot's choice; never below 0). A
chosen move the search does not consider (e.g. a Daimyo-seal exchange outside The White
Castle's candidates) is valued with the best one by the evaluation after the move,
averaged over the same kind of samples.

The result is plain JSON data: per decision (index in the record, round, the decision in
words, the chosen and the bot's move, the cost in points), the three biggest mistakes
and one summary line per round. The budget (`iterations`, reference iterations scaled by
the game's iteration cost, as the levels' are) bounds its cost: at the default about
0.6 CPU s a decision in I, Clansman (a seat's whole game: under a minute), less in The
White Castle. The search is `hard`'s (`guided=True`: `learned`'s).
"""

from __future__ import annotations

from typing import Any

from kamon.agents.base import hooks_for
from kamon.agents.mcts import MCTSAgent, _margin
from kamon.core.errors import KamonError
from kamon.core.record import GameRecord
from kamon.core.rng import Rng
from kamon.games import get_game

REVIEW_ITERATIONS = 4000  # reference iterations a decision (hard's: 16,200, stopping early):
# about 0.6 CPU s a decision in I, Clansman, 45 s for a seat's whole game
FORCE_VISITS = 24  # the chosen move's visits at least
STATIC_SAMPLES = 8  # samples valuing a move the search does not consider
MISTAKE = 1.0  # points lost from which a decision counts as a mistake
TOP = 3


def review(record: GameRecord, seat: int, iterations: int = REVIEW_ITERATIONS,
           seed: int = 0, guided: bool = False) -> dict[str, Any]:
    """The review of `seat`'s decisions in a finished (or unfinished) game's record.

    `guided`: the search of the `learned` level (the shipped network's values mixed in)
    instead of `hard`'s (the default: learned is not yet measured stronger, and costs
    more an iteration). KamonError for a seat the game does not have."""
    decisions = [judge(record, seat, index, iterations, seed, guided)
                 for index in decision_points(record, seat)]
    return summary(record, seat, decisions, iterations)


def decision_points(record: GameRecord, seat: int) -> list[int]:
    """The indices in the record of `seat`'s decisions with a real choice (more than one
    legal move): what a review judges, one by one (the server hands each to its bot
    workers in turn). KamonError for a seat the game does not have."""
    game = get_game(record.game)
    if not 0 <= seat < record.players:
        raise KamonError(f"seat {seat} is not in this {record.players}-player game")
    state = game.new_game(record.players, record.seed, **record.options)
    points = []
    for index, text in enumerate(record.actions):
        action = game.parse_action(state, text)
        if state.to_move == seat and len(state.legal_actions()) > 1:
            points.append(index)
        state.apply(action)
    return points


def judge(record: GameRecord, seat: int, index: int, iterations: int = REVIEW_ITERATIONS,
          seed: int = 0, guided: bool = False) -> dict[str, Any]:
    """The decision at `index` of the record (one of `decision_points`): the bot's move
    from the seat's view and what the chosen one cost."""
    game = get_game(record.game)
    state = game.new_game(record.players, record.seed, **record.options)
    for text in record.actions[:index]:
        state.apply(game.parse_action(state, text))
    action = game.parse_action(state, record.actions[index])
    return _judge(state, seat, index, action.id, _agent(record.game, iterations, seed,
                                                        guided), game, seed)


def summary(record: GameRecord, seat: int, decisions: list[dict[str, Any]],
            iterations: int) -> dict[str, Any]:
    """The review from its judged decisions: the three biggest mistakes (each decision
    among them marked with its rank), the points lost, one line per round."""
    game = get_game(record.game)
    state = game.new_game(record.players, record.seed, **record.options)
    for text in record.actions:
        state.apply(game.parse_action(state, text))
    mistakes = sorted((d for d in decisions if d["cost"] >= MISTAKE),
                      key=lambda d: (-d["cost"], d["index"]))[:TOP]
    for rank, d in enumerate(mistakes, 1):
        d["mistake_rank"] = rank
    return {"game": record.game, "seat": seat, "seat_name": state.name(seat),
            "iterations": iterations, "decisions": decisions,
            "mistakes": [d["index"] for d in mistakes],
            "total_cost": round(sum(d["cost"] for d in decisions), 2),
            "rounds": _round_lines(decisions), "over": state.is_over()}


def _agent(game: str, iterations: int, seed: int, guided: bool) -> MCTSAgent:
    """The review's search: hard's, or learned's (`guided`), without the early stop (every
    move's value is wanted, not only the choice)."""
    if guided:
        import kamon.agents as levels
        from kamon.learn.agents import guided_search

        agent = guided_search(seed, iterations, stop_early=False,
                              guide_values=levels.LEARNED_VALUES,
                              guide_priors=levels.LEARNED_PRIORS)
    else:
        agent = MCTSAgent(seed, iterations=iterations, scale_budget=True)
    agent.force_visits = FORCE_VISITS
    return agent


def _judge(state: Any, seat: int, index: int, chosen: int, agent: MCTSAgent, game: Any,
           seed: int) -> dict[str, Any]:
    """One decision: the bot's move from the seat's view and what the chosen one cost."""
    hooks = hooks_for(state)
    cands = hooks.candidates(state)
    agent.force = (chosen,)
    agent.rng = Rng(seed * 1_000_003 + index)
    best = agent.search(state, seat) if len(cands) > 1 else cands[0]
    margins = agent.last_margins
    if chosen in margins and best in margins:
        chosen_v, best_v = margins[chosen], margins[best]
    else:  # not a move the search considers: both by the evaluation after them
        chosen_v = _static(state, seat, chosen, seed + index)
        best_v = _static(state, seat, best, seed + index)
        if chosen_v > best_v:
            best, best_v = chosen, chosen_v
    cost = 0.0 if best == chosen else max(0.0, best_v - chosen_v)
    return {"index": index, "round": int(getattr(state, "round", 0) or 0),
            "decision": _decision(state), "chosen": game.action_text(chosen),
            "chosen_words": _words(state, chosen), "bot": game.action_text(best),
            "bot_words": _words(state, best), "chosen_value": round(chosen_v, 2),
            "bot_value": round(best_v, 2), "cost": round(cost, 2)}


def _static(state: Any, seat: int, action: int, seed: int) -> float:
    """The seat's margin after `action` by the game's evaluation, averaged over samples
    of the hidden information drawn from the seat's view."""
    hooks = hooks_for(state)
    assert hooks.sampler is not None
    sample = hooks.sampler(state, seat)
    rng = Rng(seed)
    total = 0.0
    for _ in range(STATIC_SAMPLES):
        s = sample(rng.spawn())
        s.apply(action)
        vals = [float(x["total"]) for x in s.scores()] if s.is_over() else hooks.values(s)
        total += _margin(vals, seat)
    return total / STATIC_SAMPLES


def _decision(state: Any) -> str:
    """What was being decided, in words."""
    fn = getattr(state, "decision_text", None)
    return str(fn()) if callable(fn) else ""


def _words(state: Any, action: int) -> str:
    """What a move does, in words ('' when the game cannot say)."""
    fn = getattr(state, "describe", None)
    return str(fn(action)) if callable(fn) else ""


def _round_lines(decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One line per round: decisions, mistakes, points lost, the costliest decision."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for d in decisions:
        rounds.setdefault(d["round"], []).append(d)
    out = []
    for rnd, ds in sorted(rounds.items()):
        lost = sum(d["cost"] for d in ds)
        bad = [d for d in ds if d["cost"] >= MISTAKE]
        worst = max(ds, key=lambda d: d["cost"])
        if bad:
            text = (f"{len(ds)} decisions, {len(bad)} mistake{'s' if len(bad) > 1 else ''}, "
                    f"about {lost:.1f} points lost; the costliest: {worst['chosen']} "
                    f"(the bot: {worst['bot']}, {worst['cost']:.1f} points)")
        else:
            text = (f"{len(ds)} decisions, no mistake"
                    + (f" (about {lost:.1f} points lost in small ones)" if lost >= 0.5
                       else ""))
        out.append({"round": rnd, "decisions": len(ds), "mistakes": len(bad),
                    "lost": round(lost, 2), "text": text})
    return out
