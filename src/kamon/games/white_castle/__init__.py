"""The White Castle (Devir 2023) for 1-4 players, rules as printed (1: solo against
the Tokugawa rival).

`GAME.new_game(players, seed, first_game=False, difficulty=None, data_overlay=None)`;
`OPTIONS` declares them, and the class below every slot the game fills.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kamon.core.errors import RecordError
from kamon.core.game import GameBase, lazy
from kamon.core.loading import load_exact
from kamon.core.options import DESIGNER, Choice, Option, OptionSchema
from kamon.core.protocol import Action, State, parse_notation
from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import DataError, load_data
from kamon.games.white_castle.setup import new_state
from kamon.games.white_castle.state import WhiteCastleState

OPTIONS = OptionSchema("The White Castle", 1, 4, [
    Option("first_game", "bool",
           "use the rulebook's first-game Well tiles (coral pearl + black iron)",
           label="First-game setup (the rulebook's Well tiles)"),
    Option("data_overlay", "overlay", "a JSON object deep-merged over the component data",
           who=DESIGNER, env="KAMON_DATA_OVERLAY"),
    Option("difficulty", "str",
           "solo game (1 player) against the Tokugawa rival: easy, medium or hard",
           label="Solo: the Tokugawa rival's difficulty",
           choices=(Choice("easy", "easy"), Choice("medium", "medium"),
                    Choice("hard", "hard")),
           default="medium", players=(1,)),
], players_note="1 = solo against the Tokugawa rival")


class WhiteCastleGame(GameBase):
    """The White Castle's entry point for the core protocol, and its slots."""

    name = "white-castle"
    title = "The White Castle"
    min_players = 1
    max_players = 4
    num_actions = A.NUM_ACTIONS
    options = OPTIONS
    aliases = ("wc",)
    position = 1

    evaluation = lazy(".evaluation")
    hidden_key = lazy(".hidden", "hidden_key")
    chance_piles = lazy(".hidden", "chance_piles")  # explicit chance (kamon.core.chance)
    same_view_for_every_seat = True  # no hand is secret: a seat sees what a spectator sees
    observation = lazy(".observation_state", "OBSERVATION")
    features = lazy(".features", "FEATURES")
    component_texts = lazy(".render", "component_texts")
    recent = lazy(".recent")
    stats = lazy(".stats")
    # kamon effects: the ten garden cards' CP (the kind report and compare group by)
    card_values = {"data_file": "data/components.json", "path": "gardens.cards[id=*].cp",
                   "column": "gardens"}
    presentation = {
        # The rulebook's introduction retold; decisions measured with `kamon simulate
        # white-castle --players 4 --games 20 --agents normal` (seeds 0-19): 222 a game
        # (solo: 57).
        "pitch": "Japan, 1761: minor clans seek the favour of the Sakai daimyo at Himeji, "
                 "the White Heron castle. Take dice from the three bridges to place your "
                 "family at every level of the court: courtiers in the castle, warriors, "
                 "and gardeners in its gardens.",
        "players": "1–4 (1: solo against the Tokugawa rival)",
        "length": "3 rounds of 3 turns each; about 55 decisions per player in kamon "
                  "(the rulebook gives no playing time)",
    }
    # a training run's deals (kamon.learn): four players, then solo against the Hard rival
    selfplay_setups = ((4, {}), (1, {"difficulty": "hard"}))
    score_labels = {
        "during_game": "CP scored during the game",
        "coins_seals": "coins + seals (1 CP per 5)",
        "resources": "resources",
        "passage_of_time": "Passage of Time",
        "courtiers": "courtiers",
        "warriors": "warriors",
        "gardeners": "gardeners",
        "total": "total",
    }

    def new_game(self, players: int, seed: int, **options: Any) -> WhiteCastleState:
        """Set up a game; ValueError with a clear message for bad arguments."""
        opts = self.checked(players, options)
        return new_state(load_data(opts.get("data_overlay")), players, int(seed), opts)

    def setup_words(self, players: int, options: Mapping[str, Any]) -> str:
        """'solo against the Tokugawa rival (hard)' or '3 players, first-game setup'."""
        if players == 1:
            return f"solo against the Tokugawa rival ({options.get('difficulty', 'medium')})"
        return f"{players} players" + (", first-game setup" if options.get("first_game")
                                       else "")

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
                canonical = self.checked(players, state.options)
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
