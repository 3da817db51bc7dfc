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
2. pips are the local peaks of a black-hat (the marks darker than the face around
   them, on a disc of half a tile width) that stand alone: lower all round them at a
   pip's radius (a divider line or a gap between tiles does not);
3. each pip, for each tile direction looked at (the table's axes and those of the
   tiles the detector read), proposes tiles of the known size holding it at any of
   the nine grid places of either half; each proposal is fitted to its pips (the pips
   of a standard layout are centred on their half) and kept only when every pip on it
   or just beyond its edge sits in a grid place of one half, each half's pips form a
   standard layout of 0-6 (`LAYOUTS`), the empty grid places show no fainter mark (a
   pip missed would read a 5 as a 4), the divider line between the halves is darker
   than the face on both sides of it, and it does not overlap a tile already read;
4. the pips near each place must be explained exactly, each by one tile, the tiles not
   overlapping: every way of doing so is looked for, and only the tiles that are in
   all of them are read. A place whose pips are all explained is no longer unsure;
   anything else stays unsure. A divider-like line on no tile read (a tile without
   pips) keeps its window's places unsure and is an unsure place itself, listed
   first, so the unreadable spot points at it.

The detector alone (no calibration) never runs this; nor does a frame without
unsure places that read some tile.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration.homography import Calibration
from vision.detector.results import Detection, FoundTile, UnsureReason, UnsureRegion
from vision.tiles.dark_marks import Tone, tone_image

__all__ = ["LAYOUTS", "READ_AGAIN", "read_anchored", "sized"]

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]

# Unsure places worth reading again: unread pips, a tile doubted for a faint mark or
# for marks that are not pips (a faded divider breaks into blobs), a tile-shaped
# region without a divider, a tile of the wrong size. Not a hand (partly covered).
READ_AGAIN = frozenset(
    {
        UnsureReason.STRAY_PIPS,
        UnsureReason.FAINT_MARK,
        UnsureReason.NO_DIVIDER,
        UnsureReason.NOT_PIPS,
        UnsureReason.WRONG_SIZE,
    }
)

# The standard layouts of a half, as grid places (i along the tile, j across), -1..1.
_DIAG = ((-1, -1), (1, 1))
_ANTI = ((-1, 1), (1, -1))
_CORNERS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
LAYOUTS: dict[int, tuple[frozenset[tuple[int, int]], ...]] = {
    1: (frozenset({(0, 0)}),),
    2: (frozenset(_DIAG), frozenset(_ANTI)),
    3: (frozenset({*_DIAG, (0, 0)}), frozenset({*_ANTI, (0, 0)})),
    4: (frozenset(_CORNERS),),
    5: (frozenset({*_CORNERS, (0, 0)}),),
    6: (
        frozenset({*_CORNERS, (0, -1), (0, 1)}),
        frozenset({*_CORNERS, (-1, 0), (1, 0)}),
    ),
}

REACH_TILES = 3.0  # a window reaches this many tile lengths around an unsure place
PLACE_REACH = 1.0  # a place is read when the pips chained to it at most this many tile
# lengths apart are all on tiles read
KERNEL = 0.36  # the black-hat's disc, in tile widths (a pip is about half as wide)
RING = 0.14  # a pip stands alone: at this distance (tile widths) all round it ...
RING_MAX = 0.8  # ... the black-hat is at most this share of its peak (a line is not)
RING_MEAN = 0.5  # ... and on average at most this share
RIM = 0.2  # and at this distance (tile widths) ...
RIM_DARK = 3  # ... at most this many of 16 points in a row are not face (lighter by
# half its peak): a pip's neighbours in a row darken a few points on either side, the
# table beyond a corner a whole quarter turn
GRID = 0.27  # the grid step of a half's pips, in tile widths (fitted per half)
GRID_RANGE = (0.19, 0.35)  # ... a fitted step must lie in this range
GRID_TOL = 0.3  # a pip lies within this share of the step of its grid place
EDGE = 0.12  # pips this far (tile widths) beyond a tile's edge must belong to it
DIVIDER_CLEAR = 0.13  # a mark this near the divider line (tile widths) is the divider's
FAINT = 0.45  # an empty grid place darker than this share of its half's pips: a doubt
FAINT_FLOOR = 8.0  # ... fainter marks than this never doubt a reading
RIM_CLEAR = 0.1  # the face is looked at this far (tile widths) inside the tile's edge ...
PIP_CLEAR = 0.2  # ... and from each pip
DIVIDER_CONTRAST = 3.0  # the divider line is darker than the face by this many levels
DIVIDER_SHARE = 0.06  # ... and by this share of the pips' contrast
MIN_PEAK = 12.0  # a pip is darker than the face around it by this many levels at least
PEAK_SHARE = 0.4  # ... and by this share of the strongest pips near it
COVERS = 64  # at most this many ways of explaining one group's pips are looked at
OVERLAP = 0.8  # tiles overlap when their rectangles shrunk to this share do
MARK_SHARE = 0.5  # marks this share as dark as the pips ...
PIP_AREA = 0.1  # ... and of at least this size squared (tile widths) must lie on a tile
LINE_SHARE = 0.15  # a line this share as dark as the pips, ...
LINE_LENGTH = (0.6, 1.2)  # ... this long (tile widths) and thin, on no tile: a tile unread
SIZE_TOL = 0.2  # a tile read with its halves this share nearer or further apart is wrong
CONFIDENCE = 0.9  # of a tile read here (the detector's own sure readings have 1)


