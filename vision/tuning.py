"""Checking a stage's settings against their bounds when they are made.

Each stage of the camera path keeps its thresholds in one frozen dataclass (the marks'
in `vision.tiles.settings.MarkSettings`, the pip counter's in
`vision.pips.settings.PipSettings`, ...), gathered by the detector's
`vision.detector.settings.Settings` and the camera path's `PipelineSettings`, as
Frigate gathers every detector threshold in typed per-stage config. A value outside
its bounds is refused when the settings are made, naming the class and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

Bounds = Mapping[str, tuple[float, float]]


def check_bounds(settings: Any, bounds: Bounds) -> None:
    """Raise ValueError naming `Class.field` for the first numeric field of `settings`
    outside its (lowest, highest) in `bounds`; a tuple field is checked item by item."""
    name = type(settings).__name__
    for f in fields(settings):
        if f.name not in bounds:
            continue
        low, high = bounds[f.name]
        value = getattr(settings, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if not low <= item <= high:
                raise ValueError(f"{name}.{f.name}: {value} is outside {low}..{high}")
