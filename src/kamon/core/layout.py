"""The research interfaces' view of a game: the field table of a fixed-size observation
vector shared by every game's encoders (named slices, per-seat blocks repeated at a
stride, what each means and the cap each value is divided by: the source of
docs/OBSERVATIONS.md), and `Observation`, the game's `observation` slot.

A field's cap is declared here once: the encoders read it from the table (`Layout.cap`,
`cap_array`), never write it again, and the table's documentation prints it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# A field's cap: one for every value, one per value, or None where it varies (said in
# the field's meaning) or the values are 0/1 (one-hot and multi-hot fields).
Cap = int | tuple[int, ...] | None


@dataclass(frozen=True)
class Field:
    """One named slice of the vector: `size` values from `start`, repeated `repeat` times
    every `stride` values (a per-seat field), what they mean and their cap (a count is
    divided by it and clipped at 1)."""

    name: str
    start: int
    size: int
    meaning: str
    repeat: int = 1
    stride: int = 0
    cap: Cap = None

    def caps(self) -> tuple[int, ...] | None:
        """The cap of each of the field's values (None: 0/1 or varying)."""
        if self.cap is None:
            return None
        return self.cap if isinstance(self.cap, tuple) else (self.cap,) * self.size

    @property
    def cap_text(self) -> str:
        """'/20', '/50 (the last /100)', '' (the cap as the documentation prints it)."""
        caps = self.caps()
        if caps is None:
            return ""
        if len(set(caps)) == 1:
            return f"/{caps[0]}"
        return "/" + ", /".join(map(str, caps))


class Layout:
    """Builds the field table: each `add` appends a slice and returns where it starts."""

    def __init__(self) -> None:
        """An empty table."""
        self.fields: list[Field] = []
        self.size = 0

    def add(self, name: str, size: int, meaning: str, cap: Cap = None) -> int:
        """Append a field of `size` values (their cap: one, or one per value); its start."""
        if isinstance(cap, tuple) and len(cap) != size:
            raise ValueError(f"field {name}: {len(cap)} caps for {size} values")
        start = self.size
        self.fields.append(Field(name, start, size, meaning, cap=cap))
        self.size += size
        return start

    def repeated(self, prefix: str, block: Layout, repeat: int) -> int:
        """Append `repeat` copies of a sub-layout (one per seat slot); the first copy's start."""
        base = self.size
        for f in block.fields:
            self.fields.append(Field(f"{prefix}[k].{f.name}", base + f.start, f.size, f.meaning,
                                     repeat, block.size, f.cap))
        self.size += block.size * repeat
        return base

    def caps_by_start(self) -> dict[int, tuple[int, ...]]:
        """Each capped field's caps (one per value), by the field's start."""
        return {f.start: caps for f in self.fields if (caps := f.caps()) is not None}

    def cap(self, start: int, k: int = 0) -> int:
        """The cap of value `k` of the field starting at `start` (KeyError if it has none)."""
        for f in self.fields:
            if f.start == start:
                caps = f.caps()
                if caps is None:
                    raise KeyError(f"field {f.name} has no cap")
                return caps[k]
        raise KeyError(f"no field starts at {start}")


def cap_array(fields: Sequence[Field], size: int) -> np.ndarray:
    """Every position's cap as declared (1 where a field has none: 0/1 values, or a cap
    the encoder sets as it varies)."""
    out = np.ones(size, dtype=np.int64)
    for f in fields:
        caps = f.caps()
        if caps is None:
            continue
        for k in range(f.repeat):
            at = f.start + k * f.stride
            out[at:at + f.size] = caps
    return out


@dataclass(frozen=True)
class Observation:
    """A game's `observation` slot: the field table and the vector's length, the encoding
    of a view (its
    definition), the same vector straight from a state (optional, faster), the score
    margin that earns the whole 'margin' reward, the vocabularies of its one-hot fields
    and the information state's bounds (decisions, revealing decisions after the deal)."""

    fields: tuple[Field, ...]
    size: int
    encode: Callable[[Mapping[str, Any]], np.ndarray]
    margin_scale: float
    encode_state: Callable[[Any, int | None], np.ndarray] | None = None
    vocabularies: Mapping[str, Sequence[str]] = field(default_factory=dict)
    recall_limits: tuple[int, int] = (400, 40)
