"""The server's worker threads: results and exceptions come back to the event loop,
overlapping calls run at once on up to the pool's size of threads (started as calls
overlap), and a shut-down pool refuses new calls."""

from __future__ import annotations

import asyncio
import threading

import pytest

from kamon.server.workers import Workers


def test_results_exceptions_and_threads_started_as_calls_overlap() -> None:
    async def main() -> None:
        pool = Workers(3, "test")
        assert await pool.run(lambda a, b: a + b, 2, 3) == 5
        assert len(pool.threads) == 1  # one call at a time needs one thread
        with pytest.raises(ZeroDivisionError):
            await pool.run(lambda: 1 // 0)
        gate = threading.Barrier(3, timeout=5)  # three calls must run at the same time
        assert await asyncio.gather(*(pool.run(gate.wait) for _ in range(3))) != []
        assert len(pool.threads) == 3
        done = await asyncio.gather(*(pool.run(lambda i=i: i * i) for i in range(50)))
        assert done == [i * i for i in range(50)] and len(pool.threads) == 3
        assert pool.free == 3  # every thread is free again
        pool.shutdown()
        with pytest.raises(RuntimeError, match="shut down"):
            await pool.run(int)
        for t in pool.threads:
            t.join(5)
            assert not t.is_alive()

    asyncio.run(main())
