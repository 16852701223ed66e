"""Overlay paths: a value of a game's component data named in overlay terms, and the
overlay that sets it (what `kamon sweep --vary` takes).

A path is object keys joined by dots, a list item chosen by its merge key in brackets,
e.g. `gardens.cards[id=plant_1].cp` or
`personal_domain.rows[row=top].spaces_under_workers[space=4].reward`; it becomes the
overlay `{"gardens": {"cards": [{"id": "plant_1", "cp": <value>}]}}`. A bracketed value
written in quotes is a string; an unquoted number is tried as written in the data (the
ids of I, Clansman's cards are strings of digits, Passage of Time positions are numbers).
Values are JSON scalars (`12`, `1.5`, `true`, `"a"`) or, failing that, bare text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kamon.core.errors import KamonError
from kamon.core.overlay import _MERGE_KEYS

_NAME = re.compile(r"[^.\[\]=]+")


@dataclass(frozen=True)
class Step:
    """One step of a path: an object key, or a list item chosen by `key` = `value`."""

    name: str
    key: str | None = None
    value: str | None = None  # the bracketed value as written (quotes removed)
    quoted: bool = False  # written in quotes: a string, never a number


@dataclass(frozen=True)
class Vary:
    """One `--vary PATH=V1,V2,...`: the path and its values (parsed and as written)."""

    path: str
    steps: tuple[Step, ...]
    values: tuple[Any, ...]
    texts: tuple[str, ...]

    @property
    def component(self) -> str | None:
        """The id of the innermost item the path chooses (plant_1), if it chooses one."""
        chosen = [s.value for s in self.steps if s.key is not None]
        return chosen[-1] if chosen else None


def parse_path(text: str) -> tuple[Step, ...]:
    """`gardens.cards[id=plant_1].cp` as steps; KamonError saying what is wrong."""
    where = f"--vary path {text!r}"
    if not text.strip():
        raise KamonError(f"{where}: empty; write e.g. gardens.cards[id=plant_1].cp")
    steps: list[Step] = []
    i, s = 0, text.strip()
    while i < len(s):
        m = _NAME.match(s, i)
        if m is None:
            raise KamonError(f"{where}: expected a key at character {i + 1}; write keys "
                             "joined by dots and items as [id=...], e.g. "
                             "gardens.cards[id=plant_1].cp")
        name = m.group().strip()
        i = m.end()
        steps.append(Step(name))
        if i < len(s) and s[i] == "[":
            end = s.find("]", i)
            inner = s[i + 1:end] if end > 0 else ""
            if end < 0 or "=" not in inner:
                raise KamonError(f"{where}: an item is chosen as [key=value], e.g. "
                                 "[id=plant_1]")
            key, value = (x.strip() for x in inner.split("=", 1))
            if key not in _MERGE_KEYS:
                raise KamonError(f"{where}: items are chosen by {', '.join(_MERGE_KEYS)}, "
                                 f"not {key!r}")
            quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'"
            if quoted:
                value = value[1:-1]
            if not value:
                raise KamonError(f"{where}: [{key}=] names no item")
            steps.append(Step(f"[{key}]", key, value, quoted))
            i = end + 1
        if i < len(s):
            if s[i] != "." or i + 1 == len(s):
                raise KamonError(f"{where}: unexpected {s[i:]!r}; keys are joined by dots")
            i += 1
    if steps[-1].key is not None:
        raise KamonError(f"{where}: ends at an item; name one of its fields, e.g. "
                         f"{text.strip()}.cp")
    return tuple(steps)


def parse_value(text: str) -> Any:
    """A value as JSON (12, 1.5, true, null, "a", {"gain": {"coin": 1}}), else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _split_values(text: str) -> list[str]:
    """Split V1,V2,... at the commas outside brackets and quotes (a value may be JSON)."""
    out, depth, quote, cur = [], 0, "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    out.append(cur.strip())
    return out


def parse_vary(text: str) -> Vary:
    """`PATH=V1,V2,...` (the first '=' outside brackets splits path and values)."""
    depth, at = 0, -1
    for i, ch in enumerate(text):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "=" and depth == 0:
            at = i
            break
    if at < 0:
        raise KamonError(f"--vary {text!r}: write PATH=V1,V2,..., e.g. "
                         "--vary gardens.cards[id=plant_1].cp=6,9,12")
    path, rest = text[:at].strip(), text[at + 1:]
    steps = parse_path(path)
    texts = _split_values(rest)
    if not rest.strip() or any(not t for t in texts):
        raise KamonError(f"--vary {text!r}: give the values after '=', separated by commas "
                         "(no empty value)")
    if len(texts) < 2:
        raise KamonError(f"--vary {text!r}: a sweep needs at least 2 values")
    values = tuple(parse_value(t) for t in texts)
    seen: dict[str, str] = {}
    for t, v in zip(texts, values, strict=True):
        canon = json.dumps(v, sort_keys=True)
        if canon in seen:
            raise KamonError(f"--vary {text!r}: the value {t} is given twice")
        seen[canon] = t
    return Vary(path, steps, values, tuple(texts))


def key_forms(step: Step) -> list[Any]:
    """What a bracketed value may be in the data: the text, and a number if it is one."""
    if step.quoted or step.value is None:
        return [step.value]
    try:
        number = json.loads(step.value)
    except json.JSONDecodeError:
        return [step.value]
    return [step.value, number] if isinstance(number, int | float) and not isinstance(
        number, bool) else [step.value]


def overlay_for(steps: Sequence[Step], value: Any, keys: Sequence[Any] | None = None
                ) -> dict[str, Any]:
    """The overlay setting the path's value: `gardens.cards[id=plant_1].cp` and 12 give
    {"gardens": {"cards": [{"id": "plant_1", "cp": 12}]}} (`keys`: the bracketed values to
    write, in order; default: as written)."""
    return _fold(steps, value, list(keys) if keys is not None else
                 [s.value for s in steps if s.key is not None])


def _fold(steps: Sequence[Step], value: Any, keys: list[Any]) -> dict[str, Any]:
    """Build the overlay from the innermost step outwards."""
    out: Any = value
    for step in reversed(steps):
        if step.key is not None:
            item = dict(out) if isinstance(out, dict) else {}
            out = {"__item__": {step.key: keys.pop(), **item}}
        elif isinstance(out, dict) and "__item__" in out:
            out = {step.name: [out["__item__"]]}
        else:
            out = {step.name: out}
    return dict(out)
