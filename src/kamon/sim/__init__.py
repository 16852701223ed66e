"""Simulation tools over the core protocol: tournaments between agents and their statistics."""

from __future__ import annotations

from kamon.sim.tournament import (
    GameResult,
    Line,
    Rating,
    TournamentGame,
    TournamentResult,
    lineup,
    play_game,
    run_tournament,
    schedule,
    wilson,
)

__all__ = ["GameResult", "Line", "Rating", "TournamentGame", "TournamentResult", "lineup",
           "play_game", "run_tournament", "schedule", "wilson"]
