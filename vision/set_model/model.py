"""The set model: what the camera learned of the players' own set, kept in the state
directory (`set.json`) and used in play.

Enrolment (the mat, or the whole set laid loose) measures the set and keeps:

- how the detector makes its tiles bright (`tone`, or the faces' colour `face`);
- its colours: the faces', the pips' of each number, the divider's;
- its tile's size (mm on a calibrated frame, pixels in the enrolment's frame), its pips'
  size (mm, and as a share of the tile's width) and shape (how round they are);
- a crop of every half at its known number (`halves`, `vision.set_model.halves`),
  and the crops of halves a player corrected later (at most `CORRECTED_PER_NUMBER` a
  number, the oldest dropped first).

The file carries its format's `version`. Version 1 (the set's look before set models:
no version field, no halves) is read, and used for the tone and the tile size; a
version this code does not know is refused with a sentence. It is written whole or
not at all (`vision.state_file.write_json`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np
from numpy.typing import NDArray

from engine.tiles import DominoSet, TileError
from vision.detector.settings import Settings
from vision.errors import VisionError
from vision.set_model.halves import CROP, HalfMatcher
from vision.set_model.reader import SET_READING, SetReader, SetReading
from vision.state_file import write_json
from vision.tiles.dark_marks import Tone

__all__ = [
    "CORRECTED_PER_NUMBER",
    "MODEL_FILE",
    "VERSION",
    "Half",
    "ModelError",
    "SetModel",
    "load_model",
]

MODEL_FILE: Final = "set.json"
VERSION: Final = 2
# the enrolment mat cuts each half with the half centres a tile's width apart (its
# slots are read straight, `vision.enrolment.mat_read`): the reader cuts a frame's
# halves alike (`SetReader.cut`)
MAT_CUT: Final = 1.0
CORRECTED_PER_NUMBER: Final = 4  # corrected crops kept per number (the newest)
SHEET_COLUMNS: Final = 16
Colour = tuple[float, float, float]  # B, G, R
U8 = NDArray[np.uint8]


class ModelError(VisionError):
    """A set model could not be read or written."""


@dataclass(frozen=True, slots=True, eq=False)
class Half:
    """One half's crop (`CROP` px a side, BGR, the divider at its foot) at its number;
    `corrected`: learned from a player's correction rather than at enrolment."""

    value: int
    crop: U8
    corrected: bool = False


