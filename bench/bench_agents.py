"""Benchmark of the bots' strength: the ladder of win rates, and MCTS iterations per second.

Usage: python bench/bench_agents.py [--games N] [--baseline-games N] [--jobs J] [--seed S]
           [--only white-castle|clansman] [--rows KEY,...] [--skip-ladder] [--skip-speed]
           [--baseline CHECKOUT] [--speed-positions N] [--repeats N]
           [--log DIR] [--from-log DIR] [--compare DIR_A DIR_B]

Matchups (seats rotated every game, each deal played from every rotation, seeded), by key:
  wc-greedy   The White Castle, 4 players: greedy vs 3 random
  wc-hard     The White Castle, 4 players: hard vs 3 greedy
  wc-solo     The White Castle, solo: hard vs the Tokugawa rival at difficulty hard
  cl-greedy   I, Clansman, 4 players (Beginner): greedy vs 3 random
  cl-hard     I, Clansman, 4 players (Beginner): hard vs 3 greedy
  and, only when asked with --rows (expert thinks 3 s of wall clock a decision):
  wc-solo-expert, wc-expert, cl-expert   the same with expert instead of hard
  cl-x-hard, cl-x-learned    I, Clansman Expert 4p: hard / learned vs 3 greedy
  cl-learned, wc-learned, wc-solo-learned   learned (the network-guided search) instead
  wc-fast, cl-fast, cl-x-fast, wc-solo-fast   fast (greedy made stronger: issue 37) vs 3 normal / rival
  wc-solo-normal   normal vs the rival (what fast is compared with in the solo game)
For each: the agent's games, wins, win rate with its Wilson 95% interval, its mean
score against the field's, and its thinking time per decision (wall clock, which
other processes on the machine slow down, and the process's CPU time, which they do
not). In a 4-player game an even match wins 25%. With --log DIR each game's result is
appended to DIR/<row>.jsonl as it ends, and --from-log DIR prints the rows from such
logs (so a long run cut short, or rows run in separate processes, still give a table).
--compare DIR_A DIR_B pairs the games two such logs share (the same deal and rotation,
e.g. two versions of the agent on the same seeds) and prints, per row, the wins of each,
the deals won by one only (with the exact sign test's two-sided p), and the mean
difference of the agent's margin over the best other score, B minus A, with its 95%
interval: a paired comparison that needs far fewer games than two separate win rates.
--pair DIR ROW_A ROW_B does the same for two rows of one log directory that played the
same deals (the same --seed): e.g. cl-x-hard and cl-x-learned, the two levels in the same
seats against the same greedy field. The evaluation deals of issue 37 start at seed 97000
(self-play never uses them: docs/training.md).

Then, per game, MCTS iterations per CPU second on one core over positions from seeded
games: at the budget the hard level had before issue 14 (900 / 1,227 iterations), for
this checkout and, with --baseline, another one (e.g. a worktree at 959a145) on the
same positions in alternation, with the ratio; and for each search level as it stands.
It prints, never asserts.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from kamon.agents import LEVELS, GreedyAgent, RandomAgent
from kamon.core.protocol import State
from kamon.games import get_game
from kamon.sim.tournament import GameResult, Line, TournamentResult, run_tournament


@dataclass(frozen=True)
class Matchup:
    """One row of the ladder: an agent against a field, in one game setting."""

    label: str
    game: str
    agent: str
    field: tuple[str, ...]
    players: int
    options: tuple[tuple[str, Any], ...] = ()
    baseline: bool = False


SEARCH_LEVELS = ("hard", "learned", "expert")
SOLO = (("difficulty", "hard"),)
EXPERT = (("expert", True),)

MATCHUPS = {
    "wc-greedy": Matchup("WC 4p: greedy vs 3 random", "white-castle", "greedy",
                         ("random",) * 3, 4, baseline=True),
    "wc-hard": Matchup("WC 4p: hard vs 3 greedy", "white-castle", "hard", ("greedy",) * 3, 4),
    "wc-solo": Matchup("WC solo: hard vs rival (hard)", "white-castle", "hard", (), 1, SOLO),
    "cl-greedy": Matchup("Clansman 4p: greedy vs 3 random", "clansman", "greedy",
                         ("random",) * 3, 4, baseline=True),
    "cl-hard": Matchup("Clansman 4p: hard vs 3 greedy", "clansman", "hard", ("greedy",) * 3, 4),
    "wc-expert": Matchup("WC 4p: expert vs 3 greedy", "white-castle", "expert",
                         ("greedy",) * 3, 4),
    "wc-solo-expert": Matchup("WC solo: expert vs rival (hard)", "white-castle", "expert", (),
                              1, SOLO),
    "cl-expert": Matchup("Clansman 4p: expert vs 3 greedy", "clansman", "expert",
                         ("greedy",) * 3, 4),
    # issue 37: the Expert game, and the levels of the trained network (kamon.learn)
    "cl-x-hard": Matchup("Clansman Expert 4p: hard vs 3 greedy", "clansman", "hard",
                         ("greedy",) * 3, 4, EXPERT),
    "cl-x-learned": Matchup("Clansman Expert 4p: learned vs 3 greedy", "clansman", "learned",
                            ("greedy",) * 3, 4, EXPERT),
    "cl-learned": Matchup("Clansman 4p: learned vs 3 greedy", "clansman", "learned",
                          ("greedy",) * 3, 4),
    "wc-learned": Matchup("WC 4p: learned vs 3 greedy", "white-castle", "learned",
                          ("greedy",) * 3, 4),
    "wc-solo-learned": Matchup("WC solo: learned vs rival (hard)", "white-castle", "learned",
                               (), 1, SOLO),
    "wc-fast": Matchup("WC 4p: fast vs 3 normal", "white-castle", "fast", ("normal",) * 3, 4),
    "wc-solo-fast": Matchup("WC solo: fast vs rival (hard)", "white-castle", "fast", (), 1,
                            SOLO),
    "cl-fast": Matchup("Clansman 4p: fast vs 3 normal", "clansman", "fast", ("normal",) * 3,
                       4),
    "cl-x-fast": Matchup("Clansman Expert 4p: fast vs 3 normal", "clansman", "fast",
                         ("normal",) * 3, 4, EXPERT),
    "wc-solo-normal": Matchup("WC solo: normal vs rival (hard)", "white-castle", "normal", (),
                              1, SOLO),
}
DEFAULT_ROWS = ("wc-greedy", "wc-hard", "wc-solo", "cl-greedy", "cl-hard")


def hero_and_field(m: Matchup, result: TournamentResult) -> tuple[Line, Line]:
    """The agent's line and the field's (the greedy seats, or the solo rival)."""
    lines = {ln.label: ln for ln in result.by_agent()}
    hero = lines[m.agent]
    field = next(ln for name, ln in lines.items() if name != m.agent)
    return hero, field


def run_matchup(m: Matchup, games: int, jobs: int, seed: int,
                log: Path | None = None) -> tuple[Line, Line, float]:
    """Play one matchup; (the agent's line, the field's line, elapsed seconds). With a log,
    each game's result is appended to it as a JSON line as soon as it ends."""

    def record(res: GameResult) -> None:
        """Append one finished game to the log."""
        if log is not None:
            with log.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(res)) + "\n")

    start = time.perf_counter()
    result = run_tournament(m.game, [m.agent, *m.field], games, m.players, seed, jobs,
                            dict(m.options), progress=record)
    hero, field = hero_and_field(m, result)
    return hero, field, time.perf_counter() - start


