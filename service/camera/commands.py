"""The commands about the camera (`snapshot`, `calibrate`, `enrol`), by command type.

`TableService` adds these handlers to its dispatch: `without_camera` on every table
(each answered at once: this table has no camera), `with_camera` over them on a table
with one (`snapshot`, `calibrate` and `enrol` go to the camera's thread, which answers
with a `CameraAnswer`; `enrol` without a `set` enrols the set of the game in play, or
of the table's ruleset). Every answer becomes an `Answered` on the table's bus, which
the MQTT publisher turns into the reply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from service.camera.events import CameraAnswer, CameraAsk, CameraRequest
from service.core import commands as cmd
from service.core.table_events import Answered

__all__ = ["NO_CAMERA", "with_camera", "without_camera"]

Handlers = dict[type[Any], Callable[[Any], None]]
NO_CAMERA = "This table has no camera ([camera] enabled = false in its settings)."


class Asks(Protocol):
    """What takes the camera's commands (`service.camera.CameraSource`)."""

    def ask(self, request: CameraRequest) -> None: ...


def without_camera(answer: Callable[[Answered], None]) -> Handlers:
    """Handlers that refuse the camera's commands: no camera here."""

    def refuse(command: cmd.Command) -> None:
        answer(Answered(command.id, NO_CAMERA))

    return {cmd.SnapshotNow: refuse, cmd.Calibrate: refuse, cmd.Enrol: refuse}


def with_camera(
    camera: Asks, answer: Callable[[Answered], None], set_in_play: Callable[[], str]
) -> Handlers:
    """Handlers that hand `snapshot`, `calibrate` and `enrol` to the camera, and turn its
    answers into replies. `set_in_play` names the set `enrol` reads when not told."""

    def enrol(command: cmd.Enrol) -> None:
        name = command.set_name or set_in_play()
        camera.ask(CameraRequest(CameraAsk.ENROL, command.id, name, command.mat))

    return {
        cmd.SnapshotNow: lambda c: camera.ask(CameraRequest(CameraAsk.SNAPSHOT, c.id)),
        cmd.Calibrate: lambda c: camera.ask(CameraRequest(CameraAsk.CALIBRATE, c.id)),
        cmd.Enrol: enrol,
        CameraAnswer: lambda a: answer(Answered(a.command_id, a.error, a.detail)),
    }