@dataclass(frozen=True, slots=True)
class _Tile:
    """A tile proposal in window pixels: half centres, the long axis (a to b), pips."""

    a: FloatArray
    b: FloatArray
    pips: tuple[int, int]
    covers: frozenset[int]  # indices of the pips it holds
    confidence: float

    @property
    def centre(self) -> FloatArray:
        return np.asarray((self.a + self.b) / 2, dtype=np.float64)


def read_anchored(
    image: U8,
    detection: Detection,
    calibration: Calibration,
    tone: Tone | None,
    tile_mm: tuple[float, float] = (48.0, 24.0),
) -> Detection:
    """The detection with the tiles read by their known size where it was unsure.

    Runs only when the detection has unsure places worth reading again (`READ_AGAIN`)
    or read no tile at all; otherwise the detection is returned as it is. `tone` None
    (auto) tries light, dark and grey, keeping the first reading that adds a tile.
    """
    detection = sized(detection, calibration, tile_mm)
    places = [u for u in detection.unsure if u.reason in READ_AGAIN]
    if not places and detection.tiles:
        return detection
    for t in (Tone.LIGHT, Tone.DARK, Tone.GREY) if tone is None else (tone,):
        out = _read_places(image, detection, places, calibration, t, tile_mm)
        if out is not detection:
            return out
    return detection


