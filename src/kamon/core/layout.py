"""The field table of a fixed-size observation vector, shared by every game's encoder:
named slices, per-seat blocks repeated at a stride, each with what it means (the source
of docs/OBSERVATIONS.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    """One named slice of the vector: `size` values from `start`, repeated `repeat` times
    every `stride` values (a per-seat field), and what they mean."""

    name: str
    start: int
    size: int
    meaning: str
    repeat: int = 1
    stride: int = 0


class Layout:
    """Builds the field table: each `add` appends a slice and returns where it starts."""

    def __init__(self) -> None:
        """An empty table."""
        self.fields: list[Field] = []
        self.size = 0

    def add(self, name: str, size: int, meaning: str) -> int:
        """Append a field of `size` values; its start offset."""
        start = self.size
        self.fields.append(Field(name, start, size, meaning))
        self.size += size
        return start

    def repeated(self, prefix: str, block: Layout, repeat: int) -> int:
        """Append `repeat` copies of a sub-layout (one per seat slot); the first copy's start."""
        base = self.size
        for f in block.fields:
            self.fields.append(Field(f"{prefix}[k].{f.name}", base + f.start, f.size, f.meaning,
                                     repeat, block.size))
        self.size += block.size * repeat
        return base
