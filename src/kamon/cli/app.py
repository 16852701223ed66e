"""The `kamon` Typer app, its entry point, the backend flags several commands share and the
error handling: a mistake a person can fix prints one red line and exits with code 2.
(The game options' flags are made from the games' option schemas: `kamon.cli.options`.)"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from kamon.core.errors import KamonError

app = typer.Typer(
    name="kamon",
    help="Play, simulate and study tabletop games: The White Castle, I, Clansman and more.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


# Where simulate and tournament run their games.
BackendOpt = Annotated[str, typer.Option(
    help="where games run: local (--jobs processes) or ray (a Ray cluster, or a local Ray "
         "with --jobs CPUs)")]
RayAddressOpt = Annotated[str | None, typer.Option(
    help="with --backend ray: the cluster to use, e.g. ray://head:10001 or head:6379 "
         "(default: start a private local Ray)")]
JobsOpt = Annotated[int | None, typer.Option(
    help="worker processes (local; default 1), or CPUs of a local Ray (default: every core)")]


def make_console() -> Console:
    """A console on the current stdout (created per command so test runners capture it)."""
    return Console(highlight=False)


def fail(message: str) -> NoReturn:
    """Print a one-line red error on stderr and exit with code 2."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        Text.assemble(("error: ", "bold red"), (message, "red")))
    raise typer.Exit(2)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Turn the errors a user can fix into a red line and exit code 2 (no traceback)."""
    try:
        yield
    except KamonError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{exc.filename or 'file'}: {exc.strerror or exc}")


def main() -> None:
    """Entry point of the `kamon` script."""
    app()
