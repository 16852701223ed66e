"""MCTS iterations per CPU second over given positions, for whichever kamon is importable.

Run by bench_agents.py as a subprocess, once with this checkout and once with
PYTHONPATH pointing at another checkout's src/ (the baseline), so both are timed in
one session on the same positions. It reads a JSON job from stdin:

    {"positions": [{"game": "white-castle", "players": 4, "seed": 7, "options": {},
                    "actions": [12, 3, ...]}, ...],
     "configs": {"hard-900": {"iterations": 900}, "level-hard": {"level": "hard"}}}

and prints one JSON object: per game and config, the iterations, CPU seconds and
searches. It uses only the API every kamon version has (get_game, apply, MCTSAgent,
LEVELS), so it times old and new code alike. An `iterations` config builds
`MCTSAgent(seed, iterations=N, **kwargs)`; a `level` config builds that level
(the positions' game decides its budget); configs a checkout lacks are skipped.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any


def measure(job: dict[str, Any]) -> dict[str, Any]:
    """Time every config on every position; totals per (game, config)."""
    from kamon.agents import LEVELS, MCTSAgent
    from kamon.games import get_game

    out: dict[str, Any] = {}
    for name, cfg in job["configs"].items():
        level = cfg.get("level")
        if level is not None and level not in LEVELS:
            continue
        for k, pos in enumerate(job["positions"]):
            game = get_game(pos["game"])
            state = game.new_game(pos["players"], pos["seed"], **pos["options"])
            for aid in pos["actions"]:
                state.apply(aid)
            seed = 1000 + k
            if level is not None:
                agent: Any = LEVELS[level].build(seed)
            else:
                agent = MCTSAgent(seed, iterations=cfg["iterations"], **cfg.get("kwargs", {}))
            start = time.process_time()
            agent.act(state)
            cpu = time.process_time() - start
            row = out.setdefault(f"{pos['game']}|{name}",
                                 {"iterations": 0, "cpu": 0.0, "searches": 0})
            row["iterations"] += agent.last_iterations
            row["cpu"] += cpu
            row["searches"] += 1
    return out


def main() -> int:
    """Read the job from stdin, print the totals as JSON."""
    job = json.load(sys.stdin)
    import kamon

    result = {"kamon": kamon.__file__, "totals": measure(job)}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
