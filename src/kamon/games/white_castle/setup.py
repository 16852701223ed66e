"""Setting up The White Castle (rulebook steps 1-13), all randomness from the seed."""

from __future__ import annotations

from typing import Any

from kamon.core.rng import Rng
from kamon.games.white_castle.data import COLOURS, WCData
from kamon.games.white_castle.frames import Effects
from kamon.games.white_castle.state import Clan, WhiteCastleState

# Die-tile slots per room: (room, slot). Diamond slots: one per steward room (inferred
# layout, see PROVENANCE.md: one diamond slot per steward room, numbered slots 1-5 one
# per room, 6-10 completing each room).
DIAMOND_SLOTS = ((0, 0), (1, 0), (2, 0))
SLOTS_1_TO_5 = ((0, 1), (1, 1), (2, 1), (3, 0), (4, 0))
SLOTS_6_TO_10 = ((0, 2), (1, 2), (2, 2), (3, 1), (4, 1))
ROOM_SIZES = (3, 3, 3, 2, 2)


def dark_action(card_blocks: Any) -> str:
    """The worker action of a card's dark block (the seal cost of stewards aside)."""
    for blk in card_blocks:
        if not blk.light:
            e = blk.effects[0]
            return str(e[2][0] if e[0] == "pay" else e[0])
    return ""


def deal_castle(data: WCData, players: int, rng: Rng) -> tuple[list[str], list[str], list[str],
                                                                int]:
    """Steward and diplomat decks shuffled, one card per room; redeal when all five cards
    show the same dark-background action (rulebook step 2). Returns cards, decks, redeals."""
    stewards = sorted(c.id for c in data.stewards.values() if players > 2 or not c.diamond)
    diplomats = sorted(c.id for c in data.diplomats.values() if players > 2 or not c.diamond)
    redeals = 0
    while True:
        rng.shuffle(stewards)
        rng.shuffle(diplomats)
        rooms = stewards[-3:][::-1] + diplomats[-2:][::-1]
        kinds = {dark_action(data.card(c).blocks) for c in rooms}
        if len(kinds) > 1:
            return rooms, stewards[:-3], diplomats[:-2], redeals
        redeals += 1


def room_ok(colours: list[int]) -> bool:
    """A full room must show at least two die colours."""
    return len(set(colours)) >= 2


def lay_die_tiles(data: WCData, rng: Rng, first_game: bool
                  ) -> tuple[list[tuple[int, ...]], tuple[str, str]]:
    """Lay the 15 die tiles per rulebook step 4 (or the first-game Well tiles)."""
    colour_of = {t: COLOURS.index(c) for t, (c, _) in data.die_tiles.items()}
    while True:
        pool = sorted(data.die_tiles)
        well_fixed: list[str] = []
        if first_game:
            well_fixed = list(data.first_game_well)
            pool = [t for t in pool if t not in well_fixed]
        rng.shuffle(pool)
        slots: dict[tuple[int, int], str] = {}
        for col, slot in zip(_shuffled(rng, [0, 1, 2]), DIAMOND_SLOTS, strict=True):
            tile = next(t for t in pool if colour_of[t] == col)
            pool.remove(tile)
            slots[slot] = tile
        queue = pool
        for slot in SLOTS_1_TO_5:
            slots[slot] = queue.pop(0)
        ok = True
        for _ in range(5):
            tile = queue.pop(0)
            for slot in SLOTS_6_TO_10:
                if slot in slots:
                    continue
                room = slot[0]
                cols = [colour_of[slots[(room, i)]] for i in range(ROOM_SIZES[room] - 1)]
                if room_ok(cols + [colour_of[tile]]):
                    slots[slot] = tile
                    break
            else:
                ok = False
                break
        if not ok:
            continue
        well = well_fixed or queue[:2]
        rooms = [tuple(colour_of[slots[(r, i)]] for i in range(ROOM_SIZES[r])) for r in range(5)]
        return rooms, (well[0], well[1])


def _shuffled(rng: Rng, items: list[int]) -> list[int]:
    items = items[:]
    rng.shuffle(items)
    return items


