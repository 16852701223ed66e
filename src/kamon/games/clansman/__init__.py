"""I, Clansman (Kotaro Ichien, rulebook ver. 0.3.12): Beginner and Expert games, 4 players.

`GAME.new_game(4, seed, expert=False, emperor_side=None, emperor_variant=None,
variant=None, start_player=None, data_overlay=None)`; 2-3 players only with the
unofficial variant='small-table' (RULES_NOTES R35).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kamon.core.errors import DataError
from kamon.core.game import GameBase, lazy
from kamon.core.loading import load_exact
from kamon.core.options import DESIGNER, Choice, Option, OptionSchema
from kamon.core.protocol import Action, State, parse_notation
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import load_data
from kamon.games.clansman.setup import emperor_faces, new_state
from kamon.games.clansman.state import ClansmanState

OFFICIAL_PLAYERS = 4
SMALL_TABLE = "small-table"


def _emperor_variant(value: Any, data: Any) -> str:
    """The canonical form ('008', '009' or '008,009') of the R32 variant option."""
    if isinstance(value, str):
        faces = [v.strip() for v in value.replace("+", ",").split(",") if v.strip()]
    elif isinstance(value, list | tuple):
        faces = [str(v).strip() for v in value]
    else:
        raise ValueError(f"emperor_variant must be '008', '009' or '008,009', got {value!r}")
    allowed = {f: c for c, fs in data.rules.variant_slots.items() for f in fs}
    extra = sorted(set(faces))
    base = set(data.emperor_sides["A"]) | set(data.emperor_sides["B"])
    for f in extra:
        if f not in allowed or f in base:
            raise ValueError(f"emperor_variant: {f!r} is not an optional Emperor face; the "
                             "documented variant (R32) offers 008 (5th Century) and 009 "
                             "(6th Century)")
    if not extra:
        raise ValueError("emperor_variant names no Emperor face (use '008', '009' or "
                         "'008,009')")
    return ",".join(extra)


def _side(value: Any) -> Any:
    """An Emperor side in any case ('b' is side B)."""
    return value.strip().upper() if isinstance(value, str) else value


OPTIONS = OptionSchema("I, Clansman", OFFICIAL_PLAYERS, OFFICIAL_PLAYERS, [
    Option("expert", "bool", "the Expert game: Kofun and Emperor cards",
           label="Expert game (Kofun and Emperor cards)"),
    Option("emperor_side", "str",
           "Expert: the side of all four Emperor cards, 'A' (basic, default) or 'B'",
           label="Emperor cards", choices=(Choice("A", "side A"), Choice("B", "side B")),
           default="A", requires={"expert": True}, parse=_side),
    Option("emperor_variant", "str",
           "Expert, UNOFFICIAL: put Emperor 008 and/or 009 in their century's slot ('008', "
           "'009' or '008,009'; RULES_NOTES R32)",
           label="Emperor variant (unofficial)",
           choices=(Choice("008", "008"), Choice("009", "009"),
                    Choice("008,009", "008 and 009")),
           requires={"expert": True}, parse=lambda v: _emperor_variant(v, load_data()),
           unofficial=True),
    Option("variant", "str",
           "'small-table': the UNOFFICIAL 2-3 player variant (RULES_NOTES R35)",
           label="Table variant",
           choices=(Choice(SMALL_TABLE, "small table (unofficial, 2–3 players)",
                           players=(2, 3), unofficial=True),),
           unofficial=True),
    Option("start_player", "seat", "seat of the first start player (default: drawn from "
           "the seed)", label="First start player (seat number; blank: drawn)"),
    Option("data_overlay", "overlay", "a JSON object deep-merged over the card data",
           who=DESIGNER, env="KAMON_DATA_OVERLAY"),
])


class ClansmanGame(GameBase):
    """I, Clansman's entry point for the core protocol, and its slots."""

    name = "clansman"
    # a training run's deals (kamon.learn): Expert twice for once Beginner
    selfplay_setups = ((4, {"expert": True}), (4, {"expert": True}), (4, {}))
    title = "I, Clansman"
    min_players = OFFICIAL_PLAYERS
    max_players = OFFICIAL_PLAYERS
    num_actions = A.NUM_ACTIONS
    options = OPTIONS
    aliases = ("i-clansman", "i_clansman")
    position = 2

    evaluation = lazy(".evaluation")
    hidden_key = lazy(".hidden", "hidden_key")
    chance_piles = lazy(".hidden", "chance_piles")  # explicit chance (kamon.core.chance)
    same_view_for_every_seat = True  # hands are public (R08): a seat sees what a spectator sees
    observation = lazy(".observation_state", "OBSERVATION")
    features = lazy(".features", "FEATURES")
    component_texts = lazy(".render", "component_texts")
    stats = lazy(".stats")
    # kamon effects: the missions' VP (the kind report and compare group by)
    card_values = {"data_file": "data/cards.json", "path": "cards[id=*].function.vp.amount",
                   "column": "missions", "kind": ("type", "mission")}
    presentation = {
        # The rulebook's introduction retold; decisions measured with `kamon simulate
        # clansman --players 4 --games 20 --agents normal` (seeds 0-19): 301 a game.
        "pitch": "Ancient Japan, the 4th to the 7th Century: you are a Gozoku, lord of a "
                 "great clan of the Yamato Kingdom. Over 16 generations marry your "
                 "daughters into clans, produce, and earn Victory Points by strengthening "
                 "the kingdom.",
        "players": "4 (2–3: an unofficial small-table variant)",
        "length": "about 90 minutes (the box); 16 rounds, about 75 decisions per player in "
                  "kamon",
    }

    def new_game(self, players: int, seed: int, **options: Any) -> ClansmanState:
        """Set up a game; ValueError with a clear message for bad arguments."""
        opts = self.checked(players, options)
        return new_state(load_data(opts.get("data_overlay")), players, int(seed), opts)

    def setup_words(self, players: int, options: Mapping[str, Any]) -> str:
        """'Beginner · 4 players' or 'Expert, Emperor cards side B · 3 players (unofficial
        small-table variant)'."""
        mode = (f"Expert, Emperor cards side {options.get('emperor_side', 'A')}"
                if options.get("expert") else "Beginner")
        extra = ", ".join(x for x in (
            f"unofficial {options['variant']} variant" if options.get("variant") else "",
            f"unofficial Emperor {options['emperor_variant']}"
            if options.get("emperor_variant") else "") if x)
        return f"{mode} · {players} players" + (f" ({extra})" if extra else "")

    def parse_action(self, state: State, text: str) -> Action:
        """The legal action named by notation (or its integer id)."""
        assert isinstance(state, ClansmanState)
        return parse_notation(state, text, A.BY_TEXT, A.ACTIONS, self.title)

    def action_text(self, action_id: int) -> str:
        """Notation of an action id."""
        return A.TEXTS[action_id]

    def from_json(self, data: Mapping[str, Any]) -> ClansmanState:
        """Rebuild a state from to_json output (RecordError if malformed)."""
        from kamon.core.errors import RecordError

        if not isinstance(data, Mapping):
            raise RecordError("an I, Clansman state must be a JSON object")
        opts = data.get("options")
        overlay = opts.get("data_overlay") if isinstance(opts, dict) else None
        if overlay is not None and not isinstance(overlay, dict):
            raise RecordError("options.data_overlay must be a JSON object")

        def load() -> ClansmanState:
            """The overlay's data, then the state (exactly as written: load_exact)."""
            try:
                cards = load_data(overlay)
            except DataError as exc:
                raise RecordError(f"the state's data overlay is invalid: {exc}") from None
            return ClansmanState.from_json(dict(data), cards)

        return load_exact("an I, Clansman", load)

    def render_text(self, state: State, seat: int | None) -> Any:
        """A Rich renderable of the table."""
        from kamon.games.clansman.render import render

        assert isinstance(state, ClansmanState)
        return render(state, seat)

    def describe_options(self, options: Mapping[str, Any]) -> Sequence[str]:
        """Setup lines: mode, unofficial variants, and the card text that is not printed fact."""
        data = load_data(options.get("data_overlay"))
        lines = []
        if options.get("expert"):
            lines.append(f"Expert game: Kofun and Emperor cards, side "
                         f"{options.get('emperor_side', 'A')}")
        else:
            lines.append("Beginner game (no Kofun or Emperor cards; Mirrors 1 VP each)")
        if options.get("emperor_variant"):
            lines.append(f"UNOFFICIAL variant: Emperor face(s) {options['emperor_variant']} in "
                         "play (not in the Contents list; RULES_NOTES R32)")
        if options.get("variant") == SMALL_TABLE:
            lines.append("UNOFFICIAL small-table variant for 2-3 players (not from the "
                         "rulebook, untested for balance; RULES_NOTES R35)")
        if options.get("data_overlay"):
            lines.append("card data: corrected by a data overlay")
        in_play = set(emperor_faces(data, str(options.get("emperor_side", "A")), tuple(
            v for v in str(options.get("emperor_variant") or "").split(",") if v))) \
            if options.get("expert") else set()
        weak = [c for c in data.cards.values() if c.weak and (
            c.type not in ("kofun", "emperor") or (options.get("expert") and c.type == "kofun")
            or c.id in in_play)]
        if weak:
            lines.append(f"{len(weak)} cards in play have reconstructed text (marked †; a field "
                         "with ? is unknown; RULES_NOTES.md section 1): " + "; ".join(
                             c.id + " " + ", ".join(
                                 part.split(" ")[0] + ("?" if "unknown" in part else "")
                                 for part in (c.weak or "").split("; ")) for c in weak))
        if data.inferred_rulings:
            lines.append(f"{len(data.inferred_rulings)} rulings are inferred or unknown where "
                         "the rulebook is silent (docs/RULINGS_CLANSMAN.md)")
        return lines


GAME = ClansmanGame()

__all__ = ["GAME", "ClansmanGame", "ClansmanState"]
