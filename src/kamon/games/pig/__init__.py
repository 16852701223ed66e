"""Pig, the folklore dice game of the research literature (Neller & Presser 2004), for 2-4
players: a small example game that shows how a game is added to kamon (one folder, this
declaration; docs/adding-a-game.md), not one of kamon's tabletop games.

`GAME.new_game(players, seed, points_to_win=100, start_player=None)`; `OPTIONS` declares them,
and the class below the slots the game fills.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kamon.core.errors import RecordError
from kamon.core.game import GameBase, lazy
from kamon.core.loading import load_exact
from kamon.core.options import Choice, Option, OptionSchema
from kamon.core.protocol import Action, State, parse_notation
from kamon.games.pig import actions as A
from kamon.games.pig.state import SEAT_NAMES, PigState

OPTIONS = OptionSchema("Pig", 2, 4, [
    Option("points_to_win", "int", "the score that wins (100 in the classic game)",
           label="Play to", choices=(Choice(100, "100 points (the classic game)"),
                                     Choice(50, "50 points"), Choice(30, "30 points"),
                                     Choice(20, "20 points (a quick game)")),
           default=100),
    Option("start_player", "seat", "seat of the first player (default: drawn from the seed)",
           label="First player (seat number; blank: drawn)"),
])


class PigGame(GameBase):
    """Pig's entry point for the core protocol, and its slots."""

    name = "pig"
    title = "Pig"
    min_players = 2
    max_players = 4
    default_players = 2
    num_actions = A.NUM_ACTIONS
    options = OPTIONS
    position = 90  # after the tabletop games in every list

    evaluation = lazy(".evaluation")
    hidden_key = lazy(".evaluation", "hidden_key")
    same_view_for_every_seat = True  # only the future rolls are hidden, from everyone
    observation = lazy(".observation", "OBSERVATION")
    presentation = {
        "pitch": "A small example game for developers, not a tabletop game: Pig, the "
                 "folklore dice game of the research papers. Roll to grow your turn total, "
                 "hold to bank it; a 1 loses it.",
        "players": "2–4",
        # measured with `kamon simulate pig --players 2 --games 50 --agents normal`
        # (seeds 0-49): 78.6 decisions a game to 100, 11.3 to 20
        "length": "a few minutes; about 40 decisions per player to 100 points, 6 to 20",
    }

    def new_game(self, players: int, seed: int, **options: Any) -> PigState:
        """Set up a game (the first player drawn from the seed unless chosen); ValueError
        with a clear message for bad arguments."""
        opts = self.checked(players, options)
        state = PigState(players, int(seed), opts, 0)
        drawn = state.rng.below(players)  # drawn even when chosen: the same dice either way
        state.turn_seat = int(opts.get("start_player", drawn))
        state.events = [f"{SEAT_NAMES[state.turn_seat]} starts"]
        return state

    def parse_action(self, state: State, text: str) -> Action:
        """The legal action named by notation ('roll', 'hold') or its id."""
        assert isinstance(state, PigState)
        return parse_notation(state, text, A.BY_TEXT, A.ACTIONS, self.title)

    def action_text(self, action_id: int) -> str:
        """Notation of an action id."""
        return A.TEXTS[action_id]

    def from_json(self, data: Mapping[str, Any]) -> PigState:
        """Rebuild a state from to_json output; RecordError for anything malformed."""
        if not isinstance(data, Mapping):
            raise RecordError("a Pig state must be a JSON object")

        def load() -> PigState:
            """The options checked, then the state."""
            raw = data.get("options")
            if not isinstance(raw, dict):
                raise RecordError("a Pig state's options must be a JSON object")
            try:
                opts = self.checked(data.get("players"), raw)
            except ValueError as exc:
                raise RecordError(f"the state's options are not valid: {exc}") from None
            if opts != raw:
                raise RecordError(f"the state's options are not as a game keeps them: {raw!r}")
            return PigState.from_json(dict(data), opts)

        return load_exact("a Pig", load)

    def render_text(self, state: State, seat: int | None) -> Any:
        """A Rich table of the scores, the turn total and this turn's rolls."""
        from rich.table import Table

        assert isinstance(state, PigState)
        table = Table(title=f"Pig, to {state.target}")
        table.add_column("seat")
        table.add_column("score", justify="right")
        table.add_column("this turn")
        for p in range(state.num_players):
            mover = p == state.to_move
            rolls = " ".join(map(str, state.rolls)) or "-"
            table.add_row(("▶ " if mover else "  ") + SEAT_NAMES[p], str(state.scores_[p]),
                          f"{rolls} = {state.turn_total}" if mover else "")
        return table

    def describe_options(self, options: Mapping[str, Any]) -> Sequence[str]:
        """One line: the target (an example game, not a tabletop one)."""
        return [f"Pig to {options.get('points_to_win', 100)} points (kamon's example game)"]


GAME = PigGame()

__all__ = ["GAME", "PigGame", "PigState"]
