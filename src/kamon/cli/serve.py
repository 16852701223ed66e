"""`kamon serve`: the web app (play in the browser, invite friends), games stored in --db.

The server's own runner (`kamon.server.run`) holds the uvicorn settings and limits; this
command only reads the flags and prints where it serves.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from kamon.cli.app import (
    app,
    friendly_errors,
    make_console,
)
from kamon.core.errors import KamonError
from kamon.server.guard import MAX_BODY, RATE


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on (0.0.0.0: the whole "
                                           "network)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8000,
    db: Annotated[str, typer.Option(help="an SQLite file path, or a URL such as "
                                         "postgresql://user:pass@host/dbname")] = "kamon.db",
    bot_delay: Annotated[float, typer.Option(help="seconds a bot waits before it moves, "
                                                  "so people can follow")] = 0.6,
    bot_workers: Annotated[int | None, typer.Option(
        help="processes that run bots (default: up to 2; 0 runs them in a thread)")] = None,
    max_body: Annotated[int, typer.Option(
        help="the largest request body accepted, in bytes")] = MAX_BODY,
    rate_limit: Annotated[float, typer.Option(
        help="writes per second one client address may make (0: no limit)")] = RATE,
    rate_burst: Annotated[float | None, typer.Option(
        help="writes a client may make at once (default: 3 seconds' worth)")] = None,
    workers: Annotated[int, typer.Option(
        min=1, max=64, help="server processes: with several, each game is served by one "
                            "of them (use the machine's cores for many busy games)")] = 1,
) -> None:
    """Run the web app: play in the browser, invite friends by link, games stored in --db."""
    console = make_console()
    with friendly_errors():
        from kamon.server.run import ServeOptions, prepare
        from kamon.server.run import serve as run_server

        opts = ServeOptions(host, port, db, bot_delay, bot_workers, max_body, rate_limit,
                            rate_burst, workers)
        try:
            web = prepare(opts)
        except RuntimeError as exc:  # an unreachable database, a bad URL, an unwritable file
            raise KamonError(str(exc)) from None
        console.print(Text.assemble(("kamon", "bold"), f" serving on http://{host}:{port}/ "
                                    f"(games stored in {db}"
                                    f"{f'; {workers} server processes' if workers > 1 else ''}"
                                    "); Ctrl-C stops"))
        run_server(opts, web)
