"""Running one server process: uvicorn's settings that belong to the server's limits
(64 KiB WebSocket messages, no per-message compression, no access log, the guarded
protocol's deadlines and per-address cap: protocol.py) and X-Forwarded-For taken only
from trusted proxies, so the rate limit counts real clients and nobody else can claim
an address; and the garbage collector's.
"""

from __future__ import annotations

import gc
import ipaddress

from kamon.server.limits import HEAD_SECONDS

WS_MAX_SIZE = 64 * 1024
GC_THRESHOLD = 50_000  # new container objects between two passes of the collector


def tune_gc() -> None:
    """The cyclic garbage collector, set for a server: what was loaded at start-up (the
    modules, the games' data) is frozen out of its passes, and a pass comes after
    GC_THRESHOLD new container objects instead of 700. The engine makes and drops many
    objects a move (copies of a game, views, payloads), so at the default the passes
    took about a fifth of the server's CPU and their full passes held the event loop
    for tens of milliseconds at a time (measured with gc.callbacks, 50 busy games)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, 20, 10)


def exposed(host: str, trusted_proxies: list[str]) -> bool:
    """Does a server on `host` with these trusted proxies take connections straight from
    the network (not only from this machine, nor only through a proxy)?

    >>> exposed("127.0.0.1", []), exposed("0.0.0.0", []), exposed("0.0.0.0", ["10.0.0.2"])
    (False, True, False)
    """
    if trusted_proxies:
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host != "localhost"


def serve(app: object, host: str, port: int, trusted_proxies: list[str],
          request_timeout: float = HEAD_SECONDS) -> None:
    """Serve `app` until stopped (Ctrl-C or SIGTERM): uvicorn over the guarded protocol
    (protocol.py: a request's head and body each within `request_timeout`, connections
    per address capped), with the open files limit raised."""
    import uvicorn

    from kamon.server.protocol import guarded_http, raise_open_files
    tune_gc()
    raise_open_files()
    uvicorn.run(app, host=host, port=port, log_level="warning",  # type: ignore[arg-type]
                ws_max_size=WS_MAX_SIZE, ws_per_message_deflate=False, access_log=False,
                proxy_headers=bool(trusted_proxies),
                forwarded_allow_ips=",".join(trusted_proxies) or None,
                http=guarded_http(trusted_proxies, request_timeout, request_timeout))
