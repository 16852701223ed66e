"""Who thinks next: the order in which the bots' decisions of this process's games get
the bot workers, so that no client can spend the thinking another player waits for
(issue 35: 30 games of four expert bots made a human's bot wait over 120 s).

- A decision in a game with a human seat always goes before one in a game of bots only;
  when there are several workers, games of bots only hold at most all but one of them,
  so a human's bot never waits behind more than what is already thinking.
- Within each class, clients take turns (round robin over the address that created the
  game): a client with thirty games gets a decision thought about as often as a client
  with one, and each of its games waits its turn behind the others of its own.
- A decision, once started, runs to its own bound (the levels' budgets: BOT_SECONDS of
  wall clock for a search, EXPERT_SECONDS for expert; a plug-in bot's time limit,
  `kamon serve --bot-time-limit`, bots.py).

Plain asyncio futures on the event loop: the queue only decides the order in which the
existing process pool is handed work (a priority queue no stock part of this server
provides: the pool itself is first come, first served).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")
HUMAN, BOTS_ONLY = 0, 1


class BotQueue:
    """`slots` decisions think at once (the bot workers); the rest wait in the order the
    module docstring gives."""

    def __init__(self, slots: int) -> None:
        """A queue handing out `slots` places at a time."""
        self.slots = max(1, slots)
        self.bots_only_slots = max(1, self.slots - 1)
        self.running = [0, 0]  # decisions thinking now, by class
        # by class: each client's waiting decisions (their grants), clients in turn order
        self.waiting: tuple[OrderedDict[str, deque[asyncio.Future[None]]], ...] = (
            OrderedDict(), OrderedDict())

    def depth(self) -> int:
        """Decisions waiting for a worker."""
        return sum(len(q) for part in self.waiting for q in part.values())

    async def run(self, client: str, human: bool, think: Callable[[], Awaitable[T]]) -> T:
        """Wait for this decision's turn (`client`: who created the game; `human`: the
        game has a human seat), then `think()` and return what it gives."""
        kind = HUMAN if human else BOTS_ONLY
        grant: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting[kind].setdefault(client, deque()).append(grant)
        self._dispatch()
        try:
            await grant
        except asyncio.CancelledError:
            if grant.done() and not grant.cancelled():
                self._release(kind)  # granted, then cancelled before it ran
            else:
                self._forget(kind, client, grant)
            raise
        try:
            return await think()
        finally:
            self._release(kind)

    def _release(self, kind: int) -> None:
        """A decision of `kind` is done: hand its place on."""
        self.running[kind] -= 1
        self._dispatch()

    def _forget(self, kind: int, client: str, grant: asyncio.Future[None]) -> None:
        """Drop a waiting decision that was given up."""
        queue = self.waiting[kind].get(client)
        if queue is not None and grant in queue:
            queue.remove(grant)
            if not queue:
                del self.waiting[kind][client]

    def _dispatch(self) -> None:
        """Start as many waiting decisions as the places allow, humans' games first."""
        while sum(self.running) < self.slots:
            if self.waiting[HUMAN]:
                kind = HUMAN
            elif self.waiting[BOTS_ONLY] and self.running[BOTS_ONLY] < self.bots_only_slots:
                kind = BOTS_ONLY
            else:
                return
            part = self.waiting[kind]
            client, queue = next(iter(part.items()))
            grant = queue.popleft()
            del part[client]
            if queue:  # the client's next decision waits behind every other client's
                part[client] = queue
            if grant.done():
                continue  # given up while it waited
            self.running[kind] += 1
            grant.set_result(None)
