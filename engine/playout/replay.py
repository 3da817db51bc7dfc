"""The events of a played-out hand, from its journal."""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import Event
from engine.game import Game
from engine.record import DrawInput, PassInput, PlayInput


def replay_events(game: Game, inputs: Sequence[PlayInput | PassInput | DrawInput]) -> list[Event]:
    """Feed a hand's journal (`hand_inputs()` of a game dealt the same way) to `game`,
    judged as the table's inputs are: the events the hand makes."""
    events: list[Event] = []
    for action in inputs:
        if isinstance(action, PlayInput):
            judged = game.play(action.tile, action.where)
        elif isinstance(action, PassInput):
            judged = game.pass_turn()
        else:
            judged = game.draw(count=action.tiles)
        if not judged.ok:
            raise ValueError(f"{action} refused: {judged.reason.value}")
        events.extend(judged.events)
    return events
