"""Is a state read from JSON one the rules could have reached? RecordError naming what is not.

`WhiteCastleState.from_json` converts the types of the fields; this module checks that
the values fit together, verifying on the loaded state the invariants the engine keeps
after every action (those tests/white_castle/test_invariants.py asserts, and more):

- dice: 3/4/5 per colour (by player count; solo as 2 players) on the bridges, the
  spaces, the domain rows and in hand, each 1-6, bridges ascending, spaces not over-full,
  and the dice placed so far agreeing with each clan's placement count;
- clans: coins and CP >= 0, seals 0-5, resources 0-7, Passage of Time 0-20, the 5
  courtiers, gardeners and warriors of each kind conserved (left + sent out), courtiers
  at locations 0-6, warriors in yards 0-2, at most one gardener per clan per garden,
  stacking order distinct, Daimyo slots held only by clans with a courtier there;
- cards: every castle card in play (stewards, diplomats) in exactly one place among the
  rooms, the decks, the clans' action cards and Lantern Areas and the discard, no card
  of the wrong deck or out of play anywhere; starting cards not duplicated; known ids;
- board: room tiles 3/3/3/2/2 colours with at least two colours a room and, with the Well
  tiles, the 15 die tiles; 6 distinct gardens (plant, stone under each bridge); a known
  Daimyo card; valid yard effects;
- the decision: round 1-3, a known phase, turn order a permutation, the draft and the
  held die fitting the stack, every stack frame of a known kind and shape for a seat
  (no block, worker or garden offered twice),
  and (unless the game is over) at least one legal action.

It runs once per load, not per move (about a hundred microseconds).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, NoReturn

from kamon.core.errors import RecordError
from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import COLOURS, GAIN_KINDS, WCData
from kamon.games.white_castle.frames import FRAMES, Draft, Place

if TYPE_CHECKING:
    from kamon.games.white_castle.state import WhiteCastleState

PHASES = ("draft", "play", "gardens", "over")
ROUNDS = 3
WORKERS_PER_KIND = 5
MAX_SEALS = 5
MAX_RESOURCE = 7
MAX_PASSAGE = 20
DICE_PER_ROUND = 3  # each clan places 3 dice a round (the last 3 dice stay on the bridges)
ROOM_SIZES = tuple(A.ROOM_BLOCKS)
OPTIONS = frozenset({"first_game", "data_overlay", "difficulty"})
LONE = frozenset({"courtier", "gardener", "warrior", "lantern", "well", "light", "domain"})
# Frame kind -> how many fields it has (kind and seat included).
FRAME_SIZES = {kind: len(cls._fields) for kind, cls in FRAMES.items()}
SOLO_FRAMES = frozenset({"rival_room", "rival_garden", "rival_turn", "rival_actions"})


class _Tables:
    """What the checks read from one game's data, computed once per data object."""

    def __init__(self, d: WCData) -> None:
        """Castle cards in play (by clan count), die-tile colours, Solitaire icons."""
        self.data = d  # keeps the object (whose id keys the cache) alive
        self.castle = frozenset(d.stewards) | frozenset(d.diplomats)
        self.in_play: dict[bool, dict[str, str]] = {}
        for small in (False, True):
            deck = {cid: "steward" for cid, c in d.stewards.items() if not (small and c.diamond)}
            deck.update((cid, "diplomat") for cid, c in d.diplomats.items()
                        if not (small and c.diamond))
            self.in_play[small] = deck
        self.stewards = {small: frozenset(c for c, k in self.in_play[small].items()
                                          if k == "steward") for small in (False, True)}
        self.diplomats = {small: frozenset(c for c, k in self.in_play[small].items()
                                           if k == "diplomat") for small in (False, True)}
        self.tile_colour = {t: COLOURS.index(colour) for t, (colour, _) in d.die_tiles.items()}
        self.tiles_per_colour = Counter(self.tile_colour.values())
        self.icons = frozenset(a for card in d.solo_deck.values() for a in card.actions)
        self.solo_deck = sorted(d.solo_deck)


_TABLES: dict[int, _Tables] = {}


def _tables(d: WCData) -> _Tables:
    """The cached tables of a data object (load_data caches the objects themselves)."""
    tables = _TABLES.get(id(d))
    if tables is None or tables.data is not d:
        if len(_TABLES) > 32:
            _TABLES.clear()
        tables = _TABLES[id(d)] = _Tables(d)
    return tables


