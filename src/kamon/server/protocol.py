"""What a `kamon serve` reached straight from the internet needs that uvicorn does not do:
a deadline for a request's head and for its body, a cap on the head's size, a cap on the
connections one address holds, and an answer to a WebSocket upgrade whose path is too
long (issue 35: a half-sent head was held 513 s and more, a body that never came 20 s
and more, 1,100 half-open heads from one client failed every health check, and an
upgrade with a path over 8 KB got no answer).

uvicorn has no request-receipt deadline (its keep-alive timeout covers only the time
between requests, and ASGI middleware runs only once a head is parsed), so these live in
a subclass of its httptools protocol, handed to it as its `http` class. The proxy in
front (deploy/haproxy.cfg: `timeout http-request`, per-source stick-tables) remains the
place to meet floods; this is what keeps a directly exposed process answering.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from kamon.server.limits import BODY_SECONDS, HEAD_SECONDS

log = logging.getLogger("kamon.server")

MAX_HEAD = 64 * 1024  # bytes of a request head (a browser's are under 8 KB)
MAX_URL = 8000  # bytes of a WebSocket upgrade's path and query (its handshake's line
# is at most 8 KB in the websockets library, which dropped a longer one unanswered)
PER_ADDRESS = 256  # connections one address may hold (trusted proxies: no limit)
WARN_SECONDS = 60.0  # a refusal of the same kind is logged at most this often


def _answer(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection, with the API's JSON refusal."""
    body = ('{"error": "' + message.replace('"', "'") + '"}').encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with deadlines, a head cap, a per-address connection
    cap and long upgrade paths answered (one instance per connection; the counts of
    connections per address are shared by the class made by `guarded_http`)."""

    head_seconds = HEAD_SECONDS
    body_seconds = BODY_SECONDS
    per_address = PER_ADDRESS
    trusted: tuple[Any, ...] = ()
    open_by_address: dict[str, int] = {}
    warned: dict[str, float] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """As uvicorn makes it, with no timer running yet."""
        super().__init__(*args, **kwargs)
        self.deadline: asyncio.TimerHandle | None = None
        self.head_bytes = 0
        self.in_head = False
        self.address: str | None = None

    # --- the connection's life ------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the address's connections (closing one past the cap at once) and give
        the first request's head its deadline."""
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if host is not None and not self._trusted(host):
            held = self.open_by_address.get(host, 0)
            if held >= self.per_address:
                self._warn(host, f"refused connections from {host}: it holds "
                                 f"{self.per_address} already")
                transport.write(_answer(503, "Service Unavailable",
                                        f"too many connections from {host} (at most "
                                        f"{self.per_address} at once)"))
                transport.close()
                return
            self.open_by_address[host] = held + 1
            self.address = host
        self._start_head()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the timer and give the address's place back."""
        self._stop()
        self._release()
        super().connection_lost(exc)

    def _release(self) -> None:
        """Give the address's place back (once)."""
        if self.address is not None:
            left = self.open_by_address.get(self.address, 1) - 1
            if left > 0:
                self.open_by_address[self.address] = left
            else:
                self.open_by_address.pop(self.address, None)
            self.address = None

    def _warn(self, key: str, message: str) -> None:
        """Log `message` once a minute per `key` at most (a flood is told, not echoed)."""
        now = self.loop.time()
        if now - self.warned.get(key, -WARN_SECONDS) >= WARN_SECONDS:
            self.warned[key] = now
            if len(self.warned) > 10_000:
                self.warned.clear()
            log.warning("%s", message)

    def _trusted(self, host: str) -> bool:
        """Is `host` a trusted proxy (whose connections are many clients')?"""
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    # --- deadlines ------------------------------------------------------------------

    def _start_head(self) -> None:
        """A head is on its way (or may start): it must be whole in head_seconds."""
        if not self.in_head:
            self._stop()
            self.in_head = True
            self.head_bytes = 0
            self.deadline = self.loop.call_later(self.head_seconds, self._expired, "head")

    def _stop(self) -> None:
        """No deadline runs."""
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _expired(self, part: str) -> None:
        """The head or the body did not come in time: answer 408 and close."""
        self.deadline = None
        if self.transport is None or self.transport.is_closing():
            return
        seconds = self.head_seconds if part == "head" else self.body_seconds
        host = self.client[0] if self.client else "?"
        self._warn(f"slow {host}", f"cut a slow request from {host}: its {part} did not "
                                   f"arrive within {seconds:g} s")
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(_answer(408, "Request Timeout",
                                         f"the request's {part} did not arrive within "
                                         f"{seconds:g} s"))
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        """Bytes of a head count against MAX_HEAD; bytes after a finished exchange start
        the next head's deadline."""
        if self.cycle is None or self.cycle.response_complete:
            self._start_head()
        if self.in_head:
            self.head_bytes += len(data)
            if self.head_bytes > MAX_HEAD:
                self._stop()
                self.transport.write(_answer(431, "Request Header Fields Too Large",
                                             f"the request's head is over {MAX_HEAD} "
                                             "bytes"))
                self.transport.close()
                return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        """The head is whole: the body (if any) has body_seconds from now."""
        self.in_head = False
        self._stop()
        self.deadline = self.loop.call_later(self.body_seconds, self._expired, "body")
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        """The request is whole: no deadline until the next one starts."""
        self._stop()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        """Answered (perhaps before the body was read): no deadline for this request."""
        self._stop()
        super().on_response_complete()

    def handle_websocket_upgrade(self) -> None:
        """Hand the upgrade on, unless its path is longer than the WebSocket handshake
        takes: then say so (414) rather than leave the client unanswered."""
        self._stop()
        if len(self.url) > MAX_URL:
            self.transport.write(_answer(414, "URI Too Long", f"the path is over {MAX_URL} "
                                                              "bytes"))
            self.transport.close()
            return
        self._release()  # (a game's sockets have quotas of their own: hub.py)
        super().handle_websocket_upgrade()


def guarded_http(trusted: Sequence[str] = (), head_seconds: float = HEAD_SECONDS,
                 body_seconds: float = BODY_SECONDS, per_address: int = PER_ADDRESS
                 ) -> type[GuardedHttp]:
    """The protocol class for one server: its deadlines, its per-address cap, and the
    proxies exempt from it (each connection of a proxy carries many clients)."""
    nets = tuple(ipaddress.ip_network(t, strict=False) for t in trusted)
    return type("GuardedHttp", (GuardedHttp,), {
        "head_seconds": head_seconds, "body_seconds": body_seconds,
        "per_address": per_address, "trusted": nets, "open_by_address": {}, "warned": {}})


def raise_open_files() -> tuple[int, int]:
    """Raise this process's limit of open files to the most it may have (each socket is
    one; the default soft limit, 1,024, was used up by 1,100 half-open connections): the
    (soft, hard) limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as exc:
            log.warning("could not raise the open files limit from %d: %s", soft, exc)
    return soft, hard
