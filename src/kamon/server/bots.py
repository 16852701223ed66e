"""Bots on the server: the decision a worker process computes, its seed, and the worker
processes' tie to the server (they exit when the server is gone, even after kill -9)."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from kamon.agents import Agent, MCTSAgent, agent_seed, make_agent
from kamon.games import get_game
from kamon.server import faults
from kamon.server.store import MAX_SEED

if TYPE_CHECKING:
    from kamon.server.service import Loaded

# The most a search bot with an iteration budget (hard, mcts) thinks about one decision
# on the server, wall clock: on a busy server it plays what it found by then. A level
# with a time budget of its own (expert: EXPERT_SECONDS) keeps it.
BOT_SECONDS = 1.0
PARENT_CHECK_SECONDS = 0.25  # how often a worker looks whether its server is still there


def bot_decision(state_json: dict[str, Any], game_name: str, level: str, seed: int) -> int:
    """A bot's move (its id) in a serialised state; runs in a worker process.

    The agent gets the full state object but, like every kamon agent, decides only
    from the mover's view and samples of the hidden parts (tests/agents prove it)."""
    faults.before_bot_thinks()
    game = get_game(game_name)
    state = game.from_json(state_json)
    return server_agent(level, seed).act(state).id


def server_agent(level: str, seed: int) -> Agent:
    """A bot as the server runs it: a search with only an iteration budget also stops
    after BOT_SECONDS of wall clock; expert keeps its own time budget (EXPERT_SECONDS)."""
    agent = make_agent(level, seed)
    if isinstance(agent, MCTSAgent) and agent.seconds is None:
        agent.seconds = BOT_SECONDS  # a search never keeps a player waiting longer
    return agent


def bot_seed(loaded: Loaded, seat: int) -> int:
    """A bot's seed for its next decision: the game's seed, its seat, the move number."""
    return agent_seed(loaded.row.seed ^ (len(loaded.moves) * 0x9E3779B97F4A7C15
                                         & MAX_SEED), seat)


def watch_parent(parent_pid: int) -> None:
    """In a worker process: exit as soon as the server that started it is gone.

    A killed server (even by SIGKILL, which runs no clean-up) leaves its workers to be
    re-parented; a worker that sees its parent change ends itself at once."""
    def watch() -> None:
        while True:
            if os.getppid() != parent_pid:
                os._exit(0)
            time.sleep(PARENT_CHECK_SECONDS)

    if os.getppid() != parent_pid:
        os._exit(0)
    threading.Thread(target=watch, name="kamon-parent-watch", daemon=True).start()


def bot_pool(workers: int) -> Executor:
    """Where bots think: `workers` spawned processes tied to this one, or (0) a thread."""
    if workers <= 0:
        return ThreadPoolExecutor(1, thread_name_prefix="kamon-bot")
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=watch_parent, initargs=(os.getpid(),))
