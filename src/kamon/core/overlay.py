"""Data overlays: a designer's or an owner's changes deep-merged over a game's component data.

An overlay is a JSON object merged over the data: objects merge key by key, lists of
items merge item by item matched on `id` (or `row`, `position`, `slot`, `space`), and
an effect record (gain / gain_choice / pay / action) replaces the old one whole, as
does any other list or value. A file may hold the overlay itself or
`{"<game name>": {...}}`.

An overlay may only change what exists. It is refused (a DataError naming the path,
e.g. `gardens.cards[id=plant_9]`) when it names:
  - a component (a top-level key) the data does not have;
  - a keyed item no item of that list has (`[id=plant_9]`), or an item without the key
    its list is matched on;
  - a field that is not in the data at that place. A field counts as existing when the
    item has it or any item of the same kind has it (the same path with every list item
    taken alike), so a legitimate optional field, e.g. `diamond` of a castle card or
    `checkpoint_to_enter` of a Passage of Time space, may be added where it is absent.
What replaces a value whole (an effect record, a list of unkeyed items, a scalar) is
checked by the game's own data validation when the data is built.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any

from kamon.core.errors import DataError

_MERGE_KEYS = ("id", "row", "position", "slot", "space")
_EFFECT_KEYS = {"gain", "gain_choice", "pay", "action"}
_ITEM = "[]"  # a list item in a generalised path (every item of a list taken alike)
_SHOW_NAMES = 12  # names listed in full in a refusal (more: the first and last few)

Shape = dict[tuple[str, ...], set[str]]


def merge_overlay(base: Any, patch: Any) -> Any:
    """Deep-merge `patch` over `base` (lists of keyed items merge item by item), after
    checking that the patch names only what the data has (`check_overlay`).

    An effect record in the patch (gain / gain_choice / pay / action) replaces the old
    effect whole: an owner correcting a reward means the new reward, not a mix of both.
    """
    check_overlay(base, patch)
    return _merge(base, patch)


def check_overlay(base: Any, patch: Any) -> None:
    """DataError (with the path) if the overlay names a component, a keyed item or a field
    the data does not have; nothing if every name exists."""
    if not isinstance(patch, dict):
        raise DataError("overlay: an overlay must be a JSON object")
    if not isinstance(base, dict):
        return
    shape: Shape = {}
    _shape_of(base, (), shape)
    for k, v in patch.items():
        if k not in base:
            from kamon.core.registry import known  # (the registry imports the games)
            if known(k):
                raise DataError(f"overlay: {k} is a game's name, not a component: an "
                                "overlay holds one game's components at its top level, "
                                f"unwrapped (components: {names_text(base)})")
            raise DataError(f"overlay: {k} is not a component of the data "
                            f"(components: {names_text(base)})")
        _check(base[k], v, (k,), k, shape)


def merge_key(base_items: list[Any], patch_items: list[Any]) -> str | None:
    """The key a list of items is matched on: one every base item has (the patch's items
    naming it), or None when the base's items are not keyed (the list is replaced)."""
    if not base_items or not all(isinstance(x, dict) for x in base_items):
        return None
    keys = [k for k in _MERGE_KEYS if all(k in x for x in base_items)]
    if not keys:
        return None
    return next((k for k in keys if all(isinstance(x, dict) and k in x for x in patch_items)),
                keys[0])


def names_text(names: Iterable[Any]) -> str:
    """'a, b, c' (at most _SHOW_NAMES names: the first and the last few around a '…')."""
    shown = [str(n) for n in names]
    if len(shown) > _SHOW_NAMES:
        shown = [*shown[:_SHOW_NAMES - 3], "…", *shown[-2:]]
    return ", ".join(shown)


def _shape_of(value: Any, path: tuple[str, ...], shape: Shape) -> None:
    """Record the fields of every object of the data by generalised path."""
    if isinstance(value, dict):
        shape.setdefault(path, set()).update(value)
        for k, v in value.items():
            _shape_of(v, (*path, k), shape)
    elif isinstance(value, list):
        for item in value:
            _shape_of(item, (*path, _ITEM), shape)


def _selector(key: str, value: Any) -> str:
    """'[id=plant_1]' (a string as written, anything else as JSON)."""
    return f"[{key}={value if isinstance(value, str) else json.dumps(value)}]"


