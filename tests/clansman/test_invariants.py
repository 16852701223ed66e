"""Property tests of the I, Clansman engine over thousands of seeded random games.

Every game is played by a uniform random chooser (kamon.core.rng.Rng seeded with the
game's seed, choosing from `legal_ids()`): 240 games in each of Beginner, Expert
side A and Expert side B in `make test` (1,000 each under `make fuzz`, KAMON_FUZZ=long), plus 100 each of the unofficial small-table variant (R35)
at 2 and 3 players and 30 each of five other option sets (R32 faces, start_player).

Cheap invariants (tests/clansman/invariants.py, shared with tests/fuzz/) are checked
after EVERY action:
- `check_invariants`: every century card, Hero, Kofun and Emperor face in exactly one
  place; Tadokoro + Miyake row + Miyake + Bank == 32, and Tadokoro conserved with what
  was obtained from the Bank; items never negative; Mirrors only from Missions; one
  card obtained per player per round; piles, Supply, Royal Prince faces and start
  seat as the round says (R09, R10, R33); daughters on distinct legal targets; a
  decision exists (to_move set) exactly until the end.
- `check_transition`: what the action changed, against the rules and the raw card
  data: dowries (R13), F/G Tadokoro, Yuryaku's levy (R29), items paid and gained by
  an obtained card (Keitai R30), Mirrors under a new Kofun (R22), the century-end
  Emperor awards (R26, R28), colour VPs, and the workforce of each fresh Production
  turn (R01, R15, R16).

The expensive checks run only at SAMPLED points, to keep the games cheap: every
`LEGAL_SAMPLE_EVERY`-th decision the legal set
is recomputed independently and every legal action is parsed, described and applied
to a clone; two mid-game snapshots per game (JSON text and a clone) are kept; at the
end the record replays to the identical `dumps()` and scores, JSON round trips are
exact, play continued from the restored first snapshot and from the cloned second
one ends identically, every `PARTIAL_REPLAY_EVERY`-th seed replays up to a snapshot,
and scores and winners (total, then Iron, then shared: R24) are recomputed from the
raw card data. `test_legal_actions_match_the_rules_at_every_decision` checks the legal
set at every decision of 750 further games.

What every game owes the core protocol (clones, refusals, seeds, determinization) is
checked once for all games in tests/contract/.

Runs are parametrized by mode and chunk of seeds so `pytest -n 2` spreads them.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from kamon.core.record import GameRecord, replay
from kamon.core.rng import Rng
from kamon.games.clansman import GAME, ClansmanState
from kamon.games.clansman import actions as A
from tests.clansman.invariants import (
    AWARDED_FACES,
    CENTURY_CLANS,
    COLOURS,
    DECKS,
    EMPEROR_SIDES,
    HEROES,
    KOFUN,
    MIRROR_GIVERS,
    MISSIONS,
    ROUNDS,
    SEAT_NAMES,
    START_TADOKORO,
    STARTING_CLANS,
    Before,
    check_invariants,
    check_legal_independently,
    check_transition,
    expected_score_keys,
    independent_total,
    mission_vp,
    roundtrip,
    try_every_legal_action,
)

# mode name -> (players, options)
MODES: dict[str, tuple[int, dict[str, Any]]] = {
    "beginner": (4, {}),
    "expert-A": (4, {"expert": True}),
    "expert-B": (4, {"expert": True, "emperor_side": "B"}),
}
# `make test` plays 240 games a mode (about 2 minutes of the suite's CPU); `make fuzz`
# (KAMON_FUZZ=long) the full 1,000, with every other long run.
GAMES_PER_MODE = 1000 if os.environ.get("KAMON_FUZZ") == "long" else 240
CHUNKS = 5
CHUNK = GAMES_PER_MODE // CHUNKS
SMALL_TABLE_GAMES = 100
# Every LEGAL_SAMPLE_EVERY-th decision every legal action is tried on a clone.
LEGAL_SAMPLE_EVERY = 45
# Every PARTIAL_REPLAY_EVERY-th seed also replays the record up to the last snapshot.
PARTIAL_REPLAY_EVERY = 10


# ---------------------------------------------------------------- checked games


@dataclass
class Snapshot:
    """A mid-game point: how many choices were made, the state's JSON text and a clone."""

    index: int
    text: str
    clone: ClansmanState


@dataclass
class Run:
    """One checked random game: the final state, every choice and mid-game snapshots."""

    state: ClansmanState
    choices: list[int] = field(default_factory=list)
    snapshots: list[Snapshot] = field(default_factory=list)


def snapshot_points(seed: int) -> set[int]:
    """Two decision indices (varying by seed) at which a mid-game snapshot is taken
    (a 4-player game has about 220 decisions, a 2-player one about 110)."""
    return {3 + seed % 47, 55 + seed % 43}


