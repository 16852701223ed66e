"""Data overlays: an owner's corrections deep-merged over a game's component data.

An overlay is a JSON object merged over the data: objects merge key by key, lists of
items merge item by item matched on `id` (or `row`, `position`, `slot`, `space`), and
an effect record (gain / gain_choice / pay / action) replaces the old one whole. A file
may hold the overlay itself or `{"<game name>": {...}}`.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from kamon.core.errors import DataError

_MERGE_KEYS = ("id", "row", "position", "slot", "space")
_EFFECT_KEYS = {"gain", "gain_choice", "pay", "action"}


def merge_overlay(base: Any, patch: Any) -> Any:
    """Deep-merge `patch` over `base` (lists of keyed items merge item by item).

    An effect record in the patch (gain / gain_choice / pay / action) replaces the old
    effect whole: an owner correcting a reward means the new reward, not a mix of both.
    """
    if isinstance(base, dict) and isinstance(patch, dict) and not _EFFECT_KEYS & patch.keys():
        out = dict(base)
        for k, v in patch.items():
            out[k] = merge_overlay(base[k], v) if k in base else copy.deepcopy(v)
        return out
    if isinstance(base, list) and isinstance(patch, list) and patch and all(
            isinstance(x, dict) for x in patch):
        key = next((k for k in _MERGE_KEYS if all(k in x for x in patch)), None)
        if key is not None and all(isinstance(x, dict) and key in x for x in base):
            out_list = [copy.deepcopy(x) for x in base]
            index = {x[key]: i for i, x in enumerate(out_list)}
            for item in patch:
                if item[key] in index:
                    out_list[index[item[key]]] = merge_overlay(out_list[index[item[key]]], item)
                else:
                    raise DataError(f"overlay names {key}={item[key]!r}, which the data "
                                    f"does not have")
            return out_list
    return copy.deepcopy(patch)



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
