"""The simulated table through a camera: its scenes rendered as frames, with hands passing.

`SimSource` is a `vision.frames.FrameSource` over a `tablesim.scenes.SimGame`: each
scene rendered by `tablesim.render.render_sequence`, a hand reaching in to lay the next
tile, and the players' commands given as that hand reaches in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from tablesim.render import Camera, RenderStyle, Scene, SequenceFrame, render_sequence
from tablesim.scenes import SimGame, sim_game
from vision.frames import ClosingSource, Frame, SourceError

__all__ = ["SimSource"]


class SimSource(ClosingSource):
    """Frames of a simulated game (`sim_game`), rendered with hands passing.

    Each play stays on the table for `pace_s` seconds (`fps` frames a second, stamped
    `i / fps`); a hand reaches in over `hand_frames` frames to lay the next tile.
    `tell`, if given, is called with each command the players would give (who led,
    passes, draws; with an `id`) as the hand reaches for the next tile, so a table fed by this
    source can attribute the plays. The frames show the game's own surface and tiles
    (`game.size_mm`, `game.tile_mm`) in `style` (the set, the table, the light) through
    an overhead camera of `resolution`.
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
        resolution: tuple[int, int] = (1280, 960),
    ) -> None:
        self.game = game if game is not None else sim_game(seed=seed)
        if not self.game.scenes:
            raise SourceError("the simulated game has no plays to show")
        self.name = f"sim {self.game.rules} seed {self.game.seed}"
        self.fps = float(fps)
        self.tell = tell
        self._told_upto = -1  # the scene whose commands have been given
        self._resting = -1  # the scene of the last frame without a hand
        self._said = 0
        table = Scene(size_mm=self.game.size_mm, tile_mm=self.game.tile_mm)
        self.style = style or RenderStyle()
        self._frames: Iterator[SequenceFrame] = render_sequence(
            [list(s) for s in self.game.scenes],
            self.style,
            seed,
            camera=Camera.overhead(table.size_mm, resolution, margin_mm=table.margin_mm),
            template=table,
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
        """Give scene i's commands once its still frames are over: as the next hand
        reaches in. A hand in view belongs to the pass leaving the scene last seen without
        one, even once the table under it shows the next scene (the hand's tile is down
        but not yet seen by the camera: its play comes before the commands that follow
        it)."""
        if item.hand_visible:
            leaving = self._resting
        else:
            leaving = item.scene_index - 1
            self._resting = item.scene_index
        while self._told_upto < leaving:
            self._told_upto += 1
            for body in self.game.told[self._told_upto]:
                self._said += 1
                if self.tell is not None:
                    self.tell({"id": f"sim-{self.game.seed}-{self._said}", **body})

    def close(self) -> None:
        self._done = True
