"""Simulation tools over the core protocol: tournaments between agents and their statistics,
batch simulations with results as data, the backends they run on, and the balance report.

    game_loop    the one game loop and seeding rule of simulate, tournament and sweep;
                 placements and result rows of a finished game
    tournament   rotated seats, per agent and per seat tables, openskill ratings (ratings)
    runner       one batch of seeded games -> result rows (what every backend runs)
    simulation   plans seeds into batches, keeps finished batches, resumes, merges
    results      the results schema, Parquet/CSV reading and writing, the run key
    stats        intervals (Wilson, t) and tests on differences (kamon compare)
    backends     this process or a local process pool; ray_backend: Ray tasks (lazy import)
    analysis     the numbers behind the report; report: matplotlib figures, HTML, Markdown
"""

from __future__ import annotations

from kamon.sim.ratings import Rating
from kamon.sim.stats import wilson
from kamon.sim.tournament import (
    GameResult,
    Line,
    TournamentGame,
    TournamentResult,
    lineup,
    play_game,
    run_tournament,
    schedule,
)

__all__ = ["GameResult", "Line", "Rating", "TournamentGame", "TournamentResult", "lineup",
           "play_game", "run_tournament", "schedule", "wilson"]
