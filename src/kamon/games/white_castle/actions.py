"""The White Castle's fixed action space: every atomic decision has a stable id and notation.

Ids are positions in ACTIONS; notation is what `str(action)` shows and what
`parse_action` reads back. Locations are named after the board:
steward1-3, diplomat1-2, outside-left/right, well, domain, gate, daimyo.

>>> ACTIONS[78], BY_TEXT["draft 2"], NUM_ACTIONS
(Action(id=78, text='draft 2'), 78, 99)
>>> TEXTS[0]
'take coral left'
"""

from __future__ import annotations

from kamon.core.protocol import Action
from kamon.games.white_castle.data import COLOURS, RESOURCES, WORKERS

# Castle rooms in board order; index = room number used by the state.
ROOMS = ("steward1", "steward2", "steward3", "diplomat1", "diplomat2")
ROOM_BLOCKS = (3, 3, 3, 2, 2)
# Die spaces: the five rooms, Outside the Walls, the Well, and the personal domain.
SPACES = ROOMS + ("outside-left", "outside-right", "well", "domain")
SP_WELL = 7
SP_DOMAIN = 8
# Courtier locations: gate, the five rooms, the Daimyo's room.
LOCS = ("gate",) + ROOMS + ("daimyo",)
LOC_FLOOR = (0, 1, 1, 1, 2, 2, 3)
GARDEN_SLOTS = tuple(f"{c} {k}" for c in COLOURS for k in ("plant", "stone"))
BLOCK_NAMES = (("top", "middle", "bottom"),) * 3 + (("upper", "lower"),) * 2
MAX_EFFECTS = 8
MAX_DRAFT = 5

_texts: list[str] = []


def _add(text: str) -> int:
    _texts.append(text)
    return len(_texts) - 1


TAKE = {(b, end): _add(f"take {COLOURS[b]} {('left', 'right')[end]}")
        for b in range(3) for end in range(2)}
PLACE = {s: _add(f"place {SPACES[s]}") for s in range(len(SPACES))}
# ("room", r, i) for castle-card blocks; ("card", i) for the domain action card's blocks.
BLOCK: dict[tuple[int, int], int] = {}
for _r, _n in enumerate(ROOM_BLOCKS):
    for _i in range(_n):
        BLOCK[(_r, _i)] = _add(f"block {ROOMS[_r]} {BLOCK_NAMES[_r][_i]}")
CARD_BLOCK = {i: _add(f"card {('first', 'second', 'third')[i]}") for i in range(3)}
EFFECT = {k: _add(f"effect {k + 1}") for k in range(MAX_EFFECTS)}
GAIN = {r: _add(f"gain {RESOURCES[r]}") for r in range(3)}
WORKER = {w: _add(f"worker {WORKERS[w]}") for w in range(3)}
YARD = {y: _add(f"yard {y + 1}") for y in range(3)}
GARDEN = {g: _add(f"garden {GARDEN_SLOTS[g]}") for g in range(6)}
AUDIENCE = _add("audience")
CLIMBS: list[tuple[int, int]] = []
for _src in range(6):
    for _dst in range(1, 7):
        if 1 <= LOC_FLOOR[_dst] - LOC_FLOOR[_src] <= 2:
            CLIMBS.append((_src, _dst))
CLIMB = {c: _add(f"climb {LOCS[c[0]]} {LOCS[c[1]]}") for c in CLIMBS}
DAIMYO = {s: _add(f"daimyo {s + 1}") for s in range(3)}
ROW = {c: _add(f"row {COLOURS[c]}") for c in range(3)}
DRAFT = {i: _add(f"draft {i + 1}") for i in range(MAX_DRAFT)}
PAY = _add("pay")
DONE = _add("done")
EXCHANGE_COIN = _add("exchange seal coin")
EXCHANGE_RES = {r: _add(f"exchange seals {RESOURCES[r]}") for r in range(3)}

# Solo mode: decisions the rulebook gives the solo player on the rival's behalf.
RIVAL_ROOM = {r: _add(f"rival-room {ROOMS[r]}") for r in range(5)}
RIVAL_GARDEN = {g: _add(f"rival-garden {GARDEN_SLOTS[g]}") for g in range(6)}

TEXTS: tuple[str, ...] = tuple(_texts)
ACTIONS: tuple[Action, ...] = tuple(Action(i, t) for i, t in enumerate(TEXTS))
NUM_ACTIONS = len(ACTIONS)
BY_TEXT: dict[str, int] = {t: i for i, t in enumerate(TEXTS)}

# Reverse maps for the rules: id -> parameters.
TAKE_OF = {v: k for k, v in TAKE.items()}
PLACE_OF = {v: k for k, v in PLACE.items()}
BLOCK_OF = {v: k for k, v in BLOCK.items()}
CARD_BLOCK_OF = {v: k for k, v in CARD_BLOCK.items()}
EFFECT_OF = {v: k for k, v in EFFECT.items()}
GAIN_OF = {v: k for k, v in GAIN.items()}
WORKER_OF = {v: k for k, v in WORKER.items()}
YARD_OF = {v: k for k, v in YARD.items()}
GARDEN_OF = {v: k for k, v in GARDEN.items()}
CLIMB_OF = {v: k for k, v in CLIMB.items()}
DAIMYO_OF = {v: k for k, v in DAIMYO.items()}
ROW_OF = {v: k for k, v in ROW.items()}
DRAFT_OF = {v: k for k, v in DRAFT.items()}
EXCHANGE_RES_OF = {v: k for k, v in EXCHANGE_RES.items()}
RIVAL_ROOM_OF = {v: k for k, v in RIVAL_ROOM.items()}
RIVAL_GARDEN_OF = {v: k for k, v in RIVAL_GARDEN.items()}
