"""Where camera frames come from: a device, the Pi camera, a folder of images, a simulation.

Every source is a `FrameSource`: a context manager whose `read()` returns the next
`Frame` (a BGR image and the source's clock in seconds) or None when there is none
right now, and whose `close()` may be called any number of times. `finished` tells a
source that will never give another frame (a folder read to its end, a simulated game
played out) from one that has none at the moment (a camera that stopped).

`make_source(spec, fps)` turns the command line's SOURCE (a device index, a folder,
`sim` or `picamera`) into a source.
"""

from __future__ import annotations

import importlib
import logging
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

import cv2
import numpy as np
import numpy.typing as npt

from engine import Game, Mode, Phase, rulesets
from engine.geometry import GeometryError, Placer
from engine.players import RandomPlayer
from engine.surface import SeenTile
from vision.errors import VisionError
from vision.render import RenderStyle, SequenceFrame, render_sequence

__all__ = [
    "IMAGE_SUFFIXES",
    "CameraOpenError",
    "DeviceSource",
    "FolderSource",
    "Frame",
    "FrameSource",
    "PiCameraMissingError",
    "PiCameraSource",
    "SimGame",
    "SimSource",
    "SourceError",
    "make_source",
    "sim_game",
]

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
Image = npt.NDArray[np.uint8]


class SourceError(VisionError):
    """A frame source could not be made or read."""


class CameraOpenError(SourceError, OSError):
    """A camera device could not be opened."""


class PiCameraMissingError(SourceError, ImportError):
    """The Pi camera's library (picamera2) is not installed."""


@dataclass(frozen=True, slots=True, eq=False)
class Frame:
    """One frame: a BGR image and when it was taken, in the source's clock (seconds)."""

    image: Image
    at: float

    def __repr__(self) -> str:
        h, w = self.image.shape[:2]
        return f"Frame({w}x{h}, at={self.at:.3f})"


class FrameSource(Protocol):
    """What the pipeline reads frames from."""

    name: str

    @property
    def finished(self) -> bool: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...


class _Closing:
    """Context-manager plumbing shared by the sources."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


# --- a camera device (V4L2, USB) -----------------------------------------------------------


class DeviceSource(_Closing):
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


class PiCameraSource(_Closing):
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
                "python3-picamera2` (and make the venv with --system-site-packages), "
                "or install this package with the `picamera` extra"
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


class FolderSource(_Closing):
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


# --- a simulated game ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimGame:
    """A random legal game laid out on the table, play by play.

    `scenes[i]` is every face-up tile after the `i`-th play; `told[i]` are the
    commands the players give after it (who led, passes, draws), in the MQTT command
    shape; `plays` the full game's play events as payload dicts.
    """

    rules: str
    seats: int
    seed: int
    scenes: tuple[tuple[SeenTile, ...], ...]
    told: tuple[tuple[dict[str, Any], ...], ...]
    plays: tuple[dict[str, Any], ...] = field(default=())


def sim_game(
    rules: str = "straight-block",
    seats: int = 2,
    seed: int = 0,
    *,
    plays: int | None = None,
    size_mm: tuple[float, float] = (900.0, 600.0),
) -> SimGame:
    """Play a random legal full-information hand (up to `plays` plays) and lay it out."""
    game = Game(rulesets.load(rules), seats, mode=Mode.FULL, seed=seed)
    game.start()
    player = RandomPlayer(random.Random(seed))
    placer = Placer(int(size_mm[0]), int(size_mm[1]))
    coords: list[SeenTile] = []
    scenes: list[tuple[SeenTile, ...]] = []
    told: list[list[dict[str, Any]]] = []
    events: list[dict[str, Any]] = []
    while game.phase in (Phase.LEAD, Phase.PLAY) and (plays is None or len(scenes) < plays):
        seat = game.turn
        assert seat is not None
        moves = game.legal_moves()
        if not moves:
            if game.can_draw():
                game.draw()
                told[-1].append({"action": "draw", "seat": seat})
            else:
                game.pass_turn()
                told[-1].append({"action": "pass", "seat": seat})
            continue
        move = player.choose(game, moves)
        try:
            where = placer.place(game.layout, coords, move.tile, move.end)
        except GeometryError:
            break  # the surface is full: the game shown ends here
        first = not scenes
        for event in game.push(move):
            if event.kind == "play":
                events.append(event.payload())
        coords.append(where)
        scenes.append(tuple(coords))
        told.append([{"action": "lead", "seat": seat}] if first else [])
    return SimGame(rules, seats, seed, tuple(scenes), tuple(tuple(t) for t in told), tuple(events))


class SimSource(_Closing):
    """Frames of a simulated game (`sim_game`), rendered with hands passing.

    Each play stays on the table for `pace_s` seconds (`fps` frames a second, stamped
    `i / fps`); a hand reaches in over `hand_frames` frames to lay the next tile.
    `tell`, if given, is called with each command the players would give (who led,
    passes, draws; with an `id`) as the hand reaches for the next tile, so a table fed by this
    source can attribute the plays.
    """

    def __init__(
        self,
        game: SimGame | None = None,
        *,
        fps: float = 10.0,
        pace_s: float = 1.0,
        style: RenderStyle | None = None,
        seed: int = 0,
        hand_frames: int = 6,
        exposures: Callable[[int], float] | None = None,
        tell: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.game = game if game is not None else sim_game(seed=seed)
        if not self.game.scenes:
            raise SourceError("the simulated game has no plays to show")
        self.name = f"sim {self.game.rules} seed {self.game.seed}"
        self.fps = float(fps)
        self.tell = tell
        self._told_upto = -1  # the scene whose commands have been given
        self._said = 0
        self._frames: Iterator[SequenceFrame] = render_sequence(
            [list(s) for s in self.game.scenes],
            style,
            seed,
            still_frames=max(1, round(pace_s * fps)),
            hand_frames=hand_frames,
            exposures=exposures,
        )
        self.last: SequenceFrame | None = None  # the last frame with its ground truth
        self._done = False

    @property
    def finished(self) -> bool:
        return self._done

    def read(self) -> Frame | None:
        if self._done:
            return None
        item = next(self._frames, None)
        if item is None:
            self._done = True
            return None
        self._tell(item)
        self.last = item
        return Frame(item.image, item.index / self.fps)

    def _tell(self, item: SequenceFrame) -> None:
        """Give scene i's commands once its still frames are over."""
        leaving = item.scene_index if item.hand_visible else item.scene_index - 1
        while self._told_upto < leaving:
            self._told_upto += 1
            for body in self.game.told[self._told_upto]:
                self._said += 1
                if self.tell is not None:
                    self.tell({"id": f"sim-{self.game.seed}-{self._said}", **body})

    def close(self) -> None:
        self._done = True


# --- from the command line -----------------------------------------------------------------


def make_source(spec: int | str, fps: float = 10.0, **sim: Any) -> FrameSource:
    """The source the command line's SOURCE names.

    A device index (`0`) or device path (`/dev/video0`) opens a camera; `picamera` the
    Pi camera; `sim` a simulated game (`sim` keyword arguments go to `SimSource`);
    anything else must be a folder of images.
    """
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return DeviceSource(int(spec))
    text = spec.strip()
    if text == "sim":
        return SimSource(fps=fps, **sim)
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


def frames(source: FrameSource, limit: int | None = None) -> Sequence[Frame]:
    """Every frame a finite source gives (or the first `limit`), for tests and tools."""
    out: list[Frame] = []
    while not source.finished and (limit is None or len(out) < limit):
        frame = source.read()
        if frame is not None:
            out.append(frame)
    return out
