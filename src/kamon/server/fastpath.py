"""The requests of every move — read a game, move, undo, and the game's WebSocket —
answered without the web framework's routing and parameter parsing (a few microseconds
instead of a hundred), by the same Server methods the documented FastAPI routes call
(the socket: sockets.py). Everything else passes on."""

from __future__ import annotations

import logging
import re
import time
from typing import Any
from urllib.parse import parse_qs

import orjson

from kamon.server.guard import ASGIApp, BadJSON, RateLimiter, Receive, Scope, Send, parse_json
from kamon.server.runtime import Server
from kamon.server.service import ServiceError
from kamon.server.sockets import serve_socket

HOT = re.compile(r"/api/games/([A-Za-z0-9_-]{1,32})(/moves|/undo)?")
SOCKET = re.compile(r"/api/games/([^/]*)/ws")
log = logging.getLogger("kamon.server")


class FastPath:
    """An ASGI layer in front of the app: GET /api/games/{id}, POST .../moves and
    POST .../undo are answered here."""

    def __init__(self, app: ASGIApp, server: Server, limiter: RateLimiter) -> None:
        """Answer for `server` (socket writes limited by `limiter`, as POSTs are), pass
        the rest to `app`."""
        self.app = app
        self.server = server
        self.limiter = limiter
        self.state = getattr(app, "state", None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a hot request, or pass it on."""
        kind = scope["type"]
        if kind == "http":
            m = HOT.fullmatch(scope["path"])
            if m is not None and scope["method"] == ("POST" if m.group(2) else "GET"):
                await self._answer(m.group(1), m.group(2), scope, receive, send)
                return
        elif kind == "websocket":
            m = SOCKET.fullmatch(scope["path"])
            if m is not None:
                await serve_socket(self.server, self.limiter, m.group(1), _token(scope),
                                   scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _answer(self, game_id: str, what: str | None, scope: Scope, receive: Receive,
                      send: Send) -> None:
        """Run the request; a refusal is the API's JSON error. The answer says how long
        the server took (`Server-Timing`, milliseconds), apart from the network's time."""
        started = time.perf_counter()
        status = 200
        headers = [(b"content-type", b"application/json")]
        try:
            if what is None:
                body = await self.server.view(game_id, _token(scope))
            else:
                data = await _read(receive)
                try:
                    request = parse_json(data)
                except BadJSON as exc:
                    raise ServiceError(400, str(exc)) from None
                if not isinstance(request, dict):
                    raise ServiceError(400, "the request body must be a JSON object")
                body = await self.server.play(game_id, request, undo=what == "/undo")
        except ServiceError as exc:
            status = exc.status
            error: dict[str, Any] = {"error": exc.message}
            if exc.retry_after is not None:
                error["retry_after"] = exc.retry_after
                headers.append((b"retry-after", str(exc.retry_after).encode()))
            body = orjson.dumps(error)
        except Exception as exc:
            log.exception("unexpected error on %s %s", scope["method"], scope["path"])
            status = 500
            body = orjson.dumps({"error": f"the server failed on this request "
                                          f"({type(exc).__name__}); the error is in its log"})
        headers.append((b"content-length", str(len(body)).encode()))
        if self.server.elsewhere(game_id):
            headers.append((b"connection", b"close"))
        took = 1000 * (time.perf_counter() - started)
        headers.append((b"server-timing", f"app;dur={took:.2f}".encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


async def _read(receive: Receive) -> bytes:
    """The request body (already limited in size by the Guard)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _token(scope: Scope) -> str | None:
    """The request's `token` query parameter (the first one), or None."""
    query = scope.get("query_string", b"")
    if not query:
        return None
    return parse_qs(query.decode("latin-1")).get("token", [None])[0]
