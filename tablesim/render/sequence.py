"""A game played out as camera frames: scenes over time, with hands passing between.

The camera source's fake and the demo read frames from `render_sequence`; motion-gate
tests use its `settled` flag and the hand visible in between placements.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from engine.surface import SeenTile
from tablesim.render.draw import TableView, render_frame, table_view
from tablesim.render.scene import Camera, Hand, Point, Scene, Truth
from tablesim.render.styles import BGR, RenderStyle

REACH_BOOST: Final = 1.2  # the hand dwells at full reach for the middle frames
GRIP_MM: Final = 20.0  # fingertips reach this far past the tile they hold
SHUTTER: Final = 0.3  # share of the time between frames the shutter is open (motion blur)
MAX_SMEAR_PX: Final = 30.0
SKINS: Final[tuple[BGR, ...]] = (
    (150, 180, 225),
    (120, 150, 200),
    (90, 125, 175),
    (60, 85, 125),
    (45, 60, 90),
)
SLEEVES: Final[tuple[BGR, ...]] = (
    (110, 60, 40),
    (70, 70, 70),
    (40, 40, 150),
    (200, 200, 200),
    (60, 110, 60),
    (25, 25, 25),
)


@dataclass(frozen=True, slots=True)
class SequenceFrame:
    """One frame of a sequence.

    `scene_index` is the scene on the table; `settled` is true when no hand is in
    view and the previous frame showed the same scene without a hand, i.e. the
    moment a motion gate should let a reading through (a change of `exposure`
    alone, a cloud or a lamp, leaves a scene settled).
    """

    index: int
    scene_index: int
    image: npt.NDArray[np.uint8]
    truth: Truth
    settled: bool
    exposure: float = 1.0

    @property
    def hand_visible(self) -> bool:
        return self.truth.hand_visible


def render_sequence(
    scenes: Iterable[Scene | Sequence[SeenTile]],
    style: RenderStyle | None = None,
    seed: int = 0,
    *,
    hands: bool = True,
    camera: Camera | None = None,
    template: Scene | None = None,
    still_frames: int = 3,
    hand_frames: int = 6,
    exposures: Callable[[int], float] | None = None,
) -> Iterator[SequenceFrame]:
    """Frames of `scenes` in order: `still_frames` of each, and with `hands`,
    `hand_frames` of a hand reaching in before each later scene (the table changes
    at the hand's furthest reach, then the hand withdraws).

    A scene is a `Scene` or a list of `SeenTile` laid on `template` (default
    `Scene()`). `camera` defaults to `Camera.overhead` for the first scene's size.
    `exposures`, given a frame index, returns that frame's exposure (1 = the style's
    light), e.g. `lambda i: 0.7 if 8 <= i < 12 else 1.0` for a passing cloud.
    The whole sequence is fixed by `seed`.
    """
    base = template or Scene()
    rng = np.random.default_rng([seed, 0x4A2D])
    index = 0
    previous: Scene | None = None
    cam = camera
    last_settled_scene = -1
    look = style or RenderStyle()
    views: dict[int, TableView] = {}  # the table drawn once a scene, for all its frames
    for scene_index, item in enumerate(scenes):
        scene = item if isinstance(item, Scene) else base.with_tiles(tuple(item))
        if cam is None:
            cam = Camera.overhead(scene.size_mm, margin_mm=scene.margin_mm)
        views = {i: v for i, v in views.items() if i == scene_index - 1}
        views[scene_index] = table_view(scene, cam, look, seed)
        if previous is not None and hands:
            for hand, placed in _hand_pass(previous, scene, cam, rng, hand_frames):
                shown, shown_index = (scene, scene_index) if placed else (previous, scene_index - 1)
                light = exposures(index) if exposures else 1.0
                out = render_frame(shown, cam, look, seed, frame=index, hand=hand, exposure=light,
                                   view=views[shown_index])  # fmt: skip
                yield SequenceFrame(index, shown_index, out.image, out.truth, False, light)
                index += 1
            last_settled_scene = -1
        for _ in range(still_frames):
            light = exposures(index) if exposures else 1.0
            out = render_frame(scene, cam, look, seed, frame=index, exposure=light,
                               view=views[scene_index])  # fmt: skip
            settled = last_settled_scene == scene_index
            yield SequenceFrame(index, scene_index, out.image, out.truth, settled, light)
            last_settled_scene = scene_index
            index += 1
        previous = scene


def _hand_pass(
    before: Scene, after: Scene, cam: Camera, rng: np.random.Generator, frames: int
) -> list[tuple[Hand, bool]]:
    """One hand's way in and out, frame by frame, and whether the change is made yet
    (it is, from the middle frame on: at the hand's furthest reach)."""
    target = _target(before, after, cam, rng)
    entry = _entry(cam, rng)
    grip = _beyond(entry, target, GRIP_MM * cam.px_per_mm(_scene_centre(after)))
    skin = SKINS[int(rng.integers(len(SKINS)))]
    sleeve = SLEEVES[int(rng.integers(len(SLEEVES)))]
    path = []
    last = entry
    for j in range(frames):
        reach = min(1.0, REACH_BOOST * math.sin(math.pi * (j + 1) / (frames + 1)))
        tip = (entry[0] + reach * (grip[0] - entry[0]), entry[1] + reach * (grip[1] - entry[1]))
        smear = min(MAX_SMEAR_PX, SHUTTER * math.hypot(tip[0] - last[0], tip[1] - last[1]))
        path.append((Hand(tip, entry, skin, sleeve, smear), j >= frames // 2))
        last = tip
    return path


def _target(before: Scene, after: Scene, cam: Camera, rng: np.random.Generator) -> Point:
    """Where the hand reaches: a face-up tile that appeared or went, else a face-down
    one, else anywhere on the play area."""
    ups = [t.centre for t in after.tiles if t not in before.tiles]
    ups += [t.centre for t in before.tiles if t not in after.tiles]
    downs = [(f.x, f.y) for f in after.facedown if f not in before.facedown]
    downs += [(f.x, f.y) for f in before.facedown if f not in after.facedown]
    changed = ups or downs
    if changed:
        x, y = changed[0]
    else:
        w, h = after.size_mm
        x, y = float(rng.uniform(0.2, 0.8) * w), float(rng.uniform(0.2, 0.8) * h)
    px = cam.mm_to_px(np.array([x, y]))
    return (float(px[0]), float(px[1]))


def _scene_centre(scene: Scene) -> Point:
    return (scene.size_mm[0] / 2, scene.size_mm[1] / 2)


def _beyond(start: Point, target: Point, extra: float) -> Point:
    dx, dy = target[0] - start[0], target[1] - start[1]
    n = max(1e-9, math.hypot(dx, dy))
    return (target[0] + dx / n * extra, target[1] + dy / n * extra)


def _entry(cam: Camera, rng: np.random.Generator) -> Point:
    """A point just beyond one of the frame's edges, where the arm comes from."""
    w, h = cam.width, cam.height
    side = int(rng.integers(4))
    t = float(rng.uniform(0.2, 0.8))
    out = 0.08 * max(w, h)
    if side == 0:
        return (t * w, -out)
    if side == 1:
        return (w + out, t * h)
    if side == 2:
        return (t * w, h + out)
    return (-out, t * h)
