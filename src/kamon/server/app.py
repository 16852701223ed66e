"""The kamon web app: every route, defined once, over the live games of this process (the
route table and the API: docs/server.md, and /docs when the server runs). Every answer
passes the guard (guard.py); every refusal is `{"error": ...}` with its status."""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import json
import logging
import os
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import FastAPI, Request, WebSocket
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from kamon.games import games, get_game
from kamon.server import admin, logs, metrics, open_games, rematch, replays
from kamon.server.errors import ServiceError, failure, http_refusal
from kamon.server.guard import MAX_BODY, RATE, BadJSON, Guard, parse_json
from kamon.server.limits import BOT_ONLY_GAMES, BOT_TIME_LIMIT, RateLimiter, SharedRateLimiter
from kamon.server.live import LiveGames
from kamon.server.service import GAME_ID, PluginKind
from kamon.server.sockets import GameSocket
from kamon.server.views import encode

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("kamon.server")


class JSONBytes(Response):
    """An answer whose JSON is already serialised (or is serialised here, fast)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        """The body: bytes as they are, anything else as JSON."""
        return content if isinstance(content, bytes) else encode(content)


def refused(exc: ServiceError) -> Response:
    """A refusal as an HTTP answer (errors.py builds it)."""
    status, headers, body = http_refusal(exc)
    return Response(body, status_code=status, headers={
        k.decode(): v.decode() for k, v in headers if k != b"content-length"})


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


def _page(path: Path) -> Any:
    """A route that answers with one of the client's pages."""
    async def page() -> FileResponse:
        return FileResponse(path)
    return page


def _links(request: Request, answer: dict[str, Any], *places: dict[str, Any]) -> None:
    """Give each place's `link` its full URL as this request reached the server."""
    base = str(request.base_url).rstrip("/")
    for place in (answer, *places):
        if place.get("link"):
            place["url"] = base + place["link"]


@functools.lru_cache(maxsize=8)
def _component_texts(name: str) -> bytes:
    """A game's component texts as JSON (they never change while the server runs)."""
    texts = get_game(name).component_texts
    return json.dumps({"components": texts() if texts is not None else {}}).encode()


DOCS_ASSETS = "/docs/assets"  # Swagger UI's script, styles and icon (from the package)
SWAGGER_DIR = Path(fastapi_offline.__file__).resolve().parent / "static"


def _docs_page(openapi_url: str) -> tuple[str, str]:
    """The API docs page and the policy that lets exactly its own inline script run. Its
    script and styles are Swagger UI's, served from the fastapi-offline package under
    DOCS_ASSETS: no other origin's script runs where the pages keep seat tokens."""
    page = bytes(get_swagger_ui_html(
        openapi_url=openapi_url, title="kamon API",
        swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
        swagger_favicon_url=f"{DOCS_ASSETS}/favicon.png").body).decode()
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in re.findall(r"<script>(.*?)</script>", page, re.S))
    csp = (f"default-src 'self'; script-src 'self' {hashes}; style-src 'self'; "
           "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
           "form-action 'self'; frame-ancestors 'none'")
    return page, csp


