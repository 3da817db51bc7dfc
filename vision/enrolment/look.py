"""An enrolled set's look, kept in the state directory (`set.json`) and used for every
later frame.

`SetLook` says which set it is and when it was enrolled, how its tiles were made
bright for the search (`tone`, and `face`: the faces' colour of a coloured set), the
colours measured (faces, pips by number) and the tile's size (its width in pixels in
the enrolment's frame, its length and width in mm when that frame was calibrated).
`detector(settings)` is the detector's settings for this set.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from engine.tiles import DominoSet, TileError
from vision.detector.settings import Settings
from vision.errors import VisionError
from vision.state_file import write_json
from vision.tiles.dark_marks import Tone

__all__ = ["LOOK_FILE", "LookError", "SetLook", "load_look"]

LOOK_FILE: Final = "set.json"
Colour = tuple[float, float, float]  # B, G, R


class LookError(VisionError):
    """An enrolled set's look could not be read or written."""


@dataclass(frozen=True, slots=True)
class SetLook:
    """What a set looks like to the camera, measured when it was enrolled."""

    domino_set: DominoSet
    at: datetime  # when it was enrolled (UTC)
    tone: Tone  # how its tiles are made bright (`vision.tiles.dark_marks.tone_image`) ...
    face: Colour | None = None  # ... or by their faces' colour (coloured plastic)
    face_bgr: Colour = (0.0, 0.0, 0.0)  # the faces' colour measured
    pip_bgr: Mapping[int, Colour] = field(default_factory=dict)  # pips' colour by number
    tile_px: float = 0.0  # the tile's width in the enrolment's frame, px
    tile_mm: tuple[float, float] | None = None  # (length, width) on a calibrated frame

    def detector(self, settings: Settings) -> Settings:
        """`settings` reading this set: its tone (and faces' colour) instead of guessing."""
        return replace(settings, tone=self.tone, face=self.face)

    def to_json(self) -> dict[str, Any]:
        return {
            "set": str(self.domino_set),
            "at": self.at.isoformat(),
            "tone": self.tone.value,
            "face": _rounded(self.face) if self.face is not None else None,
            "face_bgr": _rounded(self.face_bgr),
            "pip_bgr": {str(n): _rounded(c) for n, c in sorted(self.pip_bgr.items())},
            "tile_px": round(self.tile_px, 2),
            "tile_mm": None if self.tile_mm is None else [round(v, 2) for v in self.tile_mm],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SetLook:
        """Raises `LookError` naming what is wrong."""
        try:
            face = data.get("face")
            tile_mm = data.get("tile_mm")
            return cls(
                domino_set=DominoSet.named(data["set"]),
                at=datetime.fromisoformat(data["at"]),
                tone=Tone(data["tone"]),
                face=_colour(face) if face is not None else None,
                face_bgr=_colour(data.get("face_bgr", (0, 0, 0))),
                pip_bgr={int(n): _colour(c) for n, c in dict(data.get("pip_bgr", {})).items()},
                tile_px=float(data.get("tile_px", 0.0)),
                tile_mm=None if tile_mm is None else (float(tile_mm[0]), float(tile_mm[1])),
            )
        except (KeyError, TypeError, ValueError, IndexError, TileError) as exc:
            raise LookError(f"not an enrolled set's look ({exc!r})") from exc

    def save(self, directory: str | Path) -> Path:
        """Write `set.json` into `directory` (atomically); returns its path."""
        path = Path(directory) / LOOK_FILE
        try:
            write_json(path, self.to_json())
        except OSError as exc:
            raise LookError(f"could not save the enrolled set to {path}: {exc}") from exc
        return path


def load_look(directory: str | Path) -> SetLook | None:
    """The look kept in `directory`, or None when no set was enrolled there; `LookError`
    when the file is there but unreadable (enrol the set again)."""
    path = Path(directory) / LOOK_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LookError(f"could not read {path}: {exc}") from exc
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise TypeError("not a JSON object")
        return SetLook.from_json(data)
    except (json.JSONDecodeError, TypeError, LookError) as exc:
        raise LookError(f"{path}: {exc}: enrol the set again") from exc


def _colour(value: Any) -> Colour:
    b, g, r = (float(v) for v in value)
    return (b, g, r)


def _rounded(c: Colour) -> list[float]:
    return [round(v, 1) for v in c]
