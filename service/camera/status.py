"""The `camera/status` payload of spec/mqtt.md, and its warnings in words.

`CameraFacts` is what the camera knows about itself at one moment (made on the camera's
thread by `service.camera.view`); `status_payload(facts, language)` writes it as the
payload (without the envelope), each warning with a sentence in the table's language
that says what was measured and what to do about it. No OpenCV here.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from mqttweb.envelope import utc_ts

__all__ = [
    "CalibrationFacts",
    "CameraFacts",
    "CameraState",
    "Warned",
    "status_payload",
    "warning_text",
]


class CameraState(enum.StrEnum):
    """`camera/status` `state`."""

    OK = "ok"  # frames arrive and the camera is calibrated
    UNCALIBRATED = "uncalibrated"
    MOVING = "moving"  # no still frame for 10 s or more
    OFFLINE = "offline"  # no frames


@dataclass(frozen=True, slots=True)
class Warned:
    """One warning: its code (spec/mqtt.md's) and the figures its sentence names."""

    code: str
    figures: Mapping[str, float | str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CalibrationFacts:
    method: str = "none"  # markers, manual, none
    markers_seen: tuple[int, ...] = ()
    error_px: float | None = None
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class CameraFacts:
    """The camera at one moment. `read_ms` is (p50, p95) or Nones; `profile` (set,
    when enrolled) and `model`, its set model summed up (colours, sizes, halves kept:
    `profile.model`, beside the spec's `set` and `at`); `reading` (when, tiles,
    unsure) of the latest settled reading."""

    state: CameraState
    frame: tuple[int, int] | None = None
    calibration: CalibrationFacts = field(default_factory=CalibrationFacts)
    fps: float = 0.0
    read_ms: tuple[float | None, float | None] = (None, None)
    profile: tuple[str, datetime] | None = None
    reading: tuple[datetime, int, int] | None = None
    warnings: tuple[Warned, ...] = ()
    model: Mapping[str, Any] | None = None  # the enrolled set's model, summed up

    def key(self) -> tuple[Any, ...]:
        """What a change of is published at once (the rest waits for the 10 s beat)."""
        cal = self.calibration
        codes = tuple(w.code for w in self.warnings)
        return (self.state, self.frame, cal.method, cal.markers_seen, cal.at, codes, self.profile)


def status_payload(facts: CameraFacts, language: str = "en") -> dict[str, Any]:
    """`camera/status` without `v`, `table`, `ts` (the envelope adds them)."""
    cal = facts.calibration
    p50, p95 = facts.read_ms
    frame = facts.frame
    profile = facts.profile
    reading = facts.reading
    return {
        "state": facts.state.value,
        "frame": None if frame is None else {"width": frame[0], "height": frame[1]},
        "calibration": {
            "method": cal.method,
            "markers_seen": list(cal.markers_seen),
            "error_px": None if cal.error_px is None else round(cal.error_px, 2),
            "at": _ts(cal.at),
        },
        "fps": round(facts.fps, 1),
        "read_ms": {"p50": _ms(p50), "p95": _ms(p95)},
        "profile": None
        if profile is None
        else {"set": profile[0], "at": _ts(profile[1])}
        | ({} if facts.model is None else {"model": dict(facts.model)}),
        "reading": None
        if reading is None
        else {"at": _ts(reading[0]), "tiles": reading[1], "unsure": reading[2]},
        "warnings": [
            {"code": w.code, "message": warning_text(w, language)} for w in facts.warnings
        ],
    }


def _ts(at: datetime | None) -> str | None:
    return None if at is None else utc_ts(at)


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


# --- the words -------------------------------------------------------------------------------

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "MARKERS_MISSING": (
            "Corner marker {missing} not in view (seen: {seen}): lay all four on the play "
            "area's corners, flat, uncovered and in the camera's view, then press Calibrate."
        ),
        "GLARE": (
            "Glare washes out {percent} % of the play area (around {x}, {y}): move or dim the "
            "lamp, or tilt the camera, until its reflection is off the table."
        ),
        "BLUR": (
            "The picture is blurred (edges {px} px wide; up to {limit} px reads well): focus "
            "the camera on the table and fix it so it cannot shake."
        ),
        "DARK": (
            "Too dark: the brightest parts of the table reach {level} of 255 (at least {limit} "
            "is needed): light the table more, or raise the camera's exposure."
        ),
        "TILE_SCALE": (
            "The tiles look {seen} mm long, the settings say {configured} mm: measure a tile "
            "(table.tile_mm) and the play area between marker centres (table.surface)."
        ),
        "SLOW": (
            "Reading a frame takes {ms} ms, but {fps} frames a second leave {period} ms for "
            "each: lower camera.fps, or the camera's resolution."
        ),
    },
    "es": {
        "MARKERS_MISSING": (
            "No se ve el marcador de esquina {missing} (vistos: {seen}): ponga los cuatro en "
            "las esquinas de la zona de juego, planos, destapados y a la vista de la cámara, "
            "y pulse Calibrar."
        ),
        "GLARE": (
            "Un reflejo borra el {percent} % de la zona de juego (hacia {x}, {y}): mueva o "
            "atenúe la lámpara, o incline la cámara, hasta que el reflejo salga de la mesa."
        ),
        "BLUR": (
            "La imagen está borrosa (bordes de {px} px; hasta {limit} px se lee bien): enfoque "
            "la cámara sobre la mesa y fíjela para que no tiemble."
        ),
        "DARK": (
            "Demasiado oscuro: lo más claro de la mesa llega a {level} de 255 (hace falta "
            "{limit}): ilumine más la mesa o suba la exposición de la cámara."
        ),
        "TILE_SCALE": (
            "Las fichas parecen de {seen} mm de largo y la configuración dice {configured} mm: "
            "mida una ficha (table.tile_mm) y la zona de juego entre los centros de los "
            "marcadores (table.surface)."
        ),
        "SLOW": (
            "Leer una imagen tarda {ms} ms, pero {fps} imágenes por segundo dejan {period} ms "
            "para cada una: baje camera.fps o la resolución de la cámara."
        ),
    },
}


def warning_text(warned: Warned, language: str = "en") -> str:
    """One sentence for a warning, in `language` (English when it has none)."""
    words = _WORDS.get(language, _WORDS["en"])
    template = words.get(warned.code)
    if template is None:
        return warned.code
    return template.format_map({k: _figure(v) for k, v in warned.figures.items()})


def _figure(value: float | str) -> str:
    if isinstance(value, str):
        return value
    return f"{value:.0f}" if abs(value) >= 10 or float(value).is_integer() else f"{value:.1f}"
