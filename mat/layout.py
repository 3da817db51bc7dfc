"""The mat's geometry: pages, their markers and their slots, in millimetres on the paper.

A page is portrait, its origin the paper's top-left corner, x to the right, y down.
Four ArUco markers (DICT_4X4_50, as the play area's corner markers) sit in its
corners, `MARKER_MM` wide, `MARGIN_MM` in from the paper's edges: page `k` (from 0)
carries ids `FIRST_MARKER_ID + 4k` (top-left), `+1` (top-right), `+2` (bottom-right)
and `+3` (bottom-left). Ids 0-3 mark the play area's corners and are never on a mat,
so a photo may show the mat and the play area's markers together, and several pages
at once. The dictionary's 50 ids give at most `MAX_PAGES` pages.

Between the markers' bands lie the slots in rows: each an outline `SLOT_MM` (width,
length) with the tile standing upright in it, its name printed under it. A tile of
up to 28 x 56 mm fits a slot with room to spare; either end may be up.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.tiles import DominoSet, Tile

__all__ = [
    "FIRST_MARKER_ID",
    "MAX_PAGES",
    "PAPERS",
    "Mat",
    "MatError",
    "MatMarker",
    "Page",
    "Slot",
    "mat_for",
]

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1

PAPERS: Final[Mapping[str, tuple[float, float]]] = {
    "a4": (210.0, 297.0),
    "a3": (297.0, 420.0),
    "letter": (215.9, 279.4),
}
DICTIONARY_NAME: Final = "DICT_4X4_50"
DICTIONARY_SIZE: Final = 50
FIRST_MARKER_ID: Final = 4  # 0-3 are the play area's corners
MAX_PAGES: Final = (DICTIONARY_SIZE - FIRST_MARKER_ID) // 4
MARGIN_MM: Final = 8.0  # paper edge to a marker (inside every printer's reach)
MARKER_MM: Final = 24.0  # a marker's black square
QUIET_MM: Final = 4.0  # white kept around a marker
SLOT_MM: Final = (32.0, 60.0)  # a slot's outline: width, length (the tile upright)
GAP_MM: Final = 6.0  # between slots side by side
LABEL_MM: Final = 9.0  # below a slot: its tile's name, then the gap to the next row


class MatError(ValueError):
    """A mat that cannot be made (an unknown paper, too many pages)."""


@dataclass(frozen=True, slots=True)
class MatMarker:
    """One marker of a page: its id and its square's corners in page mm, in ArUco's
    order (the marker's own top-left, top-right, bottom-right, bottom-left)."""

    marker_id: int
    corners_mm: tuple[Point, Point, Point, Point]

    @property
    def centre_mm(self) -> Point:
        xs = [p[0] for p in self.corners_mm]
        ys = [p[1] for p in self.corners_mm]
        return (sum(xs) / 4, sum(ys) / 4)


@dataclass(frozen=True, slots=True)
class Slot:
    """Where one tile lies: its outline on its page, in page mm (the tile upright)."""

    tile: Tile
    page: int  # from 1
    rect_mm: Rect

    @property
    def centre_mm(self) -> Point:
        x0, y0, x1, y1 = self.rect_mm
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    @property
    def label_mm(self) -> Point:
        """Where its name is printed: centred under the outline (the text's middle)."""
        x0, _, x1, y1 = self.rect_mm
        return ((x0 + x1) / 2, y1 + LABEL_MM * 0.45)


@dataclass(frozen=True, slots=True)
class Page:
    number: int  # from 1
    markers: tuple[MatMarker, MatMarker, MatMarker, MatMarker]
    slots: tuple[Slot, ...]

    @property
    def marker_ids(self) -> tuple[int, ...]:
        return tuple(m.marker_id for m in self.markers)


@dataclass(frozen=True, slots=True)
class Mat:
    """A whole set's mat: its pages on one paper size."""

    domino_set: DominoSet
    paper: str
    size_mm: tuple[float, float]
    pages: tuple[Page, ...]

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(s for p in self.pages for s in p.slots)

    def page_of(self, marker_id: int) -> tuple[Page, int] | None:
        """The page carrying `marker_id` and which of its corners it marks (0 top-left,
        clockwise), or None when no page of this mat carries it."""
        k, corner = divmod(marker_id - FIRST_MARKER_ID, 4)
        if marker_id < FIRST_MARKER_ID or k >= len(self.pages):
            return None
        return self.pages[k], corner

    def to_json(self) -> dict[str, Any]:
        """The geometry `domino-table vision mat --json` prints."""
        return {
            "set": str(self.domino_set),
            "paper": self.paper,
            "page_mm": list(self.size_mm),
            "dictionary": DICTIONARY_NAME,
            "marker_mm": MARKER_MM,
            "slot_mm": list(SLOT_MM),
            "pages": [
                {
                    "page": p.number,
                    "markers": [
                        {"id": m.marker_id, "corners_mm": [list(c) for c in m.corners_mm]}
                        for m in p.markers
                    ],
                    "slots": [
                        {"tile": s.tile.text, "rect_mm": [round(v, 2) for v in s.rect_mm]}
                        for s in p.slots
                    ],
                }
                for p in self.pages
            ],
        }


def _markers(page: int, size: tuple[float, float]) -> tuple[MatMarker, ...]:
    w, h = size
    m, s = MARGIN_MM, MARKER_MM
    origins = ((m, m), (w - m - s, m), (w - m - s, h - m - s), (m, h - m - s))
    out = []
    for corner, (x, y) in enumerate(origins):
        square = ((x, y), (x + s, y), (x + s, y + s), (x, y + s))
        out.append(MatMarker(FIRST_MARKER_ID + 4 * page + corner, square))
    return tuple(out)


def slots_per_page(size: tuple[float, float]) -> tuple[int, int]:
    """(columns, rows) of slots a page of `size` holds."""
    w, h = size
    band = MARGIN_MM + MARKER_MM + QUIET_MM
    across = w - 2 * MARGIN_MM
    down = h - 2 * band
    sw, sl = SLOT_MM
    cols = int((across + GAP_MM) // (sw + GAP_MM))
    rows = int(down // (sl + LABEL_MM))
    return cols, rows


def mat_for(domino_set: DominoSet, paper: str = "a4") -> Mat:
    """The mat of `domino_set` on `paper` (`a4`, `a3`, `letter`): its tiles in the set's
    order (0-0, 1-0, 1-1, 2-0, ...), row by row, page by page, as many on each page
    (give or take one)."""
    key = paper.strip().lower()
    if key not in PAPERS:
        raise MatError(f"{paper!r} is no paper the mat is made for: {', '.join(PAPERS)}")
    size = PAPERS[key]
    cols, rows = slots_per_page(size)
    per_page = cols * rows
    tiles = domino_set.tiles()
    count = math.ceil(len(tiles) / per_page)
    if count > MAX_PAGES:
        raise MatError(f"the {domino_set} set needs {count} pages of {key}: at most {MAX_PAGES}")
    w, h = size
    sw, sl = SLOT_MM
    band = MARGIN_MM + MARKER_MM + QUIET_MM
    grid_w = cols * sw + (cols - 1) * GAP_MM
    grid_h = rows * (sl + LABEL_MM)
    left = (w - grid_w) / 2
    top = band + (h - 2 * band - grid_h) / 2
    pages = []
    for k in range(count):
        mine = tiles[len(tiles) * k // count : len(tiles) * (k + 1) // count]
        slots = []
        for i, tile in enumerate(mine):
            r, c = divmod(i, cols)
            x0 = left + c * (sw + GAP_MM)
            y0 = top + r * (sl + LABEL_MM)
            slots.append(Slot(tile, k + 1, (x0, y0, x0 + sw, y0 + sl)))
        markers = _markers(k, size)
        pages.append(Page(k + 1, (markers[0], markers[1], markers[2], markers[3]), tuple(slots)))
    return Mat(domino_set, key, size, tuple(pages))
