"""The camera end to end: a random legal game rendered with hands passing, read by the
real camera path (motion gate, marker calibration, detection, stable readings), handed
to an in-process `TableService` and checked on the fake broker, as the same game laid
on the board emulator is (tests/service/test_board_end_to_end.py)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from config.loader import load_settings
from config.settings import Settings
from engine.surface import Snapshot
from service.app import TableService
from service.camera.frame_sources import SourceRequest
from service.camera.source import CameraSource, CameraStatus
from tablesim.camera import SimSource
from tablesim.render import RenderStyle, TileStyle, render_sequence
from tablesim.scenes import sim_game
from tests.fixtures.mqtt_fake import FakeBroker
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.service_process import TOPICS, send
from vision.camera_path.pipeline import Pipeline
from vision.camera_path.settled import same_reading
from vision.frames import Frame

P = "domino/t1"
FPS = 10.0


def settings_for(broker: FakeBroker, state: Path, rules: str, seats: int) -> Settings:
    return load_settings(
        None,
        {
            "table.id": "t1",
            "table.rules": rules,
            "table.seats": seats,
            "serial.enabled": False,
            "mqtt.host": broker.host,
            "mqtt.port": broker.port,
            "state.dir": str(state),
            "display.enabled": False,
        },
    )


def plays(seen: list[Seen]) -> list[dict[str, Any]]:
    return [s.json() for s in seen if s.topic == f"{P}/event/play"]


def alerts(seen: list[Seen]) -> list[dict[str, Any]]:
    return [s.json() for s in seen if s.topic == f"{P}/event/alert"]


def tell(broker: FakeBroker, rec: Recorder, body: dict[str, Any]) -> None:
    """A command the players give; waits for the table's yes."""
    ident = f"{body['action']}-{len(rec.seen)}"
    send(broker, {"id": ident, **body})
    got = rec.wait_for(
        lambda s: any(x.topic == f"{P}/cmd/reply" and x.json()["id"] == ident for x in s)
    )
    reply = next(x.json() for x in got if x.topic == f"{P}/cmd/reply" and x.json()["id"] == ident)
    assert reply["ok"], reply


@pytest.mark.slow
def test_a_game_seen_by_the_camera_is_the_game_played(
    mqtt_fake: FakeBroker, tmp_path: Path
) -> None:
    game = sim_game("straight-block", 2, seed=5, plays=7)
    assert any(b["action"] == "pass" for t in game.told for b in t)  # a knock on the way
    rec = Recorder(mqtt_fake.host, mqtt_fake.port, TOPICS)
    service = TableService(settings_for(mqtt_fake, tmp_path / "state", "straight-block", 2))
    service.start()
    pipeline = Pipeline(state_dir=tmp_path / "state")
    seen_scenes: list[int] = []
    try:
        rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=20)
        style = RenderStyle.clean(TileStyle.IVORY)
        for item in render_sequence([list(s) for s in game.scenes], style, 5, still_frames=5):
            observation = pipeline.feed(Frame(item.image, item.index / FPS))
            if observation is None:
                continue
            # a reading only once the hand has gone, and it is what lies on the table
            assert not item.hand_visible, item.index
            assert same_reading(observation, item.truth.snapshot(), 2.0), item.index
            seen_scenes.append(item.scene_index)
            service.submit(observation)
            i = item.scene_index
            if i == 0:  # who held the highest double? the table asks
                rec.wait_for(lambda s: any(a["code"] == "LEAD_UNKNOWN" for a in alerts(s)))
            rec.wait_for(lambda s, n=i + 1: len(plays(s)) >= n)  # type: ignore[misc]
            for body in game.told[i]:
                tell(mqtt_fake, rec, body)
        assert seen_scenes == list(range(len(game.scenes)))  # one observation per play
        got = rec.wait_for(lambda s: len(plays(s)) >= len(game.plays))
        published = plays(got)
        assert [(p["tile"], p["ends_total"], p["points"]) for p in published] == [
            (p["tile"], p["ends_total"], p["points"]) for p in game.plays
        ]
        assert [p["seat"] for p in published][1:] == [p["seat"] for p in game.plays][1:]
        lead = next(s.json() for s in got if s.topic == f"{P}/event/lead")
        assert lead["seat"] == game.plays[0]["seat"]
        # no false play, no other alert while hands passed
        assert len(published) == len(game.plays)
        assert {a["code"] for a in alerts(got)} == {"LEAD_UNKNOWN"}
        assert pipeline.calibration is not None and pipeline.calibration.method.value == "markers"
        assert (tmp_path / "state" / "calibration.json").is_file()
        assert not rec.errors
    finally:
        service.stop()
        rec.close()


@pytest.mark.slow
def test_the_camera_source_feeds_a_simulated_game_to_the_service(
    mqtt_fake: FakeBroker, tmp_path: Path
) -> None:
    """`CameraSource` on its own thread, a `SimSource` telling who led and the knocks
    through the service's command path: every play arrives on MQTT."""
    game = sim_game("straight-block", 2, seed=11, plays=4)
    rec = Recorder(mqtt_fake.host, mqtt_fake.port, TOPICS)
    settings = settings_for(mqtt_fake, tmp_path / "state", "straight-block", 2)
    service = TableService(settings)
    submitted: list[object] = []
    lock = threading.Lock()

    def submit(item: object) -> None:
        with lock:
            submitted.append(item)
        service.submit(item)

    def sim(_: SourceRequest) -> SimSource:
        return SimSource(
            game, fps=FPS, pace_s=0.5, style=RenderStyle.clean(TileStyle.IVORY), seed=2,
            tell=service.submit_panel,
        )  # fmt: skip

    service.start()
    camera = CameraSource(settings, submit, source=sim, paced=False)
    try:
        rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=20)
        camera.start()
        assert camera.join(60)
        got = rec.wait_for(lambda s: len(plays(s)) >= len(game.plays), timeout=20)
        assert [(p["tile"], p["points"], p["seat"]) for p in plays(got)][1:] == [
            (p["tile"], p["points"], p["seat"]) for p in game.plays
        ][1:]
        snapshots = [s for s in submitted if isinstance(s, Snapshot)]
        assert len(snapshots) == len(game.scenes)
        assert submitted[0] == CameraStatus(True, f"sim straight-block seed {game.seed}")
        assert not rec.errors
    finally:
        camera.close()
        service.stop()
        rec.close()