def _check(base: Any, patch: Any, gen: tuple[str, ...], where: str, shape: Shape) -> None:
    """Check the part of an overlay at `where` (generalised path `gen`) against the data."""
    if isinstance(patch, dict):
        if _EFFECT_KEYS & patch.keys():
            return  # an effect record replaces the old one whole
        if isinstance(base, dict):
            known = set(base) | shape.get(gen, set())
        elif base is None and gen in shape:
            known = shape[gen]  # a value the data leaves empty (null), filled in
        else:
            return  # an object replacing a value of another kind: the game checks it
        for k, v in patch.items():
            if k not in known:
                own = sorted(base) if isinstance(base, dict) else sorted(known)
                raise DataError(f"overlay: {where}.{k} is not a field (fields: "
                                f"{names_text(own)})")
            _check(base.get(k) if isinstance(base, dict) else None, v, (*gen, k),
                   f"{where}.{k}", shape)
        return
    _check_kind(base, patch, where)
    if not (isinstance(base, list) and isinstance(patch, list) and patch):
        return
    key = merge_key(base, patch)
    if key is None:
        return  # a list of unkeyed items (effects, costs...) is replaced whole
    index = {x[key]: x for x in base}
    for i, item in enumerate(patch):
        if not isinstance(item, dict) or key not in item:
            raise DataError(f"overlay: item {i + 1} of {where} has no {key!r}: the items of "
                            f"{where} are matched by {key} (e.g. {{\"{key}\": "
                            f"{json.dumps(next(iter(index)))}, ...}})")
        here = where + _selector(key, item[key])
        if item[key] not in index:
            raise DataError(f"overlay: {here} does not exist (the data does not have "
                            f"{key} {item[key]}; the {key}s are {names_text(index)})")
        _check(index[item[key]], item, (*gen, _ITEM), here, shape)


def _kind(value: Any) -> str | None:
    """The kind of a data value an overlay must keep (None: any, e.g. null or a list)."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    return None


def _check_kind(base: Any, patch: Any, where: str) -> None:
    """A value replacing a number, a flag or text must be of its kind: 12.5 for a whole
    number would be cut to 12 (or played as 12.5) and `true` read as 1, silently."""
    kind = _kind(base)
    if kind is None or isinstance(patch, (dict, list)) or patch is None:
        return
    fits = {"true or false": isinstance(patch, bool),
            "a whole number": isinstance(patch, int) and not isinstance(patch, bool),
            "a number": isinstance(patch, (int, float)) and not isinstance(patch, bool),
            "text": isinstance(patch, str)}[kind]
    if not fits:
        raise DataError(f"overlay: {where} is {kind} in the data ({json.dumps(base)}); "
                        f"{json.dumps(patch)} is not")


def _merge(base: Any, patch: Any) -> Any:
    """Deep-merge a checked patch over the data."""
    if isinstance(base, dict) and isinstance(patch, dict) and not _EFFECT_KEYS & patch.keys():
        out = dict(base)
        for k, v in patch.items():
            out[k] = _merge(base[k], v) if k in base else copy.deepcopy(v)
        return out
    if isinstance(base, list) and isinstance(patch, list) and patch and all(
            isinstance(x, dict) for x in patch):
        key = merge_key(base, patch)
        if key is not None and all(key in x for x in patch):
            out_list = [copy.deepcopy(x) for x in base]
            index = {x[key]: i for i, x in enumerate(out_list)}
            for item in patch:
                if item[key] not in index:
                    raise DataError(f"overlay names {key}={item[key]!r}, which the data "
                                    f"does not have")
                out_list[index[item[key]]] = _merge(out_list[index[item[key]]], item)
            return out_list
    return copy.deepcopy(patch)


def combine_overlays(first: Any, second: Any) -> Any:
    """One overlay doing what `first` then `second` do (no data needed): objects combine
    key by key, lists of items sharing a merge key combine item by item (an item only
    one of them names is kept), anything else of `second` wins."""
    if isinstance(first, dict) and isinstance(second, dict) and not (
            _EFFECT_KEYS & second.keys()):
        out = copy.deepcopy(first)
        for k, v in second.items():
            out[k] = combine_overlays(first[k], v) if k in first else copy.deepcopy(v)
        return out
    if isinstance(first, list) and isinstance(second, list) and first and second and all(
            isinstance(x, dict) for x in [*first, *second]):
        key = next((k for k in _MERGE_KEYS if all(k in x for x in [*first, *second])), None)
        if key is not None:
            out_list = [copy.deepcopy(x) for x in first]
            index = {x[key]: i for i, x in enumerate(out_list)}
            for item in second:
                if item[key] in index:
                    at = index[item[key]]
                    out_list[at] = combine_overlays(out_list[at], item)
                else:
                    index[item[key]] = len(out_list)
                    out_list.append(copy.deepcopy(item))
            return out_list
    return copy.deepcopy(second)


def load_overlay_file(path: str, game: str | None = None) -> dict[str, Any]:
    """Read an overlay file; a clear DataError if it is missing or not a JSON object."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise DataError(f"cannot read data overlay {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"data overlay {path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise DataError(f"data overlay {path} must be a JSON object")
    if game is not None and isinstance(data.get(game), dict):
        data = data[game]
    return data
