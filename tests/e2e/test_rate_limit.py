"""The web client under the server's write rate limit: a refused write (429) is sent
again after the wait the server names, so a quick player loses no move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.conftest import Server


@pytest.mark.timeout(120)
def test_writes_refused_by_the_rate_limit_are_sent_again_after_retry_after(
        server_factory: Callable[..., Server], new_page: Callable[..., Any]) -> None:
    """Four writes at once against a limit of one a second (burst one): the client's
    api() waits out each 429 and every write is stored, none twice."""
    srv = server_factory(extra=("--rate-limit", "1", "--rate-burst", "1"))
    page = new_page("player")
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if "/api/games" in r.url else None)
    page.goto(srv.url + "/")
    result = page.evaluate("""async () => {
        const { api } = await import('/static/api.js');
        const body = { game: 'white-castle', players: 1, seats: ['human'], options: {} };
        const made = await Promise.allSettled([1, 2, 3, 4].map(() => api('/api/games', body)));
        return made.map(m => m.status === 'fulfilled' ? m.value.id : 'refused: ' + m.reason);
    }""")
    assert all(not str(r).startswith("refused") for r in result), result
    assert len(set(result)) == 4
    # the server did refuse some (the client did not just happen to stay under the limit)
    assert statuses.count(429) >= 1 and statuses.count(201) == 4, statuses
