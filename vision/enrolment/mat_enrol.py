"""Enrolment from the mat: the slots judged (`mat_read`), the set model built from them.

`enrol_mat(images, set, at)` reads photos (or still frames) of the filled mat. The
paper is known by its pages' markers (each paper puts them at other distances: the
one whose geometry fits the markers seen best). When every slot holds its tile, the
set model (`vision.set_model.SetModel`) is made of what the slots showed: the faces',
pips' and divider's colours, the tile's size in mm (the page is its own ruler), the
pips' size and shape, a crop of every half at its number; and the detector's way of
reading the set in play, the tone that reads most of the mat's tiles right where they
lie (`_best_way`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import cv2
import numpy as np
from numpy.typing import NDArray

from engine.tiles import DominoSet, Tile
from mat import PAPERS, Mat, mat_for
from vision.detector.detect import detect
from vision.detector.results import Detection
from vision.detector.settings import Settings
from vision.enrolment.mat_read import (
    MatReading,
    SlotReading,
    SlotState,
    crops_of,
    find_pages,
    read_mat,
    sightings,
)
from vision.errors import VisionError
from vision.set_model.halves import CROP
from vision.set_model.model import SetModel, crops_from
from vision.tiles.dark_marks import Tone

__all__ = ["MatEnrolment", "enrol_mat", "paper_of"]

TONE_ENOUGH = 0.8  # a tone that reads this share of the mat's tiles is the set's
LIGHT_FACE = 110.0  # grey level (0-255) from which a face is light

U8 = NDArray[np.uint8]
Colour = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class MatEnrolment:
    """The mat read: each slot's verdict, the model when every slot holds its tile, and
    the detector's settings that read the mat's tiles best."""

    reading: MatReading
    model: SetModel | None
    settings: Settings | None = None

    @property
    def ok(self) -> bool:
        return self.model is not None

    def detail(self) -> dict[str, object]:
        """The `enrol` reply's `detail`: the loose enrolment's keys (a slot empty, face
        down or not seen is `missing`; holding another tile, `misread`), and each slot
        that is not right, in words."""
        r = self.reading
        missing = [s.tile.text for s in r.wrong() if s.state is not SlotState.OTHER]
        misread = [
            {"tile": s.tile.text, "as": s.holds.text if s.holds is not None else "?"}
            for s in r.wrong()
            if s.state is SlotState.OTHER
        ]
        return {
            "expected": len(r.slots),
            "read": sum(s.state in (SlotState.RIGHT, SlotState.OTHER) for s in r.slots),
            "missing": missing,
            "misread": misread,
            "extra": [],
            "mat": {
                "paper": r.mat.paper,
                "pages": len(r.mat.pages),
                "pages_seen": sorted({p for ps in r.pages_seen for p in ps}),
                "slots": [
                    {
                        "tile": s.tile.text,
                        "page": s.slot.page,
                        "state": s.state.value,
                        "message": s.sentence(),
                    }
                    for s in r.wrong()
                ],
            },
        }

    def summary(self) -> str:
        return self.reading.summary()


def paper_of(images: Sequence[U8], domino_set: DominoSet) -> Mat:
    """The mat the photos show: of the papers whose mat has the pages seen, the one
    whose page geometry fits the markers seen best."""
    best: tuple[float, str] | None = None
    for paper in PAPERS:
        mat = mat_for(domino_set, paper)
        errors = []
        for image in images:
            for seen in find_pages(image, mat):
                mm = [c for m in seen.page.markers if m.marker_id in seen.markers
                      for c in m.corners_mm]  # fmt: skip
                px = seen.px(mm)
                found = _found_px(image, seen.markers)
                errors.append(float(np.sqrt(np.mean(np.sum((px - found) ** 2, axis=1)))))
        if errors and (best is None or float(np.mean(errors)) < best[0]):
            best = (float(np.mean(errors)), paper)
    if best is None:
        raise VisionError(
            f"no page of a {domino_set} mat in view: show the mat's pages with their "
            "corner markers (print them with `domino-table vision mat`)"
        )
    return mat_for(domino_set, best[1])


def _found_px(image: U8, ids: Sequence[int]) -> NDArray[np.float64]:
    seen = sightings(image)
    return np.vstack([seen[i] for i in ids])


def _median_colour(pixels: Sequence[NDArray[np.uint8]]) -> Colour | None:
    stacked = [p.reshape(-1, 3) for p in pixels if p.size]
    if not stacked:
        return None
    b, g, r = (float(v) for v in np.median(np.vstack(stacked), axis=0))
    return (b, g, r)


def _colours(halves: Sequence[tuple[int, U8]]) -> tuple[dict[int, Colour], Colour | None]:
    """Each number's pip colour (a half's pixels furthest from its face) and the
    divider's (the middle of a crop's foot, where the divider runs)."""
    pips: dict[int, list[U8]] = {}
    foot: list[U8] = []
    for value, crop in halves:
        lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab).astype(np.float32)
        face = np.median(lab.reshape(-1, 3), axis=0)
        far = np.linalg.norm(lab - face, axis=2)
        q = CROP // 4
        foot.append(crop[CROP - 2 :, q : CROP - q])
        if value > 0 and far.max() > 0:
            pips.setdefault(value, []).append(crop[far >= 0.6 * far.max()])
    colours = {v: c for v, ps in sorted(pips.items()) if (c := _median_colour(ps)) is not None}
    return colours, _median_colour(foot)


def _placed(found: Detection, slots: Sequence[SlotReading]) -> int:
    """Tiles of `found` read right where a slot's tile lies (both half centres within
    a third of the tile's width, either way round)."""
    right = 0
    for s in slots:
        if s.px is None or s.read is None:
            continue
        (ax, ay), (bx, by) = s.px
        near = np.hypot(bx - ax, by - ay) / 3
        for t in found.tiles:
            (fa, fb) = t.px
            straight = max(np.hypot(fa[0] - ax, fa[1] - ay), np.hypot(fb[0] - bx, fb[1] - by))
            turned = max(np.hypot(fa[0] - bx, fa[1] - by), np.hypot(fb[0] - ax, fb[1] - ay))
            if min(straight, turned) <= near and Tile(*t.pips) is s.tile:
                right += 1
                break
    return right


