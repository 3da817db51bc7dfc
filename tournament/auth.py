"""The director's password: a login form, then a session cookie.

The password is read from a file at start-up (never on the command line). A wrong one is
answered after half a second, and five wrong ones in a row from one address lock that
address out for a minute. Sessions are random tokens kept in memory: a restarted desk
asks the director to log in again.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

COOKIE = "desk_session"
WRONG_DELAY_S = 0.5
LOCK_AFTER = 5
LOCK_S = 60.0


@dataclass
class Sessions:
    password: str = field(repr=False)
    clock: Callable[[], float] = time.monotonic
    tokens: set[str] = field(default_factory=set, repr=False)
    wrong: dict[str, int] = field(default_factory=dict)
    locked_until: dict[str, float] = field(default_factory=dict)

    def locked(self, address: str) -> float:
        """Seconds `address` must still wait (0: it may try)."""
        return max(0.0, self.locked_until.get(address, 0.0) - self.clock())

    def login(self, address: str, password: str) -> str | None:
        """A new session token, or None for a wrong password (counted against `address`)."""
        if hmac.compare_digest(password.encode(), self.password.encode()):
            self.wrong.pop(address, None)
            token = secrets.token_urlsafe(32)
            self.tokens.add(token)
            return token
        self.wrong[address] = self.wrong.get(address, 0) + 1
        if self.wrong[address] >= LOCK_AFTER:
            self.wrong.pop(address)
            self.locked_until[address] = self.clock() + LOCK_S
        return None

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        return any(hmac.compare_digest(token, known) for known in self.tokens)

    def logout(self, token: str | None) -> None:
        if token:
            self.tokens.discard(token)
