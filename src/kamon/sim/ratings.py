"""openskill ratings of the participants of finished games: the tournament's ratings table and
the skill matrix of `kamon report` (Plackett-Luce, games taken in order)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass
class Rating:
    """An openskill rating: mean, uncertainty and the conservative ordinal mu - 3 sigma."""

    agent: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: the skill the agent very probably has at least."""
        return self.mu - 3 * self.sigma


def rate(games: Iterable[tuple[Sequence[str], Sequence[int]]]) -> list[Rating]:
    """openskill Plackett-Luce ratings of the participants of some games, taken in order
    (each game: the participant of each clan and its placement, 1 = best), best ordinal
    first. An agent in several seats of a game gets the mean of its seats' updates."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[str, Any] = {}
    for names, places in games:
        for name in names:
            if name not in current:
                current[name] = model.rating(name=name)
        teams = [[current[name]] for name in names]
        rated = model.rate(teams, ranks=[float(r) for r in places])
        updates: dict[str, list[Any]] = {}
        for name, team in zip(names, rated, strict=True):
            updates.setdefault(name, []).append(team[0])
        for name, news in updates.items():  # an agent in several seats: mean update
            mu = sum(r.mu for r in news) / len(news)
            sigma = sum(r.sigma for r in news) / len(news)
            current[name] = model.rating(mu=mu, sigma=sigma, name=name)
    out = [Rating(name, r.mu, r.sigma) for name, r in current.items()]
    return sorted(out, key=lambda r: -r.ordinal)
