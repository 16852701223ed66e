"""The live sockets of each game on this server process, and what each still has to be
sent: only the newest state (a slow client delays nobody), and a socket that stops
reading is closed (`stalled`).
"""

from __future__ import annotations

import asyncio
import contextlib

from kamon.server.guard import Send

SEND_TIMEOUT = 20.0  # a socket that takes longer to accept one message is closed
# Quotas that strangers cannot turn against players: spectators (no token) have their own
# per game and per address; a seat's sockets are counted per seat only (a player's tabs),
# so no number of spectators ever keeps a player off their own game.
MAX_SPECTATORS_PER_GAME = 64
MAX_SPECTATORS_PER_ADDRESS = 16  # spectator sockets one address holds, over every game
MAX_SOCKETS_PER_SEAT = 8
MAX_SOCKETS = 10_000  # every socket of the process (seats may use the last SEAT_RESERVE)
SEAT_RESERVE = 1_000


class Conn:
    """One socket (its ASGI `send`): the seat it views as, and what it still has to be
    sent."""

    def __init__(self, send: Send, seat: int | None, client: str = "?") -> None:
        """A socket (of `client`'s address) that has been sent nothing yet."""
        self.send = send
        self.seat = seat
        self.client = client
        self.version = -1  # the newest version queued or sent
        self.state: str | None = None  # the newest state not yet sent
        self.other: list[str] = []  # other messages (pongs), in order
        self.sender: asyncio.Task[None] | None = None
        self.sending_since = 0.0  # loop time the current send started (0: none)
        self.closed = False

    def push(self, version: int, message: str) -> None:
        """Queue the state at `version` (replacing an older one not yet sent)."""
        if version <= self.version or self.closed:
            return
        self.version = version
        self.state = message
        self._wake()

    def push_other(self, message: str) -> None:
        """Queue a message that is not a state."""
        if not self.closed and len(self.other) < 8:
            self.other.append(message)
            self._wake()

    def _wake(self) -> None:
        """Start the sender if it is not running."""
        if self.sender is None or self.sender.done():
            self.sender = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        """Send what is queued; a socket that fails is closed (one that stalls is closed
        by the watchdog, `stalled`)."""
        loop = asyncio.get_running_loop()
        try:
            while not self.closed and (self.other or self.state is not None):
                if self.other:
                    message = self.other.pop(0)
                else:
                    message, self.state = self.state, None  # type: ignore[assignment]
                self.sending_since = loop.time()
                await self.send({"type": "websocket.send", "text": message})
                self.sending_since = 0.0
        except Exception:
            self.closed = True
            await self.close(1011, "could not send")

    async def close(self, code: int, reason: str) -> None:
        """Close the socket, whatever state it is in."""
        with contextlib.suppress(Exception):
            await self.send({"type": "websocket.close", "code": code, "reason": reason})

    def stalled(self, now: float) -> bool:
        """Has one message been on its way for longer than SEND_TIMEOUT?"""
        return self.sending_since > 0 and now - self.sending_since > SEND_TIMEOUT


class Hub:
    """The live sockets of each game."""

    def __init__(self) -> None:
        """No sockets yet."""
        self.games: dict[str, dict[Conn, None]] = {}
        self.count = 0
        self.spectators: dict[str, int] = {}  # spectator sockets by client address

    def refusal(self, game_id: str, seat: int | None, client: str) -> str | None:
        """Why one more socket of `seat` (None: a spectator) from `client` may not open,
        in words; None if it may."""
        conns = self.games.get(game_id, {})
        if seat is not None:
            if sum(1 for c in conns if c.seat == seat) >= MAX_SOCKETS_PER_SEAT:
                return (f"this seat has {MAX_SOCKETS_PER_SEAT} sockets open already (close "
                        "another tab of this game)")
            return "the server has too many sockets open" if self.count >= MAX_SOCKETS \
                else None
        if sum(1 for c in conns if c.seat is None) >= MAX_SPECTATORS_PER_GAME:
            return (f"this game has {MAX_SPECTATORS_PER_GAME} spectators already: watch it "
                    "later, or as a replay when it is over")
        if self.spectators.get(client, 0) >= MAX_SPECTATORS_PER_ADDRESS:
            return (f"your address watches {MAX_SPECTATORS_PER_ADDRESS} games already: "
                    "close one first")
        if self.count >= MAX_SOCKETS - SEAT_RESERVE:
            return "the server has too many sockets open"
        return None

    def add(self, game_id: str, send: Send, seat: int | None, client: str = "?"
            ) -> Conn | str:
        """Register a socket: its Conn, or why it may not open (`refusal`)."""
        why = self.refusal(game_id, seat, client)
        if why is not None:
            return why
        conn = Conn(send, seat, client)
        self.games.setdefault(game_id, {})[conn] = None
        self.count += 1
        if seat is None:
            self.spectators[client] = self.spectators.get(client, 0) + 1
        return conn

    def remove(self, game_id: str, conn: Conn) -> None:
        """Forget a socket."""
        conns = self.games.get(game_id)
        if conns is not None and conn in conns:
            del conns[conn]
            conn.closed = True
            self.count -= 1
            if conn.seat is None:
                left = self.spectators.get(conn.client, 1) - 1
                if left > 0:
                    self.spectators[conn.client] = left
                else:
                    self.spectators.pop(conn.client, None)
            if not conns:
                del self.games[game_id]

    def conns(self, game_id: str) -> list[Conn]:
        """The sockets of a game."""
        return list(self.games.get(game_id, ()))

    def seats(self, game_id: str) -> set[int | None]:
        """The seats (None: spectators) that have a socket on the game."""
        return {c.seat for c in self.games.get(game_id, ())}

    def version(self, game_id: str) -> int:
        """The version every socket of the game has been queued (the oldest socket's:
        a newer one is news to it)."""
        return min((c.version for c in self.games.get(game_id, ())), default=-1)
