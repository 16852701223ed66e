"""I, Clansman (Kotaro Ichien, rulebook ver. 0.3.12): Beginner and Expert games, 4 players.

`GAME.new_game(4, seed, expert=False, emperor_side=None, emperor_variant=None,
variant=None, start_player=None, data_overlay=None)`; 2-3 players only with the
unofficial variant='small-table' (RULES_NOTES R35).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kamon.core.errors import DataError
from kamon.core.loading import load_exact
from kamon.core.protocol import Action, State, parse_notation
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import load_data
from kamon.games.clansman.setup import emperor_faces, new_state
from kamon.games.clansman.state import ClansmanState

OFFICIAL_PLAYERS = 4
SMALL_TABLE = "small-table"
VARIANTS = (SMALL_TABLE,)
SIDES = ("A", "B")


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


class ClansmanGame:
    """I, Clansman's entry point for the core protocol."""

    name = "clansman"
    title = "I, Clansman"
    min_players = OFFICIAL_PLAYERS
    max_players = OFFICIAL_PLAYERS
    num_actions = A.NUM_ACTIONS
    options: Mapping[str, Any] = {
        "expert": "the Expert game: Kofun and Emperor cards",
        "emperor_side": "Expert: the side of all four Emperor cards, 'A' (basic, default) or 'B'",
        "emperor_variant": "Expert, UNOFFICIAL: put Emperor 008 and/or 009 in their century's "
                           "slot ('008', '009' or '008,009'; RULES_NOTES R32)",
        "variant": "'small-table': the UNOFFICIAL 2-3 player variant (RULES_NOTES R35)",
        "start_player": "seat of the first start player (default: drawn from the seed)",
        "data_overlay": "a JSON object deep-merged over the card data",
    }

    def new_game(self, players: int, seed: int, **options: Any) -> ClansmanState:
        """Set up a game; ValueError with a clear message for bad arguments."""
        unknown = set(options) - set(self.options)
        if unknown:
            raise ValueError(f"unknown option(s) for {self.name}: {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(self.options)}")
        overlay = options.get("data_overlay")
        if overlay is not None and not isinstance(overlay, dict):
            raise DataError("data_overlay must be a JSON object")
        data = load_data(overlay)
        opts = self._options(players, options, data)
        return new_state(data, players, int(seed), opts)

    def _options(self, players: Any, options: Mapping[str, Any], data: Any) -> dict[str, Any]:
        """Validate the player count and options; the canonical options for the record."""
        variant = options.get("variant")
        if variant is not None and variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; the only variant is "
                             f"{SMALL_TABLE!r} (unofficial 2-3 players, RULES_NOTES R35)")
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(f"players must be an integer, got {players!r}")
        if variant == SMALL_TABLE:
            if players not in (2, 3):
                raise ValueError(f"the unofficial small-table variant is for 2 or 3 players "
                                 f"(got {players}); 4 players play the printed game")
        elif players != OFFICIAL_PLAYERS:
            raise ValueError(f"I, Clansman is played by exactly 4 players (rulebook: "
                             f"'4 players'); got {players}. 2-3 players only with the "
                             f"unofficial variant: variant='{SMALL_TABLE}' (RULES_NOTES R35)")
        expert = options.get("expert")
        if expert is not None and not isinstance(expert, bool):  # not 1, 0 or "yes"
            raise ValueError(f"expert must be true or false, got {expert!r}")
        side = options.get("emperor_side")
        ev = options.get("emperor_variant")
        if not expert and (side is not None or ev is not None):
            raise ValueError("emperor_side / emperor_variant need expert=True (Emperor cards "
                             "are used only in the Expert game)")
        opts: dict[str, Any] = {}
        if expert:
            side = "A" if side is None else str(side).upper()
            if side not in SIDES:
                raise ValueError(f"emperor_side must be 'A' or 'B', got {options['emperor_side']!r}")
            opts["expert"] = True
            opts["emperor_side"] = side
            if ev is not None:
                opts["emperor_variant"] = _emperor_variant(ev, data)
        if variant is not None:
            opts["variant"] = variant
        sp = options.get("start_player")
        if sp is not None:
            if not isinstance(sp, int) or isinstance(sp, bool) or not 0 <= sp < players:
                raise ValueError(f"start_player must be a seat 0-{players - 1}, got {sp!r}")
            opts["start_player"] = sp
        if options.get("data_overlay") is not None:
            opts["data_overlay"] = options["data_overlay"]
        return opts

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
