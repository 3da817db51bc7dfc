"""A software guard against contact bounce, on top of gpiozero's ``bounce_time``.

gpiozero hands ``bounce_time`` to the pin factory. lgpio (the default on Pi 4 and Pi 5)
filters in the library; gpiozero's MockPin stores the value but does not apply it. The
panel therefore also accepts a press only after the button has been quiet (no edge at
all) for ``bounce_time``, which makes one press one command on every factory.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["QuietGuard"]


class QuietGuard:
    """Accepts an edge only when the previous edge is at least `quiet` seconds old."""

    def __init__(self, quiet: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet = quiet
        self._clock = clock
        self._last: float | None = None
        self._lock = threading.Lock()

    def edge(self) -> bool:
        """Record an edge (press or release); True when it came after a quiet spell."""
        now = self._clock()
        with self._lock:
            quiet = self._last is None or now - self._last >= self.quiet
            self._last = now
        return quiet
