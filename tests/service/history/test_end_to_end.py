"""Replay stays exact on a camera table: a hand of every shipped ruleset rendered as camera
frames (`tablesim.camera.SimSource`, as the demo's `--source camera` renders its games:
hands passing, the players saying what the camera cannot see), read by the camera path
of an in-process `TableService`, its record kept; the record's kept inputs, fed to
`domino-table replay`, give the same events seq for seq. The board side of the same
promise is tests/service/history/test_replay_exact.py.

Each hand is played out: the tiles counted where the players lay them in their seat
zones (the table's `confirm`, with the tiles the camera counted), or told by the
players where the table has no zones. The events the record has and a replay does not
are the table's own alerts (a lead it could not see), as on the board.

The frames are the demo's camera's (1280x960) but plain (clean light, two frames of a
hand passing, each scene still for five frames, read as fast as they come) and each
hand is short for its ruleset: about seven seconds of CPU a hand.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from config.loader import load_settings
from engine import rulesets
from service.app import TableService
from service.camera.frame_sources import SourceRequest
from service.history.store import HistoryStore
from tablesim.camera import SimSource
from tablesim.render import RenderStyle
from tablesim.scenes import sim_whole_game
from tests.service.history.test_replay_exact import (
    TABLES_OWN,
    kept_inputs,
    replayed,
    same_events,
)
from tests.tablesim.test_scenes_whole_game import ZONES_2, ZONES_4

FPS = 10
RESOLUTION = (1280, 960)  # the demo's camera

# every shipped ruleset with players it takes, a seed whose first hand is short, and
# the seat zones where its tiles are counted (none: the players tell their counts)
CAMERA_HANDS = [
    ("outdoor", 3, 32, {}),  # blocked, knocks told, the counts told
    ("puerto-rico", 4, 16, ZONES_4),  # partners, blocked, counted in four zones
    ("revisited", 2, 11, ZONES_2),  # double-nine, draws told, gone out
    ("straight", 2, 15, ZONES_2),  # draw-one: draws and knocks told, gone out
    ("straight-block", 2, 4, ZONES_2),  # blocked after a knock
    ("walnut", 4, 4, ZONES_4),  # draw-until-playable, `out` told
    ("wooden", 3, 11, {}),  # draws told, gone out, the counts told
]


def test_every_ruleset_is_read_here() -> None:
    assert sorted(g[0] for g in CAMERA_HANDS) == sorted(rulesets.names())


class _Drained:
    """Handed to the table's worker behind everything the camera gave it."""

    def __init__(self) -> None:
        self.done = threading.Event()


@pytest.mark.slow  # whole frames rendered and read: 4-12 s of CPU a hand
@pytest.mark.process
@pytest.mark.timeout(600)
@pytest.mark.parametrize(("rules", "seats", "seed", "zones"), CAMERA_HANDS)
def test_a_camera_hands_kept_inputs_replay_to_its_events(
    tmp_path: Path, rules: str, seats: int, seed: int, zones: dict[int, tuple[int, ...]]
) -> None:
    game = sim_whole_game(rules, seats, seed, zones=zones, max_hands=1)
    assert len(game.hands) == 1 and game.endings == (("zones",) if zones else ("told",))
    state = tmp_path / "state"
    settings = load_settings(
        None,
        {
            "table.id": "t1",
            "table.rules": rules,
            "table.seats": seats,
            "zones": {str(seat): list(rect) for seat, rect in zones.items()},
            "serial.enabled": False,
            "camera.enabled": True,
            "camera.fps": FPS,
            "mqtt.enabled": False,
            "display.enabled": False,
            "state.dir": str(state),
        },
    )
    service: TableService

    def frames(_: SourceRequest) -> SimSource:
        return SimSource(
            game, fps=FPS, pace_s=5 / FPS, hand_frames=2, style=RenderStyle.clean(),
            seed=seed, tell=service.submit_panel, resolution=RESOLUTION,
        )  # fmt: skip

    service = TableService(settings, camera_frames=frames)
    service.camera.paced = False  # every frame read, as fast as they come
    service._handlers[_Drained] = lambda d: d.done.set()
    service.start()
    try:
        assert service.camera.join(480)  # every frame rendered and read
        drained = _Drained()
        service.submit(drained)  # behind the last snapshot and the last words
        assert drained.done.wait(60)
        assert service.history.wait_idle(60)
        game_id = service.core.game_id
    finally:
        service.stop()

    with HistoryStore(state, read_only=True) as store:
        record = store.record(game_id)
    assert record is not None and record.summary.source == "camera"
    events = list(record.events)

    # the hand the camera read is the hand played, and each play kept its frame
    plays = [e for e in events if e["type"] == "play"]
    assert [(p["tile"], p["points"], p["ends_total"]) for p in plays] == [
        (p["tile"], p["points"], p["ends_total"]) for p in game.plays
    ]
    assert all(p["seq"] in record.frames for p in plays)
    hands = [e for e in events if e["type"] == "hand"]
    assert [{k: h[k] for k in game.hands[0]} for h in hands] == list(game.hands)
    # what the camera saw is in the inputs: the plays where it saw them, and the tiles
    # it counted in the zones
    told = [i["input"] for i in record.inputs]
    assert all("xa" in i for i in told if i["action"] == "play")
    if zones:
        (confirm,) = [i for i in told if i["action"] == "confirm"]
        assert any(confirm["tiles"])

    # the kept inputs replayed: the same events, seq for seq, the table's own alerts aside
    paired = same_events(events, replayed(kept_inputs(state, game_id)))
    own = [e for e in events if e["type"] == "alert" and e.get("code") in TABLES_OWN]
    assert paired == len(events) - len(own)
