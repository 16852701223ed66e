"""`kamon admin backup` while a real server stores moves, then `kamon admin restore` into
a new database: every game of the backup is the source's game at one moment, row for row
(its setup, seats and the first `version` action rows, byte for byte), readable (its
digest holds), and a finished game's record is the same bytes from both. SQLite (VACUUM
INTO, against a running `kamon serve`) and PostgreSQL (pg_dump / pg_restore).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from kamon.cli import app
from kamon.server.app import create_app
from kamon.server.store import Store
from tests.server.conftest import ServerProcess, token_of

Rows = dict[str, Any]


def admin(command: str, db: str, *args: str) -> str:
    """`kamon admin COMMAND --db db ARGS`: its output (exit code 0 required)."""
    result = CliRunner().invoke(app, ["admin", command, "--db", db, *args])
    assert result.exit_code == 0, result.output
    return result.output


def rows_of(store: Store) -> dict[str, Rows]:
    """Every game's rows: its setup and version, its seats, its action rows."""
    found: dict[str, Rows] = {}
    for r in store.query("SELECT id, game, players, seed, options, version, status, mode, "
                         "digest, created_at FROM games", (), "read"):
        found[str(r[0])] = {"game": tuple(r), "seats": [], "actions": []}
    for r in store.query("SELECT game_id, seat, kind, level, token_hash, player_name FROM "
                         "seats ORDER BY game_id, seat", (), "read"):
        found[str(r[0])]["seats"].append(tuple(r))
    for r in store.query("SELECT game_id, idx, kind, seat, action_id, notation, created_at "
                         "FROM actions ORDER BY game_id, idx", (), "read"):
        found[str(r[0])]["actions"].append(tuple(r))
    return found


def same_games_at_one_moment(source: dict[str, Rows], copy: dict[str, Rows]) -> None:
    """Each copied game is its source at some version: the same setup and seats, and its
    action rows the source's first `version` rows exactly."""
    assert copy and set(copy) <= set(source)
    for gid, c in copy.items():
        s = source[gid]
        version = c["game"][5]
        assert c["seats"] == s["seats"], gid
        assert c["game"][:5] == s["game"][:5] and c["game"][7] == s["game"][7], gid
        assert len(c["actions"]) == version, gid
        assert c["actions"] == s["actions"][:version], gid
        if version == s["game"][5]:
            assert c["game"] == s["game"], gid


class Mover(threading.Thread):
    """Plays the two human seats of a game, move after move, until stopped: the server
    is storing moves while the backup runs. `versions` holds each stored version."""

    def __init__(self, url: str, gid: str, tokens: list[str]) -> None:
        """Play game `gid` at `url` (the base URL of a server)."""
        super().__init__(daemon=True)
        self.url, self.gid, self.tokens = url, gid, tokens
        self.versions: list[int] = []
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        """Move until stopped or the game ends."""
        try:
            with httpx.Client(base_url=self.url, timeout=30) as http:
                while not self.stop.is_set():
                    pub = http.get(f"/api/games/{self.gid}").json()
                    if pub["over"]:
                        return
                    token = self.tokens[pub["to_move"]]
                    if not token:  # the bot is to move
                        time.sleep(0.01)
                        continue
                    p = http.get(f"/api/games/{self.gid}", params={"token": token}).json()
                    r = http.post(f"/api/games/{self.gid}/moves", json={
                        "token": token, "version": p["version"],
                        "action": p["legal"][0]["id"]})
                    assert r.status_code == 200, r.text
                    self.versions.append(r.json()["version"])
        except BaseException as exc:  # (reported by the test)
            self.error = exc


def finished_game(url: str) -> str:
    """A two-bot game played to its end (the bots move at once)."""
    made = httpx.post(url + "/api/games", timeout=30, json={
        "game": "white-castle", "players": 2, "seats": ["random", "random"]}).json()
    deadline = time.monotonic() + 60
    while not httpx.get(f"{url}/api/games/{made['id']}", timeout=30).json()["over"]:
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.1)
    return str(made["id"])


