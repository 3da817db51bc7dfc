"""A camera table's record: the frame each play, pass and alert was read from, with the
reading drawn on it, kept as JPEG by a `TableService` reading a rendered game."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from config.loader import load_settings
from mqttweb.frame_mark import read_mark
from service.app import TableService
from service.camera.frame_sources import SourceRequest
from service.core import commands as cmd
from service.history import HistoryAnswer
from service.history.store import HistoryStore
from tablesim.camera import SimSource
from tablesim.render import RenderStyle, TileStyle
from tablesim.scenes import sim_game
from tests.service.faults import wait


@pytest.mark.slow
def test_each_play_pass_and_alert_keeps_the_frame_it_was_read_from(tmp_path: Path) -> None:
    game = sim_game("straight-block", 2, seed=11, plays=4)
    settings = load_settings(
        None,
        {
            "table.id": "t1",
            "table.rules": "straight-block",
            "table.seats": 2,
            "camera.enabled": True,
            "camera.fps": 10,
            "mqtt.enabled": False,
            "state.dir": str(tmp_path / "state"),
        },
    )
    service: TableService

    def sim(_: SourceRequest) -> SimSource:
        return SimSource(
            game, fps=10, pace_s=0.5, style=RenderStyle.clean(TileStyle.IVORY), seed=2,
            tell=service.submit_panel,
        )  # fmt: skip

    service = TableService(settings, camera_frames=sim)
    answers: list[HistoryAnswer] = []
    # (no MQTT here: the history's answers are caught before they become replies)
    service._handlers[HistoryAnswer] = answers.append
    service.start()
    try:
        assert service.camera.join(240)  # the game rendered, read and refereed
        assert service.history.wait_idle(30)
        game_id = service.core.game_id
        with HistoryStore(tmp_path / "state", read_only=True) as store:
            record = store.record(game_id)
            assert record is not None and record.summary.source == "camera"
            kinds = {e["seq"]: e["type"] for e in record.events}
            plays = [e for e in record.events if e["type"] == "play"]
            assert [p["tile"] for p in plays] == [p["tile"] for p in game.plays]
            shown = {kinds[s] for s in record.frames}
            assert {"play", "alert"} <= shown <= {"play", "pass", "undo", "alert"}
            assert all(p["seq"] in record.frames for p in plays)  # every play has its frame
            pictures = {s: store.picture(game_id, s) for s in record.frames}
        files = sorted((tmp_path / "state" / "history" / "frames").rglob("*.jpg"))
        assert len(files) == len(plays)  # one frame per settled reading, shared by its events
        last = pictures[plays[-1]["seq"]]
        assert last is not None and last.jpeg is not None
        image = cv2.imdecode(np.frombuffer(last.jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert image is not None and max(image.shape[:2]) <= 1280
        # the reading drawn on it: every tile outlined in green (BGR 60, 210, 60)
        green = np.all(np.abs(image.astype(int) - (60, 210, 60)) < 40, axis=2)
        assert green.sum() > 500

        service.submit(cmd.FrameAsk("f", game_id, plays[-1]["seq"]))
        wait(lambda: answers, 20, "the frame's answer")
        (answer,) = answers
        assert answer.error is None and answer.picture is not None
        assert answer.picture.startswith(b"\xff\xd8")
        assert read_mark(answer.picture) == {"game_id": game_id, "seq": plays[-1]["seq"]}
        again = cv2.imdecode(np.frombuffer(answer.picture, np.uint8), cv2.IMREAD_COLOR)
        assert again is not None and np.array_equal(again, image)  # the mark changes no pixel
    finally:
        service.stop()
