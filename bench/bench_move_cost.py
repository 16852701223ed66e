"""Benchmark of a move's CPU in the server's own code, without any network: the floor
under the web server's CPU per move.

Usage: python bench/bench_move_cost.py [--games N] [--seed S] [--game G --players P]

Plays N games (two-player White Castle unless told) with human seats through the service the
server uses (`GameService.move`: the checks, the engine, the versioned append and its
commit to a fresh SQLite file), random legal moves, and after each move renders the two
seats' WebSocket state messages (and a spectator's) as the server does for a socket per seat. Prints the
CPU time of this thread per move for each part (the commit's disk wait is not CPU), its
sum, and the moves per second one core could serve if nothing else (HTTP, WebSocket
frames, the event loop, threads) cost anything. `bench_load.py` measures the whole
server; the difference is what the network side costs. Prints, never asserts.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from kamon.server.service import GameService
from kamon.server.store import Store
from kamon.server.views import state_message


def main(argv: list[str] | None = None) -> int:
    """Play the games; print CPU per move by part."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="white-castle")
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args(argv)
    db = Path(tempfile.mkdtemp(prefix="kamon-bench-")) / "bench.db"
    store = Store(str(db))
    service = GameService(store)
    rng = random.Random(args.seed)
    move_cpu = render_cpu = 0.0
    moves = 0
    try:
        for _ in range(args.games):
            created = service.create({"game": args.game, "players": args.players,
                                      "seats": ["human"] * args.players})
            tokens = {s["seat"]: s["token"] for s in created["seats"]}
            loaded = service.load(created["id"])
            while not loaded.state.is_over():
                seat = loaded.state.to_move
                assert seat is not None
                aid = rng.choice(loaded.state.legal_actions()).id
                t0 = time.thread_time()
                loaded = service.move(created["id"], tokens[seat], aid, loaded.version)
                t1 = time.thread_time()
                for viewer in [*range(args.players), None]:
                    state_message(loaded, viewer)
                t2 = time.thread_time()
                move_cpu += t1 - t0
                render_cpu += t2 - t1
                moves += 1
    finally:
        store.close()
    total = move_cpu + render_cpu
    print(f"{args.games} {args.players}-player {args.game} games, {moves} moves, in one "
          "thread, no network (CPU time of the thread)")
    print(f"  the move (checks, engine, append and its commit): "
          f"{1e6 * move_cpu / moves:6.0f} us")
    print(f"  every seat's and a spectator's state message:     "
          f"{1e6 * render_cpu / moves:6.0f} us")
    print(f"  together:                                         {1e6 * total / moves:6.0f} us"
          f"  -> at most {moves / total:,.0f} moves/s on one core before any network work")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
