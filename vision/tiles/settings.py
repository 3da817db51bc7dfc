"""The thresholds of finding tiles, one frozen value per stage.

`MarkSettings` (tile material and dark marks, `dark_marks`), `DividerSettings`
(divider lines and the frame's one tile size, `dividers`), `MeetingSettings` (lines
that meet, `meeting_lines`), `FaceDownSettings` (blank tile-shaped regions,
`face_down`), `OutlineSettings` (a tile's sides, `outline`) and
`FaceColourSettings` (the colours of coloured faces, `face_colours`).
The detector's `vision.detector.settings.Settings` holds one of each; the defaults
suit a 1-2 megapixel overhead photo.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.tuning import check_bounds


@dataclass(frozen=True, slots=True)
class MarkSettings:
    """Tile material and the dark marks on it (`vision.tiles.dark_marks`)."""

    window: int = 21  # px, wider than the largest pip: the local tile brightness
    min_contrast: int = 28  # grey levels a mark is darker than the tile around it
    rel_contrast: float = 0.4  # ... or this share of the tile's brightness
    max_hole_share: float = 1 / 400  # largest enclosed dark region that can be a mark
    max_mark_share: float = 1 / 50  # a connected mark larger than this share is the table
    edge_share: float = 0.1  # the strongest tenth of the gradients are edges
    surface_spread: float = 0.06  # the edges' reach, a share of the image's longer side
    surface_scale: int = 4  # the threshold surface is built at this fraction of the size
    dark_tile_pips: float = 12.0  # the table level is taken over this many pip widths
    light_table: float = 0.5  # more than this share of the frame above Otsu: a light table
    slight_hole: float = 0.1  # a hole below this share of the material around it is a mark
    max_large_holes: int = 64  # ... looked at for so many of the largest holes at most

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "window": (3, 255),
                "min_contrast": (1, 254),
                "rel_contrast": (0.01, 0.99),
                "max_hole_share": (1e-6, 0.5),
                "max_mark_share": (1e-6, 1.0),
                "edge_share": (0.001, 1.0),
                "surface_spread": (0.001, 1.0),
                "surface_scale": (1, 16),
                "dark_tile_pips": (1.0, 100.0),
                "light_table": (0.0, 1.0),
                "slight_hole": (0.0, 1.0),
                "max_large_holes": (0, 10_000),
            },
        )


@dataclass(frozen=True, slots=True)
class DividerSettings:
    """Divider lines and the one tile size of a frame (`vision.tiles.dividers`)."""

    # the shape of a divider blob: long and thin
    min_elongation: float = 4.0
    min_divider_px: float = 15.0
    min_divider_area: float = 15.0
    min_divider_thickness: float = 1.0
    # the dividers of one frame agree on length and tile width within these shares
    length_tolerance: float = 0.25
    mode_tolerance: float = 0.15
    width_tolerance: float = 0.3
    # a divider is this share of the tile's width when the tile edge cannot be
    # measured (white tiles on white paper): real sets are 0.6-0.9
    default_divider_share: float = 0.8
    min_divider_share: float = 0.6
    max_divider_share: float = 0.92
    assumed_weight: float = 0.5  # a line whose tile width is assumed weighs this
    short_weight: float = 0.25  # ... and one too short for the tile edges around it this
    # a line bulged at its middle (a spinner pin, its rim as dark as the divider)
    bulged_elongation: float = 3.0  # ... as long as this many times its thickness
    min_length_per_area: float = 5.0  # ... and of length**2 / area at least this
    bulged_weight: float = 0.5  # ... weighs this much in agreeing on the tile size
    # a line with a round head at its middle (a domed spinner pin, larger than a pip
    # beside a thin divider seen from far): its arms, the outer halves of its extent,
    # are at most this share of its thickness thick (pixels per unit length) ...
    pin_arms: float = 0.5
    pin_arm_share: float = 0.3  # ... and each side holds at least this share of them
    pin_head: float = 0.5  # ... and its head is at most this share of its extent wide
    pin_straight: float = 0.25  # ... and its arms' thickness about their own axis too
    pin_elongation: float = 1.5  # ... a mark at least this long for its thickness
    max_thickness: float = 0.25  # a divider is at most this share of its tile's width thick

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "min_elongation": (1.0, 100.0),
                "min_divider_px": (1.0, 10_000.0),
                "min_divider_area": (1.0, 1e6),
                "min_divider_thickness": (0.0, 100.0),
                "length_tolerance": (0.0, 1.0),
                "mode_tolerance": (0.0, 1.0),
                "width_tolerance": (0.0, 1.0),
                "default_divider_share": (0.1, 1.0),
                "min_divider_share": (0.1, 1.0),
                "max_divider_share": (0.1, 1.0),
                "assumed_weight": (0.0, 1.0),
                "short_weight": (0.0, 1.0),
                "bulged_elongation": (1.0, 100.0),
                "min_length_per_area": (0.0, 100.0),
                "bulged_weight": (0.0, 1.0),
                "pin_arms": (0.0, 1.0),
                "pin_arm_share": (0.0, 0.5),
                "pin_head": (0.0, 1.0),
                "pin_straight": (0.0, 1.0),
                "pin_elongation": (1.0, 100.0),
                "max_thickness": (0.0, 1.0),
            },
        )


@dataclass(frozen=True, slots=True)
class MeetingSettings:
    """Straight lines that meet: a divider joined to the gap beside its tile
    (`vision.tiles.meeting_lines`)."""

    angles: int = 12  # directions of the straight-segment test, 15 degrees apart
    line_pips: float = 2.5  # a line holds a straight segment this many pips long
    min_segment_px: int = 7  # ... and this many pixels (shorter: not looked for)
    apart: int = 3  # directions at least this many steps apart (45 degrees) cross
    max_candidates: int = 200  # a frame with more such marks (a pattern) is left alone
    # a pip joined to a divider's end: what an opening by a disc of `head_pips` pip
    # diameters keeps (a pip, not the thinner line), `head_area` of a pip's area
    head_pips: float = 0.75
    head_area: tuple[float, float] = (0.5, 1.6)

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "angles": (2, 180),
                "line_pips": (0.5, 20.0),
                "min_segment_px": (3, 1000),
                "apart": (1, 90),
                "max_candidates": (0, 100_000),
                "head_pips": (0.1, 2.0),
                "head_area": (0.0, 10.0),
            },
        )


@dataclass(frozen=True, slots=True)
class FaceDownSettings:
    """Blank tile-shaped regions: face-down tiles (`vision.tiles.face_down`)."""

    size_tolerance: float = 0.25  # a share of the tile's sides
    min_fill: float = 0.8  # share of its bounding rectangle the region fills
    area_tolerance: float = 0.35  # ... its area within this share of a tile's
    erase_grow: float = 1.1  # the tiles found are blanked out this much larger
    opening: float = 0.08  # an opening of this share of a width cuts bridges to clutter
    max_marked_share: float = 0.01  # more of it marked: an unreadable face-up tile

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "size_tolerance": (0.0, 1.0),
                "min_fill": (0.0, 1.0),
                "max_marked_share": (0.0, 1.0),
                "area_tolerance": (0.0, 1.0),
                "erase_grow": (1.0, 2.0),
                "opening": (0.0, 1.0),
            },
        )


@dataclass(frozen=True, slots=True)
class OutlineSettings:
    """A tile's outline: whether its sides show as edges (`vision.tiles.outline`)."""

    faint_edge: float = 0.4  # a side is faint when darker by this share of the step
    rim: tuple[float, ...] = (0.0, 0.03, 0.05, 0.11)  # ... on one of these lines (widths)
    plain: float = 1.25  # ... and the face even: its spread at most this many steps
    strong: float = 3.0  # ... unless three sides stand out by this many steps at least
    # a blank is also judged at its face's size when its half length is within this
    # share of the width its divider measured (sets run 1.9-2.2 times as long as wide)
    face_fit: float = 0.15
    face_reach: float = 0.6  # ... its ends looked for from this share of its width out
    # a side's level: on a line this share of a width outside it, against one this far
    # inside, sampled at `side_points` points over +-`side_reach` widths along it
    outside: float = 0.08
    inside: float = 0.15
    side_reach: float = 0.35
    side_points: int = 9
    # an edge's step: at least this many grey levels, or this share of the face's level
    step_min: float = 8.0
    step_share: float = 0.06
    against: float = 0.3  # a tile found this far past a side touches it
    plain_along: float = 0.8  # a blank's face is sampled this far along from its middle ...
    plain_divider: float = 0.15  # ... leaving out this near its divider
    # a face's ends: looked for from this share of a width out, on lines this far
    # either side of its axis, which agree within `face_agree` of a width; the
    # material's erosion (px) added back
    face_start: float = 0.3
    face_lines: float = 0.25
    face_agree: float = 0.1
    eroded_px: float = 2.0

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "face_reach": (0.0, 2.0),
                "outside": (0.0, 1.0),
                "inside": (0.0, 1.0),
                "side_reach": (0.0, 1.0),
                "side_points": (2, 101),
                "step_min": (0.0, 255.0),
                "step_share": (0.0, 1.0),
                "against": (0.0, 2.0),
                "plain_along": (0.0, 1.0),
                "plain_divider": (0.0, 1.0),
                "face_start": (0.0, 1.0),
                "face_lines": (0.0, 0.5),
                "face_agree": (0.0, 1.0),
                "eroded_px": (0.0, 20.0),
                "faint_edge": (0.0, 1.0),
                "rim": (0.0, 1.0),
                "plain": (0.0, 100.0),
                "strong": (0.0, 100.0),
                "face_fit": (0.0, 1.0),
            },
        )


