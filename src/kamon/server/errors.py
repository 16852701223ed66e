"""Refusals: the one exception a request is refused with, and the one builder of what a
client is told (an HTTP answer's JSON body and headers, or a socket's `refused` message).

Every refusal is `{"error": "<what was wrong>"}` with its HTTP status, and with
`retry_after` (and the Retry-After header) when waiting may help.
"""

from __future__ import annotations

import re
from typing import Any

import orjson


class ServiceError(Exception):
    """A refused request: the HTTP status to answer with and the reason in words (and,
    for a busy database, the seconds after which to retry)."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        """Status code, message and retry hint. A message that quotes the request may
        hold lone surrogates (JSON's "\\ud800" is a valid string but no UTF-8): they are
        shown as U+FFFD, so that the refusal can always be encoded."""
        message = printable(message)
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str) -> str:
    """`text` with any lone surrogate replaced by U+FFFD (what UTF-8 can carry).

    >>> printable("draft \\ud800") == "draft \\ufffd"
    True
    """
    return _SURROGATE.sub("\ufffd", text)


def failure(exc: BaseException) -> ServiceError:
    """What a client is told of an error nobody expected (its details go to the log)."""
    return ServiceError(500, f"the server failed on this request ({type(exc).__name__}); "
                             "the error is in its log")


def refusal_body(exc: ServiceError, **extra: Any) -> dict[str, Any]:
    """The JSON object that tells a client why it was refused (`extra` first: a socket's
    message type and version).

    >>> refusal_body(ServiceError(503, "busy", retry_after=1))
    {'error': 'busy', 'retry_after': 1}
    """
    body: dict[str, Any] = {**extra, "error": exc.message}
    if exc.retry_after is not None:
        body["retry_after"] = exc.retry_after
    return body


def http_refusal(exc: ServiceError) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """An HTTP refusal: its status, headers and body."""
    body = orjson.dumps(refusal_body(exc))
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if exc.retry_after is not None:
        headers.append((b"retry-after", str(exc.retry_after).encode()))
    return exc.status, headers, body


def socket_refusal(exc: ServiceError, version: Any = None) -> str:
    """A socket write's refusal: `{"type": "refused", "status", "error", "version"}`."""
    return orjson.dumps(refusal_body(exc, type="refused", status=exc.status,
                                     version=version)).decode()
