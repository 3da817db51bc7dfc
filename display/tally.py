"""The walnut leaflet's "houses" tally, as numbers (mirrored by `static/tally.js`).

A house holds 50 points, drawn in order: a long diagonal (5), a long diagonal crossing
it (5, a big X worth 10), then the four corners, each an O (10) or an X of two short
strokes (5 each). A score is drawn from its value alone, so the display chooses:

- a filled corner is drawn as an O; a corner holding 5 as one short stroke (half of
  its X), so a house is at most 2 long strokes, 4 circles and 1 short stroke;
- corners fill clockwise from the top-left;
- a remainder that is not a multiple of 5 (1 to 4) is drawn as that many dots after
  the last house, and the page prints the number beside the tally;
- a negative score draws no tally (only the number).
"""

from __future__ import annotations

from dataclasses import dataclass

HOUSE = 50
STROKE = 5
CIRCLE = 10
CORNERS = 4


@dataclass(frozen=True, slots=True)
class House:
    """One house: long diagonals (0-2), corner circles (0-4), corner short strokes (0-1)."""

    long_strokes: int
    circles: int
    short_strokes: int

    @property
    def points(self) -> int:
        return STROKE * (self.long_strokes + self.short_strokes) + CIRCLE * self.circles

    @property
    def full(self) -> bool:
        return self.points == HOUSE


FULL_HOUSE = House(long_strokes=2, circles=CORNERS, short_strokes=0)


@dataclass(frozen=True, slots=True)
class Tally:
    """A score as houses plus 0-4 dots for what is not a multiple of 5."""

    houses: tuple[House, ...]
    dots: int

    @property
    def points(self) -> int:
        return sum(h.points for h in self.houses) + self.dots


def _partial(points: int) -> House:
    """The unfinished house for 0 < points < 50, a multiple of 5."""
    fives = points // STROKE
    long_strokes = min(fives, 2)
    corner_fives = fives - long_strokes
    return House(long_strokes, corner_fives // 2, corner_fives % 2)


def tally(score: int) -> Tally:
    """The houses that draw `score` (see the module's notes for the choices made)."""
    if score <= 0:
        return Tally((), 0)
    full, rest = divmod(score, HOUSE)
    houses = [FULL_HOUSE] * full
    fives_part = rest - rest % STROKE
    if fives_part:
        houses.append(_partial(fives_part))
    return Tally(tuple(houses), score % STROKE)
