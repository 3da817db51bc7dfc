"""Finding domino tiles in one camera frame and reading their pips.

`detect(frame)` takes a BGR (or grey) frame and, optionally, the play area, and
returns every face-up tile with its two pip counts, the pixel centre of each half and
a confidence, plus the number of face-down tiles and the places it could not read. It
knows nothing of any grid: tiles are found by their divider lines (see
`vision.tiles.dividers`), the tile width is measured in the frame, and pips are counted in
each half (see `vision.pips.counting`); `vision.detector.search_pass` runs the steps.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detector.frame_edge import cut_by_frame
from vision.detector.planes import Found
from vision.detector.play_area import PlayArea
from vision.detector.results import Detection, FoundTile, Point, UnsureReason, UnsureRegion
from vision.detector.scales import Reader, coarser_scales, larger, probe_width, read_at
from vision.detector.search_pass import search, within
from vision.detector.settings import Settings
from vision.errors import VisionError
from vision.learned import tile_scores
from vision.tiles.dark_marks import Tone, tone_image
from vision.tiles.face_colours import face_colours, face_image

__all__ = [
    "Detection",
    "FoundTile",
    "FrameError",
    "Settings",
    "UnsureReason",
    "UnsureRegion",
    "detect",
]

logger = logging.getLogger(__name__)


class FrameError(VisionError, ValueError):
    """A frame that cannot be searched: empty, wrong shape or type."""


def _check(image: NDArray[np.generic]) -> NDArray[np.uint8]:
    if image.size == 0:
        raise FrameError("the frame is empty")
    if image.dtype != np.uint8:
        raise FrameError(f"the frame is {image.dtype}, expected 8-bit (uint8)")
    frame = np.asarray(image, dtype=np.uint8)
    if frame.ndim == 2:
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4):
        raise FrameError(f"the frame has shape {frame.shape}, expected HxW or HxWx3 (BGR)")
    return np.ascontiguousarray(frame[:, :, :3])


def bright_image(crop: NDArray[np.uint8], s: Settings) -> NDArray[np.uint8]:
    """The tile-bright image the search runs on for a set of known tone (`s.tone` not
    None): by the faces' own colour when `s.face` says it, else by the tone."""
    if s.face is not None:
        return face_image(crop, s.face, s.face_colours)
    assert s.tone is not None
    return tone_image(crop, s.tone)


def confident(found: Found, s: Settings) -> bool:
    """True when a reading leaves nothing for another tone to explain: tiles read,
    covering most of the tile material (`Settings.explained`), and no pips outside
    them."""
    return (
        bool(found.tiles)
        and found.explained >= s.explained
        and not any(u.reason is UnsureReason.STRAY_PIPS for u in found.unsure)
    )


def _worth(found: Found) -> float:
    """How good a reading is: its tiles (and how sure), weighted by how much of the
    tile material they cover (read in the wrong tone, a wooden table is tile
    material and its grain gives a few false tiles)."""
    return sum(t.confidence for t in found.tiles) * (0.5 + found.explained)


def _auto(
    crop: NDArray[np.uint8],
    offset: Point,
    s: Settings,
    area: PlayArea | None,
    left_out: NDArray[np.bool_] | None = None,
) -> Found:
    """The set's tone unknown: the tones in `Settings.auto_tones` order, the best reading
    kept (one table holds one set; a tie goes to the earlier tone), stopping at the
    first `confident` one; then the colours of coloured faces (`vision.tiles.face_colours`)."""
    best: Found | None = None
    for tone in s.auto_tones:
        found = within(
            search(tone_image(crop, tone), offset, replace(s, tone=tone), left_out), area
        )
        if best is None or _worth(found) > _worth(best):
            best = found
        if confident(found, s):
            return found
    assert best is not None
    # coloured faces (red, green, blue, pink plastic): the faces' own colour
    for colour in face_colours(crop, s.face_colours):
        light = replace(s, tone=Tone.LIGHT)
        faces = face_image(crop, colour, s.face_colours)
        found = within(search(faces, offset, light, left_out), area)
        if _worth(found) > _worth(best):
            best = found
        if confident(found, s):
            break
    return best


def _coarser(
    best: Found,
    crop: NDArray[np.uint8],
    offset: Point,
    s: Settings,
    area: PlayArea | None,
    left_out: NDArray[np.bool_] | None,
) -> Found:
    """`best`, or a reading of the frame at a coarser scale (`vision.detector.scales`): when
    `best` read tiles wider than `Settings.scales.wide` (a close-up's tiles are too large for the
    search's pixel sizes), or read none with pips surely (they may be too large to
    be seen),
    and the coarser reading is better with tiles as large (`scales.larger`)."""

    read = _reader(s)
    wide = best.width > s.scales.wide and bool(best.tiles)
    # a tile read surely with pips says the search's sizes suit the frame (a blank
    # alone may be a stretch of wood between two grain lines)
    sure = any(t.confidence >= s.search.sure and sum(t.pips) > 0 for t in best.tiles)
    if not wide and (confident(best, s) or sure):
        return best
    for factor in coarser_scales(crop.shape, best.width if wide else 0.0, s.scales):
        found = within(read_at(crop, offset, left_out, factor, read), area)
        if larger(found, best, s.scales) and _worth(found) >= _worth(best):
            best = found
        if confident(found, s):
            break
    return best


