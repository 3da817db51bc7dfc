"""Finding domino tiles in one camera frame and reading their pips.

`detect(frame)` takes a BGR (or grey) frame and, optionally, the play area, and
returns every face-up tile with its two pip counts, the pixel centre of each half and
a confidence, plus the number of face-down tiles, the places it could not read and
the record of its looks. It knows nothing of any grid: tiles are found by their
divider lines (see `vision.tiles.dividers`), the tile width is measured in the frame,
and pips are counted in each half (see `vision.pips.counting`);
`vision.detector.search_pass` runs one search. The frame looks here (`FRAME_LOOKS`,
see `vision.detector.looks`) decide which searches run: the close-up probe, the
first reading, the other tones, coloured faces, a coarser scale, then the learned
veto.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detector.looks import READING_LOOKS, Look, run_looks, with_look
from vision.detector.planes import Found
from vision.detector.play_area import PlayArea
from vision.detector.results import Detection, FoundTile, Point, UnsureReason, UnsureRegion
from vision.detector.scales import coarser_scales, larger, probe_width, scaled
from vision.detector.search_pass import MATERIAL_LOOKS, PASS_LOOKS, search, within
from vision.detector.settings import LookSettings, Settings
from vision.errors import VisionError
from vision.learned import tile_scores
from vision.tiles.dark_marks import Tone, tone_image
from vision.tiles.face_colours import face_colours, face_image
from vision.trace import Grain, LookRecord, Trace

__all__ = [
    "FRAME_LOOKS",
    "Detection",
    "FoundTile",
    "FrameError",
    "FrameView",
    "Look",
    "LookRecord",
    "LookSettings",
    "Settings",
    "UnsureReason",
    "UnsureRegion",
    "detect",
    "first_readings",
    "look_names",
    "with_look",
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


def _worth(found: Found, s: Settings) -> float:
    """How good a reading is: its tiles (and how sure), weighted by how much of the
    tile material they cover (read in the wrong tone, a wooden table is tile
    material and its grain gives a few false tiles)."""
    return sum(t.confidence for t in found.tiles) * (s.worth_floor + found.explained)


# nothing has read the frame yet (what the first looks see)
UNREAD = Found([], [], [], 0.0)


@dataclass(frozen=True, slots=True)
class FrameView:
    """What a frame look sees (`vision.detector.looks`): the whole frame, the part
    searched (`crop`, the play area's box; or the frame shrunk for a coarser look)
    and where its origin lies in the frame (`offset`; `factor`: how much it was
    shrunk), the settings, the play area (None: the whole crop), what is left out
    (True in `left_out`, the crop's pixels), the tile width in frame pixels when the
    caller knows it (0: not known), and the frame's `Trace`."""

    frame: NDArray[np.uint8]
    crop: NDArray[np.uint8]
    offset: Point
    s: Settings
    area: PlayArea | None
    left_out: NDArray[np.bool_] | None
    tile_px: float
    trace: Trace
    # what `read_at` read at each factor: a look that reads a scale another has read
    # (the coarser look after a close-up probe that did not hold) reads it once
    at: dict[int, Found] = field(default_factory=dict, compare=False)

    def read(self, s: Settings, img: NDArray[np.uint8] | None = None) -> Found:
        """One search of the crop with settings `s` (of `img`, a tile-bright image of
        the crop, when given; else of the image `s` asks for: its tone's, or its
        faces' colour), what lies in the play area, in frame pixels."""
        if img is None:
            img = bright_image(self.crop, s)
        found = within(search(img, self.offset, s, self.left_out, self.trace), self.area)
        return replace(found, looked=s)

    def shrunk(self, factor: int) -> FrameView:
        """The crop shrunk by `factor`, as a frame of its own (no play area: what a
        coarser look reads is mapped back and kept within it after)."""
        h, w = self.crop.shape[:2]
        size = (max(1, w // factor), max(1, h // factor))
        small = np.asarray(cv2.resize(self.crop, size, interpolation=cv2.INTER_AREA), np.uint8)
        small_out = None
        if self.left_out is not None:
            out = cv2.resize(self.left_out.astype(np.uint8), size, interpolation=cv2.INTER_NEAREST)
            small_out = np.asarray(out > 0, dtype=np.bool_)
        return replace(self, crop=small, offset=(0.0, 0.0), area=None, left_out=small_out, at={})

    def read_at(self, factor: int) -> Found:
        """The crop read (by `TONE_LOOKS`) at 1/`factor` of its size, in frame
        pixels, within the play area (read once per factor: the looks are
        deterministic)."""
        if factor not in self.at:
            small = self.shrunk(factor)
            found = run_looks(TONE_LOOKS, small, UNREAD)
            self.at[factor] = within(scaled(found, float(factor), self.offset), self.area)
        return self.at[factor]


@dataclass(frozen=True, slots=True)
class CloseUp:
    """A close-up read at the scale its faces show (`scales.probe_width`, or the
    caller's `tile_px`), when they show tiles wider than `ScaleSettings.wide` and
    that reading agrees: it reads a tile surely, and its dividers measure the tiles as
    wide as the faces do (within `DividerSettings.width_tolerance`): the frame's one
    tile size seen two ways. Then the frame is never read at its own scale (the
    search's sizes are built for tiles of 20-70 px; on a close-up's texture it costs
    most and reads the texture)."""

    name: str = "close-up"
    grain: Grain = Grain.FRAME
    base: bool = False
    searches: bool = True

    def applies(self, view: FrameView, found: Found) -> bool:
        return found is UNREAD

    def run(self, view: FrameView, found: Found) -> Found:
        s = view.s
        tones = s.auto_tones if s.tone is None else (Tone.LIGHT if s.face else s.tone,)
        width = view.tile_px if view.tile_px > 0 else probe_width(view.crop, tones, s.scales)
        if width <= s.scales.wide:
            return found
        for factor in coarser_scales(view.crop.shape, width, s.scales):
            got = view.read_at(factor)
            sure = any(t.confidence >= s.search.sure for t in got.tiles)
            if sure and abs(got.width - width) <= s.dividers.width_tolerance * width:
                return got
        return found


@dataclass(frozen=True, slots=True)
class FirstReading:
    """The frame read at its own scale in the set's tone (its faces' colour when an
    enrolled set says it), or in the first of `Settings.auto_tones` when the tone is
    not known."""

    name: str = "first-reading"
    grain: Grain = Grain.FRAME
    base: bool = True
    searches: bool = True

    def applies(self, view: FrameView, found: Found) -> bool:
        return found is UNREAD

    def run(self, view: FrameView, found: Found) -> Found:
        s = view.s
        if s.tone is None:
            tone = s.auto_tones[0]
            return view.read(replace(s, tone=tone), tone_image(view.crop, tone))
        return view.read(s)


@dataclass(frozen=True, slots=True)
class OtherTones:
    """The set's tone unknown and the reading not `confident`: the other tones of
    `Settings.auto_tones` in turn, the best reading kept (`_worth`; one table holds
    one set, a tie goes to the earlier tone), stopping at the first confident one."""

    name: str = "other-tones"
    grain: Grain = Grain.FRAME
    base: bool = False
    searches: bool = True

    def applies(self, view: FrameView, found: Found) -> bool:
        return view.s.tone is None and found.scale == 1.0 and not confident(found, view.s)

    def run(self, view: FrameView, found: Found) -> Found:
        s, best = view.s, found
        for tone in s.auto_tones[1:]:
            if view.trace.spent():
                view.trace.skip(self.name, self.grain, "budget")
                break
            got = view.read(replace(s, tone=tone), tone_image(view.crop, tone))
            if _worth(got, s) > _worth(best, s):
                best = got
            if confident(got, s):
                return got
        return best


@dataclass(frozen=True, slots=True)
class FaceColours:
    """The set's tone unknown and no tone read confidently: the colours of coloured
    faces (red, green, blue, pink plastic; `vision.tiles.face_colours`), each read as
    the bright material, the best reading kept."""

    name: str = "face-colours"
    grain: Grain = Grain.FRAME
    base: bool = False
    searches: bool = True

    def applies(self, view: FrameView, found: Found) -> bool:
        return view.s.tone is None and found.scale == 1.0 and not confident(found, view.s)

    def run(self, view: FrameView, found: Found) -> Found:
        s, best = view.s, found
        light = replace(s, tone=Tone.LIGHT)
        for colour in face_colours(view.crop, s.face_colours):
            if view.trace.spent():
                view.trace.skip(self.name, self.grain, "budget")
                break
            got = view.read(light, face_image(view.crop, colour, s.face_colours))
            if _worth(got, s) > _worth(best, s):
                best = got
            if confident(got, s):
                break
        return best


@dataclass(frozen=True, slots=True)
class Coarser:
    """The frame read at a coarser scale (`vision.detector.scales`): when its tiles
    read wider than `ScaleSettings.wide` (a close-up's tiles are too large for the
    search's pixel sizes), or it read none with pips surely (they may be too large to
    be seen) and is not `confident`; a coarser reading is kept when it is as good and
    its tiles are clearly larger (`scales.larger`). Not when the caller knows the
    tile width and it is no wider than `ScaleSettings.wide`: the frame's own scale is
    the tiles' (a wider one is `CloseUp`'s)."""

    name: str = "coarser"
    grain: Grain = Grain.FRAME
    base: bool = False
    searches: bool = True

    def applies(self, view: FrameView, found: Found) -> bool:
        s = view.s
        if found.scale != 1.0 or 0.0 < view.tile_px <= s.scales.wide:
            return False
        wide = found.width > s.scales.wide and bool(found.tiles)
        # a tile read surely with pips says the search's sizes suit the frame (a blank
        # alone may be a stretch of wood between two grain lines)
        sure = any(t.confidence >= s.search.sure and sum(t.pips) > 0 for t in found.tiles)
        return wide or not (confident(found, s) or sure)

    def run(self, view: FrameView, found: Found) -> Found:
        s, best = view.s, found
        wide = best.width > s.scales.wide and bool(best.tiles)
        for factor in coarser_scales(view.crop.shape, best.width if wide else 0.0, s.scales):
            if view.trace.spent():
                view.trace.skip(self.name, self.grain, "budget")
                break
            got = view.read_at(factor)
            if larger(got, best, s.scales) and _worth(got, s) >= _worth(best, s):
                best = got
            if confident(got, s):
                break
        return best


@dataclass(frozen=True, slots=True)
class Veto:
    """The learned veto (`vision.learned`): a tile the net scores below
    `Settings.veto` is dropped (texture or a fragment read as a tile)."""

    name: str = "veto"
    grain: Grain = Grain.FRAME
    base: bool = False
    searches: bool = False

    def applies(self, view: FrameView, found: Found) -> bool:
        return view.s.veto > 0 and bool(found.tiles)

    def run(self, view: FrameView, found: Found) -> Found:
        kept = _vetoed(view.frame, found.tiles, view.s.veto)
        return found if len(kept) == len(found.tiles) else replace(found, tiles=kept)


# Reading the frame at one scale, the tone known or not (also what a coarser look reads).
TONE_LOOKS: tuple[Look[FrameView], ...] = (FirstReading(), OtherTones(), FaceColours())

# The frame looks, in the order they run (`detect(..., looks=)` takes another list).
FRAME_LOOKS: tuple[Look[FrameView], ...] = (
    CloseUp(),
    *TONE_LOOKS,
    Coarser(),
    Veto(),
)


def look_names(looks: Sequence[Look[FrameView]] = FRAME_LOOKS) -> list[str]:
    """Every look's name: the frame looks of `looks`, the search looks, the reading
    looks, in the order each grain runs them."""
    return [
        *(x.name for x in looks),
        "first-pass",
        *(x.name for x in PASS_LOOKS),
        *(x.name for x in MATERIAL_LOOKS),
        *(x.name for x in READING_LOOKS),
    ]


def first_readings(looks: Sequence[Look[FrameView]] = FRAME_LOOKS) -> set[str]:
    """The looks that are first readings (always made, never turned off)."""
    return {"first-pass", *(x.name for x in looks if x.base)}


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
    looks: Sequence[Look[FrameView]] = FRAME_LOOKS,
) -> Detection:
    """Find every face-up tile (inside `play_area`, if given) and read its pips.

    `play_area` is a `PlayArea`, a rectangle `(x0, y0, x1, y1)` or a polygon's corners,
    in pixels; `settings` tunes the search (the set's tone above all). `exclude`:
    polygons (corners in pixels) to leave out of the search, such as the corner
    markers' printed squares with their white margin on a calibrated frame: no
    tile material (none left unexplained, so `auto` can stop at its first tone),
    no marks, no stray pips there (see `search_pass.search`). `tile_px`: the tile
    width in pixels when the caller knows it (a calibrated camera); else it is probed
    (`scales.probe_width`), and a close-up is read at its own scale at once.
    `looks`: the frame looks, in the order they run (`FRAME_LOOKS`; see
    `vision.detector.looks` for adding one); `Detection.looks` records what each did.
    """
    start = time.perf_counter()
    s = settings or Settings()
    _check_looks(s, looks)
    area = None if play_area is None else PlayArea.of(play_area)
    frame = _check(image)
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = (0, 0, w, h) if area is None else area.box(w, h, s.margin)
    crop = frame[y0:y1, x0:x1]
    if crop.size == 0:
        raise FrameError(f"the play area lies outside the {w}x{h} frame")
    trace = Trace(s.looks.off, s.looks.budget, float(s.looks.pass_px))
    left_out = _left_out(exclude, (x0, y0, x1, y1)) if exclude else None
    if tile_px > 0:
        # a calibrated camera reads what is left by the tile's known size itself
        # (`vision.camera_path.known_size`), warped to the table: not by the grid here
        s = replace(s, search=replace(s.search, grid_boxes=0))
    view = FrameView(frame, crop, (float(x0), float(y0)), s, area, left_out, tile_px, trace)
    best = run_looks(looks, view, UNREAD)
    ms = (time.perf_counter() - start) * 1000.0
    logger.debug(
        "vision: %d tiles, %d face down in %.1f ms, %d passes",
        len(best.tiles),
        len(best.facedown),
        ms,
        trace.passes,
    )
    order = {name: k for k, name in enumerate(look_names(looks))}
    records = sorted(trace.records(), key=lambda r: order.get(r.name, len(order)))
    return Detection(
        tuple(best.tiles),
        len(best.facedown),
        tuple(best.unsure),
        ms,
        best.width,
        tuple(records),
        trace.passes,
    )


def _check_looks(s: Settings, looks: Sequence[Look[FrameView]]) -> None:
    """Refuse a look turned off that is not there, or that is a first reading."""
    names = look_names(looks)
    unknown = sorted(s.looks.off - set(names))
    if unknown:
        raise ValueError(
            f"LookSettings.off: no look named {', '.join(unknown)} (the looks: {', '.join(names)})"
        )
    base = sorted(s.looks.off & first_readings(looks))
    if base:
        raise ValueError(f"LookSettings.off: {', '.join(base)} is a first reading, always made")
