"""Synthetic camera frames of a domino table, with their ground truth.

`render_frame` draws one frame of a `Scene` (tiles in table millimetres) as a
`Camera` sees it, in a `RenderStyle`, and returns the BGR image with the pixel
positions of every tile half, pip and marker (`Truth`). The same seed gives the same
frame; `frame` (the index in a sequence) changes only the sensor noise, so the frames
of one scene can share the table drawn once (`table_view`, given as `view=`).
`render_sequence` plays a game out as frames, with hands passing between placements.

This module is the renderer's public face; the work is done in its modules (`tablesim.render.*`).
"""

from __future__ import annotations

from tablesim.render.draw import TableView, render_frame, table_view
from tablesim.render.pip_layouts import PipLayout, pip_layout
from tablesim.render.props import Cup, Prop, Stone
from tablesim.render.scene import (
    Camera,
    FaceDownTile,
    FaceDownTruth,
    Hand,
    MarkerTruth,
    Rendered,
    Scene,
    TileTruth,
    Truth,
)
from tablesim.render.sequence import SequenceFrame, render_sequence
from tablesim.render.sets import SETS, Face, PipColour, Spinner, TileSet, plastic_set, tile_set
from tablesim.render.styles import Lighting, RenderStyle, Surface, TileStyle

__all__ = [
    "SETS",
    "Camera",
    "Cup",
    "Face",
    "FaceDownTile",
    "FaceDownTruth",
    "Hand",
    "Lighting",
    "MarkerTruth",
    "PipColour",
    "PipLayout",
    "Prop",
    "RenderStyle",
    "Rendered",
    "Scene",
    "SequenceFrame",
    "Spinner",
    "Stone",
    "Surface",
    "TableView",
    "TileSet",
    "TileStyle",
    "TileTruth",
    "Truth",
    "pip_layout",
    "plastic_set",
    "render_frame",
    "render_sequence",
    "table_view",
    "tile_set",
]
