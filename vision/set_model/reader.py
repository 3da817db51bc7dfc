"""The players' set read as itself: every half against the set's own halves and pips.

A table has one set. Once it is enrolled (`vision.set_model.model.SetModel`), the
camera knows its faces' colour, its tile's size, its pips (their contrast and size)
and a crop of every half at its number. `SetReader` reads a frame's tiles with that
knowledge, after the detector:

- **each half is read three ways** and two must agree: the detector's count, the
  set's own pip count (`vision.set_model.pips.count_pips`: marks of the set's pips'
  contrast and size) and the nearest of the set's halves (`HalfMatcher`). The
  detector's number stands when the pip count or the set's halves agree with it;
  else, when the pip count and the set's halves agree on another number (the set's
  halves of it near, `near`, and the detector's number plainly further,
  `reread`), the half is read as that number. When the two counts disagree with each
  other too (a dense half's pips run together), the set's halves decide where they lie
  `decisive` times nearer one number than any other (not a blank where both counts see
  pips). A number the set has not is never read: the two others decide, or the
  nearest of the set's halves when the model holds every number (`complete`).
- **tiles of the set's look that the detector did not read are found**: where the
  frame has the faces' colour (nearer to it than to the table's), closed over the
  pips, and no tile read lies, a body of one tile's known size (or a row of them)
  is a tile when it shows a divider across its middle and each half's pip count
  and nearest set half agree, on a tile no other place holds. The colour is the
  median over a few pixels (`face_blur`), so a grain on the faces and the table (wooden
  tiles on a wooden table) gives no speckle. A body of any shape (a chain with
  doubles across it, tiles side by side) is also searched, inside its rim, for lines
  of a divider's contrast, length and thinness away from the pips: each is the
  divider of a tile lying across it, read the same way. A blank double at the end of
  a black chain, a ringed set's blank half, or a wooden chain on a wooden table is
  read this way. Found where the detector left an unsure place, the place is
  explained.
- **a tile read off its known length** (its half centres further than `off_size` from
  a quarter of the set's tile length from its centre) has its halves read where the
  known length puts them; **a tile whose halves do not read alike three ways** is read
  again at the known length and moved across (`aside`), and lies where its halves
  read alike (`_placed`). A set enrolled from the mat is compared cut as the mat cut
  its halves (`cut`).

What a half's checks decided is kept for the next frame (`remember`): tiles lie
still between plays, so each frame reads again only what is new.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detector.results import FoundTile, Point, UnsureRegion
from vision.set_model.halves import CROP, HalfMatcher, Nearest, crop_half
from vision.set_model.pips import count_pips, pip_share_of
from vision.tuning import check_bounds

__all__ = ["SET_READING", "Found", "SetReader", "SetReading"]

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
Colour = tuple[float, float, float]
Key = tuple[int, int, int, int, int, int]

# pixels a side, at most, of a half cut to count its pips or see its divider: a large
# photo's half is brought down to it (a pip is still some 20 pixels across), so a
# half costs the same whatever the camera's resolution
COUNT_SIDE: Final = 96


@dataclass(frozen=True, slots=True)
class SetReading:
    """The set reader's thresholds. Distances of a half to the set's halves are taken
    over `apart`, how far the set's halves of two numbers lie (`find.apart`)."""

    near: float = 0.75  # a half this near the set's halves of a number looks like it
    reread: float = 1.3  # the detector's number this much further: plainly not it
    clear: float = 1.1  # the nearest number this much nearer than the next
    decisive: float = 3.0  # ... this much nearer: the set's halves decide a half whose
    # two counts disagree with them and with each other
    face_near: float = 20.0  # Lab units: at most this far from the faces' colour ...
    face_share: float = 0.5  # ... and nearer than this share of the table's distance
    face_blur: float = 0.15  # of a tile's width: the colour is the median over as many
    min_face: float = 12.0  # Lab units the faces must stand from the table to be found
    body_area: float = 0.55  # a body of at least this share of a tile's area
    body_width: tuple[float, float] = (0.7, 1.35)  # its width, in tile widths
    body_slack: float = 0.3  # its length off a whole number of tiles, in tile lengths
    divider: float = 0.35  # of the pips' contrast: a divider stands this far out
    rim: float = 0.12  # of a tile's width: a body's rim, where no divider is looked for
    pip_core: float = 0.6  # of a pip's width: marks this thick are pips, not a divider
    divider_length: tuple[float, float] = (0.45, 1.1)  # a divider's, in tile widths
    divider_thick: float = 0.25  # a divider at most this thick, in tile widths
    sure: float = 0.9  # the confidence of a half read alike two ways
    found: float = 0.85  # the confidence of a tile the set's look found
    aside: float = 0.15  # of a tile's width: a tile whose halves do not read alike two
    # ways is read again moved this far across, each way
    off_size: float = 0.08  # a tile read this far off its known length: its halves are
    # read a quarter of the known length from its centre

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "near": (0.05, 5.0),
                "reread": (1.0, 10.0),
                "clear": (1.0, 10.0),
                "decisive": (1.0, 100.0),
                "face_near": (1.0, 100.0),
                "face_share": (0.05, 1.0),
                "face_blur": (0.0, 1.0),
                "min_face": (0.0, 100.0),
                "body_area": (0.1, 1.0),
                "body_width": (0.1, 3.0),
                "body_slack": (0.0, 0.5),
                "divider": (0.0, 1.0),
                "rim": (0.0, 0.5),
                "pip_core": (0.1, 2.0),
                "divider_length": (0.1, 2.0),
                "divider_thick": (0.02, 1.0),
                "sure": (0.0, 1.0),
                "found": (0.0, 1.0),
                "off_size": (0.0, 1.0),
                "aside": (0.0, 0.5),
            },
        )


