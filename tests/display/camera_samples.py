"""What a table's camera publishes, made for real: rendered frames read by the camera path
and its view (`service.camera.view.CameraView`), each fault drawn into the frames; the
`camera/status` payload (schema-valid) and the latest `camera/snapshot` JPEG."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cache
from typing import Any

from engine.surface import SeenTile
from mqttweb.envelope import stamp
from service.camera.events import CameraPicture, CameraReport
from service.camera.status import status_payload
from service.camera.view import CameraView, ViewSettings
from tablesim.render import (
    Hand,
    Lighting,
    RenderStyle,
    Scene,
    TileStyle,
    render_frame,
    table_view,
)
from tests.display import samples
from tests.fixtures.spec import validate
from vision.camera_path.pipeline import Pipeline, PipelineSettings
from vision.frames import Frame

TILES = (
    SeenTile(6, 6, 450, 288, 450, 312),
    SeenTile(6, 3, 474, 300, 498, 300),
    SeenTile(5, 2, 300, 200, 324, 200),
    SeenTile(4, 1, 600, 400, 600, 424),
)


@dataclass(frozen=True)
class Look:
    """How the table is drawn: the style, the light, the tiles' size, markers, CPU."""

    style: RenderStyle = field(default_factory=RenderStyle)
    exposure: float = 1.0
    tile_mm: tuple[float, float] = (48.0, 24.0)
    markers: bool = True
    cpu_ms: float = 30.0
    hand_on_marker: int | None = None


# what each warning's frames look like (spec/mqtt.md's codes)
FAULTS: dict[str, Look] = {
    "MARKERS_MISSING": Look(hand_on_marker=1),
    "GLARE": Look(style=RenderStyle(glare=0.6)),
    "BLUR": Look(style=RenderStyle(blur_px=2.0)),
    "DARK": Look(style=RenderStyle(lighting=Lighting.LAMP), exposure=0.25),
    "TILE_SCALE": Look(tile_mm=(60.0, 30.0)),
    "SLOW": Look(cpu_ms=180.0),
}
WELL = Look(style=RenderStyle.clean(TileStyle.IVORY))


def _tiles(length: float) -> tuple[SeenTile, ...]:
    k = length / 48.0
    return tuple(
        replace(t, xa=450 + (t.xa - 450) * k, ya=300 + (t.ya - 300) * k,
                xb=450 + (t.xb - 450) * k, yb=300 + (t.yb - 300) * k)
        for t in TILES
    )  # fmt: skip


@cache
def camera(look: Look) -> tuple[dict[str, Any], bytes]:
    """Ten frames of the table drawn so, through the camera path and its view: the
    last status payload (stamped, schema-checked) and the last snapshot."""
    # nothing saved; every still frame read (not once a second: `reread_s`), as the view
    # measures every frame, so that ten frames give each warning its readings (SLOW's 5)
    pipeline = Pipeline(PipelineSettings(reread_s=None))
    got: list[object] = []
    moment = datetime(2026, 11, 22, 20, 15, 7, tzinfo=UTC)
    quick = ViewSettings(fps=10.0, picture_every_s=0.1, measure_every_s=0.1)  # every frame
    view = CameraView(quick, pipeline, got.append, now=lambda: moment)
    scene = Scene(tiles=_tiles(look.tile_mm[0]), tile_mm=look.tile_mm, markers=look.markers)
    table = table_view(scene, None, look.style, seed=4)  # drawn once for the ten frames
    for i in range(10):
        hand = _over_marker(pipeline, look.hand_on_marker) if i >= 5 else None
        image = render_frame(scene, None, look.style, seed=4, frame=i, hand=hand,
                             exposure=look.exposure, view=table).image  # fmt: skip
        frame = Frame(image, i / 10)
        view.frame(frame, pipeline.step(frame), look.cpu_ms)
    assert any(isinstance(g, CameraReport) for g in got)
    payload = stamp(samples.TABLE, status_payload(view.facts()))
    validate("camera_status", payload)
    picture = [g for g in got if isinstance(g, CameraPicture)][-1]
    return payload, picture.jpeg


def _over_marker(pipeline: Pipeline, marker: int | None) -> Hand | None:
    """A hand lying on a marker (after the table was calibrated)."""
    if marker is None or pipeline.calibration is None:
        return None
    x, y = pipeline.calibration.corners_px[marker]
    return Hand((x - 6, y + 6), (1300.0, -60.0))
