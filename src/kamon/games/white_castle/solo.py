"""The Tokugawa clan's visit: the solitaire rival's turn, its icons and its round end.

The rival is a second clan that never decides: its turn is driven by the Solitaire
deck (data `solo.cards.contents`). Where the rulebook says "you choose" on the
rival's behalf (which room its climbing courtier empties, a tie between gardens),
the solo player decides, through the `rival_room` / `rival_garden` frames.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import COLOURS
from kamon.games.white_castle.frames import RivalGarden, RivalRoom
from kamon.games.white_castle.names import SPACE_NAMES

if TYPE_CHECKING:
    # The state with its rules (turns.py calls in here with itself; WhiteCastleState is one).
    from kamon.games.white_castle.turns import Turns

RIVAL_NAME = "tokugawa"
MAX_REVEALS = 30  # the deck always names a takeable die well within two passes


def die_index(state: Turns, b: int, position: str) -> int | None:
    """Index of the die at `position` (left/center/right) of bridge b, or None if empty."""
    dice = state.bridges[b]
    k = len(dice)
    if k == 0:
        return None
    if k == 1:
        at_left = state.lone_left[b]
        return 0 if position == ("left" if at_left else "right") else None
    if position == "left":
        return 0
    if position == "right":
        return k - 1
    return 1 if k == 3 else None


def top_face(state: Turns) -> tuple[int, str, int] | None:
    """The Bridge side of the Solitaire deck's top card (die colour, bridge position,
    destination), or None without a rival or a deck. The deck is kept Bridge side up
    (rulebook: "leave it on the table with the Bridge side up"; "look at the top card on
    the deck"), so this face is public. It is the card the rival turns over first on its
    next turn; right after a rival's turn it is the card that named the die just taken."""
    if state.rival is None or not state.solo_deck:
        return None
    card = state.data.solo_deck[state.solo_deck[0]]
    return card.colour, card.position, card.destination


def top_face_view(state: Turns) -> dict[str, Any] | None:
    """The public top face as view data (no card id: the id would name the hidden action
    side too)."""
    face = top_face(state)
    if face is None:
        return None
    colour, position, dest = face
    return {"colour": colour, "colour_name": COLOURS[colour], "position": position,
            "destination": dest, "destination_name": SPACE_NAMES[dest]}


def keep_top_face(state: Turns, face: tuple[int, str, int] | None) -> None:
    """After re-sampling the deck's order, put on top a card showing `face` (the public
    top face before the re-sampling), so a sample never contradicts what is seen."""
    if face is None:
        return
    deck = state.solo_deck
    cards = state.data.solo_deck
    for i, cid in enumerate(deck):
        card = cards[cid]
        if (card.colour, card.position, card.destination) == face:
            deck.insert(0, deck.pop(i))
            return
    raise ValueError(f"no Solitaire card shows the top face {face}")


def reveal(state: Turns) -> tuple[list[str], str, int]:
    """Flip cards into a row until the deck's top card names a die on its bridge.

    Returns the revealed row, the top card that names the die, and the die's index.
    """
    deck = state.solo_deck
    cards = state.data.solo_deck
    row: list[str] = []
    for _ in range(MAX_REVEALS):
        if not deck:  # every card revealed: they go under, and the search goes on
            deck.extend(row)
            row.clear()
        row.append(deck.pop(0))
        if not deck:
            continue
        top = cards[deck[0]]
        idx = die_index(state, top.colour, top.position)
        if idx is not None:
            return row, deck[0], idx
    raise RuntimeError("the Solitaire deck named no die that is on the bridges")


def rival_turn(state: Turns) -> tuple[tuple[Any, ...], ...]:
    """The rival takes and moves a die; returns the icons it must now perform, in order."""
    rival = state.rival
    assert rival is not None
    row, top_id, idx = reveal(state)
    top = state.data.solo_deck[top_id]
    b = top.colour
    dice = state.bridges[b]
    if len(dice) == 2:
        state.lone_left[b] = idx == 1
    value = dice.pop(idx)
    dest = top.destination
    where = SPACE_NAMES[dest]
    if dest != A.SP_WELL and len(state.spaces[dest]) >= state.max_dice():
        state.log(f"{where} is occupied: the rival's die goes to the Well (coins only)")
        dest = A.SP_WELL
    gain = max(0, value - state._printed(dest))
    state.spaces[dest].append((b, value))
    state.clans[rival].coins += gain
    state.placements[rival] += 1
    shown = ", ".join(row)
    state.log(f"the rival reveals {shown}; the deck's top card {top_id} names the "
              f"{COLOURS[b]} die at the {top.position} ({value}), which goes to "
              f"{SPACE_NAMES[dest]}"
              + (f", gaining {gain} coin{'s' if gain > 1 else ''}" if gain else ""))
    used = row[-2:]
    icons = tuple(icon for cid in used for icon in state.data.solo_deck[cid].actions)
    state.solo_deck.extend(row)  # revealed cards go to the bottom of the deck
    return icons


def impossible(state: Turns, icon: tuple[Any, ...], why: str) -> None:
    """An icon the rival cannot carry out scores the round number in CP."""
    rival = state.rival
    assert rival is not None
    state.clans[rival].cp += state.round
    state.log(f"the rival cannot {icon_text(icon)} ({why}): {state.round} CP instead")


def icon_text(icon: tuple[Any, ...]) -> str:
    """A Solitaire icon in words."""
    kind = icon[0]
    if kind == "gardener":
        return ("place a gardener" if icon[1] == "any" else
                f"place a gardener on a {icon[1]} garden")
    if kind == "warrior":
        return f"place a warrior in the {icon[1]}-iron yard"
    if kind == "gate":
        return "send a courtier to the Gate"
    if kind == "climb":
        return f"move a courtier up {icon[1]} level{'s' if icon[1] > 1 else ''}"
    if kind == "cp":
        return f"gain {icon[1]} CP"
    if kind == "passage":
        return f"move {icon[1]} on the Passage of Time"
    return f"gain {icon[1]} coin{'s' if icon[1] > 1 else ''}"


def rival_icon(state: Turns, icon: tuple[Any, ...]) -> None:
    """Carry out one icon for the rival (pushing a frame where the solo player chooses)."""
    rival = state.rival
    assert rival is not None
    c = state.clans[rival]
    human = state.human
    kind = icon[0]
    if kind == "gardener":
        if not c.left[1]:
            return impossible(state, icon, "no gardener left")
        gardens = state.data.gardens
        slots = [g for g in range(6) if rival not in state.garden_workers[g]
                 and (icon[1] == "any" or gardens[state.garden_cards[g]].kind == icon[1])]
        if not slots:
            return impossible(state, icon, "every such garden holds its gardener")
        low = min(gardens[state.garden_cards[g]].cp for g in slots)
        ties = tuple(g for g in slots if gardens[state.garden_cards[g]].cp == low)
        if len(ties) == 1:
            place_gardener(state, ties[0])
        else:
            state.stack.append(RivalGarden(human, ties))
    elif kind == "warrior":
        if not c.left[2]:
            return impossible(state, icon, "no warrior left")
        y = state.data.yard_costs.index(icon[1])
        c.left[2] -= 1
        c.warriors.append(y)
        state.log(f"the rival sends a warrior to yard {y + 1} ({icon[1]} iron, not paid)")
    elif kind == "gate":
        if not c.left[0]:
            return impossible(state, icon, "no courtier left")
        c.left[0] -= 1
        c.courtiers.append(0)
        state.log("the rival sends a courtier to the Gate (no coins paid)")
    elif kind == "climb":
        inside = [i for i, loc in enumerate(c.courtiers) if A.LOC_FLOOR[loc] < 3]
        if not inside:
            return impossible(state, icon, "no courtier below the Daimyo's room")
        i = min(inside, key=lambda k: A.LOC_FLOOR[c.courtiers[k]])
        floor = min(3, A.LOC_FLOOR[c.courtiers[i]] + icon[1])
        if floor == 3:
            c.courtiers[i] = 6
            daimyo_arrival(state)
        else:
            state.stack.append(RivalRoom(human, floor, i))
    elif kind == "cp":
        c.cp += icon[1]
        state.log(f"the rival gains {icon[1]} CP")
    elif kind == "passage":
        state._move(rival, icon[1])
    else:
        c.coins += icon[1]
        state.log(f"the rival gains {icon[1]} coin{'s' if icon[1] > 1 else ''}")
    return None


def place_gardener(state: Turns, g: int) -> None:
    """Put a rival gardener on garden slot g (no food paid, no effect gained)."""
    rival = state.rival
    assert rival is not None
    state.clans[rival].left[1] -= 1
    state.garden_workers[g].append(rival)
    state.log(f"the rival sends a gardener to the {A.GARDEN_SLOTS[g]} garden "
              f"({state.garden_cards[g]})")


def move_to_room(state: Turns, i: int, r: int) -> None:
    """The rival's courtier i arrives in room r: that room's card is discarded and refilled."""
    rival = state.rival
    assert rival is not None
    state.clans[rival].courtiers[i] = r + 1
    deck = state.steward_deck if r < 3 else state.diplomat_deck
    old = state.room_cards[r]
    if deck:
        state.room_cards[r] = deck.pop()
        state.discarded.append(old)
        state.log(f"a rival courtier climbs to {A.ROOMS[r]}: {old} is discarded, "
                  f"{state.room_cards[r]} replaces it")
    else:
        state.log(f"a rival courtier climbs to {A.ROOMS[r]}; its card cannot be replaced and "
                  "stays")


def daimyo_arrival(state: Turns) -> None:
    """The rival's courtier reaches the Daimyo's room: the first free slot from the left.

    Ruling (not stated in the rulebook): the rival gains a slot's coins, CP and Passage
    steps, and nothing else (it never gains resources or seals and takes no actions).
    """
    rival = state.rival
    assert rival is not None
    for s, holder in enumerate(state.daimyo_slots):
        if holder is None:
            state.daimyo_slots[s] = rival
            gains = []
            for e in state.data.daimyo[state.daimyo_card][s]:
                if e[0] == "gain":
                    for k, n in e[1]:
                        if k == "coin":
                            state.clans[rival].coins += n
                            gains.append(f"{n} coins")
                        elif k == "cp":
                            state.clans[rival].cp += n
                            gains.append(f"{n} CP")
                elif e[0] == "passage":
                    gains.append(f"{e[1]} Passage steps")
                    state._move(rival, e[1])
            state.log(f"a rival courtier reaches the Daimyo's room and takes slot {s + 1}"
                      + (f" ({', '.join(gains)})" if gains else " (nothing it can gain)"))
            return
    state.log("a rival courtier reaches the Daimyo's room; no slot is free")


def round_end(state: Turns) -> None:
    """After the new turn order: coins to CP by turn position (3 or 5 coins per round CP)."""
    rival = state.rival
    assert rival is not None
    c = state.clans[rival]
    per = 3 if state.order[0] == rival else 5
    lots = c.coins // per
    if lots:
        c.coins -= lots * per
        c.cp += lots * state.round
        state.log(f"the rival turns in {lots * per} coins for {lots * state.round} CP "
                  f"({'first' if per == 3 else 'second'} in turn order: {per} coins per "
                  f"{state.round} CP)")


def garden_points(state: Turns) -> None:
    """Gardens step (rounds 1-2): round-number CP per rival gardener that activates."""
    rival = state.rival
    assert rival is not None
    n = sum(1 for g in range(6) if state.bridges[g // 2] and rival in state.garden_workers[g])
    if n:
        state.clans[rival].cp += n * state.round
        state.log(f"the rival's {n} gardener{'s' if n > 1 else ''} activate: "
                  f"{n * state.round} CP")
