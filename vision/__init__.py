"""Camera frames to observed tiles: the camera path of the table service.

The stages, each a subpackage: finding tiles (`tiles`), reading pips (`pips`), the
detector that runs both on one frame (`detector`), calibration (`calibration`) and the
camera path over time (`camera_path`). `frames` is what the path reads, `sources` the
real sources of frames. A simulated table's frames come from `tablesim`, which this
package never imports.

What the service uses is exported here.
"""

from __future__ import annotations

from vision.camera_path.pipeline import Pipeline, PipelineSettings, Step, corners_from
from vision.camera_path.settled import UnreadableSpot
from vision.detector.settings import Settings as DetectorSettings
from vision.errors import VisionError
from vision.frames import Frame, FrameSource, SourceError
from vision.sources import DeviceSource, make_source
from vision.tiles.dark_marks import Tone

__all__ = [
    "DetectorSettings",
    "DeviceSource",
    "Frame",
    "FrameSource",
    "Pipeline",
    "PipelineSettings",
    "SourceError",
    "Step",
    "Tone",
    "UnreadableSpot",
    "VisionError",
    "corners_from",
    "make_source",
]
