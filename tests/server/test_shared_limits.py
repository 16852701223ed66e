"""The write rate limit holds across processes: on PostgreSQL every process counts a
client's writes in one shared bucket, so 4 processes allow a client what 1 does (issue
35: 328 of 400 creates accepted through 4 processes, 77 through one)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx

from tests.server.conftest import ServerProcess, run_async

RATE, BURST = 5, 10
REQUESTS = 200


async def _flood(urls: list[str]) -> tuple[int, float]:
    """REQUESTS writes from one client, spread round-robin over `urls` as fast as they
    are answered (8 at a time): how many were let through (not 429), and the seconds
    the flood took."""
    body = {"token": "x", "action": 0, "version": 0}
    passed = 0
    sem = asyncio.Semaphore(8)
    async with httpx.AsyncClient(timeout=30) as http:

        async def one(i: int) -> int:
            async with sem:
                r = await http.post(f"{urls[i % len(urls)]}/api/games/nogame/moves",
                                    json=body)
                assert r.status_code in (404, 429), r.text
                if r.status_code == 429:
                    assert r.json()["retry_after"] >= 1 and "too many writes" in \
                        r.json()["error"]
                return int(r.status_code != 429)

        start = time.monotonic()
        passed = sum(await asyncio.gather(*(one(i) for i in range(REQUESTS))))
        return passed, time.monotonic() - start


def test_four_processes_allow_one_client_what_one_process_does(
        postgres_url: str, tmp_path: Path) -> None:
    """The same flood through 1 process and then round-robin through 4: each lets
    through at most the burst plus the rate over the flood's time, and 4 processes no
    more than that."""
    servers = [ServerProcess(postgres_url, tmp_path / f"kamon{i}.log", bot_workers=0,
                             args=["--rate-limit", str(RATE), "--rate-burst", str(BURST)]
                             ).start() for i in range(4)]
    try:
        one, t1 = run_async(lambda: _flood([servers[0].url]))
        time.sleep(BURST / RATE + 0.5)  # the bucket refills
        four, t4 = run_async(lambda: _flood([s.url for s in servers]))
        print(f"\n1 process: {one} of {REQUESTS} in {t1:.2f} s; "
              f"4 processes: {four} of {REQUESTS} in {t4:.2f} s")
        assert BURST <= one <= BURST + RATE * t1 + 1
        assert BURST <= four <= BURST + RATE * t4 + 1
    finally:
        for s in servers:
            s.stop()
