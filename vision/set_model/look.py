"""The set reader as one of the detector's frame looks (`vision.detector.looks`).

`SetLook(reader)` runs after the detector's own looks: each tile read is read again
half by half against the players' set, and the set's tiles the looks before it
missed are found (`vision.set_model.reader.SetReader`). `Detection.looks` records
what it changed under its name, `set-model`; it searches no pass of its own, so
the frame's budget never stops it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from vision.detector.detect import FrameView
from vision.detector.planes import Found
from vision.set_model.reader import SetReader
from vision.trace import Grain

__all__ = ["SetLook"]


@dataclass(frozen=True, slots=True, eq=False)
class SetLook:
    """Every half read against the enrolled set, and the set's missed tiles found."""

    reader: SetReader
    name: str = "set-model"
    grain: Grain = Grain.FRAME
    base: bool = False
    searches: bool = False

    def applies(self, view: FrameView, found: Found) -> bool:
        return True

    def run(self, view: FrameView, found: Found) -> Found:
        h, w = view.crop.shape[:2]
        x0, y0 = round(view.offset[0]), round(view.offset[1])
        area = None if view.area is None else view.area.corners
        width = view.tile_px or found.width
        got = self.reader.read(
            view.frame, found.tiles, found.unsure, width, (x0, y0, x0 + w, y0 + h), area,
            view.left_out,
        )  # fmt: skip
        if list(got.tiles) == found.tiles and list(got.unsure) == found.unsure:
            return found
        return replace(found, tiles=list(got.tiles), unsure=list(got.unsure))