def create_app(db: str = "kamon.db", *, bot_workers: int | None = None,
               bot_delay: float = 0.6, max_body: int = MAX_BODY, rate: float = RATE,
               burst: float | None = None,
               agents: Mapping[str, PluginKind] | None = None, docs: bool = True,
               metrics_from: Sequence[str] | None = None,
               log_requests: bool = True,
               bot_only_games: int = BOT_ONLY_GAMES,
               review_iterations: int | None = None,
               bot_time_limit: float = BOT_TIME_LIMIT) -> logs.RequestLog:
    """The web app over the database `db` (a path or URL): an ASGI app whose
    `.state.live` holds the live games. `rate` writes per second per client (0: no
    limit), after bursts of `burst` (default three seconds' worth). `agents`: plug-in
    seat kinds (`kamon serve --agent`, `service.plugin_kinds`). `docs`: serve /docs and
    /openapi.json; `metrics_from`: the networks /metrics answers (default this machine);
    `log_requests`: a log line per request (logs.py). The operator's bans and changes
    hold from the outermost layer in (admin.Watch). `bot_only_games`: the unfinished
    games of bots only one client may have (0: none; -1: no limit);
    `review_iterations`: a post-game review's search budget a decision (default
    kamon.learn.review's); `bot_time_limit`: a plug-in bot's seconds a decision
    (bots.py; 0: none)."""
    workers = min(2, os.cpu_count() or 1) if bot_workers is None else bot_workers
    live = LiveGames(db, workers, bot_delay, bot_time_limit=bot_time_limit, **(
        {} if review_iterations is None else {"review_iterations": review_iterations}))
    live.service.add_agents(agents or {})
    live.service.bot_only_games = bot_only_games

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await live.start()
        yield
        live.close()

    app = FastAPI(title="kamon", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url="/openapi.json" if docs else None,
                  description="Play " + " · ".join(g.title for g in games().values())
                  + " in the browser.")
    app.state.live = live
    burst = burst if burst is not None else max(3 * rate, 10)
    # One process on SQLite counts alone; processes sharing PostgreSQL count together.
    limiter = RateLimiter(rate, burst) if live.store.dialect != "postgresql" else \
        SharedRateLimiter(live.store, live.read, rate, burst)
    docs_html, docs_csp = _docs_page(app.openapi_url or "/openapi.json")
    catalog = json.dumps(live.service.catalog()).encode()

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> Response:
        return refused(exc)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """Starlette's own refusals (no such route, a method the route does not take) in
        the API's shape, saying what was asked."""
        if exc.status_code == 404:
            if not request.url.path.startswith("/api/") and \
                    "text/html" in request.headers.get("accept", ""):
                return FileResponse(WEB_DIR / "404.html", status_code=404)  # a browser's
            message = f"no such page or API route: {request.url.path[:200]}"
        elif exc.status_code == 405:
            message = f"{request.method} is not a method {request.url.path[:200]} takes"
        else:
            message = str(exc.detail)
        refusal = refused(ServiceError(exc.status_code, message))
        for k, v in (exc.headers or {}).items():
            refusal.headers[k] = v
        return refusal

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return refused(failure(exc))

    for path, page in (("/", "index.html"), ("/play/{game_id}", "play.html"),
                       ("/replay", "replay.html"), ("/replay/{game_id}", "replay.html")):
        app.add_api_route(path, _page(WEB_DIR / page), include_in_schema=False)

    if docs:
        @app.get("/docs", include_in_schema=False)
        async def docs_page() -> HTMLResponse:
            return HTMLResponse(docs_html, headers={"Content-Security-Policy": docs_csp})

        app.mount(DOCS_ASSETS, StaticFiles(directory=SWAGGER_DIR), name="docs-assets")
    app.add_route("/metrics", metrics.route(live, metrics_from), include_in_schema=False)

    for game in games().values():  # each game's own browser files (its `web` folder)
        if game.web is not None:
            app.mount(f"/static/games/{game.name}", StaticFiles(directory=game.web),
                      name=f"game-{game.name}")
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    sockets = GameSocket(live, limiter)

    @app.websocket("/api/games/{game_id}/ws")
    async def socket(ws: WebSocket, game_id: str, token: str | None = None) -> None:
        """The viewer's payload after every change, and the seat's moves (sockets.py)."""
        await sockets.serve(ws, game_id, token)

    @app.get("/api/catalog", response_class=JSONBytes)
    async def catalog_() -> JSONBytes:
        """Games, their web options, the seat kinds and the seed policy."""
        return JSONBytes(catalog)

    @app.api_route("/api/health", methods=["GET", "HEAD"], response_class=JSONBytes)
    async def health() -> JSONBytes:
        """This process serves (a proxy checks it before sending players here), and which
        process it is (its id: which one a proxy chose)."""
        return JSONBytes({"ok": True, "store": live.store.dialect, "process": os.getpid()})

    @app.get("/api/data/{game}", response_class=JSONBytes)
    async def data(game: str) -> JSONBytes:
        """Words for every component of a game, with the data's confidence markings."""
        try:
            name = get_game(game).name
        except Exception:
            raise ServiceError(404, f"no game {game[:40]!r}") from None
        return JSONBytes(await live.read(_component_texts, name))

    @app.post("/api/games", status_code=201, response_class=JSONBytes)
    async def create(request: Request) -> JSONBytes:
        """Create a game (with "public": true, its other human seats listed for anyone
        to take); the answer holds one invite link per human seat it gives out."""
        client = request.client.host if request.client else None
        made = await live.create(await _body(request), client)
        _links(request, {}, *made["seats"])
        made["spectator_url"] = str(request.base_url).rstrip("/") + made["spectator_link"]
        return JSONBytes(made, status_code=201)

    @app.get("/api/games/{game_id}", response_class=JSONBytes)
    async def state(game_id: str, token: str | None = None) -> JSONBytes:
        """The game as the token's seat sees it (a spectator without a token)."""
        return JSONBytes(await live.view(_game_id(game_id), token))

    @app.post("/api/games/{game_id}/moves", response_class=JSONBytes)
    async def move(game_id: str, request: Request) -> JSONBytes:
        """Play the token's seat's move: {token, action (notation or id), version}. A
        retry of a move already stored is answered as the first time, and stores nothing."""
        return JSONBytes(await live.play(_game_id(game_id), await _body(request),
                                         undo=False))

    @app.post("/api/games/{game_id}/undo", response_class=JSONBytes)
    async def undo(game_id: str, request: Request) -> JSONBytes:
        """Take back the token's seat's last move of this turn: {token, version}."""
        return JSONBytes(await live.play(_game_id(game_id), await _body(request),
                                         undo=True))

    @app.get("/api/games/{game_id}/record", response_class=JSONBytes)
    async def record(game_id: str) -> JSONBytes:
        """The finished game's record, as `kamon replay` reads it."""
        gid = _game_id(game_id)
        return JSONBytes(await live.read(live.service.record, gid), headers={
            "Content-Disposition": f'attachment; filename="kamon-{gid}.json"'})

    @app.get("/api/games/{game_id}/replay", response_class=JSONBytes)
    async def game_replay(game_id: str, step: str | None = None) -> JSONBytes:
        """A finished game at one step: the spectator's payload, the log lines that step
        added, every move with its words, and where each round starts."""
        return JSONBytes(await live.read(replays.game_replay, live.service,
                                         _game_id(game_id), step))

    @app.post("/api/replays", response_class=JSONBytes)
    async def record_replay(request: Request) -> JSONBytes:
        """A game record file's position at one step, as for a finished game; a corrupt
        record is refused (400) with what is wrong."""
        return JSONBytes(await live.read(replays.upload_replay, await _body(request)))

    @app.get("/api/open", response_class=JSONBytes)
    async def open_list() -> JSONBytes:
        """The public games waiting for players, newest first."""
        return JSONBytes(await live.read(open_games.list_open, live.service))

    @app.post("/api/open/{game_id}/join", response_class=JSONBytes)
    async def open_join(game_id: str, request: Request) -> JSONBytes:
        """Take a free seat of a public game: its token and invite link."""
        joined = await live.join(_game_id(game_id), await _body(request))
        _links(request, joined)
        return JSONBytes(joined)

    @app.post("/api/games/{game_id}/name", response_class=JSONBytes)
    async def name_seat(game_id: str, request: Request) -> JSONBytes:
        """The token's seat takes a player's name, {token, name}, if it has none yet (a
        seat's name is set once): the seat's payload, and every socket of the game told."""
        return JSONBytes(await live.name(_game_id(game_id), await _body(request)))

    @app.post("/api/games/{game_id}/rematch", response_class=JSONBytes)
    async def make_rematch(game_id: str, request: Request) -> JSONBytes:
        """The finished game's rematch (made now, or the one already made): every
        socket of the finished game is told (`{"type": "rematch", "id": ...}`)."""
        made, new = await live.rematch(_game_id(game_id), await _body(request))
        _links(request, made)
        return JSONBytes(made, status_code=201 if new else 200)

    @app.get("/api/games/{game_id}/rematch", response_class=JSONBytes)
    async def which_rematch(game_id: str) -> JSONBytes:
        """The finished game's rematch, if one was made (null if not)."""
        return JSONBytes({"rematch": await live.read(rematch.made, live.service,
                                                     _game_id(game_id))})

    @app.post("/api/games/{game_id}/review", response_class=JSONBytes)
    async def ask_review(game_id: str, request: Request) -> JSONBytes:
        """The review of the token's seat's decisions in the finished game, {token}:
        started now (in the background, after the bots of games being played), or where
        it stands, or the review itself once done (reviews.py)."""
        gid, data = _game_id(game_id), await _body(request)
        client = request.client.host if request.client else "?"
        return JSONBytes(await live.reviews.request(gid, data.get("token"), client))

    @app.get("/api/games/{game_id}/review", response_class=JSONBytes)
    async def review_status(game_id: str, token: str | None = None) -> JSONBytes:
        """Where the token's seat's review stands, and the review once done."""
        return JSONBytes(await live.reviews.status(_game_id(game_id), token))

    guarded = Guard(app, max_body=max_body, limiter=limiter,
                    page_csp=lambda path: docs_csp if path == "/docs" else None)
    return logs.RequestLog(guarded, admin.Watch(live.store, live.service.cache.drop),
                           log_requests)
