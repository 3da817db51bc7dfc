"""Reading the whole set for enrolment: each way of making its tiles bright is tried
until the set reads right, and the best reading is judged against the set's list.

The ways, in order: the three tones (light, dark, grey: `vision.tiles.dark_marks`),
then each colour of coloured faces the first frame shows (`vision.tiles.face_colours`).
A way is judged by the tiles of the set it reads right, then by the fewest readings
too many; the first that reads the whole set right ends the search (an ivory set on
a table costs one reading). Unlike the detector's own guess of the tone (`tone=None`),
the enrolment knows what it should see, so it keeps what reads the set best.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

import numpy as np
from numpy.typing import NDArray

from engine.tiles import DominoSet
from vision.detector.detect import Detection, detect
from vision.detector.play_area import PlayArea
from vision.detector.results import Point
from vision.detector.settings import Settings
from vision.enrolment.agree import agreed
from vision.enrolment.check import SetCheck, check_set
from vision.enrolment.measure import measure
from vision.errors import VisionError
from vision.set_model.halves import crop_half
from vision.set_model.model import SetModel, crops_from
from vision.tiles.dark_marks import Tone
from vision.tiles.face_colours import face_colours

__all__ = ["Enrolment", "SetView", "read_set"]

U8 = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class SetView:
    """One frame of the set: the image (BGR), where to look (a play area in pixels, or
    None: everywhere), polygons to leave out (the corner markers), and its pixel -> mm
    map when calibrated. `again`: other still frames of the same view (the same
    camera, nothing moved), read too and agreed with tile by tile (`agree`)."""

    image: U8
    area: PlayArea | None = None
    exclude: Sequence[Sequence[Point]] = ()
    to_mm: Callable[[Point], Point] | None = None
    again: tuple[U8, ...] = ()


@dataclass(frozen=True, slots=True)
class Enrolment:
    """The set read: the judgement, the detector's settings that read it best, what
    each frame read with them, and the set's model when every tile was read right."""

    check: SetCheck
    settings: Settings
    detections: tuple[Detection, ...] = ()
    model: SetModel | None = None
    tried: tuple[str, ...] = field(default=())  # the ways tried, in order

    @property
    def ok(self) -> bool:
        return self.check.ok


def _ways(views: Sequence[SetView], base: Settings) -> Iterator[tuple[str, Settings]]:
    for tone in base.auto_tones:
        yield tone.value, replace(base, tone=tone, face=None)
    first = views[0]
    image = first.image
    if first.area is not None:
        h, w = image.shape[:2]
        x0, y0, x1, y1 = first.area.box(w, h, base.margin)
        image = image[y0:y1, x0:x1]
    for colour in face_colours(image, base.face_colours):
        name = "faces " + ",".join(f"{v:.0f}" for v in colour)
        yield name, replace(base, tone=Tone.LIGHT, face=colour)


def _read_view(view: SetView, settings: Settings, domino_set: DominoSet) -> Detection:
    """What `view` reads with `settings`: its frame's reading, agreed with those of its
    other still frames when it has some (`agree.agreed`)."""
    frames = (view.image, *view.again)
    return agreed([detect(f, view.area, settings, view.exclude) for f in frames], domino_set)


def _score(check: SetCheck) -> tuple[int, int]:
    return (check.right, -len(check.extra))


def read_set(
    views: Sequence[SetView],
    domino_set: DominoSet,
    at: datetime,
    base: Settings | None = None,
) -> Enrolment:
    """Read `views` (one frame, or photos of parts of the set) as the whole `domino_set`;
    the set model is made only when every tile was read right: its look measured, and
    each tile's halves cropped at the numbers read."""
    if not views:
        raise VisionError("no frame of the set to read: give at least one image")
    for view in views:
        if view.image.ndim != 3 or view.image.shape[2] != 3:
            raise VisionError("the set's frames must be in colour (BGR), to keep its colours")
    start = base or Settings()
    best: Enrolment | None = None
    tried: list[str] = []
    for name, settings in _ways(views, start):
        tried.append(name)
        found = tuple(_read_view(v, settings, domino_set) for v in views)
        check = check_set((t.pips for d in found for t in d.tiles), domino_set)
        if best is None or _score(check) > _score(best.check):
            best = Enrolment(check, settings, found)
        if check.ok:
            break
    assert best is not None
    model = None
    if best.ok:
        seen = [(v.image, d, v.to_mm) for v, d in zip(views, best.detections, strict=True)]
        m = measure(seen, best.settings)
        tone = best.settings.tone
        assert tone is not None
        halves = [
            (n, crop_half(v.image, here, there))
            for v, d in zip(views, best.detections, strict=True)
            for t in d.tiles
            for n, here, there in ((t.pips[0], *t.px), (t.pips[1], t.px[1], t.px[0]))
        ]
        model = SetModel(
            domino_set,
            at,
            tone,
            best.settings.face,
            m.face_bgr,
            m.pip_bgr,
            tile_px=m.tile_px,
            tile_mm=m.tile_mm,
            source="set",
            halves=crops_from(halves),
        )
    return replace(best, model=model, tried=tuple(tried))
