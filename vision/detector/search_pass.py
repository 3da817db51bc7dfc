"""One search of a tile-bright image: dividers, tile hypotheses, readings, leftovers.

`search` runs on an image in which tiles are light and their marks dark (see
`vision.tiles.dark_marks.tone_image`); `vision.detector.detect` picks the image and the
play area. The passes find dividers (`vision.tiles`) and agree on the frame's size;
`tile_reading` reads their tiles, `strays` what no tile explains; `planes` holds what
a search works on (`Planes`) and finds (`Found`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detector.by_grid import LOOK_AGAIN, by_grid, by_spacing
from vision.detector.looks import Look, run_looks
from vision.detector.planes import Box, Found, Planes
from vision.detector.play_area import PlayArea
from vision.detector.results import Point, UnsureReason, UnsureRegion
from vision.detector.settings import SearchSettings, Settings
from vision.detector.strays import (
    explained_share,
    room,
    stray_pips,
    stray_places,
    stray_reach,
    with_strays,
)
from vision.detector.tile_reading import faint_doubts, half_fill, read_tiles
from vision.pips.counting import pip_area, read_half, round_blobs
from vision.tiles.dark_marks import (
    Blobs,
    Tone,
    darker_material,
    find_blobs,
    local_bright,
    mark_mask,
    mark_split,
    tile_material,
)
from vision.tiles.dividers import (
    TileHypothesis,
    consensus,
    hypotheses,
    overlap,
    with_pins,
)
from vision.tiles.face_down import leftovers
from vision.tiles.meeting_lines import line_kernel, split_heads, split_junctions
from vision.trace import Grain, Trace

logger = logging.getLogger(__name__)


def _merge(base: Found, extra: Found, cfg: SearchSettings, trace: Trace) -> Found:
    """`base` plus the tiles of `extra` on material that `base` left unclaimed.

    A line that `base` took for a blank tile and dropped as a line on the table
    (`Found.lines`: wood grain that won the material from a fainter divider) gives
    way to a tile of `extra` in its place that reads as a domino (`SURE`; the look
    `merge-lines`).
    """
    tiles, kept, read = list(base.tiles), list(base.kept), list(base.read)
    lines = list(base.lines)
    over_lines = trace.on("merge-lines")
    for tile, hyp in zip(extra.tiles, extra.read, strict=True):
        clash = [i for i, k in enumerate(kept) if overlap(hyp, k)]
        if (
            over_lines
            and clash
            and tile.confidence >= cfg.sure
            and all(kept[i] in lines for i in clash)
        ):
            gone = [kept[i] for i in clash]
            kept = [k for k in kept if k not in gone]
            lines = [k for k in lines if k not in gone]
            clash = []
            trace.count("merge-lines", True)
        if not clash:
            tiles.append(tile)
            kept.append(hyp)
            read.append(hyp)
    return Found(tiles, [], base.unsure, base.width, kept, read, lines=lines)


def _faint_marks(
    planes: Planes, divider_scale: float, s: Settings, thin: bool
) -> NDArray[np.uint8]:
    """The marks at `divider_scale` of the pip contrast (the frame's own below 1), with
    `thin` only their straight, thinner-than-a-pip parts."""
    if divider_scale >= 1.0:
        return planes.marks
    faint = mark_mask(
        planes.img,
        planes.bright,
        planes.solid,
        s.marks.min_contrast,
        s.marks.rel_contrast,
        divider_scale,
        planes.need[2],
    )
    return _thin(faint, planes.pip, s.search) if thin else faint


def _pass(
    planes: Planes,
    tile: NDArray[np.bool_],
    offset: Point,
    divider_scale: float,
    s: Settings,
    thin: bool = False,
    known: float = 0.0,
    force: bool = False,
) -> Found:
    """Find dividers at `divider_scale` of the pip contrast (with `thin`, only their
    straight, thinner-than-a-pip parts), then read the pips. `known`: the tile width
    when an earlier pass fixed it (see `dividers.consensus`), else 0; with `force`,
    that width is the frame's whatever the lines' lengths say."""
    img, bright = planes.img, planes.bright
    max_area = planes.max_area
    trace = planes.trace
    trace.spend(img.size * (s.looks.thin_cost if thin else 1.0))
    faint = _faint_marks(planes, divider_scale, s, thin)
    own = faint is not planes.marks
    lines = find_blobs(faint, img, bright, max_area) if own else planes.blobs
    # a spinner pin's head is part of its divider (measured by the line's arms)
    if trace.on("pins"):
        pinned = with_pins(lines, s.dividers)
        trace.count("pins", pinned is not lines)
        lines = pinned
    # a pip joined to a divider's end is given back to the pips, the line measured alone
    if trace.on("split-heads"):
        heads = split_heads(lines, planes.pip, img, bright, max_area, own, s.meeting, s.dividers)
        trace.count("split-heads", heads is not None)
        if heads is not None:
            lines = heads
    # A divider that runs into the gap beside its tile (a crosswise double between
    # touching neighbours) is one T-shaped mark with that gap: cut where lines meet.
    if trace.on("split-junctions"):
        split = split_junctions(
            lines, planes.pip, img, bright, max_area, own, s.meeting, s.dividers
        )
        trace.count("split-junctions", split is not None)
        if split is not None:
            lines = split
    cands = [
        c
        for c in hypotheses(lines, tile, s.dividers)
        if half_fill(tile, faint, c, s.search) >= s.search.min_half_fill
    ]
    # how well each reads is judged on the marks at the pips' contrast: at a fainter
    # one pips merge with the divider, the rims and the gaps, and every tile of
    # touching wooden ones looked foreign
    trust = _trust(planes.blobs, cands, s, trace)
    agreed, _ = consensus(lines, cands, trust, known, s.dividers, force)
    if len(agreed) > s.search.most_read:
        # more lines of a divider's length than a table holds tiles: a texture (wood,
        # leather, a weave); only the most divider-like are read
        agreed = sorted(agreed, key=lambda t: -t.score)[: s.search.most_read]
    # reading a hypothesis (its halves, their second looks) costs about as much as a
    # pass over `hypothesis_cost` of a pass's pixels
    trace.spend(len(agreed) * s.looks.hypothesis_cost * s.looks.pass_px)
    if divider_scale >= 1.0:
        return read_tiles(lines, agreed, offset, planes)
    # Pips are the strong marks left once the dividers' pixels are taken out, so a
    # pip touching its divider is still one round blob. Only the dividers that win
    # their material are taken out in the end: a row of merged pips that passed for
    # a divider must come back as pips.
    first = read_tiles(_without(planes, lines, agreed, max_area), agreed, offset, planes)
    if {t.blob for t in first.kept} == {t.blob for t in agreed}:
        return first  # every divider won its material: the same marks again
    return read_tiles(_without(planes, lines, first.kept, max_area), first.kept, offset, planes)


def _thin_in(
    planes: Planes, box: Box, offset: Point, width: float, s: Settings, known: float = 0.0
) -> Found:
    """The thin-line pass inside `box`, its tiles of the frame's `width` only, in the
    whole search image's coordinates (`known`: as for `_pass`)."""
    x0, y0, _, _ = box
    sub = planes.crop(box)
    ox, oy = offset
    found = _pass(
        sub, sub.tile, (ox + x0, oy + y0), s.search.divider_contrast, s, thin=True, known=known
    )
    pairs = [
        (tile, replace(t, cx=t.cx + x0, cy=t.cy + y0))
        for tile, t in zip(found.tiles, found.read, strict=True)
        if abs(t.width - width) <= s.dividers.width_tolerance * width
    ]
    read = [t for _, t in pairs]
    return Found([tile for tile, _ in pairs], [], [], width, read, read)


def _pip_size(blobs: Blobs, s: Settings) -> float:
    """The typical diameter of a round mark (a pip) in pixels, or 0."""
    cfg = s.search
    round_ = round_blobs(blobs, s.pips) & (blobs.area >= cfg.pip_min_area)
    if round_.sum() < cfg.pip_min_count:
        return 0.0
    return float(np.median(2.0 * np.sqrt(blobs.area[round_] / np.pi)))


def _thin(mask: NDArray[np.uint8], pip: float, cfg: SearchSettings) -> NDArray[np.uint8]:
    """The parts of `mask` that hold a straight segment longer than a pip, in any
    direction: a divider line that a blurred pip touches comes apart from it, and the
    pip drops out. Nothing is taken when the pip size is unknown."""
    length = round(cfg.line_pips * pip) | 1
    if pip <= 0 or length < cfg.line_min_px:
        return mask
    # pips and rows of merged pips are as thick as a pip: gone with an opening by a
    # disc of most of a pip's width; what is left of their rims is not straight
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(cfg.thin_disc * pip),) * 2)
    pips = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc), dtype=np.uint8)
    mask = np.asarray(mask & (1 - pips), dtype=np.uint8)
    out = np.zeros_like(mask)
    for i in range(cfg.line_angles):
        kernel = line_kernel(length, np.pi * i / cfg.line_angles)
        out |= np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel), dtype=np.uint8)
    return out