def _fail(problem: str) -> NoReturn:
    """Refuse the state, saying what is inconsistent."""
    raise RecordError(f"not a White Castle state: {problem}")


def check_state(s: WhiteCastleState) -> None:
    """Raise RecordError naming the first inconsistency of a state read from JSON."""
    _check_setup(s)
    _check_board(s)
    _check_dice(s)
    _check_clans(s)
    _check_cards(s)
    _check_stack(s)
    _check_legal(s)


def _is_int(x: Any) -> bool:
    """A JSON integer (not a boolean)."""
    return isinstance(x, int) and not isinstance(x, bool)


def _seat_ok(s: WhiteCastleState, q: Any) -> bool:
    """q is a clan index of this game."""
    return _is_int(q) and 0 <= q < s.n


def _check_setup(s: WhiteCastleState) -> None:
    """Player count, rival, options, round, phase, turn order and history fit together."""
    if s.rival is None and not 2 <= s.n <= 4:
        _fail(f"{s.n} players (2-4, or a solo game: 2 clans with the rival 1)")
    if s.rival is not None and (s.n != 2 or s.rival != 1):
        _fail(f"the solo rival is clan {s.rival} of {s.n}; a solo game has 2 clans, the "
              "rival being clan 1")
    for name, got in (("clans", len(s.clans)), ("placements", len(s.placements))):
        if got != s.n:
            _fail(f"{s.n} players but {got} {name}")
    unknown = set(s.options) - OPTIONS
    if unknown:
        _fail(f"unknown option(s) {', '.join(sorted(unknown))} (known: "
              f"{', '.join(sorted(OPTIONS))})")
    difficulty = s.options.get("difficulty")
    if (difficulty is not None) != (s.rival is not None):
        _fail("the difficulty option and the solo rival go together"
              + (f" (difficulty {difficulty!r} without a rival)" if difficulty else ""))
    if difficulty is not None and difficulty not in s.data.solo_difficulty:
        _fail(f"unknown solo difficulty {difficulty!r}")
    if not _is_int(s.round) or not 1 <= s.round <= ROUNDS:
        _fail(f"round {s.round} (rounds are 1-{ROUNDS})")
    if s.phase not in PHASES:
        _fail(f"unknown phase {s.phase!r} (known: {', '.join(PHASES)})")
    if s.phase == "draft" and s.round != 1:
        _fail(f"the starting-pair draft in round {s.round}")
    if s.phase == "over" and s.round != ROUNDS:
        _fail(f"the game is over in round {s.round} (it ends after round {ROUNDS})")
    if s.phase == "gardens" and s.round == ROUNDS:
        _fail(f"a gardens phase after round {ROUNDS} (the game ends instead)")
    if sorted(s.order) != list(range(s.n)):
        _fail(f"turn order {s.order} is not an order of the seats 0-{s.n - 1}")
    if s.turn_idx < 0:
        _fail(f"turn index {s.turn_idx}")
    for aid in s.history:
        if not 0 <= aid < A.NUM_ACTIONS:
            _fail(f"history holds action id {aid} (ids are 0-{A.NUM_ACTIONS - 1})")


def _effect_ok(e: Any) -> bool:
    """The shape of one effect tuple (see data.py) is valid."""
    if not isinstance(e, tuple) or not e:
        return False
    kind = e[0]
    if kind in LONE:
        return len(e) == 1
    if kind == "gain":
        return len(e) == 2 and isinstance(e[1], tuple) and bool(e[1]) and all(
            isinstance(g, tuple) and len(g) == 2 and g[0] in GAIN_KINDS and _is_int(g[1])
            and g[1] > 0 for g in e[1])
    if kind in ("choice", "passage"):
        return len(e) == 2 and _is_int(e[1]) and e[1] > 0
    if kind == "die_tile":
        return len(e) == 2 and e[1] in (*COLOURS, "any")
    if kind == "pay":
        return len(e) == 3 and _cost_ok(e[1]) and _effect_ok(e[2])
    return False


def _cost_ok(cost: Any) -> bool:
    """A pay cost: ((coin|seal, n > 0), ...)."""
    return isinstance(cost, tuple) and bool(cost) and all(
        isinstance(c, tuple) and len(c) == 2 and c[0] in ("coin", "seal") and _is_int(c[1])
        and c[1] > 0 for c in cost)


