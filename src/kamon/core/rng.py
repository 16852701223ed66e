"""A small seeded RNG whose whole state is one integer, so clones and JSON are exact.

SplitMix64: fast in pure Python, statistically fine for dice and shuffles, and
trivially serialisable (unlike random.Random's 625-word state).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from random import Random
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64 generator; `state` is the only field.

    Examples:
        The same seed gives the same draws, and a clone goes on exactly as the original:

        >>> rng = Rng(42)
        >>> [rng.below(6) for _ in range(5)]
        [1, 1, 0, 0, 4]
        >>> twin = rng.clone()
        >>> rng.next_u64() == twin.next_u64()
        True
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        """Return the next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (n <= 2**32; rejection keeps it unbiased)."""
        if n <= 0:
            raise ValueError("below(n) needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], like random.randint."""
        return lo + self.below(hi - lo + 1)

    def choice(self, seq: list[T] | tuple[T, ...]) -> T:
        """A uniformly chosen element of a non-empty sequence."""
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def random(self) -> float:
        """Uniform float in [0, 1)."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def spawn(self) -> Rng:
        """An independent child generator (for determinize and agents)."""
        return Rng(self.next_u64())

    @classmethod
    def drawn_from(cls, source: Rng | Random) -> Rng:
        """A new generator seeded by a draw from `source` (a determinized state's fresh,
        unknowable future dice and shuffles)."""
        if isinstance(source, Rng):
            return cls(source.randint(0, (1 << 63) - 1))
        return cls(source.getrandbits(63))

    def clone(self) -> Rng:
        """An exact copy."""
        return Rng(self.state)
