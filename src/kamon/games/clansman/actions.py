"""I, Clansman's fixed action space: every atomic decision has a stable id and notation.

Cards are addressed by their printed number, never by a position, so ids do not
depend on the deal. The one card printed four times, the Kochisei-Shuraku (300),
is addressed with its owner's colour ('300 blue'). Notation:

  marry 401 | marry 300 teal | marry 801     daughter on a clan card or a Royal Prince
  convert 401 soldier | convert 801 iron      use a card once (which card, which output)
  hero 902                                    take and use a Hero (once per game)
  obtain 412 | obtain 201                     D/E: a Supply or hand card; a Kofun (Expert)
  obtain 2 tadokoro | obtain 1 tadokoro       F (then a Supply card to hand) / G (free)
  payment 1 | payment 2                       which printed cost to pay (611, 702)
  hand 412                                    option F: the Supply card taken into hand

Ids are positions in ACTIONS. The card lists come from the bundled data (an
overlay may correct a card, never add one or change its type), so the table is
the same for every game.

>>> ACTIONS[BY_TEXT["obtain 412"]], NUM_ACTIONS
(Action(id=376, text='obtain 412'), 502)
>>> TEXTS[0], TEXTS[BY_TEXT["marry 300 teal"]]
('marry 300 blue', 'marry 300 teal')
"""

from __future__ import annotations

from kamon.core.protocol import Action
from kamon.games.clansman.data import GOODS, KOCHISEI, OUTPUT_GOODS, load_data

SEATS = ("blue", "orange", "teal", "pink")
MAX_PAYMENTS = 4

_BASE = load_data()
# Clan-row cards (the Kochisei-Shuraku once per colour) and the Royal Prince faces.
CENTURY_CARDS: tuple[str, ...] = tuple(c for century in sorted(_BASE.decks)
                                       for c in _BASE.decks[century])
CLAN_CARDS: tuple[str, ...] = tuple(
    sorted(cid for cid, c in _BASE.cards.items()
           if c.type in ("starting_clan", "clan") or (c.type == "emperor" and c.uses)))
PRINCES: tuple[str, ...] = _BASE.princes_early + _BASE.princes_late


def clan_key(owner: int, cid: str) -> str:
    """How the notation names a card in a clan row (or a Royal Prince, owner -1)."""
    return f"{cid} {SEATS[owner]}" if cid == KOCHISEI else cid


KEYS: tuple[str, ...] = (tuple(clan_key(p, KOCHISEI) for p in range(len(SEATS)))
                         + CLAN_CARDS + PRINCES)

_texts: list[str] = []


def _add(text: str) -> int:
    """Append a notation to the table; its position is its id."""
    _texts.append(text)
    return len(_texts) - 1


MARRY = {k: _add(f"marry {k}") for k in KEYS}
MARRY_KOCHISEI = {p: MARRY[clan_key(p, KOCHISEI)] for p in range(len(SEATS))}
CONVERT = {(k, g): _add(f"convert {k} {GOODS[g]}") for k in KEYS for g in OUTPUT_GOODS}
HERO = {h: _add(f"hero {h}") for h in _BASE.heroes}
OBTAIN = {c: _add(f"obtain {c}") for c in CENTURY_CARDS + _BASE.kofun}
OBTAIN_F = _add("obtain 2 tadokoro")
OBTAIN_G = _add("obtain 1 tadokoro")
PAYMENT = {i: _add(f"payment {i + 1}") for i in range(MAX_PAYMENTS)}
HAND = {c: _add(f"hand {c}") for c in CENTURY_CARDS}

TEXTS: tuple[str, ...] = tuple(_texts)
ACTIONS: tuple[Action, ...] = tuple(Action(i, t) for i, t in enumerate(TEXTS))
NUM_ACTIONS = len(ACTIONS)
BY_TEXT: dict[str, int] = {t: i for i, t in enumerate(TEXTS)}

# Reverse maps for the rules: id -> parameters.
MARRY_OF = {v: k for k, v in MARRY.items()}
CONVERT_OF = {v: k for k, v in CONVERT.items()}
HERO_OF = {v: k for k, v in HERO.items()}
OBTAIN_OF = {v: k for k, v in OBTAIN.items()}
PAYMENT_OF = {v: k for k, v in PAYMENT.items()}
HAND_OF = {v: k for k, v in HAND.items()}