def _check_board(s: WhiteCastleState) -> None:
    """Room tiles, Well tiles, gardens, the Daimyo card and its slots, the training yards."""
    d = s.data
    if len(s.room_tiles) != len(ROOM_SIZES):
        _fail(f"{len(s.room_tiles)} rooms of die tiles instead of {len(ROOM_SIZES)}")
    for r, tiles in enumerate(s.room_tiles):
        if len(tiles) != ROOM_SIZES[r]:
            _fail(f"{A.ROOMS[r]} has {len(tiles)} die tiles instead of {ROOM_SIZES[r]}")
        if any(not 0 <= c < len(COLOURS) for c in tiles):
            _fail(f"{A.ROOMS[r]} has die-tile colours {list(tiles)} (colours are 0-2: "
                  f"{', '.join(COLOURS)})")
        if len(set(tiles)) < 2:
            _fail(f"{A.ROOMS[r]} shows one die colour only ({COLOURS[tiles[0]]}); a room "
                  "shows at least two")
    well = s.well_tiles
    if any(t not in d.die_tiles for t in well) or well[0] == well[1]:
        _fail(f"the Well tiles {list(well)} are not two different die tiles")
    if s.options.get("first_game") and tuple(well) != tuple(d.first_game_well):
        _fail(f"a first game with the Well tiles {list(well)} (the first game uses "
              f"{', '.join(d.first_game_well)})")
    tables = _tables(d)
    laid = Counter(c for tiles in s.room_tiles for c in tiles)
    laid.update(tables.tile_colour[t] for t in well)
    have = tables.tiles_per_colour
    if laid != have:
        _fail("the die tiles in the rooms and the Well are "
              + ", ".join(f"{laid[c]} {COLOURS[c]}" for c in range(3)) + "; the game has "
              + ", ".join(f"{have[c]} {COLOURS[c]}" for c in range(3)))
    gardens = s.garden_cards
    if len(gardens) != 6 or len(set(gardens)) != 6 or any(g not in d.gardens for g in gardens):
        _fail(f"the garden cards {gardens} are not 6 different known gardens")
    for g, gid in enumerate(gardens):
        want = "plant" if g % 2 == 0 else "stone"
        if d.gardens[gid].kind != want:
            _fail(f"the {A.GARDEN_SLOTS[g]} garden is {gid}, a {d.gardens[gid].kind} card")
    if len(s.garden_workers) != 6:
        _fail(f"{len(s.garden_workers)} lists of garden workers instead of 6")
    for g, workers in enumerate(s.garden_workers):
        if any(not _seat_ok(s, q) for q in workers) or len(set(workers)) != len(workers):
            _fail(f"the {A.GARDEN_SLOTS[g]} garden holds gardeners of {workers} (seats "
                  f"0-{s.n - 1}, at most one each)")
    if s.daimyo_card not in d.daimyo:
        _fail(f"unknown Daimyo card {s.daimyo_card!r}")
    if len(s.daimyo_slots) != 3:
        _fail(f"{len(s.daimyo_slots)} slots of the Daimyo's favour instead of 3")
    for k, holder in enumerate(s.daimyo_slots):
        if holder is not None and not _seat_ok(s, holder):
            _fail(f"slot {k + 1} of the Daimyo's favour is held by {holder!r}, not a seat "
                  f"(0-{s.n - 1})")
    if len(s.yard_effects) != len(d.yard_costs) or any(
            not isinstance(y, tuple) or not all(_effect_ok(e) for e in y)
            for y in s.yard_effects):
        _fail(f"the training yards' effects {s.yard_effects} are not {len(d.yard_costs)} "
              "lists of effects")


