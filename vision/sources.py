"""Where real camera frames come from: a device, the Pi camera, a folder of images.

Each is a `vision.frames.FrameSource` (read the next `Frame` or None, `finished`,
`close()` any number of times). `make_source(spec, fps)` turns the command line's
SOURCE (a device index or path, a folder, or `picamera`) into a source. A simulated
table's frames come from `tablesim.camera.SimSource` (the service makes it for
`camera.source = "sim"`).
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.frames import ClosingSource, Frame, FrameSource, SourceError

__all__ = [
    "IMAGE_SUFFIXES",
    "CameraOpenError",
    "DeviceSource",
    "FolderSource",
    "PiCameraMissingError",
    "PiCameraSource",
    "make_source",
]

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


class CameraOpenError(SourceError, OSError):
    """A camera device could not be opened."""


class PiCameraMissingError(SourceError, ImportError):
    """The Pi camera's library (picamera2) is not installed."""


# --- a camera device (V4L2, USB) -----------------------------------------------------------


class DeviceSource(ClosingSource):
    """A camera through OpenCV (`cv2.VideoCapture(index)`).

    `read()` gives None when the camera gives no frame; after `reopen_after` failures in
    a row the device is released and opened again (at most once a second), so a camera
    that was unplugged and plugged back in comes back by itself.
    """

    def __init__(
        self,
        index: int | str,
        *,
        size: tuple[int, int] | None = None,
        reopen_after: int = 5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.index = index
        self.name = f"camera {index}"
        self.size = size
        self.reopen_after = reopen_after
        self._clock = clock
        self._failures = 0
        self._last_open = 0.0
        self._closed = False
        self._cap: cv2.VideoCapture | None = self._open()
        if self._cap is None:
            raise CameraOpenError(
                f"{self.name}: cannot be opened: check that it is plugged in, that "
                f"{_device_path(index)} exists and that this user may read it (group video)"
            )

    @property
    def finished(self) -> bool:
        return self._closed

    def _open(self) -> cv2.VideoCapture | None:
        self._last_open = self._clock()
        cap = cv2.VideoCapture(self.index)
        if not cap.isOpened():
            cap.release()
            return None
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a stale queue
        if self.size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        return cap

    def read(self) -> Frame | None:
        if self._closed:
            return None
        if self._cap is None:
            if self._clock() - self._last_open < 1.0:
                return None
            self._cap = self._open()
            if self._cap is None:
                return None
            log.info("%s: opened again", self.name)
        ok, image = self._cap.read()
        if not ok or image is None or image.size == 0:
            self._failures += 1
            if self._failures >= self.reopen_after:
                log.warning("%s: no frames, opening it again", self.name)
                self._cap.release()
                self._cap = None
                self._failures = 0
            return None
        self._failures = 0
        return Frame(np.asarray(image, dtype=np.uint8), self._clock())

    def close(self) -> None:
        self._closed = True
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def _device_path(index: int | str) -> str:
    return f"/dev/video{index}" if isinstance(index, int) else str(index)


# --- the Raspberry Pi camera ---------------------------------------------------------------


class PiCameraSource(ClosingSource):
    """The Raspberry Pi camera module through picamera2 (imported only here)."""

    def __init__(
        self,
        size: tuple[int, int] = (1280, 960),
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = "pi camera"
        self._clock = clock
        try:
            module = importlib.import_module("picamera2")
        except ImportError as exc:
            raise PiCameraMissingError(
                "the Pi camera needs picamera2: install it with `sudo apt install "
                "python3-picamera2` (and make the venv with --system-site-packages): "
                "scripts/install-pi.sh does both"
            ) from exc
        try:
            self._cam: Any = module.Picamera2()
            config = self._cam.create_video_configuration(
                main={"size": tuple(size), "format": "RGB888"}
            )
            self._cam.configure(config)
            self._cam.start()
        except Exception as exc:
            raise CameraOpenError(
                f"{self.name}: cannot be started ({exc}): check the ribbon cable and "
                "that no other program uses the camera"
            ) from exc
        self._closed = False

    @property
    def finished(self) -> bool:
        return self._closed

    def read(self) -> Frame | None:
        if self._closed:
            return None
        try:
            array = self._cam.capture_array("main")
        except Exception as exc:  # the camera went away: no frame now
            log.warning("%s: no frame: %s", self.name, exc)
            return None
        # picamera2's "RGB888" is laid out B, G, R in memory: what OpenCV calls BGR.
        return Frame(
            np.ascontiguousarray(np.asarray(array, dtype=np.uint8)[:, :, :3]), self._clock()
        )

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                self._cam.stop()
                self._cam.close()
            except Exception as exc:
                log.info("%s: on close: %s", self.name, exc)


# --- a folder of images --------------------------------------------------------------------


class FolderSource(ClosingSource):
    """The images of a folder in name order, as if taken `fps` times a second.

    Frame `i` is stamped `i / fps`. A file that is not an image OpenCV can read is
    skipped with a warning naming it (kept in `skipped`).
    """

    def __init__(self, path: str | Path, fps: float = 10.0, *, loop: bool = False) -> None:
        self.path = Path(path).expanduser()
        self.name = f"folder {self.path}"
        if not self.path.is_dir():
            raise SourceError(f"{self.path} is not a folder of images")
        if fps <= 0:
            raise SourceError(f"{self.name}: fps must be above 0, got {fps}")
        self.fps = float(fps)
        self.loop = loop
        self.files = sorted(
            p for p in self.path.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
        )
        if not self.files:
            raise SourceError(
                f"{self.path} holds no images ({', '.join(IMAGE_SUFFIXES)}): "
                "put frames there or choose another source"
            )
        self.skipped: list[str] = []
        self._next = 0
        self._count = 0
        self._closed = False

    @property
    def finished(self) -> bool:
        return self._closed or (not self.loop and self._next >= len(self.files))

    def read(self) -> Frame | None:
        tries = 0
        while not self.finished and tries < len(self.files):  # one round at most
            tries += 1
            if self._next >= len(self.files):
                self._next = 0
            path = self.files[self._next]
            self._next += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None or image.size == 0:
                problem = f"{path}: not an image OpenCV can read (damaged or not an image); skipped"
                if problem not in self.skipped:
                    self.skipped.append(problem)
                    log.warning("%s: %s", self.name, problem)
                continue
            frame = Frame(np.asarray(image, dtype=np.uint8), self._count / self.fps)
            self._count += 1
            return frame
        return None

    def close(self) -> None:
        self._closed = True


# --- from the command line -----------------------------------------------------------------


def make_source(spec: int | str, fps: float = 10.0) -> FrameSource:
    """The source the command line's SOURCE names.

    A device index (`0`) or device path (`/dev/video0`) opens a camera; `picamera` the
    Pi camera; anything else must be a folder of images. `sim` is no source of this
    package: a simulated table is `tablesim.camera.SimSource`.
    """
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return DeviceSource(int(spec))
    text = spec.strip()
    if text == "sim":
        raise SourceError(
            "`sim` is a simulated table: make it with tablesim.camera.SimSource (the "
            'service does so for camera.source = "sim")'
        )
    if text in ("picamera", "pi"):
        return PiCameraSource()
    if text.startswith("/dev/video"):
        return DeviceSource(text)
    path = Path(text).expanduser()
    if not path.is_dir():
        raise SourceError(
            f"{text!r} is not a camera source: give a device index (0), a folder of "
            "images, `sim` or `picamera`"
        )
    return FolderSource(path, fps)
