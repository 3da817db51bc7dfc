"""`[camera]` settings reach the camera path: the set's tone decides what is read, the
marker size what calibration checks, and a device path opens a device."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import pytest

from config.loader import load_settings
from config.settings import CameraSourceKind, CameraTone, Settings
from demo.sim_camera import SimOptions, frames
from engine import rulesets
from engine.surface import SeenTile, Snapshot
from service.camera import source as cam
from service.camera.frame_sources import SourceRequest
from service.camera.source import CameraSource
from tablesim.camera import SimSource
from tablesim.render import (
    Camera,
    RenderStyle,
    Scene,
    Surface,
    TileStyle,
    render_frame,
    table_view,
)
from tablesim.scenes import sim_game
from vision.frames import SourceError
from vision.sources import CameraOpenError, FolderSource
from vision.tiles.dark_marks import Tone

TILES = (
    SeenTile(6, 6, 450, 288, 450, 312),
    SeenTile(6, 3, 474, 300, 498, 300),
    SeenTile(2, 1, 150, 120, 150, 144),
    SeenTile(5, 0, 760, 500, 784, 500),
)
CAMERA = Camera.overhead((900, 600), keystone=0.04, rotation_deg=2)


def settings(tmp_path: Path, **camera: object) -> Settings:
    overrides = {f"camera.{k}": v for k, v in camera.items()}
    return load_settings(None, {"state.dir": str(tmp_path / "state"), **overrides})


def still_frames(folder: Path, style: RenderStyle, n: int = 5) -> Path:
    """`n` frames of a still table with TILES on it, as PNG files."""
    folder.mkdir()
    scene = Scene(tiles=TILES)
    table = table_view(scene, CAMERA, style, seed=5)  # drawn once for the n frames
    for i in range(n):
        image = render_frame(scene, CAMERA, style, seed=5, frame=i, view=table).image
        cv2.imwrite(str(folder / f"{i:03d}.png"), image)
    return folder


def read_once(camera_settings: Settings, frames: Path) -> list[Snapshot]:
    """Every snapshot the camera source submits while it reads the folder once."""
    got: list[object] = []
    lock = threading.Lock()

    def submit(item: object) -> None:
        with lock:
            got.append(item)

    def source(_: SourceRequest) -> FolderSource:
        return FolderSource(frames, 20)

    camera = CameraSource(camera_settings, submit, source=source, paced=False)
    with camera:
        assert camera.join(60), "the folder was not read to its end"
    return [s for s in got if isinstance(s, Snapshot)]


def tiles_of(snapshots: list[Snapshot]) -> set[str]:
    return {str(t.tile) for s in snapshots for t in s.tiles}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("style", "right", "wrong"),
    [
        (TileStyle.BLACK, "dark", "light"),
        (TileStyle.IVORY, "light", "dark"),
    ],
)
def test_the_tone_setting_decides_which_sets_are_read(
    tmp_path: Path, style: TileStyle, right: str, wrong: str
) -> None:
    frames = still_frames(tmp_path / "frames", RenderStyle(tiles=style, surface=Surface.GREEN_FELT))
    want = {str(t.tile) for t in TILES}
    assert tiles_of(read_once(settings(tmp_path / "a", tone=right), frames)) == want
    assert tiles_of(read_once(settings(tmp_path / "b", tone="auto"), frames)) == want
    # Told the other tone, the detector looks for the wrong marks: none of these tiles.
    assert not tiles_of(read_once(settings(tmp_path / "c", tone=wrong), frames)) & want


def test_tone_and_marker_size_reach_the_pipeline(tmp_path: Path) -> None:
    for tone, expected in [("light", Tone.LIGHT), ("dark", Tone.DARK), ("grey", Tone.GREY)]:
        camera = CameraSource(settings(tmp_path, tone=tone, marker_mm=55), lambda _: None)
        assert camera.pipeline.settings.detector.tone is expected
        assert camera.pipeline.settings.marker_mm == 55.0
    auto = CameraSource(settings(tmp_path, tone="auto"), lambda _: None)
    assert auto.pipeline.settings.detector.tone is None  # light and dark both
    assert auto.pipeline.settings.tile_mm == (48.0, 24.0)
    assert set(cam.TONES) == set(CameraTone)


def test_the_tables_tile_size_reaches_the_pipeline(tmp_path: Path) -> None:
    """The size the calibrated reader lays its tiles by is the table's `tile_mm`."""
    given = load_settings(
        None,
        {"state.dir": str(tmp_path / "state"), "table.tile_mm.length": 40,
         "table.tile_mm.width": 20},
    )  # fmt: skip
    camera = CameraSource(given, lambda _: None)
    assert camera.pipeline.settings.tile_mm == (40.0, 20.0)


def test_camera_sources_by_kind(tmp_path: Path) -> None:
    kinds: dict[object, CameraSourceKind] = {
        0: CameraSourceKind.DEVICE,
        "/dev/video2": CameraSourceKind.DEVICE,
        "/dev/v4l/by-id/usb-Logitech_C920-video-index0": CameraSourceKind.DEVICE,
        "picamera": CameraSourceKind.PICAMERA,
        "sim": CameraSourceKind.SIM,
    }
    for source, kind in kinds.items():
        assert settings(tmp_path, source=source).camera.source_kind is kind
    # A device path goes to OpenCV as a device (there is none here: it says which path).
    make = CameraSource(settings(tmp_path, source="/dev/video63"), lambda _: None)._make
    with pytest.raises(CameraOpenError, match="/dev/video63 exists"):
        make()


def test_the_simulated_camera_plays_the_tables_own_rules_and_seats(tmp_path: Path) -> None:
    walnut = load_settings(
        None,
        {
            "state.dir": str(tmp_path / "state"),
            "table.rules": "walnut",
            "table.seats": 4,
            "camera.source": "sim",
        },
    )
    made = CameraSource(
        walnut, lambda _: None, source=frames(SimOptions(seed=7, pace_s=0.3))
    )._make()
    assert isinstance(made, SimSource)
    game = made.game
    assert (game.rules, game.seats, game.seed) == ("walnut", 4, 7)
    assert game.plays[0]["seat"] in range(4)
    # the same hand as the engine plays it for that seed: the table will agree with it
    assert game == sim_game("walnut", 4, 7)
    made.close()
    # a house's own ruleset file is not one the simulation knows: said, not guessed
    rules = tmp_path / "house.toml"
    rules.write_text(rulesets.text("walnut").replace('"walnut"', '"house"'))
    house = load_settings(
        None,
        {"state.dir": str(tmp_path / "s2"), "table.rules": str(rules), "camera.source": "sim"},
    )
    with pytest.raises(SourceError, match="only the shipped rulesets"):
        CameraSource(house, lambda _: None)._make()