def sized(
    detection: Detection, calibration: Calibration, tile_mm: tuple[float, float]
) -> Detection:
    """The detection with every tile whose halves lie not a tile's half length apart on
    the table (within `SIZE_TOL`) made an unsure place: on a calibrated table the
    tile's size is known, and such a reading is a wrong one (a width agreed on from
    stray lines)."""
    if not detection.tiles:
        return detection
    px = np.array([t.px for t in detection.tiles], dtype=np.float64)
    mm = calibration.px_to_mm(px)
    apart = np.linalg.norm(mm[:, 1] - mm[:, 0], axis=1)
    wrong = np.abs(apart - tile_mm[0] / 2) > SIZE_TOL * tile_mm[0] / 2
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
) -> Detection:
    scale = 1.0 / calibration.mm_per_px()
    length_mm, width_mm = tile_mm
    reach = REACH_TILES * length_mm
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
            image, calibration, tone, scale, (length_mm, width_mm), box_lo, box_hi, known
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
    # A place is read when pips lie near it and every one of them is on a tile read.
    left_mm = calibration.px_to_mm(np.concatenate(left)) if left else np.zeros((0, 2))
    free_mm = calibration.px_to_mm(np.concatenate(free)) if free else np.zeros((0, 2))

    near = PLACE_REACH * length_mm
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

    keep = tuple(
        u
        for u in detection.unsure
        if u not in places or places.index(u) in unread or not read_there(u)
    )
    return replace(detection, tiles=(*detection.tiles, *added), unsure=(*by_line, *keep))


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
    lo: FloatArray,
    hi: FloatArray,
    known: Sequence[FoundTile],
) -> Window:
    """The tiles read in one window, and the pips there."""
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
    looks = _Looks(grey, width)
    pips = looks.pips()
    # Tiles the detector read, in window pixels.
    back = np.linalg.inv(warp)
    read = [_known(t, warp) for t in known]
    read = [r for r in read if _near_window(r, size, length)]
    free = [i for i in range(len(pips)) if not any(_holds(r, pips[i], width, 0.05) for r in read)]
    if not free:
        return Window([], np.zeros((0, 2)), np.zeros((0, 2)))
    axes = _axes(read)
    cands = _proposals(pips, free, axes, length, width, looks, read)
    solved: list[tuple[frozenset[int], list[_Tile]]] = []
    for group in _groups(free, cands):
        common = _common(group, [c for c in cands if c.covers <= group])
        if common:
            solved.append((group, common))
    # A group's tiles stand only with no unexplained mark beside them (other groups'
    # tiles explain theirs); dropping one group may leave marks beside another.
    while solved:
        everyone = [t for _, ts in solved for t in ts]
        bad = [
            i
            for i, (_, ts) in enumerate(solved)
            if not _unhidden(looks, pips, ts, everyone, read, width)
        ]
        if not bad:
            break
        solved = [g for i, g in enumerate(solved) if i not in bad]
    edge = 0.5 * width
    tiles: list[_Tile] = []
    for _, common in solved:
        ends = np.array([p for t in common for p in (t.a, t.b)])
        if np.all((ends >= edge) & (ends <= np.array(size) - edge)):
            tiles += common
    held: set[int] = set()
    for t in tiles:
        held |= t.covers
    left = [i for i in free if i not in held]
    # A divider-like line on no tile is a tile not read (a double blank has no pip to
    # be proposed from): it keeps every place of the window unsure.
    lines = _loose_lines(looks, [*read, *((t.a, t.b) for t in tiles)], width)
    return Window(
        [_found(t, back) for t in tiles],
        _to_image(pips[left], back),
        _to_image(pips[free], back),
        len(lines) > 0,
        _to_image(lines, back),
    )


def _loose_lines(
    looks: _Looks, on: Sequence[tuple[FloatArray, FloatArray]], width: float
) -> FloatArray:
    """The centres of straight dark marks of a divider's length and thinness that lie
    on no tile (grown by a tenth of a width)."""
    level = MIN_PEAK
    if len(looks.pip_values):
        level = max(MIN_PEAK, LINE_SHARE * float(np.median(looks.pip_values)))
    marks = (looks.hat >= level).astype(np.uint8)
    for r in on:
        cv2.fillConvexPoly(marks, np.rint(_grown(r, width, 0.1 * width)).astype(np.int32), 0)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(marks)
    out = []
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < 0.1 * width:
            continue
        x0, y0, w, h = stats[i, :4]
        if max(w, h) < LINE_LENGTH[0] * width or max(w, h) > LINE_LENGTH[1] * width * 1.5:
            continue
        ys, xs = np.nonzero(labels[y0 : y0 + h, x0 : x0 + w] == i)
        cov = np.cov(np.stack([xs, ys]).astype(np.float64))
        small, big = np.linalg.eigvalsh(cov)
        length, thick = 4 * math.sqrt(max(big, 0.0)), 4 * math.sqrt(max(small, 0.0))
        if LINE_LENGTH[0] * width <= length <= LINE_LENGTH[1] * width and thick <= 0.25 * width:
            out.append(centres[i])
    return np.array(out, dtype=np.float64).reshape(-1, 2)


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


