"""MCTS iterations per CPU second at one position, for whichever kamon is importable.

bench_agents.py starts it as a long-lived subprocess, once with this checkout and once
with PYTHONPATH pointing at another checkout's src/ (the baseline), and sends both the
same positions in alternation, so the two are timed in one session under the same load
on the machine. Each stdin line is one JSON job:

    {"game": "white-castle", "players": 4, "seed": 7, "options": {}, "actions": [12, ...],
     "agent_seed": 3, "iterations": 900}          (MCTSAgent(seed, iterations=N))
    {..., "level": "hard"}                          (that level as the checkout defines it)

and the answer is one JSON line: {"iterations": N, "cpu": seconds, "kamon": path}, or
{"skipped": reason} when the checkout has no such level. It uses only the API every
kamon version has (get_game, apply, MCTSAgent, LEVELS), so it times old and new code
alike.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any


def run(job: dict[str, Any]) -> dict[str, Any]:
    """Replay the position, search it once, and report iterations and CPU seconds."""
    import kamon
    from kamon.agents import LEVELS, MCTSAgent
    from kamon.games import get_game

    level = job.get("level")
    if level is not None and level not in LEVELS:
        return {"skipped": f"no level {level!r} in {kamon.__file__}"}
    state = get_game(job["game"]).new_game(job["players"], job["seed"], **job["options"])
    for aid in job["actions"]:
        state.apply(aid)
    if level is not None:
        agent: Any = LEVELS[level].build(job["agent_seed"])
    else:
        agent = MCTSAgent(job["agent_seed"], iterations=job["iterations"])
    start = time.process_time()
    agent.act(state)
    cpu = time.process_time() - start
    return {"iterations": agent.last_iterations, "cpu": cpu, "kamon": kamon.__file__}


def main() -> int:
    """Answer one JSON job per stdin line until stdin closes."""
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(run(json.loads(line))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
