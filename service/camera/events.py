"""What the camera's view hands the service (through `submit`), and what the service
asks of it: plain values, no OpenCV.

- `CameraReport`: the camera's status (`camera/status`), to publish in the table's
  language;
- `CameraPicture`: a snapshot (`camera/snapshot`), JPEG bytes;
- `CameraAnswer`: the answer to a `snapshot`, `calibrate` or `enrol` command, for its
  reply;
- `CameraRequest`: such a command, for the camera's thread.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from service.camera.status import CameraFacts

__all__ = ["CameraAnswer", "CameraAsk", "CameraPicture", "CameraReport", "CameraRequest"]


@dataclass(frozen=True, slots=True)
class CameraReport:
    facts: CameraFacts


@dataclass(frozen=True, slots=True, eq=False)
class CameraPicture:
    jpeg: bytes

    def __repr__(self) -> str:
        return f"CameraPicture({len(self.jpeg)} bytes)"


@dataclass(frozen=True, slots=True)
class CameraAnswer:
    """`error` None: done; `detail` goes into the reply's `detail`."""

    command_id: str
    error: str | None
    detail: dict[str, Any] | None = None


class CameraAsk(enum.StrEnum):
    SNAPSHOT = "snapshot"
    CALIBRATE = "calibrate"
    ENROL = "enrol"


@dataclass(frozen=True, slots=True)
class CameraRequest:
    """`set_name`: the set to enrol (`double-six`, ...), and `mat`: it lies on the
    enrolment mat; for `enrol` only."""

    ask: CameraAsk
    command_id: str
    set_name: str = ""
    mat: bool = False
