"""What detection reports: tiles, unsure places, and the frame's summary.

Plain frozen values in pixels; `Detection.snapshot` hands them to the engine as a
`Snapshot` in table millimetres.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from engine.surface import SeenTile, Snapshot, Unsure
from vision.trace import LookRecord

Point = tuple[float, float]
ToMm = Callable[[Point], Point]


def _same(p: Point) -> Point:
    return p


@dataclass(frozen=True, slots=True)
class FoundTile:
    """One face-up tile: pips on half a and b, their centres in pixels, a confidence."""

    pips: tuple[int, int]
    px: tuple[Point, Point]
    confidence: float

    def __str__(self) -> str:
        (xa, ya), (xb, yb) = self.px
        return f"{self.pips[0]}-{self.pips[1]}@({xa:.0f},{ya:.0f})-({xb:.0f},{yb:.0f})"

    def seen(self, to_mm: ToMm = _same) -> SeenTile:
        """This tile as the engine's `SeenTile`, its half centres mapped by `to_mm`."""
        (xa, ya), (xb, yb) = to_mm(self.px[0]), to_mm(self.px[1])
        return SeenTile(self.pips[0], self.pips[1], xa, ya, xb, yb, self.confidence)


class UnsureReason(StrEnum):
    """Why a place is unsure: a closed set that other parts decide by (the camera path
    reads some of them again by the tile's known size, `auto` goes on to another tone
    while pips of an unread tile are left). Each is also the sentence people see (the
    snapshot's `Unsure.reason`, the `UNREADABLE` alert), so rewording one changes
    no decision."""

    STRAY_PIPS = "pips of a tile that was not read"
    LOPSIDED = "pips in no domino's layout"
    NOT_PIPS = "marks that are not pips"
    COVERED = "partly covered"
    FAINT_MARK = "a faint mark that may be a pip"
    NO_DIVIDER = "tile-shaped, no divider"
    WRONG_SIZE = "not the size of a tile"
    LOOSE_LINE = "a line like a divider on no tile read (a tile without pips?)"
    ARM = "something lies over the table (a hand or an arm)"
    NOT_IN_SET = "a number the set has not"


@dataclass(frozen=True, slots=True)
class UnsureRegion:
    """A place where something tile-like was seen but could not be read."""

    x: float
    y: float
    reason: UnsureReason


@dataclass(frozen=True, slots=True)
class Detection:
    """Everything found in one frame, and which looks found it (`looks`)."""

    tiles: tuple[FoundTile, ...]
    facedown: int = 0
    unsure: tuple[UnsureRegion, ...] = field(default=())
    ms: float = 0.0
    tile_width_px: float = 0.0
    looks: tuple[LookRecord, ...] = field(default=())  # which looks ran, and what each did
    # the search passes the frame took, in passes over the whole searched image
    # (`vision.trace.Trace.spend`)
    passes: float = 0.0

    def snapshot(self, to_mm: ToMm = _same, at: float = 0.0) -> Snapshot:
        """What the camera saw, as the engine's `Snapshot`.

        `to_mm` maps a pixel to table millimetres (a calibration's map); by default
        positions stay in pixels.
        """
        unsure = tuple(Unsure(*to_mm((u.x, u.y)), u.reason) for u in self.unsure)
        return Snapshot(tuple(t.seen(to_mm) for t in self.tiles), self.facedown, unsure, at)