def _light(face: Colour) -> bool:
    b, g, r = face
    return (0.114 * b + 0.587 * g + 0.299 * r) >= LIGHT_FACE


def _best_way(
    images: Sequence[U8], slots: Sequence[SlotReading], face: Colour, base: Settings
) -> Settings:
    """The tone the detector reads the set by in play: the first of light, dark and grey
    (light or dark first, as its faces are) that reads most of the mat's tiles where
    they lie; when none does (tiles on white paper can hide in it), light for a face
    lighter than mid-grey, else dark. The faces' colour is never chosen here: the
    mat's paper flatters it, and the table in play is no paper."""
    by_image: dict[int, list[SlotReading]] = {}
    for s in slots:
        by_image.setdefault(s.image, []).append(s)
    first = [Tone.LIGHT, Tone.DARK] if _light(face) else [Tone.DARK, Tone.LIGHT]
    for tone in (*first, Tone.GREY):
        settings = replace(base, tone=tone, face=None)
        right = sum(
            _placed(detect(images[i], None, settings), mine) for i, mine in by_image.items()
        )
        if right >= TONE_ENOUGH * len(slots):
            return settings
    return replace(base, tone=first[0], face=None)


def enrol_mat(
    images: Sequence[U8],
    domino_set: DominoSet,
    at: datetime,
    base: Settings | None = None,
    mat: Mat | None = None,
) -> MatEnrolment:
    """Read the filled mat of `domino_set` in `images` (its paper found from its
    markers unless `mat` is given); the set model when every slot holds its tile."""
    if not images:
        raise VisionError("no photo of the mat: give at least one image")
    for image in images:
        if image.ndim != 3 or image.shape[2] != 3:
            raise VisionError("the mat's photos must be in colour (BGR), to keep its colours")
    chosen = mat or paper_of(images, domino_set)
    reading = read_mat(images, chosen)
    if not reading.ok:
        return MatEnrolment(reading, None)
    right = reading.slots
    halves = [c for s in right for c in crops_of(images, s)]
    faces = np.array([s.face for s in right if s.face is not None], dtype=np.float64)
    face: Colour = (0.0, 0.0, 0.0)
    if faces.size:
        fb, fg, fr = (float(v) for v in np.median(faces, axis=0))
        face = (fb, fg, fr)
    settings = _best_way(images, right, face, base or Settings())
    pips, divider = _colours(halves)
    sizes = [s.tile_mm for s in right if s.tile_mm is not None]
    tile_mm = None
    if sizes:
        tile_mm = (float(np.median([v[0] for v in sizes])), float(np.median([v[1] for v in sizes])))
    areas = [a for s in right for a in s.pip_mm2]
    pip_mm = float(np.sqrt(4 * float(np.median(areas)) / np.pi)) if areas else None
    fills = [f for s in right for f in s.pip_fill]
    widths = [
        float(np.hypot(s.px[1][0] - s.px[0][0], s.px[1][1] - s.px[0][1]))
        for s in right
        if s.px is not None
    ]
    tone = settings.tone
    assert tone is not None
    model = SetModel(
        domino_set=domino_set,
        at=at,
        tone=tone,
        face=settings.face,
        face_bgr=face,
        pip_bgr=pips,
        divider_bgr=divider,
        tile_px=float(np.median(widths)) if widths else 0.0,
        tile_mm=tile_mm,
        pip_mm=pip_mm,
        pip_share=None if pip_mm is None or tile_mm is None else pip_mm / tile_mm[1],
        pip_round=float(np.median(fills)) if fills else None,
        source="mat",
        halves=crops_from(halves),
    )
    return MatEnrolment(reading, model, settings)
