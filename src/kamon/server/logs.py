"""The server's logs: one line per request (and per socket, when it ends) with a
timestamp, the level, the request's id, method, path, status and duration; as JSON lines
(`kamon serve --log-format json`, python-json-logger) or as text (docs/operating.md).

Every request gets an id, made here, which its answer carries (`X-Request-Id`) and a
context variable carries into every log record written while it is served (a failure's
traceback names the request it broke). Paths are logged without their query string: the
seat tokens are in query strings, and a token is never logged.
"""

from __future__ import annotations

import logging
import secrets
import sys
import time
from contextvars import ContextVar
from typing import Any

import orjson

from kamon.server import metrics
from kamon.server.errors import ServiceError
from kamon.server.guard import ASGIApp, Message, Receive, Scope, Send, send_error

REQUEST_ID: ContextVar[str] = ContextVar("kamon_request_id", default="-")
FORMATS = ("text", "json")
PATH_MAX = 200  # characters of a path kept in a log line
requests_log = logging.getLogger("kamon.requests")
_configured = [False]  # configure() ran: uvicorn's own loggers are re-routed at start


class RequestIdFilter(logging.Filter):
    """Give each record the id of the request being served (`-` outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Add `request_id`; keep the record."""
        record.request_id = REQUEST_ID.get()
        return True


class TextFormatter(logging.Formatter):
    """`2026-01-02T03:04:05.678Z INFO [id] message`, in UTC."""

    converter = time.gmtime  # type: ignore[assignment]

    def __init__(self) -> None:
        """The text line's layout."""
        super().__init__("%(asctime)s.%(msecs)03dZ %(levelname)s [%(request_id)s] "
                         "%(name)s: %(message)s", "%Y-%m-%dT%H:%M:%S")


def json_formatter() -> logging.Formatter:
    """JSON lines: time (ISO 8601, UTC), level, logger, request_id, message, and a request
    line's own fields (method, path, status, ms, client)."""
    from pythonjsonlogger.json import JsonFormatter

    return JsonFormatter(["levelname", "name", "request_id", "message"],
                         rename_fields={"levelname": "level", "name": "logger"},
                         timestamp="time", json_serializer=_dumps)


def _dumps(obj: Any, **_kw: Any) -> str:
    """orjson for the log lines (a request line in a few microseconds); anything it
    cannot encode as its repr."""
    return orjson.dumps(obj, default=repr).decode()


def configure(fmt: str = "text", stream: Any = None) -> None:
    """Send every log record (kamon's at INFO: one line a request; the rest at WARNING)
    to stderr as `fmt` ('text' or 'json'); uvicorn's own loggers join when the server
    starts (RequestLog)."""
    if fmt not in FORMATS:
        raise ValueError(f"--log-format {fmt!r}: use text or json")
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(json_formatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    logging.getLogger("kamon").setLevel(logging.INFO)
    _configured[0] = True


def adopt_uvicorn() -> None:
    """uvicorn's loggers write through the root handler (the same format) from now on:
    uvicorn sets up its own handlers when it starts, after configure()."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True


class RequestLog:
    """The outermost ASGI middleware: a request id per request and socket (its answer's
    `X-Request-Id`), the operator's refusal of a banned address (`watch`: admin.Watch,
    started and stopped with the app), the HTTP metrics, and one log line per request."""

    def __init__(self, app: ASGIApp, watch: Any = None, log_requests: bool = True) -> None:
        """Wrap `app`; `log_requests` False keeps the ids and metrics but logs no line."""
        self.inner = app
        self.app = getattr(app, "app", app)  # the FastAPI app inside (to look at its routes)
        self.state = getattr(app, "state", None)  # the wrapped app's (tests read it)
        self.watch = watch
        self.refuse = None if watch is None else watch.refusal
        self.log_requests = log_requests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request, socket or lifespan."""
        kind = scope["type"]
        if kind == "lifespan":
            await self.inner(scope, self._lifespan(receive), send)
            return
        rid = secrets.token_hex(8)
        REQUEST_ID.set(rid)  # (each request runs in a task of its own: its own context)
        client = str((scope.get("client") or ("-", 0))[0])
        start = time.perf_counter()
        status = 0
        closed: int | None = None
        header = (b"x-request-id", rid.encode())

        async def send_with_id(message: Message) -> None:
            nonlocal status, closed
            mtype = message["type"]
            if mtype in ("http.response.start", "websocket.accept"):
                status = message.get("status", 101)
                message["headers"] = [*message.get("headers", []), header]
            elif mtype == "websocket.close":
                closed = message.get("code", 1000)
            await send(message)

        try:
            refusal: ServiceError | None = self.refuse(client) if self.refuse else None
            if refusal is not None:
                await (send_error(send_with_id, refusal) if kind == "http" else
                       _refuse_socket(receive, send_with_id, refusal))
            else:
                await self.inner(scope, receive, send_with_id)
        except BaseException:
            status = status or 500
            raise
        finally:
            seconds = time.perf_counter() - start
            if kind == "http":
                metrics.HTTP.labels(str(status)).inc()
                metrics.HTTP_SECONDS.observe(seconds)
            if self.log_requests and requests_log.isEnabledFor(logging.INFO):
                method = scope.get("method", "WS") if kind == "http" else "WS"
                path = scope.get("path", "")[:PATH_MAX]
                extra: dict[str, Any] = {"method": method, "path": path, "status": status,
                                         "ms": round(seconds * 1000, 2), "client": client}
                if closed is not None:
                    extra["close"] = closed
                # (made and handled directly: logging's search of the stack for the
                # caller's line is a good part of a line's cost, and says nothing here)
                requests_log.handle(requests_log.makeRecord(
                    requests_log.name, logging.INFO, __file__, 0, "%s %s %s %.1f ms",
                    (method, path, status, seconds * 1000), None, extra=extra))


    def _lifespan(self, receive: Receive) -> Receive:
        """The lifespan's receive, starting the watch (and re-routing uvicorn's loggers)
        at start-up and stopping it at shutdown."""
        async def lifespan() -> Message:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if _configured[0]:
                    adopt_uvicorn()
                if self.watch is not None:
                    self.watch.start()
            elif message["type"] == "lifespan.shutdown" and self.watch is not None:
                self.watch.stop()
            return message
        return lifespan


async def _refuse_socket(receive: Receive, send: Send, refusal: ServiceError) -> None:
    """Refuse a socket as the game's socket refuses one (sockets.py): accepted, told
    why, closed with 4000 + the HTTP status."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": orjson.dumps(
        {"type": "error", "status": refusal.status, "error": refusal.message}).decode()})
    await send({"type": "websocket.close", "code": 4000 + refusal.status,
                "reason": refusal.message[:120]})
