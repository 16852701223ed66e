"""What the three research interfaces share besides the encoding: setting up a game from
options, checking an action id, and the board as plain text."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np

from kamon.agents import make_agent
from kamon.core.errors import IllegalAction, KamonError
from kamon.core.protocol import State
from kamon.rl.encoding import Encoding


def new_state(enc: Encoding, players: int | None, seed: int, options: dict[str, Any]) -> State:
    """A new game (players default to the game's most); ValueError/KamonError if refused."""
    n = enc.game.max_players if players is None else players
    return enc.game.new_game(n, seed=seed, **options)


def check_setup(enc: Encoding, players: int | None, options: dict[str, Any]) -> int:
    """Validate a game set-up once, up front (a clear error before any environment exists);
    returns the number of seats that decide."""
    try:
        state = new_state(enc, players, 0, options)
    except (ValueError, TypeError, KamonError) as exc:
        raise ValueError(f"cannot set up {enc.game_name}: {exc}") from None
    return state.num_players


def opponent_seats(seat: int, seats: int, opponents: Any) -> dict[int, str]:
    """The bots of the seats other than `seat`: one name for all, or one per other seat,
    each checked (ValueError naming the known agents otherwise)."""
    others = [q for q in range(seats) if q != seat]
    if isinstance(opponents, str):
        names = [opponents] * len(others)
    elif isinstance(opponents, Sequence) and all(isinstance(x, str) for x in opponents):
        names = list(opponents)
    else:
        raise ValueError(f"opponents: give a bot name or one name per other seat, got "
                         f"{opponents!r}")
    if len(names) != len(others):
        raise ValueError(f"opponents: give one name, or one per other seat "
                         f"({len(others)}), got {len(names)}")
    for name in names:
        try:
            make_agent(name, 0)
        except KamonError as exc:
            raise ValueError(f"opponents: {exc}") from None
    return dict(zip(others, names, strict=True))


def action_id(action: Any, num_actions: int) -> int:
    """An action given as an integer id (Python or NumPy), checked against the action space."""
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        if isinstance(action, np.ndarray) and action.shape == () and \
                np.issubdtype(action.dtype, np.integer):
            action = int(action)
        else:
            raise ValueError(f"an action is an integer id in [0, {num_actions}), "
                             f"got {action!r}")
    aid = int(action)
    if not 0 <= aid < num_actions:
        raise ValueError(f"action id {aid} is outside the action space [0, {num_actions})")
    return aid


def apply_checked(state: State, aid: int) -> None:
    """Apply a legal action id; IllegalAction (state unchanged) with the game's reason."""
    try:
        state.apply(aid)
    except IllegalAction as exc:
        raise IllegalAction(f"action {aid} is not legal now: {exc}") from None


def text_view(enc: Encoding, state: State, seat: int | None, width: int = 110) -> str:
    """The game's own text view of the board (as the terminal shows it), without colour."""
    from rich.console import Console

    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False,
                      legacy_windows=False)
    console.print(enc.game.render_text(state, seat))
    return buf.getvalue()
