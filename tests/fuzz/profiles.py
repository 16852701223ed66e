"""Hypothesis settings of the fuzz tests: a small, repeatable CI run or a long random one.

`KAMON_FUZZ=long` (what `make fuzz` sets) switches from the CI profile (derandomized, a
few examples per test: part of `make test`) to the long one (fresh random examples,
`KAMON_FUZZ_EXAMPLES` per test). Neither keeps an example database or a deadline.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

LONG = os.environ.get("KAMON_FUZZ", "ci") == "long"
LONG_EXAMPLES = int(os.environ.get("KAMON_FUZZ_EXAMPLES", "500"))
_BASE = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck),
                 print_blob=True)


def fuzz_settings(ci_examples: int) -> settings:
    """The settings of one fuzz test: `ci_examples` derandomized examples in CI, else
    LONG_EXAMPLES random ones."""
    if LONG:
        return settings(_BASE, max_examples=LONG_EXAMPLES, derandomize=False)
    return settings(_BASE, max_examples=ci_examples, derandomize=True)
