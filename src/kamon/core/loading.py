"""Loading a game state from JSON: exactly as written, or refused with a RecordError.

A game's `from_json` converts the fields of a document and checks that they fit
together. `load_exact` wraps it for every game: whatever the document holds (a wrong
type, a key too many, nesting deeper than Python recurses, numbers too long to write),
the caller gets a state whose own `to_json()` is the document it gave, or a
RecordError naming the field and the problem; never another exception, never a state
that silently differs from what was written (a float read as an int, "3" as 3, true
as 1, an unknown key dropped).
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from kamon.core.errors import RecordError

# What converting a malformed document can raise (deep nesting: RecursionError).
LOAD_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError,
               OverflowError)
INT_LIMIT = 1 << 64  # integers in a state are at most 64-bit (seeds, the RNG state)


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


def load_exact(title: str, written: Mapping[str, Any], load: Callable[[], S]) -> S:
    """`load()` (a game's conversion and checks of `written`), held to the contract: the
    state it returns dumps back to `written` exactly, anything else is a RecordError."""
    try:
        state = load()
    except LOAD_ERRORS as exc:
        text = str(exc) if not isinstance(exc, RecursionError) else "nested too deeply"
        raise RecordError(f"not {title} state: {type(exc).__name__}: {text[:300]}") from None
    problem = mismatch(dict(written), state.to_json())
    if problem:
        raise RecordError(f"not {title} state: {problem}")
    return state
