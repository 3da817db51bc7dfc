"""The display's optional command PIN: checked on every command, guessing limited.

The page sends the PIN in the `X-Display-Pin` header of each `POST /api/cmd`. It is
compared with `hmac.compare_digest`. A wrong PIN is answered only after `delay_s`; after
`tries` wrong PINs in a row from one client address, that address is refused for
`lockout_s` (even with the right PIN) and its count starts again.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass

HEADER = "X-Display-Pin"


@dataclass
class _Client:
    wrong: int = 0
    locked_until: float = 0.0
    last: float = 0.0


class PinGuard:
    """Says whether a client's PIN is right, counting wrong ones per client address."""

    def __init__(
        self,
        pin: str,
        *,
        tries: int = 5,
        lockout_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._pin = pin.encode("utf-8")
        self.tries = tries
        self.lockout_s = lockout_s
        self.clock = clock
        self._clients: dict[str, _Client] = {}

    def locked_for(self, client: str) -> float:
        """Seconds this client is still locked out (0: not locked)."""
        entry = self._clients.get(client)
        if entry is None:
            return 0.0
        return max(0.0, entry.locked_until - self.clock())

    def check(self, client: str, given: str) -> bool:
        """True for the right PIN (the client's count is cleared); False counts a try."""
        self._forget_old()
        if hmac.compare_digest(given.encode("utf-8"), self._pin):
            self._clients.pop(client, None)
            return True
        now = self.clock()
        entry = self._clients.setdefault(client, _Client())
        entry.wrong += 1
        entry.last = now
        if entry.wrong >= self.tries:
            entry.wrong = 0
            entry.locked_until = now + self.lockout_s
        return False

    def _forget_old(self) -> None:
        """Drop clients quiet for a whole lock-out and not locked (memory stays small)."""
        now = self.clock()
        for client in [
            c
            for c, e in self._clients.items()
            if e.locked_until <= now and now - e.last > self.lockout_s
        ]:
            del self._clients[client]
