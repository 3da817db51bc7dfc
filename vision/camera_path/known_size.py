"""Reading tiles by their known size where the detector left a place unread.

The detector alone finds a tile by its divider line and measures the tile width from
it. On a calibrated frame the camera path knows more: millimetres per pixel and the
tile's size in mm, so a tile's long and short sides in pixels are known before
looking. Under a glare spot a divider may fade to a few grey levels, fainter than
the detector's mark threshold, while the pips still plainly show; a person reads
such a tile at once, by its pips sitting in the 3x3 grid of each square half and the
tile's known size. `read_anchored` does that, only around the places the detector
reported unsure (and over the whole play area when it read nothing at all):

1. the frame around each place is warped to the table plane (`Calibration`), at
   about the camera's own resolution, so every tile there has the known size in
   pixels whatever the perspective; the set's tone image (`vision.tiles.dark_marks.tone_image`)
   makes tiles bright and their marks dark;
2. pips are the local peaks of a black-hat (`vision.pips.grid`: the marks darker
   than the face around them, on a disc of half a tile width) that stand alone:
   lower all round them at a pip's radius (a divider line or a gap between tiles
   does not);
3. each pip, for each tile direction looked at (the table's axes and those of the
   tiles the detector read), proposes tiles of the known size holding it at any of
   the nine grid places of either half; each proposal is fitted to its pips (the pips
   of a standard layout are centred on their half) and kept only when every pip on it
   or just beyond its edge sits in a grid place of one half, each half's pips form a
   standard layout of 0-6 (`vision.pips.layouts`, the table every pip reader
   shares), the empty grid places show no fainter mark (a
   pip missed would read a 5 as a 4), the divider line between the halves is darker
   than the face on both sides of it, and it does not overlap a tile already read;
4. the pips near each place must be explained exactly, each by one tile, the tiles not
   overlapping: every way of doing so is looked for, and only the tiles that are in
   all of them are read. A place whose pips are all explained is no longer unsure;
   anything else stays unsure. A divider-like line on no tile read (a tile without
   pips) keeps its window's places unsure and is an unsure place itself, listed
   first, so the unreadable spot points at it.

The detector alone (no calibration) never runs this; nor does a frame without
unsure places that read some tile. The thresholds are `KnownSizeSettings` (the
pipeline's `PipelineSettings.known_size`), those of the grid reader its `grid`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration.homography import Calibration
from vision.detector.by_grid import LOOK_AGAIN
from vision.detector.results import Detection, FoundTile, UnsureReason, UnsureRegion
from vision.pips.grid import GridTile
from vision.pips.grid_read import read_grid
from vision.pips.settings import GRID, GridSettings
from vision.tiles.dark_marks import Tone, tone_image
from vision.tuning import check_bounds

__all__ = ["READ_AGAIN", "KnownSizeSettings", "read_anchored", "sized"]

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]

# Unsure places worth reading again: those the detector reads again by its pips'
# grid (unread pips, a faint mark, marks that are not pips: a faded divider breaks
# into blobs, a tile-shaped region without a divider, a layout no domino has), a tile
# of the wrong size, a number the enrolled set has not. Not a hand (partly covered).
READ_AGAIN = LOOK_AGAIN | {UnsureReason.WRONG_SIZE, UnsureReason.NOT_IN_SET}


@dataclass(frozen=True, slots=True)
class KnownSizeSettings:
    """Reading places the detector left unsure by the tile's known size. Lengths in
    tile lengths (`reach_tiles`, `place_reach`) or widths (the others)."""

    reach_tiles: float = 3.0  # a window reaches this many tile lengths around a place
    # a place is read when the pips chained to it at most this many tile lengths apart
    # are all on tiles read
    place_reach: float = 1.0
    size_tol: float = 0.2  # a tile read with its halves this share nearer or further
    # apart than a half tile length is a wrong one
    grid: GridSettings = GRID  # the pips on the grid of each half (`vision.pips.grid`)

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "reach_tiles": (0.5, 100.0),
                "place_reach": (0.0, 100.0),
                "size_tol": (0.0, 1.0),
            },
        )


KNOWN_SIZE = KnownSizeSettings()  # the defaults


def read_anchored(
    image: U8,
    detection: Detection,
    calibration: Calibration,
    tone: Tone | None,
    tile_mm: tuple[float, float] = (48.0, 24.0),
    cfg: KnownSizeSettings = KNOWN_SIZE,
) -> Detection:
    """The detection with the tiles read by their known size where it was unsure.

    Runs only when the detection has unsure places worth reading again (`READ_AGAIN`)
    or read no tile at all; otherwise the detection is returned as it is. `tone` None
    (auto) tries light, dark and grey, keeping the first reading that adds a tile.
    """
    detection = sized(detection, calibration, tile_mm, cfg)
    places = [u for u in detection.unsure if u.reason in READ_AGAIN]
    if not places and detection.tiles:
        return detection
    for t in (Tone.LIGHT, Tone.DARK, Tone.GREY) if tone is None else (tone,):
        out = _read_places(image, detection, places, calibration, t, tile_mm, cfg)
        if out is not detection:
            return out
    return detection


def sized(
    detection: Detection,
    calibration: Calibration,
    tile_mm: tuple[float, float],
    cfg: KnownSizeSettings = KNOWN_SIZE,
) -> Detection:
    """The detection with every tile whose halves lie not a tile's half length apart on
    the table (within `KnownSizeSettings.size_tol`) made an unsure place: on a calibrated table the
    tile's size is known, and such a reading is a wrong one (a width agreed on from
    stray lines)."""
    if not detection.tiles:
        return detection
    px = np.array([t.px for t in detection.tiles], dtype=np.float64)
    mm = calibration.px_to_mm(px)
    apart = np.linalg.norm(mm[:, 1] - mm[:, 0], axis=1)
    wrong = np.abs(apart - tile_mm[0] / 2) > cfg.size_tol * tile_mm[0] / 2
    if not np.any(wrong):
        return detection
    tiles = tuple(t for t, w in zip(detection.tiles, wrong, strict=True) if not w)
    unsure = tuple(
        UnsureRegion(
            (t.px[0][0] + t.px[1][0]) / 2, (t.px[0][1] + t.px[1][1]) / 2, UnsureReason.WRONG_SIZE
        )
        for t, w in zip(detection.tiles, wrong, strict=True)
        if w
    )
    return replace(detection, tiles=tiles, unsure=(*detection.unsure, *unsure))


def _read_places(
    image: U8,
    detection: Detection,
    places: list[UnsureRegion],
    calibration: Calibration,
    tone: Tone,
    tile_mm: tuple[float, float],
    cfg: KnownSizeSettings,
) -> Detection:
    scale = 1.0 / calibration.mm_per_px()
    length_mm, width_mm = tile_mm
    reach = cfg.reach_tiles * length_mm
    w_mm, h_mm = calibration.size_mm
    lo = np.array([-reach / 3, -reach / 3])
    hi = np.array([w_mm + reach / 3, h_mm + reach / 3])
    if places:
        centres = calibration.px_to_mm(np.array([(u.x, u.y) for u in places], dtype=np.float64))
        boxes = [(np.maximum(c - reach, lo), np.minimum(c + reach, hi)) for c in centres]
    else:
        boxes = [(lo, hi)]
    added: list[FoundTile] = []
    left: list[FloatArray] = []
    free: list[FloatArray] = []
    known = list(detection.tiles)
    unread: set[int] = set()  # places in a window with a line on no tile
    lines: list[FloatArray] = []  # those lines, image pixels
    for box_lo, box_hi, members in _merge(boxes):
        window = _read_window(
            image, calibration, tone, scale, (length_mm, width_mm), (box_lo, box_hi), known, cfg
        )
        added += window.tiles
        known += window.tiles
        left.append(window.left)
        free.append(window.free)
        if window.lines:
            unread |= set(members)
            lines.append(window.line_at)
    # A line on no tile is an unsure place itself, where the tile lies (an unsure place
    # nearer than a tile width says as much): UNREADABLE points there, not at the
    # place whose window found it.
    at = calibration.px_to_mm(np.concatenate(lines)) if lines else np.zeros((0, 2))
    spots = [(u, calibration.px_to_mm((u.x, u.y))) for u in detection.unsure]
    by_line = tuple(
        UnsureRegion(float(px[0]), float(px[1]), UnsureReason.LOOSE_LINE)
        for px, mm in zip(np.concatenate(lines) if lines else [], at, strict=True)
        if all(np.linalg.norm(mm - c) > width_mm for _, c in spots)
    )
    if not added:
        if by_line:
            return replace(detection, unsure=(*by_line, *detection.unsure))
        return detection
    read_there = _places_read(calibration, left, free, cfg.place_reach * length_mm)
    keep = tuple(
        u
        for u in detection.unsure
        if u not in places or places.index(u) in unread or not read_there(u)
    )
    return replace(detection, tiles=(*detection.tiles, *added), unsure=(*by_line, *keep))


def _places_read(
    calibration: Calibration, left: list[FloatArray], free: list[FloatArray], near: float
) -> Callable[[UnsureRegion], bool]:
    """Whether a place is read: pips lie near it (within `near` mm) and every one of
    them, and of those chained to them, is on a tile read (`left`: the pips off every
    tile read, `free`: those off the detector's tiles, image pixels)."""
    left_mm = calibration.px_to_mm(np.concatenate(left)) if left else np.zeros((0, 2))
    free_mm = calibration.px_to_mm(np.concatenate(free)) if free else np.zeros((0, 2))
    links = np.linalg.norm(free_mm[:, None, :] - free_mm[None, :, :], axis=2) <= near
    lost = np.array(
        [bool(len(left_mm)) and bool(np.any(np.all(left_mm == f, axis=1))) for f in free_mm]
    )

    def read_there(u: UnsureRegion) -> bool:
        """Pips lie near the place, and none of those chained to it is off a tile."""
        at = calibration.px_to_mm((u.x, u.y))
        reached = np.linalg.norm(free_mm - at, axis=1) <= near
        if not np.any(reached):
            return False
        while True:
            more = reached | np.any(links[reached], axis=0)
            if np.array_equal(more, reached):
                break
            reached = more
        return not bool(np.any(lost[reached]))

    return read_there


def _merge(
    boxes: list[tuple[FloatArray, FloatArray]],
) -> Iterator[tuple[FloatArray, FloatArray, list[int]]]:
    """Overlapping boxes as one, with the indices of the boxes in each."""
    groups = [(lo, hi, [i]) for i, (lo, hi) in enumerate(boxes)]
    merged = True
    while merged:
        merged = False
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                (alo, ahi, am), (blo, bhi, bm) = groups[i], groups[j]
                if np.all(alo <= bhi) and np.all(blo <= ahi):
                    groups[i] = (np.minimum(alo, blo), np.maximum(ahi, bhi), am + bm)
                    del groups[j]
                    merged = True
                    break
            if merged:
                break
    yield from groups


def _read_window(
    image: U8,
    calibration: Calibration,
    tone: Tone,
    scale: float,
    tile_mm: tuple[float, float],
    box: tuple[FloatArray, FloatArray],
    known: Sequence[FoundTile],
    cfg: KnownSizeSettings,
) -> Window:
    """The tiles read in one window (`box`, table mm), and the pips there."""
    lo, hi = box
    size = (math.ceil((hi[0] - lo[0]) * scale), math.ceil((hi[1] - lo[1]) * scale))
    if min(size) < 8:
        return Window([], np.zeros((0, 2)), np.zeros((0, 2)))
    shift = np.array([[scale, 0.0, -lo[0] * scale], [0.0, scale, -lo[1] * scale], [0, 0, 1.0]])
    warp = shift @ np.linalg.inv(calibration.homography)
    bgr = np.asarray(
        cv2.warpPerspective(
            image, warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        ),
        dtype=np.uint8,
    )
    grey = tone_image(bgr, tone) if bgr.ndim == 3 else bgr
    length = tile_mm[0] * scale
    width = tile_mm[1] * scale
    # Tiles the detector read, in window pixels.
    back = np.linalg.inv(warp)
    read = [_known(t, warp) for t in known]
    read = [r for r in read if _near_window(r, size, length)]
    got = read_grid(grey, length, width, read, cfg.grid)
    return Window(
        [_found(t, back) for t in got.tiles],
        _to_image(got.left, back),
        _to_image(got.free, back),
        len(got.lines) > 0,
        _to_image(got.lines, back),
    )


@dataclass(frozen=True, slots=True)
class Window:
    """What one window gave: tiles read, the pips off every tile read (not explained)
    and off the detector's tiles (free), in image pixels, and whether a divider-like
    line lies on no tile there."""

    tiles: list[FoundTile]
    left: FloatArray
    free: FloatArray
    lines: bool = False
    line_at: FloatArray = field(default_factory=lambda: np.zeros((0, 2)))  # image pixels


def _to_image(pts: FloatArray, back: FloatArray) -> FloatArray:
    if len(pts) == 0:
        return np.zeros((0, 2))
    out = cv2.perspectiveTransform(pts.reshape(1, -1, 2).astype(np.float64), back)[0]
    return np.asarray(out, dtype=np.float64)


def _known(t: FoundTile, warp: FloatArray) -> tuple[FloatArray, FloatArray]:
    pts = cv2.perspectiveTransform(np.array([t.px], dtype=np.float64), warp)[0]
    return np.asarray(pts[0], dtype=np.float64), np.asarray(pts[1], dtype=np.float64)


def _near_window(r: tuple[FloatArray, FloatArray], size: tuple[int, int], length: float) -> bool:
    c = (r[0] + r[1]) / 2
    return bool(-length <= c[0] <= size[0] + length and -length <= c[1] <= size[1] + length)


def _found(t: GridTile, back: FloatArray) -> FoundTile:
    """The tile in image pixels, half a the top (or left) one, as the detector gives."""
    pts = cv2.perspectiveTransform(np.array([[t.a, t.b]], dtype=np.float64), back)[0]
    a = (float(pts[0][0]), float(pts[0][1]))
    b = (float(pts[1][0]), float(pts[1][1]))
    dx, dy = b[0] - a[0], b[1] - a[1]
    if (dy < 0) if abs(dy) > abs(dx) else (dx < 0):
        return FoundTile((t.pips[1], t.pips[0]), (b, a), t.confidence)
    return FoundTile(t.pips, (a, b), t.confidence)