def _without(
    planes: Planes, lines: Blobs, dividers: list[TileHypothesis], max_area: float
) -> Blobs:
    """The pip-contrast marks with the pixels of `dividers` (found in `lines`) removed
    (none: the pip-contrast marks as they were, not labelled again)."""
    if not dividers:
        return planes.blobs
    marks = planes.marks.copy()
    chosen = np.zeros(len(lines), dtype=np.uint8)
    chosen[[c.blob for c in dividers]] = 1
    on_divider = chosen[lines.labels]
    marks[cv2.dilate(on_divider, np.ones((3, 3), np.uint8)) > 0] = 0
    return find_blobs(marks, planes.img, planes.bright, max_area)


def _trust(blobs: Blobs, cands: list[TileHypothesis], s: Settings, trace: Trace) -> list[float]:
    """How much each hypothesis reads like a domino: a stroke of print taken for a
    divider has letters, not pips, beside it."""
    ref = pip_area(blobs, cands, s.pips)
    if ref <= 0:
        return [1.0] * len(cands)
    out = []
    for c in cands:
        ra = read_half(blobs, c, 0, ref, s.pips, trace)
        rb = read_half(blobs, c, 1, ref, s.pips, trace)
        foreign = ra.foreign or rb.foreign
        out.append(s.search.foreign_trust if foreign else min(ra.confidence, rb.confidence))
    return out


