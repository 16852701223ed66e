"""The White Castle (Devir 2023) for 2-4 players, rules as printed.

`GAME.new_game(players, seed, first_game=False, data_overlay=None)`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kamon.core.errors import RecordError
from kamon.core.loading import load_exact
from kamon.core.protocol import Action, State, parse_notation
from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import DataError, load_data
from kamon.games.white_castle.setup import new_state
from kamon.games.white_castle.state import WhiteCastleState


class WhiteCastleGame:
    """The White Castle's entry point for the core protocol."""

    name = "white-castle"
    title = "The White Castle"
    min_players = 1
    max_players = 4
    num_actions = A.NUM_ACTIONS
    options: Mapping[str, Any] = {
        "first_game": "use the rulebook's first-game Well tiles (coral pearl + black iron)",
        "data_overlay": "a JSON object deep-merged over the component data",
        "difficulty": "solo game (1 player) against the Tokugawa rival: easy, medium or hard",
    }

    def new_game(self, players: int, seed: int, **options: Any) -> WhiteCastleState:
        """Set up a game; ValueError with a clear message for bad arguments."""
        opts = self.checked_options(players, options)
        return new_state(load_data(opts.get("data_overlay")), players, int(seed), opts)

    def checked_options(self, players: Any, options: Mapping[str, Any]) -> dict[str, Any]:
        """The player count and options checked (ValueError or DataError saying what is
        wrong), as a game and its record keep them: set options only, the solo
        difficulty filled in."""
        unknown = set(options) - set(self.options)
        if unknown:
            raise ValueError(f"unknown option(s) for {self.name}: {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(self.options)}")
        if not isinstance(players, int) or isinstance(players, bool) \
                or not self.min_players <= players <= self.max_players:
            raise ValueError(f"The White Castle is played by {self.min_players}-"
                             f"{self.max_players} players (1 = solo against the Tokugawa "
                             f"rival; got {players})")
        first = options.get("first_game")
        if first is not None and not isinstance(first, bool):  # not 1, 0 or "yes"
            raise ValueError(f"first_game must be true or false, got {first!r}")
        difficulty = options.get("difficulty")
        if players == 1:
            difficulty = difficulty or "medium"
            if difficulty not in ("easy", "medium", "hard"):
                raise ValueError(f"solo difficulty must be easy, medium or hard "
                                 f"(got {difficulty!r})")
            options = {**options, "difficulty": difficulty}
        elif difficulty is not None:
            raise ValueError("difficulty is for the solo game only (players=1)")
        overlay = options.get("data_overlay")
        if overlay is not None and not isinstance(overlay, dict):
            raise DataError("data_overlay must be a JSON object")
        return {k: v for k, v in options.items() if v not in (None, False)}

    def parse_action(self, state: State, text: str) -> Action:
        """The legal action named by notation (or its integer id)."""
        assert isinstance(state, WhiteCastleState)
        return parse_notation(state, text, A.BY_TEXT, A.ACTIONS, self.title)

    def action_text(self, action_id: int) -> str:
        """Notation of an action id."""
        return A.TEXTS[action_id]

    def from_json(self, data: Mapping[str, Any]) -> WhiteCastleState:
        """Rebuild a state from to_json output; RecordError for anything malformed."""
        if not isinstance(data, Mapping):
            raise RecordError(f"a White Castle state must be a JSON object, "
                              f"not {type(data).__name__}")
        options = data.get("options", {})
        overlay = options.get("data_overlay") if isinstance(options, Mapping) else None
        if overlay is not None and not isinstance(overlay, dict):
            raise RecordError("the state's data_overlay option must be a JSON object")

        def load() -> WhiteCastleState:
            """The overlay's data, then the state (exactly as written: load_exact)."""
            try:
                game_data = load_data(overlay)
            except DataError as exc:
                raise RecordError(f"the state's data overlay is malformed: {exc}") from None
            state = WhiteCastleState.from_json(dict(data), game_data)
            try:
                players = state.n - (state.rival is not None)  # the rival is a clan
                canonical = self.checked_options(players, state.options)
            except (ValueError, DataError) as exc:
                raise RecordError(f"the state's options are not valid: {exc}") from None
            if canonical != state.options:
                raise RecordError(f"the state's options are not as a game keeps them: "
                                  f"{state.options!r}")
            return state

        return load_exact("a White Castle", load)

    def render_text(self, state: State, seat: int | None) -> Any:
        """A Rich renderable of the board."""
        from kamon.games.white_castle.render import render

        assert isinstance(state, WhiteCastleState)
        return render(state, seat)

    def describe_options(self, options: Mapping[str, Any]) -> Sequence[str]:
        """Setup line: options and the data entries that are not settled facts."""
        data = load_data(options.get("data_overlay"))
        lines = []
        if options.get("first_game"):
            lines.append("first-game setup: Well tiles coral pearl + black iron")
        if options.get("data_overlay"):
            lines.append("component data: corrected by a data overlay")
        if options.get("difficulty"):
            faces = sum(c.reconstructed for c in data.solo_deck.values())
            lines.append(f"solo game against the Tokugawa rival, {options['difficulty']}; "
                         f"Solitaire deck: {faces} of its 18 card faces are RECONSTRUCTED "
                         "(not public text; load the real deck with a data overlay)")
        recon = [w for w in data.weak if "reconstructed" in w or "inferred" in w]
        if recon:
            lines.append(f"{len(recon)} component facts are reconstructed or inferred "
                         "(not printed text): " + "; ".join(recon[:6])
                         + ("; ..." if len(recon) > 6 else ""))
        return lines


GAME = WhiteCastleGame()

__all__ = ["GAME", "WhiteCastleGame", "WhiteCastleState"]