def play_checked(players: int, seed: int, **options: Any) -> Run:
    """Play a seeded uniform-random game, checking invariants after every action."""
    state = GAME.new_game(players, seed, **options)
    first_start = state.start
    rng = Rng(seed)
    run = Run(state)
    points = snapshot_points(seed)
    where = f"{players}p {options} seed {seed}"
    check_invariants(state, f"{where} at setup", first_start)
    assert all(pl.obtained == [] and pl.tadokoro == START_TADOKORO for pl in state.players)
    rounds_seen = [state.round]
    while not state.is_over():
        i = len(run.choices)
        if i in points:
            run.snapshots.append(Snapshot(i, state.dumps(), state.clone()))
        if i % LEGAL_SAMPLE_EVERY == seed % LEGAL_SAMPLE_EVERY:
            try_every_legal_action(state, f"{where} decision {i}", first_start)
        before = [len(pl.obtained) for pl in state.players]
        snap = Before.of(state)
        ids = state.legal_ids()
        aid = ids[rng.below(len(ids))]
        run.choices.append(aid)
        state.apply(aid)
        check_transition(snap, aid, state, f"{where} action {i + 1}")
        after = [len(pl.obtained) for pl in state.players]
        # At most the seat that acted obtained something, and exactly one entry.
        grew = [p for p in range(players) if after[p] != before[p]]
        assert grew in ([], [snap.mover]), f"{where} action {i + 1}: obtained {before} -> {after}"
        if grew:
            assert after[snap.mover] == before[snap.mover] + 1
        if state.round != rounds_seen[-1]:
            assert state.round == rounds_seen[-1] + 1, f"{where}: round jumped"
            assert after == [state.round - 1] * players, (
                f"{where}: round {state.round} begins with obtained counts {after}")
            rounds_seen.append(state.round)
        check_invariants(state, f"{where} after action {i + 1} ({A.TEXTS[aid]!r})", first_start)
    assert rounds_seen == list(range(1, ROUNDS + 1)), f"{where}: rounds {rounds_seen}"
    return run


def check_final(run: Run, seed: int, options: dict[str, Any]) -> None:
    """End-of-game checks: 16 rounds, scores, winners, replay, JSON and continued play."""
    state = run.state
    players = state.n
    where = f"{players}p {options} seed {seed}"
    assert state.is_over() and state.to_move is None and state.round == ROUNDS
    assert all(len(pl.obtained) == ROUNDS for pl in state.players), where
    assert state.history == run.choices
    scores = state.scores()
    assert len(scores) == players
    keys = expected_score_keys(state)
    for p, row in enumerate(scores):
        assert set(row) == keys, f"{where}: score keys {sorted(row)} vs {sorted(keys)}"
        assert row["total"] == sum(v for k, v in row.items() if k != "total")
        assert all(v >= 0 for v in row.values()), f"{where}: negative score {row}"
        assert row["total"] == independent_total(state, p), (
            f"{where}: seat {p} total {row['total']} vs recomputed "
            f"{independent_total(state, p)} ({row})")
        for colour in COLOURS:
            missions = sum(mission_vp(c)[1] for c in state.players[p].missions
                           if mission_vp(c)[0] == colour)
            assert row[f"{colour}_missions"] == missions, f"{where}: {colour} missions {row}"
        vp = state.vp_by_colour(p)
        assert set(vp) == set(COLOURS) and all(v >= 0 for v in vp.values())
    totals = [row["total"] for row in scores]
    best = max(totals)
    tied = [p for p in range(players) if totals[p] == best]
    iron = max(state.players[p].iron for p in tied)
    expected_winners = [p for p in tied if state.players[p].iron == iron]
    assert state.winners() == expected_winners, (
        f"{where}: winners {state.winners()} vs {expected_winners} (totals {totals})")
    final = state.dumps()

    # The record (through JSON text) replays to the identical state and scores.
    record = GameRecord.of("clansman", state, seed, options, GAME.action_text)
    assert len(record.actions) == len(run.choices)
    record = GameRecord.from_json(json.loads(record.dumps()))
    replayed = replay(record)
    assert replayed.dumps() == final, f"{where}: replay differs"
    assert replayed.scores() == scores
    assert replayed.winners() == expected_winners

    # JSON round trip at the end is exact and stays over.
    restored = roundtrip(state)
    assert restored.dumps() == final
    assert restored.is_over() and restored.legal_ids() == [] and restored.to_move is None
    assert restored.scores() == scores and restored.winners() == expected_winners

    # Mid-game: each snapshot round-trips; play continued with the same choices from the
    # first snapshot restored from JSON, and from the second one's clone, ends identically.
    assert len(run.snapshots) == 2, f"{where}: snapshots {[s.index for s in run.snapshots]}"
    for k, snap in enumerate(run.snapshots):
        assert snap.clone.dumps() == snap.text, f"{where}: clone changed at {snap.index}"
        from_text = GAME.from_json(json.loads(snap.text))
        assert from_text.dumps() == snap.text, f"{where}: round trip differs at {snap.index}"
        assert from_text.legal_ids() == snap.clone.legal_ids()
        resumed = from_text if k == 0 else snap.clone
        for aid in run.choices[snap.index:]:
            resumed.apply(aid)
        assert resumed.dumps() == final, f"{where}: continued play from {snap.index} differs"
    if seed % PARTIAL_REPLAY_EVERY == 0:
        last = run.snapshots[-1]
        assert replay(record, upto=last.index).dumps() == last.text, f"{where}: partial replay"


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("mode", sorted(MODES))
def test_random_games_keep_invariants(mode: str, chunk: int) -> None:
    """CHUNK seeded random games per parameter: all invariants hold throughout."""
    players, options = MODES[mode]
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        run = play_checked(players, seed, **options)
        side = options.get("emperor_side", "A") if options.get("expert") else None
        assert run.state.emperors == (EMPEROR_SIDES[side] if side else [])
        check_final(run, seed, options)