def _sure_width(found: Found, cfg: SearchSettings) -> bool:
    """True when `found` read tiles, one of them at least as a domino (`DOUBTFUL`),
    and most of their widths were measured between the tiles' edges: a width taken
    from the dividers' length (white tiles on white cloth, whose edges do not show)
    is a guess that pips read at it do not confirm (ivory tiles 28 px wide read
    surely at 25)."""
    sure = any(t.confidence >= cfg.doubtful for t in found.tiles)
    return sure and 2 * sum(t.measured for t in found.read) > len(found.read)


def _score(found: Found) -> float:
    return sum(t.confidence for t in found.tiles)


def search(
    img: NDArray[np.uint8],
    offset: Point,
    s: Settings,
    exclude: NDArray[np.bool_] | None = None,
    trace: Trace | None = None,
) -> Found:
    """Find and read tiles in a tile-bright image (tiles light, marks dark).

    Tiles are lighter than their marks but not always lighter than the table: on a
    light table (most of the frame on the light side of Otsu's split) coloured faces
    read in grey (`Tone.GREY`, wooden tiles on white cloth) may be the darker
    material. Then both are tried, and the reading with more (and surer) tiles wins.
    (Tried for light sets too, it read shadows on white cloth as ivory tiles.) The
    stray pips the other reading saw outside the winner's tiles stay unsure places:
    both looked at the same table.

    `exclude` (True where to leave out, e.g. the corner markers' squares) is no tile
    material: no tile, mark or stray pip is found there and it is no material left
    unexplained. The split between face and mark contrast is still taken over it
    (left out of that too, on white cloth the split fell to the cloth's noise and
    ivory tiles read wrong).

    `trace` is the frame's record of its looks (`vision.trace`; a new one when None):
    the passes are counted there, and looks it turns off do not run.
    """
    trace = trace if trace is not None else Trace(s.looks.off, s.looks.budget)
    slight = trace.on("slight-holes")
    tile, solid, filled = tile_material(img, img.size * s.marks.max_hole_share, s.marks, slight)
    if slight:
        trace.count("slight-holes", filled)
    tile, solid, whole = _left_out(tile, solid, exclude)
    bright = local_bright(img, s.marks.window)
    found = _search(img, offset, s, tile, solid, bright, whole=whole, trace=trace)
    view = MaterialView(img, offset, s, exclude, tile, trace)
    return run_looks(MATERIAL_LOOKS, view, found)


