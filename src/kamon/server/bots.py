"""Bots on the server: the driver that plays a game's bot seats (one driver per game:
this process's set, and across processes the game's claim), the decision a worker
process computes, its seed, and the workers' tie to the server (they exit when it is
gone, even after kill -9). Each move goes through the versioned append.

A plug-in bot (`kamon serve --agent NAME=SPEC`) is built in the worker from its spec. If
it chooses an illegal action (or fails), nothing is played: the server logs a warning
naming the agent, the game, the seat and the decision, and the game waits at that
decision, unchanged, readable and served as before (docs/agents.md); that decision is
not asked again until the server restarts.

A plug-in bot has a time limit a decision (`kamon serve --bot-time-limit`, default
BOT_TIME_LIMIT): in a worker process its `act` is interrupted when the limit is up (a
SIGALRM timer, so pure-Python and sleeping agents stop; code in C that never returns to
the interpreter is not interrupted), the built-in level FALLBACK_LEVEL plays that move
instead, and the seat is played by FALLBACK_LEVEL for the rest of the game in this server
process, with one warning logged. With `--bot-workers 0` (a thread) nothing can be
interrupted: a move that came too late is refused and the seat falls back the same way.
Without a limit, three 10 s bots held a fourth game to 21 moves in 120 s (issue 40).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import FrameType
from typing import Any, TypeVar

from kamon.agents import Agent, MCTSAgent, agent_seed, make_agent
from kamon.core.errors import KamonError
from kamon.core.pool import tied_pool
from kamon.games import get_game
from kamon.server import faults, metrics
from kamon.server.bot_queue import BotQueue
from kamon.server.errors import ServiceError
from kamon.server.limits import BOT_TIME_LIMIT
from kamon.server.notify import Claims
from kamon.server.service import BOT_KINDS, GameService, Loaded
from kamon.server.store import MAX_SEED, SeatRow

# The most a search bot with an iteration budget (hard, mcts) thinks about one decision
# on the server, wall clock: on a busy server it plays what it found by then. A level
# with a time budget of its own (expert: EXPERT_SECONDS) keeps it.
BOT_SECONDS = 1.0
RETRY_CAP = 30.0  # the longest a driver waits before it tries a busy database again
IDLE_SECONDS = 5.0  # a bot's game unchanged this long, driven by nobody, is taken over
REFUSED = 1000  # failed plug-in decisions remembered (not asked again, not logged again)
FALLBACK_LEVEL = "normal"  # who plays a plug-in's seat once it overran its time limit
log = logging.getLogger("kamon.server")
T = TypeVar("T")


def bot_decision(state_json: dict[str, Any], game_name: str, level: str, seed: int,
                 spec: str | None = None) -> int:
    """A bot's move (its id) in a serialised state; runs in a worker process. `spec`: the
    plug-in agent of a seat kind from `kamon serve --agent` (built here, in the worker;
    a plug-in's illegal choice raises IllegalAgentMove).

    The agent gets the full state object but, like every kamon agent, decides only
    from the mover's view and samples of the hidden parts (tests/agents prove it; a
    plug-in agent is trusted code the server's operator chose)."""
    faults.before_bot_thinks()
    game = get_game(game_name)
    state = game.from_json(state_json)
    return server_agent(level, seed, spec, game.name).act(state).id


class Overran(BaseException):
    """A plug-in's `act` ran past its time limit (a BaseException, so that the agent's
    own `except Exception` cannot swallow it)."""


def plugin_decision(state_json: dict[str, Any], game_name: str, level: str, seed: int,
                    spec: str, limit: float) -> tuple[int, float | None]:
    """A plug-in bot's move in a serialised state, within `limit` seconds of its `act`
    (0: no limit); runs in a worker process. Returns (action id, None), or, when the
    agent overran, (FALLBACK_LEVEL's move, the seconds it had when it was stopped)."""
    faults.before_bot_thinks()
    game = get_game(game_name)
    state = game.from_json(state_json)
    agent = server_agent(level, seed, spec, game.name)  # (built before the clock starts)
    start = time.monotonic()
    try:
        with _time_limit(limit):
            aid = agent.act(state).id
    except Overran:
        aid = None
    spent = time.monotonic() - start
    if aid is not None and (limit <= 0 or spent <= limit):
        return aid, None
    fallback = server_agent(FALLBACK_LEVEL, seed).act(game.from_json(state_json)).id
    return fallback, spent


@contextlib.contextmanager
def _time_limit(limit: float) -> Any:
    """Raise Overran in the body after `limit` seconds of wall clock (a SIGALRM timer,
    in a process's main thread only; elsewhere, or with no limit, nothing happens)."""
    if limit <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(_signum: int, _frame: FrameType | None) -> None:
        """The timer's end: stop the agent where it is."""
        raise Overran

    previous = signal.signal(signal.SIGALRM, stop)
    start = time.monotonic()
    left, interval = signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if left > 0:  # a timer someone else had set (pytest-timeout's): set it again
            signal.setitimer(signal.ITIMER_REAL,
                             max(left - (time.monotonic() - start), 0.001), interval)


def server_agent(level: str, seed: int, spec: str | None = None,
                 game: str | None = None) -> Agent:
    """A bot as the server runs it: a search with only an iteration budget also stops
    after BOT_SECONDS of wall clock; expert keeps its own time budget (EXPERT_SECONDS);
    a plug-in (`spec`) is built as it is, fitted to `game`."""
    if spec is not None:
        return make_agent(spec, seed, game=game)
    agent = make_agent(level, seed)
    if isinstance(agent, MCTSAgent) and agent.seconds is None:
        agent.seconds = BOT_SECONDS  # a search never keeps a player waiting longer
    return agent


def bot_seed(loaded: Loaded, seat: int) -> int:
    """A bot's seed for its next decision: the game's seed, its seat, the move number."""
    return agent_seed(loaded.row.seed ^ (len(loaded.moves) * 0x9E3779B97F4A7C15
                                         & MAX_SEED), seat)


def bot_pool(workers: int) -> Executor:
    """Where bots think: `workers` processes tied to this one, or (0) a thread."""
    if workers <= 0:
        return ThreadPoolExecutor(1, thread_name_prefix="kamon-bot")
    return tied_pool(workers)


class BotDriver:
    """Plays the bots' decisions of this process's games, off the event loop: the
    engine and store calls through `read`, the decisions in worker processes, each move
    stored (and told to the sockets) by `store_move(game_id, seat, action id, version)`."""

    def __init__(self, service: GameService,
                 read: Callable[..., Awaitable[Any]],
                 store_move: Callable[[str, int, int, int], Awaitable[Any]],
                 spawn: Callable[[Any], None], claims: Claims | None,
                 workers: int, delay: float, time_limit: float = BOT_TIME_LIMIT) -> None:
        """Drive `service`'s games (`claims`: across processes; None: this one alone);
        `workers` processes think (0: a thread), `delay` seconds before each move;
        `time_limit`: a plug-in bot's seconds a decision (0: none)."""
        self.service = service
        self.read = read
        self.store_move = store_move
        self.spawn = spawn
        self.claims = claims
        self.workers = workers
        self.delay = delay
        self.pool: Executor | None = None
        self.queue = BotQueue(workers)  # who thinks next (a thread: one at a time)
        self.driving: set[str] = set()
        # plug-in decisions that failed (an illegal move, an error), by (game, version):
        # not asked again (nor logged again) until the game changes or the server restarts
        self.refused: OrderedDict[tuple[str, int], str] = OrderedDict()
        self.time_limit = time_limit
        # plug-in seats that overran their time limit, by (game, seat): FALLBACK_LEVEL
        # plays them for the rest of the game (until the server restarts)
        self.fallen: OrderedDict[tuple[str, int], None] = OrderedDict()

    def drive(self, game_id: str) -> None:
        """Play the game's bots until a human (or nobody) is to move, unless a driver in
        this process already does."""
        if game_id not in self.driving:
            self.driving.add(game_id)
            self.spawn(self._drive(game_id))

    async def sweep(self, idle: float = IDLE_SECONDS) -> None:
        """Drive every game whose bot is to move and that nothing changed for `idle`
        seconds (at start-up: 0), unless another process holds its claim."""
        try:
            ids = await self.read(self.service.store.bots_waiting, time.time() - idle)
        except Exception as exc:  # the server still serves what it can
            log.error("cannot list the games bots are to move in: %s", exc)
            return
        for game_id in ids:
            self.drive(game_id)

    async def _drive(self, game_id: str) -> None:
        """Claim the game, play its bots, let the claim go; and look once more after
        letting go (a write another process stored while this one held the claim may
        have left a bot to move, and that process could not claim the game then)."""
        try:
            for _ in range(2):  # (a third race is left to the sweep)
                if self.claims is not None and not await self.read(self.claims.claim,
                                                                   game_id):
                    return
                try:
                    await self._play(game_id)
                finally:
                    if self.claims is not None:
                        with contextlib.suppress(Exception):
                            await self.read(self.claims.release, game_id)
                if self.claims is None or self.service.bot_to_move(
                        await self.read(self.service.load, game_id)) is None:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # (a game that cannot be read: the sweep tries again later)
            log.exception("bot driver of game %s stopped", game_id)
        finally:
            self.driving.discard(game_id)

    async def _play(self, game_id: str) -> None:
        """Play the bots' decisions until a human (or nobody) is to move. A busy database
        is waited out; a damaged game stops only its own driver."""
        loop = asyncio.get_running_loop()
        backoff, broken = 1.0, 0
        while True:
            try:
                loaded = await self.read(self.service.load, game_id)
                bot = self.service.bot_to_move(loaded)
                if bot is None:
                    return
                assert bot.level is not None
                plugin = self.service.agents.get(bot.level)
                fallen = (game_id, bot.seat) in self.fallen
                if fallen:
                    plugin = None  # (it overran: the fallback level plays the seat)
                key = (game_id, loaded.version)
                if key in self.refused:
                    return  # (this decision failed already: the game waits)
                if plugin is None and not fallen and bot.level not in BOT_KINDS:
                    self._refuse(key, f"seat {bot.seat} of game {game_id} is a {bot.level!r} "
                                      "bot, a kind this server was not told about (start "
                                      f"it with --agent {bot.level}=SPEC); the game waits")
                    return
                if self.delay:
                    await asyncio.sleep(self.delay)

                async def think(loaded: Loaded = loaded, bot: SeatRow = bot,
                                spec: str | None = None if plugin is None else plugin.spec,
                                level: str = FALLBACK_LEVEL if fallen else bot.level
                                ) -> tuple[int, float | None]:
                    state_json = await self.read(_state_json, loaded)
                    seed = bot_seed(loaded, bot.seat)
                    if spec is None:
                        aid: int = await loop.run_in_executor(
                            self.executor(), bot_decision, state_json, loaded.row.game,
                            level, seed)
                        return aid, None
                    done: tuple[int, float | None] = await loop.run_in_executor(
                        self.executor(), plugin_decision, state_json, loaded.row.game,
                        level, seed, spec, self.time_limit)
                    return done

                try:  # (on its turn: humans' games first, clients in turn, bot_queue.py)
                    aid, overran = await self.queue.run(
                        loaded.row.creator or "", any(s.kind == "human"
                                                      for s in loaded.seats), think)
                except BrokenProcessPool:
                    broken += 1
                    log.error("the bot workers died (game %s); starting new ones", game_id)
                    self._reset_pool()
                    if broken > 3:
                        return
                    continue
                except Exception as exc:
                    if plugin is None:
                        raise
                    what = str(exc) if isinstance(exc, KamonError) else \
                        f"{type(exc).__name__}: {exc}"
                    self._refuse(key, f"plug-in bot {bot.level!r} ({plugin.spec}) of game "
                                      f"{game_id}, seat {bot.seat}, made no move at version "
                                      f"{loaded.version}: {what}; nothing was played, and "
                                      "the game waits at this decision (fix the agent and "
                                      "restart the server to let it try again)")
                    return
                if overran is not None and plugin is not None:
                    self._fall_back(game_id, bot.seat, bot.level, plugin.spec, overran,
                                    loaded.version)
                await self.store_move(game_id, bot.seat, aid, loaded.version)
                backoff = 1.0
            except ServiceError as exc:
                if exc.status == 409:
                    continue  # someone undid or moved meanwhile: think again
                if exc.status == 503:
                    log.warning("bots of game %s wait %.0f s: %s", game_id, backoff,
                                exc.message)
                    await asyncio.sleep(backoff)
                    backoff = min(RETRY_CAP, backoff * 2)
                    continue
                log.error("bots of game %s stopped: %s", game_id, exc.message)
                return

    def _fall_back(self, game_id: str, seat: int, kind: str, spec: str, spent: float,
                   version: int) -> None:
        """A plug-in seat overran its time limit: log it once, and let FALLBACK_LEVEL
        play the seat for the rest of the game (the newest REFUSED such seats)."""
        self.fallen[(game_id, seat)] = None
        while len(self.fallen) > REFUSED:
            self.fallen.popitem(last=False)
        log.warning("plug-in bot %r (%s) of game %s, seat %d, overran its time limit of "
                    "%g s a decision at version %d (stopped after %.1f s); the built-in "
                    "level %r played that move and plays the seat for the rest of the "
                    "game (kamon serve --bot-time-limit)", kind, spec, game_id, seat,
                    self.time_limit, version, spent, FALLBACK_LEVEL)

    def _refuse(self, key: tuple[str, int], message: str) -> None:
        """Log a bot decision that failed, once, and remember it (the newest REFUSED)."""
        if key in self.refused:
            return
        self.refused[key] = message
        while len(self.refused) > REFUSED:
            self.refused.popitem(last=False)
        log.warning("%s", message)

    async def background(self, client: str, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(*args)` in the bot workers at the lowest priority, on `client`'s turn
        (as a game of bots only: after every human's game's decision, on at most all but
        one worker; a post-game review's decisions, reviews.py)."""
        loop = asyncio.get_running_loop()

        async def run() -> T:
            result: T = await loop.run_in_executor(self.executor(), fn, *args)
            return result

        return await self.queue.run(client, False, run)

    def executor(self) -> Executor:
        """The bot pool, started on first use (seen through the metrics' timing)."""
        if self.pool is None:
            self.pool = bot_pool(self.workers)
        return metrics.timed_pool(self.pool)

    def _reset_pool(self) -> None:
        """Drop a broken bot pool (the next decision starts a new one)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the bot processes. They are waited for (a decision under way ends within
        its time budget), so that none is left behind and the pool's semaphores are
        released rather than reported leaked at exit."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


def _state_json(loaded: Loaded) -> dict[str, Any]:
    """The game's full state as JSON, for a bot worker."""
    with loaded.lock:
        return loaded.state.to_json()
