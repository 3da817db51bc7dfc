"""Each owner of the table core's state holds it in one value that writes itself.

`service.core.kept.Kept`: a frozen dataclass written as JSON field by field, by each
field's type; a field `NOT_KEPT` is part of the value but not written. The reconciler's
`Memory`, the core's `CoreMemory` and the seating's `Seated` are such values: every field
goes through `as_dict` and back, and a field added later reads back as its default.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any

import pytest

from engine import Tile
from engine.alerts import AlertCode
from engine.events import Coords, Reason
from engine.surface import SeenTile
from service.core.kept import Kept
from service.core.reconciler import Memory, SurfaceAlert, ZoneCounts
from service.core.seating import Seated, Seating
from service.core.table_memory import CoreMemory

T = Tile.parse


def seen(text: str, x: float, y: float) -> SeenTile:
    tile = T(text)
    return SeenTile(tile.high, tile.low, x, y, x + 24, y, 0.75)


ALERT = SurfaceAlert(
    AlertCode.NO_MATCH, T("5-3"), Coords(100, 100, 124, 100), "5-3 does not match.", 1,
    Reason.NO_MATCH,
)  # fmt: skip
COUNTS = ZoneCounts(((T("6-0"), T("2-1")), (), (T("3-3"),)))

SAMPLES: dict[type[Kept], dict[str, Any]] = {
    Memory: {
        "placed": {T("6-6"): seen("6-6", 450, 288)},
        "pending": dataclasses.replace(ALERT, seat=None, reason=None),
        "pending_since": 12.5,
        "standing": ALERT,
        "hand": 3,
        "counts": COUNTS,
        "cleared": True,
        "known": (T("6-6"), T("6-1")),
        "ignored": {T("5-1"): seen("5-1", 570, 300), T("2-2"): seen("2-2", 10, 20)},
        "aliases": {T("6-4"): T("6-1")},
        "looks": 17,
        "first_seen": {T("3-2"): 15, T("5-1"): 9},
        "surface": (seen("6-6", 450, 288), seen("3-2", 100.5, 99.25)),
    },
    CoreMemory: {
        "game_id": "20261201T100000000Z",
        "sources": {"camera": False, "board": True},
        "zone_counts": COUNTS,
        "last": {"seq": 12, "kind": "play", "tile": "6-6"},
        "details": {"camera": "unplugged"},
    },
    Seated: {
        "seating": Seating("Otoño", 2, ("p1", "p2"), "2026-11-01T20:30:00.000Z"),
        "confirmed": (1, 0),
        "result": {"event": "over", "scores": [100, 40]},
        "unsent": True,
    },
}


def kept_names(cls: type[Kept]) -> set[str]:
    return {f.name for f in fields(cls) if f.metadata.get("kept", True)}  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", list(SAMPLES), ids=lambda c: c.__name__)
def test_every_field_is_written_and_read_back(cls: type[Kept]) -> None:
    sample = SAMPLES[cls]
    made = {f.name for f in fields(cls) if f.init}  # type: ignore[arg-type]
    assert set(sample) == made, "give a sample of each field"
    value = cls(**sample)
    for name, given in sample.items():
        assert getattr(value, name) != getattr(cls(), name), f"{name}: sample its default"
        assert getattr(value, name) == given
    written = value.as_dict()
    assert set(written) == kept_names(cls)
    back = cls.from_dict(json.loads(json.dumps(written)))  # through JSON text
    for name in made:
        expected = sample[name] if name in kept_names(cls) else getattr(cls(), name)
        assert getattr(back, name) == expected, name
    assert back.as_dict() == written


def test_a_field_not_kept_is_put_back_but_not_written() -> None:
    memory = Memory(**SAMPLES[Memory])
    written = memory.as_dict()
    assert {"placed", "pending", "pending_since"}.isdisjoint(written)
    back = Memory.from_dict(written)
    assert back.placed == {} and back.pending is None and back.pending_since == 0.0
    now = Memory(placed={T("1-1"): seen("1-1", 1, 2)}, pending_since=3.0)
    over = back.over(now)  # read back over the value of now: its fields not kept stay
    assert over.placed == now.placed and over.pending_since == 3.0
    assert over.ignored == memory.ignored and over.looks == 17


def test_how_the_reconciler_memory_is_written() -> None:
    """The JSON the old hand codecs wrote, field for field (a journal kept before reads
    back: `test_kept_before`)."""
    written = Memory(**SAMPLES[Memory]).as_dict()
    assert written == {
        "standing": {
            "code": "NO_MATCH", "tile": "5-3", "coords": [100, 100, 124, 100],
            "message": "5-3 does not match.", "seat": 1, "reason": "no_match",
        },
        "hand": 3,
        "counts": [["6-0", "2-1"], [], ["3-3"]],
        "cleared": True,
        "known": ["6-6", "6-1"],
        "ignored": [[5, 1, 570, 300, 594, 300, 0.75], [2, 2, 10, 20, 34, 20, 0.75]],
        "aliases": [["6-4", "6-1"]],
        "looks": 17,
        "first_seen": [["3-2", 15], ["5-1", 9]],
        "surface": [[6, 6, 450, 288, 474, 288, 0.75], [3, 2, 100.5, 99.25, 124.5, 99.25, 0.75]],
    }  # fmt: skip


@dataclass(frozen=True, slots=True)
class Wider(Memory):
    """The reconciler's memory with one field more: the one edit a new field takes."""

    doubles_seen: int = 0


def test_a_new_field_is_one_edit_and_reads_a_value_kept_before_it() -> None:
    before = Memory(**SAMPLES[Memory]).as_dict()
    back = Wider.from_dict(before)
    assert back.doubles_seen == 0
    assert back.as_dict() == {**before, "doubles_seen": 0}
    assert Wider.from_dict(dataclasses.replace(back, doubles_seen=4).as_dict()).doubles_seen == 4


def test_a_field_of_a_type_that_cannot_be_written_is_named() -> None:
    @dataclass(frozen=True, slots=True)
    class Odd(Kept):
        fine: int = 0
        when: datetime = datetime(2026, 1, 1, tzinfo=UTC)

    with pytest.raises(TypeError, match=r"Odd\.when: cannot keep a datetime"):
        Odd().as_dict()

    @dataclass(frozen=True, slots=True)
    class Either(Kept):
        one: int | str = 0

    with pytest.raises(TypeError, match=r"Either\.one: cannot keep a union"):
        Either.from_dict({"one": 1})


def test_a_seated_game_puts_its_deadline_back_from_its_seating() -> None:
    seated = Seated(**SAMPLES[Seated])
    assert seated.deadline == datetime(2026, 11, 1, 20, 30, tzinfo=UTC)
    assert Seated.from_dict(seated.as_dict()).deadline == seated.deadline
    assert "deadline" not in seated.as_dict()
    assert Seated().deadline is None


def test_a_value_is_frozen() -> None:
    memory = Memory()
    with pytest.raises(dataclasses.FrozenInstanceError):
        memory.looks = 1  # type: ignore[misc]