def _check_dice(s: WhiteCastleState) -> None:
    """Dice per colour conserved, values 1-6, bridges ascending, spaces and placements fit."""
    per = s.data.dice_per_colour[s.n]
    count = [0, 0, 0]

    def die(where: str, colour: Any, value: Any) -> None:
        """Count one die, refusing a bad colour or value."""
        if not _is_int(colour) or not 0 <= colour < 3:
            _fail(f"a die of colour {colour!r} on {where} (colours are 0-2)")
        if not _is_int(value) or not 1 <= value <= 6:
            _fail(f"a {COLOURS[colour]} die showing {value!r} on {where} (dice show 1-6)")
        count[colour] += 1

    if len(s.bridges) != 3 or len(s.lone_left) != 3:
        _fail(f"{len(s.bridges)} bridges (and {len(s.lone_left)} lone-die sides) instead of 3")
    for b, dice in enumerate(s.bridges):
        for v in dice:
            die(f"the {COLOURS[b]} bridge", b, v)
        if dice != sorted(dice):
            _fail(f"the {COLOURS[b]} bridge {dice} is not in ascending order")
    if len(s.spaces) != 8:
        _fail(f"{len(s.spaces)} die spaces instead of 8")
    placed = 0
    for sp, stack in enumerate(s.spaces):
        for colour, v in stack:
            die(A.SPACES[sp], colour, v)
        placed += len(stack)
        if sp != A.SP_WELL and len(stack) > s.max_dice():
            _fail(f"{A.SPACES[sp]} holds {len(stack)} dice (at most {s.max_dice()} with "
                  f"{s.n} clans)")
    for p, c in enumerate(s.clans):
        if len(c.domain) != 3:
            _fail(f"{s.name(p)}'s domain has {len(c.domain)} rows instead of 3")
        for row, dv in enumerate(c.domain):
            if dv is not None:
                if dv[0] != row:
                    _fail(f"{s.name(p)}'s {COLOURS[row]} row holds a die of colour {dv[0]}")
                die(f"{s.name(p)}'s {COLOURS[row]} row", dv[0], dv[1])
                placed += 1
    if s.held is not None:
        die("hand", s.held[0], s.held[1])
    for b in range(3):
        if count[b] != per:
            _fail(f"{count[b]} {COLOURS[b]} dice in play (bridge, spaces, domain rows and "
                  f"hand); {s.n} clans play with {per} of each colour")
    per_round = 3 * per - DICE_PER_ROUND
    want = (s.round - 1) * per_round + placed
    if sum(s.placements) != want:
        _fail(f"the clans have placed {sum(s.placements)} dice ({s.placements}); the board "
              f"shows {want} by round {s.round}")
    for p, k in enumerate(s.placements):
        if not DICE_PER_ROUND * (s.round - 1) <= k <= DICE_PER_ROUND * s.round:
            _fail(f"{s.name(p)} has placed {k} dice by round {s.round} ({DICE_PER_ROUND} a "
                  "round)")
    if (s.held is not None) != bool(s.stack and isinstance(s.stack[-1], Place)):
        _fail("a die in hand without a 'place' decision" if s.held is not None else
              "a 'place' decision without a die in hand")
    if any(not 0 <= b < 3 for b in s.fired) or len(set(s.fired)) != len(s.fired):
        _fail(f"the domain rows fired this turn {s.fired} are not distinct colours 0-2")


def _check_clans(s: WhiteCastleState) -> None:
    """Stores in range, 5 workers of each kind per clan conserved, pieces on real places."""
    yards = len(s.data.yard_costs)
    seqs = []
    for p, c in enumerate(s.clans):
        who = s.name(p)
        if c.coins < 0:
            _fail(f"{who} has {c.coins} coins")
        if c.cp < 0:
            _fail(f"{who} has {c.cp} CP")
        if not 0 <= c.seals <= MAX_SEALS:
            _fail(f"{who} has {c.seals} Daimyo seals (0-{MAX_SEALS})")
        if len(c.res) != 3 or any(not 0 <= r <= MAX_RESOURCE for r in c.res):
            _fail(f"{who} has resources {c.res} (food, iron, pearl: 0-{MAX_RESOURCE} each)")
        if not 0 <= c.pos <= MAX_PASSAGE or c.pos >= len(s.data.passage_cp):
            _fail(f"{who} is at {c.pos} on the Passage of Time (0-{MAX_PASSAGE})")
        if len(c.left) != 3 or any(not 0 <= k <= WORKERS_PER_KIND for k in c.left):
            _fail(f"{who} has {c.left} workers left (courtiers, gardeners, warriors: "
                  f"0-{WORKERS_PER_KIND} each)")
        gardeners = sum(w.count(p) for w in s.garden_workers)
        for kind, left, out in (("courtiers", c.left[0], len(c.courtiers)),
                                ("gardeners", c.left[1], gardeners),
                                ("warriors", c.left[2], len(c.warriors))):
            if left + out != WORKERS_PER_KIND:
                _fail(f"{who} has {left} {kind} in the domain and {out} sent out: "
                      f"{left + out}, not {WORKERS_PER_KIND}")
        if any(not 0 <= loc < len(A.LOCS) for loc in c.courtiers):
            _fail(f"{who}'s courtiers are at {c.courtiers} (locations 0-{len(A.LOCS) - 1}: "
                  f"{', '.join(A.LOCS)})")
        if any(not 0 <= y < yards for y in c.warriors):
            _fail(f"{who}'s warriors are in yards {c.warriors} (yards 0-{yards - 1})")
        slots = sum(1 for h in s.daimyo_slots if h == p)
        if slots > c.courtiers.count(len(A.LOCS) - 1):
            _fail(f"{who} holds {slots} slot(s) of the Daimyo's favour with "
                  f"{c.courtiers.count(len(A.LOCS) - 1)} courtier(s) in the Daimyo's room")
        if not 1 <= c.seq <= s.seq_counter:
            _fail(f"{who}'s stacking order {c.seq} is outside 1-{s.seq_counter}")
        seqs.append(c.seq)
    if len(set(seqs)) != len(seqs):
        _fail(f"two influence markers share a stacking order ({seqs})")


