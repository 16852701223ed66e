"""The kamon web app: REST routes, a WebSocket per game, bots in worker processes.

Routes (JSON; every refusal is `{"error": "<what was wrong>"}` with its status):
  GET  /api/catalog                      games, options and seat kinds to create with
  GET  /api/data/{game}                  component texts for the client's explanations
  POST /api/games                        create: {game, players, seats, options, seed?}
  GET  /api/games/{id}?token=T           the viewer's payload (no token: a spectator)
  POST /api/games/{id}/moves             {token, action, version}
  POST /api/games/{id}/undo              {token, version}
  GET  /api/games/{id}/record            the finished game's record
  WS   /api/games/{id}/ws?token=T        the viewer's payload after every change
and the browser client: `/` (lobby), `/play/{id}` (a game), `/static/...`.

Bots move in a process pool (a search never stalls the server), one driver task per
game, after a short pause so people can follow. The driver stores a bot's move only if
the game is still at the version the bot thought about.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import multiprocessing
import os
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from kamon.games import GAMES, get_game
from kamon.server.service import (
    GameService,
    Loaded,
    ServiceError,
    bot_decision,
    bot_seed,
)
from kamon.server.store import Store

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
POLL_SECONDS = 2.0  # a socket re-reads the stored version this often (other processes)
log = logging.getLogger("kamon.server")


class Hub:
    """The live sockets of each game, with the seat each one views as."""

    def __init__(self) -> None:
        """No sockets yet."""
        self.sockets: dict[str, dict[WebSocket, int | None]] = {}
        self.sent: dict[WebSocket, int] = {}  # the version each socket has last been sent

    def add(self, game_id: str, ws: WebSocket, seat: int | None) -> None:
        """Register a socket."""
        self.sockets.setdefault(game_id, {})[ws] = seat

    def remove(self, game_id: str, ws: WebSocket) -> None:
        """Forget a socket."""
        conns = self.sockets.get(game_id)
        if conns is not None:
            conns.pop(ws, None)
            self.sent.pop(ws, None)
            if not conns:
                del self.sockets[game_id]

    def of(self, game_id: str) -> list[tuple[WebSocket, int | None]]:
        """The sockets of a game."""
        return list(self.sockets.get(game_id, {}).items())


class Server:
    """State shared by the routes: the service, locks, sockets, the bot pool."""

    def __init__(self, db: str, bot_workers: int, bot_delay: float) -> None:
        """Open the store; bot_workers 0 runs bots in a thread (for small machines)."""
        self.store = Store(db)
        self.service = GameService(self.store)
        self.hub = Hub()
        self.locks: dict[str, asyncio.Lock] = {}
        self.driving: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.pool: Executor | None = None

    def executor(self) -> Executor:
        """The bot pool, started on first use (spawned processes: safe beside threads)."""
        if self.pool is None:
            if self.bot_workers > 0:
                self.pool = ProcessPoolExecutor(
                    self.bot_workers, mp_context=multiprocessing.get_context("spawn"))
            else:
                self.pool = ThreadPoolExecutor(1)
        return self.pool

    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock serialising writes to one game in this process."""
        return self.locks.setdefault(game_id, asyncio.Lock())

    async def broadcast(self, game_id: str) -> None:
        """Send every socket of the game its viewer's payload."""
        conns = self.hub.of(game_id)
        if not conns:
            return
        try:
            loaded = self.service.load(game_id)
        except ServiceError:
            return
        for ws, seat in conns:
            if self.hub.sent.get(ws) == loaded.version:
                continue
            self.hub.sent[ws] = loaded.version
            try:
                await ws.send_json({"type": "state", "payload": self.service.payload(loaded,
                                                                                     seat)})
            except Exception:  # a closed socket: forget it
                self.hub.remove(game_id, ws)

    async def after_change(self, game_id: str) -> None:
        """Tell the sockets (before any bot can move on), then let a bot decide if one is
        to move."""
        await self.broadcast(game_id)
        self.spawn(self.drive_bots(game_id))

    def spawn(self, coro: Any) -> None:
        """Run a coroutine in the background, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def drive_bots(self, game_id: str) -> None:
        """Play the bots' decisions of a game until a human (or nobody) is to move."""
        if game_id in self.driving:
            return
        self.driving.add(game_id)
        loop = asyncio.get_running_loop()
        try:
            while True:
                loaded = self.service.load(game_id)
                bot = self.service.bot_to_move(loaded)
                if bot is None:
                    return
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                assert bot.level is not None
                aid = await loop.run_in_executor(
                    self.executor(), bot_decision, loaded.state.to_json(), loaded.row.game,
                    bot.level, bot_seed(loaded, bot.seat))
                async with self.lock(game_id):
                    try:
                        self.service.play_bot(loaded, bot.seat, aid)
                    except ServiceError as exc:
                        if exc.status == 409:
                            continue  # someone undid or moved meanwhile: think again
                        log.error("bot move refused in game %s: %s", game_id, exc.message)
                        return
                await self.broadcast(game_id)
        except Exception:
            log.exception("bot driver of game %s stopped", game_id)
        finally:
            self.driving.discard(game_id)

    def resume(self) -> None:
        """At start-up: let the bots of every unfinished game carry on."""
        for game_id in self.store.games_by_status("playing"):
            self.spawn(self.drive_bots(game_id))

    def close(self) -> None:
        """Stop the pool and the store."""
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        self.store.close()


