"""Servers started at the same moment on an empty PostgreSQL database all serve: making
the schema is done under an advisory lock, so the second process waits for the first's
commit instead of racing it on PostgreSQL's catalogue (issue 35: 5 of 8 trials failed
with a UniqueViolation on pg_type before)."""

from __future__ import annotations

import multiprocessing as mp
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg

from tests.server.conftest import ServerProcess

TRIALS = 20
PROCESSES = 4


def _db_url(base: str, name: str) -> str:
    """The URL of `base`'s database seen through schema `name` alone (its search path):
    an empty database as far as kamon can tell, far cheaper to make than a database."""
    return f"{base}&options=-csearch_path%3D{name}"


def _fresh_databases(base: str, names: list[str]) -> None:
    """Make empty schemas (dropping any of the same names)."""
    with psycopg.connect(base, autocommit=True) as conn:
        for name in names:
            conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
            conn.execute(f"CREATE SCHEMA {name}")


def _opener(urls: list[str], barrier: Any, results: Any) -> None:
    """In a worker process: for each database, wait for every worker, then open the
    store there at the same moment; put what happened on `results`."""
    from kamon.server.store import Store

    for url in urls:
        barrier.wait(timeout=60)
        try:
            Store(url).close()
            results.put((url, "ok"))
        except Exception as exc:  # what the race looked like before: reported, not raised
            results.put((url, f"{type(exc).__name__}: {exc}"))


def test_stores_opened_at_the_same_moment_on_an_empty_database_all_open(
        postgres_url: str) -> None:
    """20 trials of 4 processes opening the store on a new, empty database (a schema of
    its own) released by one barrier: every process opens it every time, and the schema is made once."""
    names = [f"race{i}" for i in range(TRIALS)]
    _fresh_databases(postgres_url, names)
    urls = [_db_url(postgres_url, n) for n in names]
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(PROCESSES), ctx.Queue()
    workers = [ctx.Process(target=_opener, args=(urls, barrier, results))
               for _ in range(PROCESSES)]
    for w in workers:
        w.start()
    got = [results.get(timeout=120) for _ in range(TRIALS * PROCESSES)]
    for w in workers:
        w.join(timeout=30)
    failed = [g for g in got if g[1] != "ok"]
    assert failed == [], f"{len(failed)} of {len(got)} opens failed: {failed[:3]}"
    with psycopg.connect(urls[-1]) as conn:
        tables = {r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s", (names[-1],))}
    assert {"games", "seats", "actions"} <= tables


def test_servers_started_together_on_an_empty_database_all_serve(
        postgres_url: str, tmp_path: Path) -> None:
    """Three `kamon serve` processes started at once on a new database all answer, and
    a game made through one is read through the others."""
    _fresh_databases(postgres_url, ["together"])
    url = _db_url(postgres_url, "together")
    servers = [ServerProcess(url, tmp_path / f"kamon{i}.log", bot_workers=0)
               for i in range(3)]
    try:
        import threading
        errors: list[BaseException] = []

        def start(s: ServerProcess) -> None:
            try:
                s.start(timeout=60)
            except BaseException as exc:  # noqa: BLE001 (reported below)
                errors.append(exc)

        threads = [threading.Thread(target=start, args=(s,)) for s in servers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [], errors
        made = httpx.post(servers[0].url + "/api/games", json={
            "game": "white-castle", "players": 2, "seats": ["human", "human"]}, timeout=30)
        assert made.status_code == 201, made.text
        time.sleep(0)
        for s in servers[1:]:
            r = httpx.get(f"{s.url}/api/games/{made.json()['id']}", timeout=30)
            assert r.status_code == 200 and r.json()["version"] == 0
    finally:
        for s in servers:
            s.stop()