def _check_cards(s: WhiteCastleState) -> None:
    """Castle cards each in one place and of the right deck; starting cards not doubled."""
    d = s.data
    small = s.n <= 2
    tables = _tables(d)
    in_play = tables.in_play[small]
    if len(s.room_cards) != 5:
        _fail(f"{len(s.room_cards)} castle room cards instead of 5")
    if s.discarded and s.rival is None:
        _fail("castle cards discarded by a rival in a game without one")
    starts: Counter[str] = Counter()
    resources: Counter[str] = Counter()
    held: list[tuple[Any, str]] = []  # castle cards on the clans' boards, and where
    for p, c in enumerate(s.clans):
        who = s.name(p)
        if c.card is not None:
            if c.card in d.start_actions:
                starts[c.card] += 1
            else:
                held.append((c.card, f"{who}'s action card"))
        elif p != s.rival and (s.phase != "draft" or s.rival is not None):
            _fail(f"{who} has no action card after the draft")
        decrees: Counter[str] = Counter()
        want: Counter[str] = Counter()
        first = 0
        for cid in c.lantern:
            if cid in d.start_resources:
                resources[cid] += 1
                first += 1
                decree = d.start_resources[cid][1]
                if decree:
                    want[decree] += 1
            elif cid in d.decrees:
                decrees[cid] += 1
            elif cid in d.start_actions:
                starts[cid] += 1
            else:
                held.append((cid, f"{who}'s Lantern Area"))
        if decrees != want:
            _fail(f"{who}'s Lantern Area holds the decrees {sorted(decrees.elements())}; its "
                  f"starting resource card brings {sorted(want.elements()) or 'none'}")
        if first != (0 if c.card is None else 1):
            _fail(f"{who} has {first} starting resource card(s) in the Lantern Area "
                  + ("before choosing a starting pair" if c.card is None else "(one per clan)"))
    rooms = s.room_cards
    every = rooms + s.steward_deck + s.diplomat_deck + s.discarded + [h[0] for h in held]
    stewards, diplomats = tables.stewards[small], tables.diplomats[small]
    if not (len(every) == len(in_play) and set(every) == in_play.keys()
            and stewards.issuperset(rooms[:3]) and diplomats.issuperset(rooms[3:])
            and stewards.issuperset(s.steward_deck) and diplomats.issuperset(s.diplomat_deck)):
        _diagnose_castle(s, tables, held)
    _check_starting_cards(s, starts, resources)


