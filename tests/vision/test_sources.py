"""Frame sources: a folder read in name order, bad files skipped by name, and clear
errors for cameras that are not there (a simulated game's frames:
tests/tablesim/test_camera.py)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.frames import SourceError, frames
from vision.sources import (
    CameraOpenError,
    DeviceSource,
    FolderSource,
    PiCameraMissingError,
    PiCameraSource,
    make_source,
)


def grey(value: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
    return np.full((48, 64, 3), value, dtype=np.uint8)


def test_a_folder_is_read_in_name_order_and_stamped_by_fps(tmp_path: Path) -> None:
    for name, value in (("frame-003.png", 30), ("frame-001.png", 10), ("frame-002.jpg", 20)):
        cv2.imwrite(str(tmp_path / name), grey(value))
    (tmp_path / "notes.txt").write_text("not a frame")
    with FolderSource(tmp_path, fps=4) as source:
        got = frames(source)
        assert source.finished and source.read() is None
    assert [int(f.image.mean().round()) for f in got] == [10, 20, 30]
    assert [f.at for f in got] == [0.0, 0.25, 0.5]


def test_a_bad_file_is_named_and_skipped(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), grey(10))
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8 this is no jpeg")
    cv2.imwrite(str(tmp_path / "c.png"), grey(30))
    with caplog.at_level(logging.WARNING), FolderSource(tmp_path, fps=10) as source:
        got = frames(source)
    assert [int(f.image.mean().round()) for f in got] == [10, 30]
    assert len(source.skipped) == 1 and "b.jpg" in source.skipped[0]
    assert any("b.jpg" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)


def test_a_folder_without_images_or_no_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="holds no images"):
        FolderSource(tmp_path)
    with pytest.raises(SourceError, match="not a folder"):
        FolderSource(tmp_path / "nowhere")
    with pytest.raises(SourceError, match="not a camera source"):
        make_source(str(tmp_path / "nowhere"))


def test_close_is_idempotent_and_a_closed_source_gives_nothing(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), grey(10))
    source = FolderSource(tmp_path, loop=True)
    assert source.read() is not None and source.read() is not None  # loops
    source.close()
    source.close()
    assert source.finished and source.read() is None


def test_sim_is_no_source_of_the_camera_path() -> None:
    """`sim` is the simulated table's (`tablesim.camera.SimSource`), not a real source."""
    with pytest.raises(SourceError, match=r"tablesim\.camera\.SimSource"):
        make_source("sim")


def test_a_camera_that_is_not_there_is_named() -> None:
    with pytest.raises(CameraOpenError, match=r"camera 63: cannot be opened.*/dev/video63"):
        DeviceSource(63)
    with pytest.raises(CameraOpenError, match="camera 63"):
        make_source("63")


def test_the_pi_camera_without_picamera2_says_what_to_install() -> None:
    with pytest.raises(PiCameraMissingError, match="python3-picamera2") as caught:
        PiCameraSource()
    assert isinstance(caught.value, ImportError)
    assert "picamera" in str(caught.value)
