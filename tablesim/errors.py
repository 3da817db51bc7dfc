"""The root of every error the simulated table raises.

Callers catch `TableSimError` at the boundary; each module raises a subclass that says
what went wrong. A frame source made from a simulation raises `vision.frames.SourceError`
instead, as every frame source does.
"""

from __future__ import annotations


class TableSimError(Exception):
    """Something in the simulated table failed: a scene, a game, its players."""


class RenderError(TableSimError, ValueError):
    """A synthetic scene that cannot be drawn (bad size, unknown pips, no tiles)."""


class SimulationError(TableSimError, ValueError):
    """The simulation cannot go on: its own table refused what a player did or said (a
    fault of the simulation, not of the table it feeds), or it was given nothing to play."""