def _diagnose_castle(s: WhiteCastleState, tables: _Tables, held: list[tuple[Any, str]]
                     ) -> NoReturn:
    """Name what is wrong with the castle cards' places (called once something is)."""
    in_play = tables.in_play[s.n <= 2]
    places: dict[str, list[str]] = {}

    def put(cid: Any, where: str, deck: str | None = None) -> None:
        """Record where a castle card lies, refusing a card of another deck or out of play."""
        if cid not in in_play:
            _fail(f"{where} holds {cid!r}, which is "
                  + ("not in play with 2 clans (a diamond card)" if cid in tables.castle
                     else "no castle card"))
        if deck is not None and in_play[cid] != deck:
            _fail(f"{where} holds {cid}, a {in_play[cid]} card")
        places.setdefault(cid, []).append(where)

    for r, cid in enumerate(s.room_cards):
        put(cid, A.ROOMS[r], "steward" if r < 3 else "diplomat")
    for cid in s.steward_deck:
        put(cid, "the steward deck", "steward")
    for cid in s.diplomat_deck:
        put(cid, "the diplomat deck", "diplomat")
    for cid in s.discarded:
        put(cid, "the discarded cards")
    for cid, where in held:
        put(cid, where)
    for cid in in_play:
        found = places.get(cid)
        if not found:
            _fail(f"castle card {cid} is nowhere (not in a room, a deck, a clan's action card "
                  "or Lantern Area, or discarded)")
        if len(found) > 1:
            _fail(f"castle card {cid} is in {len(found)} places: {' and '.join(found)}")
    _fail("the castle cards are misplaced")  # pragma: no cover - one check above fails


def _check_starting_cards(s: WhiteCastleState, starts: Counter[str],
                          resources: Counter[str]) -> None:
    """Draft pairs (or the Solitaire deck) fit the game; no starting card is doubled."""
    d = s.data
    if s.rival is not None:
        if s.draft_pairs:
            _fail("starting pairs to draft in a solo game")
        if sorted(s.solo_deck) != _tables(d).solo_deck:
            _fail(f"the Solitaire deck {s.solo_deck} is not the {len(d.solo_deck)} Solitaire "
                  "cards once each")
    else:
        if s.solo_deck:
            _fail("a Solitaire deck in a game without the rival")
        if len(s.draft_pairs) != s.n + 1:
            _fail(f"{len(s.draft_pairs)} starting pairs; {s.n} players draft from {s.n + 1}")
        picked = sum(1 for c in s.clans if c.card is not None)
        if sum(1 for pair in s.draft_pairs if pair is None) != picked:
            _fail(f"{picked} clans have chosen a starting pair but "
                  f"{sum(1 for x in s.draft_pairs if x is None)} pairs are taken")
        for pair in s.draft_pairs:
            if pair is not None:
                if pair[0] not in d.start_resources or pair[1] not in d.start_actions:
                    _fail(f"the starting pair {list(pair)} is not a starting resource card "
                          "with a starting action card")
                resources[pair[0]] += 1
                starts[pair[1]] += 1
    for cid, k in resources.items():
        if k > 1:
            _fail(f"starting resource card {cid} is in {k} places")
    for cid, k in starts.items():
        if k > d.start_action_copies[cid]:
            _fail(f"starting action card {cid} is in {k} places (the game has "
                  f"{d.start_action_copies[cid]})")


def _check_frame(s: WhiteCastleState, raw: Any, top: bool) -> None:
    """One decision frame: a known kind, its fields well-formed, for a seat that decides."""
    if not isinstance(raw, tuple) or not raw or raw[0] not in FRAME_SIZES:
        _fail(f"unknown decision frame {raw!r} (kinds: {', '.join(FRAME_SIZES)})")
    if len(raw) != FRAME_SIZES[raw[0]]:
        _fail(f"the decision frame {raw!r} has {len(raw)} fields; {raw[0]!r} frames have "
              f"{FRAME_SIZES[raw[0]]}")
    f = FRAMES[raw[0]]._make(raw)
    kind = f.kind
    p = f.seat
    if not _seat_ok(s, p):
        _fail(f"the decision frame {f!r} is for {p!r}, not a seat (0-{s.n - 1})")
    if p == s.rival:
        _fail(f"the decision frame {f!r} is for the solo rival (clan {p}), which never "
              "decides")
    if kind in SOLO_FRAMES and s.rival is None:
        _fail(f"the decision frame {f!r} belongs to the solo game, which this is not")
    ok = True
    offered: tuple[Any, ...] = ()  # blocks, workers or gardens offered (each at most once)
    if f.kind == "effects":
        ok = isinstance(f.effects, tuple) and 0 < len(f.effects) <= A.MAX_EFFECTS and all(
            _effect_ok(e) for e in f.effects) and isinstance(f.source, str)
    elif f.kind == "choice":
        ok = _is_int(f.remaining) and f.remaining > 0
    elif f.kind == "checkpoint":
        ok = _is_int(f.steps) and f.steps > 0 and _is_int(f.cost) and f.cost > 0
    elif f.kind == "blocks":
        ok = isinstance(f.options, tuple) and all(_block_ok(s, p, o) for o in f.options) \
            and isinstance(f.multi, bool) and isinstance(f.optional, bool) \
            and isinstance(f.label, str)
        offered = f.options
    elif f.kind == "outside":
        ok = isinstance(f.workers, tuple) and all(_is_int(w) and 0 <= w < 3 for w in f.workers)
        offered = f.workers
    elif f.kind == "courtier":
        ok = isinstance(f.audience_done, bool) and isinstance(f.climb_done, bool)
    elif f.kind == "pay":
        ok = _cost_ok(f.cost) and _effect_ok(f.effect)
    elif f.kind == "garden_round" or f.kind == "rival_garden":
        ok = isinstance(f.gardens, tuple) and bool(f.gardens) and all(
            _is_int(g) and 0 <= g < 6 for g in f.gardens) and (
            f.kind != "garden_round" or isinstance(f.fresh, bool))
        offered = f.gardens
    elif f.kind == "rival_room":
        rival = s.clans[s.rival or 0]
        ok = f.floor in (1, 2) and _is_int(f.courtier) and 0 <= f.courtier < len(
            rival.courtiers)
    elif f.kind == "rival_actions":
        icons = _tables(s.data).icons
        ok = isinstance(f.icons, tuple) and all(i in icons for i in f.icons)
    if ok:
        ok = len(set(offered)) == len(offered)
    if not ok:
        _fail(f"the {kind!r} decision frame {f!r} is malformed")
    if top and kind == "place" and s.held is None:
        _fail("a 'place' decision without a die in hand")