@pytest.mark.parametrize("players", (2, 3))
def test_small_table_variant_keeps_invariants(players: int) -> None:
    """The unofficial 2-3 player variant (R35): the same invariants in 100 games each,
    half Beginner and half Expert (alternating sides)."""
    for seed in range(SMALL_TABLE_GAMES):
        options: dict[str, Any] = {"variant": "small-table"}
        if seed % 2:
            options.update(expert=True, emperor_side="AB"[seed // 2 % 2])
        run = play_checked(players, seed, **options)
        assert run.state.small_table and run.state.n == players
        check_final(run, seed, options)


@pytest.mark.parametrize("options", [
    {"expert": True, "emperor_variant": "008"},
    {"expert": True, "emperor_variant": "009", "emperor_side": "B"},
    {"expert": True, "emperor_variant": "008,009"},
    {"start_player": 2},
    {"expert": True, "emperor_side": "B", "start_player": 0},
], ids=["ev008", "ev009-B", "ev008-009", "start2", "B-start0"])
def test_other_options_keep_invariants(options: dict[str, Any]) -> None:
    """The unofficial Emperor faces (R32) and a named start player play to a correct end."""
    for seed in range(30):
        run = play_checked(4, seed, **options)
        if "start_player" in options:
            assert GAME.new_game(4, seed, **options).start == options["start_player"]
        for face in str(options.get("emperor_variant", "")).split(","):
            if face:
                assert face in run.state.emperors
        check_final(run, seed, options)


@pytest.mark.parametrize("mode", [*sorted(MODES), "small-table-2", "small-table-3"])
def test_legal_actions_match_the_rules_at_every_decision(mode: str) -> None:
    """Over 150 random games per mode, at EVERY decision the legal notations equal those
    recomputed from the rules and raw card data (`check_legal_independently`)."""
    if mode.startswith("small-table"):
        players, options = int(mode[-1]), {"variant": "small-table", "expert": True}
    else:
        players, options = MODES[mode]
    for seed in range(5000, 5150):
        state = GAME.new_game(players, seed, **options)
        rng = Rng(seed)
        while not state.is_over():
            check_legal_independently(state, f"{mode} seed {seed} decision {len(state.history)}")
            ids = state.legal_ids()
            state.apply(ids[rng.below(len(ids))])


def test_reference_data_cross_checks() -> None:
    """The raw data this file recomputes from is what the rulebook counts (RULES_NOTES
    section 1): 4 x 16 century cards, 9 Mirror Missions, 4 Heroes/Kofun/starting clans."""
    assert {c: len(ids) for c, ids in DECKS.items()} == {4: 16, 5: 16, 6: 16, 7: 16}
    assert len(MIRROR_GIVERS) == 9 and sum(MIRROR_GIVERS.values()) == 9
    assert len(HEROES) == len(KOFUN) == len(STARTING_CLANS) == 4
    assert sorted(AWARDED_FACES) == ["001", "002", "003", "004", "008"]
    assert len(CENTURY_CLANS) == 15 and len(MISSIONS) == 49


def test_start_player_is_drawn_from_the_seed() -> None:
    """Without the option every seat is sometimes the first start player (R10)."""
    starts = Counter(GAME.new_game(4, seed).start for seed in range(200))
    assert set(starts) == {0, 1, 2, 3}, starts


def test_seats_are_named_by_colour_and_each_notation_is_one_action() -> None:
    """Seats are named by colour (SEAT_NAMES); the action table has one id per notation."""
    state = GAME.new_game(4, 11, expert=True)
    assert [state.name(p) for p in range(4)] == list(SEAT_NAMES)
    assert GAME.num_actions == len(A.TEXTS) == len(set(A.TEXTS))
