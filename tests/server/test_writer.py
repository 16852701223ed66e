"""The batch writer (server/writer.py): the moves of many games waiting at once are
stored in one transaction, each answered with its own result; a refused write refuses
only itself (what it wrote is taken back, the others are committed); a write checked
against a game another process moved first is a 409 and never reaches the cache; a
failed commit refuses its whole batch; writes after shutdown are refused; and the
server's garbage-collector settings."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import Any

import pytest

from kamon.server import process
from kamon.server.errors import ServiceError
from kamon.server.live import LiveGames as Server
from kamon.server.store import Store
from tests.server.conftest import run_async


def _games(server: Server, n: int) -> list[tuple[str, dict[int, str]]]:
    """n two-player White Castle games with two human seats: (id, seat -> token)."""
    out = []
    for i in range(n):
        g = server.service.create({"game": "white-castle", "players": 2,
                                   "seats": ["human", "human"], "seed": i}, operator=True)
        out.append((g["id"], {s["seat"]: s["token"] for s in g["seats"]}))
    return out


def _first_move(server: Server, gid: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The body of the mover's first legal move at version 0."""
    state = server.service.load(gid).state
    return {"token": tokens[state.to_move], "action": state.legal_actions()[0].id,
            "version": 0}


async def _play(server: Server, gid: str, body: dict[str, Any]) -> tuple[int, Any]:
    """(200, the answer's version) or (the refusal's status, its message)."""
    try:
        answer = await server.play(gid, body, undo=False)
    except ServiceError as exc:
        return exc.status, exc.message
    import orjson
    return 200, orjson.loads(answer)["version"]


def test_moves_of_many_games_are_stored_together_and_each_answered(db_path: Path) -> None:
    server = Server(str(db_path), 0, 0)
    games = _games(server, 24)

    async def main() -> list[tuple[int, Any]]:
        return await asyncio.gather(*(_play(server, gid, _first_move(server, gid, t))
                                      for gid, t in games))

    try:
        answers = run_async(main)
        assert answers == [(200, 1)] * 24
        assert server.writer.batches < 24  # written together, not one commit each
        for gid, _ in games:  # stored, and what the cache holds is what was stored
            assert server.store.head(gid)[0] == 1
            assert server.service.load(gid).version == 1
    finally:
        server.close()


def test_a_refused_write_in_a_batch_refuses_only_itself(db_path: Path) -> None:
    server = Server(str(db_path), 0, 0)
    games = _games(server, 8)
    bodies = [_first_move(server, gid, t) for gid, t in games]
    bodies[1] = {**bodies[1], "version": 3}  # stale
    bodies[3] = {**bodies[3], "token": "not-a-seat"}  # no seat of this game
    bodies[5] = {**bodies[5], "action": "place steward9"}  # not a move of this game

    async def main() -> list[tuple[int, Any]]:
        return await asyncio.gather(*(_play(server, gid, body)
                                      for (gid, _), body in zip(games, bodies, strict=True)))

    try:
        answers = run_async(main)
        assert [a[0] for a in answers] == [200, 409, 200, 403, 200, 422, 200, 200]
        assert "version 0, not 3" in answers[1][1]
        for i, (gid, _) in enumerate(games):
            assert server.store.head(gid)[0] == (0 if i in (1, 3, 5) else 1)
    finally:
        server.close()


def test_a_move_checked_against_a_game_another_process_moved_is_a_409(
        db_path: Path) -> None:
    """Another server process stores a move while this one's cache still holds the game
    before it: a move checked against the cached game is refused 409 by the versioned
    append (with the other games' moves of its batch stored), and the game read back
    is the stored one."""
    server = Server(str(db_path), 0, 0)
    games = _games(server, 3)
    bodies = [_first_move(server, gid, t) for gid, t in games]
    victim = games[1][0]
    other = Store(str(db_path))
    state = server.service.load(victim).state
    other.append(victim, other.head(victim), "move", state.to_move, state.legal_actions()[-1].id,
                 "another process's move", "playing")

    async def main() -> list[tuple[int, Any]]:
        return await asyncio.gather(*(_play(server, gid, body)
                                      for (gid, _), body in zip(games, bodies, strict=True)))

    try:
        assert server.service.cache.get(victim).version == 0  # type: ignore[union-attr]
        answers = run_async(main)
        assert answers[0] == (200, 1) and answers[2] == (200, 1)
        assert answers[1][0] == 409 and "another move was stored first" in answers[1][1]
        loaded = server.service.load(victim)
        assert loaded.version == 1
        assert loaded.moves[0].notation == "another process's move"
    finally:
        other.close()
        server.close()


