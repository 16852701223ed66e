"""The server's Prometheus metrics (`GET /metrics`, docs/operating.md): moves stored and
their latency, live games and sockets, the bots' queue and thinking time, store errors,
HTTP answers by status, and the process's own (CPU, memory, descriptors).

Each server process is its own scrape target: its counters are its own, and Prometheus
adds them up across processes (`sum(rate(...))`); nothing here aggregates processes.
The counters are module-level (prometheus-client's default registry); what a process
holds right now (games, sockets, queues) is read at scrape time from its LiveGames.

`/metrics` answers only the addresses given by `kamon serve --metrics-from` (default:
this machine): a stranger learns nothing from it, and Prometheus scrapes each process on
its own port, not through the public proxy (which refuses /metrics as well).
"""

from __future__ import annotations

import functools
import ipaddress
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

disable_created_metrics()  # (no `_created` series: the counters' start is of no use here)
P = ParamSpec("P")
R = TypeVar("R")
LOOPBACK = ("127.0.0.0/8", "::1/128")  # who may read /metrics unless told otherwise

# Buckets in seconds: a move is stored in about a millisecond on a quiet server, a
# database at its busy timeout takes 2 s.
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
BOT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
HTTP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

MOVES = Counter("kamon_moves", "Moves and undos stored (by a player, POSTed or on a "
                "socket, or by a bot)", ["by"])
MOVE_SECONDS = Histogram("kamon_move_seconds", "Time from a move reaching the game to "
                         "its being stored and rendered for the sockets", ["by"],
                         buckets=MOVE_BUCKETS)
BOT_SECONDS = Histogram("kamon_bot_thinking_seconds", "Time from a bot decision being "
                        "handed to the bot workers to its answer (queueing included)",
                        buckets=BOT_BUCKETS)
STORE_ERRORS = Counter("kamon_store_errors", "Database errors, by kind (busy, "
                       "read_only, damaged, refused, failed)", ["kind"])
STORE_ERROR_KINDS = ("busy", "read_only", "damaged", "refused", "failed")
for _kind in STORE_ERROR_KINDS:  # (each at 0 from the start: a dashboard shows the line)
    STORE_ERRORS.labels(_kind)
HTTP = Counter("kamon_http_responses", "HTTP answers by status code", ["code"])
HTTP_SECONDS = Histogram("kamon_http_request_seconds", "Time to answer an HTTP request",
                         buckets=HTTP_BUCKETS)
BOTS_WAITING = Gauge("kamon_bot_decisions_waiting", "Bot decisions handed to the "
                     "workers and not answered yet (thinking, or queued in the pool)")


def store_error(err: Exception) -> None:
    """Count a database error (a StoreError) by its kind, read from its message."""
    text = str(err)
    if "busy" in text:
        kind = "busy"
    elif "read-only" in text:
        kind = "read_only"
    elif "damaged" in text:
        kind = "damaged"
    elif "refused the write" in text:
        kind = "refused"
    else:
        kind = "failed"
    STORE_ERRORS.labels(kind).inc()


