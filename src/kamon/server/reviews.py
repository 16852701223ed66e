"""Post-game reviews on the server: a seat of a finished game asks for the review of its
own decisions (kamon.learn.review: each decision beside the bot's, what it cost, the three
biggest mistakes, a line per round), which is computed once and stored with the game.

- Only a seat reviews, and only its own decisions, from its own view (the review's search
  samples the hidden parts from what that seat saw); a spectator cannot ask.
- The work is the bots': each decision is judged in the bot workers, handed out by the
  bot queue as the games of bots only are (after every human's game's bot decision, on
  at most all but one worker; bot_queue.py), so a review never slows a game being
  played; one review at a time per client (the address that asks), across processes.
- Progress and the result live in the `reviews` table, so any process answers what any
  other computed; a review whose process died (no progress for STALE_SECONDS) is started
  again by the next request.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from kamon.core.record import GameRecord
from kamon.server.errors import ServiceError
from kamon.server.service import GameService

log = logging.getLogger("kamon.server")
STALE_SECONDS = 120.0  # a running review unchanged this long is taken to have died
MAX_DECISIONS = 400  # a seat's decisions a review judges at most (a game has under 150)


def review_step(record_json: dict[str, Any], seat: int, index: int, iterations: int
                ) -> dict[str, Any]:
    """One decision of a review, judged in a bot worker process."""
    from kamon.learn.review import judge

    return judge(GameRecord.from_json(record_json), seat, index, iterations)


class Reviews:
    """The reviews of one server process: started on request, each decision thought
    through the bots' queue and workers, progress stored as it goes."""

    def __init__(self, service: GameService, read: Callable[..., Awaitable[Any]],
                 think: Callable[..., Awaitable[Any]], spawn: Callable[[Any], None],
                 iterations: int) -> None:
        """`read(fn, *args)`: a store or engine call off the event loop; `think(client,
        fn, *args)`: a job in the bot workers on `client`'s turn, at the lowest priority;
        `iterations`: the review's search budget a decision."""
        self.service = service
        self.read = read
        self.think = think
        self.spawn = spawn
        self.iterations = iterations

    # --- requests --------------------------------------------------------------------

    async def request(self, game_id: str, token: Any, client: str) -> dict[str, Any]:
        """Start the token's seat's review (or tell where it stands, or give it)."""
        seat, record = await self.read(self._seat_and_record, game_id, token)
        status, total = await self.read(self._claim, game_id, seat, record, client)
        if status == "started":
            self.spawn(self._run(game_id, seat, record, total, client))
        return await self.read(self.status_of, game_id, seat)

    async def status(self, game_id: str, token: Any) -> dict[str, Any]:
        """Where the token's seat's review stands (none asked yet: `status` null)."""
        seat, _ = await self.read(self._seat_and_record, game_id, token, False)
        return await self.read(self.status_of, game_id, seat)

    def _seat_and_record(self, game_id: str, token: Any, record: bool = True
                         ) -> tuple[int, dict[str, Any]]:
        """The token's seat and the finished game's record (refusals in words)."""
        loaded = self.service.load(game_id)
        if token is None or token == "":
            raise ServiceError(403, "a review is of a seat's own decisions: ask for it from "
                                    "your seat's link")
        seat = self.service.seat_of(loaded, token)
        assert seat is not None
        if not loaded.state.is_over():
            raise ServiceError(409, "a game is reviewed once it is over")
        return seat, (self.service.record_of(loaded).to_json() if record else {})

    def _claim(self, game_id: str, seat: int, record_json: dict[str, Any], client: str
               ) -> tuple[str, int]:
        """Take the review to compute, unless it is done or under way ("done",
        "running"); 429 if the client has another review under way."""
        store = self.service.store
        now = time.time()
        rows = store.query("SELECT status, updated_at FROM reviews WHERE game_id = ? AND "
                           "seat = ?", (game_id, seat), "read a review")
        if rows and (rows[0][0] == "done" or
                     (rows[0][0] == "running" and now - float(rows[0][1]) < STALE_SECONDS)):
            return str(rows[0][0]), 0
        busy = store.query("SELECT game_id FROM reviews WHERE client = ? AND status = "
                           "'running' AND updated_at > ? AND NOT (game_id = ? AND seat = ?)",
                           (client, now - STALE_SECONDS, game_id, seat),
                           "read a client's reviews")
        if busy:
            raise ServiceError(429, f"one review at a time: yours of game {busy[0][0]} is "
                                    "under way; ask again when it is done", retry_after=10)
        from kamon.learn.review import decision_points

        total = min(len(decision_points(GameRecord.from_json(record_json), seat)),
                    MAX_DECISIONS)

        def write(cur: Any) -> None:
            cur.execute(store.sql("DELETE FROM reviews WHERE game_id = ? AND seat = ?"),
                        (game_id, seat))
            cur.execute(store.sql("INSERT INTO reviews (game_id, seat, status, done, total, "
                                  "result, client, updated_at) VALUES (?,?,?,?,?,?,?,?)"),
                        (game_id, seat, "running", 0, total, None, client, now))
        store.write(write, f"start the review of game {game_id}")
        return "started", total

    def status_of(self, game_id: str, seat: int) -> dict[str, Any]:
        """The stored review of a seat: `status` (null: never asked; "running", "done",
        "failed"), decisions judged and to judge, and the review once done."""
        rows = self.service.store.query(
            "SELECT status, done, total, result FROM reviews WHERE game_id = ? AND seat = ?",
            (game_id, seat), "read a review")
        if not rows:
            return {"status": None, "seat": seat}
        status, done, total, result = rows[0]
        out: dict[str, Any] = {"status": status, "seat": seat, "done": int(done),
                               "total": int(total)}
        if status == "done" and result:
            out["review"] = json.loads(result)
        elif status == "failed":
            out["error"] = str(result or "the review failed")
        return out

    # --- the work --------------------------------------------------------------------

    async def _run(self, game_id: str, seat: int, record_json: dict[str, Any], total: int,
                   client: str) -> None:
        """Judge the seat's decisions one by one in the bot workers, storing progress."""
        from kamon.learn.review import decision_points, summary

        record = GameRecord.from_json(record_json)
        try:
            points = (await self.read(decision_points, record, seat))[:MAX_DECISIONS]
            decisions = []
            for n, index in enumerate(points, 1):
                decisions.append(await self.think(client, review_step, record_json, seat,
                                                  index, self.iterations))
                await self.read(self._progress, game_id, seat, n)
            result = await self.read(summary, record, seat, decisions, self.iterations)
            await self.read(self._finish, game_id, seat, "done", json.dumps(result))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # (stored, so that the page says it rather than waits)
            log.exception("the review of seat %d of game %s failed", seat, game_id)
            what = exc.message if isinstance(exc, ServiceError) else type(exc).__name__
            with contextlib.suppress(ServiceError):
                await self.read(self._finish, game_id, seat, "failed",
                                f"the review could not be computed ({what})")

    def _progress(self, game_id: str, seat: int, done: int) -> None:
        """Store how many decisions are judged (and that the review lives)."""
        store = self.service.store
        store.write(lambda cur: cur.execute(store.sql(
            "UPDATE reviews SET done = ?, updated_at = ? WHERE game_id = ? AND seat = ?"),
            (done, time.time(), game_id, seat)), f"store a review's progress ({game_id})")

    def _finish(self, game_id: str, seat: int, status: str, result: str) -> None:
        """Store the review (or its failure)."""
        store = self.service.store
        store.write(lambda cur: cur.execute(store.sql(
            "UPDATE reviews SET status = ?, result = ?, updated_at = ? WHERE game_id = ? "
            "AND seat = ?"), (status, result, time.time(), game_id, seat)),
            f"store the review of game {game_id}")