def logged_matchup(m: Matchup, log: Path) -> tuple[Line, Line]:
    """The lines of the games a log holds (a run cut short still counts what it played)."""
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]
    result = TournamentResult(m.game, m.players, [m.agent, *m.field])
    result.results = sorted((GameResult(**r) for r in rows), key=lambda r: r.index)
    return hero_and_field(m, result)


@dataclass(frozen=True)
class Paired:
    """Two logs of one row, compared on the games they share (same seed and rotation)."""

    pairs: int
    wins_a: float
    wins_b: float
    only_a: int  # deals the agent won in A and not in B
    only_b: int
    sign_p: float  # two-sided exact sign test on the deals won by one only
    margin_diff: float  # mean of (B's margin - A's margin), margin = own - best other
    margin_half: float  # half-width of its 95% interval


def _hero_margin(game: dict[str, Any], agent: str) -> tuple[float, float]:
    """The agent's win share and its margin over the best other score, in one logged game."""
    q = game["agents"].index(agent)
    scores = game["scores"]
    best_other = max(s for i, s in enumerate(scores) if i != q)
    share = 1.0 / len(game["winners"]) if q in game["winners"] else 0.0
    return share, float(scores[q] - best_other)


def _t975(df: int) -> float:
    """The 97.5% quantile of Student's t (Cornish-Fisher from the normal's; within 0.5%
    of the table from 5 degrees of freedom)."""
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def paired(a: Path, b: Path, agent: str, agent_b: str | None = None) -> Paired | None:
    """Compare two logs on their shared games (None if they share none): the same row,
    or two rows of the same deals whose agents differ (`agent_b`: B's agent)."""
    def load(path: Path, hero: str) -> dict[tuple[int, int], tuple[float, float]]:
        games = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                 if line.strip()]
        return {(g["seed"], g["rotation"]): _hero_margin(g, hero) for g in games}

    la, lb = load(a, agent), load(b, agent_b or agent)
    keys = sorted(la.keys() & lb.keys())
    if not keys:
        return None
    only_a = sum(1 for k in keys if la[k][0] > lb[k][0])
    only_b = sum(1 for k in keys if lb[k][0] > la[k][0])
    diffs = [lb[k][1] - la[k][1] for k in keys]
    n = len(diffs)
    mean = sum(diffs) / n
    half = float("nan")
    if n > 1:
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        half = _t975(n - 1) * math.sqrt(var / n)
    return Paired(n, sum(la[k][0] for k in keys), sum(lb[k][0] for k in keys), only_a,
                  only_b, _sign_p(only_a, only_b), mean, half)


