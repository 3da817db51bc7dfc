"""The root of every error the vision package raises.

Callers catch `VisionError` at the boundary (the service, the CLI); each module raises
a subclass that says what went wrong and what to do next.
"""

from __future__ import annotations


class VisionError(Exception):
    """Something in the camera path failed: a frame, a calibration."""


class CalibrationError(VisionError):
    """A calibration could not be computed, read or written."""


class MarkersMissingError(CalibrationError, LookupError):
    """Some of the four corner markers were not found in the frame."""

    def __init__(self, missing: tuple[int, ...], found: tuple[int, ...]) -> None:
        self.missing = missing
        self.found = found
        names = ", ".join(str(i) for i in missing)
        seen = ", ".join(str(i) for i in found) or "none"
        super().__init__(
            f"ArUco marker(s) {names} not found (seen: {seen}): check that all four corner "
            "markers are in view, flat, unobstructed and lit, or calibrate by four points"
        )


class CalibrationNotFoundError(CalibrationError, FileNotFoundError):
    """No saved calibration in the state directory."""