def _unhidden(
    looks: _Looks,
    pips: FloatArray,
    tiles: list[_Tile],
    others: list[_Tile],
    read: Sequence[tuple[FloatArray, FloatArray]],
    width: float,
) -> bool:
    """Whether no mark lies beside the tiles read that is neither on a tile nor a pip.

    Marks as dark as pips that the pip test did not take (merged pips, a pip touching
    a line) lying within a tile width of the tiles read here, outside every tile,
    mean the pips around them were not all seen: a row of tiles read a half off (each
    "tile" made of two neighbours' halves) explains every pip it saw.
    """
    hat = looks.hat
    level = MIN_PEAK
    if len(looks.pip_values):
        level = max(MIN_PEAK, MARK_SHARE * float(np.median(looks.pip_values)))
    marks = (hat >= level).astype(np.uint8)
    covered = np.zeros_like(marks)
    near = np.zeros_like(marks)
    for r in [*read, *((t.a, t.b) for t in others)]:
        cv2.fillConvexPoly(covered, np.rint(_grown(r, width, 0.2 * width)).astype(np.int32), 1)
    for p in np.rint(pips).astype(int):
        cv2.circle(covered, (int(p[0]), int(p[1])), max(1, round(0.15 * width)), 1, -1)
    for t in tiles:
        cv2.fillConvexPoly(near, np.rint(_grown((t.a, t.b), width, width)).astype(np.int32), 1)
    loose = marks & (1 - covered) & near
    _, _, stats, _ = cv2.connectedComponentsWithStats(loose)
    return not bool(np.any(stats[1:, cv2.CC_STAT_AREA] >= (PIP_AREA * width) ** 2))


def _grown(r: tuple[FloatArray, FloatArray], width: float, grow: float) -> FloatArray:
    """The corners of the tile with half centres r, grown by `grow` pixels all round."""
    a, b = r
    c = (a + b) / 2
    n = float(np.linalg.norm(b - a))
    u = (b - a) / n
    v = np.array([-u[1], u[0]])
    hu, hv = n + grow, width / 2 + grow
    return np.array([c + s * hu * u + t * hv * v for s, t in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def _known(t: FoundTile, warp: FloatArray) -> tuple[FloatArray, FloatArray]:
    pts = cv2.perspectiveTransform(np.array([t.px], dtype=np.float64), warp)[0]
    return np.asarray(pts[0], dtype=np.float64), np.asarray(pts[1], dtype=np.float64)


def _near_window(r: tuple[FloatArray, FloatArray], size: tuple[int, int], length: float) -> bool:
    c = (r[0] + r[1]) / 2
    return bool(-length <= c[0] <= size[0] + length and -length <= c[1] <= size[1] + length)


def _found(t: _Tile, back: FloatArray) -> FoundTile:
    """The tile in image pixels, half a the top (or left) one, as the detector gives."""
    pts = cv2.perspectiveTransform(np.array([[t.a, t.b]], dtype=np.float64), back)[0]
    a = (float(pts[0][0]), float(pts[0][1]))
    b = (float(pts[1][0]), float(pts[1][1]))
    dx, dy = b[0] - a[0], b[1] - a[1]
    if (dy < 0) if abs(dy) > abs(dx) else (dx < 0):
        return FoundTile((t.pips[1], t.pips[0]), (b, a), t.confidence)
    return FoundTile(t.pips, (a, b), t.confidence)


def _holds(r: tuple[FloatArray, FloatArray], p: FloatArray, width: float, grow: float) -> bool:
    """Whether point p lies on the tile with half centres r (grown by `grow` widths)."""
    a, b = r
    c = (a + b) / 2
    u = b - a
    half = float(np.linalg.norm(u))
    if half == 0:
        return False
    u = u / half
    d = p - c
    along = abs(float(d @ u))
    across = abs(float(d[0] * -u[1] + d[1] * u[0]))
    return along <= half + grow * width and across <= (0.5 + grow) * width


def _axes(read: Sequence[tuple[FloatArray, FloatArray]]) -> list[float]:
    """Tile directions to look at (radians, modulo a quarter turn): the table's, and
    those of the tiles read."""
    out = [0.0]
    for a, b in read:
        d = b - a
        ang = math.atan2(float(d[1]), float(d[0])) % (math.pi / 2)
        if all(min(abs(ang - o), math.pi / 2 - abs(ang - o)) > math.radians(4) for o in out):
            out.append(ang)
    return out


class _Looks:
    """The window's marks: a black-hat on a disc of half a tile width."""

    def __init__(self, grey: U8, width: float) -> None:
        self.grey = grey
        self.width = width
        k = max(3, round(KERNEL * width) | 1)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        hat = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, disc)
        sigma = max(0.6, 0.04 * width)
        self.pip_values: FloatArray = np.zeros(0)
        self.hat = np.asarray(cv2.GaussianBlur(hat.astype(np.float32), (0, 0), sigma), np.float32)

    def sample(self, pts: FloatArray) -> FloatArray:
        """The black-hat at points (bilinear), 0 outside the window."""
        h, w = self.hat.shape
        x = np.clip(pts[..., 0], 0, w - 1.001)
        y = np.clip(pts[..., 1], 0, h - 1.001)
        x0 = np.floor(x).astype(np.intp)
        y0 = np.floor(y).astype(np.intp)
        fx = x - x0
        fy = y - y0
        v = self.hat
        out = (
            v[y0, x0] * (1 - fx) * (1 - fy)
            + v[y0, x0 + 1] * fx * (1 - fy)
            + v[y0 + 1, x0] * (1 - fx) * fy
            + v[y0 + 1, x0 + 1] * fx * fy
        )
        return np.asarray(out, dtype=np.float64)

    def grey_at(self, pts: FloatArray) -> FloatArray:
        h, w = self.grey.shape
        x = np.clip(np.rint(pts[..., 0]).astype(np.intp), 0, w - 1)
        y = np.clip(np.rint(pts[..., 1]).astype(np.intp), 0, h - 1)
        return np.asarray(self.grey[y, x], dtype=np.float64)

    def pips(self) -> FloatArray:
        """Pip centres: local peaks of the black-hat lower all round at a pip's radius."""
        w = self.width
        hat = self.hat
        k = max(3, round(0.26 * w) | 1)
        peaks = (hat >= cv2.dilate(hat, np.ones((k, k), np.uint8))) & (hat >= MIN_PEAK)
        ys, xs = np.nonzero(peaks)
        if len(xs) == 0:
            return np.zeros((0, 2))
        pts = np.stack([xs, ys], axis=1).astype(np.float64)
        value = hat[ys, xs].astype(np.float64)
        angles = np.linspace(0, 2 * math.pi, 12, endpoint=False)
        ring = RING * w * np.stack([np.cos(angles), np.sin(angles)], axis=1)
        around = self.sample(pts[:, None, :] + ring[None, :, :]) / value[:, None]
        alone = (around.max(axis=1) <= RING_MAX) & (around.mean(axis=1) <= RING_MEAN)
        # ... and enclosed by face: a concave corner of tile material against the
        # table fills in the black-hat too, but the table lies beyond it on one side.
        angles = np.linspace(0, 2 * math.pi, 16, endpoint=False)
        rim = RIM * w * np.stack([np.cos(angles), np.sin(angles)], axis=1)
        face = self.grey_at(pts[:, None, :] + rim[None, :, :])
        lit = face >= (self.grey_at(pts) + 0.5 * value)[:, None]
        alone &= _longest_run(~lit) <= RIM_DARK
        pts, value = pts[alone], value[alone]
        if len(pts) == 0:
            return np.zeros((0, 2))
        # Each pip at least a share of the strongest pips within two tile widths.
        d = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=2)
        strong = np.array([np.percentile(value[d[i] <= 2 * w], 75) for i in range(len(pts))])
        self.pip_values = value[value >= PEAK_SHARE * strong]
        return np.asarray(pts[value >= PEAK_SHARE * strong], dtype=np.float64)