def test_a_write_that_fails_midway_takes_back_only_what_it_wrote(db_path: Path) -> None:
    """A write that raises after storing rows (here: a new game whose extra rows are
    refused) leaves none of them, while the moves of its batch are stored."""
    server = Server(str(db_path), 0, 0)
    games = _games(server, 2)

    def refuse(game_id: str, tokens: dict[int, str]) -> Any:
        def extra(cur: Any) -> None:
            raise ServiceError(409, "refused after the game's rows were written")
        return extra

    def create() -> Any:
        return server.service.create({"game": "white-castle", "players": 2}, extra=refuse)

    async def main() -> list[Any]:
        plays = [_play(server, gid, _first_move(server, gid, t)) for gid, t in games]
        made = server.writer.run(create)
        return list(await asyncio.gather(*plays, made, return_exceptions=True))

    try:
        before = server.store.count_games()
        first, second, made = run_async(main)
        assert first == second == (200, 1)
        assert isinstance(made, ServiceError) and made.status == 409
        assert server.store.count_games() == before  # the new game's rows were taken back
        assert server.writer.batches >= 1
    finally:
        server.close()


def test_a_failed_commit_refuses_every_write_of_its_batch_and_caches_none(
        db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = Server(str(db_path), 0, 0)
    games = _games(server, 3)
    real = server.store.transaction
    failed = []

    def transaction(doing: str, wait: float | None = None) -> Any:
        import contextlib

        @contextlib.contextmanager
        def failing() -> Any:
            with real(doing, wait) as tx:
                yield tx
                if not failed:
                    failed.append(1)
                    raise __import__("sqlite3").OperationalError("disk I/O error")
        return failing()

    monkeypatch.setattr(server.store, "transaction", transaction)

    async def main() -> list[tuple[int, Any]]:
        return await asyncio.gather(*(_play(server, gid, _first_move(server, gid, t))
                                      for gid, t in games))

    try:
        answers = run_async(main)
        refused = [a for a in answers if a[0] == 503]
        assert refused and all("could not store a move in game" in a[1] for a in refused)
        for (gid, _), answer in zip(games, answers, strict=True):
            stored = server.store.head(gid)[0]
            assert stored == (1 if answer[0] == 200 else 0)
            assert server.service.load(gid).version == stored
    finally:
        server.close()


def test_a_retried_move_in_the_writer_is_answered_as_the_first_time(db_path: Path) -> None:
    server = Server(str(db_path), 0, 0)
    (gid, tokens), = _games(server, 1)
    body = _first_move(server, gid, tokens)

    async def main() -> list[tuple[int, Any]]:
        first = await _play(server, gid, body)
        again = await _play(server, gid, body)
        return [first, again]

    try:
        assert run_async(main) == [(200, 1), (200, 1)]
        assert server.store.head(gid)[0] == 1
    finally:
        server.close()


def test_writes_after_shutdown_are_refused_with_503(db_path: Path) -> None:
    server = Server(str(db_path), 0, 0)
    (gid, tokens), = _games(server, 1)
    body = _first_move(server, gid, tokens)
    server.close()
    assert run_async(lambda: _play(server, gid, body))[0] == 503


def test_the_server_freezes_start_up_objects_and_collects_less_often() -> None:
    before = gc.get_threshold()
    try:
        process.tune_gc()
        assert gc.get_threshold()[0] == process.GC_THRESHOLD > 700
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_failure_of_the_writer_itself_refuses_its_batch_and_the_writer_goes_on(
        db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the writer's own batch code answers that batch's writes with a 500 (and
    stores none of them) instead of leaving them waiting forever; the thread goes on and
    stores the writes after it."""
    server = Server(str(db_path), 0, 0)
    (gid, tokens), = _games(server, 1)
    body = _first_move(server, gid, tokens)
    real = server.writer._batch
    calls = []

    def broken(batch: list[Any]) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise ZeroDivisionError("a bug")
        real(batch)

    monkeypatch.setattr(server.writer, "_batch", broken)

    async def main() -> list[tuple[int, Any]]:  # (a dead writer would never answer)
        return [await asyncio.wait_for(_play(server, gid, body), 30),
                await asyncio.wait_for(_play(server, gid, body), 30)]

    try:
        first, second = run_async(main)
        assert first[0] == 500 and "ZeroDivisionError" in first[1]
        assert second == (200, 1)
        assert server.store.head(gid)[0] == 1
    finally:
        server.close()
