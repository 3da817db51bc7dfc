"""The rules of dominoes as a pure library: standard library only, no I/O, no threads.

Start with `engine.rulesets.load("walnut")` and `engine.game.Game`.
"""

from engine.events import (
    AlertEvent,
    Coords,
    DrawEvent,
    Event,
    GameEvent,
    HandEvent,
    HandResult,
    Judgement,
    LeadEvent,
    PassEvent,
    PlayEvent,
    Reason,
    Termination,
    UndoEvent,
)
from engine.game import (
    DrawInput,
    Game,
    HandInput,
    HandRecord,
    Mode,
    Move,
    PassInput,
    Phase,
    PlayInput,
    Target,
)
from engine.layout import Edge, EdgeKind, Layout, OpenEnd
from engine.rules import Rules, RulesError
from engine.tiles import DominoSet, Tile, TileError

__all__ = [
    "AlertEvent",
    "Coords",
    "DominoSet",
    "DrawEvent",
    "DrawInput",
    "Edge",
    "EdgeKind",
    "Event",
    "Game",
    "GameEvent",
    "HandEvent",
    "HandInput",
    "HandRecord",
    "HandResult",
    "Judgement",
    "Layout",
    "LeadEvent",
    "Mode",
    "Move",
    "OpenEnd",
    "PassEvent",
    "PassInput",
    "Phase",
    "PlayEvent",
    "PlayInput",
    "Reason",
    "Rules",
    "RulesError",
    "Target",
    "Termination",
    "Tile",
    "TileError",
    "UndoEvent",
]
