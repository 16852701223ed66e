"""Loading a game state from JSON: exactly as written, or refused with a RecordError.

A game's `from_json` converts the fields of a document, calls `require_exact` (the
state's own `to_json()` must be the document it was read from: no float read as an
int, no "3" as 3, no true as 1, no unknown key dropped) and then checks that the
values fit together. `load_exact` wraps it for every game: whatever the document holds
(a wrong type, nesting deeper than Python recurses, numbers too long to write), the
caller gets that exact state or a RecordError naming the field and the problem in a
short message; never another exception.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, TypeVar

from kamon.core.errors import RecordError

# What converting a malformed document can raise (deep nesting: RecursionError).
LOAD_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError,
               OverflowError)
INT_LIMIT = 1 << 64  # integers in a state are at most 64-bit (seeds, the RNG state)
MAX_MESSAGE = 400  # a refusal names the problem; it never repeats a long field


class _Short(reprlib.Repr):
    """reprlib's short repr, which also survives integers too long for repr()."""

    def repr_int(self, x: int, level: int) -> str:
        """A huge integer by its size (repr refuses beyond 4,300 digits)."""
        if abs(x) >= INT_LIMIT:
            return f"<an integer of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_SHOW = _Short()
_SHOW.maxstring = 40
_SHOW.maxother = 40


class _Dumpable(Protocol):
    """Anything with to_json (every game state)."""

    def to_json(self) -> dict[str, Any]:
        """The state as JSON-compatible data."""


S = TypeVar("S", bound=_Dumpable)


def show(x: Any) -> str:
    """A short description of a value for a message (never the whole of a long one)."""
    return _SHOW.repr(x)


def _kind(x: Any) -> str:
    """The JSON name of a value's type."""
    if x is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number with a fraction",
            str: "a string", list: "a list", dict: "an object"}.get(type(x), type(x).__name__)


def mismatch(written: Any, loaded: Any, path: str = "") -> str | None:
    """Where `written` (a document) differs from `loaded` (the to_json of the state read
    from it), in words; None when they are the same, types included."""
    where = path or "the state"
    if type(written) is not type(loaded):
        if isinstance(written, tuple) and isinstance(loaded, list):
            return mismatch(list(written), loaded, path)
        return f"{where} is {show(written)} ({_kind(written)}), not {_kind(loaded)}"
    if isinstance(loaded, dict):
        for k in written:
            if k not in loaded:
                return f"{path + '.' if path else ''}{k} is not a field of this state"
        for k, v in loaded.items():
            if k not in written:
                return f"{path + '.' if path else ''}{k} is missing"
            problem = mismatch(written[k], v, f"{path + '.' if path else ''}{k}")
            if problem:
                return problem
        return None
    if isinstance(loaded, list):
        if len(written) != len(loaded):
            return f"{where} has {len(written)} items, not {len(loaded)}"
        for i, (w, v) in enumerate(zip(written, loaded, strict=True)):
            problem = mismatch(w, v, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if isinstance(loaded, int) and not isinstance(loaded, bool) and abs(loaded) >= INT_LIMIT:
        return f"{where} is out of range ({show(loaded)}; at most 64 bits)"
    if written != loaded or (isinstance(written, float) and written != written):
        return f"{where} is {show(written)}, which reads back as {show(loaded)}"
    return None


# (key in the document, attribute of the state, converter of the value)
Field = tuple[str, str, Callable[[Any], Any]]


def convert_fields(title: str, d: Mapping[str, Any], target: object,
                   fields: Iterable[Field]) -> None:
    """Set each attribute of `target` from its key of `d` by its converter; a missing key
    or a value the converter refuses is a RecordError naming the key."""
    for key, attr, conv in fields:
        if key not in d:
            raise RecordError(f"not {title} state: {key} is missing")
        try:
            setattr(target, attr, conv(d[key]))
        except RecursionError:
            raise RecordError(f"not {title} state: {key} is nested too deeply") from None
        except LOAD_ERRORS as exc:
            raise RecordError(f"not {title} state: {key}: {type(exc).__name__}: "
                              f"{str(exc)[:200]}") from None


def require_exact(title: str, written: Mapping[str, Any], state: _Dumpable) -> None:
    """RecordError unless the state read from `written` dumps back to it exactly (a game's
    from_json calls it once the fields are converted, before its consistency checks)."""
    problem = mismatch(dict(written), state.to_json())
    if problem:
        raise RecordError(f"not {title} state: {problem}")


def load_exact(title: str, load: Callable[[], S]) -> S:
    """`load()` (a game's from_json) held to the contract: any failure is a RecordError
    with a message of at most MAX_MESSAGE characters, never another exception."""
    try:
        return load()
    except RecordError as exc:
        text = str(exc)
        if len(text) <= MAX_MESSAGE:
            raise
        raise RecordError(text[:MAX_MESSAGE - 1] + "…") from None
    except LOAD_ERRORS as exc:
        text = str(exc) if not isinstance(exc, RecursionError) else "nested too deeply"
        raise RecordError(f"not {title} state: {type(exc).__name__}: {text}"[:MAX_MESSAGE]
                          ) from None
