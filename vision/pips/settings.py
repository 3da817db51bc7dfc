"""The thresholds of reading pips: `PipSettings` (the detector's) and `GridSettings`.

The counter of each half (`counting`) and its second looks (`second_look`: a half's
own threshold, the marks opened apart, the faint look) share `PipSettings`; the
detector's `vision.detector.settings.Settings.pips` holds it. `GridSettings` is the
reader by the grid of a tile of known size (`grid`), the camera path's.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.tuning import check_bounds


@dataclass(frozen=True, slots=True)
class PipSettings:
    """Where a pip may lie, what shape and size it has, how a half is judged."""

    # where a pip centre may lie, in tile widths from the half's centre
    half_reach: float = 0.40
    # pips keep this far (tile widths) from the divider line (a centre pin sits on it)
    divider_clearance: float = 0.12
    max_round_elongation: float = 1.8  # a pip is at most this long for its thickness
    single_area: tuple[float, float] = (0.4, 2.0)  # a pip's area, in the frame's pips
    crescent_area: float = 1.0  # a pip bitten by its highlight: at most a pip's area ...
    crescent_elongation: float = 2.2  # ... and at most this long for its thickness
    max_pips: int = 12
    min_pip: float = 0.1  # a pip is at least this share of a width across (the frame's pip)
    chain_elongation: float = 0.8  # a chain of pips is this near its count's elongation
    tiny: float = 0.25  # a mark below this many pips' area is a speck, not counted
    backdrop: float = 0.25  # a mark over this many squared widths is the table in a gap
    # a half's confidence: with marks that are no pips, marks smaller than a pip, a
    # chain of merged pips, a lop-sided layout, more pips than `max_pips`, pips of
    # sizes more than `spread` times apart
    foreign_confidence: float = 0.2
    small_confidence: float = 0.5
    chain_confidence: float = 0.8
    lopsided_confidence: float = 0.4
    too_many_confidence: float = 0.1
    spread: float = 2.5
    spread_confidence: float = 0.6
    # how far a chain of k = 2, 3, 4 merged pips may be from k pips' area: the necks
    # between small pips blurred together add up to a pip's area along a line of four
    chain_area: tuple[float, float, float] = (0.6, 0.6, 1.6)
    # how far (in tile widths) a pip may sit from the mirror image of another
    symmetry_tolerance: float = 0.15
    own_below: float = 0.9  # a half read less surely is read again against its own pip
    own_sure: float = 0.8  # ... and that reading kept when at least this sure
    own_range: tuple[float, float] = (0.25, 2.5)  # ... its median round mark of this size
    own_apart: float = 0.2  # ... when that is this share off the frame's pip
    window: float = 0.6  # a half's second look takes this many widths round its centre
    # the second look: a doubtful half thresholded on its own, at least this contrast
    min_contrast: int = 20
    apart: float = 0.6  # a pip touching a line comes apart by an opening of this share
    apart_rim: float = 0.06  # ... looked for up to this share of a width from the edge
    # the faint look: marks at this share of the frame's mark threshold, never closer
    # to the face than `faint_min` grey levels (sensor noise on a max filter)
    faint_share: float = 0.5
    faint_min: int = 16
    faint_pip: float = 0.4  # a faint mark counts as a possible pip from this share ...
    faint_growth: float = 4.0  # ... up to this many times a pip's area
    # a half of up to this many single pips must sit on its 3x3 grid as a standard
    # layout does (`vision.pips.layouts`); larger ones differ from set to set
    grid_pips: int = 7

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "half_reach": (0.1, 1.0),
                "divider_clearance": (0.0, 0.5),
                "max_round_elongation": (1.0, 10.0),
                "single_area": (0.0, 100.0),
                "own_apart": (0.0, 10.0),
                "crescent_area": (0.0, 10.0),
                "crescent_elongation": (1.0, 10.0),
                "max_pips": (1, 100),
                "min_pip": (0.0, 1.0),
                "chain_elongation": (0.0, 10.0),
                "tiny": (0.0, 1.0),
                "backdrop": (0.0, 1.0),
                "foreign_confidence": (0.0, 1.0),
                "small_confidence": (0.0, 1.0),
                "chain_confidence": (0.0, 1.0),
                "lopsided_confidence": (0.0, 1.0),
                "too_many_confidence": (0.0, 1.0),
                "spread": (1.0, 100.0),
                "spread_confidence": (0.0, 1.0),
                "chain_area": (0.0, 10.0),
                "symmetry_tolerance": (0.0, 1.0),
                "own_below": (0.0, 1.0),
                "own_sure": (0.0, 1.0),
                "own_range": (0.0, 100.0),
                "min_contrast": (1, 254),
                "window": (0.3, 2.0),
                "apart": (0.0, 2.0),
                "apart_rim": (0.0, 0.5),
                "faint_share": (0.0, 1.0),
                "faint_min": (0, 254),
                "faint_pip": (0.0, 10.0),
                "faint_growth": (1.0, 100.0),
                "grid_pips": (0, 12),
            },
        )


@dataclass(frozen=True, slots=True)
class GridSettings:
    """Reading tiles of known size by their pips on the 3x3 grid of each half
    (`vision.pips.grid`, `grid_read`: the camera path's `known_size`, the detector's
    reading by the grid). Lengths are in tile widths."""

    kernel: float = 0.36  # the black-hat's disc (a pip is about half as wide)
    ring: float = 0.14  # a pip stands alone: at this distance all round it ...
    ring_max: float = 0.8  # ... the black-hat is at most this share of its peak
    ring_mean: float = 0.5  # ... and on average at most this share
    rim: float = 0.2  # and at this distance ...
    # ... at most this many of 16 points in a row are not face (lighter by half its
    # peak): a pip's neighbours in a row darken a few, the table beyond a corner many
    rim_dark: int = 3
    grid: float = 0.27  # the grid step of a half's pips (fitted per half)
    grid_range: tuple[float, float] = (0.19, 0.35)  # ... a fitted step lies in this range
    grid_tol: float = 0.3  # a pip lies within this share of the step of its grid place
    edge: float = 0.12  # pips this far beyond a tile's edge must belong to it
    divider_clear: float = 0.13  # a mark this near the divider line is the divider's
    faint: float = 0.45  # an empty grid place darker than this share of its pips: a doubt
    faint_floor: float = 8.0  # ... fainter marks than this (grey levels) never doubt
    rim_clear: float = 0.1  # the face is looked at this far inside the tile's edge ...
    pip_clear: float = 0.2  # ... and from each pip
    divider_contrast: float = 3.0  # the divider is darker than the face by this (levels)
    divider_share: float = 0.06  # ... and by this share of the pips' contrast
    min_peak: float = 12.0  # a pip is darker than the face around it by this at least
    peak_share: float = 0.4  # ... and by this share of the strongest pips near it
    overlap: float = 0.8  # tiles overlap when their rectangles shrunk to this share do
    confidence: float = 0.9  # of a tile read so (the detector's own sure readings: 1)
    covers: int = 64  # at most this many ways of explaining one group's pips are tried
    # a window with this many times more lone peaks than its most free pips is a
    # texture's specks: not weighed one by one (`grid.GridLooks.pips`)
    texture_peaks: int = 8
    mark_share: float = 0.5  # marks this share as dark as the pips ...
    pip_area: float = 0.1  # ... and of at least this size squared must lie on a tile
    line_share: float = 0.15  # a line this share as dark as the pips, ...
    line_length: tuple[float, float] = (0.6, 1.2)  # ... this long and thin, on no tile

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "kernel": (0.05, 2.0),
                "ring": (0.0, 1.0),
                "ring_max": (0.0, 1.0),
                "ring_mean": (0.0, 1.0),
                "rim": (0.0, 1.0),
                "rim_dark": (0, 16),
                "grid": (0.05, 0.5),
                "grid_range": (0.05, 0.5),
                "grid_tol": (0.0, 1.0),
                "edge": (0.0, 1.0),
                "divider_clear": (0.0, 0.5),
                "faint": (0.0, 1.0),
                "faint_floor": (0.0, 255.0),
                "rim_clear": (0.0, 0.5),
                "pip_clear": (0.0, 0.5),
                "divider_contrast": (0.0, 255.0),
                "divider_share": (0.0, 1.0),
                "min_peak": (0.0, 255.0),
                "peak_share": (0.0, 1.0),
                "overlap": (0.1, 1.0),
                "confidence": (0.0, 1.0),
                "covers": (1, 100_000),
                "texture_peaks": (1, 1000),
                "mark_share": (0.0, 1.0),
                "pip_area": (0.0, 1.0),
                "line_share": (0.0, 1.0),
                "line_length": (0.0, 10.0),
            },
        )


# the defaults, for callers that read a half on its own
PIPS = PipSettings()
GRID = GridSettings()
