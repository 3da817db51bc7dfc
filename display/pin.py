"""The display's command PIN: checked on every command, guessing limited.

The page sends the PIN in the `X-Display-Pin` header of each `POST /api/cmd`. It is
compared with `hmac.compare_digest`. A wrong PIN is answered only after `delay_s`; after
`tries` wrong PINs in a row from one client address, that address is refused for
`lockout_s` (even with the right PIN) and its count starts again.

`domino-table display` asks for a PIN by default: without `--command-pin-file` it keeps
one in its state folder (`default_pin_file`), made at the first start (`keep_new_pin`).
"""

from __future__ import annotations

import hmac
import os
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from config.settings import default_state_dir
from durable import create_file, make_dirs

HEADER = "X-Display-Pin"
PIN_DIGITS = 6


def new_pin() -> str:
    """A new PIN: `PIN_DIGITS` random digits."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


def default_pin_file(table: str, environ: Mapping[str, str] = os.environ) -> Path:
    """Where the display keeps the PIN of `table` (a valid table id) when not told: the
    state folder systemd gives it (`STATE_DIRECTORY`), else the table service's."""
    given = environ.get("STATE_DIRECTORY", "").split(":")[0]
    folder = Path(given) if given else default_state_dir()
    return folder / f"display-{table}.pin"


def keep_new_pin(path: Path) -> str:
    """Make a new PIN and keep it in `path` (a new file, mode 600); OSError when it
    cannot (the file exists, or the folder cannot be written)."""
    pin = new_pin()
    make_dirs(path.parent)
    create_file(path, pin + "\n", mode=0o600)  # whole or not there, even across a power cut
    return pin


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
