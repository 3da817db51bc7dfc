"""What a source (instrumented board or camera) sees on the table's surface.

Coordinates are millimetres on the play surface: origin top-left, x to the right, y
down (the board protocol's frame; the camera maps into it by calibration). These are
plain values shared by every source and the reconciler; they judge nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.tiles import Tile


@dataclass(frozen=True, slots=True)
class SeenTile:
    """One face-up tile: half `a` centred at (xa, ya), half `b` at (xb, yb)."""

    a: int
    b: int
    xa: float
    ya: float
    xb: float
    yb: float
    confidence: float = 1.0

    @property
    def tile(self) -> Tile:
        return Tile(self.a, self.b)

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.xa + self.xb) / 2, (self.ya + self.yb) / 2)

    def high_first(self) -> SeenTile:
        """The same tile with the half showing the higher number as `a`."""
        if self.a >= self.b:
            return self
        return SeenTile(self.b, self.a, self.xb, self.yb, self.xa, self.ya, self.confidence)

    def __str__(self) -> str:
        return f"{self.a}-{self.b}@({self.xa:.0f},{self.ya:.0f})-({self.xb:.0f},{self.yb:.0f})"


@dataclass(frozen=True, slots=True)
class Unsure:
    """A place where the source sees something it cannot read with confidence."""

    x: float
    y: float
    reason: str


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything a source sees at one settled moment.

    `facedown` counts face-down tiles (boneyard, hands laid flat), or is None when the
    source cannot see them (the board never reports them).
    """

    tiles: tuple[SeenTile, ...]
    facedown: int | None = None
    unsure: tuple[Unsure, ...] = field(default=())
    at: float = 0.0  # the source's monotonic clock, seconds
