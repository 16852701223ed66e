"""The White Castle invariants that must hold after any action, and the sampled checks.

Shared by the seeded property tests (tests/white_castle/test_invariants.py) and the
Hypothesis fuzzing (tests/fuzz/): `check_invariants` (stores in range, the 15 workers
and all dice conserved, a decision exists exactly until the end), `roundtrip` (through
JSON text) and `try_every_legal_action` (every legal action parses, is described and
applies to a clone that keeps the invariants).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from kamon.games.white_castle import GAME, WhiteCastleState

TOTAL_DICE = {2: 9, 3: 12, 4: 15}
WORKERS_PER_KIND = 5
MAX_RESOURCE = 7
MAX_SEALS = 5
PLACEMENTS_PER_PLAYER = 9
MAX_PASSAGE = 20
SCORE_KEYS = {"during_game", "coins_seals", "resources", "passage_of_time", "courtiers",
              "warriors", "gardeners", "total"}


def check_invariants(state: WhiteCastleState, where: str) -> None:
    """Assert the conservation and range invariants that must hold after any action."""
    n = len(state.clans)  # seats, plus the rival in the solo game
    dice = len(state.bridges[0]) + len(state.bridges[1]) + len(state.bridges[2])
    for sp in state.spaces:
        dice += len(sp)
    if state.held is not None:
        dice += 1
    for p, clan in enumerate(state.clans):
        assert clan.coins >= 0, f"{where}: seat {p} has {clan.coins} coins"
        assert 0 <= clan.seals <= MAX_SEALS, f"{where}: seat {p} has {clan.seals} seals"
        assert min(clan.res) >= 0 and max(clan.res) <= MAX_RESOURCE, (
            f"{where}: seat {p} has resources {clan.res}")
        courtiers, gardeners, warriors = clan.left
        on_gardens = 0
        for workers in state.garden_workers:
            on_gardens += workers.count(p)
        assert courtiers + len(clan.courtiers) == WORKERS_PER_KIND, (
            f"{where}: seat {p} courtiers {clan.left} {clan.courtiers}")
        assert gardeners + on_gardens == WORKERS_PER_KIND, (
            f"{where}: seat {p} gardeners {clan.left}, {on_gardens} on gardens")
        assert warriors + len(clan.warriors) == WORKERS_PER_KIND, (
            f"{where}: seat {p} warriors {clan.left} {clan.warriors}")
        assert min(clan.left) >= 0, f"{where}: seat {p} negative workers left {clan.left}"
        assert 0 <= clan.pos <= MAX_PASSAGE, f"{where}: seat {p} at passage {clan.pos}"
        assert clan.cp >= 0, f"{where}: seat {p} has {clan.cp} CP"
        assert 0 <= state.placements[p] <= PLACEMENTS_PER_PLAYER, (
            f"{where}: seat {p} placed {state.placements[p]} dice")
        for d in clan.domain:
            if d is not None:
                dice += 1
    assert dice == TOTAL_DICE[n], f"{where}: {dice} dice in play, expected {TOTAL_DICE[n]}"
    assert 1 <= state.round <= 3, f"{where}: round {state.round}"
    for b, bridge in enumerate(state.bridges):
        assert bridge == sorted(bridge), f"{where}: bridge {b} not ascending: {bridge}"
    over = state.is_over()
    assert (state.to_move is None) == over, f"{where}: to_move {state.to_move}, over {over}"
    legal = state.legal_ids()
    if over:
        assert legal == [], f"{where}: legal actions after the end: {legal}"
        assert state.legal_actions() == []
    else:
        assert legal, f"{where}: no legal action before the end ({state.decision_text()})"
        assert len(set(legal)) == len(legal), f"{where}: duplicate legal actions {legal}"


def roundtrip(state: WhiteCastleState) -> WhiteCastleState:
    """The state through real JSON text and back."""
    return GAME.from_json(json.loads(json.dumps(state.to_json())))


def try_every_legal_action(state: WhiteCastleState, where: str) -> None:
    """Each listed legal action parses from its notation and applies to a clone."""
    before = state.dumps()
    assert all(0 <= aid < GAME.num_actions for aid in state.legal_ids())
    for clan in state.clans:
        assert all(0 <= loc <= 6 for loc in clan.courtiers), f"{where}: {clan.courtiers}"
        assert all(0 <= y <= 2 for y in clan.warriors), f"{where}: {clan.warriors}"
    for bridge in state.bridges:
        assert all(1 <= v <= 6 for v in bridge), f"{where}: bridge {bridge}"
    for action in state.legal_actions():
        assert GAME.parse_action(state, action.text) == action
        assert isinstance(state.describe(action.id), str)
        child = state.clone()
        child.apply(action)
        check_invariants(child, f"{where} after trying {action.text!r}")
        assert child.history[-1] == action.id
    assert state.dumps() == before, f"{where}: trying actions on clones changed the original"


def invariants(start: Any) -> Callable[[Any, str], None]:
    """The checks the contract suite runs after every move of a game begun at `start`
    (tests/contract finds this function by the game's folder name)."""
    return check_invariants
