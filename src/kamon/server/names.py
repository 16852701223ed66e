"""Players' display names: what a name may be (1 to NAME_MAX characters that show), and
the words a seat is shown by (its player's name, or a bot's level).

A name must show on a page: every character printable (no control, format, separator or
private character) except the joiners inside an emoji or a word (U+200D, U+200C between
two visible characters) and the tag characters of a flag (after U+1F3F4); at least one
visible character — not a space, a combining mark alone, or one of the characters that
draw nothing (the Hangul fillers, the Braille blank, ...); and no stack of more than
MAX_MARKS combining marks on one character (the "Zalgo" text that covers the lines
around it).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from kamon.server.errors import ServiceError
from kamon.server.store import NAME_MAX, SeatRow

MAX_MARKS = 4  # combining marks in a row on one character (a few scripts use 3)
# Letters and symbols that are printable yet draw nothing.
BLANKS = frozenset({0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x17B4, 0x17B5, 0x1D159,
                    0x2062, 0x2063, 0x2064, 0x180E, 0xE0020})
JOINERS = frozenset({0x200C, 0x200D})  # zero-width (non-)joiner: between visible chars
BLACK_FLAG = 0x1F3F4  # a subdivision flag: the black flag, then tag characters
TAGS = range(0xE0020, 0xE0080)
MARKS = frozenset({"Mn", "Me"})


def _visible(ch: str) -> bool:
    """Does the character draw something on its own?"""
    return ch.isprintable() and not ch.isspace() and ord(ch) not in BLANKS and \
        unicodedata.category(ch) not in MARKS


def name_problem(name: str) -> str | None:
    """What makes `name` (NFC, stripped) no display name, in words; None if it is one.

    >>> name_problem("Ana"), name_problem("👩\\u200d💻")
    (None, None)
    >>> name_problem("\\u3164")
    'it shows nothing: use at least one visible letter, digit or sign'
    >>> name_problem("a\\u200d")
    'it holds an invisible character (U+200D) where it joins nothing'
    """
    if not name:
        return "it is empty"
    if len(name) > NAME_MAX:
        return f"it is {len(name)} characters long: a player's name is at most {NAME_MAX}"
    marks = 0
    flag = False
    for i, ch in enumerate(name):
        code = ord(ch)
        if code in JOINERS:
            if not (0 < i < len(name) - 1 and _visible(name[i - 1]) and
                    _visible(name[i + 1])):
                return f"it holds an invisible character (U+{code:04X}) where it joins " \
                       "nothing"
        elif code in TAGS:
            if not flag:
                return f"it holds an invisible character (U+{code:04X})"
        elif not ch.isprintable():
            return f"it holds a control or invisible character (U+{code:04X}): use " \
                   "letters, digits, spaces and punctuation"
        if code == BLACK_FLAG:
            flag = True
        elif code not in TAGS:
            flag = False
        marks = marks + 1 if unicodedata.category(ch) in MARKS else 0
        if marks > MAX_MARKS:
            return f"it stacks more than {MAX_MARKS} combining marks on one character"
    if not any(_visible(ch) for ch in name):
        return "it shows nothing: use at least one visible letter, digit or sign"
    return None


def player_name(value: Any) -> str | None:
    """A player's display name as given in a request (None: none given), normalised
    (NFC), stripped and checked; a 400 that says what is wrong otherwise."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ServiceError(400, f"'name' must be a string: the player's name, 1 to "
                                f"{NAME_MAX} characters")
    name = unicodedata.normalize("NFC", value).strip()
    if name == "":
        raise ServiceError(400, f"'name' is empty: give 1 to {NAME_MAX} characters, or "
                                "leave 'name' out")
    problem = name_problem(name)
    if problem is not None:
        raise ServiceError(400, f"'name' is not a name a page can show: {problem}")
    return name


def bot_name(kind: str | None) -> str:
    """A bot seat's name: its level in plain words ("Normal bot")."""
    kind = kind or "bot"
    return f"{kind[:1].upper()}{kind[1:]} bot"


def seat_player(seat: SeatRow) -> str | None:
    """Who plays a seat, by name: the name its player gave, a bot's level, or None (a
    person who gave none: the page shows the seat's colour)."""
    return bot_name(seat.level) if seat.kind == "bot" else seat.player
