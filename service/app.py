"""The table service: the source, the core, MQTT and the panel, joined.

Concurrency model (one rule): every thread that has news — the board's reader, paho's
network loop, gpiozero's button callbacks, the camera — calls `TableService.submit(item)`,
which puts the item on one queue. One worker thread takes items off that queue in order
and is the only caller of the `TableCore`. Publishing happens on the worker thread too,
after the journal has the change (paho's `publish` is thread-safe): the core hands
each change's typed events to the subscribers registered here at start-up (the MQTT
link, the panel, the board's LED, the log; `service.subscribers`; the lights and the voice
of `[outputs.*]`, `service.outputs`; the record of games, `service.history`, which writes
on a thread of its own).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from config.settings import Settings
from engine.alerts import AlertCode
from engine.inputs import Correct
from engine.messages import Case, message
from engine.rules import Rules
from engine.surface import Snapshot
from firmware_bridge.adapter import (
    BoardAdapter,
    BoardFault,
    BoardIdentity,
    ButtonEvent,
    LinkChanged,
)
from firmware_bridge.link import LinkSettings
from mqttweb.envelope import stamp
from service.camera.commands import without_camera
from service.core import commands as cmd
from service.core.rulesets import find_rules
from service.core.table import TableConfig, TableCore
from service.core.table_events import Answered, Spot, StateChanged
from service.devices.board import BoardSignal, command_for
from service.devices.panel import PanelDriver
from service.history import (
    HistoryAnswer,
    HistoryFrame,
    HistoryPublisher,
    HistoryRecorder,
    HistoryTrouble,
)
from service.mqtt.link import MqttLink
from service.mqtt.publisher import MqttPublisher
from service.outputs import outputs_for
from service.store.journal import Journal
from service.subscribers import EventLog, Subscriber

if TYPE_CHECKING:
    from service.camera.frame_sources import MakeFrames  # imports OpenCV: only for the type

log = logging.getLogger(__name__)

TICK_S = 0.25
HISTORY_ALERT = "history"  # the key of the alert standing while the record cannot be written


@dataclass(frozen=True)
class _Stop:
    pass


@dataclass(frozen=True)
class _Tick:
    pass


@dataclass(frozen=True)
class _FromPanel:
    """A command the panel made (a dict in the MQTT command's shape)."""

    body: dict[str, Any]


def _table_config(settings: Settings) -> TableConfig:
    """What the table core is told of its table, from the settings."""
    table = settings.table
    return TableConfig(
        table=table.id,
        rules=table.rules,
        seats=table.seats,
        names=tuple(table.names),
        target=table.target,
        language=str(table.language),
        surface=(table.surface.width_mm, table.surface.height_mm),
        tile_mm=(table.tile_mm.length, table.tile_mm.width),
        zones=tuple(sorted(settings.zones.items())),
    )


class TableService:
    """Runs one table. `start()`, then `stop()`; a context manager."""

    def __init__(
        self,
        settings: Settings,
        *,
        rules: Callable[[str], Rules] = find_rules,
        panel_factory: Callable[[TableService], Any] | None = None,
        camera_frames: MakeFrames | None = None,
    ) -> None:
        self.settings = settings
        self._camera_frames = camera_frames  # frames from elsewhere than camera.source
        table = settings.table
        state_dir = Path(settings.state.dir)  # made by the journal, durably
        self.journal = Journal(state_dir, table.id, synchronous=settings.state.synchronous.value)
        self.core = TableCore(_table_config(settings), self.journal, rules)
        self.inbox: queue.Queue[object] = queue.Queue()
        self.history = HistoryRecorder(
            state_dir,
            self.journal,
            self.submit,
            max_mb=settings.history.max_mb,
            synchronous=settings.state.synchronous.value,
            surface_mm=(table.surface.width_mm, table.surface.height_mm),
            tile_mm=(table.tile_mm.length, table.tile_mm.width),
            enabled=settings.history.enabled,
        )
        self._worker: threading.Thread | None = None
        self._state: dict[str, Any] | None = None  # the latest `state` payload, stamped
        self._table: StateChanged | None = None
        self.mqtt: MqttLink | None = None
        if settings.mqtt.enabled:
            self.mqtt = MqttLink(
                settings.mqtt,
                table.id,
                self.journal,
                state=lambda: self._state,
                on_command=self.submit,
                seats=table.seats,
                camera=settings.camera.enabled,
            )
        self.board: BoardAdapter | None = None
        if settings.serial.enabled:
            self.board = BoardAdapter(_link_settings(settings), self.submit)
        self.camera: Any = None
        if panel_factory is None and settings.panel.enabled:
            panel_factory = _gpio_panel
        self.panel = panel_factory(self) if panel_factory is not None else None
        self._handlers: dict[type[Any], Callable[[Any], None]] = {
            Snapshot: self._observe,
            _Tick: lambda _: self.core.tick(),
            LinkChanged: self._on_link,
            ButtonEvent: self._on_button,
            BoardFault: self._on_fault,
            BoardIdentity: self._on_identity,
            _FromPanel: self._on_panel,
            cmd.GameCommand: self._on_command,  # every command to the game
            cmd.HistoryAsk: self.history.ask,  # the record of games: its own thread
            cmd.FrameAsk: self.history.ask,
            HistoryAnswer: self._history_answer,
            HistoryTrouble: self._history_trouble,
            **without_camera(self.core.bus.publish),  # snapshot, calibrate, enrol: no camera
        }
        self.outputs = outputs_for(settings.outputs, self.mqtt)  # lights and a voice
        self.core.bus.subscribe(StateChanged, self._state_changed)
        for subscriber in self._subscribers():
            subscriber.subscribe(self.core.bus)
        if settings.camera.enabled:
            self._attach_camera()

    def _subscribers(self) -> list[Subscriber]:
        """The publishers of the parts this table has, and the log."""
        table = self.settings.table
        parts: list[tuple[Any, Callable[[Any], Subscriber]]] = [
            (self.mqtt, lambda link: MqttPublisher(link, table.id, table.seats)),
            (self.panel, PanelDriver),
            (self.board, BoardSignal),
        ]
        made = [publisher(part) for part, publisher in parts if part is not None]
        if self.mqtt is not None:
            made.append(HistoryPublisher(self.mqtt))
        return [EventLog(table.id), self.history, *made, *self.outputs]

    def _attach_camera(self) -> None:
        """The camera as a source (OpenCV is imported only for a table with a camera)."""
        from service.camera import events as seen  # noqa: PLC0415
        from service.camera import source as cam  # noqa: PLC0415 - `run` quick without one
        from service.camera.commands import with_camera  # noqa: PLC0415
        from service.camera.publisher import CameraPublisher  # noqa: PLC0415

        self.camera = cam.CameraSource(
            self.settings,
            self.submit,
            tell=self.submit_panel,  # a simulated table's players say what they do
            source=self._camera_frames,
        )
        table = self.settings.table
        self.camera.keep = self.history.watch_camera(  # the frames of plays, for the record
            self.camera.pipeline,
            zones={seat: tuple(map(float, rect)) for seat, rect in self.settings.zones.items()},
            tile_mm=(float(table.tile_mm.length), float(table.tile_mm.width)),
        )
        self._handlers |= {
            cam.CameraStatus: lambda s: self.core.source_status("camera", s.online, s.detail),
            cam.CameraUnreadable: self._on_unreadable,
            cam.CameraReadable: lambda _: self.core.resolve_alert("camera:unreadable"),
            seen.CameraReport: self.core.bus.publish,  # status and snapshots: to the publisher
            seen.CameraPicture: self.core.bus.publish,
            **with_camera(self.camera, self.core.bus.publish, self._set_in_play),
        }
        if self.mqtt is not None:
            language = str(self.settings.table.language)
            CameraPublisher(self.mqtt, self.settings.table.id, language).subscribe(self.core.bus)

    def _set_in_play(self) -> str:
        """The set of the game in play, else of the table's ruleset (`enrol`'s default)."""
        if self.core.game is not None:
            return str(self.core.game.set)
        table = self.settings.table
        return str(find_rules(table.rules).domino_set(table.seats))

    # --- the one way in --------------------------------------------------------------------

    def submit(self, item: object) -> None:
        """Hand news to the service from any thread."""
        self.inbox.put(item)

    def submit_panel(self, body: dict[str, Any]) -> None:
        """The panel's `submit`: a command dict from a gpiozero thread."""
        self.inbox.put(_FromPanel(dict(body)))

    # --- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        t0 = time.monotonic()
        self.history.start()
        self.core.start()
        if self.mqtt is not None:
            self.mqtt.start()
        if self.board is not None:
            self.board.start()
        self._worker = threading.Thread(target=self._run, name="table-worker", daemon=True)
        self._worker.start()
        if self.camera is not None:
            self.camera.start()
        log.info("table %s: started in %.2f s", self.settings.table.id, time.monotonic() - t0)

    def stop(self) -> None:
        if self.camera is not None:
            self.camera.close()
        if self._worker is not None:
            self.inbox.put(_Stop())
            self._worker.join(10)
            self._worker = None
        self.history.stop()  # the frames queued are written first
        for output in self.outputs:  # a clean stop: the clock's app deleted, the strip dark
            output.stop()
        if self.board is not None:
            self.board.close()
        if self.panel is not None:
            self.panel.close()
        if self.mqtt is not None:
            self.mqtt.stop()
        self.journal.close()

    def __enter__(self) -> TableService:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        while True:
            try:
                item = self.inbox.get(timeout=TICK_S)
            except queue.Empty:
                item = _Tick()
            if isinstance(item, _Stop):
                return
            try:
                self._dispatch(item)
            except Exception:
                log.exception("table %s: could not handle %r", self.settings.table.id, item)

    def _dispatch(self, item: object) -> None:
        """The handler of the item's type, or of the nearest base class that has one."""
        handler = next(
            (h for kind in type(item).__mro__ if (h := self._handlers.get(kind)) is not None),
            None,
        )
        if handler is None:
            log.debug("table: ignored %r", item)
            return
        handler(item)

    # --- handlers (worker thread) ----------------------------------------------------------

    def _on_command(self, command: cmd.GameCommand) -> None:
        try:
            error: str | None = self.core.command(command)
        except Exception as exc:  # a fault of ours: the sender still gets an answer
            log.exception("table: %s failed", command.action.value)
            error = f"The table failed on this command ({exc}): tell its maintainer."
        if error is not None:
            log.info("table: %s refused: %s", command.action.value, error)
        elif isinstance(command.told, Correct) and self.camera is not None:
            self.camera.learn(command.told.tile, command.told.actual)  # the set model learns
        self.core.bus.publish(Answered(command.id, error))

    def _on_panel(self, item: _FromPanel) -> None:
        try:
            command = cmd.parse_command(json.dumps(item.body).encode())
        except cmd.CommandError as exc:
            log.warning("panel: command refused: %s", exc)
            return
        error = self.core.command(command)
        if error is not None:
            log.info("panel: %s refused: %s", command.action.value, error)

    def _observe(self, snapshot: Snapshot) -> None:
        """A settled snapshot: the record notes it (its events are shown by it), then the
        core judges it."""
        self.history.seen(snapshot)
        self.core.observe(snapshot)

    def _history_answer(self, answer: HistoryAnswer) -> None:
        """The history's answer to `history` or `frame`: a picture first, then the reply."""
        if answer.picture is not None:
            self.core.bus.publish(HistoryFrame(answer.picture))
        self.core.bus.publish(Answered(answer.command_id, answer.error, answer.detail))

    def _history_trouble(self, trouble: HistoryTrouble) -> None:
        """The record cannot be written (a full disk): the game goes on, an alert says so."""
        if trouble.detail is None:
            self.core.resolve_alert(HISTORY_ALERT)
            return
        code = AlertCode.DISK_FULL
        language = self.core.game.language if self.core.game is not None else "en"
        text = message(Case.NOT_KEPT, language, detail=trouble.detail)
        self.core.raise_alert(HISTORY_ALERT, code, code.severity, text)

    def _on_link(self, change: LinkChanged) -> None:
        self.core.source_status("board", change.online, change.reason)

    def _on_button(self, event: ButtonEvent) -> None:
        body = command_for(event, self._table)
        log.debug("board button %d %s: %s", event.button, event.action, body)
        if body is not None:
            self._on_panel(_FromPanel(body))

    def _on_unreadable(self, spot: Any) -> None:
        """A `service.camera.CameraUnreadable`: a standing UNREADABLE warning."""
        code = AlertCode.UNREADABLE
        language = self.core.game.language if self.core.game is not None else "en"
        self.core.raise_alert(
            "camera:unreadable",
            code,
            code.severity,
            message(code, language),
            at=Spot(round(spot.x_mm), round(spot.y_mm)),
        )

    def _on_fault(self, fault: BoardFault) -> None:
        log.warning("board fault %s: %s", fault.code, fault.text)

    def _on_identity(self, identity: BoardIdentity) -> None:
        log.info(
            "board %s firmware %s (%d x %d mm)",
            identity.board_id,
            identity.firmware,
            identity.width_mm,
            identity.height_mm,
        )

    def _state_changed(self, changed: StateChanged) -> None:
        """Keep the latest state: for MQTT's (re)connects and the board's buttons."""
        self._state = stamp(self.settings.table.id, changed.payload)
        self._table = changed


def _gpio_panel(service: TableService) -> Any:
    """The players' panel on the Pi's pins (gpiozero's default pin factory)."""
    from hardware.panel import Panel  # noqa: PLC0415 - gpiozero only where a panel is wired

    return Panel(service.settings.panel, service.submit_panel)


def _link_settings(settings: Settings) -> LinkSettings:
    serial = settings.serial
    usb = None
    if serial.usb is not None:
        vendor, product = str(serial.usb).split(":")
        usb = (int(vendor, 16), int(product, 16))
    rules = find_rules(settings.table.rules)
    return LinkSettings(
        path=str(serial.port) if serial.port is not None else None,
        usb_id=usb,
        needed_max_pip=rules.domino_set(settings.table.seats).max_pip,
    )