@dataclass(frozen=True, slots=True)
class MaterialView:
    """What the looks at a search's tile material see (`MATERIAL_LOOKS`): the search
    image, where it lies, the settings, what is left out, the tile material found."""

    img: NDArray[np.uint8]
    offset: Point
    s: Settings
    exclude: NDArray[np.bool_] | None
    tile: NDArray[np.bool_]
    trace: Trace


@dataclass(frozen=True, slots=True)
class DarkerTable:
    """Tiles darker than a light table (wooden tiles on white cloth): on a light
    table, a grey-toned set's search runs again with the material clearly below the
    table's level as tile material, and the reading with more (and surer) tiles
    wins, the other's stray pips and unread places outside it kept."""

    name: str = "darker-table"
    grain: Grain = Grain.SEARCH
    base: bool = False
    searches: bool = True

    def applies(self, view: MaterialView, found: Found) -> bool:
        s = view.s
        return s.tone is Tone.GREY and float(view.tile.mean()) > s.marks.light_table

    def run(self, view: MaterialView, found: Found) -> Found:
        img, s, offset = view.img, view.s, view.offset
        # the table's level is taken over a dozen pips; with no pip seen on the light
        # material (wooden tiles are not on it: only the corner markers' squares
        # were, and they may be left out) a pip is guessed from the searched area
        pip = found.pip if found.pip > 0 else min(img.shape) / s.search.guess_pips
        dark, dark_solid = darker_material(img, pip, s.marks)
        dark, dark_solid, dark_whole = _left_out(dark, dark_solid, view.exclude)
        if not dark.any():
            return found
        bright = local_bright(np.where(dark, img, 0).astype(np.uint8), s.marks.window)
        other = _search(
            img,
            offset,
            s,
            dark,
            dark_solid,
            bright,
            lighter_table=True,
            whole=dark_whole,
            trace=view.trace,
        )
        best, worse = (other, found) if _score(other) > _score(found) else (found, other)
        return with_strays(best, worse, offset, s.search)


MATERIAL_LOOKS: tuple[Look[MaterialView], ...] = (DarkerTable(),)


def _left_out(
    tile: NDArray[np.bool_], solid: NDArray[np.uint8], exclude: NDArray[np.bool_] | None
) -> tuple[NDArray[np.bool_], NDArray[np.uint8], NDArray[np.uint8] | None]:
    """The tile material and its filled, eroded version without `exclude`, and the
    latter as it was (None when nothing is left out)."""
    if exclude is None or not exclude.any():
        return tile, solid, None
    kept = np.where(exclude, 0, solid).astype(np.uint8)
    return tile & ~exclude, kept, solid


