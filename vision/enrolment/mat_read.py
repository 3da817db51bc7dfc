"""The enrolment mat read: each slot looked at where the mat says it is, no tile search.

A photo (or a camera frame) shows some of the mat's pages. Each page is known by its
four markers (`mat`: ids from 4), which give the page's plane in the image (`find_pages`:
a homography from page millimetres to pixels, from every marker corner seen). Each
slot is then cut out of the image straight (`R` pixels a millimetre) and judged:

1. the paper: the median colour of a thin ring just outside the slot's outline, the
   brighter half of it (a tile's shadow falls there too);
2. the tile: what is not paper (another hue, or darker than a shadow), closed over its
   pips, as one rectangle about twice as long as wide: its centre, turn and size;
   without one (white tiles on white paper) the tile is placed by its divider and the
   set's tile size;
3. its face: the tile's median colour; its marks, what stands out from the face; the
   divider, the mark across the tile's middle (it fixes the tile's centre along it);
4. each half's pips: the round marks on it, away from the divider, of a pip's size (a
   ring with a hole, as on sets with raised empty rings, is no pip).

A slot holds its tile (either end up), another tile, its tile face down (a tile with
no divider and no pips), or nothing. `read_mat(images, mat)` reads every photo and keeps,
for each slot, the reading from the photo that sees it best.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Final

import cv2
import numpy as np
from numpy.typing import NDArray

from engine.tiles import Tile
from mat import FIRST_MARKER_ID, Mat, Page, Slot
from vision.calibration.aruco_markers import DICTIONARY
from vision.set_model.halves import HalfMatcher, crop_half

__all__ = [
    "MatReading",
    "PageSeen",
    "SlotReading",
    "SlotState",
    "crops_of",
    "find_pages",
    "read_mat",
    "sightings",
]

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
Point = tuple[float, float]

R: Final = 6.0  # pixels a millimetre the slots are looked at
RING: Final = (1.2, 2.8)  # mm outside the outline: where the paper is measured
MARGIN_MM: Final = 3.0  # looked at beyond the outline
PAPER_HUE: Final = 7.0  # Lab a*b* distance within which a pixel has the paper's hue
SHADOW: Final = 0.5  # ... and is paper (in shadow) down to this share of its lightness
MIN_TILE_MM2: Final = 250.0  # less than this is no tile
MARK: Final = 0.4  # a mark stands out from the face by this share of the slot's far end
MIN_MARK: Final = 14.0  # Lab units: at least this
PIP_FILL: Final = 0.55  # a pip fills at least this share of its enclosing circle
SAME_LOOK: Final = 1.15  # a half is its slot's number when no number is nearer than this


class SlotState(StrEnum):
    """What a slot holds, as the reply and the camera's words say it."""

    RIGHT = "right"
    EMPTY = "empty"
    OTHER = "other"
    FACE_DOWN = "face down"
    UNSEEN = "unseen"
    UNCLEAR = "unclear"


