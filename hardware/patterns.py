"""What the alert LED and the buzzer do, as data: one pattern per alert severity.

Buzzer (played once, for each alert raised: `Panel.alert`):

- ``illegal``: three short, quick beeps (0.1 s on, 0.1 s off).
- ``fault``: two long beeps (0.6 s on, 0.3 s off).
- ``warning``: one short beep (0.15 s).
- chirp: one 0.03 s tick, the confirmation that a button press was sent.

Alert LED (repeated while an alert stands; the most severe standing alert wins, a fault
before an illegal play before a warning):

- ``fault``: slow blink (1 s on, 1 s off).
- ``illegal``: fast blink (0.2 s on, 0.2 s off).
- ``warning``: a short flash every 1.5 s.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "BUZZER_PATTERNS",
    "CHIRP",
    "LED_PATTERNS",
    "Pattern",
    "Severity",
    "most_severe",
]


class Severity(StrEnum):
    """The `severity` of an alert (spec/mqtt.md), ordered from least to most urgent."""

    WARNING = "warning"
    ILLEGAL = "illegal"
    FAULT = "fault"

    @property
    def rank(self) -> int:
        """Higher is more urgent: the alert LED shows the most urgent standing alert."""
        return _RANK[self]


_RANK = {Severity.WARNING: 1, Severity.ILLEGAL: 2, Severity.FAULT: 3}


@dataclass(frozen=True)
class Pattern:
    """An on/off pattern for gpiozero's ``blink``: `count` cycles, or forever when None."""

    name: str
    on_time: float
    off_time: float
    count: int | None

    @property
    def duration(self) -> float | None:
        """Seconds the pattern lasts, or None when it repeats until stopped."""
        if self.count is None:
            return None
        return self.count * (self.on_time + self.off_time)


BUZZER_PATTERNS: dict[Severity, Pattern] = {
    Severity.ILLEGAL: Pattern("illegal", on_time=0.1, off_time=0.1, count=3),
    Severity.FAULT: Pattern("fault", on_time=0.6, off_time=0.3, count=2),
    Severity.WARNING: Pattern("warning", on_time=0.15, off_time=0.05, count=1),
}

CHIRP = Pattern("chirp", on_time=0.03, off_time=0.02, count=1)

LED_PATTERNS: dict[Severity, Pattern] = {
    Severity.FAULT: Pattern("fault", on_time=1.0, off_time=1.0, count=None),
    Severity.ILLEGAL: Pattern("illegal", on_time=0.2, off_time=0.2, count=None),
    Severity.WARNING: Pattern("warning", on_time=0.1, off_time=1.4, count=None),
}


def most_severe(severities: Iterable[Severity]) -> Severity | None:
    """The most urgent of `severities`, or None when there are none."""
    return max(severities, key=lambda s: s.rank, default=None)
