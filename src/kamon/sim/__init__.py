"""Simulation tools over the core protocol: tournaments between agents and their statistics,
batch simulations with results as data, the backends they run on, and the balance report.

    tournament   rotated seats, Wilson intervals, openskill ratings
    runner       one batch of seeded games -> result rows (what every backend runs)
    simulation   plans seeds into batches, keeps finished batches, resumes, merges
    results      the results schema, Parquet/CSV reading and writing, the run key
    features     a game's own result columns (kamon.games.<game>.features), found by name
    backends     this process or a local process pool; ray_backend: Ray tasks (lazy import)
    analysis     the numbers behind the report; report: matplotlib figures, HTML, Markdown
"""

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