def _longest_run(flags: NDArray[np.bool_]) -> NDArray[np.intp]:
    """The longest run of True, going round, in each row."""
    run = np.zeros(flags.shape[0], dtype=np.intp)
    best = np.zeros(flags.shape[0], dtype=np.intp)
    for k in range(2 * flags.shape[1]):
        col = flags[:, k % flags.shape[1]]
        run = np.where(col, run + 1, 0)
        best = np.maximum(best, run)
    return np.minimum(best, flags.shape[1])


def _proposals(
    pips: FloatArray,
    free: list[int],
    axes: list[float],
    length: float,
    width: float,
    looks: _Looks,
    read: Sequence[tuple[FloatArray, FloatArray]],
) -> list[_Tile]:
    """Every tile of the known size that holds some free pip and reads as a domino."""
    out: list[_Tile] = []
    tried: set[tuple[int, ...]] = set()
    step = GRID * width
    half = length / 2
    free_set = frozenset(free)
    grid = np.array([(gi, gj) for gi in (-1, 0, 1) for gj in (-1, 0, 1)], dtype=np.float64)
    for ang in axes:
        u = np.array([math.cos(ang), math.sin(ang)])
        v = np.array([-u[1], u[0]])
        frame = np.stack([u, v])
        # A half centre holding pip i at each grid place; a true one is the centroid of
        # the pips on its square (every standard layout is centred).
        seeds = (pips[free][:, None, :] - step * (grid @ frame)[None, :, :]).reshape(-1, 2)
        rel = (pips[None, :, :] - seeds[:, None, :]) @ frame.T
        on = np.all(np.abs(rel) <= 0.5 * width, axis=2)
        count = on.sum(axis=1)
        mean = (rel * on[:, :, None]).sum(axis=1) / np.maximum(count, 1)[:, None]
        good = (count > 0) & (np.hypot(mean[:, 0], mean[:, 1]) <= GRID_TOL * step)
        centres = seeds[good] + mean[good] @ frame
        keys = {tuple(np.rint(c / (0.1 * width)).astype(int).tolist()): c for c in centres}
        for c in keys.values():
            for w in (u, v, -u, -v):
                t = _fit(pips, c, c + half * w, width, looks, free_set, tried)
                if t is None or any(_overlap((t.a, t.b), r, width) for r in read):
                    continue
                out.append(t)
    return out


