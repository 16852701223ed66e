"""`kamon serve`: the web app (play in the browser, invite friends), games stored in --db."""

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
) -> None:
    """Run the web app: play in the browser, invite friends by link, games stored in --db."""
    console = make_console()
    with friendly_errors():
        import uvicorn

        from kamon.server.app import create_app

        try:
            web = create_app(db, bot_workers=bot_workers, bot_delay=bot_delay)
        except Exception as exc:  # an unreachable database, a bad URL, an unwritable file
            raise KamonError(f"cannot open the database {db!r}: {exc}") from None
        console.print(Text.assemble(("kamon", "bold"), f" serving on http://{host}:{port}/ "
                                    f"(games stored in {db}); Ctrl-C stops"))
        uvicorn.run(web, host=host, port=port, log_level="warning")
