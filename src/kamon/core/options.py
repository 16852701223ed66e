"""A game's options declared once, as data: what each is, its type, the values it allows
(each with the words a person reads), its default, the player counts and other options
it goes with, and who may set it.

Everything that sets a game up reads the one declaration: `new_game` checks its options
with `OptionSchema.validate`; the command line's flags (`kamon.cli.options`), the
server's catalogue and the lobby's form (`OptionSchema.catalog`), OpenSpiel's parameters
(`spiel_params` / `from_spiel`), sweeps' option axes (`value_of`, `values_of`) and the
contract suite's set-ups (`setups`) are made from it.

Examples:
    >>> schema = OptionSchema("Dice", 1, 4, [
    ...     Option("rounds", "int", "rounds to play", choices=(Choice(3, "short"),
    ...            Choice(5, "long")), default=3),
    ...     Option("bonus", "bool", "the bonus die", requires={"rounds": 5}),
    ... ])
    >>> schema.validate(2, {})
    {'rounds': 3}
    >>> schema.validate(2, {"rounds": 5, "bonus": True})
    {'rounds': 5, 'bonus': True}
    >>> schema.validate(2, {"bonus": True})
    Traceback (most recent call last):
    ...
    ValueError: bonus needs rounds=5
    >>> schema.value_of("rounds", "5"), schema.setups()
    (5, [(4, {'rounds': 5}), (4, {'rounds': 5, 'bonus': True})])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kamon.core.errors import DataError

PLAYER = "player"  # anyone setting a game up: the lobby, the command line, OpenSpiel
DESIGNER = "designer"  # the command line and the tools only (a data overlay): no server
ENGINE = "engine"  # the engine alone: kept in records, never set by a person
WHO = (PLAYER, DESIGNER, ENGINE)
# seat: a seat number 0 .. players-1; overlay: a JSON object deep-merged over the game's
# component data (kamon.core.overlay: a designer's corrections, a sweep's values)
TYPES = ("bool", "int", "str", "seat", "overlay")
SPIEL_UNSET = {"str": "", "seat": -1, "int": -1}  # OpenSpiel's value for "not set"


@dataclass(frozen=True)
class Choice:
    """One allowed value and its words; `players`: the only player counts it is for (it
    may make a game of a count the rulebook has not: the small table)."""

    value: Any
    label: str
    players: tuple[int, ...] | None = None
    unofficial: bool = False


@dataclass(frozen=True)
class Option:
    """One option: its name, type (TYPES), help line, the words before its control
    (`label`), the values it allows (`choices`; none: any value of the type), its default
    (filled into a game's options where it applies; None/False: left out), the player
    counts it applies to (None: every count), the options it needs set (`requires`), who
    may set it (WHO), a canonical form of a value (`parse`, ValueError saying why) and,
    for an overlay, the environment variable naming a file the command line reads."""

    name: str
    type: str
    help: str
    label: str = ""
    choices: tuple[Choice, ...] = ()
    default: Any = None
    players: tuple[int, ...] | None = None
    requires: Mapping[str, Any] = field(default_factory=dict)
    who: str = PLAYER
    parse: Callable[[Any], Any] | None = None
    env: str | None = None
    unofficial: bool = False

    def __post_init__(self) -> None:
        """Refuse a declaration that cannot be right (a programming error)."""
        if self.type not in TYPES or self.who not in WHO:
            raise ValueError(f"option {self.name}: type {self.type!r} / who {self.who!r}")

    @property
    def flag(self) -> str:
        """The command line's flag: `--rounds-left` for an option rounds_left."""
        return "--" + self.name.replace("_", "-")

    @property
    def words(self) -> str:
        """The words before its control (its label, else its help)."""
        return self.label or self.help

    def choice(self, value: Any) -> Choice | None:
        """The declared choice of `value` (types compared too: True is not 1)."""
        return next((c for c in self.choices
                     if type(c.value) is type(value) and c.value == value), None)


def counts_text(counts: Sequence[int]) -> str:
    """'4', '2 or 3', '1-4' or '1, 3' (player counts in words)."""
    cs = sorted(set(counts))
    if len(cs) == 1:
        return str(cs[0])
    if len(cs) == 2:
        return f"{cs[0]} or {cs[1]}"
    if cs == list(range(cs[0], cs[-1] + 1)):
        return f"{cs[0]}-{cs[-1]}"
    return ", ".join(map(str, cs))


def _alternatives(opt: Option) -> str:
    """"'A' or 'B'", "'easy', 'medium' or 'hard'" (a choice option's values)."""
    vals = [repr(c.value) for c in opt.choices]
    return vals[0] if len(vals) == 1 else ", ".join(vals[:-1]) + " or " + vals[-1]


class OptionSchema(Mapping[str, Option]):
    """A game's options by name, with its official player counts (`min_players` to
    `max_players`; a choice may allow others) and `players_note`, said when a count is
    refused ('1 = solo against the Tokugawa rival')."""

    def __init__(self, title: str, min_players: int, max_players: int,
                 options: Sequence[Option], players_note: str = "") -> None:
        """The schema of a game called `title`."""
        self.title = title
        self.min_players = min_players
        self.max_players = max_players
        self.players_note = players_note
        self._options = {o.name: o for o in options}
        if len(self._options) != len(options):
            raise ValueError(f"{title}: an option is declared twice")

    def __getitem__(self, name: str) -> Option:
        return self._options[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._options)

    def __len__(self) -> int:
        return len(self._options)

    @property
    def overlay(self) -> str | None:
        """The name of the option that takes a data overlay, if the game has one."""
        return next((o.name for o in self._options.values() if o.type == "overlay"), None)

    def settable(self, who: Sequence[str] = (PLAYER,)) -> list[Option]:
        """The options that `who` may set, in declaration order."""
        return [o for o in self._options.values() if o.who in who]

    # --- player counts --------------------------------------------------------------

    def counts(self) -> tuple[int, ...]:
        """Every player count a game can be set up with: the official ones, and those a
        choice allows (the small table's 2 and 3)."""
        out = set(range(self.min_players, self.max_players + 1))
        for o in self._options.values():
            for c in o.choices:
                out.update(c.players or ())
        return tuple(sorted(out))

    def forced(self, players: int) -> dict[str, Any]:
        """The options a count outside the official ones needs (its variant), else {}."""
        if self.min_players <= players <= self.max_players:
            return {}
        for o in self._options.values():
            for c in o.choices:
                if c.players and players in c.players:
                    return {o.name: c.value}
        return {}

    def _extra_counts(self) -> str:
        """'; 2 or 3 players only with the unofficial table='small'' (the choices
        that allow other counts), or ''."""
        parts = [f"{counts_text(c.players)} players only with the "
                 f"{'unofficial ' if c.unofficial else ''}{o.name}={c.value!r}"
                 for o in self._options.values() for c in o.choices
                 if c.players and not set(c.players) <= set(range(self.min_players,
                                                                   self.max_players + 1))]
        return "; " + "; ".join(parts) if parts else ""

    def check_players(self, players: Any, options: Mapping[str, Any]) -> None:
        """ValueError unless `players` is a count this game (with these options) is for."""
        official = range(self.min_players, self.max_players + 1)
        chosen = [(o, o.choice(options.get(o.name))) for o in self._options.values()
                  if o.name in options]
        ok = isinstance(players, int) and not isinstance(players, bool)
        for o, c in chosen:
            if ok and c is not None and c.players is not None and players not in c.players:
                raise ValueError(f"{o.name}={c.value!r} is for {counts_text(c.players)} "
                                 f"players (got {players!r})")
        allowed = ok and (players in official or any(
            c is not None and c.players is not None and players in c.players
            for _, c in chosen))
        if not allowed:
            exactly = "exactly " if self.min_players == self.max_players else ""
            note = f"{self.players_note}; " if self.players_note else ""
            raise ValueError(f"{self.title} is played by {exactly}"
                             f"{counts_text(list(official))} players ({note}got {players!r})"
                             + self._extra_counts())

    # --- values ---------------------------------------------------------------------

    def applies(self, opt: Option, players: int, options: Mapping[str, Any]) -> bool:
        """Does `opt` apply to a game of `players` with these (other) options?"""
        if opt.players is not None and players not in opt.players:
            return False
        return all(_same(options.get(k), v) for k, v in opt.requires.items())

    def _checked(self, opt: Option, value: Any, players: int) -> Any:
        """The value in its canonical form; ValueError (DataError for JSON) saying why not."""
        if opt.parse is not None:
            value = opt.parse(value)
        if opt.choices:
            if opt.choice(value) is None:
                raise ValueError(f"{opt.name} must be {_alternatives(opt)}, got {value!r}")
            return value
        if opt.type == "bool" and not isinstance(value, bool):  # not 1, 0 or "yes"
            raise ValueError(f"{opt.name} must be true or false, got {value!r}")
        if opt.type in ("int", "seat") and (not isinstance(value, int)
                                             or isinstance(value, bool)):
            raise ValueError(f"{opt.name} must be an integer, got {value!r}")
        if opt.type == "seat" and isinstance(players, int) and not 0 <= value < players:
            raise ValueError(f"{opt.name} must be a seat 0-{players - 1}, got {value!r}")
        if opt.type == "str" and not isinstance(value, str):
            raise ValueError(f"{opt.name} must be a string, got {value!r}")
        if opt.type == "overlay" and not isinstance(value, dict):
            raise DataError(f"{opt.name} must be a JSON object")
        return value

    def validate(self, players: Any, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options of a new game checked against the declaration (ValueError, or
        DataError for a JSON option, saying what is wrong) and in the form a game and its
        record keep them: the options set (None and False left out), each in its
        canonical form, defaults filled in where they apply, in declaration order."""
        unknown = [k for k in options if k not in self._options]
        if unknown:
            raise ValueError(f"unknown option(s) for {self.title}: {', '.join(sorted(unknown))}"
                             f"; known: {', '.join(self._options)}")
        given = {k: v for k, v in options.items() if v is not None}
        values: dict[str, Any] = {}
        for opt in self._options.values():
            if opt.name in given:
                values[opt.name] = self._checked(opt, given[opt.name], players)
        self.check_players(players, values)
        out: dict[str, Any] = {}
        for opt in self._options.values():
            value = values.get(opt.name)
            if value is None or value is False:
                if self.applies(opt, players, values) and opt.default not in (None, False):
                    out[opt.name] = values[opt.name] = opt.default
                continue
            if opt.players is not None and players not in opt.players:
                plural = "" if opt.players == (1,) else "s"
                raise ValueError(f"{opt.name} is for games of {counts_text(opt.players)} "
                                 f"player{plural} only (got {players})")
            for k, v in opt.requires.items():
                if not _same(values.get(k), v):
                    raise ValueError(f"{opt.name} needs {k}={v!r}")
            out[opt.name] = value
        return out

    def value_of(self, name: str, text: str) -> Any:
        """An option's value written as text (a command-line flag, a sweep's axis): a
        choice by its value in any case, true/false, a number, or JSON."""
        opt = self._options[name]
        t = text.strip()
        if opt.choices:
            for c in opt.choices:
                if str(c.value).lower() == t.lower():
                    return c.value
            return opt.parse(t) if opt.parse is not None else t  # refused by validate
        if opt.type == "bool":
            low = t.lower()
            return True if low in ("true", "yes", "1", "on") else \
                False if low in ("false", "no", "0", "off") else t
        if opt.type in ("int", "seat"):
            try:
                return int(t)
            except ValueError:
                return t
        if opt.type == "overlay":
            return json.loads(t)
        return t

    def values_of(self, name: str) -> list[Any]:
        """Every value an option allows, when it has a short list (a sweep's whole axis)."""
        opt = self._options[name]
        if opt.choices:
            return [c.value for c in opt.choices]
        if opt.type == "bool":
            return [False, True]
        if opt.type == "seat":
            return list(range(self.max_players))
        raise ValueError(f"{name} takes any {opt.type}: give its values")

    # --- what the rest generates from it ---------------------------------------------

    def catalog(self, who: Sequence[str] = (PLAYER,)) -> dict[str, dict[str, Any]]:
        """The options `who` may set as JSON, by name in declaration order (the server's
        catalogue: the lobby builds its form from it): type, words, help, choices,
        default, players, requires."""
        return {o.name: {"type": o.type, "label": o.words, "help": o.help,
                         "choices": [{"value": c.value, "label": c.label,
                                      "players": _listed(c.players),
                                      "unofficial": c.unofficial}
                                     for c in o.choices],
                         "default": o.default, "players": _listed(o.players),
                         "requires": dict(o.requires), "unofficial": o.unofficial}
                for o in self.settable(who)}

    def last_value(self, opt: Option, players: int) -> Any:
        """The value the contract suite tries an option at: its last choice, true, the
        last seat; None for an option of any value (a number, a JSON object)."""
        if opt.choices:
            return opt.choices[-1].value
        return True if opt.type == "bool" else players - 1 if opt.type == "seat" else None

    def setups(self) -> list[tuple[int, dict[str, Any]]]:
        """The set-ups worth testing apart, besides each player count with its default
        options: each option a player may set at its last value (with what it requires),
        at the largest player count it applies to."""
        out: list[tuple[int, dict[str, Any]]] = []
        for opt in self.settable((PLAYER,)):
            choice = opt.choices[-1] if opt.choices else None
            counts = [n for n in self.counts()
                      if (opt.players is None or n in opt.players)
                      and (choice is None or choice.players is None or n in choice.players)]
            if not counts:
                continue
            n = max(counts)
            value = self.last_value(opt, n)
            if value is None:
                continue
            opts = {**self.forced(n), **opt.requires, opt.name: value}
            setup = (n, opts)
            if setup not in out:
                out.append(setup)
        return out

    def spiel_params(self) -> dict[str, Any]:
        """OpenSpiel's parameters (with their defaults) of the options a player may set:
        unset is "" for a string and -1 for a number."""
        out: dict[str, Any] = {}
        for o in self.settable((PLAYER,)):
            if o.type == "bool":
                out[o.name] = bool(o.default)
            elif o.default is not None:
                out[o.name] = o.default
            else:
                out[o.name] = SPIEL_UNSET[o.type]
        return out

    def from_spiel(self, players: int, params: Mapping[str, Any]) -> dict[str, Any]:
        """A game's options from OpenSpiel's parameters: those set, where they apply
        (the solo difficulty needs 1 player, the Emperor side the Expert game)."""
        opts: dict[str, Any] = dict(self.forced(players))
        for o in self.settable((PLAYER,)):
            value = params.get(o.name)
            if value is None or value is False or value == SPIEL_UNSET.get(o.type):
                continue
            if o.type == "str" and o.choices:
                value = str(value)
            opts[o.name] = value
        kept = {k: v for k, v in opts.items()
                if self.applies(self._options[k], players, opts) or k in self.forced(players)}
        return kept


def _same(a: Any, b: Any) -> bool:
    """Equal, types too (True is not 1)."""
    return type(a) is type(b) and a == b


def _listed(counts: Sequence[int] | None) -> list[int] | None:
    """Player counts as JSON has them (a list), so the catalogue equals its own JSON."""
    return None if counts is None else list(counts)