@dataclass(frozen=True, slots=True)
class _Fitted:
    """A tile fitted to its pips: half centres, axes, the pips of each half, all held."""

    a: FloatArray
    b: FloatArray
    u: FloatArray
    v: FloatArray
    sides: tuple[NDArray[np.intp], NDArray[np.intp]]
    held: NDArray[np.intp]


def _refine(
    pips: FloatArray, a: FloatArray, b: FloatArray, width: float, free: frozenset[int]
) -> _Fitted | None:
    """The tile near half centres a, b moved onto its pips (every standard layout is
    centred on its half), or None when it holds a pip that is not free, no pip, or
    halves not a half length apart."""
    half = float(np.linalg.norm(b - a))
    u = (b - a) / half
    for rnd in range(4):
        v = np.array([-u[1], u[0]])
        d = pips - (a + b) / 2
        along = d @ u
        near = (np.abs(along) <= half + EDGE * width) & (np.abs(d @ v) <= (0.5 + EDGE) * width)
        held = np.nonzero(near)[0]
        if not set(held.tolist()) <= free:
            return None
        # A mark on the divider line is the divider's own (a faded divider breaks up
        # into blobs) or a centre pin: held by the tile, counted in no half.
        idx = held[np.abs(along[held]) >= DIVIDER_CLEAR * width]
        if len(idx) == 0:
            return None
        sides = (idx[along[idx] < 0], idx[along[idx] > 0])
        if rnd == 3:
            return _Fitted(a, b, u, v, sides, held)
        if len(sides[0]) and len(sides[1]):
            na, nb = pips[sides[0]].mean(axis=0), pips[sides[1]].mean(axis=0)
            gap = float(np.linalg.norm(nb - na))
            if abs(gap - half) > 0.12 * width:
                return None
            u = (nb - na) / gap
            c = (na + nb) / 2
            a, b = c - u * half / 2, c + u * half / 2
        elif len(sides[0]):
            a = pips[sides[0]].mean(axis=0)
            b = a + u * half
        else:
            b = pips[sides[1]].mean(axis=0)
            a = b - u * half
    return None


def _fit(
    pips: FloatArray,
    a: FloatArray,
    b: FloatArray,
    width: float,
    looks: _Looks,
    free: frozenset[int],
    tried: set[tuple[int, ...]],
) -> _Tile | None:
    """The tile with half centres near a, b fitted to its pips, if it reads as a domino
    and was not `tried` already."""
    fitted = _refine(pips, a, b, width, free)
    if fitted is None:
        return None
    a, b, u, v, sides = fitted.a, fitted.b, fitted.u, fitted.v, fitted.sides
    key = tuple(np.rint(np.concatenate([a, b]) / (0.1 * width)).astype(int).tolist())
    if key in tried:
        return None
    tried.add(key)
    counts: list[int] = []
    lows: list[float] = []
    empties: list[list[FloatArray]] = []
    for centre, side in zip((a, b), sides, strict=True):
        q = pips[side] - centre
        grid = _layout(q @ u, q @ v, width)
        if grid is None:
            return None
        n, step, places = grid
        counts.append(n)
        lows.append(float(looks.sample(pips[side]).min()) if n else 0.0)
        empties.append(
            [
                centre + step * (gi * u + gj * v)
                for gi in (-1, 0, 1)
                for gj in (-1, 0, 1)
                if (gi, gj) not in places
            ]
        )
    if not any(counts):
        return None
    weakest = min(low for low in lows if low > 0)
    # A pip missed would read a 5 as a 4: each half's empty grid places must be
    # clearly fainter than its own pips (a coloured set's pips differ by number),
    # a blank half's than the other half's.
    for low, spots in zip(lows, empties, strict=True):
        ref = low if low > 0 else weakest
        if spots and float(looks.sample(np.array(spots)).max()) > max(FAINT * ref, FAINT_FLOOR):
            return None
    most = [max(FAINT * (low if low > 0 else weakest), FAINT_FLOOR) for low in lows]
    if not _clean(looks, fitted, pips, width, (most[0], most[1])):
        return None
    if not _divider(looks, (a + b) / 2, u, v, width, weakest):
        return None
    covers = frozenset(int(i) for i in fitted.held.tolist())
    return _Tile(np.asarray(a), np.asarray(b), (counts[0], counts[1]), covers, CONFIDENCE)


