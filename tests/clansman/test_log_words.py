"""I, Clansman's log and move descriptions name cards by printed number and name, never an
internal id: random games of the Beginner and Expert game (both sides, the Emperor
variant) and the unofficial small table (issue 10)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from kamon.games.clansman import GAME

ID_LIKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+\d+\b")

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (4, {}), (4, {"expert": True, "emperor_side": "A"}),
    (4, {"expert": True, "emperor_side": "B"}),
    (4, {"expert": True, "emperor_side": "A", "emperor_variant": "008,009"}),
    (2, {"variant": "small-table"}), (3, {"variant": "small-table"})]


@pytest.mark.parametrize(("players", "options"), CONFIGS,
                         ids=[f"{n}p-{'-'.join(map(str, o.values())) or 'beginner'}"
                              for n, o in CONFIGS])
def test_no_internal_id_in_the_log_or_move_descriptions(players: int,
                                                        options: dict[str, Any]) -> None:
    """Two random games of each setup: every log line, decision and description is words."""
    for seed in range(2):
        state = GAME.new_game(players, seed=seed, **options)
        rng = random.Random(seed)
        bad: list[str] = []
        read = 0
        while not state.is_over():
            legal = state.legal_actions()
            for text in [state.decision_text()] + [state.describe(a.id) for a in legal]:
                read += 1
                bad += [text] if ID_LIKE.search(text) else []
            state.apply(rng.choice(legal))
        bad += [line for line in state.events if ID_LIKE.search(line)]
        read += len(state.events)
        assert read > 200
        assert not bad, f"{len(bad)} texts with ids, e.g. {bad[:3]}"
