"""Render a real mid-game White Castle board to docs/screenshot.svg (Rich's SVG export).

Run: .venv/bin/python docs/make_screenshot.py
"""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from kamon.core.rng import Rng
from kamon.games.white_castle import GAME


def main() -> None:
    """Play 70 seeded random decisions of a 3-player game and save the board as blue sees it."""
    state = GAME.new_game(3, 42)
    rng = Rng(1)
    while len(state.history) < 70 or state.to_move != 0:
        ids = state.legal_ids()
        state.apply(ids[rng.below(len(ids))])
    console = Console(record=True, width=120, force_terminal=True, file=io.StringIO())
    console.print(GAME.render_text(state, 0))
    console.print("Now: " + state.decision_text())
    for i, action in enumerate(state.legal_actions(), 1):
        console.print(f"  {i}. {action.text} — {state.describe(action.id)}")
    out = Path(__file__).parent / "screenshot.svg"
    console.save_svg(str(out), title="kamon play white-castle --seats human,random,random")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
