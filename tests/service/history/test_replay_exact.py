"""Replay stays exact: a kept record's inputs, fed to `domino-table replay`, give the
same events, seq for seq, for every shipped ruleset: here whole games shown to a table
as a board reports them; a hand of every ruleset read by a camera table from rendered
frames in tests/service/history/test_end_to_end.py.

The events the record has and a replay does not are the table's own alerts, raised from
what it saw or could not see, not from what it was told (a lead nobody named, a tile
lying where it may not, a source offline, a spot it cannot read, a full disk). The games
here are seen right, so of those only `TABLES_OWN` may arise: every other event is
replayed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.history import keep_board_game
from engine import rulesets
from tablesim.scenes import sim_whole_game
from tests.tablesim.test_scenes_whole_game import ZONES_2, ZONES_4

BIN = Path(sys.executable).parent / "domino-table"
ENVELOPE = ("v", "table", "ts", "seq", "game_id", "type")


def kept_inputs(state: Path, game_id: str) -> str:
    done = subprocess.run(
        [str(BIN), "history", "--state-dir", str(state), game_id, "--inputs"],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    return done.stdout


def replayed(lines: str) -> list[dict[str, Any]]:
    done = subprocess.run(
        [str(BIN), "replay", "--table", "t1", "-"],
        input=lines, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return [json.loads(x) for x in done.stdout.splitlines()]


def same_events(kept: list[dict[str, Any]], again: list[dict[str, Any]]) -> int:
    """Every replayed event is the next kept event, in order, field for field (a play's
    seq named by an undo mapped through the pairs; an alert's number aside); the kept
    events left over are alerts. The number of events paired."""
    pairs: dict[int, int] = {}  # replayed seq -> kept seq
    rest = iter(kept)
    for event in again:
        for mine in rest:
            if mine["type"] == event["type"] and _body(mine) == _body(event, pairs):
                pairs[event["seq"]] = mine["seq"]
                break
            assert mine["type"] == "alert", (mine, event)  # only the table's own are extra
        else:
            raise AssertionError(f"replayed {event} is not kept")
    assert all(mine["type"] == "alert" for mine in rest)
    return len(pairs)


def _body(event: dict[str, Any], pairs: dict[int, int] | None = None) -> dict[str, Any]:
    body = {k: v for k, v in event.items() if k not in ENVELOPE}
    if "id" in body:  # an alert's id: its code and the seq of its change
        body["id"] = str(body["id"]).rsplit("-", 1)[0]
    if pairs is not None and event["type"] == "undo":
        body["undone"] = pairs[body["undone"]]
    return body


# every shipped ruleset, with players it takes; zones where its hands are counted from
# the table, none where the players tell their counts
GAMES = [
    ("outdoor", 3, 2, {}),
    ("puerto-rico", 4, 1, ZONES_4),
    ("revisited", 2, 3, ZONES_2),
    ("straight", 2, 15, ZONES_2),
    ("straight-block", 2, 2, ZONES_2),
    ("walnut", 4, 4, ZONES_4),
    ("wooden", 3, 5, {}),
]


def test_every_ruleset_is_played_here() -> None:
    assert sorted(g[0] for g in GAMES) == sorted(rulesets.names())


@pytest.mark.process
@pytest.mark.parametrize(("rules", "seats", "seed", "zones"), GAMES)
def test_a_kept_games_inputs_replay_to_its_events(
    tmp_path: Path, rules: str, seats: int, seed: int, zones: dict[int, tuple[int, ...]]
) -> None:
    target = 25 if rules in ("straight-block", "straight") else None
    game = sim_whole_game(rules, seats, seed, target=target, zones=zones, max_hands=6)
    kept = {s: tuple(r) for s, r in zones.items()}
    game_id, refused, idle = keep_board_game(
        tmp_path, game, table="t1", rules=rules, seats=seats, zones=kept
    )
    assert refused == []
    assert idle

    from service.history.store import HistoryStore

    with HistoryStore(tmp_path, read_only=True) as store:
        record = store.record(game_id)
        assert record is not None
    assert len({e["hand"] for e in record.events if e["type"] == "hand"}) >= 2
    # the board's surface at every event from its first report on, however fast they came
    first = next(e["seq"] for e in record.events if e["type"] == "play")
    assert list(record.frames) == [e["seq"] for e in record.events if e["seq"] >= first]
    paired = same_events(list(record.events), replayed(kept_inputs(tmp_path, game_id)))
    assert paired == len([e for e in record.events if e["type"] != "alert"]) + len(
        [e for e in record.events if e["type"] == "alert" and e.get("code") not in TABLES_OWN]
    )


TABLES_OWN = {"LEAD_UNKNOWN", "BOARD_OFFLINE", "CAMERA_OFFLINE", "UNREADABLE", "DISK_FULL"}
