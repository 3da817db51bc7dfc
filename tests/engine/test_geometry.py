"""Where tiles lie: the Placer's layouts (golden, hand-computed) and `locate`."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from engine import Edge, Game, Mode, OpenEnd, Phase, Tile, rulesets
from engine.geometry import (
    DoubleLie,
    GeometryError,
    Placer,
    TileSize,
    edge_positions,
    locate,
)
from engine.layout import JoinProblem, Layout
from engine.players import RandomPlayer
from engine.surface import SeenTile

t = Tile.parse


def laid(rules: str) -> Layout:
    return Layout(rulesets.load(rules))


def turned(seen: SeenTile, degrees: float, dx: float = 0.0, dy: float = 0.0) -> SeenTile:
    """`seen` turned about its centre and shifted: a tile put down a little off."""
    cx, cy = seen.centre
    a = math.radians(degrees)

    def move(x: float, y: float) -> tuple[float, float]:
        x, y = x - cx, y - cy
        return cx + dx + x * math.cos(a) - y * math.sin(a), cy + dy + x * math.sin(
            a
        ) + y * math.cos(a)

    (xa, ya), (xb, yb) = move(seen.xa, seen.ya), move(seen.xb, seen.yb)
    return SeenTile(seen.a, seen.b, xa, ya, xb, yb)


# --- golden layouts -------------------------------------------------------------------------


def test_lead_double_side_and_spinner_arm() -> None:
    layout = laid("walnut")  # the lead double is the spinner, arms open at once
    placer = Placer(900, 600)
    coords: list[SeenTile] = []

    def play(tile: str, end: OpenEnd | None) -> SeenTile:
        seen = placer.place(layout, coords, t(tile), end)
        if end is not None:
            assert locate(layout, coords, seen) == end
        layout.place(t(tile), end)
        coords.append(seen)
        return seen

    # the lead double lies crosswise at the centre: halves 24 mm apart, across the line
    assert play("6-6", None) == SeenTile(6, 6, 450, 288, 450, 312)
    # joined to its side: the line goes on through its middle (side edge at x 462)
    assert play("6-4", OpenEnd(0, Edge.SIDE0, 6)) == SeenTile(6, 4, 474, 300, 498, 300)
    # a spinner's arm goes perpendicular, from its short end (y 276)
    assert play("6-2", OpenEnd(0, Edge.ARM0, 6)) == SeenTile(6, 2, 450, 264, 450, 240)
    # the other side and the other arm are the mirror images
    assert play("6-5", OpenEnd(0, Edge.SIDE1, 6)) == SeenTile(6, 5, 426, 300, 402, 300)
    assert play("6-3", OpenEnd(0, Edge.ARM1, 6)) == SeenTile(6, 3, 450, 336, 450, 360)
    # a double joined to a plain tile lies crosswise, its middle touching the end (x 510)
    assert play("4-4", OpenEnd(1, Edge.LOW, 4)) == SeenTile(4, 4, 522, 288, 522, 312)
    # and the line goes on through its middle
    assert play("4-1", OpenEnd(5, Edge.SIDE1, 4)) == SeenTile(4, 1, 546, 300, 570, 300)


def test_snake_turns_at_the_border_and_comes_back() -> None:
    layout = laid("straight")
    placer = Placer(300, 300)
    coords: list[SeenTile] = []
    moves = [
        ("6-5", None),
        ("5-4", OpenEnd(0, Edge.LOW, 5)),
        ("4-3", OpenEnd(1, Edge.LOW, 4)),
        ("3-2", OpenEnd(2, Edge.LOW, 3)),
    ]
    for tile, end in moves:
        seen = placer.place(layout, coords, t(tile), end)
        if end is not None:
            assert locate(layout, coords, seen) == end
        layout.place(t(tile), end)
        coords.append(seen)
    assert coords == [
        SeenTile(6, 5, 138, 150, 162, 150),  # the lead, along x, at the centre
        SeenTile(5, 4, 186, 150, 210, 150),  # straight on: the 5s touch
        # the next straight tile would leave no room to go on before the border (x 300):
        # it turns the corner, its 4 still against the 4 at x 222
        SeenTile(4, 3, 234, 150, 234, 126),
        # no room to go on up before the border: round the next corner, to the open side
        SeenTile(3, 2, 234, 102, 210, 102),
    ]


def test_a_long_line_snakes_back_and_forth_inside_the_surface() -> None:
    layout = laid("straight")
    placer = Placer(400, 400)
    chain = [
        "6-5",
        "5-4",
        "4-3",
        "3-2",
        "2-1",
        "1-0",
        "0-2",
        "2-4",
        "4-6",
        "6-1",
        "1-3",
        "3-5",
        "5-0",
        "0-4",
        "4-1",
        "1-5",
        "5-2",
        "2-6",
    ]
    coords: list[SeenTile] = []
    for tile in chain:
        end = None if not layout.nodes else layout.ends[-1]
        seen = placer.place(layout, coords, t(tile), end)
        if end is not None:
            assert locate(layout, coords, seen) == end
        layout.place(t(tile), end)
        coords.append(seen)
    boxes = [
        (min(c.xa, c.xb) - 12, min(c.ya, c.yb) - 12, max(c.xa, c.xb) + 12, max(c.ya, c.yb) + 12)
        for c in coords
    ]
    assert all(min(x0, y0) >= 0 and max(x1, y1) <= 400 for x0, y0, x1, y1 in boxes)
    for i, a in enumerate(boxes):  # no two tiles overlap
        for b in boxes[i + 1 :]:
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1])
    # the line ran right, turned, and came back left on another row
    rows = {(c.ya, c.xb > c.xa) for c in coords if c.ya == c.yb}
    assert {right for _, right in rows} == {True, False}


def test_doubles_in_line_and_the_line_through_them() -> None:
    layout = laid("straight")
    placer = Placer(300, 300, doubles=DoubleLie.IN_LINE)
    coords = [placer.place(layout, [], t("6-5"), None)]
    layout.place(t("6-5"), None)
    double = placer.place(layout, coords, t("6-6"), OpenEnd(0, Edge.HIGH, 6))
    assert double == SeenTile(6, 6, 114, 150, 90, 150)  # along the line, not across
    layout.place(t("6-6"), OpenEnd(0, Edge.HIGH, 6))
    coords.append(double)
    beyond = SeenTile(6, 3, 66, 150, 42, 150)
    assert locate(layout, coords, beyond) == OpenEnd(1, Edge.SIDE1, 6)
    # its long edge is an arm; a plain double's arms never open
    above = SeenTile(6, 1, 102, 126, 102, 102)
    assert locate(layout, coords, above) is JoinProblem.CLOSED_END


def test_a_lead_double_in_line_takes_its_line_from_the_first_tile() -> None:
    layout = laid("straight")
    coords = [SeenTile(6, 6, 138, 150, 162, 150)]  # in line along x (the ddd-a boards)
    layout.place(t("6-6"), None)
    right = SeenTile(6, 3, 186, 150, 210, 150)
    assert locate(layout, coords, right) == OpenEnd(0, Edge.SIDE0, 6)
    layout.place(t("6-3"), OpenEnd(0, Edge.SIDE0, 6))
    coords.append(right)
    left = SeenTile(6, 1, 114, 150, 90, 150)
    assert locate(layout, coords, left) == OpenEnd(0, Edge.SIDE1, 6)
    assert locate(layout, coords, SeenTile(6, 2, 150, 126, 150, 102)) is JoinProblem.CLOSED_END


def cell(name: str) -> tuple[int, int]:
    """The centre of a 24 mm grid cell named row then column: `8H` (the ddd-a boards)."""
    row, col = int(name[:-1]), ord(name[-1]) - ord("A")
    return col * 24 + 12, (row - 1) * 24 + 12


def test_tiles_laid_beside_the_end_half_join_that_end() -> None:
    """The first moves of ddd-a game 1: a staircase, each tile beside the end half."""
    layout = laid("straight")
    coords: list[SeenTile] = []
    moves = [
        ("8H", 6, "8I", 1, None),
        ("8F", 5, "8G", 6, OpenEnd(0, Edge.HIGH, 6)),  # in line
        ("7E", 3, "7F", 5, OpenEnd(1, Edge.LOW, 5)),  # the 5 beside the 5 half, going on
        ("6D", 4, "6E", 3, OpenEnd(2, Edge.LOW, 3)),
        ("6B", 1, "6C", 4, OpenEnd(3, Edge.HIGH, 4)),  # in line again
    ]
    for cell_a, pips_a, cell_b, pips_b, end in moves:
        seen = SeenTile(pips_a, pips_b, *cell(cell_a), *cell(cell_b))
        if end is not None:
            assert locate(layout, coords, seen) == end
        layout.place(seen.tile, end)
        coords.append(seen)
    # the board game goes on beside a covered end: no open end there at our table
    covered = SeenTile(0, 4, *cell("4D"), *cell("5D"))
    assert locate(layout, coords, covered) is JoinProblem.NOT_TOUCHING
    # a tile lying back along the end tile, side by side with it, joins nothing
    assert locate(layout, coords, SeenTile(3, 2, *cell("5B"), *cell("5C"))) is (
        JoinProblem.NOT_TOUCHING
    )


# --- locate's answers -------------------------------------------------------------------------


@pytest.fixture
def line() -> tuple[Layout, list[SeenTile]]:
    """6-6 (lead, plain double: no spinner in `straight`), 6-4 to its right."""
    layout = laid("straight")
    layout.place(t("6-6"), None)
    layout.place(t("6-4"), OpenEnd(0, Edge.SIDE0, 6))
    return layout, [SeenTile(6, 6, 450, 288, 450, 312), SeenTile(6, 4, 474, 300, 498, 300)]


def test_locate_open_end_wrong_number_closed_and_far(line: tuple[Layout, list[SeenTile]]) -> None:
    layout, coords = line
    assert locate(layout, coords, SeenTile(4, 1, 522, 300, 546, 300)) == OpenEnd(1, Edge.LOW, 4)
    # the 4 is on the far half: the 1 touches the 4 end
    assert locate(layout, coords, SeenTile(1, 4, 522, 300, 546, 300)) is JoinProblem.NO_MATCH
    assert locate(layout, coords, SeenTile(5, 3, 522, 300, 546, 300)) is JoinProblem.NO_MATCH
    assert locate(layout, coords, SeenTile(6, 1, 426, 300, 402, 300)) == OpenEnd(0, Edge.SIDE1, 6)
    # the double's short end: an arm, and this double is no spinner
    assert locate(layout, coords, SeenTile(6, 1, 450, 264, 450, 240)) is JoinProblem.CLOSED_END
    assert locate(layout, coords, SeenTile(6, 1, 100, 100, 124, 100)) is JoinProblem.NOT_TOUCHING
    # alongside a plain tile's long edge touches no end
    assert locate(layout, coords, SeenTile(4, 1, 474, 324, 498, 324)) is JoinProblem.NOT_TOUCHING


def test_a_corner_tile_joins_by_its_touching_half(line: tuple[Layout, list[SeenTile]]) -> None:
    layout, coords = line
    corner = SeenTile(4, 2, 522, 300, 522, 324)  # round the corner, down
    assert locate(layout, coords, corner) == OpenEnd(1, Edge.LOW, 4)
    assert locate(layout, coords, SeenTile(2, 4, 522, 300, 522, 324)) is JoinProblem.NO_MATCH


@pytest.mark.parametrize(("degrees", "dx", "dy"), [(3, 2, -2), (-4, -2, 2), (2, 3, 1), (-3, 0, -3)])
def test_slightly_misplaced_tiles_still_join(
    line: tuple[Layout, list[SeenTile]], degrees: float, dx: float, dy: float
) -> None:
    layout, coords = line
    noisy = turned(SeenTile(4, 1, 522, 300, 546, 300), degrees, dx, dy)
    assert locate(layout, coords, noisy) == OpenEnd(1, Edge.LOW, 4)
    moved = [turned(c, -degrees, -dx / 2, dy / 2) for c in coords]
    assert locate(layout, moved, noisy) == OpenEnd(1, Edge.LOW, 4)


def test_too_far_from_the_end_is_not_touching(line: tuple[Layout, list[SeenTile]]) -> None:
    layout, coords = line
    assert locate(layout, coords, SeenTile(4, 1, 532, 300, 556, 300)) is JoinProblem.NOT_TOUCHING


def test_edge_positions_of_a_crosswise_double() -> None:
    layout = laid("walnut")
    layout.place(t("6-6"), None)
    (edges,) = edge_positions(layout, [SeenTile(6, 6, 450, 288, 450, 312)])
    where = {e.edge: (e.x, e.y, e.dx, e.dy) for e in edges}
    assert where[Edge.SIDE0] == (462, 300, 1, 0)
    assert where[Edge.SIDE1] == (438, 300, -1, 0)
    assert where[Edge.ARM0] == (450, 276, 0, -1)
    assert where[Edge.ARM1] == (450, 324, 0, 1)


def test_bad_sizes_and_surfaces_are_refused() -> None:
    with pytest.raises(GeometryError):
        TileSize(24, 48)
    with pytest.raises(GeometryError):
        Placer(100, 600)


# --- random games: whatever the Placer lays down, locate finds again --------------------------


RULESETS = ["walnut", "revisited", "straight", "puerto-rico", "straight-block"]


def laid_out_game(name: str, seats: int, seed: int, noise: float) -> int:
    """Play one random hand, lay it out, locate every play (with noise); plays checked."""
    rules = rulesets.load(name)
    seats = min(max(seats, rules.players[0]), rules.players[1])
    game = Game(rules, seats, mode=Mode.FULL, seed=seed)
    game.start()
    rng, jitter = random.Random(seed), random.Random(seed + 1)
    player, placer = RandomPlayer(rng), Placer(900, 600)
    clean: list[SeenTile] = []
    seen: list[SeenTile] = []
    checked = 0
    while game.phase in (Phase.LEAD, Phase.PLAY):
        moves = game.legal_moves()
        if not moves:
            game.draw() if game.can_draw() else game.pass_turn()
            continue
        move = player.choose(game, moves)
        try:
            where = placer.place(game.layout, clean, move.tile, move.end)
        except GeometryError:
            reject()
        assert all(0 <= v <= 900 for v in (where.xa, where.xb))
        assert all(0 <= v <= 600 for v in (where.ya, where.yb))
        shaken = turned(
            where,
            jitter.uniform(-noise, noise),
            jitter.uniform(-2, 2) * noise / 3,
            jitter.uniform(-2, 2) * noise / 3,
        )
        if move.end is not None:
            assert locate(game.layout, seen, shaken) == move.end
            checked += 1
        game.push(move)
        clean.append(where)
        seen.append(shaken)
    assert placer.lay_out(game.layout) == clean  # the same, from the topology alone
    return checked


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(RULESETS),
    st.integers(2, 4),
    st.integers(0, 2**32 - 1),
    st.sampled_from([0.0, 3.0]),
)
def test_placer_layouts_are_located_again(name: str, seats: int, seed: int, noise: float) -> None:
    laid_out_game(name, seats, seed, noise)  # asserts each play is located again


def test_placer_is_deterministic() -> None:
    layout = laid("walnut")
    placer = Placer(900, 600)
    first = placer.place(layout, [], t("6-6"), None)
    assert first == Placer(900, 600).place(layout, [], t("6-6"), None)


def test_a_corrected_reading_keeps_the_half_it_read_right() -> None:
    layout = laid("straight")
    layout.place(t("3-1"), None)  # read as 5-1, corrected to 3-1: the 1 was right
    (edges,) = edge_positions(layout, [SeenTile(5, 1, 100, 100, 124, 100)])
    where = {e.edge: (e.x, e.y) for e in edges}
    assert where == {Edge.HIGH: (88, 100), Edge.LOW: (136, 100)}
