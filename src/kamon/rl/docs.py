"""Write docs/OBSERVATIONS.md from the observation field tables:
`python -m kamon.rl.docs [PATH]` (no PATH: print it)."""

from __future__ import annotations

import sys
from pathlib import Path

from kamon.rl.encoding import markdown


def main(argv: list[str] | None = None) -> int:
    """Print the document, or write it to the path given."""
    args = sys.argv[1:] if argv is None else argv
    text = markdown() + "\n"
    if args:
        Path(args[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
