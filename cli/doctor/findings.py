"""What one check of `domino-table doctor` found: ok, a problem with its fix, or skipped."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from config.settings import Settings


class Status(enum.Enum):
    OK = "ok"
    PROBLEM = "PROBLEM"
    SKIPPED = "skip"


@dataclass(frozen=True)
class Finding:
    """What one check found: `fix` says what to do, for a problem."""

    part: str
    status: Status
    detail: str
    fix: str | None = None

    def lines(self) -> list[str]:
        out = [f"{self.status.value:8} {self.part:7} {self.detail}"]
        if self.fix is not None:
            out.append(f"{'':8} {'':7} fix: {self.fix}")
        return out


def ok(part: str, detail: str) -> Finding:
    return Finding(part, Status.OK, detail)


def problem(part: str, detail: str, fix: str) -> Finding:
    return Finding(part, Status.PROBLEM, detail, fix)


def skipped(part: str, detail: str) -> Finding:
    return Finding(part, Status.SKIPPED, detail)


Check = Callable[[Settings, float], list[Finding]]
"""One part's check: the settings and how long it may wait, to what it found."""
