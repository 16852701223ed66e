"""Setting up I, Clansman (rulebook 'Setup'), all randomness from the seed.

The RNG is used in a fixed order: the four century piles (4th to 7th), the
starting clans, then the start player (unless the `start_player` option names
one). Nothing random happens after setup: the piles' order is the only hidden
information of the game.
"""

from __future__ import annotations

from typing import Any

from kamon.core.rng import Rng
from kamon.games.clansman.data import CENTURIES, KOCHISEI, VOLATILE, CSData
from kamon.games.clansman.state import ClansmanState, Gozoku


def emperor_faces(data: CSData, side: str, variant: tuple[str, ...]) -> list[str]:
    """The 4 Emperor faces in play (4th-7th Century): one side, with R32 variant faces."""
    faces = list(data.emperor_sides[side])
    for face in variant:
        century = data.cards[face].century
        assert century is not None
        faces[century - 4] = face
    return faces


def new_state(data: CSData, players: int, seed: int, options: dict[str, Any]) -> ClansmanState:
    """A new game, at the first decision (the first marriage of round 1)."""
    rng = Rng(seed)
    s = ClansmanState.__new__(ClansmanState)
    s.data = data
    s.n = players
    s.seed = seed
    s.options = options
    s.expert = bool(options.get("expert"))
    s.small_table = options.get("variant") == "small-table"
    s.events = []
    s.history = []
    s._legal = None
    # Century piles, shuffled separately, face down (the top card is the last element).
    s.piles = []
    for century in CENTURIES:
        pile = sorted(data.decks[century])
        rng.shuffle(pile)
        s.piles.append(pile)
    s.supply = []
    s.discard = []
    s.princes = list(data.princes_early)
    s.miyake = 0
    s.miyake_row = 0
    s.heroes = list(data.heroes)
    s.kofun = list(data.kofun) if s.expert else []
    if s.expert:
        variant = tuple(v for v in str(options.get("emperor_variant") or "").split(",") if v)
        s.emperors = emperor_faces(data, str(options.get("emperor_side", "A")), variant)
    else:
        s.emperors = []
    s.emperor_centre = s.emperors[:]
    s.set_aside = []
    # Tableaux: Kochisei-Shuraku, a random starting clan, 4 Tadokoro each, the daughter.
    starting = list(data.starting_clans)
    rng.shuffle(starting)
    rules = data.rules
    s.players = []
    for p in range(players):
        g = Gozoku()
        g.clans = [KOCHISEI, starting[p]]
        g.tadokoro = rules.start_tadokoro
        s.players.append(g)
    s.bank_tadokoro = rules.tadokoro_cards - players * rules.start_tadokoro
    s.daughters = [None] * players
    start = options.get("start_player")
    s.start = int(start) if start is not None else rng.below(players)
    s.rng = rng
    s.round = 1
    s.phase = "marriage"
    s.turn = 0
    s.step = "marry"
    s.pool = [0] * VOLATILE
    s.usable = []
    s.used = []
    s.lock = 0
    s.pending = None
    mode = "Expert, Emperor side " + str(options.get("emperor_side", "A")) if s.expert \
        else "Beginner"
    s.events.append(
        f"setup: {players} players ({mode}"
        + (", UNOFFICIAL small-table variant" if s.small_table else "") + "); starting clans "
        + ", ".join(f"{s.name(p)} {data.cards[starting[p]].label}" for p in range(players))
        + f"; start player {s.name(s.start)}"
        + (f"; Emperor cards {', '.join(s.emperors)}" if s.emperors else "")
        + (" (UNOFFICIAL R32 variant)" if options.get("emperor_variant") else ""))
    s._prepare()
    s._advance()
    return s