@dataclass(frozen=True, slots=True)
class PageSeen:
    """A page of the mat in one image: its homography (page mm -> pixels) and the markers
    it was found by."""

    page: Page
    to_px: F64
    markers: tuple[int, ...]

    def px(self, points_mm: Sequence[Point] | F64) -> F64:
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.to_px), dtype=np.float64).reshape(
            -1, 2
        )

    def px_per_mm(self, at: Point) -> float:
        p = self.px([at, (at[0] + 1.0, at[1]), (at[0], at[1] + 1.0)])
        return float(np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2


@dataclass(frozen=True, slots=True)
class SlotReading:
    """One slot judged. `read`: the pips on the half towards the page's top, then the
    other (None: not read); `px`: those halves' centres in the image; `image`: which of
    the photos it was read in; `tile_mm` (length, width) and `face` (BGR) as measured;
    `pip_mm2`: each pip's area; `far`: how far its marks stand out from its face (Lab);
    `scale`: the photo's pixels a millimetre there."""

    slot: Slot
    state: SlotState
    read: tuple[int, int] | None = None
    px: tuple[Point, Point] | None = None
    image: int = -1
    tile_mm: tuple[float, float] | None = None
    face: tuple[float, float, float] | None = None
    pip_mm2: tuple[float, ...] = ()
    far: float = 0.0
    scale: float = 0.0
    pip_fill: tuple[float, ...] = ()

    @property
    def tile(self) -> Tile:
        return self.slot.tile

    @property
    def holds(self) -> Tile | None:
        """The tile read there (None: none read)."""
        if self.read is None:
            return None
        try:
            return Tile(*self.read)
        except ValueError:
            return None

    def sentence(self) -> str:
        """What is wrong with the slot, in words (empty when it holds its tile)."""
        name = f"{self.tile.text} (page {self.slot.page})"
        if self.state is SlotState.RIGHT:
            return ""
        if self.state is SlotState.EMPTY:
            return f"{name}: the slot is empty"
        if self.state is SlotState.FACE_DOWN:
            return f"{name}: the tile lies face down"
        if self.state is SlotState.UNSEEN:
            return f"{name}: its page is not in view"
        if self.state is SlotState.OTHER and self.read is not None:
            a, b = self.read
            return f"{name}: holds another tile (read as {max(a, b)}-{min(a, b)})"
        return f"{name}: the tile there could not be read"


@dataclass(frozen=True, slots=True)
class MatReading:
    """Every slot of the mat judged, and the pages each photo showed."""

    mat: Mat
    slots: tuple[SlotReading, ...]
    pages_seen: tuple[tuple[int, ...], ...] = field(default=())  # per photo

    @property
    def ok(self) -> bool:
        return all(s.state is SlotState.RIGHT for s in self.slots)

    def wrong(self) -> tuple[SlotReading, ...]:
        return tuple(s for s in self.slots if s.state is not SlotState.RIGHT)

    def summary(self) -> str:
        right = sum(s.state is SlotState.RIGHT for s in self.slots)
        total = len(self.slots)
        if right == total:
            return f"all {total} tiles of the {self.mat.domino_set} set lie in their slots"
        seen = sorted({p for ps in self.pages_seen for p in ps})
        missing = [p.number for p in self.mat.pages if p.number not in seen]
        told = f"{right} of the {total} slots hold their tile"
        if missing:
            told += f"; page {', '.join(map(str, missing))} not seen"
        return told


# --- pages ---------------------------------------------------------------------------------


def sightings(image: U8) -> dict[int, F64]:
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)
    corners, ids, _ = detector.detectMarkers(grey)
    found: dict[int, F64] = {}
    if len(corners) == 0:
        return found
    for quad, raw in zip(corners, np.asarray(ids).ravel(), strict=True):
        pts = np.asarray(quad, dtype=np.float64).reshape(4, 2)
        side = float(np.mean(np.linalg.norm(pts - np.roll(pts, 1, axis=0), axis=1)))
        old = found.get(int(raw))
        if old is None or side > float(np.mean(np.linalg.norm(old - np.roll(old, 1, 0), axis=1))):
            found[int(raw)] = pts
    return found


def find_pages(image: U8, mat: Mat) -> list[PageSeen]:
    """The pages of `mat` in `image` with at least two of their markers in view."""
    by_page: dict[int, list[tuple[int, F64]]] = {}
    for marker_id, quad in sightings(image).items():
        if marker_id < FIRST_MARKER_ID:
            continue
        known = mat.page_of(marker_id)
        if known is not None:
            by_page.setdefault(known[0].number, []).append((marker_id, quad))
    out = []
    for number, seen in sorted(by_page.items()):
        if len(seen) < 2:
            continue
        page = mat.pages[number - 1]
        mm: list[Point] = []
        px: list[F64] = []
        for marker_id, quad in seen:
            corner = next(m for m in page.markers if m.marker_id == marker_id)
            mm += list(corner.corners_mm)
            px += list(quad)
        hom, _ = cv2.findHomography(np.array(mm, dtype=np.float64), np.array(px), 0)
        if hom is not None:
            ids = tuple(sorted(m for m, _ in seen))
            out.append(PageSeen(page, np.asarray(hom, dtype=np.float64), ids))
    return out


# --- looking at a slot ---------------------------------------------------------------------


