"""The rulebook's names of The White Castle's components and spaces, for every text a
person reads (the log, move descriptions, explanations). The data and the notation keep
their ids (`steward_10`, `steward2`); a player reads "Steward card 10", "Steward room 2".
"""

from __future__ import annotations

import functools
import re

from kamon.games.white_castle import actions as A

# One name per die space (aligned with actions.SPACES) and per courtier location (LOCS).
ROOM_NAMES = ("Steward room 1", "Steward room 2", "Steward room 3",
              "Diplomat room 1", "Diplomat room 2")
SPACE_NAMES = ROOM_NAMES + ("Outside the Walls (left)", "Outside the Walls (right)",
                            "the Well", "the personal domain")
LOC_NAMES = ("the Gate",) + ROOM_NAMES + ("the Daimyo's room",)

# The printed names of the decks an id's prefix belongs to (a card is named by its deck
# and its number, as the deck's cards are told apart on the table).
_NUMBERED = {"steward": "Steward card", "diplomat": "Diplomat card",
             "daimyo": "Daimyo's favor card", "solo": "Solitaire card",
             "plant": "Plant Garden card", "stone": "Stone Garden card",
             "start_resource": "Starting Resource card", "yard_tile": "training yard tile",
             "yard": "training yard"}
_DECREES = {"coin": "coin", "cp": "Clan Point", "seal": "Daimyo seal"}

_ID = re.compile(
    r"\b(?:(?P<deck>start_resource|yard_tile|steward|diplomat|daimyo|solo|plant|stone|yard)"
    r"_0*(?P<n>\d+)"
    r"|start_action_(?P<action>[a-z]+)"
    r"|decree_(?P<decree>[a-z]+)"
    r"|die_tile_(?P<colour>coral|black|white)_(?P<reward>[a-z_]+)"
    r"|(?P<room>steward|diplomat)(?P<rn>[1-3])"
    r"|outside-(?P<side>left|right))\b")
_MAYBE_ID = re.compile(r"[_0-9-]")


def _name(m: re.Match[str]) -> str:
    """The rulebook's name of the id one match found."""
    g = m.groupdict()
    if g["deck"]:
        return f"{_NUMBERED[g['deck']]} {g['n']}"
    if g["action"]:
        return f"{g['action'].capitalize()} Starting Action card"
    if g["decree"]:
        return f"{_DECREES.get(g['decree'], g['decree'])} Decree card"
    if g["colour"]:
        reward = g["reward"].replace("_", " ").replace("resource of choice",
                                                       "resource of your choice")
        return f"{g['colour']} die tile ({reward})"
    if g["room"]:
        return ROOM_NAMES[(0 if g["room"] == "steward" else 3) + int(g["rn"]) - 1]
    return SPACE_NAMES[5 if g["side"] == "left" else 6]


def component_name(cid: str) -> str:
    """The name a player reads for a component or space id (unknown text unchanged)."""
    return words(cid)


@functools.lru_cache(maxsize=4096)
def words(text: str) -> str:
    """`text` with every internal id replaced by the rulebook's name of the thing
    (memoised: a game's move descriptions and log lines repeat, from move to move and
    from game to game, and a server names them for every version it sends)."""
    if _MAYBE_ID.search(text) is None:  # every id has an underscore, a hyphen or a digit
        return text
    return _ID.sub(_name, text)


assert len(SPACE_NAMES) == len(A.SPACES) and len(LOC_NAMES) == len(A.LOCS)
