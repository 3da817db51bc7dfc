"""The board's surface as the host believes it: which tiles lie where.

A snapshot replaces it, a PLACE adds a tile, a LIFT removes one. Each change says
whether it fits what was believed; a change that does not fit is still applied (the
board is the truth) and the caller asks the board for a snapshot.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.tiles import Tile
from firmware_bridge.messages import TileAt


class BoardSurface:
    """Tiles on the surface by identity (a set holds each tile once), in arrival order."""

    def __init__(self, tiles: Iterable[TileAt] = ()) -> None:
        self._tiles: dict[Tile, TileAt] = {}
        self.replace(tiles)

    def replace(self, tiles: Iterable[TileAt]) -> str | None:
        """Take a snapshot; a reason when it names a tile twice."""
        self._tiles = {}
        doubt = None
        for tile in tiles:
            if tile.tile in self._tiles:
                doubt = f"snapshot names {tile.tile} twice"
            self._tiles[tile.tile] = tile
        return doubt

    def place(self, tile: TileAt) -> str | None:
        """Add a tile; a reason when it was believed to lie elsewhere already."""
        old = self._tiles.pop(tile.tile, None)
        self._tiles[tile.tile] = tile
        if old is not None:
            return f"{tile} placed but {old} was never lifted"
        return None

    def lift(self, tile: TileAt) -> str | None:
        """Remove a tile; a reason when it was not believed to lie there."""
        old = self._tiles.pop(tile.tile, None)
        if old is None:
            return f"{tile} lifted but it was not on the surface"
        if not old.same_place(tile):
            return f"{tile} lifted but it lay at {old}"
        return None

    def tiles(self) -> tuple[TileAt, ...]:
        return tuple(self._tiles.values())

    def __len__(self) -> int:
        return len(self._tiles)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoardSurface) and set(self.tiles()) == set(other.tiles())

    __hash__ = None  # type: ignore[assignment]
