"""Random corruption of a state's JSON (Hypothesis strategies) and the loading contract.

`mutations(doc)` draws one to three changes to a `to_json()` document: a value replaced
by any JSON value, a number nudged, a string swapped for another id found in the
document (cards swapped between places), a key deleted or added, two values swapped,
a list truncated, reversed, extended or wrapped, a value buried in deep nesting.
`load_or_refuse` applies them and holds `GAME.from_json` to its contract: refused with
a kamon error that says what is wrong (never another exception, the document left as it
was), or loaded exactly as written (its own `to_json()` gives the same document back)
into a state that keeps every invariant, shows its views and plays on legally to the end.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from kamon.core.errors import KamonError
from kamon.core.protocol import State
from tests.fuzz.driver import STATS, Rates, Spec, dumps, play

Path = tuple[Any, ...]
# Fields whose items are free text or a log: mutated only as a whole.
LOGS = frozenset({"events", "history"})
DEEP = 3000  # nesting deeper than Python's default recursion limit



class Huge:
    """Stands for 10**4400 in drawn values (whose repr Python refuses to write)."""

    def __repr__(self) -> str:
        """How Hypothesis shows it."""
        return "10**4400"


def materialize(x: Any) -> Any:
    """A drawn value with every Huge made the real (4,401-digit) integer."""
    if isinstance(x, Huge):
        return 10 ** 4400
    if isinstance(x, list):
        return [materialize(v) for v in x]
    if isinstance(x, dict):
        return {k: materialize(v) for k, v in x.items()}
    return x


SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 40),
    st.sampled_from([-1, 2 ** 31, 2 ** 63, 10 ** 30, -(10 ** 30)]), st.builds(Huge),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=10),
    st.sampled_from(["", "x", "blue", "over", "play", "take", "marry", "None"]))
JSON_VALUES = st.recursive(
    SCALARS, lambda kids: st.lists(kids, max_size=4)
    | st.dictionaries(st.text(max_size=8), kids, max_size=3), max_leaves=8)
KINDS = ("replace", "nudge", "swap_id", "delete", "add_key", "swap", "truncate", "reverse",
         "extend", "wrap", "deep", "log")


def walk(doc: Any, path: Path = ()) -> Iterator[Path]:
    """Every path to a value inside doc (dict keys and list indices), logs not entered."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield (*path, k)
            if k not in LOGS or path:
                yield from walk(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield (*path, i)
            yield from walk(v, (*path, i))


def get(doc: Any, path: Path) -> Any:
    """The value at path (TypeError when the path runs into a value that is no container,
    a string included)."""
    for k in path:
        if not isinstance(doc, dict | list):
            raise TypeError(f"{type(doc).__name__} is not a container")
        doc = doc[k]
    return doc


def put(doc: Any, path: Path, value: Any) -> None:
    """Set the value at path."""
    get(doc, path[:-1])[path[-1]] = value


def strings(doc: Any) -> list[str]:
    """Every string value in doc (ids of cards, tiles, phases...), logs aside."""
    return sorted({get(doc, p) for p in walk(doc) if isinstance(get(doc, p), str)})


@st.composite
def mutation(draw: st.DrawFn, doc: Any) -> tuple[Any, ...]:
    """One change to doc, as (kind, path, argument); applied by `apply_mutation`."""
    paths = list(walk(doc))
    kind = draw(st.sampled_from(KINDS))
    path = paths[draw(st.integers(0, len(paths) - 1))]
    if kind == "replace":
        return kind, path, draw(JSON_VALUES)
    if kind == "nudge":
        return kind, path, draw(st.sampled_from([1, -1, 2, -2, 5, -7, 100]))
    if kind == "swap_id":
        pool = strings(doc)
        return kind, path, pool[draw(st.integers(0, len(pool) - 1))] if pool else "x"
    if kind == "add_key":
        return kind, path, (draw(st.sampled_from(["x", "card", "round", "seat", "n", ""])),
                            draw(JSON_VALUES))
    if kind == "swap":
        return kind, path, paths[draw(st.integers(0, len(paths) - 1))]
    if kind in ("truncate", "extend"):
        return kind, path, draw(st.integers(0, 3))
    if kind == "log":
        return kind, (draw(st.sampled_from(sorted(LOGS))),), draw(JSON_VALUES)
    return kind, path, None


def mutations(doc: Any) -> st.SearchStrategy[list[tuple[Any, ...]]]:
    """One to three changes to doc."""
    return st.lists(mutation(doc), min_size=1, max_size=3)


def _copy(x: Any) -> Any:
    """A deep copy, or x itself when it is nested too deep to copy."""
    try:
        return copy.deepcopy(x)
    except RecursionError:
        return x


def apply_mutation(doc: Any, m: tuple[Any, ...]) -> None:
    """Apply one change in place (a change whose path no longer exists does nothing)."""
    try:
        _apply(doc, *m)
    except (KeyError, IndexError, TypeError):
        return  # an earlier change removed or replaced the place this one names


def _apply(doc: Any, kind: str, path: Path, arg: Any) -> None:
    """apply_mutation's work (a KeyError, IndexError or TypeError: nothing to change)."""
    value = get(doc, path)
    parent = get(doc, path[:-1])
    if kind in ("replace", "swap_id"):
        put(doc, path, materialize(arg))
    elif kind == "nudge":
        if isinstance(value, bool) or value is None:
            put(doc, path, not value)
        elif isinstance(value, int | float):
            put(doc, path, value + arg)
        elif isinstance(value, str):
            put(doc, path, value + str(arg))
    elif kind == "delete":
        del parent[path[-1]]
    elif kind == "add_key":
        target = value if isinstance(value, dict) else parent if isinstance(parent, dict) \
            else None
        if target is not None:
            target[arg[0]] = materialize(arg[1])
    elif kind == "swap":
        other = get(doc, arg)
        if arg[:len(path)] == path or path[:len(arg)] == arg:
            return  # one inside the other
        put(doc, path, other)  # moved, not copied (either may be nested very deep)
        put(doc, arg, value)
    elif kind in ("truncate", "reverse", "extend") and isinstance(value, list):
        if kind == "truncate":
            del value[min(arg, max(len(value) - 1, 0)):]
        elif kind == "reverse":
            value.reverse()
        elif value:
            value.extend(_copy(x) for x in value[: arg + 1])
        else:
            value.append(0)
    elif kind == "wrap":
        put(doc, path, [value])
    elif kind == "deep":
        nest: Any = value
        for _ in range(DEEP):
            nest = [nest]
        put(doc, path, nest)
    elif kind == "log":
        doc[path[0]] = materialize(arg)


def text_of(doc: Any) -> str | None:
    """Canonical JSON text of a document, or None if it cannot be written (too deep)."""
    try:
        return json.dumps(doc, sort_keys=True, separators=(",", ":"))
    except (RecursionError, ValueError):
        return None


def fingerprint(doc: Any) -> list[Any]:
    """The document flattened into tokens without recursion (it may be nested deeper than
    json or deepcopy can go), to see whether from_json changed it."""
    out: list[Any] = []
    todo: list[Any] = [doc]
    while todo:
        x = todo.pop()
        if isinstance(x, dict):
            out.append(("dict", len(x)))
            for k in reversed(list(x)):
                todo.extend((x[k], ("key", k)))
        elif isinstance(x, list):
            out.append(("list", len(x)))
            todo.extend(reversed(x))
        elif isinstance(x, tuple) and len(x) == 2 and x[0] == "key":
            out.append(x)
        else:
            out.append((type(x).__name__, repr(x) if isinstance(x, float) else x))
    return out


def load_or_refuse(spec: Spec, doc: dict[str, Any], rnd: random.Random, where: str
                   ) -> State | None:
    """GAME.from_json on a corrupted document: refused cleanly, or loaded exactly and
    playable. Returns the loaded state (None if refused)."""
    original = fingerprint(doc)
    before = text_of(doc)
    try:
        state = spec.game.from_json(doc)
    except KamonError as exc:
        message = str(exc)
        assert message.strip() and len(message) < 5000, (
            f"{where}: refused without a usable message ({message[:200]!r})")
        assert fingerprint(doc) == original, f"{where}: from_json changed the document"
        STATS["corrupt states refused"] += 1
        return None
    assert fingerprint(doc) == original, f"{where}: from_json changed the document"
    # Accepted: it must be exactly the document, a state that could be reached, and playable.
    assert before is not None, f"{where}: a document too deep to write was loaded"
    assert dumps(state) == before, (
        f"{where}: loaded, but not as written (its to_json differs from the document)")
    checker = spec.checker_for_loaded(state)
    checker.check(state, f"{where} as loaded")
    for seat in [None, *range(state.num_players)]:
        json.dumps(state.view(seat))
    assert isinstance(state.decision_text(), str)
    for action in state.legal_actions():
        assert isinstance(state.describe(action.id), str)
    STATS["corrupt states accepted and played on"] += 1
    play(spec, state, checker, "uniform", rnd, Rates(bad_input=0.05, roundtrip=0.05),
         f"{where} (loaded)")
    return state
