"""`python -m kamon.cli ...` runs the `kamon` command (the e2e tests start the server so)."""

from __future__ import annotations

from kamon.cli import main

main()