NOTHING = Found([], [], [], 0.0)  # what a search starts from


def _search(
    img: NDArray[np.uint8],
    offset: Point,
    s: Settings,
    tile: NDArray[np.bool_],
    solid: NDArray[np.uint8],
    bright: NDArray[np.uint8],
    lighter_table: bool = False,
    whole: NDArray[np.uint8] | None = None,
    trace: Trace | None = None,
) -> Found:
    """One search with the tile material and its local brightness given
    (`lighter_table`: the tiles are the material darker than the table; `whole`:
    the material with what was left out, for the mark split): the first pass, the
    looks of `PASS_LOOKS`, then what is left (lop-sided tiles, face-down tiles,
    stray pips)."""
    cfg = s.search
    split = mark_split(
        bright.astype(np.int16) - img.astype(np.int16),
        solid if whole is None else whole,
        s.marks.min_contrast,
    )
    marks = mark_mask(img, bright, solid, s.marks.min_contrast, s.marks.rel_contrast, split=split)
    max_area = img.size * s.marks.max_mark_share
    blobs = find_blobs(marks, img, bright, max_area)
    need = (s.marks.min_contrast, s.marks.rel_contrast, split)
    planes = Planes(
        img,
        bright,
        solid,
        marks,
        blobs,
        tile,
        need,
        max_area,
        _pip_size(blobs, s),
        s,
        lighter_table,
        offset,
        trace if trace is not None else Trace(s.looks.off, s.looks.budget),
    )
    with planes.trace.look("first-pass", Grain.SEARCH):
        first = _pass(planes, tile, offset, 1.0, s)
    planes.trace.changed("first-pass", Grain.SEARCH, NOTHING, first)
    found = run_looks(PASS_LOOKS, SearchView(planes, first), first)
    # A tile read lop-sided (pips in no domino's layout) is reported with its low
    # confidence, and its place is unsure too: the snapshot is not judged on it (a
    # line of wood grain across a tile's end read as a 1-0 beside it).
    lopsided = [
        UnsureRegion(*_mid(t.px), UnsureReason.LOPSIDED)
        for t in found.tiles
        if t.confidence < cfg.doubtful
    ]
    found = replace(found, unsure=found.unsure + lopsided)
    width = found.width
    ox, oy = offset
    rest = leftovers(tile, marks, found.kept, width, s.face_down)
    facedown = [(r.x + ox, r.y + oy) for r in rest if not r.marked]
    unsure = found.unsure + [
        UnsureRegion(r.x + ox, r.y + oy, UnsureReason.NO_DIVIDER) for r in rest if r.marked
    ]
    stray = [(x + ox, y + oy) for x, y in stray_pips(planes, found)]
    out = Found(
        found.tiles, facedown, unsure, width, found.kept, found.read, pip=planes.pip, stray=stray
    )
    places = [
        UnsureRegion(x, y, UnsureReason.STRAY_PIPS)
        for x, y in stray_places(stray, stray_reach(out, cfg), cfg)
    ]
    return replace(out, unsure=unsure + places, explained=explained_share(solid > 0, found, cfg))


@dataclass(frozen=True, slots=True)
class SearchView:
    """What the looks of one search see (`PASS_LOOKS`): its planes and the first
    pass's reading."""

    planes: Planes
    first: Found

    @property
    def trace(self) -> Trace:
        return self.planes.trace

    @property
    def small(self) -> bool:
        """Small tiles (or none read by the first pass), and something to read: their
        dividers are thin, blurred and faint. A first pass that saw nothing tile-like
        (`blank`) is not looked at again (an empty table costs one pass a search)."""
        if self.blank:
            return False
        return self.first.width < self.planes.s.search.small_tile_px or not self.first.tiles

    @property
    def blank(self) -> bool:
        """The first pass read no tile, left no place unsure and saw no pips: what
        lines it found were lines on the table."""
        first = self.first
        return not first.tiles and not first.unsure and not stray_pips(self.planes, first)

    @property
    def known(self) -> float:
        """The frame's tile width when the first pass read tiles surely (the fainter
        passes place their tiles at it: a faint look at touching wooden tiles sees
        dividers cut short, and agreed on a width a third too small), else 0."""
        return self.first.width if _sure_width(self.first, self.planes.s.search) else 0.0


