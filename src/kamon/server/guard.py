"""What every request passes before a route sees it: security headers, JSON-only writes,
a body size limit, a per-client rate limit on writes (limits.py), and a JSON reader that refuses
what would make a route fail. A plain ASGI middleware: a few microseconds a request.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

from kamon.server.errors import ServiceError, http_refusal
from kamon.server.limits import BURST, RATE, RateLimiter

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 256 * 1024  # bytes: a move is under 200, a new game under 1,000
MAX_DEPTH = 32  # nesting of a JSON body: a request of the API needs 3
MAX_INT = (1 << 63) - 1  # the largest number any field of the API takes
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# The pages load their scripts, styles and data from this server only; the boards set
# inline style attributes (colours, grid sizes), nothing else inline is allowed.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; "
       "style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # seat tokens are in the page URLs
]
NO_STORE = (b"cache-control", b"no-store")


class BadJSON(ValueError):
    """A request body the API refuses (the message says why)."""


def parse_json(raw: bytes) -> Any:
    """A request body as JSON; BadJSON if it is not JSON, is nested deeper than
    MAX_DEPTH, or holds a number the API cannot take."""
    try:
        data = orjson.loads(raw)  # the common case, ten times faster; anything orjson
    except orjson.JSONDecodeError:  # refuses is read again below, for the reason in words
        data = _loads(raw)
    check_shape(data)
    return data


def _loads(raw: bytes) -> Any:
    """The standard library's reading of a body, or BadJSON saying what is wrong."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise BadJSON(f"the request body is nested too deeply (at most {MAX_DEPTH} "
                      "levels)") from None
    except UnicodeDecodeError as exc:
        raise BadJSON(f"the request body is not valid JSON: {exc}") from None
    except ValueError as exc:  # JSONDecodeError, or an integer of too many digits
        if isinstance(exc, json.JSONDecodeError):
            raise BadJSON(f"the request body is not valid JSON: {exc}") from None
        raise BadJSON(f"the request body holds a number too long to read ({exc})"
                      ) from None


def check_shape(data: Any) -> None:
    """BadJSON if a parsed value nests deeper than MAX_DEPTH or holds an integer beyond
    MAX_INT or a number that is not finite (iterative: no recursion to exhaust)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise BadJSON(f"the request body is nested too deeply (at most {MAX_DEPTH} "
                              "levels)")
            items = value.values() if isinstance(value, dict) else value
            stack.extend((v, depth + 1) for v in items if isinstance(v, dict | list | int |
                                                                     float))
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int):
            if not -MAX_INT <= value <= MAX_INT:
                raise BadJSON(f"a number in the request body is out of range (at most "
                              f"{MAX_INT} either way)")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise BadJSON("a number in the request body is not finite")
            if not -MAX_INT <= value <= MAX_INT:  # (orjson reads a longer integer so)
                raise BadJSON(f"a number in the request body is out of range (at most "
                              f"{MAX_INT} either way)")


def _header(scope: Scope, name: bytes) -> bytes | None:
    """A request header's value (the first one), or None."""
    for k, v in scope.get("headers", ()):
        if k == name:
            return bytes(v)
    return None


async def send_error(send: Send, exc: ServiceError,
                     extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer with the API's refusal (errors.py builds it)."""
    status, headers, body = http_refusal(exc)
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, *(extra or [])]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The ASGI middleware: headers, JSON-only writes, body limit, write rate limit."""

    def __init__(self, app: ASGIApp, *, max_body: int = MAX_BODY,
                 limiter: RateLimiter | None = None,
                 page_csp: Callable[[str], str | None] | None = None) -> None:
        """Wrap `app`; `page_csp(path)` may give a path its own policy (the API docs)."""
        self.app = app
        self.state = getattr(app, "state", None)  # the wrapped app's (its routes' server)
        self.max_body = max_body
        self.limiter = limiter or RateLimiter()
        self.page_csp = page_csp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, add the headers to the answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        csp = (self.page_csp(path) if self.page_csp else None) or CSP
        extra = [(b"content-security-policy", csp.encode()), *HEADERS]
        if path.startswith("/api/"):
            extra.append(NO_STORE)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *(h for h in extra if h[0] not in have)]
            await send(message)

        if scope["method"] in WRITE_METHODS and path.startswith("/api/"):
            ctype = (_header(scope, b"content-type") or b"").split(b";")[0].strip().lower()
            if ctype != b"application/json":
                shown = ctype.decode("latin-1")[:60] or "none"
                await send_error(send_with_headers, ServiceError(
                    415, f"the API takes JSON: send the body with Content-Type: "
                         f"application/json (this request's: {shown})"))
                return
            client = (scope.get("client") or ("?", 0))[0]  # (a trusted proxy's client's)
            refused = await self.limiter.check(str(client))
            if refused is not None:
                await send_error(send_with_headers, ServiceError(429, refused[1],
                                                                 retry_after=refused[0]))
                return
            body = await self._read_body(scope, receive, send_with_headers)
            if body is None:
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send_with_headers)

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None after answering 413 (too large) — read no further
        than the limit."""
        too_big = ServiceError(413, f"the request body is larger than {self.max_body} "
                                    "bytes (a request of this API needs under 1,000)")
        length = _header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            await send_error(send, too_big, [(b"connection", b"close")])
            return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await send_error(send, too_big, [(b"connection", b"close")])
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the already read body, then waits as the original does."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


__all__ = ["BURST", "MAX_BODY", "RATE", "BadJSON", "Guard", "RateLimiter", "parse_json"]
