"""Judging a whole set's reading against its tile list (`vision.enrolment.check`)."""

from __future__ import annotations

from engine.tiles import DominoSet, Tile
from vision.enrolment.check import check_set

SIX = DominoSet.DOUBLE_SIX


def pips(tiles: list[Tile]) -> list[tuple[int, int]]:
    return [(t.low, t.high) for t in tiles]


def test_the_whole_set_read_once_is_ok() -> None:
    check = check_set(pips(list(SIX.tiles())), SIX)
    assert check.ok and check.right == 28
    assert check.detail() == {"expected": 28, "read": 28, "missing": [], "misread": [], "extra": []}


def test_a_tile_not_read_is_missing() -> None:
    tiles = [t for t in SIX.tiles() if t.text not in ("6-6", "0-0")]
    check = check_set(pips(tiles), SIX)
    assert not check.ok and check.right == 26
    assert check.detail()["missing"] == ["0-0", "6-6"]
    assert check.detail()["read"] == 26


def test_a_half_miscounted_is_a_misread_of_the_missing_tile() -> None:
    """5-3 read as 5-2: 5-2 is read twice and 5-3 not at all; they share the 5."""
    tiles = [Tile(5, 2) if t.text == "5-3" else t for t in SIX.tiles()]
    check = check_set(pips(tiles), SIX)
    assert check.detail()["misread"] == [{"tile": "5-3", "as": "5-2"}]
    assert check.detail()["missing"] == [] and check.detail()["extra"] == []
    assert check.right == 27


def test_readings_sharing_no_half_with_a_missing_tile_are_extra() -> None:
    """A 1-0 read on the table beside the set and a 6-5 not read share no number."""
    tiles = [t for t in SIX.tiles() if t.text != "6-5"] + [Tile(1, 0)]
    check = check_set(pips(tiles), SIX)
    assert check.detail()["missing"] == ["6-5"] and check.detail()["extra"] == ["1-0"]
    assert check.detail()["read"] == 28


def test_tiles_of_a_bigger_set_are_extra_and_the_sentence_names_that_set() -> None:
    tiles = list(DominoSet.DOUBLE_NINE.tiles())
    check = check_set(pips(tiles), SIX)
    assert check.right == 28 and len(check.extra) == 27
    assert "is it a double-nine set?" in check.summary()


def test_a_reading_of_no_tile_is_extra_as_read() -> None:
    check = check_set([*pips(list(SIX.tiles())), (2, 19)], SIX)
    assert check.extra == ("19-2",) and check.read == 29