def test_a_backup_taken_while_the_server_writes_restores_the_same_games(
        serve: Any, tmp_path: Path) -> None:
    """SQLite: a backup while a real server stores a human game's moves; restored into a
    new file, every game is its source's rows at one moment, reads without a 500, and
    the finished games' records are the same bytes as the running server's."""
    db = tmp_path / "kamon.db"
    srv: ServerProcess = serve(db=db)
    finished = [finished_game(srv.url) for _ in range(2)]
    made = srv.api("/api/games", {"game": "white-castle", "players": 3,
                                  "seats": ["human", "human", "random"]}).json()
    mover = Mover(srv.url, made["id"], [token_of(made, 0), token_of(made, 1), ""])
    mover.start()
    try:
        deadline = time.monotonic() + 30
        while len(mover.versions) < 5:
            assert mover.error is None and time.monotonic() < deadline, mover.error
            time.sleep(0.05)
        during = len(mover.versions)
        admin("backup", str(db), str(tmp_path / "backup.db"))
        time.sleep(0.5)
        assert len(mover.versions) > during, "the server stored no move after the backup"
    finally:
        mover.stop.set()
        mover.join(timeout=30)
    assert mover.error is None, mover.error
    restored = tmp_path / "restored.db"
    admin("restore", str(restored), str(tmp_path / "backup.db"))
    source, copy = rows_of(Store(str(db))), rows_of(Store(str(restored)))
    same_games_at_one_moment(source, copy)
    backed = copy[made["id"]]["game"][5]
    assert mover.versions[0] <= backed, "the backup is older than the moves before it"
    with TestClient(create_app(str(restored), bot_workers=0, bot_delay=0, rate=0)) as c:
        for gid in copy:
            assert c.get(f"/api/games/{gid}").status_code == 200, gid
        for gid in finished:
            assert c.get(f"/api/games/{gid}/record").content == \
                httpx.get(f"{srv.url}/api/games/{gid}/record", timeout=30).content
    again = CliRunner().invoke(app, ["admin", "restore", "--db", str(restored),
                                     str(tmp_path / "backup.db")])
    assert again.exit_code == 2 and "already holds games" in again.output


def test_a_postgresql_backup_is_a_pg_dump_that_restores_into_a_new_database(
        postgres_url: str, tmp_path: Path) -> None:
    """PostgreSQL: pg_dump while the app stores moves, pg_restore into a new database:
    the same games at one moment, row for row, readable there."""
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for name in ("kamon_bk_src", "kamon_bk_dst"):
            conn.execute(f"DROP DATABASE IF EXISTS {name}")
            conn.execute(f"CREATE DATABASE {name}")
    src = postgres_url.replace("/postgres?", "/kamon_bk_src?", 1)
    dst = postgres_url.replace("/postgres?", "/kamon_bk_dst?", 1)
    with TestClient(create_app(src, bot_workers=0, bot_delay=0, rate=0)) as c:
        made = c.post("/api/games", json={"game": "white-castle", "players": 2,
                                          "seats": ["human", "human"]}).json()
        tokens = [token_of(made, 0), token_of(made, 1)]
        for _ in range(6):
            pub = c.get(f"/api/games/{made['id']}").json()
            token = tokens[pub["to_move"]]
            p = c.get(f"/api/games/{made['id']}", params={"token": token}).json()
            r = c.post(f"/api/games/{made['id']}/moves", json={
                "token": token, "version": p["version"], "action": p["legal"][0]["id"]})
            assert r.status_code == 200, r.text
        assert "pg_dump" in admin("backup", src, str(tmp_path / "kamon.pgdump"))
    assert (tmp_path / "kamon.pgdump").read_bytes().startswith(b"PGDMP")
    admin("restore", dst, str(tmp_path / "kamon.pgdump"))
    source, copy = rows_of(Store(src)), rows_of(Store(dst))
    same_games_at_one_moment(source, copy)
    assert copy == source  # nothing wrote after the dump
    with TestClient(create_app(dst, bot_workers=0, bot_delay=0, rate=0)) as c:
        assert c.get(f"/api/games/{made['id']}").json()["version"] == 6


def test_a_backup_never_overwrites_and_refuses_the_wrong_kind_of_file(tmp_path: Path) -> None:
    """An existing backup file is not overwritten; an SQLite backup does not restore
    into PostgreSQL's kind, nor a file that is no backup at all."""
    db = tmp_path / "kamon.db"
    Store(str(db)).close()
    (tmp_path / "taken").write_text("keep me")
    runner = CliRunner()
    out = runner.invoke(app, ["admin", "backup", "--db", str(db), str(tmp_path / "taken")])
    assert out.exit_code == 2 and "exists" in out.output
    assert (tmp_path / "taken").read_text() == "keep me"
    out = runner.invoke(app, ["admin", "restore", "--db", str(tmp_path / "new.db"),
                              str(tmp_path / "taken")])
    assert out.exit_code == 2 and "not an SQLite backup" in out.output
    assert not (tmp_path / "new.db").exists()
