"""The objects a state reaches, for checking that a clone shares nothing it may change.

`mutables(root)` walks a state's attributes (slots and __dict__), lists, tuples, sets and
dicts, and returns every mutable object it reaches, by id. `frozen(obj)` is a value that
equals another object's exactly when their contents are equal, so an object shared
between a state and its clone can be proved unchanged by play on either side.
"""

from __future__ import annotations

import dataclasses
import enum
import types
from typing import Any

# Values that hold nothing mutable: a walk stops at them.
_ATOMS = (int, float, complex, str, bytes, bool, type(None), range, type, enum.Enum,
          types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType)
_CONTAINERS = (list, tuple, set, frozenset, dict)


def _fields(obj: object) -> list[Any]:
    """The values of an object's attributes: its __dict__ and every class's __slots__."""
    values = list(vars(obj).values()) if hasattr(obj, "__dict__") else []
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__") and hasattr(obj, slot):
                values.append(getattr(obj, slot))
    return values


def _children(obj: object) -> list[Any]:
    """What an object holds directly."""
    if isinstance(obj, dict):
        return [*obj.keys(), *obj.values()]
    if isinstance(obj, _CONTAINERS):
        return list(obj)
    return _fields(obj)


def _is_mutable(obj: object) -> bool:
    """A list, dict, set or object whose content can change in place (not a tuple, a
    frozenset or a frozen dataclass, which can still hold mutable objects)."""
    if isinstance(obj, tuple | frozenset):
        return False
    params = getattr(obj, "__dataclass_params__", None)
    return not (dataclasses.is_dataclass(obj) and params is not None and params.frozen)


def mutables(root: object, skip: frozenset[int] = frozenset()) -> dict[int, object]:
    """Every mutable object reachable from `root` (root included), by id; the walk does
    not enter objects whose id is in `skip`."""
    seen: set[int] = set()
    found: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if isinstance(obj, _ATOMS) or id(obj) in seen or id(obj) in skip:
            continue
        seen.add(id(obj))
        if _is_mutable(obj):
            found[id(obj)] = obj
        todo.extend(_children(obj))
    return found


def frozen(obj: object, skip: frozenset[int] = frozenset(),
           _path: frozenset[int] = frozenset()) -> object:
    """An immutable picture of obj's whole content (objects in `skip` by identity only)."""
    if isinstance(obj, _ATOMS):
        return obj
    if id(obj) in skip or id(obj) in _path:
        return ("same object", id(obj))
    inner = _path | {id(obj)}
    if isinstance(obj, dict):
        return ("dict", tuple((frozen(k, skip, inner), frozen(v, skip, inner))
                              for k, v in obj.items()))
    if isinstance(obj, set | frozenset):
        return (type(obj).__name__, tuple(sorted(repr(frozen(v, skip, inner)) for v in obj)))
    children = _children(obj)
    if not children and not isinstance(obj, _CONTAINERS):
        return (type(obj).__name__, repr(obj))  # an object that keeps its content elsewhere
    return (type(obj).__name__, tuple(frozen(v, skip, inner) for v in children))