SET_READING: Final = SetReading()


@dataclass(frozen=True, slots=True)
class Found:
    """What the set reader made of a frame: its tiles and the places still unsure."""

    tiles: tuple[FoundTile, ...]
    unsure: tuple[UnsureRegion, ...]


@dataclass(frozen=True, slots=True)
class _Half:
    number: int
    agreed: bool  # two of the three ways read `number`
    sure: bool = False  # the pip count and the set's halves both read `number`


class SetReader:
    """A set's own look, to read a frame's tiles by (see the module).

    `matcher`: the set's halves; `max_pip`: its highest number; `complete`: the
    halves hold every number (an enrolled set), so a number without any is none of
    the set's; `face`: the faces' colour (BGR; None: tiles are not looked for by it);
    `pip_share`: a pip's diameter over the tile's width (None: measured on the crops);
    `shape`: the tile's length over its width; `cut`: how far apart, over the tile's
    width, the half centres lay where the set's halves were cut (None: as the tiles
    read, or found at the known length, lie)."""

    def __init__(
        self,
        matcher: HalfMatcher,
        crops: Sequence[tuple[int, U8]],
        max_pip: int,
        *,
        complete: bool,
        face: Colour | None = None,
        pip_share: float | None = None,
        shape: float = 2.0,
        cut: float | None = None,
        settings: SetReading = SET_READING,
    ) -> None:
        self.matcher = matcher
        self.max_pip = max_pip
        self.complete = complete
        self.face = face
        self.shape = shape
        self.cut = cut
        self.s = settings
        self.contrast = matcher.contrast
        share = pip_share if pip_share else pip_share_of(crops, matcher.contrast)
        self.pip_share = share if share else 0.2
        self.apart = _apart(matcher, crops)
        self._seen: dict[Key, tuple[int, int, bool, tuple[Point, Point]]] = {}
        self._now: dict[Key, tuple[int, int, bool, tuple[Point, Point]]] = {}
        # what a body's reading gave, by its place: kept for the next frame as `_seen`
        self._bodies_seen: dict[Key, FoundTile | None] = {}
        self._bodies_now: dict[Key, FoundTile | None] = {}
        self._length = 0.0  # the frame's tile length, pixels (0: not known)

    # --- reading ---------------------------------------------------------------------

    def read(
        self,
        image: U8,
        tiles: Sequence[FoundTile],
        unsure: Sequence[UnsureRegion],
        tile_px: float,
        box: tuple[int, int, int, int] | None = None,
        area: Sequence[Point] | None = None,
        left_out: NDArray[np.bool_] | None = None,
    ) -> Found:
        """`tiles` with each half read three ways, and the tiles of the set's look
        found where none was read (`tile_px`: the tile's width in pixels, 0: unknown,
        nothing is looked for; `box`: the frame's part to look in, x0, y0, x1, y1;
        `area`: the play area's corners, pixels; `left_out`: True where nothing is
        looked for, in the box's pixels: the corner markers' paper)."""
        self._now = {}
        self._bodies_now = {}
        self._length = tile_px * self.shape
        checked = [self._tile(image, t) for t in tiles]
        found: list[FoundTile] = []
        left = list(unsure)
        if self.face is not None and tile_px > 4:
            found, left = self._find(image, checked, left, tile_px, box, area, left_out)
        self._seen = self._now
        self._bodies_seen = self._bodies_now
        return Found((*checked, *found), tuple(left))

    def _tile(self, image: U8, tile: FoundTile) -> FoundTile:
        (xa, ya), (xb, yb) = tile.px
        key = (round(xa), round(ya), round(xb), round(yb), *tile.pips)
        kept = self._seen.get(key)
        if kept is None:
            kept = self._placed(image, tile)
        self._now[key] = kept
        a_n, b_n, agreed, at = kept
        confidence = max(tile.confidence, self.s.sure) if agreed else tile.confidence
        if (a_n, b_n) == tile.pips and confidence == tile.confidence and at == tile.px:
            return tile
        return replace(tile, pips=(a_n, b_n), px=at, confidence=confidence)

    def _placed(self, image: U8, tile: FoundTile) -> tuple[int, int, bool, tuple[Point, Point]]:
        """A tile's numbers, whether both halves read alike two ways, and where its
        halves lie: read where the detector put them (at the known length when that is
        further than `off_size` off); when a half's pip count or the set's halves
        there do not both say its number, read again at the known length and moved
        across by `aside` of its width each way (a tile hemmed in on every side, a
        spinner, is read a few pixels aside; the detector measures a tile a few pixels
        short by its pips, and a corner pip then falls off the half). The first place
        whose halves all read alike three ways is where the tile lies; else the
        first whose halves read alike two ways; else the first."""
        px = _sized(tile.px, self._length, self.s.off_size)
        first = self._halves(image, tile.pips, px)
        if all(h.sure for h in first) or self._length <= 0:
            return _kept(first, px, tile.px)
        sized = _sized(tile.px, self._length, 0.0)
        step = self.s.aside * self._length / self.shape
        places = [_across(sized, step), _across(sized, -step)]
        if math.dist(sized[0], px[0]) >= 1.0:
            places.insert(0, sized)
        read = [(first, px)]
        for place in places:
            halves = self._halves(image, tile.pips, place)
            if all(h.sure for h in halves):
                return _kept(halves, place, tile.px)
            read.append((halves, place))
        halves, place = next(((h, p) for h, p in read if all(x.agreed for x in h)), (first, px))
        return _kept(halves, place, tile.px)

    def _halves(
        self, image: U8, pips: tuple[int, int], px: tuple[Point, Point]
    ) -> tuple[_Half, _Half]:
        return self._half(image, pips, px, 0), self._half(image, pips, px, 1)

    def _half(self, image: U8, pips: tuple[int, int], px: tuple[Point, Point], side: int) -> _Half:
        here, there = px[side], px[1 - side]
        read = pips[side]
        near, own = self._look(image, here, there)
        half = self._vote(read, own, near)
        if half.agreed and own == half.number and near.value == half.number:
            return replace(half, sure=True)
        return half

    def _look(self, image: U8, here: Point, there: Point) -> tuple[Nearest, int]:
        apart = math.dist(here, there)
        side = min(COUNT_SIDE, max(CROP // 2, round(apart)))
        own = count_pips(crop_half(image, here, there, side), self.contrast, self.pip_share)
        if self.cut is not None and self._length > 0 and apart > 0:
            # cut as the set's halves were: their half centres `cut` of a tile's width
            # apart (a crop a few per cent wider or narrower moves a six's corner pips)
            k = self.cut * self._length / self.shape / apart
            there = (here[0] + (there[0] - here[0]) * k, here[1] + (there[1] - here[1]) * k)
        return self.matcher.nearest(crop_half(image, here, there)), own

    def _like(self, near: Nearest, number: int) -> bool:
        """The half looks like the set's halves of `number`: they are its nearest, near
        enough, and stand clear of the next number's."""
        if near.value != number or self.apart <= 0:
            return False
        return near.distances[number] <= self.s.near * self.apart and near.margin >= self.s.clear

    def _in_set(self, number: int) -> bool:
        if number > self.max_pip or number < 0:
            return False
        return not self.complete or number in self.matcher.values

    def _vote(self, read: int, own: int, near: Nearest) -> _Half:
        """The half's number from the detector's count (`read`), the set's own pip
        count (`own`) and the set's nearest halves (`near`): see the module."""
        if self._in_set(read) and (own == read or near.value == read):
            return _Half(read, True)
        if self._in_set(own) and self._like(near, own) and near.ratio(read) >= self.s.reread:
            return _Half(own, True)  # the pip count and the set's halves against the detector
        if (
            own != read
            and self._in_set(near.value)
            and self._like(near, near.value)
            and near.margin >= self.s.decisive
            and near.ratio(read) >= self.s.reread
            and (near.value > 0 or min(read, own) == 0)
        ):
            # the two counts disagree with each other (pips run together in a dense half:
            # eight counted nine and ten): the set's halves, far nearer one number than
            # any other, decide; but a half where both counts see pips is no blank
            return _Half(near.value, True)
        if not self._in_set(read):
            if self._in_set(own) and near.value == own:
                return _Half(own, True)
            if self.complete:
                return _Half(near.value, False)
        return _Half(read, False)

    # --- finding ----------------------------------------------------------------------

    def _find(
        self,
        image: U8,
        tiles: list[FoundTile],
        unsure: list[UnsureRegion],
        width: float,
        box: tuple[int, int, int, int] | None,
        area: Sequence[Point] | None,
        left_out: NDArray[np.bool_] | None,
    ) -> tuple[list[FoundTile], list[UnsureRegion]]:
        assert self.face is not None
        h, w = image.shape[:2]
        x0, y0, x1, y1 = box if box is not None else (0, 0, w, h)
        part = image[y0:y1, x0:x1]
        if part.size == 0:
            return [], unsure
        length = width * self.shape
        bodies = self._bodies(part, tiles, (float(x0), float(y0)), width, length, area, left_out)
        found: list[FoundTile] = []
        taken = {_tile_key(t.pips) for t in tiles}
        for centre, axis, divided in bodies:
            if any(math.dist(centre, _centre(t)) < width / 2.0 for t in found):
                continue  # a tile found lies there
            key = (round(centre[0]), round(centre[1]), *_turn(axis), int(divided), 0)
            if key in self._bodies_seen:
                tile = self._bodies_seen[key]
            else:
                tile = self._read_body(image, centre, axis, width, length, divided)
            self._bodies_now[key] = tile
            if tile is None or _tile_key(tile.pips) in taken:
                continue
            taken.add(_tile_key(tile.pips))
            found.append(tile)
        if found:
            unsure = [u for u in unsure if not any(_on(t, (u.x, u.y), width) for t in found)]
        return found, unsure

    def _bodies(
        self,
        part: U8,
        tiles: Sequence[FoundTile],
        offset: Point,
        width: float,
        length: float,
        area: Sequence[Point] | None,
        left_out: NDArray[np.bool_] | None,
    ) -> list[tuple[Point, Point, bool]]:
        """Where the part shows the faces' colour in bodies of one tile (or a row of
        them) that no tile read lies on: each tile's centre and axis, frame pixels,
        and whether its divider was seen (`_dividers`)."""
        s = self.s
        lab = np.asarray(cv2.cvtColor(part, cv2.COLOR_BGR2Lab), dtype=np.uint8)
        near, by_colour = self._near(lab, tiles, offset, width, length, area, left_out)
        if not by_colour:
            # the faces look like the table (a black set on dark cloth): no body can be
            # told from it by colour, but a divider still stands out from the faces
            h, w = near.shape
            return self._dividers(near.astype(np.int32), 1, lab, (0, 0, w, h), offset, width)
        ox, oy = offset
        n, found, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=8)
        labels = np.asarray(found, dtype=np.int32)
        out: list[tuple[Point, Point, bool]] = []
        later: list[tuple[Point, Point, bool]] = []
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] < s.body_area * width * length:
                continue
            x0, y0 = int(stats[i, cv2.CC_STAT_LEFT]), int(stats[i, cv2.CC_STAT_TOP])
            x1 = x0 + int(stats[i, cv2.CC_STAT_WIDTH])
            y1 = y0 + int(stats[i, cv2.CC_STAT_HEIGHT])
            ys, xs = np.nonzero(labels[y0:y1, x0:x1] == i)  # the body's box: its pixels
            pts = np.column_stack([xs + x0, ys + y0]).astype(np.float32)
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts)
            long_, short = max(rw, rh), min(rw, rh)
            count = max(1, round(long_ / length))
            # a row, a chain with doubles across it, tiles side by side, faces run into
            # a table of their colour: each tile by its divider too, after the bodies
            # of one tile or a row
            later += self._dividers(labels, i, lab, (x0, y0, x1, y1), offset, width)
            if not s.body_width[0] * width <= short <= s.body_width[1] * width:
                continue
            if abs(long_ - count * length) > s.body_slack * length and long_ > length:
                continue
            theta = math.radians(angle if rw >= rh else angle + 90.0)
            ux, uy = math.cos(theta), math.sin(theta)
            for j in range(count):
                along = (j - (count - 1) / 2.0) * length
                centre = (ox + float(cx) + along * ux, oy + float(cy) + along * uy)
                out.append((centre, (ux, uy), False))
        return out + later

    def _near(
        self,
        lab: U8,
        tiles: Sequence[FoundTile],
        offset: Point,
        width: float,
        length: float,
        area: Sequence[Point] | None,
        left_out: NDArray[np.bool_] | None,
    ) -> tuple[U8, bool]:
        """Where the part (`lab`: it in 8-bit Lab) shows the faces' colour, closed over
        the pips, opened, and off the tiles read, and True; or, when the faces cannot
        be told from the table by their colour, the play area off the tiles read, and
        False."""
        assert self.face is not None
        s = self.s
        face = _lab_of(self.face)
        # the faces and the table judged by their median colour over a few pixels, not
        # pixel by pixel: a grain (wooden tiles on a wooden table) or noise gives thin
        # lines and specks of either colour on both; a median keeps the pips' size (a
        # mean spreads bold pips over the face and splits a tile at its divider)
        k = round(s.face_blur * width) | 1
        smooth = lab if k < 3 else np.asarray(cv2.medianBlur(lab, k), dtype=np.uint8)
        far2 = _far_squared(smooth, face)
        ox, oy = offset
        inside = np.zeros(lab.shape[:2], dtype=np.uint8)
        if area is not None:
            corners = np.asarray(area, dtype=np.float64) - (ox, oy)
            cv2.fillPoly(inside, [np.rint(corners).astype(np.int32)], 1)
        else:
            inside[:] = 1
        if left_out is not None and left_out.shape == inside.shape:
            inside[left_out] = 0
        table = _median_lab(smooth, inside) if inside.any() else face
        apart = float(np.linalg.norm(table - face))
        if apart < s.min_face:
            for t in tiles:
                cv2.fillPoly(inside, [_rect(t.px, width + 2, length + 2, offset)], 0)
            return inside, False
        most = np.float32(min(s.face_near, s.face_share * apart))
        near = ((far2 < most * most) & (inside > 0)).astype(np.uint8)
        k = max(3, round(0.4 * width) | 1)
        near = np.asarray(cv2.morphologyEx(near, cv2.MORPH_CLOSE, _disc(k)), dtype=np.uint8)
        for t in tiles:
            cv2.fillPoly(near, [_rect(t.px, width + 2, length + 2, offset)], 0)
        k = max(3, round(0.5 * width) | 1)
        return np.asarray(cv2.morphologyEx(near, cv2.MORPH_OPEN, _disc(k)), dtype=np.uint8), True

    def _dividers(
        self,
        labels: NDArray[np.int32],
        body: int,
        lab: U8,
        box: tuple[int, int, int, int],
        offset: Point,
        width: float,
    ) -> list[tuple[Point, Point, bool]]:
        """Where a body (the pixels labelled `body`, within `box` of the part) holds,
        inside its rim, a line of a divider's contrast, length and thinness: the
        centre and axis (across the line) of the tile it divides, frame pixels."""
        s = self.s
        pad = max(1, round(s.rim * width))
        h, w = labels.shape
        x0, y0 = max(0, box[0] - pad), max(0, box[1] - pad)
        x1, y1 = min(w, box[2] + pad), min(h, box[3] + pad)
        mine = (labels[y0:y1, x0:x1] == body).astype(np.uint8)
        inside = np.asarray(cv2.erode(mine, _disc(2 * pad + 1)), dtype=np.uint8)
        assert self.face is not None
        far2 = _far_squared(np.ascontiguousarray(lab[y0:y1, x0:x1]), _lab_of(self.face))
        far = far2 > np.float32(s.divider * self.contrast) ** 2
        inside[~far] = 0
        # the pips (marks thicker than a line) and a rim about them are no divider's: a
        # divider that runs into a pip is still a line
        core = max(3, round(s.pip_core * self.pip_share * width) | 1)
        pips = np.asarray(cv2.morphologyEx(inside, cv2.MORPH_OPEN, _disc(core)), np.uint8)
        inside[cv2.dilate(pips, _disc(3)) > 0] = 0
        n, lines, stats, _ = cv2.connectedComponentsWithStats(inside, connectivity=8)
        out: list[tuple[Point, Point, bool]] = []
        lo, hi = s.divider_length[0] * width, s.divider_length[1] * width
        for i in range(1, n):
            left, top = int(stats[i, cv2.CC_STAT_LEFT]), int(stats[i, cv2.CC_STAT_TOP])
            w, h = int(stats[i, cv2.CC_STAT_WIDTH]), int(stats[i, cv2.CC_STAT_HEIGHT])
            if max(w, h) < lo or math.hypot(w, h) > hi + 2:
                continue
            ys, xs = np.nonzero(lines[top : top + h, left : left + w] == i)
            pts = np.column_stack([xs + left, ys + top]).astype(np.float32)
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts)
            if not lo <= max(rw, rh) <= hi or min(rw, rh) > s.divider_thick * width:
                continue
            theta = math.radians(angle + 90.0 if rw >= rh else angle)  # across the line
            centre = (offset[0] + x0 + float(cx), offset[1] + y0 + float(cy))
            out.append((centre, (math.cos(theta), math.sin(theta)), True))
        return out

    def _read_body(
        self,
        image: U8,
        centre: Point,
        axis: Point,
        width: float,
        length: float,
        divided: bool = False,
    ) -> FoundTile | None:
        """The tile lying at `centre` along `axis`, when its divider shows (`divided`:
        it was seen) and each half's pip count and the set's halves agree on a number
        of the set."""
        cx, cy = centre
        ux, uy = axis
        a = (cx - ux * length / 4.0, cy - uy * length / 4.0)
        b = (cx + ux * length / 4.0, cy + uy * length / 4.0)
        if not divided and not self._divided(image, a, b, width):
            return None
        numbers = []
        for here, there in ((a, b), (b, a)):
            near, own = self._look(image, here, there)
            if not (self._in_set(own) and self._like(near, own)):
                return None
            numbers.append(own)
        return FoundTile((numbers[0], numbers[1]), (a, b), self.s.found)

    def _divided(self, image: U8, a: Point, b: Point, width: float) -> bool:
        """A line across the tile's middle stands out from its face (a face-down
        tile, or the table, shows none)."""
        side = min(COUNT_SIDE, max(CROP // 2, round(width)))
        view = crop_half(image, a, b, side)  # the divider at its foot
        lab = np.asarray(cv2.cvtColor(view, cv2.COLOR_BGR2Lab), dtype=np.float32)
        face = np.median(lab.reshape(-1, 3), axis=0)
        rows = np.median(
            np.linalg.norm(lab - face, axis=2)[:, side // 5 : side - side // 5], axis=1
        )
        foot = rows[side - max(2, side // 6) :]
        return float(foot.max()) >= self.s.divider * self.contrast


def _kept(
    halves: tuple[_Half, _Half], place: tuple[Point, Point], px: tuple[Point, Point]
) -> tuple[int, int, bool, tuple[Point, Point]]:
    """What a tile's reading keeps: its numbers, whether both halves read alike two
    ways, and its half centres (`place`, where they were read, when they read so: a
    tile read off its known length is no reading; else the detector's, `px`)."""
    a, b = halves
    agreed = a.agreed and b.agreed
    return a.number, b.number, agreed, place if agreed else px


def _apart(matcher: HalfMatcher, crops: Sequence[tuple[int, U8]]) -> float:
    """How far a half of the set lies from the nearest half of another number (the
    median over two of each number's crops)."""
    out = []
    values = {v for v, _ in crops}
    for value in values:
        mine = [c for v, c in crops if v == value][:2]
        others = [(v, c) for v, c in crops if v != value]
        if not others or not mine:
            continue
        other = HalfMatcher(others, matcher.contrast)
        out += [min(n.distances.values()) for n in other.nearest_all(mine)]
    return float(np.median(out)) if out else 0.0


def _far_squared(lab: U8, face: F32) -> F32:
    """Each pixel's squared Lab distance from `face` (`lab`: the image in 8-bit Lab):
    per channel by a table of the 256 levels' squared differences, then summed by
    OpenCV: the squares of `lab - face` in float32, at a fifth of numpy's cost on a
    frame (7 ms, not 33, on 1207x889)."""
    levels = np.arange(256, dtype=np.float32)[:, None] - face[None, :]
    table = (levels * levels).astype(np.float32).reshape(1, 256, 3)
    squares = cv2.LUT(lab, table)
    return np.asarray(cv2.transform(squares, np.ones((1, 3), dtype=np.float32)), np.float32)


def _median_lab(lab: U8, mask: U8) -> F32:
    """`np.median(lab[mask > 0], axis=0)` of an 8-bit image, exactly, from each
    channel's histogram (the mean of the two middle levels when the count is even).
    OpenCV counts in float32, exact up to 2**24 pixels (a 16-megapixel frame); the
    camera path's frames are far smaller."""
    out = np.empty(3, dtype=np.float32)
    for c in range(3):
        hist = np.asarray(cv2.calcHist([lab], [c], mask, [256], [0, 256]), np.float64)
        below = np.cumsum(hist.reshape(-1).astype(np.int64))
        n = int(below[-1])
        lo = int(np.searchsorted(below, (n - 1) // 2 + 1))
        hi = int(np.searchsorted(below, n // 2 + 1))
        out[c] = np.float32((lo + hi) / 2.0)
    return out


def _sized(px: tuple[Point, Point], length: float, off: float) -> tuple[Point, Point]:
    """A tile's half centres (`px`) a quarter of its known `length` from its centre,
    where they lie further than `off` of that from it (0: the length is not known)."""
    (xa, ya), (xb, yb) = px
    apart = math.dist(px[0], px[1])
    if length <= 0 or apart <= 0 or abs(apart - length / 2.0) <= off * length / 2.0:
        return px
    cx, cy = (xa + xb) / 2.0, (ya + yb) / 2.0
    k = length / 4.0 / apart
    return (cx - (xb - xa) * k, cy - (yb - ya) * k), (cx + (xb - xa) * k, cy + (yb - ya) * k)


def _across(px: tuple[Point, Point], step: float) -> tuple[Point, Point]:
    """A tile's half centres moved `step` pixels across its axis."""
    (xa, ya), (xb, yb) = px
    apart = math.dist(px[0], px[1]) or 1.0
    nx, ny = -(yb - ya) / apart * step, (xb - xa) / apart * step
    return (xa + nx, ya + ny), (xb + nx, yb + ny)


def _tile_key(pips: tuple[int, int]) -> tuple[int, int]:
    return (min(pips), max(pips))


def _lab_of(bgr: Colour) -> F32:
    px = np.array([[bgr]], dtype=np.float32).clip(0, 255).astype(np.uint8)
    return np.asarray(cv2.cvtColor(px, cv2.COLOR_BGR2Lab), dtype=np.float32).reshape(3)


def _disc(k: int) -> U8:
    return np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)), dtype=np.uint8)


def _rect(px: tuple[Point, Point], width: float, length: float, offset: Point) -> NDArray[np.int32]:
    """A tile's outline (its known size about its half centres), in a part's pixels."""
    (xa, ya), (xb, yb) = px
    cx, cy = (xa + xb) / 2.0 - offset[0], (ya + yb) / 2.0 - offset[1]
    angle = math.degrees(math.atan2(yb - ya, xb - xa))
    box = cv2.boxPoints(((cx, cy), (length, width), angle))
    return np.rint(box).astype(np.int32)


def _turn(axis: Point) -> tuple[int, int]:
    """An axis's direction, to about 3 degrees (a key: the same both ways along it)."""
    ux, uy = axis
    if ux < 0 or (ux == 0 and uy < 0):
        ux, uy = -ux, -uy
    return round(ux * 20), round(uy * 20)


def _centre(tile: FoundTile) -> Point:
    (xa, ya), (xb, yb) = tile.px
    return (xa + xb) / 2.0, (ya + yb) / 2.0


def _on(tile: FoundTile, p: Point, width: float) -> bool:
    """`p` lies on the tile (within half a width of the segment between its half
    centres' outer ends)."""
    (xa, ya), (xb, yb) = tile.px
    dx, dy = xb - xa, yb - ya
    seg = dx * dx + dy * dy
    t = 0.0 if seg <= 0 else ((p[0] - xa) * dx + (p[1] - ya) * dy) / seg
    t = min(1.5, max(-0.5, t))
    return math.dist(p, (xa + t * dx, ya + t * dy)) <= 0.6 * width
