"""Camera frames to observed tiles: the camera path of the table service.

The stages, each a subpackage: finding tiles (`tiles`), reading pips (`pips`), the
detector that runs both on one frame (`detector`), calibration (`calibration`) and the
camera path over time (`camera_path`). `frames` is what the path reads, `sources` the
real sources of frames. A simulated table's frames come from `tablesim`, which this
package never imports.

What the service uses is exported here, and the service imports nothing else of this
package (an import contract in pyproject.toml says so): the camera path (`Pipeline`),
its frames and sources, the calibration, the frame's set-up measured and judged
(`measure_frame`, `judge_frame`: markers, glare, blur, light, tile size) and the
snapshot drawn (`draw_view`, `encode_jpeg`).
"""

from __future__ import annotations

from vision.calibration.homography import Calibration, CalibrationMethod
from vision.camera_path.pipeline import Pipeline, PipelineSettings, Step, corners_from
from vision.camera_path.quality import CameraWarning
from vision.camera_path.quality import Limits as FrameLimits
from vision.camera_path.quality import Looks as FrameLooks
from vision.camera_path.quality import judge as judge_frame
from vision.camera_path.quality import measure as measure_frame
from vision.camera_path.settled import UnreadableSpot
from vision.camera_path.view import ViewParts, draw_view, encode_jpeg
from vision.detector.settings import Settings as DetectorSettings
from vision.enrolment.mat_enrol import MatEnrolment
from vision.errors import CalibrationError, MarkersMissingError, VisionError
from vision.frames import Frame, FrameSource, SourceError
from vision.set_model.model import SHEET_COLUMNS, SetModel
from vision.sources import DeviceSource, make_source
from vision.tiles.dark_marks import Tone

__all__ = [
    "SHEET_COLUMNS",
    "Calibration",
    "CalibrationError",
    "CalibrationMethod",
    "CameraWarning",
    "DetectorSettings",
    "DeviceSource",
    "Frame",
    "FrameLimits",
    "FrameLooks",
    "FrameSource",
    "MarkersMissingError",
    "MatEnrolment",
    "Pipeline",
    "PipelineSettings",
    "SetModel",
    "SourceError",
    "Step",
    "Tone",
    "UnreadableSpot",
    "ViewParts",
    "VisionError",
    "corners_from",
    "draw_view",
    "encode_jpeg",
    "judge_frame",
    "make_source",
    "measure_frame",
]
