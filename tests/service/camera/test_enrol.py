"""Set enrolment over MQTT, on the fake broker, with rendered frames through the real
camera path: `enrol` reads the next still frame as the whole set and replies with its
detail; the set's look is kept in the state directory (camera/status names the set)
and reads every later frame, also after a restart; while the set lies there, nothing
reaches the referee."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import numpy as np
import pytest

from config.loader import load_settings
from config.settings import Settings
from engine.surface import SeenTile
from engine.tiles import DominoSet
from service.app import TableService
from tablesim.render import Camera, RenderStyle, Scene, Surface, TileStyle, render_frame
from tests.fixtures.mqtt_fake import FakeBroker
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.service_process import send
from tests.service.camera.test_mqtt import reply_to, statuses
from tests.vision.whole_sets import render_set
from vision.frames import Frame

P = "domino/t1"
BLACK_ON_WOOD = RenderStyle(TileStyle.BLACK, Surface.WOOD)
LATER = ((6, 6), (6, 3), (2, 5))  # three tiles laid later: [a, b] sorted
TRUTH = sorted(sorted(v) for v in LATER)


class Showing:
    """A camera that shows whatever image the test puts before it (`show`)."""

    name = "the test's camera"

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.shown = 0
        self._lock = threading.Lock()

    def show(self, image: np.ndarray) -> None:
        with self._lock:
            self.image = image

    @property
    def finished(self) -> bool:
        return False

    def read(self) -> Frame | None:
        with self._lock:
            self.shown += 1
            return Frame(self.image.copy(), time.monotonic())

    def close(self) -> None:
        pass

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def settings_for(broker: FakeBroker, state: Path) -> Settings:
    return load_settings(
        None,
        {
            "table.id": "t1",
            "table.rules": "straight-block",
            "table.seats": 2,
            "serial.enabled": False,
            "camera.enabled": True,
            "camera.tone": "light",  # what a table of ivory tiles is set up with
            "camera.source": 0,  # never opened: the test gives the frames
            "mqtt.host": broker.host,
            "mqtt.port": broker.port,
            "state.dir": str(state),
        },
    )


def three_tiles() -> np.ndarray:
    tiles = tuple(SeenTile(a, b, 300.0 + 150 * i, 288.0, 300.0 + 150 * i, 312.0)
                  for i, (a, b) in enumerate(LATER))  # fmt: skip
    return render_frame(Scene(tiles=tiles), Camera.overhead(), BLACK_ON_WOOD, seed=2).image


def empty_table() -> np.ndarray:
    return render_frame(Scene(), Camera.overhead(), BLACK_ON_WOOD, seed=2).image


def until(test: Callable[[], Any], timeout: float = 60.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = test()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout:g} s: {test.__doc__ or test}")


def reading(service: TableService) -> list[list[int]] | None:
    """What the camera path read in its latest still frame."""
    last = service.camera.pipeline.last
    if last is None or last.detection is None:
        return None
    return sorted(sorted(t.pips) for t in last.detection.tiles)


def read_after(service: TableService, camera: Showing) -> list[list[int]]:
    """The reading of a still frame shown after now."""
    shown = camera.shown
    until(lambda: camera.shown > shown + 8 and reading(service) is not None)
    found = reading(service)
    assert found is not None
    return found


@pytest.mark.slow
def test_enrol_reads_the_set_keeps_its_look_and_holds_the_referee(
    mqtt_fake: FakeBroker, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    settings = settings_for(mqtt_fake, state)
    later, whole = three_tiles(), render_set(DominoSet.DOUBLE_SIX, BLACK_ON_WOOD).image
    camera = Showing(later)
    rec = Recorder(mqtt_fake.host, mqtt_fake.port, [f"{P}/camera/status", f"{P}/cmd/reply",
                                              f"{P}/event/#"])  # fmt: skip
    service = TableService(settings, camera_frames=lambda _: camera)
    service.start()
    try:
        rec.wait_for(lambda s: any(x.get("state") == "ok" for x in statuses(s)), timeout=60)
        send(mqtt_fake, {"id": "g", "action": "new_game", "rules": "straight-block", "seats": 2})
        assert reply_to(rec, "g")["ok"] is True
        assert read_after(service, camera) != TRUTH  # black tiles, read as light ones
        assert all(x["profile"] is None for x in statuses(rec.seen))

        camera.show(whole)  # read and refereed until the command comes (the race of
        # a real table too: the set laid out, then "Read the set" pressed)
        send(mqtt_fake, {"id": "e1", "action": "enrol", "set": "double-six"})
        reply = reply_to(rec, "e1", timeout=60)
        assert reply["ok"] is True and reply["error"] is None, (reply["error"], reply["detail"])
        detail = reply["detail"]
        assert {k: detail[k] for k in ("expected", "read", "missing", "misread", "extra")} == {
            "expected": 28, "read": 28, "missing": [], "misread": [], "extra": []
        }  # fmt: skip
        # the set model the table keeps: summed up, and every half as one picture
        assert detail["model"]["halves"] == 56 and detail["model"]["source"] == "set"
        assert len(detail["halves"]["values"]) == 56 and detail["halves"]["png"]
        said = rec.wait_for(lambda s: any(x["profile"] for x in statuses(s)))
        profile = next(x["profile"] for x in statuses(said) if x["profile"])
        assert profile["set"] == "double-six" and profile["at"]
        assert profile["model"]["tone"] == "dark" and profile["model"]["halves"] == 56
        assert (state / "set.json").is_file()

        # the set lies there: read, but nothing is handed to the referee
        handed = service.camera.snapshots
        events = len(on_prefix(rec, f"{P}/event/"))
        read_after(service, camera)
        assert service.camera.enrolling.holding and service.camera.snapshots == handed
        assert len(on_prefix(rec, f"{P}/event/")) == events  # no play, no alert

        camera.show(empty_table())  # the set taken away: refereeing again
        until(lambda: not service.camera.enrolling.holding)
        camera.show(later)
        until(lambda: reading(service) == TRUTH)  # read as the enrolled black set
        until(lambda: service.camera.snapshots > handed)
    finally:
        service.stop()
        rec.close()

    again = Recorder(mqtt_fake.host, mqtt_fake.port, [f"{P}/camera/status"])
    service = TableService(settings, camera_frames=lambda _: Showing(later))
    service.start()
    try:
        said = again.wait_for(lambda s: any(x.get("state") == "ok" for x in statuses(s)))
        first = next(x for x in statuses(said) if x["state"] == "ok")
        assert first["profile"]["set"] == "double-six"
        until(lambda: reading(service) == TRUTH)
    finally:
        service.stop()
        again.close()


def on_prefix(rec: Recorder, prefix: str) -> list[Seen]:
    return [s for s in list(rec.seen) if s.topic.startswith(prefix)]