@dataclass(frozen=True, slots=True)
class FainterPass:
    """On small tiles (or none read), dividers looked for at `divider_contrast` of
    the pips' contrast. (On white cloth the corner markers' squares raise the mark
    split above a coloured set's dividers: the first pass agrees on a width from
    stray lines, twice the real one, and reads nothing.) Each pass sees dividers the
    other misses (a faint line; a line that merged with a tile gap at the lower
    threshold): the better is kept, and the other's tiles fill the places it left
    empty."""

    name: str = "fainter-pass"
    grain: Grain = Grain.SEARCH
    base: bool = False
    searches: bool = True

    def applies(self, view: SearchView, found: Found) -> bool:
        return view.small

    def run(self, view: SearchView, found: Found) -> Found:
        planes, s = view.planes, view.planes.s
        cfg = s.search
        again = _pass(planes, planes.tile, planes.offset, cfg.divider_contrast, s, known=view.known)
        if _score(found) >= _score(again):
            return _merge(found, again, cfg, planes.trace)
        return _merge(again, found, cfg, planes.trace)


@dataclass(frozen=True, slots=True)
class ThinPass:
    """On small tiles, a pass that keeps only the straight, thin parts of the faint
    marks: a blurred divider that touches a pip comes apart from it there. It only
    fills places the others left empty (on a table as light as the tiles, ivory on
    white cloth, a tile's end or side is such a straight thin line too, and a "tile"
    across it reads the real half and a blank one of table), and only runs where tile
    material is left that no tile claims."""

    name: str = "thin-pass"
    grain: Grain = Grain.SEARCH
    base: bool = False
    searches: bool = True

    def applies(self, view: SearchView, found: Found) -> bool:
        return view.small

    def run(self, view: SearchView, found: Found) -> Found:
        planes, s = view.planes, view.planes.s
        cfg, offset = s.search, planes.offset
        boxes = room(planes.solid > 0, found, cfg)
        if boxes is None:
            thin = _pass(planes, planes.tile, offset, cfg.divider_contrast, s, thin=True)
            return _merge(found, thin, cfg, planes.trace)
        for box in boxes:
            found = _merge(
                found, _thin_in(planes, box, offset, found.width, s, view.known), cfg, planes.trace
            )
        return found


@dataclass(frozen=True, slots=True)
class ShownWidth:
    """The frame read again at the width its tiles showed (`_shown_width`) when that
    reads better: a pixel of noise that moved the lines' agreement must not lose the
    tiles that the frame's true size reads."""

    name: str = "shown-width"
    grain: Grain = Grain.SEARCH
    base: bool = False
    searches: bool = True

    def applies(self, view: SearchView, found: Found) -> bool:
        return _shown_width(found, view.planes.s.search) > 0

    def run(self, view: SearchView, found: Found) -> Found:
        planes, s = view.planes, view.planes.s
        shown = _shown_width(found, s.search)
        cfg, tile, offset = s.search, planes.tile, planes.offset
        first = _pass(planes, tile, offset, 1.0, s, known=shown, force=True)
        faint = _pass(planes, tile, offset, cfg.divider_contrast, s, known=shown, force=True)
        if _score(first) >= _score(faint):
            again = _merge(first, faint, cfg, planes.trace)
        else:
            again = _merge(faint, first, cfg, planes.trace)
        return again if _score(again) > _score(found) else found