def new_state(data: WCData, players: int, seed: int, options: dict[str, Any]) -> WhiteCastleState:
    """A new game, at the first decision (the first starting-pair pick).

    players == 1 is the solo game against the Tokugawa rival: a 2-player setup in which
    clan 1 is the rival (options["difficulty"]: easy, medium or hard).
    """
    rng = Rng(seed)
    s = WhiteCastleState.__new__(WhiteCastleState)
    s.data = data
    solo_game = players == 1
    players = 2 if solo_game else players
    s.rival = 1 if solo_game else None
    s.discarded = []
    s.n = players
    s.seed = seed
    s.options = options
    s.events = []
    s.history = []
    s._legal = None
    # Castle (steps 2-4).
    s.room_cards, s.steward_deck, s.diplomat_deck, redeals = deal_castle(data, players, rng)
    if redeals:
        s.log(f"castle cards re-dealt {redeals} time(s): all showed the same "
                        "dark-background action")
    s.daimyo_card = rng.choice(sorted(data.daimyo))
    s.daimyo_slots = [None, None, None]
    s.room_tiles, s.well_tiles = lay_die_tiles(data, rng, bool(options.get("first_game")))
    s.round = 1
    # Bridges (step 7).
    per = data.dice_per_colour[players]
    s.bridges = [sorted(rng.randint(1, 6) for _ in range(per)) for _ in range(3)]
    s.lone_left = [True, True, True]
    s.spaces = [[] for _ in range(8)]
    s.held = None
    # Gardens (step 8): a plant and a stone card under each bridge.
    plants = sorted(g.id for g in data.gardens.values() if g.kind == "plant")
    stones = sorted(g.id for g in data.gardens.values() if g.kind == "stone")
    rng.shuffle(plants)
    rng.shuffle(stones)
    s.garden_cards = [plants[b // 2] if b % 2 == 0 else stones[b // 2] for b in range(6)]
    s.garden_workers = [[] for _ in range(6)]
    # Training yards (step 9): 4 of the 8 tiles, the printed side up per slot.
    tiles = sorted(data.yard_tiles)
    rng.shuffle(tiles)
    yard_effects = []
    k = 0
    for faces in data.yard_faces:
        effects: list[Any] = []
        for face in faces:
            effects.extend(data.yard_tiles[tiles[k]][face])
            k += 1
        yard_effects.append(tuple(effects))
    s.yard_effects = yard_effects
    # Players (steps 10-11): influence markers stacked at random; herons copy the order.
    s.clans = [Clan() for _ in range(players)]
    s.order = _shuffled(rng, list(range(players)))
    for rank, p in enumerate(s.order):
        s.clans[p].seq = players - rank  # top of the stack (first player) highest
    s.seq_counter = players
    s.placements = [0] * players
    s.solo_deck = []
    # Starting pairs (step 12): players + 1 resource cards, a random action card under each.
    resources = sorted(data.start_resources)
    rng.shuffle(resources)
    action_cards = [cid for cid in sorted(data.start_actions)
                    for _ in range(data.start_action_copies[cid])]
    rng.shuffle(action_cards)
    s.draft_pairs = [] if solo_game else [(resources[i], action_cards[i])
                                          for i in range(players + 1)]
    s.phase = "draft"
    s.turn_idx = 0
    s.fired = []
    s.stack = []
    s.rng = rng
    s.log(
        f"setup: {players} players; turn order "
        + ", ".join(s.name(p) for p in s.order) + "; castle "
        + ", ".join(s.room_cards) + f"; {s.daimyo_card}; Well tiles "
        + " + ".join(s.well_tiles))
    if solo_game:
        _solo_setup(s, data, rng, str(options.get("difficulty", "medium")))
    s._advance()
    return s


def _solo_setup(s: WhiteCastleState, data: WCData, rng: Rng, difficulty: str) -> None:
    """Solo changes: a random starting pair for the player; the rival's CP, heron and
    Passage of Time by difficulty; the Solitaire deck shuffled."""
    cp, heron, passage = data.solo_difficulty[difficulty]
    human, rival = 0, 1
    s.order = [rival, human] if heron == 1 else [human, rival]
    rc = s.clans[rival]
    rc.cp = cp
    rc.pos = passage
    for rank, p in enumerate(s.order):
        s.clans[p].seq = 2 - rank
    resources = sorted(data.start_resources)
    rng.shuffle(resources)
    action_cards = [cid for cid in sorted(data.start_actions)
                    for _ in range(data.start_action_copies[cid])]
    rng.shuffle(action_cards)
    s.draft_pairs = []
    s.solo_deck = sorted(data.solo_deck)
    rng.shuffle(s.solo_deck)
    c = s.clans[human]
    c.card = action_cards[0]
    on_take, decree, _ = data.start_resources[resources[0]]
    c.lantern.append(resources[0])
    if decree:
        c.lantern.append(decree)
    recon = sum(card.reconstructed for card in data.solo_deck.values())
    s.log(f"solo game, {difficulty}: the Tokugawa rival starts with {cp} CP, "
                    f"{'first' if heron == 1 else 'second'} in turn order, at {passage} on the "
                    f"Passage of Time; Solitaire deck: {recon} of its 18 card faces are "
                    "kamon's reconstruction (the printed cards' text is not public)")
    s.log(f"blue draws {resources[0]} with {action_cards[0]}"
                    + (f" and {decree}" if decree else ""))
    if on_take:
        s.stack.append(Effects(human, tuple(on_take), resources[0]))
