"""What the solo rival did last, for front ends that mark "what just happened": the
rival is no seat (its turns are played inside the player's moves), so its last turn is
read back from this game's own log lines and given as the notation keys of what it
touched (a die space, a garden, a yard, a room, a Daimyo slot, the Gate), the keys the
boards already find a seat's moves by. Looked up generically (like evaluation.py)."""

from __future__ import annotations

import re
from typing import Any

from kamon.games.white_castle import actions as A
from kamon.games.white_castle.names import ROOM_NAMES, SPACE_NAMES

_START = "the rival reveals "
_RIVAL = re.compile(r"^(?:the rival\b|a rival\b|.* is occupied: the rival's die)")
_KEYS = (
    (re.compile(r"which goes to (?P<v>.+?)(?:, gaining .*)?$"),
     lambda v: f"place {A.SPACES[SPACE_NAMES.index(v)]}" if v in SPACE_NAMES else None),
    (re.compile(r"^the rival sends a gardener to the (?P<v>\w+ \w+) garden"),
     lambda v: f"garden {v}"),
    (re.compile(r"^the rival sends a warrior to yard (?P<v>\d)"), lambda v: f"yard {v}"),
    (re.compile(r"^the rival sends a courtier to the Gate(?P<v>)"), lambda v: "audience"),
    (re.compile(r"^a rival courtier climbs to (?P<v>.+?)[:;]"),
     lambda v: f"rival-room {A.ROOMS[ROOM_NAMES.index(v)]}" if v in ROOM_NAMES else None),
    (re.compile(r"^a rival courtier reaches the Daimyo's room and takes slot (?P<v>\d)"),
     lambda v: f"daimyo {v}"),
)


def party_turns(state: Any, log: list[str]) -> list[dict[str, Any]]:
    """The last turn of each party without a seat (the solo rival): its index and name,
    the keys of what it touched, and the log lines it wrote (`log_from` to `log_to`)."""
    rival = getattr(state, "rival", None)
    if rival is None:
        return []
    start = next((i for i in range(len(log) - 1, -1, -1) if log[i].startswith(_START)), None)
    if start is None:
        return []
    end = start + 1
    while end < len(log) and _RIVAL.match(log[end]):
        end += 1
    keys: list[str] = []
    for line in log[start:end]:
        for pattern, key in _KEYS:
            m = pattern.search(line)
            k = key(m["v"]) if m else None
            if k and k not in keys:
                keys.append(k)
    return [{"party": rival, "name": state.name(rival), "moves": keys,
             "log_from": start, "log_to": end}]