@dataclass(frozen=True, slots=True)
class FaintDoubts:
    """A tile a half of which shows more pip-like marks at half the contrast than it
    was read with is unsure, unless its own threshold reads them surely
    (`tile_reading.faint_doubts`)."""

    name: str = "faint-doubts"
    grain: Grain = Grain.SEARCH
    base: bool = False
    searches: bool = False

    def applies(self, view: SearchView, found: Found) -> bool:
        return bool(found.read)

    def run(self, view: SearchView, found: Found) -> Found:
        return faint_doubts(view.planes, found, view.planes.offset)


@dataclass(frozen=True, slots=True)
class ByGrid:
    """The frame's tile size known from sure tiles: what is left (stray pips, unsure
    places, unclaimed material) read by the pips' grid (`by_grid.by_grid`)."""

    name: str = "by-grid"
    grain: Grain = Grain.SEARCH
    base: bool = False
    searches: bool = True

    def applies(self, view: SearchView, found: Found) -> bool:
        cfg = view.planes.s.search
        return cfg.grid_boxes > 0 and _sure_width(found, cfg)

    def run(self, view: SearchView, found: Found) -> Found:
        planes = view.planes
        ox, oy = planes.offset
        left = [(u.x - ox, u.y - oy) for u in found.unsure if u.reason in LOOK_AGAIN]
        return by_grid(planes, found, planes.offset, [*stray_pips(planes, found), *left])


@dataclass(frozen=True, slots=True)
class BySpacing:
    """No tile read, no width known: stray pips read by the grid at the width their
    spacing suggests (`by_grid.by_spacing`)."""

    name: str = "by-spacing"
    grain: Grain = Grain.SEARCH
    base: bool = False
    searches: bool = True

    def applies(self, view: SearchView, found: Found) -> bool:
        return view.planes.s.search.grid_boxes > 0 and not found.read

    def run(self, view: SearchView, found: Found) -> Found:
        planes = view.planes
        return by_spacing(planes, found, planes.offset, stray_pips(planes, found))


# The looks of one search, in the order they run after its first pass.
PASS_LOOKS: tuple[Look[SearchView], ...] = (
    FainterPass(),
    ThinPass(),
    ShownWidth(),
    FaintDoubts(),
    ByGrid(),
    BySpacing(),
)


def _shown_width(found: Found, cfg: SearchSettings) -> float:
    """The width most tiles read were read at, when it is not the frame's (each read
    again at another width, `tile_reading._resized`): the frame's one tile size is
    theirs, and the lines that agreed on another (wood grain shifting the divider
    lengths a pixel) were wrong. 0 when the tiles read agree with the frame's."""
    widths = np.array([t.width for t in found.read], dtype=np.float64)
    if widths.size < cfg.shown_tiles or found.width <= 0:
        return 0.0
    shown = float(np.median(widths))
    if abs(shown - found.width) <= cfg.shown_apart * found.width:
        return 0.0
    alike = np.abs(widths - shown) <= 0.5 * cfg.shown_apart * shown
    return shown if alike.mean() >= cfg.shown_share else 0.0


def within(found: Found, area: PlayArea | None) -> Found:
    """What was found with its centre inside the play area (the hypotheses behind
    the tiles dropped too; the rest as it was)."""
    if area is None:
        return found
    inside = [area.contains(*_mid(t.px)) for t in found.tiles]
    aligned = len(found.read) == len(found.tiles)
    return replace(
        found,
        tiles=[t for t, ok in zip(found.tiles, inside, strict=True) if ok],
        facedown=[p for p in found.facedown if area.contains(*p)],
        unsure=[u for u in found.unsure if area.contains(u.x, u.y)],
        read=[t for t, ok in zip(found.read, inside, strict=True) if ok] if aligned else [],
        stray=[p for p in found.stray if area.contains(*p)],
    )


def _mid(px: tuple[Point, Point]) -> Point:
    (xa, ya), (xb, yb) = px
    return ((xa + xb) / 2.0, (ya + yb) / 2.0)
