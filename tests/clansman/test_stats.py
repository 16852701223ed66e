"""I, Clansman's post-game statistics (stats.py), from a record by replay: the points by
category at the start and each round's end agree with the game's scores, and each
player's figures with the record (marriages, dowries, Missions)."""

from __future__ import annotations

import random

from kamon.games.clansman import GAME
from kamon.games.clansman import actions as A
from kamon.games.clansman.stats import game_stats


def test_the_statistics_agree_with_the_game() -> None:
    """16 rounds of points (the last the final scores); a marriage a round for each player
    (own, another's clan or a Royal Prince), a Tadokoro spent for each one not into their
    own clan; the Missions obtained; every log line starting with a player's colour is
    that player's."""
    options = {"expert": True, "emperor_side": "A"}
    state = GAME.new_game(4, 3, **options)
    rng = random.Random(3)
    ids = []
    while not state.is_over():
        a = rng.choice(state.legal_actions())
        ids.append(a.id)
        state.apply(a)
    stats = game_stats(GAME.new_game(4, 3, **options), ids)
    labels = [p["label"] for p in stats["points"]]
    assert labels == ["Start"] + [f"Round {r}" for r in range(1, 16)] + ["Final"]
    assert stats["points"][-1]["scores"] == state.scores()
    fig = {f["label"]: f["values"] for f in stats["figures"]}
    married = sum(1 for a in ids if a in A.MARRY_OF)
    assert sum(sum(m.values()) for m in fig["Marriages"]) == married
    for q, pl in enumerate(state.players):
        m = fig["Marriages"][q]
        assert fig["Tadokoro spent"][q] >= m["other"] + m["prince"]
        assert fig["Missions"][q] == len(pl.missions)
    for line, q in zip(state.events, stats["log_parties"], strict=True):
        if q is not None:
            assert line.startswith(state.name(q)), (line, q)
