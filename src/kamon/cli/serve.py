"""`kamon serve`: the web app (play in the browser, invite friends), games stored in --db.

These are the server's only flags (`python -m kamon.server` is this command too); the
server's own runner (`kamon.server.process`) holds the uvicorn settings and limits.
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Annotated

import typer
from rich.text import Text
from sqlalchemy.engine import make_url

from kamon.cli.app import (
    app,
    friendly_errors,
    make_console,
)
from kamon.core.errors import KamonError
from kamon.server.guard import MAX_BODY, RATE
from kamon.server.limits import BOT_ONLY_GAMES, BOT_TIME_LIMIT, HEAD_SECONDS
from kamon.server.process import exposed


def trusted(values: list[str]) -> list[str]:
    """The --trusted-proxy values, each an address or a network; KamonError for another.

    >>> trusted(["127.0.0.1", "10.0.0.0/8"])
    ['127.0.0.1', '10.0.0.0/8']
    """
    for value in values:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise KamonError(f"--trusted-proxy {value!r} is not an IP address or network "
                             "(e.g. 127.0.0.1 or 10.0.0.0/8)") from None
    return values


def configure_logs(log_format: str, metrics_from: list[str] | None) -> None:
    """The log lines' format (KamonError for an unknown one) and a check of the
    --metrics-from values, before anything starts."""
    from kamon.server import logs, metrics

    try:
        logs.configure(log_format)
        metrics.networks(metrics_from or [])
    except ValueError as exc:
        raise KamonError(str(exc)) from None


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on (0.0.0.0: the whole "
                                           "network)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8000,
    db: Annotated[str, typer.Option(help="an SQLite file path (one server process), or a "
                                         "URL such as postgresql://user:pass@host/dbname "
                                         "(any number of processes)")] = "kamon.db",
    bot_delay: Annotated[float, typer.Option(help="seconds a bot waits before it moves, "
                                                  "so people can follow")] = 0.6,
    bot_workers: Annotated[int | None, typer.Option(
        help="processes that run bots (default: up to 2; 0 runs them in a thread)")] = None,
    bot_time_limit: Annotated[float, typer.Option(
        help="seconds a plug-in bot (--agent) may think about one decision; past it the "
             "move is stopped, the level 'normal' plays it and the seat for the rest of "
             "the game, and a warning is logged (0: no limit)", min=0)] = BOT_TIME_LIMIT,
    max_body: Annotated[int, typer.Option(
        help="the largest request body accepted, in bytes")] = MAX_BODY,
    rate_limit: Annotated[float, typer.Option(
        help="writes per second one client address may make (0: no limit)")] = RATE,
    rate_burst: Annotated[float | None, typer.Option(
        help="writes a client may make at once (default: 3 seconds' worth)")] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        help="the address (or network) of a reverse proxy in front: its X-Forwarded-For "
             "names the client (repeat for several; none: the header is ignored)")] = None,
    request_timeout: Annotated[float, typer.Option(
        help="seconds a request's head, and then its body, may take to arrive (slow "
             "clients are answered 408 and closed)")] = HEAD_SECONDS,
    review_iterations: Annotated[int | None, typer.Option(
        help="a post-game review's search budget a decision, in reference iterations "
             "(default 4,000: about 0.6 CPU s a decision in I, Clansman)")] = None,
    bot_only_games: Annotated[int, typer.Option(
        help="games of bots only one client address may have going at once (0: refused "
             "on this server; -1: no limit); their bots think after every human's game's "
             "and on at most all but one of the bot workers")] = BOT_ONLY_GAMES,
    agent: Annotated[list[str] | None, typer.Option(
        "--agent", metavar="NAME=SPEC",
        help="a bot seat kind NAME that players may choose, played by a plug-in "
             "agent (module:Name, path/to/file.py:Name, policy.zip, model.pt; "
             "docs/agents.md), loaded now and built in the bot workers, so it must be "
             "importable or readable there (repeat for several; every server process of a "
             "database needs the same ones)")] = None,
    log_format: Annotated[str, typer.Option(
        help="the log lines: text, or json (one JSON object a line: time, level, "
             "request_id, message, and a request's method, path, status, ms, client)")
    ] = "text",
    log_requests: Annotated[bool, typer.Option(
        help="a log line per request and per socket (--no-log-requests: only warnings "
             "and errors)")] = True,
    docs: Annotated[bool, typer.Option(
        help="serve the API's documentation at /docs (Swagger UI, from the package) and "
             "/openapi.json")] = True,
    metrics_from: Annotated[list[str] | None, typer.Option(
        help="an address or network allowed to read /metrics (repeat for several; "
             "default: this machine only, 127.0.0.1 and ::1)")] = None,
) -> None:
    """Run the web app: play in the browser, invite friends by link, games stored in --db."""
    console = make_console()
    with friendly_errors():
        from kamon.server.app import create_app
        from kamon.server.process import serve as run_server
        from kamon.server.service import plugin_kinds

        proxies = trusted(trusted_proxy or [])
        configure_logs(log_format, metrics_from)
        kinds = plugin_kinds(agent or [])  # every spec loaded and checked before serving
        for kind in kinds.values():
            console.print(Text(f"bot seat kind {kind.name!r}: {kind.label} ({kind.spec}), "
                               f"plays {', '.join(kind.games)}", style="dim"))
        try:
            web = create_app(db, bot_workers=bot_workers, bot_delay=bot_delay,
                             bot_time_limit=bot_time_limit,
                             max_body=max_body, rate=rate_limit, burst=rate_burst,
                             agents=kinds, docs=docs, metrics_from=metrics_from,
                             log_requests=log_requests, bot_only_games=bot_only_games,
                             review_iterations=review_iterations)
        except Exception as exc:  # an unreachable database, a bad URL, an unwritable file
            raise KamonError(f"cannot open the database {db!r}: {exc}") from None
        shown = db if "://" not in db else make_url(db).render_as_string(hide_password=True)
        banner = f"serving on http://{host}:{port}/ (games stored in {shown})"
        if log_format == "json":  # (every line a JSON object)
            logging.getLogger("kamon.server").info(banner)
        else:
            console.print(Text.assemble(("kamon", "bold"), f" {banner}; Ctrl-C stops"))
        if exposed(host, proxies):
            console.print(Text(
                f"warning: kamon is open to the network on {host} with no proxy in front. "
                "It cuts slow requests and caps each address's connections, but for "
                "strangers on the internet put it behind the stock proxy (HAProxy or Caddy, "
                "deploy/README.md: TLS for the seat links, per-source limits) and start it "
                "with --trusted-proxy", style="bold yellow"))
        run_server(web, host, port, proxies, request_timeout)
