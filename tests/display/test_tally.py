"""The houses tally: each house 50 (X of long strokes, then four corner O's), dots for 1-4."""

from __future__ import annotations

import pytest

from display.tally import FULL_HOUSE, House, tally


@pytest.mark.parametrize(
    ("score", "houses", "dots"),
    [
        (0, [], 0),
        (3, [], 3),
        (5, [House(1, 0, 0)], 0),
        (6, [House(1, 0, 0)], 1),  # the walnut end-of-hand bonus can leave a remainder
        (10, [House(2, 0, 0)], 0),  # the big X
        (15, [House(2, 0, 1)], 0),  # one short stroke: half of a corner's X
        (20, [House(2, 1, 0)], 0),  # a corner's O
        (45, [House(2, 3, 1)], 0),
        (50, [FULL_HOUSE], 0),
        (85, [FULL_HOUSE, House(2, 2, 1)], 0),
        (104, [FULL_HOUSE, FULL_HOUSE], 4),
        (130, [FULL_HOUSE, FULL_HOUSE, House(2, 2, 0)], 0),
    ],
)
def test_examples(score: int, houses: list[House], dots: int) -> None:
    assert tally(score).houses == tuple(houses)
    assert tally(score).dots == dots


def test_every_score_is_drawn_exactly() -> None:
    for score in range(401):
        drawn = tally(score)
        assert drawn.points == score
        assert all(h.full for h in drawn.houses[:-1])
        for house in drawn.houses:
            assert 0 < house.points <= 50
            assert house.circles + house.short_strokes <= 4
            assert house.long_strokes == 2 or (house.circles, house.short_strokes) == (0, 0)


def test_negative_score_draws_nothing() -> None:
    assert tally(-5).houses == ()
    assert tally(-5).dots == 0