def _affine(origin: Point, right: Point, down: Point) -> F64:
    """Output pixel (u, v) -> page mm: origin + (u + 0.5) / R * right + (v + 0.5) / R * down."""
    ox, oy = origin
    rx, ry = right
    dx, dy = down
    s = 1.0 / R
    return np.array(
        [
            [rx * s, dx * s, ox + 0.5 * s * (rx + dx)],
            [ry * s, dy * s, oy + 0.5 * s * (ry + dy)],
            [0.0, 0.0, 1.0],
        ]
    )


def _look(image: U8, seen: PageSeen, to_mm: F64, size: tuple[int, int]) -> U8:
    m = seen.to_px @ to_mm
    out = cv2.warpPerspective(
        image, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip
    return np.asarray(out, dtype=np.uint8)


def _lab(bgr: U8) -> F32:
    """Lab with L in 0..100 and a, b about 0 (float)."""
    return np.asarray(cv2.cvtColor(bgr.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab))


@dataclass(frozen=True, slots=True)
class _Body:
    """A tile's place in its slot, in page mm: centre, the unit vector along it (towards
    the page's foot), its length and width (None: placed by the divider only)."""

    centre: Point
    along: Point
    size: tuple[float, float] | None


def _paper(lab: F32, rect: tuple[float, float, float, float]) -> F32:
    """The paper's colour (Lab) around the slot (`lab` is the slot's straight view)."""
    h, w = lab.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    x_mm, y_mm = xs / R - MARGIN_MM, ys / R - MARGIN_MM
    x1, y1 = rect[2] - rect[0], rect[3] - rect[1]
    dist = np.maximum(np.maximum(-x_mm, x_mm - x1), np.maximum(-y_mm, y_mm - y1))
    ring = (dist > RING[0]) & (dist < RING[1]) & (y_mm < y1)  # not below: its name is there
    pixels = lab[ring]
    bright = pixels[pixels[:, 0] >= np.median(pixels[:, 0])]
    return np.asarray(np.median(bright, axis=0), dtype=np.float32)


def _by_divider(lab: F32, paper: F32, rect: tuple[float, float, float, float]) -> _Body | None:
    """A tile of the paper's own colour (white on white): placed by its divider, the
    longest straight run of ink across the slot near its middle; its width guessed from
    the divider's length (a divider crosses about 85 % of a tile)."""
    far = np.linalg.norm(lab - paper, axis=2) > MIN_MARK
    far = (
        cv2.morphologyEx(far.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((1, round(R)), np.uint8))
        > 0
    )
    h, w = far.shape
    best: tuple[int, int, int] | None = None  # length, row, start
    o = round((MARGIN_MM + 1.0) * R)
    for y in range(round(h * 0.3), round(h * 0.7)):
        row = far[y, o : w - o]
        edges = np.flatnonzero(np.diff(np.concatenate([[0], row.astype(np.int8), [0]])))
        for start, stop in zip(edges[::2], edges[1::2], strict=True):
            if best is None or stop - start > best[0]:
                best = (int(stop - start), y, int(start) + o)
    if best is None or best[0] < 12.0 * R:
        return None
    length, y, start = best
    centre = (
        (start + length / 2) / R - MARGIN_MM + rect[0],
        (y + 0.5) / R - MARGIN_MM + rect[1],
    )
    width = length / R / 0.85
    return _Body(centre, (0.0, 1.0), (2.0 * width, width))


def _face_of(lab: F32, region: NDArray[np.bool_]) -> NDArray[np.bool_] | None:
    """The tile's face within `region` (face, side and shadow): what has the colour of
    the region's middle, closed over its marks, holes filled."""
    ys, xs = np.nonzero(region)
    if ys.size == 0:
        return None
    y0, y1 = np.percentile(ys, [35, 65])
    x0, x1 = np.percentile(xs, [35, 65])
    middle = lab[int(y0) : int(y1) + 1, int(x0) : int(x1) + 1].reshape(-1, 3)
    if middle.size == 0:
        return None
    face = np.median(middle, axis=0)
    near = (np.linalg.norm(lab - face, axis=2) < 2 * PAPER_HUE) & region
    closed = cv2.morphologyEx(near.astype(np.uint8), cv2.MORPH_CLOSE, _disc(2.0))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    if n <= 1:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    blob = (labels == k).astype(np.uint8)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(blob)
    cv2.drawContours(filled, contours, -1, 1, -1)
    return np.asarray(filled > 0)


def _not_paper(lab: F32, paper: F32) -> NDArray[np.bool_]:
    hue = np.hypot(lab[..., 1] - paper[1], lab[..., 2] - paper[2])
    light = lab[..., 0]
    paper_like = (hue < PAPER_HUE) & (light > SHADOW * paper[0]) & (light < paper[0] + 8.0)
    return np.asarray(~paper_like, dtype=np.bool_)


def _disc(mm: float) -> U8:
    r = max(1, round(mm * R))
    return np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))


