"""The perfect-recall information state: what one player has seen and done since the deal.

What a seat does not see is what the game's `hidden_key` names (the order of shuffled
decks, cards dealt to others, the random generator's state). So a player's history of
observations is fixed by three things, and this is the record the information state
holds:

1. the position right after the deal, as the player observed it;
2. every decision since, in order: who took it and which action (all public);
3. the position, as the player observed it, right after each decision that **revealed**
   something (drew a card, rolled dice, turned a Solitaire card): a decision after which
   the game's `hidden_key` changed. Any other decision leaves the hidden parts untouched,
   so what the player sees after it follows from what they saw before and the action (a
   test checks this against re-sampled worlds).

Nothing is recorded while a game is played: the record is built on demand by replaying
the state's history from its seed on a cursor (kept and extended, so asking after every
move costs one replayed move), so it costs nothing to a player who never asks and
survives pickling as the history alone. A re-sampled world (OpenSpiel's
`resample_from_infostate`) keeps the record so far and continues it on its own position
(`rebased`); such a record is pickled whole, since its future is not the seed's.

What is derived from the record for a player is kept and only ever extended: its
observation at each reveal (`observed`, read by the tensor and the text) and the text so
far (`text` renders only the decisions since it was last asked). Copies and re-sampled
worlds share the past's renders; pickling drops them (rebuilt when next asked for). So
the information-state string, a search's key, costs one decision's render, not the
whole game's.

The tensor (`RecallLayout`): the observation now, then `max_decisions` action rows (the
actor's slot seen from the player, one-hot, and the action id in binary, lowest bit
first), then `max_reveals + 1` reveal rows (present, the decision number it followed /
max_decisions, and the observation then; row 0 is the deal). The bounds are per game
(the `recall_limits` of its observation slot); a game longer than them is refused with a
clear error, never truncated.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from kamon.core.protocol import State
from kamon.games import get_game

if TYPE_CHECKING:
    from kamon.rl.encoding import Encoding

SLOTS = 4  # the actor's seat, seen from the player: slot (actor - player) mod seats


@dataclass(frozen=True)
class RecallLayout:
    """Where each part of a game's information-state tensor lies."""

    obs: int  # the observation's size
    bits: int  # bits of an action id
    max_decisions: int
    max_reveals: int  # rows after the deal's

    @property
    def action_row(self) -> int:
        """Values in one action row: actor slot one-hot, then the action id's bits."""
        return SLOTS + self.bits

    @property
    def reveal_row(self) -> int:
        """Values in one reveal row: present, decision number, the observation then."""
        return 2 + self.obs

    @property
    def actions_start(self) -> int:
        """Where the action rows begin (after the observation now)."""
        return self.obs

    @property
    def reveals_start(self) -> int:
        """Where the reveal rows begin."""
        return self.actions_start + self.max_decisions * self.action_row

    @property
    def size(self) -> int:
        """The tensor's length."""
        return self.reveals_start + (self.max_reveals + 1) * self.reveal_row


def layout(enc: Encoding) -> RecallLayout:
    """The information-state layout of a game."""
    decisions, reveals = enc.spec.recall_limits
    bits = max(1, (enc.num_actions - 1).bit_length())
    return RecallLayout(enc.size, bits, decisions, reveals)


def hidden_key(state: State) -> Callable[[State], Hashable]:
    """The game's `hidden_key` slot: it changes exactly when a decision reveals something.
    A game without one has no perfect-recall record here."""
    key: Callable[[State], Hashable] | None = state.game.hidden_key
    if key is None:
        raise ValueError(f"{state.game.title} has no hidden_key: its information state "
                         "cannot tell revealing decisions apart")
    return key