def stored(by: str) -> Callable[[Callable[P, Awaitable[R]]], Callable[P, Awaitable[R]]]:
    """Decorate the coroutine that stores a move (LiveGames.play, .bot_move): each one
    that returns is counted as stored `by` ('player' or 'bot') and its time observed; a
    refused one (it raises) is not."""
    counter, hist = MOVES.labels(by), MOVE_SECONDS.labels(by)

    def wrap(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        @functools.wraps(fn)
        async def timed(*args: P.args, **kwargs: P.kwargs) -> R:
            start = time.perf_counter()
            result = await fn(*args, **kwargs)
            hist.observe(time.perf_counter() - start)
            counter.inc()
            return result
        return timed
    return wrap


class TimedPool(Executor):
    """The bot workers' pool, timing each decision and counting those under way (the
    bots' queue): `kamon_bot_thinking_seconds`, `kamon_bot_decisions_waiting`."""

    def __init__(self, pool: Executor) -> None:
        """Wrap `pool` (processes or a thread)."""
        self.pool = pool

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Future[R]:
        """Hand a decision to the pool; its time is observed when it is answered."""
        start = time.perf_counter()
        future = self.pool.submit(fn, *args, **kwargs)
        BOTS_WAITING.inc()

        def done(_f: Future[R]) -> None:
            BOTS_WAITING.dec()
            BOT_SECONDS.observe(time.perf_counter() - start)

        future.add_done_callback(done)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Shut the pool down."""
        self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def timed_pool(pool: Executor) -> Executor:
    """The bot pool with its decisions timed and counted (TimedPool)."""
    return TimedPool(pool)


class Live(Protocol):
    """What the gauges read of a process's live games (server.live.LiveGames; named here
    by its parts, so that metrics, which the store and the bots use, imports no layer
    above them)."""

    hub: Any
    service: Any
    writer: Any
    bots: Any


class LiveCollector(Collector):
    """What one process holds right now, read at scrape time (nothing to keep up)."""

    def __init__(self, live: Live) -> None:
        """Read `live`'s games, sockets, writer and bots."""
        self.live = live

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """The gauges, from the live state."""
        live = self.live
        yield GaugeMetricFamily("kamon_live_games", "Games with a socket open on this "
                                "process", value=len(live.hub.games))
        yield GaugeMetricFamily("kamon_sockets", "Sockets open on this process",
                                value=live.hub.count)
        yield GaugeMetricFamily("kamon_cached_games", "Games kept rebuilt in memory",
                                value=len(live.service.cache))
        yield GaugeMetricFamily("kamon_writes_waiting", "Writes queued for the writer "
                                "thread", value=live.writer.jobs.qsize())
        yield GaugeMetricFamily("kamon_bot_games", "Games whose bots this process drives",
                                value=len(live.bots.driving))
        queue = getattr(live.bots, "queue", None)  # (bot_queue.BotQueue: who thinks next)
        waiting = GaugeMetricFamily("kamon_bot_decisions_queued", "Bot decisions waiting "
                                    "for their turn at the workers, by kind of game",
                                    labels=["game"])
        for label, part in zip(("with_human", "bots_only"), getattr(queue, "waiting", ()),
                               strict=False):
            waiting.add_metric([label], sum(len(q) for q in part.values()))
        yield waiting


def networks(values: Iterable[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The --metrics-from values as networks (ValueError names a bad one).

    >>> [str(n) for n in networks(["127.0.0.1", "10.77.0.0/24"])]
    ['127.0.0.1/32', '10.77.0.0/24']
    """
    found = []
    for value in values:
        try:
            found.append(ipaddress.ip_network(value, strict=False))
        except ValueError:
            raise ValueError(f"--metrics-from {value!r} is not an IP address or network "
                             "(e.g. 127.0.0.1 or 10.0.0.0/8)") from None
    return found


def allowed(client: str, nets: Sequence[ipaddress.IPv4Network | ipaddress.IPv6Network]
            ) -> bool:
    """Is the client's address in one of the networks?"""
    try:
        address = ipaddress.ip_address(client)
    except ValueError:
        return False
    return any(address in n for n in nets)


def route(live: Live, allow: Iterable[str] | None = None
          ) -> Callable[[Request], Awaitable[Response]]:
    """The `/metrics` endpoint of one app: the process's metrics in Prometheus's text
    format to an allowed address (`allow`: networks; default this machine), 403 to any
    other, in the API's `{"error": ...}` shape."""
    from starlette.responses import Response

    from kamon.server.errors import ServiceError, http_refusal

    nets = networks(LOOPBACK if allow is None else allow)
    own = CollectorRegistry(auto_describe=True)
    own.register(LiveCollector(live))

    async def metrics(request: Request) -> Response:
        client = request.client.host if request.client else ""
        if not allowed(client, nets):
            status, headers, body = http_refusal(ServiceError(
                403, "the metrics are for the server's operator: they are served to the "
                     "addresses of kamon serve --metrics-from only"))
            return Response(body, status_code=status, media_type="application/json")
        body = generate_latest(REGISTRY) + generate_latest(own)
        return Response(body, media_type=CONTENT_TYPE_LATEST,
                        headers={"cache-control": "no-store"})

    return metrics