def _sign_p(x: int, y: int) -> float:
    """Two-sided exact binomial p of a split x : y under even odds."""
    n = x + y
    if n == 0:
        return 1.0
    k = min(x, y)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def _table_head(head: str) -> None:
    """A table's header line and its rule."""
    print(head)
    print("-" * len(head))


def print_comparison(a: Path, b: Path, rows: list[str]) -> None:
    """The paired comparison of two log directories, row by row."""
    print(f"A = {a}\nB = {b}")
    _table_head(f"{'matchup':34} {'pairs':>5} {'wins A':>6} {'wins B':>6} {'A only':>6} "
                f"{'B only':>6} {'sign p':>6}  margin B-A (95% interval)")
    for key in rows:
        m = MATCHUPS[key]
        fa, fb = a / f"{key}.jsonl", b / f"{key}.jsonl"
        if not (fa.is_file() and fb.is_file()):
            continue
        c = paired(fa, fb, m.agent)
        if c is None:
            print(f"{m.label:34} no shared games")
            continue
        print(f"{m.label:34} {c.pairs:>5} {c.wins_a:>6g} {c.wins_b:>6g} {c.only_a:>6} "
              f"{c.only_b:>6} {c.sign_p:>6.3f}  {c.margin_diff:+.1f} "
              f"({c.margin_diff - c.margin_half:+.1f} to {c.margin_diff + c.margin_half:+.1f})")


def print_pair(folder: Path, key_a: str, key_b: str) -> None:
    """Two rows of one log directory played on the same deals and seats (e.g. hard's and
    learned's against the same field), paired game by game."""
    ma, mb = MATCHUPS[key_a], MATCHUPS[key_b]
    c = paired(folder / f"{key_a}.jsonl", folder / f"{key_b}.jsonl", ma.agent, mb.agent)
    print(f"A = {ma.label}\nB = {mb.label}")
    if c is None:
        print("no shared games")
        return
    print(f"pairs {c.pairs}, wins A {c.wins_a:g}, wins B {c.wins_b:g}, A only {c.only_a}, "
          f"B only {c.only_b}, sign p {c.sign_p:.3f}, margin B-A {c.margin_diff:+.1f} "
          f"({c.margin_diff - c.margin_half:+.1f} to {c.margin_diff + c.margin_half:+.1f})")