class Recall:
    """A game's public record since the deal (see the module), built by replay."""

    __slots__ = ("game_name", "players", "options", "seed", "cursor", "actors", "actions",
                 "reveals", "replayable", "seen", "texts")

    def __init__(self, game_name: str, players: int, options: dict[str, Any],
                 seed: int) -> None:
        """The record of the game dealt from `seed`, at the deal."""
        self.game_name = game_name
        self.players = players
        self.options = options
        self.seed = seed
        self.cursor = get_game(game_name).new_game(players, seed=seed, **options)
        self.actors: list[int] = []
        self.actions: list[int] = []
        # (decisions taken by then, the position then): the deal first
        self.reveals: list[tuple[int, State]] = [(0, self.cursor.clone())]
        self.replayable = True  # the seed and the history rebuild it
        self._forget_renders()

    def _forget_renders(self) -> None:
        """Drop what was derived from the record for a player (rebuilt when asked for)."""
        # per player: (the encoding, its observation at each reveal so far, the deal first)
        self.seen: dict[int, tuple[Encoding, list[np.ndarray]]] = {}
        # per player: (the encoding, the decisions rendered, the reveals among them, the
        # record's text up to them)
        self.texts: dict[int, tuple[Encoding, int, int, str]] = {}

    def copy(self) -> Recall:
        """An independent copy (the cursor cloned; recorded positions are never changed)."""
        other = Recall.__new__(Recall)
        other.game_name, other.players = self.game_name, self.players
        other.options, other.seed = self.options, self.seed
        other.cursor = self.cursor.clone()
        other.actors, other.actions = list(self.actors), list(self.actions)
        other.reveals = list(self.reveals)
        other.replayable = self.replayable
        # the past's renders hold for the copy: the observation lists are its own (they
        # grow), the texts are immutable strings, shared
        other.seen = {p: (enc, list(obs)) for p, (enc, obs) in self.seen.items()}
        other.texts = dict(self.texts)
        return other

    def rebased(self, state: State) -> Recall:
        """A copy that continues on `state` (a re-sampled world at the recorded decision:
        the same past, its own future)."""
        if list(state.history) != self.actions:
            raise ValueError("a record continues only on a position at its last decision")
        other = self.copy()
        other.cursor = state.clone()
        other.replayable = False
        return other

    def __getstate__(self) -> dict[str, Any]:
        """Positions as their JSON (pickling)."""
        return {"game": self.game_name, "players": self.players, "options": self.options,
                "seed": self.seed, "cursor": self.cursor.to_json(), "actors": self.actors,
                "actions": self.actions, "replayable": self.replayable,
                "reveals": [(at, position.to_json()) for at, position in self.reveals]}

    def __setstate__(self, data: dict[str, Any]) -> None:
        """Rebuild the positions from their JSON."""
        game = get_game(data["game"])
        self.game_name, self.players = data["game"], data["players"]
        self.options, self.seed = data["options"], data["seed"]
        self.cursor = game.from_json(data["cursor"])
        self.actors, self.actions = data["actors"], data["actions"]
        self.replayable = data["replayable"]
        self.reveals = [(at, game.from_json(position)) for at, position in data["reveals"]]
        self._forget_renders()

    def catch_up(self, history: list[int]) -> None:
        """Replay the decisions of `history` not yet recorded (it must extend the record)."""
        if history[:len(self.actions)] != self.actions:
            raise ValueError("the history does not extend the recorded one")
        cursor = self.cursor
        key = hidden_key(cursor)
        for aid in history[len(self.actions):]:
            before = key(cursor)
            seat = cursor.to_move
            assert seat is not None
            cursor.apply(aid)
            self.actors.append(int(seat))
            self.actions.append(int(aid))
            if key(cursor) != before:
                self.reveals.append((len(self.actions), cursor.clone()))

    def observed(self, enc: Encoding, player: int) -> list[np.ndarray]:
        """The player's observation at each reveal so far (the deal first): observed once
        per reveal and kept, for the tensor and the text (the returned list is the
        record's own: read it, never change it)."""
        got = self.seen.get(player)
        if got is None or got[0] is not enc:
            got = self.seen[player] = (enc, [])
        obs = got[1]
        for _at, position in self.reveals[len(obs):]:
            obs.append(enc.observe(position, player))
        return obs

    def tensor(self, enc: Encoding, player: int, now: np.ndarray) -> np.ndarray:
        """The information-state tensor of `player` (`now`: its observation now)."""
        lay = layout(enc)
        self._check(lay)
        out = np.zeros(lay.size, np.float32)
        out[:lay.obs] = now
        seats = self.players if self.players > 1 else 1
        rows = out[lay.actions_start:lay.reveals_start].reshape(lay.max_decisions,
                                                                lay.action_row)
        n = len(self.actions)
        if n:
            slots = (np.asarray(self.actors) - player) % max(seats, 1)
            rows[np.arange(n), slots] = 1.0
            ids = np.asarray(self.actions)
            rows[:n, SLOTS:] = (ids[:, None] >> np.arange(lay.bits)) & 1
        reveal_rows = out[lay.reveals_start:].reshape(lay.max_reveals + 1, lay.reveal_row)
        r = len(self.reveals)
        reveal_rows[:r, 0] = 1.0
        reveal_rows[:r, 1] = [at / lay.max_decisions for at, _position in self.reveals]
        reveal_rows[:r, 2:] = self.observed(enc, player)
        return out

    def text(self, enc: Encoding, player: int) -> str:
        """The record as text: the deal's observation in full, then one line per decision
        (number, actor, notation), each reveal followed by the fields that changed since the
        previous one (`cleared`: the indices that became 0).

        Rendered incrementally: the text so far is kept per player (and shared by copies
        and re-sampled worlds, whose past is the same) and only the decisions since are
        added, for every seat at once (a search asks for each seat in turn, on copies of
        the state whose renders never come back), so a search asking after each move pays
        for one decision, not the game: information_state_string 200 decisions into
        I, Clansman, 7.3 -> 0.2 ms of CPU (bench/bench_ismcts_key.py). tests/rl/test_fast_keys.py holds it equal to
        the whole render."""
        lay = layout(enc)
        self._check(lay)
        n = len(self.actions)
        done = self.texts.get(player)
        if done is None or done[0] is not enc or done[1] != n:
            seats = range(self.cursor.num_players) if 0 <= player < \
                self.cursor.num_players else (player,)
            decisions: dict[int, str] = {}  # a decision's line: the same for every seat
            for p in seats:
                self._extend_text(enc, p, decisions)
            done = self.texts[player]
        return done[3]

    def _extend_text(self, enc: Encoding, player: int, decisions: dict[int, str]) -> None:
        """Bring the player's text up to the last decision (`decisions`: the decisions'
        lines rendered so far in this call, shared by the seats)."""
        n = len(self.actions)
        done = self.texts.get(player)
        if done is None or done[0] is not enc:
            done = (enc, 0, 1, "deal:\n" + enc.describe(self.observed(enc, player)[0]))
        _enc, start, r, text = done  # r: the next reveal
        if start == n:
            self.texts[player] = done
            return
        obs = self.observed(enc, player)
        game = enc.game
        lines = [text]
        for i in range(start + 1, n + 1):
            line = decisions.get(i)
            if line is None:
                line = decisions[i] = \
                    f"{i} p{self.actors[i - 1]} {game.action_text(self.actions[i - 1])}"
            lines.append(line)
            if r < len(self.reveals) and self.reveals[r][0] == i:
                vec, previous = obs[r], obs[r - 1]
                changed = np.where(vec != previous, vec, 0.0)
                gone = np.flatnonzero((vec != previous) & (vec == 0))
                lines.append("  revealed: " + enc.describe(changed).replace("\n", "; ")
                             + ("; cleared " + ",".join(map(str, gone)) if gone.size else ""))
                r += 1
        self.texts[player] = (enc, n, r, "\n".join(lines))

    def _check(self, lay: RecallLayout) -> None:
        """Refuse a record longer than the tensor's bounds (never truncate it)."""
        if len(self.actions) > lay.max_decisions or len(self.reveals) > lay.max_reveals + 1:
            raise ValueError(
                f"this game has {len(self.actions)} decisions and {len(self.reveals) - 1} "
                f"reveals; the {self.game_name} information state holds at most "
                f"{lay.max_decisions} and {lay.max_reveals} (its observation's recall_limits)")