def _reader(s: Settings) -> Reader:
    """How a frame (or a shrunk copy) is read with settings `s`: its tone, or every
    tone in turn when it is unknown."""

    def read(img: NDArray[np.uint8], at: Point, out: NDArray[np.bool_] | None) -> Found:
        if s.tone is None:
            return _auto(img, at, s, None, out)
        return search(bright_image(img, s), at, s, out)

    return read


def _close_up(
    crop: NDArray[np.uint8],
    offset: Point,
    s: Settings,
    area: PlayArea | None,
    left_out: NDArray[np.bool_] | None,
    tile_px: float = 0.0,
) -> Found | None:
    """A close-up read at the scale its faces show (`scales.probe_width`), when they
    show tiles wider than `Settings.scales.wide` and that reading agrees: it reads a
    tile surely, and its dividers measure the tiles as wide as the faces do (within
    `DividerSettings.width_tolerance`): the frame's one tile size seen two ways.
    Else None (the frame is then read at its own scale first). `tile_px`: the tile
    width when the caller knows it (a calibrated camera), instead of the probe."""
    tones = s.auto_tones if s.tone is None else (Tone.LIGHT if s.face else s.tone,)
    width = tile_px if tile_px > 0 else probe_width(crop, tones, s.scales)
    if width <= s.scales.wide:
        return None
    for factor in coarser_scales(crop.shape, width, s.scales):
        found = within(read_at(crop, offset, left_out, factor, _reader(s)), area)
        sure = any(t.confidence >= s.search.sure for t in found.tiles)
        if sure and abs(found.width - width) <= s.dividers.width_tolerance * width:
            return found
    return None


def _left_out(
    exclude: Sequence[Sequence[Point]], box: tuple[int, int, int, int]
) -> NDArray[np.bool_] | None:
    """True inside any polygon of `exclude` (frame pixels), in the box's coordinates;
    None when none reaches into it."""
    x0, y0, x1, y1 = box
    mask = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
    for polygon in exclude:
        pts = np.asarray(polygon, dtype=np.float64).reshape(-1, 2) - (x0, y0)
        if pts.shape[0] >= 3:
            cv2.fillPoly(mask, [np.rint(pts).astype(np.int32)], 1)
    return mask > 0 if mask.any() else None


def _vetoed(
    frame: NDArray[np.uint8], tiles: Sequence[FoundTile], threshold: float
) -> list[FoundTile]:
    """The tiles the learned veto (`vision.learned`) scores `threshold` or more: the
    others are texture or fragments read as tiles."""
    scores = tile_scores(frame, [t.px for t in tiles])
    kept = [t for t, score in zip(tiles, scores, strict=True) if score >= threshold]
    if len(kept) < len(tiles):
        logger.debug("vision: the learned veto dropped %d tiles", len(tiles) - len(kept))
    return kept


def detect(
    image: NDArray[np.generic],
    play_area: PlayArea | Sequence[float] | Sequence[Point] | None = None,
    settings: Settings | None = None,
    exclude: Sequence[Sequence[Point]] = (),
    tile_px: float = 0.0,
) -> Detection:
    """Find every face-up tile (inside `play_area`, if given) and read its pips.

    `play_area` is a `PlayArea`, a rectangle `(x0, y0, x1, y1)` or a polygon's corners,
    in pixels; `settings` tunes the search (the set's tone above all). `exclude`:
    polygons (corners in pixels) to leave out of the search, such as the corner
    markers' printed squares with their white margin on a calibrated frame: no
    tile material (none left unexplained, so `auto` can stop at its first tone),
    no marks, no stray pips there (see `search.search`). `tile_px`: the tile width
    in pixels when the caller knows it (a calibrated camera); else it is probed
    (`scales.probe_width`), and a close-up is read at its own scale at once.
    """
    start = time.perf_counter()
    s = settings or Settings()
    area = None if play_area is None else PlayArea.of(play_area)
    frame = _check(image)
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = (0, 0, w, h) if area is None else area.box(w, h, s.margin)
    crop = frame[y0:y1, x0:x1]
    if crop.size == 0:
        raise FrameError(f"the play area lies outside the {w}x{h} frame")
    left_out = _left_out(exclude, (x0, y0, x1, y1)) if exclude else None
    offset = (float(x0), float(y0))
    if tile_px > 0:
        # a calibrated camera reads what is left by the tile's known size itself
        # (`vision.camera_path.known_size`), warped to the table: not by the grid here
        s = replace(s, search=replace(s.search, grid_boxes=0))
    close = _close_up(crop, offset, s, area, left_out, tile_px)
    if close is not None:
        best = close
    else:
        if s.tone is not None:
            best = within(search(bright_image(crop, s), offset, s, left_out), area)
        else:
            best = _auto(crop, offset, s, area, left_out)
        best = _coarser(best, crop, offset, s, area, left_out)
    best = cut_by_frame(best, (w, h), s.cut_slack)
    if s.veto > 0 and best.tiles:
        best = replace(best, tiles=_vetoed(frame, best.tiles, s.veto))
    ms = (time.perf_counter() - start) * 1000.0
    logger.debug(
        "vision: %d tiles, %d face down in %.1f ms", len(best.tiles), len(best.facedown), ms
    )
    return Detection(tuple(best.tiles), len(best.facedown), tuple(best.unsure), ms, best.width)