def _body(lab: F32, paper: F32, rect: tuple[float, float, float, float]) -> _Body | None:
    """The tile's rectangle in the slot's straight view, from what is not paper."""
    mask = _not_paper(lab, paper).astype(np.uint8)
    h, w = mask.shape
    sw, sl = rect[2] - rect[0], rect[3] - rect[1]
    # the outline's ink is no tile
    o = round((MARGIN_MM - 0.6) * R), round((MARGIN_MM + 0.6) * R)
    mask[o[0] : o[1], :] = 0
    mask[h - o[1] : h - o[0], :] = 0
    mask[:, o[0] : o[1]] = 0
    mask[:, w - o[1] : w - o[0]] = 0
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(2.5))
    opened = np.asarray(cv2.morphologyEx(closed, cv2.MORPH_OPEN, _disc(1.0)), dtype=np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    if n <= 1:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[k, cv2.CC_STAT_AREA] < MIN_TILE_MM2 * R * R:
        return None
    region = labels == k
    face_only = _face_of(lab, region)
    if face_only is not None and face_only.sum() >= 0.5 * MIN_TILE_MM2 * R * R:
        region = face_only
    ys, xs = np.nonzero(region)
    pts = np.column_stack([xs, ys]).astype(np.float64)
    mean = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - mean, full_matrices=False)
    along = (float(vt[0][0]), float(vt[0][1]))
    if along[1] < 0:
        along = (-along[0], -along[1])
    u = (pts - mean) @ np.array(along)
    v = (pts - mean) @ np.array([along[1], -along[0]])
    lo_u, hi_u = np.percentile(u, [0.5, 99.5])
    lo_v, hi_v = np.percentile(v, [0.5, 99.5])
    long_, short = float(hi_u - lo_u) / R, float(hi_v - lo_v) / R
    across = np.array([along[1], -along[0]])
    mid = mean + np.array(along) * (lo_u + hi_u) / 2 + across * (lo_v + hi_v) / 2
    cx, cy = float(mid[0]), float(mid[1])
    centre = (cx / R - MARGIN_MM + rect[0] + 0.5 / R, cy / R - MARGIN_MM + rect[1] + 0.5 / R)
    fits = 1.5 <= long_ / max(short, 1e-6) <= 2.6 and long_ <= sl + 6 and short <= sw + 6
    if not fits or abs(along[0]) > math.sin(math.radians(20)):
        return _Body(centre, (0.0, 1.0), None)
    return _Body(centre, along, (long_, short))


@dataclass(frozen=True, slots=True)
class _Marks:
    """A tile's marks, in its own straight view (rows along the tile)."""

    divider: float | None  # mm from the view's centre along the tile, or None
    pips: tuple[tuple[float, float, float], ...]  # (along, across, area) mm, mm2
    fills: tuple[float, ...]  # how much of its enclosing circle each round pip fills
    face: F32  # Lab
    far: float  # how far the tile's marks stand out from its face (Lab units)


def _tile_view(image: U8, seen: PageSeen, body: _Body, size: tuple[float, float]) -> tuple[U8, F64]:
    """The tile straight (its length down the rows), 1 mm beyond its edges, and the map
    of that view's pixels to page mm."""
    length, width = size
    ex, ey = body.along
    right = (ey, -ex)
    span = (width + 2.0, length + 2.0)
    cx, cy = body.centre
    origin = (
        cx - right[0] * span[0] / 2 - ex * span[1] / 2,
        cy - right[1] * span[0] / 2 - ey * span[1] / 2,
    )
    to_mm = _affine(origin, right, (ex, ey))
    out = (round(span[0] * R), round(span[1] * R))
    return _look(image, seen, to_mm, out), to_mm


