"""`kamon admin`: the operator's commands over the database the servers use (an SQLite
file or a postgresql:// URL), safe while they run: list, end and delete games, revoke a
seat's token, ban addresses, prune old games, back up and restore (docs/operating.md).
The operations are kamon.server.admin's; this module only reads the options and prints.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text
from sqlalchemy.engine import make_url

from kamon.cli.app import app, friendly_errors, make_console
from kamon.core.errors import KamonError

if TYPE_CHECKING:
    from kamon.server.store import Store

admin = typer.Typer(name="admin", no_args_is_help=True,
                    help="The operator's commands: list, end and delete games, revoke a "
                         "seat's token, ban addresses, prune, back up and restore (while "
                         "the servers run).")
app.add_typer(admin)

DbOpt = Annotated[str, typer.Option(
    envvar="KAMON_DB", help="the servers' database: an SQLite file or a URL such as "
                            "postgresql://user:pass@host/dbname (env KAMON_DB)")]


def _store(db: str) -> Store:
    """The store of `db` (KamonError, in words, if it cannot be opened)."""
    from kamon.server.store import Store

    try:
        return Store(db)
    except Exception as exc:
        raise KamonError(f"cannot open the database {_shown(db)!r}: {exc}") from None


def _shown(db: str) -> str:
    """A database as printed: a URL without its password."""
    return db if "://" not in db else make_url(db).render_as_string(hide_password=True)


def _age(seconds: float) -> str:
    """A duration in the largest unit that fits: 40 s, 12 min, 5 h, 3 d."""
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f} {unit}"
    return f"{max(seconds, 0):.0f} s"


@admin.command("games")
def games(
    db: DbOpt = "kamon.db",
    status: Annotated[str | None, typer.Option(
        help="only the live, finished, abandoned or ended games")] = None,
    bot_only: Annotated[bool, typer.Option(help="only games without a human seat")] = False,
    days: Annotated[float, typer.Option(
        help="an unfinished game unchanged for this many days is abandoned")] = 7.0,
    limit: Annotated[int, typer.Option(help="at most this many (newest change first)")] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object a line")] = False,
) -> None:
    """List the games: id, game, seats, version, status, age (since its last change)."""
    from kamon.server import admin as ops

    console = make_console()
    with friendly_errors():
        found = ops.list_games(_store(db), status, bot_only, days, limit)
        now = time.time()
        if as_json:
            for g in found:
                print(json.dumps({"id": g.id, "game": g.game, "players": g.players,
                                  "seats": g.seats, "version": g.version,
                                  "status": g.state(days, now), "mode": g.mode,
                                  "created_at": g.created_at, "updated_at": g.updated_at}))
            return
        table = Table("id", "game", "players", "seats", "version", "status", "age",
                      "created", box=None)
        for g in found:
            table.add_row(g.id, g.game, str(g.players), ",".join(g.seats), str(g.version),
                          g.state(days, now), _age(now - g.updated_at),
                          time.strftime("%Y-%m-%d %H:%M", time.gmtime(g.created_at)))
        console.print(table)
        console.print(Text(f"{len(found)} game(s)", style="dim"))


@admin.command("end")
def end(game: Annotated[str, typer.Argument(help="the game's id")], db: DbOpt = "kamon.db"
        ) -> None:
    """End an unfinished game: nobody (no bot either) moves in it again; it stays
    readable, and a move is answered 409 saying the operator ended it."""
    from kamon.server import admin as ops

    with friendly_errors():
        ops.end_game(_store(db), game)
        make_console().print(f"game {game} ended")


@admin.command("delete")
def delete(game: Annotated[str, typer.Argument(help="the game's id")],
           db: DbOpt = "kamon.db") -> None:
    """Delete a game and every row of it (moves, seats, free seats, rematch links)."""
    from kamon.server import admin as ops

    with friendly_errors():
        ops.delete_game(_store(db), game)
        make_console().print(f"game {game} deleted")


@admin.command("revoke")
def revoke(game: Annotated[str, typer.Argument(help="the game's id")],
           seat: Annotated[int, typer.Argument(help="the seat, counted from 1")],
           db: DbOpt = "kamon.db",
           base: Annotated[str | None, typer.Option(
               help="the server's address, to print the whole link, e.g. "
                    "https://games.example.org")] = None) -> None:
    """Revoke a seat's token and give it a new one: prints the seat's new invite link
    (send it to the seat's player; the old link stops working within a second)."""
    from kamon.server import admin as ops

    with friendly_errors():
        link = ops.revoke_seat(_store(db), game, seat)
        print((base.rstrip("/") if base else "") + link)


@admin.command("ban")
def ban(address: Annotated[str, typer.Argument(help="an address or a network (CIDR)")],
        db: DbOpt = "kamon.db",
        minutes: Annotated[float | None, typer.Option(
            help="for this many minutes (default: until unbanned)")] = None,
        reason: Annotated[str | None, typer.Option(help="a note for the operators")] = None
        ) -> None:
    """Refuse an address (or a network) on every server process within a second or
    two: its requests and sockets are answered 403."""
    from kamon.server import admin as ops

    with friendly_errors():
        addr = ops.ban(_store(db), address, minutes, reason)
        make_console().print(f"{addr} banned" + ("" if minutes is None
                                                 else f" for {minutes:g} minutes"))


@admin.command("unban")
def unban(address: Annotated[str, typer.Argument(help="the address or network banned")],
          db: DbOpt = "kamon.db") -> None:
    """Lift a ban."""
    from kamon.server import admin as ops

    with friendly_errors():
        addr = ops.unban(_store(db), address)
        make_console().print(f"{addr} unbanned")


@admin.command("bans")
def bans(db: DbOpt = "kamon.db") -> None:
    """List the bans in force."""
    from kamon.server import admin as ops

    console = make_console()
    with friendly_errors():
        table = Table("address", "until", "since", "reason", box=None)
        for address, until, reason, since in ops.list_bans(_store(db)):
            table.add_row(address, "unbanned" if until is None else
                          time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until)),
                          time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(since)),
                          reason or "")
        console.print(table)


@admin.command("prune")
def prune(finished_days: Annotated[float, typer.Option(
              help="delete finished and ended games unchanged for this many days")],
          abandoned_days: Annotated[float, typer.Option(
              help="delete unfinished games unchanged for this many days")],
          db: DbOpt = "kamon.db") -> None:
    """Delete old games with all their rows, clear the free seats' tokens of games no
    longer played, drop expired bans (run it daily, e.g. from cron)."""
    from kamon.server import admin as ops

    with friendly_errors():
        done = ops.prune(_store(db), finished_days, abandoned_days)
        make_console().print(", ".join(f"{v} {k.replace('_', ' ')}" for k, v in done.items())
                             + " removed")


@admin.command("backup")
def backup(file: Annotated[str, typer.Argument(help="the backup file to write (new)")],
           db: DbOpt = "kamon.db") -> None:
    """A consistent copy of the database while the servers write to it (SQLite: VACUUM
    INTO; PostgreSQL: pg_dump --format=custom)."""
    from kamon.server import admin as ops

    with friendly_errors():
        how = ops.backup(db, file)
        make_console().print(f"{_shown(db)} backed up to {file} ({how})")


@admin.command("restore")
def restore(file: Annotated[str, typer.Argument(help="a file made by kamon admin backup")],
            db: DbOpt = "kamon.db") -> None:
    """Restore a backup into a new database (one that holds no game yet); then start
    the servers on it."""
    from kamon.server import admin as ops

    with friendly_errors():
        how = ops.restore(db, file)
        make_console().print(f"{file} restored into {_shown(db)} ({how})")