def _clean(
    looks: _Looks, fitted: _Fitted, pips: FloatArray, width: float, most: tuple[float, float]
) -> bool:
    """Whether the face shows no mark but the pips and the divider (in each half, none
    darker than `most` of that half): a smudge, a coin or lettering off the grid is
    no part of any domino (the faint look only sees the grid)."""
    c = (fitted.a + fitted.b) / 2
    half = float(np.linalg.norm(fitted.b - fitted.a))
    inner = RIM_CLEAR * width
    along = np.arange(-half + inner, half - inner, 0.08 * width)
    across = np.arange(-0.5 * width + inner, 0.5 * width - inner, 0.08 * width)
    ga, gc = np.meshgrid(along, across)
    keep = np.abs(ga) >= DIVIDER_CLEAR * width
    ga, gc = ga[keep], gc[keep]
    pts = c + ga[:, None] * fitted.u + gc[:, None] * fitted.v
    held = pips[fitted.held]
    if len(held):
        gap = np.linalg.norm(pts[:, None, :] - held[None, :, :], axis=2).min(axis=1)
        pts, ga = pts[gap >= PIP_CLEAR * width], ga[gap >= PIP_CLEAR * width]
    if len(pts) == 0:
        return True
    limit = np.where(ga < 0, most[0], most[1])
    return bool(np.all(looks.sample(pts) <= limit))


def _layout(
    x: FloatArray, y: FloatArray, width: float
) -> tuple[int, float, frozenset[tuple[int, int]]] | None:
    """A half's pips (coordinates about its centre) as a standard layout, its grid step."""
    n = len(x)
    if n == 0:
        return 0, GRID * width, frozenset()
    if n > 6:
        return None
    r = np.maximum(np.abs(x), np.abs(y))
    outer = r[r > 0.1 * width]
    step = float(np.median(outer)) if len(outer) else GRID * width
    if not GRID_RANGE[0] * width <= step <= GRID_RANGE[1] * width:
        return None
    gi = np.rint(x / step).astype(int)
    gj = np.rint(y / step).astype(int)
    if np.any(np.abs(gi) > 1) or np.any(np.abs(gj) > 1):
        return None
    if np.any(np.hypot(x - gi * step, y - gj * step) > GRID_TOL * step):
        return None
    places = frozenset(zip(gi.tolist(), gj.tolist(), strict=True))
    if len(places) != n or places not in LAYOUTS.get(n, ()):
        return None
    return n, step, places


