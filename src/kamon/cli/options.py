"""The game options as command-line flags, made from every registered game's option schema
(`kamon.core.options`): `@game_flags` gives a command one flag per option a player or a
designer may set in any game (`--first-game`, `--difficulty`, `--expert`,
`--emperor-side`, `--emperor-variant`, `--variant`, `--start-player`, `--data-overlay`,
and a third game's own), and `options_from_flags` turns the flags given into a game's
options. No command lists an option of its own.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from kamon.core.errors import KamonError
from kamon.core.options import DESIGNER, PLAYER, Option
from kamon.core.overlay import load_overlay_file
from kamon.core.protocol import Game
from kamon.core.registry import games

# What a game's options could not be given as flags (a name two games type differently,
# or one a command already uses): that option is left out of those commands' flags, so
# one game's declaration never stops the whole command line; the contract suite
# (tests/contract/test_slots.py) requires this list empty and names each entry.
PROBLEMS: list[str] = []


def _merged() -> dict[str, list[tuple[Game, Option]]]:
    """Each option name a player or designer may set, with every game declaring it; a
    game giving a name another game types differently is left out of that flag (one flag
    cannot serve both) and said in PROBLEMS."""
    out: dict[str, list[tuple[Game, Option]]] = {}
    for game in games().values():
        for opt in game.options.settable((PLAYER, DESIGNER)):
            same = out.setdefault(opt.name, [])
            if same and same[0][1].type != opt.type:
                _problem(f"option {opt.name}: {same[0][0].title} makes it a "
                         f"{same[0][1].type}, {game.title} a {opt.type}")
                continue
            same.append((game, opt))
    return out


def _problem(text: str) -> None:
    """Keep one problem of the flags (once)."""
    if text not in PROBLEMS:
        PROBLEMS.append(text)


def _help(declared: list[tuple[Game, Option]]) -> str:
    """A flag's help: the option's help, per game when several have it."""
    def one(opt: Option) -> str:
        """An option's help (a JSON option: a file, or its environment variable's)."""
        return opt.help + (f" (a JSON file; also: {opt.env})" if opt.env else
                           " (a JSON file)" if opt.type == "overlay" else "")
    if len(declared) == 1:
        return f"{declared[0][0].title}: {one(declared[0][1])}"
    return "; ".join(f"{g.title}: {one(o)}" for g, o in declared)


def _parameter(name: str, declared: list[tuple[Game, Option]]) -> inspect.Parameter:
    """The flag of an option as a keyword parameter Typer reads."""
    opt = declared[0][1]
    flag = typer.Option(opt.flag, help=_help(declared))
    kind: Any = {"bool": bool, "overlay": Path | None, "int": int | None,
                 "seat": int | None}.get(opt.type, str | None)
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY,
                             annotation=Annotated[kind, flag],
                             default=False if opt.type == "bool" else None)


def game_flags(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command a flag per game option; it is called with `option_flags`, the flags
    as given (name -> value, None or False when not given) in place of them."""
    signature = inspect.signature(command, eval_str=True)
    own = [p for p in signature.parameters.values() if p.name != "option_flags"]
    declared = _merged()
    for name in sorted({p.name for p in own} & set(declared)):
        games_of = ", ".join(g.title for g, _ in declared.pop(name))
        _problem(f"option {name} ({games_of}) clashes with kamon {command.__name__}'s own "
                 f"--{name.replace('_', '-')}: not a flag of that command")
    added = [_parameter(name, d) for name, d in declared.items()]

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        flags = {name: kwargs.pop(name) for name in declared}
        return command(**kwargs, option_flags=flags)

    params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own] + added
    wrapper.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper


def options_from_flags(game: Game, flags: Mapping[str, Any]) -> dict[str, Any]:
    """The game's options from the flags given (`new_game` checks the values); a
    KamonError for a flag the game does not have, or a JSON file it cannot read. A JSON
    option not given is read from its environment variable's file when that is set."""
    opts: dict[str, Any] = {}
    for name, value in flags.items():
        opt = game.options.get(name)
        if value is None or value is False:
            if opt is not None and opt.env and os.environ.get(opt.env):
                opts[name] = load_overlay_file(os.environ[opt.env], game.name)
            continue
        if opt is None or opt.who not in (PLAYER, DESIGNER):
            flag = "--" + name.replace("_", "-")
            raise KamonError(f"{game.title} has no option {flag}")
        if opt.type == "overlay":
            opts[name] = load_overlay_file(str(value), game.name)
        elif opt.type == "bool":
            opts[name] = True
        elif isinstance(value, str):
            opts[name] = game.options.value_of(name, value)
        else:
            opts[name] = value
    return opts
