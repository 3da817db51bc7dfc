"""The record kept while a table plays: what the `history` and `frame` commands answer,
and a full disk, which the game outlives."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.inputs import Lead, NewGame, Pass
from mqttweb.envelope import stamp
from mqttweb.frame_mark import read_mark
from service.core import commands as cmd
from service.history.recorder import RETRY_S
from tests.fixtures.spec import validate
from tests.service.core.test_faults_disk import SmallDisk
from tests.service.history.tables import BoardTable, events_of


def reply_of(answer_detail: dict[str, object] | None, error: str | None) -> dict[str, object]:
    """The reply the service makes of an answer (as `mqtt.link` stamps it)."""
    body: dict[str, object] = {"id": "x", "ok": error is None, "error": error}
    if answer_detail is not None:
        body["detail"] = answer_detail
    return stamp("t1", body)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[BoardTable]:
    t = BoardTable(tmp_path)
    yield t
    t.close()


def test_history_answers_the_game_in_play_with_every_event_and_its_frames(
    table: BoardTable,
) -> None:
    table.lay("6-6")
    table.tell(Lead(seat=1))
    table.lay("6-5")
    table.tell(Pass(seat=1))
    table.idle()
    answer = table.ask(cmd.HistoryAsk("h1"))
    assert answer.error is None and answer.detail is not None and answer.picture is None
    detail = answer.detail
    validate("reply", reply_of(detail, None))
    assert (detail["game_id"], detail["rules"], detail["seats"]) == (
        table.game_id(),
        "straight-block",
        2,
    )
    seqs = [e["seq"] for e in detail["events"]]
    assert seqs == list(range(1, table.journal.last_seq() + 1))
    for event in detail["events"]:  # each as published, its kind beside it
        stored = table.journal.event(event["seq"])
        assert stored is not None and {"type": stored.kind, **stored.payload} == event
        validate(event["type"], {k: v for k, v in event.items() if k != "type"})
    assert [e["tile"] for e in events_of(detail, "play")] == ["6-6", "6-5"]
    assert detail["frames"] == seqs[1:]  # the board's surface at every event after the first
    assert detail["source"] == "board" and detail["names"] == ["Player 1", "Player 2"]
    assert [g["game_id"] for g in detail["games"]] == [table.game_id()]  # (added) the list


def test_frame_publishes_the_surface_drawn_and_names_the_event_inside(table: BoardTable) -> None:
    table.lay("6-6")
    table.tell(Lead(seat=0))
    table.lay("6-2")
    table.idle()
    (play,) = [e for e in table.ask(cmd.HistoryAsk("h")).detail["events"] if e.get("tile") == "6-2"]  # type: ignore[index]
    answer = table.ask(cmd.FrameAsk("f1", table.game_id(), play["seq"]))
    assert answer.error is None and answer.picture is not None
    assert answer.picture.startswith(b"\x89PNG")
    assert read_mark(answer.picture) == {"game_id": table.game_id(), "seq": play["seq"]}
    assert answer.detail == {
        "game_id": table.game_id(),
        "seq": play["seq"],
        "type": "image/png",
        "bytes": answer.detail["bytes"],  # type: ignore[index]
    }
    image = cv2.imdecode(np.frombuffer(answer.picture, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None and image.shape[1] >= 900
    # two tiles drawn: the ivory of their faces
    ivory = np.all(np.abs(image.astype(int) - (226, 238, 242)) < 8, axis=2)
    count, _ = cv2.connectedComponents(ivory.astype(np.uint8))
    assert count - 1 >= 2


def test_a_game_or_frame_that_is_not_kept_is_refused_with_the_reason(table: BoardTable) -> None:
    table.lay("6-6")
    table.idle()
    nowhere = table.ask(cmd.HistoryAsk("h", "nowhere"))
    assert nowhere.error is not None and "No game 'nowhere' is kept" in nowhere.error
    validate("reply", reply_of(None, nowhere.error))
    first = table.ask(cmd.FrameAsk("f", table.game_id(), 1))  # the game's start: no report yet
    assert first.picture is None and first.error == (
        f"No frame is kept for seq 1 of game {table.game_id()!r}."
    )


def test_history_without_a_game_id_is_the_game_in_play_then_any_kept_game(
    table: BoardTable,
) -> None:
    first = table.game_id()
    table.lay("6-6")
    table.tell(NewGame("straight-block", 2, game_id="later"))
    table.idle()
    now = table.ask(cmd.HistoryAsk("h1")).detail
    assert now is not None and now["game_id"] == "later"
    assert [g["game_id"] for g in now["games"]] == ["later", first]
    before = table.ask(cmd.HistoryAsk("h2", first)).detail
    assert before is not None and [e["tile"] for e in events_of(before, "play")] == ["6-6"]


@pytest.mark.process
def test_a_full_disk_stops_the_record_not_the_game_and_it_catches_up(tmp_path: Path) -> None:
    disk = SmallDisk(tmp_path / "state" / "history", "1m")  # only the record's folder
    table = BoardTable(tmp_path / "state")
    try:
        table.lay("6-6")
        table.tell(Lead(seat=1))
        table.idle()
        disk.fill()
        table.lay("6-4")  # the game goes on: judged and journaled
        table.lay("4-4")
        assert [t.text for t in table.core.game.layout.tiles()] == ["6-6", "6-4", "4-4"]  # type: ignore[union-attr]
        table.idle()
        assert len(table.troubles) == 1 and table.troubles[0].detail is not None
        assert "full" in table.troubles[0].detail.lower() or "space" in table.troubles[0].detail
        disk.free()
        deadline = time.monotonic() + RETRY_S * 3
        while len(table.troubles) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [t.detail is None for t in table.troubles] == [False, True]  # resolved
        table.idle()
        detail = table.ask(cmd.HistoryAsk("h")).detail
        assert detail is not None
        assert [e["tile"] for e in events_of(detail, "play")] == ["6-6", "6-4", "4-4"]  # none lost
        assert detail["frames"][-1] == detail["events"][-1]["seq"]  # the latest kept
        assert os.statvfs(disk.path).f_bavail > 0
    finally:
        table.close()
        disk.unmount()


def test_a_table_told_to_keep_nothing_keeps_nothing_and_says_so(tmp_path: Path) -> None:
    table = BoardTable(tmp_path, enabled=False)
    try:
        table.lay("6-6")
        table.tell(Lead(seat=1))
        answer = table.ask(cmd.HistoryAsk("h"))
        assert answer.error == (
            "This table keeps no record of games ([history] enabled = false in its settings)."
        )
        assert table.ask(cmd.FrameAsk("f", table.game_id(), 2)).error == answer.error
        assert not (tmp_path / "history").exists()  # not a byte written
    finally:
        table.close()