@dataclass(frozen=True, slots=True, eq=False)
class SetModel:
    """What the camera knows of the players' set."""

    domino_set: DominoSet
    at: datetime  # when it was enrolled (UTC)
    tone: Tone  # how its tiles are made bright (`vision.tiles.dark_marks.tone_image`) ...
    face: Colour | None = None  # ... or by their faces' colour (coloured plastic)
    face_bgr: Colour = (0.0, 0.0, 0.0)
    pip_bgr: Mapping[int, Colour] = field(default_factory=dict)
    divider_bgr: Colour | None = None
    tile_px: float = 0.0  # the tile's width in the enrolment's frame
    tile_mm: tuple[float, float] | None = None  # (length, width), measured
    pip_mm: float | None = None  # a pip's diameter
    pip_share: float | None = None  # ... over the tile's width
    pip_round: float | None = None  # how much of its enclosing circle a pip fills
    source: str = "set"  # "mat": the enrolment mat; "set": the set laid loose
    halves: tuple[Half, ...] = ()

    # --- use ------------------------------------------------------------------------------

    def detector(self, settings: Settings) -> Settings:
        """`settings` reading this set: its tone (and faces' colour) instead of guessing."""
        return replace(settings, tone=self.tone, face=self.face)

    def matcher(self) -> HalfMatcher | None:
        """The set's halves to compare a half with (None: no crop of some number)."""
        values = {h.value for h in self.halves}
        if not values >= set(range(self.domino_set.max_pip + 1)):
            return None
        return HalfMatcher([(h.value, h.crop) for h in self.halves])

    def reader(self, settings: SetReading = SET_READING) -> SetReader | None:
        """What reads a frame's tiles as this set's (`vision.set_model.reader`), or
        None without a crop of every number."""
        matcher = self.matcher()
        if matcher is None:
            return None
        shape = 2.0 if self.tile_mm is None else self.tile_mm[0] / self.tile_mm[1]
        return SetReader(
            matcher,
            [(h.value, h.crop) for h in self.halves],
            self.domino_set.max_pip,
            complete=True,
            face=self.face_bgr if self.halves else None,
            pip_share=self.pip_share,
            shape=shape,
            cut=MAT_CUT if self.source == "mat" else None,
            settings=settings,
        )

    def learned(self, value: int, crop: U8) -> SetModel:
        """This model with a corrected half's crop: at most `CORRECTED_PER_NUMBER` of
        each number are kept, the oldest dropped first."""
        if crop.shape != (CROP, CROP, 3):
            raise ModelError(f"a half's crop must be {CROP}x{CROP} BGR, not {crop.shape}")
        corrected = [h for h in self.halves if h.corrected and h.value == value]
        drop = set(map(id, corrected[: max(0, len(corrected) + 1 - CORRECTED_PER_NUMBER)]))
        kept = tuple(h for h in self.halves if id(h) not in drop)
        return replace(self, halves=(*kept, Half(value, crop.copy(), corrected=True)))

    def summary(self) -> dict[str, Any]:
        """What the Camera page shows of the model (no crops)."""
        return {
            "version": VERSION,
            "source": self.source,
            "tone": self.tone.value,
            "face": _hex(self.face_bgr),
            "pips": {str(n): _hex(c) for n, c in sorted(self.pip_bgr.items())},
            "divider": None if self.divider_bgr is None else _hex(self.divider_bgr),
            "tile_mm": None if self.tile_mm is None else [round(v, 1) for v in self.tile_mm],
            "pip_mm": None if self.pip_mm is None else round(self.pip_mm, 1),
            "pip_share": None if self.pip_share is None else round(self.pip_share, 3),
            "pip_round": None if self.pip_round is None else round(self.pip_round, 2),
            "halves": len(self.halves),
            "corrected": sum(h.corrected for h in self.halves),
        }

    def sheet(self) -> tuple[bytes, list[int], list[bool]]:
        """Every half's crop on one PNG, `SHEET_COLUMNS` a row, in order: the PNG, each
        crop's number and whether it was corrected."""
        rows = max(1, -(-len(self.halves) // SHEET_COLUMNS))
        sheet = np.full((rows * CROP, SHEET_COLUMNS * CROP, 3), 255, dtype=np.uint8)
        for i, half in enumerate(self.halves):
            r, c = divmod(i, SHEET_COLUMNS)
            sheet[r * CROP : (r + 1) * CROP, c * CROP : (c + 1) * CROP] = half.crop
        ok, png = cv2.imencode(".png", sheet)
        if not ok:
            raise ModelError("the set's halves could not be drawn as a PNG")
        return (
            bytes(png.tobytes()),
            [h.value for h in self.halves],
            [h.corrected for h in self.halves],
        )

    # --- the file -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        png, values, corrected = self.sheet()
        return {
            "version": VERSION,
            "set": str(self.domino_set),
            "at": self.at.isoformat(),
            "source": self.source,
            "tone": self.tone.value,
            "face": None if self.face is None else _rounded(self.face),
            "face_bgr": _rounded(self.face_bgr),
            "pip_bgr": {str(n): _rounded(c) for n, c in sorted(self.pip_bgr.items())},
            "divider_bgr": None if self.divider_bgr is None else _rounded(self.divider_bgr),
            "tile_px": round(self.tile_px, 2),
            "tile_mm": None if self.tile_mm is None else [round(v, 2) for v in self.tile_mm],
            "pip_mm": _maybe(self.pip_mm, 2),
            "pip_share": _maybe(self.pip_share, 4),
            "pip_round": _maybe(self.pip_round, 3),
            "halves": {
                "crop_px": CROP,
                "columns": SHEET_COLUMNS,
                "values": values,
                "corrected": corrected,
                "png": base64.b64encode(png).decode("ascii") if self.halves else "",
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SetModel:
        """Raises `ModelError` naming what is wrong (a newer version: refused)."""
        version = data.get("version", 1)
        if not isinstance(version, int) or version < 1:
            raise ModelError(f"version {version!r} is no set model's version")
        if version > VERSION:
            raise ModelError(
                f"written by a newer domino-table (set model version {version}; this one "
                f"reads versions 1 to {VERSION}): enrol the set again, or update this table"
            )
        try:
            face = data.get("face")
            tile_mm = data.get("tile_mm")
            divider = data.get("divider_bgr")
            halves = _halves(data["halves"]) if version >= 2 else ()
            return cls(
                domino_set=DominoSet.named(data["set"]),
                at=datetime.fromisoformat(data["at"]),
                tone=Tone(data["tone"]),
                face=_colour(face) if face is not None else None,
                face_bgr=_colour(data.get("face_bgr", (0, 0, 0))),
                pip_bgr={int(n): _colour(c) for n, c in dict(data.get("pip_bgr", {})).items()},
                divider_bgr=None if divider is None else _colour(divider),
                tile_px=float(data.get("tile_px", 0.0)),
                tile_mm=None if tile_mm is None else (float(tile_mm[0]), float(tile_mm[1])),
                pip_mm=_float(data.get("pip_mm")),
                pip_share=_float(data.get("pip_share")),
                pip_round=_float(data.get("pip_round")),
                source=str(data.get("source", "set")),
                halves=halves,
            )
        except (KeyError, TypeError, ValueError, IndexError, TileError, cv2.error) as exc:
            raise ModelError(f"not a set model ({exc!r})") from exc

    def save(self, directory: str | Path) -> Path:
        """Write `set.json` into `directory`, whole or not at all; returns its path."""
        path = Path(directory) / MODEL_FILE
        try:
            write_json(path, self.to_json())
        except OSError as exc:
            raise ModelError(f"could not save the set model to {path}: {exc}") from exc
        return path


def load_model(directory: str | Path) -> SetModel | None:
    """The model kept in `directory`, or None when no set was enrolled there; `ModelError`
    when the file is there but cannot be used (its sentence says what to do)."""
    path = Path(directory) / MODEL_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ModelError(f"could not read {path}: {exc}") from exc
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise TypeError("not a JSON object")
        return SetModel.from_json(data)
    except (json.JSONDecodeError, TypeError) as exc:
        raise ModelError(f"{path}: not a set model ({exc}): enrol the set again") from exc
    except ModelError as exc:
        raise ModelError(f"{path}: {exc}") from exc


def _halves(data: Mapping[str, Any]) -> tuple[Half, ...]:
    values = [int(v) for v in data.get("values", [])]
    if not values:
        return ()
    crop = int(data.get("crop_px", CROP))
    columns = int(data.get("columns", SHEET_COLUMNS))
    if crop != CROP:
        raise ValueError(f"halves of {crop} px; this table compares {CROP} px crops")
    corrected = [bool(v) for v in data.get("corrected", [False] * len(values))]
    raw = np.frombuffer(base64.b64decode(data["png"]), dtype=np.uint8)
    sheet = cv2.imdecode(raw, cv2.IMREAD_COLOR)
    if sheet is None or sheet.shape[1] != columns * crop:
        raise ValueError("the halves' picture is damaged")
    out = []
    for i, value in enumerate(values):
        r, c = divmod(i, columns)
        piece = sheet[r * crop : (r + 1) * crop, c * crop : (c + 1) * crop]
        if piece.shape != (crop, crop, 3):
            raise ValueError("the halves' picture holds fewer crops than it names")
        out.append(Half(value, np.ascontiguousarray(piece, dtype=np.uint8), corrected[i]))
    return tuple(out)


def _colour(value: Any) -> Colour:
    b, g, r = (float(v) for v in value)
    return (b, g, r)


def _rounded(c: Colour) -> list[float]:
    return [round(v, 1) for v in c]


def _maybe(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _hex(c: Colour) -> str:
    b, g, r = (max(0, min(255, round(v))) for v in c)
    return f"#{r:02x}{g:02x}{b:02x}"


def crops_from(pairs: Sequence[tuple[int, U8]]) -> tuple[Half, ...]:
    """Enrolment's crops as the model's halves."""
    return tuple(Half(v, np.ascontiguousarray(c, dtype=np.uint8)) for v, c in pairs)