def _error(status: int, message: str) -> JSONResponse:
    """A refusal as JSON."""
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> Any:
    """The request's JSON body; 400 if it is not JSON."""
    raw = await request.body()
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ServiceError(400, f"the request body is not valid JSON: {exc}") from None


def create_app(db: str = "kamon.db", *, bot_workers: int | None = None,
               bot_delay: float = 0.6) -> FastAPI:
    """The web app over the database `db` (a path or URL)."""
    workers = min(2, os.cpu_count() or 1) if bot_workers is None else bot_workers
    server = Server(db, workers, bot_delay)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        server.resume()
        yield
        for task in list(server.tasks):
            task.cancel()
        server.close()

    app = FastAPI(title="kamon", lifespan=lifespan,
                  description="Play The White Castle and I, Clansman in the browser.")
    app.state.server = server

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(game_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "play.html")

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/api/catalog")
    async def catalog() -> dict[str, Any]:
        """Games, their web options and the seat kinds."""
        return server.service.catalog()

    @app.get("/api/data/{game}")
    async def data(game: str) -> dict[str, Any]:
        """Words for every component of a game, with the data's confidence markings."""
        try:
            name = get_game(game).name
        except Exception:
            raise ServiceError(404, f"no game {game!r}") from None
        render = importlib.import_module(GAMES[name] + ".render")
        texts = getattr(render, "component_texts", None)
        return {"components": texts() if callable(texts) else {}}

    @app.post("/api/games", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        """Create a game; the answer holds one invite link per human seat."""
        body = await _body(request)
        created = server.service.create(body)
        base = str(request.base_url).rstrip("/")
        for seat in created["seats"]:
            if seat["link"]:
                seat["url"] = base + seat["link"]
        created["spectator_url"] = base + created["spectator_link"]
        server.spawn(server.drive_bots(created["id"]))
        return created

    @app.get("/api/games/{game_id}")
    async def state(game_id: str, token: str | None = None) -> dict[str, Any]:
        """The game as the token's seat sees it (a spectator without a token)."""
        loaded = server.service.load(game_id)
        seat = server.service.seat_of(loaded, token)
        return server.service.payload(loaded, seat)

    async def write(game_id: str, request: Request, undo: bool) -> dict[str, Any]:
        body = await _body(request)
        if not isinstance(body, dict):
            raise ServiceError(400, "the request body must be a JSON object")
        async with server.lock(game_id):
            if undo:
                loaded: Loaded = server.service.undo(game_id, body.get("token"),
                                                     body.get("version"))
            else:
                loaded = server.service.move(game_id, body.get("token"), body.get("action"),
                                             body.get("version"))
        await server.after_change(game_id)
        seat = server.service.seat_of(loaded, body.get("token"))
        return server.service.payload(loaded, seat)

    @app.post("/api/games/{game_id}/moves")
    async def move(game_id: str, request: Request) -> dict[str, Any]:
        """Play the token's seat's move: {token, action (notation or id), version}."""
        return await write(game_id, request, undo=False)

    @app.post("/api/games/{game_id}/undo")
    async def undo(game_id: str, request: Request) -> dict[str, Any]:
        """Take back the token's seat's last move of this turn: {token, version}."""
        return await write(game_id, request, undo=True)

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> Response:
        """The finished game's record, as `kamon replay` reads it."""
        rec = server.service.record(game_id)
        return JSONResponse(rec, headers={
            "Content-Disposition": f'attachment; filename="kamon-{game_id}.json"'})

    @app.websocket("/api/games/{game_id}/ws")
    async def socket(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        """The viewer's payload now and after every change, until the socket closes."""
        await websocket.accept()
        try:
            loaded = server.service.load(game_id)
            seat = server.service.seat_of(loaded, token)
        except ServiceError as exc:
            await websocket.send_json({"type": "error", "status": exc.status,
                                       "error": exc.message})
            await websocket.close(code=4000 + exc.status, reason=exc.message[:120])
            return
        server.hub.add(game_id, websocket, seat)
        server.hub.sent[websocket] = loaded.version
        await websocket.send_json({"type": "state",
                                   "payload": server.service.payload(loaded, seat)})

        async def poll() -> None:
            """Catch moves stored by another server process sharing the database."""
            while True:
                await asyncio.sleep(POLL_SECONDS)
                v = server.store.version(game_id)
                if v is not None and v != server.hub.sent.get(websocket):
                    await server.broadcast(game_id)

        poller = asyncio.get_running_loop().create_task(poll())
        try:
            while True:
                text = await websocket.receive_text()
                if text.strip() in ("ping", '{"type":"ping"}'):
                    await websocket.send_json({"type": "pong"})
        except WebSocketDisconnect:
            pass
        finally:
            poller.cancel()
            server.hub.remove(game_id, websocket)

    return app
