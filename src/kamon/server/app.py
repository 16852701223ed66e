"""The kamon web app: REST routes, a WebSocket per game, bots in worker processes.

Routes (JSON; every refusal is `{"error": "<what was wrong>"}` with its status):
  GET  /api/catalog                      games, options and seat kinds to create with
  GET  /api/data/{game}                  component texts for the client's explanations
  POST /api/games                        create: {game, players, seats, options, rated?,
                                         seed? (practice games only)}
  GET  /api/games/{id}?token=T           the viewer's payload (no token: a spectator)
  POST /api/games/{id}/moves             {token, action, version}
  POST /api/games/{id}/undo              {token, version}
  GET  /api/games/{id}/record            the finished game's record
  WS   /api/games/{id}/ws?token=T        the viewer's payload after every change
                                         (and the seat's moves and undos, sent on it)
  ...  replays, open games and rematches: routes_more.py (and "public" on create)
and the browser client: `/` (lobby), `/play/{id}` (a game), `/static/...`, `/docs`.

Every answer carries a strict Content-Security-Policy, X-Frame-Options,
X-Content-Type-Options and `Referrer-Policy: no-referrer`; writes must be JSON, at most
`max_body` bytes, and at most `rate` a second per client (guard.py). The event loop never
waits for the database or the engine (runtime.py). A busy or failing database is a 503
(with Retry-After when a retry may help), a damaged stored game a 500, each naming the
game and the problem, while every other game goes on being served.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import importlib
import logging
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, Request, WebSocket
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from kamon.games import GAMES, get_game
from kamon.server.fastpath import FastPath
from kamon.server.guard import MAX_BODY, RATE, BadJSON, Guard, RateLimiter, parse_json
from kamon.server.open_games import create as create_game
from kamon.server.routes_more import add_routes
from kamon.server.runtime import Server
from kamon.server.service import ServiceError, is_int

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
WS_MESSAGES_PER_SECOND = 20  # a socket sending more is closed (it only needs pings)
log = logging.getLogger("kamon.server")


def _error(status: int, message: str, retry_after: int | None = None) -> JSONResponse:
    """A refusal as JSON (with Retry-After when waiting may help)."""
    body: dict[str, Any] = {"error": message}
    headers = {}
    if retry_after is not None:
        body["retry_after"] = retry_after
        headers["Retry-After"] = str(retry_after)
    return JSONResponse(body, status_code=status, headers=headers)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object; 400 if it is not one."""
    try:
        data = parse_json(await request.body())
    except BadJSON as exc:
        raise ServiceError(400, str(exc)) from None
    if not isinstance(data, dict):
        raise ServiceError(400, "the request body must be a JSON object")
    return data


def _game_id(game_id: str) -> str:
    """A well-formed game id, or 404."""
    if not GAME_ID.fullmatch(game_id):
        raise ServiceError(404, f"no game {game_id[:40]!r}")
    return game_id


def _json(data: bytes) -> Response:
    """Already serialised JSON as the answer."""
    return Response(data, media_type="application/json")


@functools.lru_cache(maxsize=8)
def _component_texts(name: str) -> bytes:
    """A game's component texts as JSON (they never change while the server runs)."""
    import json
    render = importlib.import_module(GAMES[name] + ".render")
    texts = getattr(render, "component_texts", None)
    return json.dumps({"components": texts() if callable(texts) else {}}).encode()


def _socket_write(text: str) -> dict[str, Any] | None:
    """A move or undo sent on a socket (its JSON object), or None for anything else; a
    write that is not valid JSON is still a write (so it is refused with a reason)."""
    if '"move"' not in text and '"undo"' not in text:
        return None
    try:
        data = parse_json(text.encode())
    except BadJSON as exc:
        return {"type": "move", "bad": str(exc)}
    if isinstance(data, dict) and data.get("type") in ("move", "undo"):
        return data
    return None