@dataclass(frozen=True, slots=True)
class FaceColourSettings:
    """The colours of coloured faces (`vision.tiles.face_colours`)."""

    look_px: int = 160  # the frame is clustered at this length of its longer side
    clusters: int = 5
    min_share: float = 0.005  # a face colour covers at least this share of the frame ...
    max_share: float = 0.4  # ... and at most this (more is the table)
    min_chroma: float = 90.0  # ... and is saturated (max - min channel; warm ivory: 68)
    min_apart: float = 60.0  # ... and this far from the table's colour
    faces: int = 2  # at most this many colours are tried
    reach: float = 170.0  # colour distance at which a pixel is as dark as the farthest

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "look_px": (16, 10_000),
                "clusters": (2, 64),
                "min_share": (0.0, 1.0),
                "max_share": (0.0, 1.0),
                "min_chroma": (0.0, 255.0),
                "min_apart": (0.0, 442.0),
                "faces": (0, 64),
                "reach": (1.0, 442.0),
            },
        )


# The defaults, for callers that take a stage's part on its own (tests, tools)
MARKS = MarkSettings()
DIVIDERS = DividerSettings()
MEETING = MeetingSettings()
FACE_DOWN = FaceDownSettings()
OUTLINE = OutlineSettings()
FACE_COLOURS = FaceColourSettings()
