"""Synthetic camera frames of a domino table, with their ground truth.

`render_frame` draws one frame of a `Scene` (tiles in table millimetres) as a
`Camera` sees it, in a `RenderStyle`, and returns the BGR image with the pixel
positions of every tile half, pip and marker (`Truth`). The same seed gives the same
frame; `frame` (the index in a sequence) changes only the sensor noise.
`render_sequence` plays a game out as frames, with hands passing between placements.

This module is the renderer's public face; the work is done in `vision.render_*`.
"""

from __future__ import annotations

from vision.render_draw import render_frame
from vision.render_pips import pip_layout
from vision.render_scene import (
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
from vision.render_sequence import SequenceFrame, render_sequence
from vision.render_styles import Lighting, RenderStyle, Surface, TileStyle

__all__ = [
    "Camera",
    "FaceDownTile",
    "FaceDownTruth",
    "Hand",
    "Lighting",
    "MarkerTruth",
    "RenderStyle",
    "Rendered",
    "Scene",
    "SequenceFrame",
    "Surface",
    "TileStyle",
    "TileTruth",
    "Truth",
    "pip_layout",
    "render_frame",
    "render_sequence",
]
