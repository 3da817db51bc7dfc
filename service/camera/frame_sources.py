"""Frame sources by name: what `camera.source` names, made without importing what it is not.

A name is first looked up among the entry points of the group `domino_table.frame_sources`
(as gpiozero finds its pin factories, its mock one among them): the project registers
`sim` there (`demo.sim_camera`: the simulated table's games, rendered), so the service
imports no simulator, and a package can add a source of its own the same way. Anything
else is a real camera (`vision.make_source`): a device index or path, `picamera`, a
folder of images.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, cast

from config.settings import Settings
from vision import DeviceSource, FrameSource, SourceError, make_source

__all__ = ["ENTRY_POINTS", "MakeFrames", "SourceRequest", "open_frames", "registered"]

log = logging.getLogger(__name__)

ENTRY_POINTS = "domino_table.frame_sources"


@dataclass(frozen=True)
class SourceRequest:
    """What a frame source is made from: the table's settings, the frame rate asked for,
    and `tell`, which takes the commands a source's own players give (a simulated
    table's: who led, passes, draws), in the shape of an MQTT command."""

    settings: Settings
    fps: float
    tell: Callable[[dict[str, Any]], None] | None = None


MakeFrames = Callable[[SourceRequest], FrameSource]
"""Makes a frame source (raises `vision.SourceError` when it cannot be opened)."""


def registered(name: str) -> MakeFrames | None:
    """The frame source registered under `name`, or None (`SourceError` when it is
    registered but cannot be loaded)."""
    for entry in entry_points(group=ENTRY_POINTS, name=name):
        try:
            return cast("MakeFrames", entry.load())
        except (ImportError, AttributeError) as exc:
            raise SourceError(
                f"camera.source = {name!r}: its frame source {entry.value} cannot be loaded "
                f"({exc}): reinstall domino-table"
            ) from exc
    return None


def open_frames(request: SourceRequest) -> FrameSource:
    """The frame source `camera.source` names (`SourceError` when it cannot be opened)."""
    spec = request.settings.camera.source
    if isinstance(spec, str):
        make = registered(spec)
        if make is not None:
            log.info("camera: %r is a registered frame source", spec)
            return make(request)
        if spec == "sim":
            raise SourceError(
                'camera.source = "sim": no frame source is registered under that name '
                f"(entry points {ENTRY_POINTS}): reinstall domino-table (pip install .), "
                "whose demo registers the simulated table there"
            )
        if spec.startswith("/dev/"):
            return DeviceSource(spec)  # also a stable /dev/v4l/by-id/... link
    return make_source(spec, request.fps)
