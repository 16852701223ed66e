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
                                         (and the seat's moves and undos, sent on it):
                                         sockets.py
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

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from kamon.games import GAMES, get_game
from kamon.server.fastpath import FastPath
from kamon.server.guard import MAX_BODY, RATE, BadJSON, Guard, RateLimiter, parse_json
from kamon.server.open_games import create as create_game
from kamon.server.routes_more import add_routes
from kamon.server.runtime import Server
from kamon.server.service import GAME_ID, ServiceError

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
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
        return JSONResponse(created, status_code=201, headers={"Connection": "close"}
                            if server.elsewhere(created["id"]) else None)

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

    def page_csp(path: str) -> str | None:
        return docs_csp if path == "/docs" else None

    return Guard(FastPath(app, server, limiter), max_body=max_body, limiter=limiter,
                 page_csp=page_csp)
