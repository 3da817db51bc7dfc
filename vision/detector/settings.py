"""The detector's settings: one frozen value, a section per stage, checked when made.

`Settings` says what the detector is told about the set (`tone`, `face`) and where to
look (`margin`), and holds each stage's thresholds in a frozen value of its own, as
Frigate gathers its detector's in typed per-stage config: the tile material and its
marks (`marks`), dividers and the frame's tile size (`dividers`), lines that meet
(`meeting`), face-down tiles (`face_down`), a tile's outline (`outline`), the
colours of coloured faces (`face_colours`), the pips (`pips`) and the reader by
their grid (`grid`), one search pass (`search`), the coarser scales (`scales`) and
which looks run within what budget (`looks`).
A value out of bounds is refused naming its class and field.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.pips.settings import GRID, PIPS, GridSettings, PipSettings
from vision.tiles.dark_marks import Tone
from vision.tiles.settings import (
    DIVIDERS,
    FACE_COLOURS,
    FACE_DOWN,
    MARKS,
    MEETING,
    OUTLINE,
    DividerSettings,
    FaceColourSettings,
    FaceDownSettings,
    MarkSettings,
    MeetingSettings,
    OutlineSettings,
)
from vision.tuning import check_bounds


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """One search pass over a tile-bright image (`vision.detector.search_pass`)."""

    min_half_fill: float = 0.6  # share of a half that must be tile material
    most_read: int = 400  # a pass reads at most this many hypotheses (the most typical)
    # a half is sampled on a grid of `samples` x `samples` points reaching this share
    # of a width from its centre (tile material, the face showing)
    sample_reach: float = 0.4
    samples: int = 7
    face_percentile: float = 90.0  # the face's brightness: this percentile of the samples
    mark_area: float = 0.25  # a mark of at most this many squared widths is pip-sized
    rim_px: int = 2  # ... and the pixels this near it are its soft rim
    anywhere_reach: float = 1.2  # widths around a tile its pips are looked for off the material
    pip_guess: float = 0.1  # no pip measured: its radius is this share of a width
    read_bonus: float = 0.5  # a hypothesis gains this share of its reading's confidence ...
    foreign_penalty: float = 1.0  # ... and loses this when it reads marks that are no pips
    divider_contrast: float = 0.6  # on small tiles, dividers need this share of a pip's
    small_tile_px: float = 40.0  # tiles narrower than this (or none) get that second pass
    sure: float = 0.9  # a half read with less confidence gets a second look
    doubtful: float = 0.7  # below this a tile's pips form no domino's layout (lop-sided)
    whole: float = 0.9  # a tile less of whose halves shows its face is covered (a hand)
    face_share: float = 0.7  # ... its face: at least this share of the face's brightness
    slide: tuple[float, ...] = (0.0, -0.075, 0.075, -0.15, 0.15)  # a short divider's places
    resize: tuple[float, ...] = (1.12, 0.9, 1.25)  # widths a doubtful tile is read at
    resized: float = 0.85  # ... and the confidence of a reading there, at most
    resized_apart: float = 0.05  # a tile read this share off the frame's width is resized
    face_fit: float = 0.1  # a covered-looking face is a whole tile's within this share
    stray_reach: float = 2.0  # stray pips this many tile widths apart belong together
    stray_pips: int = 2  # ... and so many of them together are an unread tile
    stray_darkness: float = 0.6  # a stray pip is at least this share as dark as those read
    line_angles: int = 12  # orientations of the straight-segment test, 15 degrees apart
    line_pips: float = 2.5  # a divider segment is at least this many pip diameters long
    line_min_px: int = 7  # ... and this many pixels (shorter: the thin pass takes all)
    thin_disc: float = 0.6  # marks as thick as this many pip diameters are no thin line
    room_shrink: float = 0.15  # unclaimed material is eroded by this share of a width
    room_area: float = 0.5  # ... and what is left must be this many squared widths
    pip_min_area: float = 9.0  # px: the frame's pip is measured on round marks this large
    pip_min_count: int = 3  # ... when it has this many of them
    foreign_trust: float = 0.1  # a line whose tile reads foreign marks weighs this
    guess_pips: float = 110.0  # a pip is about this share of a table's short side
    # reading by the grid where the dividers gave none (`by_grid`): a window reaches
    # this many tile lengths around a place left to explain ...
    grid_reach: float = 1.5
    grid_boxes: int = 16  # ... and at most this many windows a search, ...
    grid_pips: int = 40  # ... each with at most this many pips left (more: a texture)
    # the frame read again at the width its tiles were read at (`_shown_width`) when
    # at least `shown_tiles` were read, a `shown_share` of them alike, and that width
    # differs from the frame's by more than `shown_apart`
    shown_tiles: int = 3
    shown_share: float = 0.6
    shown_apart: float = 0.1
    spacing_pips: int = 4  # no tile read: the grid's width from the spacing of this many pips
    spacing_apart: float = 0.1  # ... its two widths tried when this share apart
    pip_widths: float = 5.0  # no width known: a tile is this many pips wide

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "min_half_fill": (0.0, 1.0),
                "most_read": (1, 100_000),
                "sample_reach": (0.05, 1.0),
                "samples": (2, 101),
                "face_percentile": (50.0, 100.0),
                "mark_area": (0.0, 1.0),
                "rim_px": (0, 20),
                "anywhere_reach": (0.5, 5.0),
                "pip_guess": (0.01, 0.5),
                "read_bonus": (0.0, 10.0),
                "foreign_penalty": (0.0, 10.0),
                "divider_contrast": (0.1, 1.0),
                "small_tile_px": (0.0, 10_000.0),
                "sure": (0.0, 1.0),
                "doubtful": (0.0, 1.0),
                "whole": (0.0, 1.0),
                "face_share": (0.0, 1.0),
                "slide": (-0.5, 0.5),
                "resize": (0.1, 10.0),
                "resized": (0.0, 1.0),
                "resized_apart": (0.0, 1.0),
                "face_fit": (0.0, 1.0),
                "stray_reach": (0.0, 100.0),
                "stray_pips": (1, 100),
                "stray_darkness": (0.0, 1.0),
                "line_angles": (1, 180),
                "line_pips": (0.5, 20.0),
                "line_min_px": (3, 1000),
                "thin_disc": (0.1, 2.0),
                "shown_tiles": (1, 10_000),
                "shown_share": (0.0, 1.0),
                "shown_apart": (0.0, 1.0),
                "room_shrink": (0.0, 1.0),
                "room_area": (0.0, 100.0),
                "pip_min_area": (1.0, 10_000.0),
                "pip_min_count": (1, 1000),
                "foreign_trust": (0.0, 1.0),
                "guess_pips": (1.0, 10_000.0),
                "grid_reach": (0.5, 100.0),
                "grid_boxes": (0, 10_000),
                "grid_pips": (1, 10_000),
                "spacing_pips": (2, 10_000),
                "spacing_apart": (0.0, 1.0),
                "pip_widths": (1.0, 100.0),
            },
        )


@dataclass(frozen=True, slots=True)
class ScaleSettings:
    """Reading a frame again at a coarser scale (`vision.detector.scales`)."""

    min_side: int = 200  # px: a frame is not searched at a scale leaving less than this
    larger: float = 1.5  # a coarser reading's tiles must be this much wider
    wide: float = 90.0  # px: tiles wider than this are read again at a coarser scale ...
    aim: float = 50.0  # ... the power of two that brings them nearest this width
    # the probe: the frame's faces looked at with its longer side shrunk to this ...
    probe_px: int = 400
    probe_aspect: tuple[float, float] = (1.6, 2.5)  # ... a face as long as this for its width
    probe_fill: tuple[float, float] = (0.85, 1.03)  # ... filling this share of its rectangle
    probe_min: float = 4.0  # ... and at least this wide there (px)

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "min_side": (8, 100_000),
                "larger": (1.0, 100.0),
                "wide": (1.0, 10_000.0),
                "aim": (1.0, 10_000.0),
                "probe_px": (16, 100_000),
                "probe_aspect": (1.0, 10.0),
                "probe_fill": (0.1, 2.0),
                "probe_min": (1.0, 1000.0),
            },
        )


@dataclass(frozen=True, slots=True)
class LookSettings:
    """Which of the detector's looks run, and how many search passes a frame may take
    (`vision.detector.looks`)."""

    # the looks turned off, by name (`vision.detector.detect.look_names`); a first
    # reading cannot be
    off: frozenset[str] = frozenset()
    # no look that searches is started once a frame has spent this many search passes
    # (a pass finds dividers and reads their tiles once over `pass_px` pixels; one over
    # fewer or more pixels counts their share, reading hypotheses, the thin pass and
    # grid windows more: `hypothesis_cost`, `thin_cost`, `grid_cost`). Per source no
    # tile is lost nor read wrong at 60 (`benchmarks.vision --per-source --budget 60`,
    # and ddd-a as `vision detect` reads it); at 40 a tile of `rak` is lost
    budget: float = 60.0
    pass_px: int = 1_000_000
    thin_cost: float = 1.0  # the thin-line pass costs this many passes over its pixels
    grid_cost: float = 1.0  # a window read by the grid, likewise
    # reading one hypothesis (its halves and their second looks) costs this share of a
    # pass: on a texture a pass reads hundreds, and reading, not pixels, is its cost
    hypothesis_cost: float = 0.05

    def __post_init__(self) -> None:
        off: object = self.off
        if isinstance(off, str) or not all(isinstance(n, str) for n in self.off):
            raise ValueError(f"LookSettings.off: {off!r} must be a set of look names")
        object.__setattr__(self, "off", frozenset(self.off))
        check_bounds(
            self,
            {
                "budget": (1.0, 10_000.0),
                "pass_px": (10_000, 100_000_000),
                "thin_cost": (0.0, 100.0),
                "grid_cost": (0.0, 100.0),
                "hypothesis_cost": (0.0, 10.0),
            },
        )


SEARCH = SearchSettings()  # the defaults
SCALES = ScaleSettings()
LOOKS = LookSettings()


@dataclass(frozen=True, slots=True)
class Settings:
    """What the detector is told and how it is tuned; the defaults suit a 1-2
    megapixel overhead photo."""

    tone: Tone | None = Tone.LIGHT  # None: light, dark, grey in turn (`auto_tones`)
    # the faces' colour (B, G, R) of a coloured set (an enrolled set's look): the search
    # runs on an image as bright as each pixel is near it (`tiles.face_colours`)
    face: tuple[float, float, float] | None = None
    margin: int = 24  # px searched beyond the play area, so edge tiles are whole
    # tone=None: the tones tried, in this order (light sets are the common ones, and a
    # light reading that explains the table ends the search)
    auto_tones: tuple[Tone, ...] = (Tone.LIGHT, Tone.DARK, Tone.GREY)
    explained: float = 0.5  # a reading whose tiles cover this share of the material ...
    # a reading's worth: its tiles' confidences times this plus the share it covers
    worth_floor: float = 0.5
    # the learned veto (`vision.learned`, docs/design/learned.md): a tile the net scores below
    # this is dropped as no tile (texture or a fragment read as one); 0 turns it off.
    # Chosen on rendered frames no training run drew (`training/train.py`'s report)
    veto: float = 0.2
    marks: MarkSettings = MARKS
    dividers: DividerSettings = DIVIDERS
    meeting: MeetingSettings = MEETING
    face_down: FaceDownSettings = FACE_DOWN
    outline: OutlineSettings = OUTLINE
    face_colours: FaceColourSettings = FACE_COLOURS
    pips: PipSettings = PIPS
    grid: GridSettings = GRID
    search: SearchSettings = SEARCH
    scales: ScaleSettings = SCALES
    looks: LookSettings = LOOKS

    def __post_init__(self) -> None:
        if self.tone is not None and not isinstance(self.tone, Tone):
            raise ValueError(
                f"Settings.tone: {self.tone!r} is not one of {[t.value for t in Tone]}"
            )
        if self.face is not None and (len(self.face) != 3 or self.tone is not Tone.LIGHT):
            raise ValueError(
                f"Settings.face: {self.face!r} must be a (B, G, R) colour searched as a light "
                "set (tone=Tone.LIGHT)"
            )
        if not self.auto_tones:
            raise ValueError("Settings.auto_tones: at least one tone must be tried")
        check_bounds(
            self,
            {
                "margin": (0, 10_000),
                "explained": (0.0, 1.0),
                "worth_floor": (0.0, 10.0),
                "veto": (0.0, 1.0),
            },
        )
