"""Property tests of The White Castle engine over thousands of seeded random games.

Every game is played by a uniform random chooser (kamon.core.rng.Rng seeded with the
game's seed; 240 games a player count and 240 solo games in `make test`, 1,000 and 1,002
under `make fuzz`, KAMON_FUZZ=long) and checked after every single action (tests/white_castle/invariants.py,
shared with tests/fuzz/): stores in range, the 15 workers and all dice conserved, a
decision exists exactly until the end. At the end the record replays to the identical
state, JSON round trips are exact (also mid-game, and play continued from a restored
state or a clone ends identically), and every listed legal action applies at sampled
decision points. What every game owes the core protocol (clones, refusals, seeds,
determinization) is checked once for all games in tests/contract/.

Runs are parametrized by player count and chunk of seeds so `pytest -n 2` spreads them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

import pytest

from kamon.core.record import GameRecord, replay
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME, WhiteCastleState
from kamon.games.white_castle import actions as A
from tests.white_castle.invariants import (
    PLACEMENTS_PER_PLAYER,
    SCORE_KEYS,
    check_invariants,
    roundtrip,
    try_every_legal_action,
)

PLAYER_COUNTS = (2, 3, 4)
LONG = os.environ.get("KAMON_FUZZ") == "long"  # make fuzz: the full counts
GAMES_PER_COUNT = 1000 if LONG else 240
CHUNKS = 4
CHUNK = GAMES_PER_COUNT // CHUNKS
# Sampled decision points: every LEGAL_SAMPLE_EVERY-th decision, every legal action is tried.
LEGAL_SAMPLE_EVERY = 12


@dataclass
class Snapshot:
    """A mid-game point: how many choices were made, the state's JSON text and a clone."""

    index: int
    text: str
    clone: WhiteCastleState


@dataclass
class Run:
    """One checked random game: the final state, every choice and mid-game snapshots."""

    state: WhiteCastleState
    choices: list[int] = field(default_factory=list)
    snapshots: list[Snapshot] = field(default_factory=list)


def snapshot_points(seed: int, players: int = 2) -> set[int]:
    """Two decision indices (varying by seed) at which a mid-game snapshot is taken
    (earlier in the solo game, whose player makes only about 30-40 decisions)."""
    if players == 1:
        return {2 + seed % 11, 14 + seed % 13}
    return {3 + seed % 47, 51 + seed % 53}


def play_checked(players: int, seed: int, **options: object) -> Run:
    """Play a seeded uniform-random game, checking invariants after every action."""
    state = GAME.new_game(players, seed, **options)
    rng = Rng(seed)
    run = Run(state)
    points = snapshot_points(seed, players)
    where = f"{players}p seed {seed}"
    check_invariants(state, f"{where} at setup")
    while not state.is_over():
        i = len(run.choices)
        if i in points:
            run.snapshots.append(Snapshot(i, state.dumps(), state.clone()))
        if i % LEGAL_SAMPLE_EVERY == seed % LEGAL_SAMPLE_EVERY:
            try_every_legal_action(state, f"{where} decision {i}")
        ids = state.legal_ids()
        aid = ids[rng.below(len(ids))]
        run.choices.append(aid)
        state.apply(aid)
        check_invariants(state, f"{where} after action {i + 1} ({A.TEXTS[aid]!r})")
    return run


def check_final(run: Run, players: int, seed: int, options: dict[str, object]) -> None:
    """End-of-game checks: placements, round, replay, JSON and continued play."""
    state = run.state
    where = f"{players}p seed {seed}"
    assert state.is_over() and state.to_move is None
    assert state.round == 3, f"{where}: ended in round {state.round}"
    clans = len(state.clans)
    assert state.placements == [PLACEMENTS_PER_PLAYER] * clans, (
        f"{where}: placements {state.placements}")
    assert state.history == run.choices
    scores = state.scores()
    assert len(scores) == clans
    for row in scores:
        assert set(row) == SCORE_KEYS
        assert row["total"] == sum(v for k, v in row.items() if k != "total")
        assert all(v >= 0 for v in row.values())
    winners = state.winners()
    assert len(winners) == 1 and scores[winners[0]]["total"] == max(r["total"] for r in scores)
    final = state.dumps()

    # The record (through JSON text) replays to the identical state and scores.
    record = GameRecord.of("white-castle", state, seed, options, GAME.action_text)
    assert len(record.actions) == len(run.choices)
    record = GameRecord.from_json(json.loads(record.dumps()))
    replayed = replay(record)
    assert replayed.dumps() == final, f"{where}: replay differs"
    assert replayed.scores() == scores

    # JSON round trip at the end is exact and stays over.
    restored = roundtrip(state)
    assert restored.dumps() == final
    assert restored.is_over() and restored.legal_ids() == []
    assert restored.scores() == scores

    # Mid-game: each snapshot round-trips; play continued with the same choices from the
    # first snapshot restored from JSON, and from the second one's clone, ends identically.
    assert run.snapshots, f"{where}: no snapshot taken"
    for k, snap in enumerate(run.snapshots):
        assert snap.clone.dumps() == snap.text, f"{where}: clone changed at {snap.index}"
        from_text = GAME.from_json(json.loads(snap.text))
        assert from_text.dumps() == snap.text, f"{where}: round trip differs at {snap.index}"
        resumed = from_text if k == 0 else snap.clone
        for aid in run.choices[snap.index:]:
            resumed.apply(aid)
        assert resumed.dumps() == final, f"{where}: continued play from {snap.index} differs"
    last = run.snapshots[-1]
    assert replay(record, upto=last.index).dumps() == last.text, f"{where}: partial replay"


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_games_keep_invariants(players: int, chunk: int) -> None:
    """CHUNK seeded random games per parameter: all invariants hold throughout."""
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        run = play_checked(players, seed)
        check_final(run, players, seed, {})


SOLO_GAMES_PER_DIFFICULTY = 334 if LONG else 80  # 1,002 (240) solo games in all
SOLO_CHUNKS = 2


@pytest.mark.parametrize("chunk", range(SOLO_CHUNKS))
@pytest.mark.parametrize("difficulty", ("easy", "medium", "hard"))
def test_random_solo_games_keep_invariants(difficulty: str, chunk: int) -> None:
    """Seeded random solo games: the same invariants, the rival never to move."""
    size = SOLO_GAMES_PER_DIFFICULTY // SOLO_CHUNKS
    for seed in range(chunk * size, (chunk + 1) * size):
        run = play_checked(1, seed, difficulty=difficulty)
        assert run.state.num_players == 1 and run.state.rival == 1
        check_final(run, 1, seed, {"difficulty": difficulty})


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_first_game_setup_keeps_invariants(players: int) -> None:
    """The first-game option (fixed Well tiles) plays to a correct end as well."""
    for seed in range(40):
        run = play_checked(players, seed, first_game=True)
        assert run.state.options.get("first_game") is True
        assert tuple(run.state.well_tiles) == run.state.data.first_game_well
        check_final(run, players, seed, {"first_game": True})
