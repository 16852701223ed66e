"""Benchmark of the trained network's costs: a decision of every level, the network's
forward pass (numpy, as the bots run it, against torch), and the guided search's
iterations per CPU second against the hand-guided one.

Usage: python bench/bench_train.py [--positions N] [--seed S] [--only GAME]
           [--levels easy,normal,fast,hard,learned] [--net PATH] [--tiny-run DIR]

Positions: every 20th decision of seeded 4-player games of greedy players (I, Clansman
Expert and Beginner alternate), the same for every line. Times are CPU seconds of this
process on one core (the machine may be shared; CPU time is what other processes do not
inflate), per decision with more than one legal move. `fast`'s claim (at most 5 ms a
decision) is measured here, never asserted in a test. --tiny-run DIR also times a tiny
`kamon train` run (bootstrap 4 games, 1 search round of 2 games) in DIR.
--value-check N (with --seed S) instead plays N greedy games of each setting (The White
Castle 4p, I, Clansman Beginner and Expert 4p) from seed S and prints why the network
alone plays badly (docs/bots.md, "The fast level"): its value head's error on the
seat's final lead against how much the leads vary, how much the lead it estimates
differs between a decision's candidates, and how often the old one-move-ahead choice
(`PolicyAgent`) is greedy's.
It prints, never asserts.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from kamon.agents import make_agent  # noqa: E402
from kamon.agents.greedy import GreedyAgent  # noqa: E402
from kamon.agents.mcts import MCTSAgent  # noqa: E402
from kamon.games import get_game  # noqa: E402
from kamon.learn.net import Net, NetGuide, load_net, shipped_net  # noqa: E402

LEVELS = ("easy", "normal", "fast", "hard", "learned")


def positions(game: str, count: int, seed: int) -> list[Any]:
    """Positions with a choice from seeded greedy games (every 20th decision)."""
    out: list[Any] = []
    g = 0
    while len(out) < count:
        options = {"expert": True} if game == "clansman" and g % 2 == 0 else {}
        state = get_game(game).new_game(4, seed + g, **options)
        bots = [GreedyAgent(seed + p) for p in range(4)]
        n = 0
        while not state.is_over() and len(out) < count:
            if n % 20 == 7 and len(state.legal_actions()) > 1:
                out.append(state.clone())
            state.apply(bots[state.to_move].act(state))
            n += 1
        g += 1
    return out


def per_decision(level: str, states: list[Any]) -> tuple[float, float]:
    """(mean, max) CPU seconds of a decision of the level over the positions."""
    times = []
    for i, s in enumerate(states):
        agent = make_agent(level, 1000 + i)
        agent.act(s)  # warm: the network's first load, the game's tables
        agent = make_agent(level, 1000 + i)
        t = time.process_time()
        agent.act(s)
        times.append(time.process_time() - t)
    return sum(times) / len(times), max(times)


def forward_speed(net: Net, states: list[Any], repeats: int = 200) -> None:
    """The network's pass on one observation: numpy (the bots') and torch, and encoding."""
    x = np.stack([net.encoding.observe(s, s.to_move) for s in states[:8]])
    t = time.process_time()
    for _ in range(repeats):
        for row in x:
            net.forward(row)
    numpy_us = (time.process_time() - t) / (repeats * len(x)) * 1e6
    t = time.process_time()
    for _ in range(repeats // 10):
        for s in states[:8]:
            net.encoding.observe(s, s.to_move)
    enc_us = (time.process_time() - t) / (repeats // 10 * 8) * 1e6
    t = time.process_time()
    import torch

    torch.set_num_threads(1)
    import_s = time.process_time() - t
    from kamon.learn import model as M

    tm = M.build_model(net.game, tuple(w.shape[1] for w, _ in net.layers))
    with torch.no_grad():
        xt = torch.from_numpy(x)
        t = time.process_time()
        for _ in range(repeats):
            for k in range(len(x)):
                tm(xt[k:k + 1])
        torch_us = (time.process_time() - t) / (repeats * len(x)) * 1e6
    print(f"  forward pass, one observation: numpy {numpy_us:.0f} us, torch {torch_us:.0f} us "
          f"(x{torch_us / numpy_us:.1f}); encoding the observation {enc_us:.0f} us; "
          f"importing torch {import_s:.2f} CPU s (the bots do not)")


def search_speed(net: Net, states: list[Any], iterations: int = 600) -> None:
    """Iterations per CPU second: hand-guided (hard's), learned's settings (the network's
    values mixed in, its share of the priors), the network's priors and values alone."""
    import kamon.agents as levels

    settings = {"hand (hard)": {},
                f"learned's (net priors {levels.LEARNED_PRIORS:g}, values "
                f"{levels.LEARNED_VALUES:g})": {"guide": NetGuide(net),
                                                "guide_priors": levels.LEARNED_PRIORS,
                                                "guide_values": levels.LEARNED_VALUES},
                "net priors and values alone": {"guide": NetGuide(net), "guide_priors": 1.0,
                                                "guide_values": 1.0}}
    base = None
    for label, kw in settings.items():
        its = 0
        t = time.process_time()
        for i, s in enumerate(states[:8]):
            a = MCTSAgent(i, iterations=iterations, **kw)
            a.search(s, s.to_move)
            its += a.last_iterations
        rate = its / (time.process_time() - t)
        base = base or rate
        print(f"  search, {label}: {rate:,.0f} iterations / CPU s (x{rate / base:.2f})")


def _lead(vals: list[float], seat: int) -> float:
    """The seat's points minus the best other clan's."""
    return vals[seat] - max(v for q, v in enumerate(vals) if q != seat)


def value_check(game: str, options: dict[str, Any], games: int, seed: int,
                net: Net) -> None:
    """Print the value head's error on the final lead at every decision of `games` greedy
    4-player games from `seed`, the spread of its lead over a decision's candidates, and
    how often the network's one-move-ahead pick (with and without its policy) is
    greedy's: why the network alone is no fast level."""
    from kamon.agents import agent_seed
    from kamon.agents.base import hooks_for
    from kamon.learn.agents import PolicyAgent
    from kamon.learn.features import absolute_values, clan_count

    def lead_of(state: Any, seat: int) -> float:
        """The network's estimate of the seat's lead, from its observation."""
        slots = net.value_slots(net.encoding.observe(state, seat))
        return _lead(absolute_values(slots, seat, clan_count(state), net.scale), seat)

    pairs: list[tuple[float, float]] = []
    spreads: list[float] = []
    same = same_value = decisions = 0
    for g in range(games):
        state = get_game(game).new_game(4, seed + g, **options)
        bots = [GreedyAgent(agent_seed(seed + g, p)) for p in range(4)]
        with_policy, value_only = PolicyAgent(0, net), PolicyAgent(0, net, policy_weight=0.0)
        estimates: list[tuple[int, float]] = []
        while not state.is_over():
            seat = state.to_move
            assert seat is not None
            action = bots[seat].act(state)
            if len(state.legal_actions()) > 1:
                decisions += 1
                estimates.append((seat, lead_of(state, seat)))
                same += with_policy.act(state).id == action.id
                same_value += value_only.act(state).id == action.id
                leads = []
                for aid in hooks_for(state).candidates(state):
                    child = state.clone()
                    child.apply(aid)
                    if not child.is_over():
                        leads.append(lead_of(child, seat))
                if len(leads) > 1:
                    spreads.append(float(np.std(leads)))
            state.apply(action)
        totals = [float(sc["total"]) for sc in state.scores()]
        pairs += [(est, _lead(totals, seat)) for seat, est in estimates]
    est, final = np.array(pairs).T
    rmse = float(np.sqrt(((est - final) ** 2).mean()))
    corr = float(np.corrcoef(est, final)[0, 1])
    print(f"{game} {options or ''}: {decisions} decisions of {games} greedy games; the "
          f"value's error on the final lead {rmse:.2f} points (the leads' sd "
          f"{final.std():.2f}, correlation {corr:.2f}); its lead differs between a "
          f"decision's candidates by {np.mean(spreads):.2f} (sd); the one-move-ahead pick "
          f"is greedy's in {100 * same / decisions:.0f}% (value alone "
          f"{100 * same_value / decisions:.0f}%)")


def tiny_run(folder: str) -> None:
    """Time a tiny training run end to end."""
    from pathlib import Path

    from kamon.learn.pipeline import RunSettings, run_rounds
    from kamon.sim.backends import LocalBackend

    t = time.process_time()
    run = run_rounds(Path(folder), RunSettings("white-castle", games=2, iterations=100,
                                               epochs=1, check_games=2, bootstrap=4),
                     1, LocalBackend(1))
    print(f"tiny training run: {len(run.rounds)} rounds in {time.process_time() - t:.1f} "
          "CPU s")


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--seed", type=int, default=97000)
    ap.add_argument("--only", choices=("white-castle", "clansman"), default=None)
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--net", default=None, help="a network's .npz instead of the shipped one")
    ap.add_argument("--tiny-run", default=None, metavar="DIR")
    ap.add_argument("--value-check", type=int, default=0, metavar="GAMES",
                    help="why the network alone plays badly (greedy games per setting)")
    args = ap.parse_args(argv)
    if args.value_check:
        for game, options in (("white-castle", {}), ("clansman", {}),
                              ("clansman", {"expert": True})):
            if not args.only or game == args.only:
                value_check(game, options, args.value_check, args.seed,
                            load_net(args.net) if args.net else shipped_net(game))
        return 0
    for game in ("white-castle", "clansman"):
        if args.only and game != args.only:
            continue
        net = load_net(args.net) if args.net else shipped_net(game)
        states = positions(game, args.positions, args.seed)
        print(f"{game}: {len(states)} positions")
        for level in args.levels.split(","):
            mean, worst = per_decision(level.strip(), states)
            print(f"  {level:8} {1000 * mean:8.2f} ms a decision (CPU; the slowest "
                  f"{1000 * worst:.2f} ms)")
        forward_speed(net, states)
        search_speed(net, states)
    if args.tiny_run:
        tiny_run(args.tiny_run)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
