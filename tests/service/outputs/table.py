"""A table core with the outputs on its bus: tiles laid on its surface as a board reports
them, every device message recorded as the broker would pass it on (and checked against
the spec), every phrase the voice is given kept in order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from config.outputs import AwtrixSettings, WledSettings
from engine import Tile, rulesets
from engine.geometry import Placer
from engine.inputs import NewGame
from engine.surface import SeenTile, Snapshot
from service.core import commands as cmd
from service.core.table import TableConfig, TableCore
from service.core.table_events import Recorded, StateChanged
from service.outputs.awtrix import AwtrixOutput
from service.outputs.base import Output
from service.outputs.voice import Phrase, VoiceOutput
from service.outputs.wled import WledOutput
from service.store.journal import Journal
from tests.fixtures.spec import validate
from tests.service.outputs.device_schema import check, kind_of

AWTRIX = "awtrix_5f2a1c"
WLED = "wled/t1"
NAMES = ("Ximena", "Bo", "Carla", "Dev")


class Devices:
    """The table's MQTT link as the outputs use it: what each device would receive."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes, bool]] = []

    def publish_device(self, topic: str, payload: bytes, *, keep: bool) -> None:
        if payload:  # an empty payload deletes the clock's app
            check(kind_of(topic, AWTRIX, WLED) or "", payload)
        self.sent.append((topic, payload, keep))

    def on(self, topic: str) -> list[dict[str, Any]]:
        return [json.loads(p) if p else {} for t, p, _ in self.sent if t == topic]

    def apps(self) -> list[dict[str, Any]]:
        return self.on(f"{AWTRIX}/custom/domino")

    def notes(self) -> list[dict[str, Any]]:
        return self.on(f"{AWTRIX}/notify")

    def strips(self) -> list[list[tuple[bool, tuple[int, ...]]]]:
        return [
            [(s["on"], tuple(s["col"][0])) for s in body["seg"]] for body in self.on(f"{WLED}/api")
        ]


class Heard:
    """The voice's phrases as given, in order (the speaking thread is tested apart)."""

    def __init__(self) -> None:
        self.phrases: list[Phrase] = []
        self.closed = False

    def say(self, phrase: Phrase) -> None:
        self.phrases.append(phrase)

    def close(self) -> None:
        self.closed = True

    def texts(self) -> list[str]:
        return [p.text for p in self.phrases]


def text_of(app: dict[str, Any]) -> str:
    return "".join(f["t"] for f in app["text"])


def colours_of(app: dict[str, Any]) -> list[tuple[str, str]]:
    """Each fragment's text (stripped) and colour."""
    return [(f["t"].strip(), f["c"]) for f in app["text"]]


class Table:
    """A table core, its outputs on its bus, and the tiles on its surface."""

    def __init__(
        self, state_dir: Path, *, seats: int = 4, teams: tuple[int, ...] = (), **config: Any
    ) -> None:
        config.setdefault("names", NAMES[:seats])
        self.journal = Journal(state_dir, "t1")
        self.clock = 100.0  # the core's clock: an illegal tile's grace time passes in `look`
        self.core = TableCore(
            TableConfig(table="t1", seats=seats, **config),
            self.journal,
            rulesets.load,
            clock=lambda: self.clock,
        )
        self.devices = Devices()
        self.heard = Heard()
        segments = tuple((30 * s, 30 * s + 30) for s in range(seats))
        self.outputs: list[Output] = [
            AwtrixOutput(AwtrixSettings(prefix=AWTRIX), self.devices),
            WledOutput(WledSettings(topic=WLED, seats=segments), self.devices),
            VoiceOutput(self.heard),
        ]
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.core.bus.subscribe(Recorded, self._recorded)
        self.core.bus.subscribe(StateChanged, self._state)
        for output in self.outputs:
            output.subscribe(self.core.bus)
        self.core.start()
        if teams:  # partners are set by a new game (the settings' teams do the same)
            c = self.core.config
            game = NewGame(rules=c.rules, seats=seats, names=c.names or None, teams=teams,
                           target=c.target, language=c.language)  # fmt: skip
            partners = cmd.GameCommand("partners", game)
            self.command(partners)
        self.placer = Placer(900, 600)
        self.surface: list[SeenTile] = []

    def _recorded(self, recorded: Recorded) -> None:
        for event in recorded.events:  # what the outputs are fed: the spec's payloads
            validate(event.kind, event.payload)
            self.events.append((event.kind, event.payload))

    def _state(self, changed: StateChanged) -> None:
        validate("state", {"v": 1, "table": "t1", "ts": "2026-11-29T10:00:00.000Z",
                           **changed.payload})  # fmt: skip

    def lay(self, text: str, to: str | None = None) -> None:
        game = self.core.game
        assert game is not None and self.core.reconciler is not None
        tile, end = Tile.parse(text), None
        if to is not None:
            node = game.layout.index_of(Tile.parse(to))
            end = next(e for e in game.layout.ends if e.node == node and tile.has(e.pip))
        placed = [p for p in self.core.reconciler.placed() if p is not None]
        self.surface.append(self.placer.place(game.layout, placed, tile, end))
        self.look()

    def lay_at(self, seen: SeenTile) -> None:
        self.surface.append(seen)
        self.look()

    def lift(self, text: str) -> None:
        self.surface = [s for s in self.surface if s.tile != Tile.parse(text)]
        self.look()

    def look(self) -> None:
        """The surface seen, then held still past the grace time an illegal tile has."""
        self.clock += 0.5
        self.core.observe(Snapshot(tuple(self.surface), at=self.clock))
        self.clock += 2.0
        self.core.tick()

    def command(self, command: cmd.Command) -> None:
        assert self.core.command(command) is None

    def close(self) -> None:
        for output in self.outputs:
            output.stop()
        self.journal.close()