def print_row(m: Matchup, hero: Line, field: Line, elapsed: float | None) -> None:
    """One ladder row: games, wins, win rate, interval, scores, time per decision."""
    lo, hi = hero.interval
    wall = f"{elapsed:>7.0f}" if elapsed is not None else f"{'-':>7}"
    print(f"{m.label:34} {hero.games:>5} {hero.wins:>5g} {100 * hero.win_rate:>6.1f} "
          f"{100 * lo:>6.1f}-{100 * hi:<6.1f} {hero.mean_score:>6.1f} "
          f"{field.mean_score:>6.1f} {hero.seconds_per_decision:>6.3f} "
          f"{hero.cpu_per_decision:>7.3f} {wall}")
    sys.stdout.flush()


# The hard level's search at 959a145 (before issue 14): 2,700 reference iterations
# divided by the game's iteration weight. Speed is compared at these fixed budgets.
REFERENCE_ITERATIONS = {"white-castle": 900, "clansman": 1227}
WORKER = Path(__file__).with_name("mcts_speed.py")


def speed_positions(game_name: str, count: int, seed: int) -> list[dict[str, Any]]:
    """Positions spread over seeded 4-player games (3 greedy and 1 random seat), as records."""
    game = get_game(game_name)
    out = []
    for k in range(count):
        state: State = game.new_game(4, seed + k)
        bots = [GreedyAgent(seed + p) for p in range(3)] + [RandomAgent(seed)]
        for _ in range(15 + 25 * k):
            if state.is_over():
                break
            p = state.to_move
            assert p is not None
            state.apply(bots[p % 4].act(state))
        if state.is_over() or len(state.legal_actions()) < 2:
            continue
        history: list[int] = list(state.history)
        out.append({"game": game_name, "players": 4, "seed": seed + k, "options": {},
                    "actions": history, "agent_seed": seed + k})
    return out


class SpeedWorker:
    """A long-lived mcts_speed.py process timing one checkout (None: this one)."""

    def __init__(self, checkout: Path | None) -> None:
        """Start the worker; with a checkout, its src/ comes first on PYTHONPATH."""
        env = dict(os.environ)
        if checkout is not None:
            src = checkout / "src"
            if not (src / "kamon" / "agents" / "mcts.py").is_file():
                raise SystemExit(f"--baseline {checkout}: no src/kamon/agents/mcts.py there")
            env["PYTHONPATH"] = str(src)
        self.proc = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)

    def ask(self, job: dict[str, Any]) -> dict[str, Any]:
        """Send one job, wait for its answer."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def close(self) -> None:
        """End the worker (it exits when its stdin closes)."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


@dataclass
class Tally:
    """Iterations and CPU seconds summed over searches."""

    iterations: int = 0
    cpu: float = 0.0
    searches: int = 0

    def add(self, answer: dict[str, Any]) -> None:
        """Count one search's answer."""
        self.iterations += int(answer["iterations"])
        self.cpu += float(answer["cpu"])
        self.searches += 1

    @property
    def rate(self) -> float:
        """Iterations per CPU second."""
        return self.iterations / self.cpu if self.cpu else 0.0


def speed(games: list[str], positions: int, seed: int, baseline: Path | None,
          repeats: int) -> None:
    """Print MCTS iterations per CPU second: before/after at fixed budgets, and each level.

    The same positions go to this checkout and (with --baseline) to the baseline's, in
    alternation, so both see the same load on the machine."""
    workers = {"after": SpeedWorker(None)}
    if baseline is not None:
        workers["before"] = SpeedWorker(baseline)
    try:
        for name in games:
            ref = REFERENCE_ITERATIONS[name]
            tallies = {label: Tally() for label in workers}
            levels = {level: Tally() for level in SEARCH_LEVELS}
            for k, pos in enumerate(speed_positions(name, positions, seed)):
                for r in range(repeats):
                    order = sorted(workers, reverse=(k + r) % 2 == 1)
                    for label in order:
                        tallies[label].add(workers[label].ask({**pos, "iterations": ref}))
                for level, tally in levels.items():
                    answer = workers["after"].ask({**pos, "level": level})
                    if "skipped" not in answer:
                        tally.add(answer)
            after = tallies["after"]
            line = f"  {name:14} at {ref} iterations: {after.rate:7.0f} iterations/s"
            if "before" in tallies:
                before = tallies["before"]
                line += (f" now, {before.rate:7.0f} before: {after.rate / before.rate:4.2f}x "
                         f"({after.searches} searches each)")
            print(line)
            for level, tally in levels.items():
                if tally.searches:
                    print(f"  {name:14} level {level:7} {tally.rate:7.0f} iterations/s, "
                          f"{tally.iterations / tally.searches:7.0f} iterations and "
                          f"{tally.cpu / tally.searches:6.3f} CPU s per search")
            sys.stdout.flush()
    finally:
        for w in workers.values():
            w.close()