def _divider(
    looks: _Looks, c: FloatArray, u: FloatArray, v: FloatArray, width: float, pip: float
) -> bool:
    """Whether a line across the tile at c is a divider: darker in the black-hat than
    the face just beside it on both sides, and not darker in grey beside it than on
    it (a tile's end against a darker table is no divider). The face beside it is
    looked at between the divider and the nearest pips, across the middle of the tile
    where no pip lies."""
    line = (np.linspace(-0.3, 0.3, 13) * width)[:, None] * v[None, :]
    middle = (np.linspace(-0.15, 0.15, 7) * width)[:, None] * v[None, :]
    on = np.linspace(-0.06, 0.06, 5) * width
    beside = np.linspace(0.09, 0.17, 5) * width
    pts_on = c + on[:, None, None] * u + line[None, :, :]  # (5, 13, 2)
    pts_beside = c + np.concatenate([-beside, beside])[:, None, None] * u + middle[None, :, :]
    hat = float(np.median(looks.sample(pts_on), axis=1).max())
    grey = float(np.median(looks.grey_at(pts_on), axis=1).min())
    hats = np.median(looks.sample(pts_beside), axis=1).reshape(2, -1)
    greys = np.median(looks.grey_at(pts_beside), axis=1).reshape(2, -1)
    hat_beside = float(hats.min(axis=1).max())
    grey_beside = float(greys.max(axis=1).min())
    need = max(DIVIDER_CONTRAST, DIVIDER_SHARE * pip)
    return hat - hat_beside >= need and grey_beside >= grey


def _overlap(
    r1: tuple[FloatArray, FloatArray], r2: tuple[FloatArray, FloatArray], width: float
) -> bool:
    return bool(_separation(r1, r2, width) < 0)


def _corners(r: tuple[FloatArray, FloatArray], width: float, shrink: float) -> FloatArray:
    a, b = r
    c = (a + b) / 2
    u = b - a
    n = float(np.linalg.norm(u))
    u = u / n
    v = np.array([-u[1], u[0]])
    hu = n * shrink
    hv = (width / 2) * shrink
    return np.array([c + s * hu * u + t * hv * v for s, t in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def _separation(
    r1: tuple[FloatArray, FloatArray], r2: tuple[FloatArray, FloatArray], width: float
) -> float:
    """Positive when the two tiles (shrunk to OVERLAP) are apart along some axis."""
    p1 = _corners(r1, width, OVERLAP)
    p2 = _corners(r2, width, OVERLAP)
    best = -1e9
    for poly in (p1, p2):
        for k in range(2):
            e = poly[k + 1] - poly[k]
            n = np.array([-e[1], e[0]]) / float(np.linalg.norm(e))
            s1, s2 = p1 @ n, p2 @ n
            best = max(best, float(max(s2.min() - s1.max(), s1.min() - s2.max())))
    return best


def _groups(free: list[int], cands: list[_Tile]) -> list[frozenset[int]]:
    """The free pips in groups joined by the tiles proposed over them."""
    parent = {i: i for i in free}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for c in cands:
        items = sorted(c.covers)
        for j in items[1:]:
            parent[root(j)] = root(items[0])
    out: dict[int, set[int]] = {}
    for i in free:
        out.setdefault(root(i), set()).add(i)
    return [frozenset(g) for g in out.values()]


def _common(group: frozenset[int], cands: list[_Tile]) -> list[_Tile] | None:
    """The tiles in every exact cover of the group's pips, or None when there is no
    cover (or too many to look at)."""
    covers: list[list[_Tile]] = []
    by_pip: dict[int, list[_Tile]] = {i: [] for i in group}
    for c in cands:
        for i in c.covers:
            by_pip[i].append(c)

    def search(left: frozenset[int], chosen: list[_Tile]) -> bool:
        if len(covers) >= COVERS:
            return False
        if not left:
            covers.append(list(chosen))
            return True
        pick = min(left, key=lambda i: len(by_pip[i]))
        for c in by_pip[pick]:
            if not c.covers <= left:
                continue
            if any(_overlap((c.a, c.b), (o.a, o.b), _width(c)) for o in chosen):
                continue
            chosen.append(c)
            search(left - c.covers, chosen)
            chosen.pop()
        return True

    search(group, [])
    if not covers or len(covers) >= COVERS:
        return None
    first = covers[0]
    return [t for t in first if all(any(_same(o, t) for o in cov) for cov in covers[1:])]


def _same(s: _Tile, t: _Tile) -> bool:
    """The same reading at the same place (a quarter of a tile width), either way round."""
    tol = 0.25 * _width(t)
    if s.pips == t.pips and max(np.linalg.norm(s.a - t.a), np.linalg.norm(s.b - t.b)) <= tol:
        return True
    return bool(
        s.pips == t.pips[::-1] and max(np.linalg.norm(s.a - t.b), np.linalg.norm(s.b - t.a)) <= tol
    )


def _width(t: _Tile) -> float:
    return float(np.linalg.norm(t.b - t.a))
