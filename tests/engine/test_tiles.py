from __future__ import annotations

import pickle

import pytest

from engine.tiles import DominoSet, Tile, TileError


def test_notation_round_trips_high_first() -> None:
    assert str(Tile.parse("4-6")) == "6-4"
    assert Tile.parse("4-6") is Tile.of(6, 4)
    assert eval(repr(Tile.of(3, 5))) is Tile.of(5, 3)
    assert pickle.loads(pickle.dumps(Tile.of(2, 1))) is Tile.of(1, 2)


@pytest.mark.parametrize(
    "text", ["", "6", "6-", "a-b", "6-4-2", "-1-3", "19-0", "\u0666-\u0664", "\uff16-\uff14"]
)
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(TileError):
        Tile.parse(text)


@pytest.mark.parametrize(
    ("s", "n"),
    [(DominoSet.DOUBLE_SIX, 28), (DominoSet.DOUBLE_NINE, 55), (DominoSet.DOUBLE_TWELVE, 91)],
)
def test_set_sizes(s: DominoSet, n: int) -> None:
    tiles = s.tiles()
    assert len(tiles) == n == s.size
    assert len(set(tiles)) == n


def test_set_names() -> None:
    assert DominoSet.named("double-nine") is DominoSet.DOUBLE_NINE
    assert DominoSet.named(12) is DominoSet.DOUBLE_TWELVE
    with pytest.raises(TileError):
        DominoSet.named("double-seven")