def main(argv: list[str] | None = None) -> int:
    """Run the matchups and the speed test; print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=8, help="games per matchup with hard")
    ap.add_argument("--baseline-games", type=int, default=40,
                    help="games per greedy-vs-random matchup")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--seed", type=int, default=1000, help="first deal's seed")
    ap.add_argument("--only", choices=("white-castle", "clansman"), default=None)
    ap.add_argument("--rows", default=None,
                    help=f"matchups to play, comma-separated (known: {', '.join(MATCHUPS)}; "
                         f"default: {', '.join(DEFAULT_ROWS)}; with --compare, all)")
    ap.add_argument("--skip-speed", action="store_true", help="no iterations/s measurement")
    ap.add_argument("--skip-ladder", action="store_true", help="only the speed measurement")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="another kamon checkout (e.g. a worktree at 959a145) to time "
                         "before this one, on the same positions")
    ap.add_argument("--speed-positions", type=int, default=8,
                    help="positions per game for the speed measurement")
    ap.add_argument("--repeats", type=int, default=1, help="searches per position and checkout")
    ap.add_argument("--log", type=Path, default=None,
                    help="directory: each row's games appended to <row>.jsonl as they end")
    ap.add_argument("--from-log", type=Path, default=None,
                    help="directory of such logs: print the rows from them, play nothing")
    ap.add_argument("--compare", type=Path, nargs=2, default=None, metavar=("DIR_A", "DIR_B"),
                    help="two directories of such logs: the paired comparison of each row "
                         "on the games both played, play nothing")
    ap.add_argument("--pair", nargs=3, default=None, metavar=("DIR", "ROW_A", "ROW_B"),
                    help="one log directory's two rows played on the same deals (e.g. "
                         "cl-x-hard and cl-x-learned): paired game by game, play nothing")
    args = ap.parse_args(argv)
    if args.pair is not None:
        folder, key_a, key_b = args.pair
        for key in (key_a, key_b):
            if key not in MATCHUPS:
                ap.error(f"unknown row {key}; known: {', '.join(MATCHUPS)}")
        print_pair(Path(folder), key_a, key_b)
        return 0
    default = list(MATCHUPS) if args.compare is not None else list(DEFAULT_ROWS)
    rows = [r.strip() for r in args.rows.split(",") if r.strip()] if args.rows else default
    unknown = [r for r in rows if r not in MATCHUPS]
    if unknown:
        ap.error(f"unknown rows {', '.join(unknown)}; known: {', '.join(MATCHUPS)}")
    if args.compare is not None:
        dir_a, dir_b = args.compare
        print_comparison(dir_a, dir_b, rows)
        return 0
    for name, level in LEVELS.items():
        print(f"{name} = {level.summary}")
    if not args.skip_ladder:
        _table_head(f"{'matchup':34} {'games':>5} {'wins':>5} {'win %':>6} "
                    f"{'95% interval':>13} {'score':>6} {'field':>6} {'s/dec':>6} "
                    f"{'cpu/dec':>7} {'wall s':>7}")
    for key in rows:
        m = MATCHUPS[key]
        if args.skip_ladder or args.only and m.game != args.only:
            continue
        if args.from_log is not None:
            log = args.from_log / f"{key}.jsonl"
            if log.is_file():
                print_row(m, *logged_matchup(m, log), None)
            continue
        games = args.baseline_games if m.baseline else args.games
        if args.log is not None:
            args.log.mkdir(parents=True, exist_ok=True)
        log = args.log / f"{key}.jsonl" if args.log is not None else None
        print_row(m, *run_matchup(m, games, args.jobs, args.seed, log))
    if not args.skip_speed:
        print("\nMCTS speed, one core, CPU time (the same positions for every line):")
        games = [g for g in ("white-castle", "clansman") if not args.only or g == args.only]
        speed(games, args.speed_positions, args.seed, args.baseline, args.repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