def _marks(
    view: U8,
    size: tuple[float, float],
    face_hint: F32 | None,
    pip_mm2: float | None,
    far_hint: float | None,
) -> _Marks:
    """The tile's divider and pips. `face_hint`, `pip_mm2`, `far_hint`: the set's face
    colour, pip area and marks' contrast once known: a mark of pips run together (blur,
    pips close in a column) then counts as its area in pips."""
    width = size[1]
    lab = _lab(view)
    h, w = lab.shape[:2]
    edge = round(1.0 * R + 0.08 * width * R)
    inner = lab[edge : h - edge, edge : w - edge]
    face = (
        np.median(inner.reshape(-1, 3), axis=0).astype(np.float32)
        if face_hint is None
        else face_hint
    )
    far = np.linalg.norm(lab - face, axis=2)
    inset = round((1.0 + 0.06 * width) * R)
    inside = far[inset : h - inset, inset : w - inset]
    top = float(np.percentile(inside, 99)) if inside.size else 0.0
    threshold = max(MIN_MARK, MARK * (top if far_hint is None else far_hint))
    mask = np.zeros((h, w), np.uint8)
    mask[inset : h - inset, inset : w - inset] = inside > threshold
    mid_v = h / 2
    divider = _divider(mask, width, inset)
    if divider is not None:  # cut off from the pips it may touch
        lo, hi = divider[1]
        mask[max(0, lo - 1) : hi + 2, :] = 0
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    pips: list[tuple[float, float, float]] = []
    fills: list[float] = []
    one = None if pip_mm2 is None else pip_mm2 * R * R
    for k in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[k])
        across_mm, along_mm = bw / R, bh / R
        cx, cy = cents[k]
        if across_mm >= 0.45 * width and along_mm <= 0.25 * width:
            continue  # a line across: a second divider's piece, a crack, no pip
        blob = (labels[y : y + bh, x : x + bw] == k).astype(np.uint8)
        contours, hierarchy = cv2.findContours(blob, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        if hierarchy is not None and len(contours) > 1:
            continue  # a ring: a hole in it
        d_mm = max(bw, bh) / R
        fill = area / (math.pi * (max(bw, bh) / 2) ** 2)
        round_ = fill >= PIP_FILL and min(bw, bh) >= 0.6 * max(bw, bh)
        big_enough = one is None or area >= 0.4 * one
        if round_ and 0.08 * width <= d_mm <= 0.34 * width and big_enough:
            pips.append(((cy - mid_v) / R, (cx - w / 2) / R, area / (R * R)))
            fills.append(fill)
            continue
        if one is None or not 1.5 * one <= area <= 7.0 * one:
            continue
        # pips run together: as many as its area holds, spread along its longer side
        count = round(area / one)
        ys, xs = np.nonzero(blob)
        pts = np.column_stack([xs + x, ys + y]).astype(np.float64)
        mean = pts.mean(axis=0)
        _, _, vt = np.linalg.svd(pts - mean, full_matrices=False)
        spread = (pts - mean) @ vt[0]
        for q in np.linspace(0.5 / count, 1 - 0.5 / count, count):
            px, py = mean + vt[0] * float(np.quantile(spread, q))
            pips.append(((py - mid_v) / R, (px - w / 2) / R, area / count / (R * R)))
    return _Marks(None if divider is None else divider[0], tuple(pips), tuple(fills), face, top)


def _divider(mask: U8, width: float, inset: int) -> tuple[float, tuple[int, int]] | None:
    """The divider: the run of rows near the middle that marks cross most of the way
    (a row through a pair of pips is crossed less than halfway); its offset from the
    middle (mm) and its rows."""
    h, w = mask.shape
    cover = mask[:, inset : w - inset].mean(axis=1) if w > 2 * inset else np.zeros(h)
    mid = h / 2
    reach = 0.3 * width * R
    rows = [y for y in range(h) if abs(y - mid) < reach and cover[y] >= 0.6]
    if not rows:
        return None
    runs: list[list[int]] = [[rows[0]]]
    for y in rows[1:]:
        if y == runs[-1][-1] + 1:
            runs[-1].append(y)
        else:
            runs.append([y])
    run = max(runs, key=lambda r: (float(cover[r].sum()), -abs(np.mean(r) - mid)))
    if len(run) > 0.2 * width * R:
        return None
    return (float(np.mean(run)) + 0.5 - mid) / R, (run[0], run[-1])


def _count(marks: _Marks, width: float) -> tuple[int, int]:
    centre = marks.divider or 0.0
    top = bottom = 0
    for along, across, _ in marks.pips:
        off = along - centre
        if abs(across) > 0.4 * width or abs(off) < 0.08 * width or abs(off) > 0.92 * width:
            continue
        if off < 0:
            top += 1
        else:
            bottom += 1
    return top, bottom


def _bgr(lab: F32) -> tuple[float, float, float]:
    px = np.asarray(lab, dtype=np.float32).reshape(1, 1, 3)
    b, g, r = (float(v) * 255.0 for v in cv2.cvtColor(px, cv2.COLOR_Lab2BGR).reshape(3))
    return (b, g, r)


def _read_slot(
    image: U8,
    index: int,
    seen: PageSeen,
    slot: Slot,
    size: tuple[float, float] | None,
    face: F32 | None,
    pip_mm2: float | None = None,
    far: float | None = None,
) -> SlotReading:
    """Judge one slot; `size`, `face` and `pip_mm`: the set's tile size, face colour and
    pip diameter, once known from the other slots (None: this slot's own)."""
    rect = slot.rect_mm
    origin = (rect[0] - MARGIN_MM, rect[1] - MARGIN_MM)
    straight = _affine(origin, (1.0, 0.0), (0.0, 1.0))
    out = (
        round((rect[2] - rect[0] + 2 * MARGIN_MM) * R),
        round((rect[3] - rect[1] + 2 * MARGIN_MM) * R),
    )
    lab = _lab(_look(image, seen, straight, out))
    paper = _paper(lab, rect)
    body = _body(lab, paper, rect)
    scale = seen.px_per_mm(slot.centre_mm)
    guessed = None
    if body is None:
        body = _by_divider(lab, paper, rect)
        if body is None:
            return SlotReading(slot, SlotState.EMPTY, image=index, scale=scale)
        guessed, body = body.size, replace(body, size=None)
    own = body.size
    measured = own if own is not None else (size or guessed)
    if measured is None:
        return SlotReading(slot, SlotState.UNCLEAR, image=index, scale=scale)
    view, _ = _tile_view(image, seen, body, measured)
    marks = _marks(view, measured, face, pip_mm2, far)
    if own is None and marks.divider is None:
        return SlotReading(slot, SlotState.EMPTY, image=index, scale=scale)
    shift = marks.divider or 0.0
    centre = (body.centre[0] + body.along[0] * shift, body.centre[1] + body.along[1] * shift)
    width = measured[1]
    if marks.divider is None and not marks.pips:
        return SlotReading(slot, SlotState.FACE_DOWN, image=index, tile_mm=own, scale=scale)
    ends = [
        (centre[0] - body.along[0] * width / 2, centre[1] - body.along[1] * width / 2),
        (centre[0] + body.along[0] * width / 2, centre[1] + body.along[1] * width / 2),
    ]
    px = seen.px(ends)
    a, b = _count(marks, width)
    state = SlotState.RIGHT if Tile(a, b) is slot.tile else SlotState.OTHER
    return SlotReading(
        slot,
        state,
        (a, b),
        ((float(px[0, 0]), float(px[0, 1])), (float(px[1, 0]), float(px[1, 1]))),
        index,
        own or guessed,
        _bgr(marks.face),
        tuple(d for *_, d in marks.pips),
        marks.far,
        scale,
        marks.fills,
    )


def _better(a: SlotReading, b: SlotReading) -> bool:
    """Whether reading `a` of a slot beats `b` (from another photo)."""
    rank = {SlotState.RIGHT: 4, SlotState.OTHER: 2, SlotState.FACE_DOWN: 2,
            SlotState.EMPTY: 1, SlotState.UNCLEAR: 1, SlotState.UNSEEN: 0}  # fmt: skip
    return (rank[a.state], a.scale) > (rank[b.state], b.scale)


def read_mat(images: Sequence[U8], mat: Mat) -> MatReading:
    """Every slot of `mat` judged on `images` (photos or frames of its pages); a slot seen
    in several is judged by the one that reads it best."""
    best: dict[Tile, SlotReading] = {s.tile: SlotReading(s, SlotState.UNSEEN) for s in mat.slots}
    pages_seen: list[tuple[int, ...]] = []
    views: list[tuple[int, PageSeen]] = []
    for i, image in enumerate(images):
        pages = find_pages(image, mat)
        pages_seen.append(tuple(p.page.number for p in pages))
        views += [(i, p) for p in pages]
    # first on its own, each slot gives the set's tile size and face colour ...
    first: list[tuple[int, PageSeen, SlotReading]] = []
    for i, seen in views:
        for slot in seen.page.slots:
            first.append((i, seen, _read_slot(images[i], i, seen, slot, None, None)))
    sizes = [r.tile_mm for *_, r in first if r.tile_mm is not None and r.state is SlotState.RIGHT]
    size = None
    if sizes:
        size = (float(np.median([s[0] for s in sizes])), float(np.median([s[1] for s in sizes])))
    faces = [r.face for *_, r in first if r.face is not None and r.state is SlotState.RIGHT]
    face = None
    if faces:
        bgr = np.median(np.array(faces, dtype=np.float32), axis=0).reshape(1, 1, 3) / 255.0
        face = np.asarray(
            cv2.cvtColor(bgr.astype(np.float32), cv2.COLOR_BGR2Lab).reshape(3), dtype=np.float32
        )
    right = [r for *_, r in first if r.state is SlotState.RIGHT]
    areas = [d for r in right for d in r.pip_mm2]
    pip_mm2 = float(np.median(areas)) if areas else None
    fars = [r.far for r in right if r.pip_mm2]
    far = float(np.median(fars)) if fars else None
    # ... by which each slot is read again
    for i, seen, reading in first:
        again = _read_slot(images[i], i, seen, reading.slot, size, face, pip_mm2, far)
        if again.state is not SlotState.RIGHT and reading.state is SlotState.RIGHT:
            again = reading
        if _better(again, best[reading.tile]):
            best[reading.tile] = again
    slots = _by_crops(images, [best[s.tile] for s in mat.slots])
    return MatReading(mat, tuple(slots), tuple(pages_seen))


def _by_crops(images: Sequence[U8], slots: list[SlotReading]) -> list[SlotReading]:
    """A slot whose pips were counted wrong, but whose halves look like the set's own
    halves of its tile's numbers (cut from the slots read right), holds its tile: pips
    run together (a double-twelve's 11) or a mark taken for a pip are the counter's
    slips, not the player's. A tile in the wrong slot looks like other numbers."""
    right = [c for r in slots if r.state is SlotState.RIGHT for c in crops_of(images, r)]
    values = {v for v, _ in right}
    if not right:
        return slots
    matcher = HalfMatcher(right)
    out = []
    for r in slots:
        tile = r.tile
        if r.state is not SlotState.OTHER or r.px is None or not {tile.high, tile.low} <= values:
            out.append(r)
            continue
        image = images[r.image]
        a, b = r.px
        top, foot = matcher.nearest(crop_half(image, a, b)), matcher.nearest(crop_half(image, b, a))
        kept = r
        for x, y in ((tile.high, tile.low), (tile.low, tile.high)):
            if top.ratio(x) <= SAME_LOOK and foot.ratio(y) <= SAME_LOOK:
                kept = replace(r, state=SlotState.RIGHT, read=(x, y))
                break
        out.append(kept)
    return out


def crops_of(images: Sequence[U8], reading: SlotReading) -> tuple[tuple[int, U8], ...]:
    """The two halves of a slot read right, each with its number (`crop_half`)."""
    if reading.px is None or reading.read is None or reading.image < 0:
        return ()
    image = images[reading.image]
    a, b = reading.px
    return ((reading.read[0], crop_half(image, a, b)), (reading.read[1], crop_half(image, b, a)))


def with_state(reading: SlotReading, state: SlotState) -> SlotReading:
    return replace(reading, state=state)
