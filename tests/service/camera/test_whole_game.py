"""A whole game through the camera path: every hand rendered with hands passing, read by
the real pipeline, refereed by an in-process `TableService` and published on the fake
broker, checked against the simulated players' own full-information game.

At the end of each hand the players lay their tiles face up in their seat zones, the
camera reads them, a player confirms the count, they clear the table and the next hand
starts (tests/tablesim/test_scenes_whole_game.py shows the same games to a table core
without a camera, over more rulesets).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from config.loader import load_settings
from config.settings import Settings
from demo.sim_camera import SimOptions, frames
from engine.surface import Snapshot
from service.app import TableService
from service.camera.source import CameraSource
from tablesim.camera import SimSource
from tablesim.scenes import SimWholeGame
from tests.fixtures.mqtt_fake import FakeBroker
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.fixtures.service_process import TOPICS

P = "domino/t1"
ZONES = {0: [90, 510, 810, 600], 1: [90, 0, 810, 90]}  # seat 0 bottom, seat 1 top


def settings_for(broker: FakeBroker, state: Path, rules: str, target: int) -> Settings:
    return load_settings(
        None,
        {
            "table.id": "t1",
            "table.rules": rules,
            "table.seats": 2,
            "table.target": target,
            "zones": {str(seat): rect for seat, rect in ZONES.items()},
            "serial.enabled": False,
            "camera.enabled": False,  # the test runs the camera itself, unpaced
            "camera.source": "sim",
            "mqtt.host": broker.host,
            "mqtt.port": broker.port,
            "state.dir": str(state),
            "display.enabled": False,
        },
    )


def of(seen: list[Seen], kind: str) -> list[dict[str, Any]]:
    return [s.json() for s in seen if s.topic == f"{P}/event/{kind}"]


def game_over(seen: list[Seen]) -> bool:
    return any(g["event"] == "over" for g in of(seen, "game"))


@pytest.mark.slow
@pytest.mark.timeout(600)  # ~20 s of CPU: minutes on a loaded runner
def test_a_whole_game_seen_by_the_camera_is_the_game_played(
    mqtt_fake: FakeBroker, tmp_path: Path
) -> None:
    """Straight dominoes (draw-one) to 25: knocks and draws told, two hands gone out,
    each counted from the seat zones by the camera, the table cleared between them."""
    settings = settings_for(mqtt_fake, tmp_path / "state", "straight", 25)
    rec = Recorder(mqtt_fake.host, mqtt_fake.port, TOPICS)
    service = TableService(settings)
    submitted: list[object] = []
    lock = threading.Lock()

    def submit(item: object) -> None:
        with lock:
            submitted.append(item)
        service.submit(item)

    service.start()
    camera = CameraSource(
        settings,
        submit,
        tell=service.submit_panel,
        source=frames(SimOptions(seed=15, pace_s=0.5, whole_game=True)),
        paced=False,
    )
    try:
        rec.wait_for(lambda s: any(x.payload == b"online" for x in s), timeout=20)
        camera.start()
        assert camera.join(480)
        got = rec.wait_for(game_over, timeout=20)
        source = camera._source
        assert isinstance(source, SimSource) and isinstance(source.game, SimWholeGame)
        game = source.game
        told = {b["action"] for t in game.told for b in t}
        assert {"pass", "draw", "confirm"} <= told and len(game.hands) >= 2
        assert game.endings == ("zones",) * len(game.hands)

        # one settled observation per scene: every play, each seat's tiles laid in its
        # zone, the cleared table
        snapshots = [s for s in submitted if isinstance(s, Snapshot)]
        assert len(snapshots) == len(game.scenes)
        assert sum(1 for s in snapshots if not s.tiles) == len(game.hands)

        # the same plays, by the same seats (a lead the table could not attribute is
        # named by the `lead` the players told)
        plays = of(got, "play")
        assert [(p["hand"], p["tile"], p["points"], p["ends_total"]) for p in plays] == [
            (p["hand"], p["tile"], p["points"], p["ends_total"]) for p in game.plays
        ]
        leads = {e["hand"]: e["seat"] for e in of(got, "lead")}
        for mine, its in zip(game.plays, plays, strict=True):
            assert its["seat"] in (mine["seat"], None)
            assert its["seat"] is not None or leads[its["hand"]] == mine["seat"]
        # the same hand scores, counted from the zones, and the same winner
        hands = of(got, "hand")
        assert [{k: h[k] for k in game.hands[0]} for h in hands] == list(game.hands)
        (over,) = [g for g in of(got, "game") if g["event"] == "over"]
        assert game.over is not None
        assert (over["winner"], over["scores"]) == (game.over["winner"], game.over["scores"])
        # no false alert: a cleared hand's tiles are not "lifted", zone tiles not plays
        assert {a["code"] for a in of(got, "alert")} <= {"LEAD_UNKNOWN"}
        assert not rec.errors
    finally:
        camera.close()
        service.stop()
        rec.close()


def test_the_simulated_camera_plays_the_tables_whole_game(tmp_path: Path) -> None:
    """`SimOptions(whole_game=True)`: the table's rules, seats, target and zones; each
    scene lies still long enough to be read before the players speak, whatever the pace;
    `games` whole games in a row."""
    settings = load_settings(
        None,
        {
            "state.dir": str(tmp_path / "state"),
            "table.rules": "straight-block",
            "table.seats": 2,
            "table.target": 10,
            "zones": {str(seat): rect for seat, rect in ZONES.items()},
            "camera.source": "sim",
        },
    )
    options = SimOptions(seed=2, pace_s=0.05, whole_game=True)
    made = CameraSource(settings, lambda _: None, source=frames(options))._make()
    assert isinstance(made, SimSource) and isinstance(made.game, SimWholeGame)
    game = made.game
    assert (game.rules, game.seats, game.target) == ("straight-block", 2, 10)
    assert dict(game.zones) == {s: tuple(float(v) for v in r) for s, r in ZONES.items()}
    assert game.over is not None and game.endings == ("zones", "zones")
    still = 0
    while made.last is None or not made.last.hand_visible:
        assert made.read() is not None
        still += 1
    assert still - 1 >= 5  # frames of the lead lying still before the first hand comes
    made.close()
    two = CameraSource(settings, lambda _: None, source=frames(SimOptions(2, 1.0, True, 2)))._make()
    assert isinstance(two, SimSource)
    assert sum(b["action"] == "new_game" for t in two.game.told for b in t) == 1
    assert len(two.game.scenes) > len(game.scenes)
    two.close()
