"""What the camera sees, measured on rendered frames: each warning shows on a frame
drawn with that fault and not on the same table drawn well (markers missing, glare,
blur, dark, tiles of another size than configured)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.surface import SeenTile
from tablesim.render import Hand, Lighting, RenderStyle, Scene, Surface, TileStyle, render_frame
from vision.calibration.homography import CalibrationMethod
from vision.camera_path.pipeline import Pipeline, PipelineSettings
from vision.camera_path.quality import CameraWarning, Limits, Looks, judge, measure
from vision.detector.settings import Settings
from vision.frames import Frame
from vision.tiles.dark_marks import Tone

W = CameraWarning


def layout(length: float = 48.0) -> tuple[SeenTile, ...]:
    """Five tiles of `length` mm: a double crosswise with a tile on its side, three apart."""
    h = length / 2
    return (
        SeenTile(6, 6, 450, 300 - h / 2, 450, 300 + h / 2),
        SeenTile(6, 3, 450 + h, 300, 450 + 2 * h, 300),
        SeenTile(5, 2, 300, 200, 300 + h, 200),
        SeenTile(4, 1, 600, 400, 600, 400 + h),
        SeenTile(3, 0, 200, 450, 200 + h, 450),
    )


TONES = {TileStyle.BLACK: Tone.DARK, TileStyle.WOOD: Tone.GREY}


def seen(
    scene: Scene,
    style: RenderStyle,
    *,
    exposure: float = 1.0,
    settings: PipelineSettings | None = None,
    seed: int = 3,
) -> tuple[Looks, Pipeline]:
    """The table read through the camera path (four still frames), then measured."""
    settings = settings or PipelineSettings(
        detector=Settings(tone=TONES.get(TileStyle(style.tile_set.name), Tone.LIGHT))
    )
    pipeline = Pipeline(settings)
    step = None
    for i in range(4):
        image = render_frame(scene, None, style, seed=seed, frame=i, exposure=exposure).image
        step = pipeline.step(Frame(image, i / 10))
    assert step is not None and step.reading is not None  # a still table is read
    looks = measure(
        image,
        calibration=pipeline.calibration,
        reading=step.reading,
        detection=step.detection,
        tile_mm=settings.tile_mm,
    )
    return looks, pipeline


def warnings(looks: Looks, pipeline: Pipeline) -> tuple[CameraWarning, ...]:
    cal = pipeline.calibration
    tile_mm = pipeline.settings.tile_mm
    return judge(looks, tile_mm=tile_mm, calibration=cal.method if cal is not None else None)


WELL_DRAWN = [
    RenderStyle(tiles=TileStyle.IVORY, surface=Surface.GREEN_FELT, lighting=Lighting.DAYLIGHT),
    RenderStyle(tiles=TileStyle.BLACK, surface=Surface.WOOD, lighting=Lighting.LAMP),
    RenderStyle(tiles=TileStyle.COLOURED, surface=Surface.WHITE_CLOTH, lighting=Lighting.LAMP),
    RenderStyle(tiles=TileStyle.WOOD, surface=Surface.DARK_GLOSSY, lighting=Lighting.DAYLIGHT),
]


@pytest.mark.slow
@pytest.mark.parametrize("style", WELL_DRAWN, ids=lambda s: f"{s.tiles}-{s.surface}-{s.lighting}")
def test_a_table_drawn_well_gives_no_warning(style: RenderStyle) -> None:
    looks, pipeline = seen(Scene(tiles=layout()), style)
    assert pipeline.calibration is not None
    assert looks.markers_seen == (0, 1, 2, 3)
    assert warnings(looks, pipeline) == ()
    assert looks.tile_length_mm is not None and abs(looks.tile_length_mm - 48) < 48 * 0.1


@pytest.mark.slow
@pytest.mark.parametrize("surface", [Surface.GREEN_FELT, Surface.WHITE_CLOTH, Surface.DARK_GLOSSY])
def test_glare_shows_where_the_lamp_is_reflected(surface: Surface) -> None:
    scene = Scene(tiles=layout())
    plain = RenderStyle(surface=surface)
    glaring = RenderStyle(surface=surface, glare=0.6)
    looks, pipeline = seen(scene, glaring, seed=5)
    assert W.GLARE in warnings(looks, pipeline)
    assert looks.glare_share > Limits().glare_share
    # the spot is where the glaring frame is brighter than the same frame without glare
    lit = render_frame(scene, None, glaring, seed=5).image.astype(np.int16)
    dim = render_frame(scene, None, plain, seed=5).image.astype(np.int16)
    y, x = np.unravel_index(int(np.argmax((lit - dim).sum(axis=2))), lit.shape[:2])
    assert pipeline.calibration is not None and looks.glare_at is not None
    bx, by = pipeline.calibration.px_to_mm((float(x), float(y)))
    assert math.dist(looks.glare_at, (float(bx), float(by))) < 60
    without, again = seen(scene, plain, seed=5)
    assert W.GLARE not in warnings(without, again)


@pytest.mark.slow
def test_the_harsh_lamp_glares() -> None:
    looks, pipeline = seen(Scene(tiles=layout()), RenderStyle.harsh(TileStyle.IVORY))
    assert W.GLARE in warnings(looks, pipeline)


@pytest.mark.slow
def test_a_blurred_frame_and_a_sharp_one() -> None:
    scene = Scene(tiles=layout())
    blurred, pipeline = seen(scene, RenderStyle(blur_px=2.0))
    assert pipeline.calibration is not None  # the markers are still read
    assert W.BLUR in warnings(blurred, pipeline)
    assert blurred.blur_px is not None and blurred.blur_px > blurred.blur_limit_px
    sharp, again = seen(scene, RenderStyle(blur_px=1.0))
    assert W.BLUR not in warnings(sharp, again)
    assert sharp.blur_px is not None and sharp.blur_px < blurred.blur_px - 0.5


@pytest.mark.slow
def test_a_dark_frame_and_a_dim_one_that_still_reads() -> None:
    scene = Scene(tiles=layout())
    dark, pipeline = seen(scene, RenderStyle(lighting=Lighting.LAMP), exposure=0.25)
    assert W.DARK in warnings(dark, pipeline)
    assert dark.white_level < Limits().dark_level
    dim, again = seen(scene, RenderStyle(lighting=Lighting.LAMP), exposure=0.7)  # a cloud
    assert W.DARK not in warnings(dim, again)


@pytest.mark.slow
@pytest.mark.parametrize(("length", "width"), [(60.0, 30.0), (36.0, 18.0)])
def test_tiles_of_another_size_than_configured(length: float, width: float) -> None:
    scene = Scene(tiles=layout(length), tile_mm=(length, width))
    looks, pipeline = seen(scene, RenderStyle())  # configured: 48 x 24 mm
    assert W.TILE_SCALE in warnings(looks, pipeline)
    assert looks.tile_length_mm is not None and abs(looks.tile_length_mm - length) < length * 0.1
    told, again = seen(scene, RenderStyle(), settings=PipelineSettings(tile_mm=(length, width)))
    assert W.TILE_SCALE not in warnings(told, again)


def test_no_markers_in_view() -> None:
    looks, pipeline = seen(Scene(tiles=layout(), markers=False), RenderStyle())
    assert pipeline.calibration is None
    assert looks.markers_seen == () and looks.markers_missing == (0, 1, 2, 3)
    assert warnings(looks, pipeline) == (W.MARKERS_MISSING,)


def test_a_marker_covered_is_missing_and_named() -> None:
    scene = Scene(tiles=layout())
    looks, pipeline = seen(scene, RenderStyle())
    assert pipeline.calibration is not None and looks.markers_missing == ()
    corner = pipeline.calibration.corners_px[1]
    hand = Hand(tip=(corner[0] - 10, corner[1] + 10), entry=(1300.0, -50.0))
    image = render_frame(scene, None, RenderStyle(), seed=3, hand=hand).image
    covered = measure(image, calibration=pipeline.calibration)
    assert covered.markers_missing == (1,)
    assert W.MARKERS_MISSING in judge(covered, calibration=CalibrationMethod.MARKERS)
    # a table calibrated by corners set by hand needs no markers
    assert W.MARKERS_MISSING not in judge(covered, calibration=CalibrationMethod.MANUAL)