async def _play_from_socket(server: Server, limiter: RateLimiter, game_id: str,
                            token: str | None, client: str, write: dict[str, Any]
                            ) -> str | None:
    """Play a socket's move or undo as the POST would (the same checks, the same rate
    limit); None once stored (the state message answers it), else the refusal."""
    version = write.get("version")
    try:
        if "bad" in write:
            raise ServiceError(400, write["bad"])
        refused = limiter.refusal(client)
        if refused is not None:
            raise ServiceError(429, refused[1], retry_after=refused[0])
        body = {"token": token, "action": write.get("action"), "version": version}
        await server.play(game_id, body, undo=write["type"] == "undo", reply=False)
        return None
    except ServiceError as exc:
        refusal: dict[str, Any] = {"type": "refused", "status": exc.status,
                                   "error": exc.message,
                                   "version": version if is_int(version) else None}
        if exc.retry_after is not None:
            refusal["retry_after"] = exc.retry_after
        return orjson.dumps(refusal).decode()
    except Exception as exc:
        log.exception("unexpected error on a socket write to game %s", game_id)
        return orjson.dumps({"type": "refused", "status": 500, "error": (
            f"the server failed on this write ({type(exc).__name__}); the error is in "
            "its log"), "version": None}).decode()


def _docs_page(openapi_url: str) -> tuple[str, str]:
    """The API docs page and the policy that lets exactly its own inline script run
    (its script and styles come from the Swagger UI distribution's CDN)."""
    html = get_swagger_ui_html(openapi_url=openapi_url, title="kamon API").body
    page = bytes(html).decode()
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in re.findall(r"<script>(.*?)</script>", page, re.S))
    cdn = "https://cdn.jsdelivr.net"
    csp = (f"default-src 'self'; script-src 'self' {cdn} {hashes}; style-src 'self' {cdn}; "
           "img-src 'self' data: https://fastapi.tiangolo.com; connect-src 'self'; "
           "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
    return page, csp


def create_app(db: str = "kamon.db", *, bot_workers: int | None = None,
               bot_delay: float = 0.6, max_body: int = MAX_BODY, rate: float = RATE,
               burst: float | None = None) -> Guard:
    """The web app over the database `db` (a path or URL): an ASGI app whose
    `.state.server` is the running Server. `rate` writes per second per client (0: no
    limit), after bursts of `burst` (default three seconds' worth)."""
    workers = min(2, os.cpu_count() or 1) if bot_workers is None else bot_workers
    server = Server(db, workers, bot_delay)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await server.resume()
        server.spawn(server.poll())
        yield
        for task in list(server.tasks):
            task.cancel()
        server.close()

    app = FastAPI(title="kamon", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Play The White Castle and I, Clansman in the browser.")
    app.state.server = server
    limiter = RateLimiter(rate, burst if burst is not None else max(3 * rate, 10))
    docs_html, docs_csp = _docs_page(app.openapi_url or "/openapi.json")

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return _error(exc.status, exc.message, exc.retry_after)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return _error(500, f"the server failed on this request ({type(exc).__name__}); "
                           "the error is in its log")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(game_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "play.html")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(docs_html, headers={"Content-Security-Policy": docs_csp})

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    add_routes(app, server, WEB_DIR, _body, _game_id)

    catalog_json: list[bytes] = []

    @app.get("/api/catalog")
    async def catalog() -> Response:
        """Games, their web options, the seat kinds and the seed policy."""
        if not catalog_json:
            import json
            catalog_json.append(json.dumps(server.service.catalog()).encode())
        return _json(catalog_json[0])

    @app.get("/api/data/{game}")
    async def data(game: str) -> Response:
        """Words for every component of a game, with the data's confidence markings."""
        try:
            name = get_game(game).name
        except Exception:
            raise ServiceError(404, f"no game {game[:40]!r}") from None
        return _json(await server.read(_component_texts, name))

    @app.post("/api/games", status_code=201)
    async def create(request: Request) -> JSONResponse:
        """Create a game; the answer holds one invite link per human seat."""
        body = await _body(request)
        created = await server.write(create_game, server.service, body)
        base = str(request.base_url).rstrip("/")
        for seat in created["seats"]:
            if seat["link"]:
                seat["url"] = base + seat["link"]
        created["spectator_url"] = base + created["spectator_link"]
        if any(s["kind"] == "bot" for s in created["seats"]):
            server.spawn(server.drive_bots(created["id"]))
        return JSONResponse(created, status_code=201)

    # These three are answered by FastPath before they reach FastAPI (they are every
    # move's requests); their definitions here document them and answer the same.
    @app.get("/api/games/{game_id}")
    async def state(game_id: str, token: str | None = None) -> Response:
        """The game as the token's seat sees it (a spectator without a token)."""
        return _json(await server.view(_game_id(game_id), token))

    @app.post("/api/games/{game_id}/moves")
    async def move(game_id: str, request: Request) -> Response:
        """Play the token's seat's move: {token, action (notation or id), version}. A
        retry of a move already stored is answered as the first time, and stores nothing."""
        return _json(await server.play(_game_id(game_id), await _body(request), undo=False))

    @app.post("/api/games/{game_id}/undo")
    async def undo(game_id: str, request: Request) -> Response:
        """Take back the token's seat's last move of this turn: {token, version}."""
        return _json(await server.play(_game_id(game_id), await _body(request), undo=True))

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> Response:
        """The finished game's record, as `kamon replay` reads it."""
        gid = _game_id(game_id)
        rec = await server.read(server.service.record, gid)
        return JSONResponse(rec, headers={
            "Content-Disposition": f'attachment; filename="kamon-{gid}.json"'})

    @app.websocket("/api/games/{game_id}/ws")
    async def socket(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        """The viewer's payload now and after every change, until the socket closes.
        Text frames only: `ping` is answered `pong`, and the seat's moves and undos may be
        sent here instead of POSTed, as `{"type": "move", "action": A, "version": V}` or
        `{"type": "undo", "version": V}` (the token is the socket's). A write that is
        stored is answered by the socket's next state message; a refusal by
        `{"type": "refused", "status", "error", "version"}`, and nothing is stored. A
        binary frame is refused with a close frame (1003), a flood of other messages too
        (1008)."""
        await websocket.accept()
        try:
            loaded, seat, first = await server.read(server.do_open, _game_id(game_id), token)
        except ServiceError as exc:
            await websocket.send_json({"type": "error", "status": exc.status,
                                       "error": exc.message})
            await websocket.close(code=4000 + exc.status, reason=exc.message[:120])
            return
        conn = server.hub.add(game_id, websocket, seat)
        if conn is None:
            await websocket.send_json({"type": "error", "status": 503,
                                       "error": "too many sockets are open on this game"})
            await websocket.close(code=1013, reason="too many sockets: try again later")
            return
        try:
            conn.push(loaded.version, first)
            latest = server.service.cache.get(game_id)
            if latest is not None and latest.version > loaded.version:
                await server.publish(latest, {})
            window, count = 0.0, 0
            loop = asyncio.get_running_loop()
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if message.get("text") is None:
                    await websocket.close(code=1003, reason="binary frames are not "
                                                            "accepted: send text")
                    break
                text = message["text"]
                write = _socket_write(text)
                if write is not None:  # bounded like a POST: by the write rate limit
                    client = str((websocket.scope.get("client") or ("?", 0))[0])
                    refusal = await _play_from_socket(server, limiter, game_id, token,
                                                      client, write)
                    if refusal is not None:
                        conn.push_other(refusal)
                    continue
                now = loop.time()
                if now - window > 1.0:
                    window, count = now, 0
                count += 1
                if count > WS_MESSAGES_PER_SECOND:
                    await websocket.close(code=1008, reason="too many messages")
                    break
                if text.strip() in ("ping", '{"type":"ping"}'):
                    conn.push_other('{"type":"pong"}')
        except Exception:  # the client went away mid-send
            pass
        finally:
            server.hub.remove(game_id, websocket)

    def page_csp(path: str) -> str | None:
        return docs_csp if path == "/docs" else None

    return Guard(FastPath(app, server), max_body=max_body, limiter=limiter,
                 page_csp=page_csp)