def _block_ok(s: WhiteCastleState, p: int, opt: Any) -> bool:
    """A (room or -1 for the own card, block index) option names a block that exists."""
    if not isinstance(opt, tuple) or len(opt) != 2 or not _is_int(opt[0]) or not _is_int(
            opt[1]):
        return False
    r, i = opt
    if not -1 <= r < 5:
        return False
    cid = s.clans[p].card if r < 0 else s.room_cards[r]
    if cid is None:
        return False
    try:
        return 0 <= i < len(s.data.card(cid).blocks)
    except KeyError:
        return False


def _check_stack(s: WhiteCastleState) -> None:
    """Every frame well-formed; who decides fits the phase and the turn."""
    over = s.phase == "over"
    if over and s.stack:
        _fail(f"the game is over but a decision is pending ({s.stack[-1]!r})")
    if not over and not s.stack:
        _fail(f"no decision pending in the {s.phase} phase (the game is not over)")
    for k, f in enumerate(s.stack):
        _check_frame(s, f, k == len(s.stack) - 1)
    if s.phase == "play" and s.rival is None:
        p = s.order[s.turn_idx % s.n]
        for f in s.stack:
            if f.seat != p:
                _fail(f"{s.name(f.seat)} decides ({f.kind}) during {s.name(p)}'s turn "
                      f"(turn {s.turn_idx + 1} of the round)")
    if s.phase == "draft" and s.stack and isinstance(s.stack[-1], Draft):
        picked = sum(1 for c in s.clans if c.card is not None)
        want = s.order[s.n - 1 - picked] if picked < s.n else None
        if s.stack[-1].seat != want:
            _fail(f"{s.name(s.stack[-1].seat)} drafts a starting pair, but after {picked} "
                  "picks it is "
                  + (s.name(want) + "'s turn" if want is not None else "nobody's turn"))
    if any(isinstance(f, Draft) for f in s.stack) and s.phase != "draft":
        _fail(f"a starting-pair draft in the {s.phase} phase")
    if s.phase == "play":
        taken = 3 * s.data.dice_per_colour[s.n] - s.dice_left()
        if not s.turn_idx <= taken <= s.turn_idx + 1:
            _fail(f"turn {s.turn_idx + 1} of the round but {taken} dice taken from the "
                  "bridges")


def _check_legal(s: WhiteCastleState) -> None:
    """Until the end some action is legal (computing them must not fail)."""
    if s.phase == "over":
        return
    try:
        legal = s.legal_ids()
    except Exception as exc:  # any crash means the state does not fit together
        s._legal = None
        _fail(f"the legal actions cannot be computed ({type(exc).__name__}: {exc})")
    if not legal:
        _fail(f"no legal action although the game is not over ({s.decision_text()})")
