"""The camera as a service source: online at the first frame, offline when frames stop
or the camera cannot be opened, online again when they come back."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from config.loader import load_settings
from config.settings import Settings
from service.camera.frame_sources import SourceRequest
from service.camera.source import CameraSource, CameraStatus
from vision.sources import FolderSource


def settings(tmp_path: Path, source: int | str) -> Settings:
    return load_settings(
        None,
        {"camera.source": source, "camera.fps": 20, "state.dir": str(tmp_path / "state")},
    )


class Inbox:
    def __init__(self) -> None:
        self.items: list[object] = []
        self.cond = threading.Condition()

    def submit(self, item: object) -> None:
        with self.cond:
            self.items.append(item)
            self.cond.notify_all()

    def wait(self, test: Callable[[list[object]], bool], timeout: float = 10.0) -> None:
        with self.cond:
            assert self.cond.wait_for(lambda: test(self.items), timeout), self.items

    def statuses(self) -> list[CameraStatus]:
        return [i for i in self.items if isinstance(i, CameraStatus)]


def test_frames_that_stop_make_the_camera_offline_and_back(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    image = np.full((120, 160, 3), 90, dtype=np.uint8)
    cv2.imwrite(str(frames / "a.png"), image)
    inbox = Inbox()

    def source(_: SourceRequest) -> FolderSource:
        return FolderSource(frames, 20, loop=True)

    with CameraSource(settings(tmp_path, str(frames)), inbox.submit, source=source, offline_s=0.3):
        inbox.wait(lambda items: CameraStatus(True, f"folder {frames}") in items)
        shutil.copy(frames / "a.png", tmp_path / "keep.png")
        (frames / "a.png").write_bytes(b"gone")  # the camera gives nothing now
        inbox.wait(lambda items: any(not s.online for s in inbox.statuses()))
        offline = next(s for s in inbox.statuses() if not s.online)
        assert "no frames for 0.3 s" in offline.detail
        shutil.copy(tmp_path / "keep.png", frames / "a.png")
        inbox.wait(lambda items: len(inbox.statuses()) == 3)
    assert [s.online for s in inbox.statuses()] == [True, False, True]


def test_a_camera_that_cannot_be_opened_is_offline_and_tried_again(tmp_path: Path) -> None:
    inbox = Inbox()
    camera = CameraSource(settings(tmp_path, 63), inbox.submit, retry_s=0.2)
    camera.start()
    try:
        inbox.wait(bool)
        time.sleep(0.5)  # tried again, still nothing: one status only
    finally:
        camera.close()
        camera.close()
    [status] = inbox.statuses()
    assert not status.online and "camera 63: cannot be opened" in status.detail
