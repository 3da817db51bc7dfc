"""Where tiles lie on the surface: laying out a game, and which open end a seen tile touches.

The frame is the board protocol's: whole millimetres, origin top-left, x right, y down.
A tile of `TileSize` (48 x 24 mm standard) has two halves whose centres lie
`length_mm / 2` apart. The layout topology (`engine.layout`) says which tile joins which
edge; this module says where those edges are:

- a plain tile's HIGH and LOW edges are the outer short edges of its two halves;
- a double's *line* runs through its middle: the direction from its parent's edge, or,
  for a lead double, from its first side tile (the first tile joined defines its line).
  Its sides (SIDE0 toward the parent, SIDE1 away) are its in-line edges: the long-edge
  middles when it lies crosswise (the standard model), the short ends when it lies in
  line (some boards). Its arms (a spinner's ARM0, ARM1) are the perpendicular edges.

`Placer` lays out a game (the board emulator, the camera renderer and the display use
it); `locate` tells which open end a newly seen tile touches, from geometry and pips
alone. Both use the same edge positions (`edge_positions`), so whatever the Placer lays
down, `locate` finds again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engine.layout import Edge, EdgeKind, JoinProblem, Layout, OpenEnd, Placed
from engine.surface import SeenTile
from engine.tiles import Tile

Vec = tuple[float, float]

DEFAULT_TOLERANCE_MM = 7.0  # how far a tile may lie from the edge it touches
TURN_BACK_AFTER = 2  # a snake turns back this many tiles after a corner (rows 96 mm apart)


class GeometryError(ValueError):
    """A layout that cannot be laid out (no room left) or coordinates that do not fit it."""


@dataclass(frozen=True, slots=True)
class TileSize:
    """The size of one tile in millimetres (a standard tile is 48 x 24)."""

    length_mm: int = 48
    width_mm: int = 24

    def __post_init__(self) -> None:
        if not 0 < self.width_mm < self.length_mm:
            raise GeometryError(
                f"a tile of {self.length_mm} x {self.width_mm} mm: give a length longer "
                "than the width, both above 0"
            )


class DoubleLie(Enum):
    """How the Placer lays doubles: across the line (standard) or along it."""

    CROSSWISE = "crosswise"
    IN_LINE = "in_line"


@dataclass(frozen=True, slots=True)
class EdgeAt:
    """Where one edge of a layout tile lies: its middle (x, y) and outward unit (dx, dy)."""

    node: int
    edge: Edge
    x: float
    y: float
    dx: float
    dy: float


@dataclass(frozen=True, slots=True)
class Touch:
    """A seen tile against a layout edge: `pip` on its touching half, `end` if open."""

    node: int
    edge: Edge
    pip: int
    distance: float
    end: OpenEnd | None


# --- vectors ------------------------------------------------------------------------------


def _unit(x: float, y: float, default: Vec) -> Vec:
    length = math.hypot(x, y)
    return (x / length, y / length) if length > 1e-9 else default


def _dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1]


def _left(d: Vec) -> Vec:
    """`d` turned a quarter to the left on the surface (y down): right -> up."""
    return (d[1], -d[0])


def _canonical(d: Vec) -> Vec:
    """`d` or `-d`, whichever points right (or down when vertical)."""
    if abs(d[0]) >= abs(d[1]):
        return d if d[0] > 0 else (-d[0], -d[1])
    return d if d[1] > 0 else (-d[0], -d[1])


def _half_positions(tile: Tile, seen: SeenTile) -> tuple[Vec, Vec]:
    """(centre of the half showing `tile.high`, centre of the other half); for a tile
    read otherwise (and corrected), the way that agrees with more of the reading."""
    a_high = (seen.a == tile.high) + (seen.b == tile.low)
    b_high = (seen.b == tile.high) + (seen.a == tile.low)
    if a_high >= b_high:
        return (seen.xa, seen.ya), (seen.xb, seen.yb)
    return (seen.xb, seen.yb), (seen.xa, seen.ya)


def _axis(seen: SeenTile) -> Vec:
    return _unit(seen.xb - seen.xa, seen.yb - seen.ya, (1.0, 0.0))


def rect_distance(x: float, y: float, seen: SeenTile, size: TileSize) -> float:
    """How far the point (x, y) lies outside the tile `seen` (0 on or inside it)."""
    cx, cy = seen.centre
    u = _axis(seen)
    rel = (x - cx, y - cy)
    along = abs(_dot(rel, u)) - size.length_mm / 2
    across = abs(_dot(rel, _left(u))) - size.width_mm / 2
    return math.hypot(max(along, 0.0), max(across, 0.0))


# --- edge positions -------------------------------------------------------------------------


def edge_positions(
    layout: Layout, coords: Sequence[SeenTile], size: TileSize = TileSize()
) -> list[tuple[EdgeAt, ...]]:
    """Every layout tile's edges (index = node), from the tiles' coordinates.

    `coords[i]` is where node `i` lies. A plain tile has HIGH and LOW; a double has its
    two sides and two arms (arms are edges of every double; only a spinner's open).
    """
    if len(coords) < len(layout.nodes):
        raise GeometryError(f"{len(layout.nodes)} tiles in the layout, {len(coords)} placed")
    out: list[tuple[EdgeAt, ...]] = []
    for index, node in enumerate(layout.nodes):
        if node.tile.is_double:
            out.append(_double_edges(index, layout, coords, out, size))
        else:
            out.append(_plain_edges(index, node.tile, coords[index], size))
    return out


def _plain_edges(index: int, tile: Tile, seen: SeenTile, size: TileSize) -> tuple[EdgeAt, ...]:
    high, low = _half_positions(tile, seen)
    u = _unit(high[0] - low[0], high[1] - low[1], (-1.0, 0.0))
    q = size.length_mm / 4
    return (
        EdgeAt(index, Edge.HIGH, high[0] + u[0] * q, high[1] + u[1] * q, u[0], u[1]),
        EdgeAt(index, Edge.LOW, low[0] - u[0] * q, low[1] - u[1] * q, -u[0], -u[1]),
    )


def _children(layout: Layout, index: int) -> list[tuple[int, Placed]]:
    return [(j, n) for j, n in enumerate(layout.nodes) if n.parent == index]


def _double_edges(
    index: int,
    layout: Layout,
    coords: Sequence[SeenTile],
    done: Sequence[tuple[EdgeAt, ...]],
    size: TileSize,
) -> tuple[EdgeAt, ...]:
    node = layout.nodes[index]
    seen = coords[index]
    c = seen.centre
    u = _axis(seen)
    kids = [(j, n) for j, n in _children(layout, index) if j < len(coords)]
    side_kid = next(((j, n) for j, n in kids if n.parent_edge in _SIDES), None)
    arm_kid = next(((j, n) for j, n in kids if n.parent_edge in _ARMS), None)

    def toward(j: int) -> Vec:
        return _facing(c, u, coords[j], size)

    if node.parent is not None and node.parent_edge is not None:
        parent_edge = next(e for e in done[node.parent] if e.edge is node.parent_edge)
        line = (parent_edge.dx, parent_edge.dy)
    elif side_kid is not None:
        line = toward(side_kid[0])
    elif arm_kid is not None:
        line = _canonical(_left(toward(arm_kid[0])))
    else:
        line = _canonical(_left(u))  # the standard model: a lead double lies crosswise
    d, along_ext, across_ext = _snap(line, u, size)
    a = _left(d)
    sides: dict[Edge, Vec]
    if node.parent is not None:
        sides = {Edge.SIDE0: (-d[0], -d[1]), Edge.SIDE1: d}
    elif side_kid is not None:
        first = side_kid[1].parent_edge
        sides = {e: (d if e is first else (-d[0], -d[1])) for e in _SIDES}
    else:
        sides = {Edge.SIDE0: d, Edge.SIDE1: (-d[0], -d[1])}
    arms: dict[Edge, Vec] = {Edge.ARM0: a, Edge.ARM1: (-a[0], -a[1])}
    if arm_kid is not None:
        s = a if _dot(toward(arm_kid[0]), a) >= 0 else (-a[0], -a[1])
        first = arm_kid[1].parent_edge
        arms = {e: (s if e is first else (-s[0], -s[1])) for e in _ARMS}
    edges = [
        EdgeAt(index, e, c[0] + v[0] * along_ext, c[1] + v[1] * along_ext, *v)
        for e, v in sides.items()
    ]
    edges += [
        EdgeAt(index, e, c[0] + v[0] * across_ext, c[1] + v[1] * across_ext, *v)
        for e, v in arms.items()
    ]
    return tuple(sorted(edges, key=lambda e: e.edge))


def _facing(c: Vec, u: Vec, other: SeenTile, size: TileSize) -> Vec:
    """Which way (along or across the double centred at `c`, lying along `u`) the tile
    `other` lies against it: the direction of its edge nearest `other`."""
    v = _left(u)
    half_l, half_w = size.length_mm / 2, size.width_mm / 2
    ways = [(u, half_l), ((-u[0], -u[1]), half_l), (v, half_w), ((-v[0], -v[1]), half_w)]
    return min(
        ways,
        key=lambda w: rect_distance(c[0] + w[0][0] * w[1], c[1] + w[0][1] * w[1], other, size),
    )[0]


def _snap(line: Vec, u: Vec, size: TileSize) -> tuple[Vec, float, float]:
    """The tile's own axis nearest `line` (signed like it), and its extents along/across."""
    v = _left(u)
    du, dv = _dot(line, u), _dot(line, v)
    if abs(du) >= abs(dv):  # the double lies in line
        d = u if du >= 0 else (-u[0], -u[1])
        return d, size.length_mm / 2, size.width_mm / 2
    d = v if dv >= 0 else (-v[0], -v[1])  # crosswise
    return d, size.width_mm / 2, size.length_mm / 2


_SIDES = (Edge.SIDE0, Edge.SIDE1)
_ARMS = (Edge.ARM0, Edge.ARM1)


# --- which open end a seen tile touches -------------------------------------------------------

_PREFER_OPEN_MM = 1.5  # between two edges about as near, the open one wins


def touching(
    layout: Layout,
    coords: Sequence[SeenTile],
    seen: SeenTile,
    size: TileSize = TileSize(),
    tolerance: float = DEFAULT_TOLERANCE_MM,
) -> Touch | None:
    """The layout edge `seen` touches (the nearest within `tolerance` mm), or None.

    The tile must lie beyond the edge (on its outward side), its touching half being the
    half nearer the edge's middle; or, at an open end, a half of it may lie beside the
    end half (side by side, going on past the end or across it). The first tile joined
    to a lead double defines the double's line: on a double with nothing joined yet, an
    end that is not open as an arm is read as a side. Mirror-image ends (a double's two
    sides or two arms, nothing joined to either) are reported as the first.
    """
    if not layout.nodes:
        return None
    opened = {(e.node, e.edge): e for e in layout.ends}
    found = _nearest_contact(layout, coords, seen, size, tolerance, opened)
    if found is None:
        return None
    at, distance, pip = found
    edge, end = at.edge, opened.get((at.node, at.edge))
    node = layout.nodes[at.node]
    if end is None and edge in _ARMS and node.parent is None and not node.used:
        end = next((e for e in layout.ends if e.node == at.node and e.edge in _SIDES), None)
        edge = end.edge if end is not None else edge
    elif end is not None and end.edge.kind is not EdgeKind.END:
        end = _first_mirror(layout, end)
        edge = end.edge
    return Touch(at.node, edge, pip, distance, end)


def _nearest_contact(
    layout: Layout,
    coords: Sequence[SeenTile],
    seen: SeenTile,
    size: TileSize,
    tolerance: float,
    opened: dict[tuple[int, Edge], OpenEnd],
) -> tuple[EdgeAt, float, int] | None:
    """The edge `seen` lies against (beyond it, or beside an open end's half), how far
    off, and the pips of its touching half."""
    cx, cy = seen.centre
    best: tuple[float, EdgeAt, float, int | None] | None = None
    for node_edges in edge_positions(layout, coords, size):
        for at in node_edges:
            distance = rect_distance(at.x, at.y, seen, size)
            is_open = (at.node, at.edge) in opened
            if distance <= tolerance and (cx - at.x) * at.dx + (cy - at.y) * at.dy > 0:
                key = distance - (_PREFER_OPEN_MM if is_open else 0.0)
                if best is None or key < best[0]:
                    best = (key, at, distance, None)
            elif is_open and at.edge.kind is EdgeKind.END:
                beside = _alongside(at, seen, size, tolerance - _ALONGSIDE_STRICTER_MM)
                key = beside[0] + _ALONGSIDE_STRICTER_MM if beside is not None else math.inf
                if beside is not None and (best is None or key < best[0]):
                    best = (key, at, beside[0], beside[1])
    if best is None:
        return None
    _, at, distance, pip = best
    if pip is None:  # the half nearer the edge's middle
        near_a = math.hypot(seen.xa - at.x, seen.ya - at.y) <= math.hypot(
            seen.xb - at.x, seen.yb - at.y
        )
        pip = seen.a if near_a else seen.b
    return at, distance, pip


_ALONGSIDE_STRICTER_MM = 2.0  # a tile beside an end half must lie closer than one beyond


def _alongside(
    at: EdgeAt, seen: SeenTile, size: TileSize, tolerance: float
) -> tuple[float, int] | None:
    """A half of `seen` lying beside the half whose outer edge is `at` (side by side,
    the new tile going on past the end or across it, not back along the tile): how far
    off it lies and its pips; None if no half does."""
    q = size.length_mm / 4
    hx, hy = at.x - at.dx * q, at.y - at.dy * q  # the end half's centre
    out = (at.dx, at.dy)
    side = _left(out)
    u = _axis(seen)
    reach = (
        size.width_mm / 2 + abs(_dot(u, side)) * q + abs(_dot(_left(u), side)) * size.width_mm / 2
    )
    found: tuple[float, int] | None = None
    halves = (
        ((seen.xa, seen.ya), (seen.xb, seen.yb), seen.a),
        ((seen.xb, seen.yb), (seen.xa, seen.ya), seen.b),
    )
    for (mx, my), (ox, oy), pip in halves:
        along = _dot((mx - hx, my - hy), out)
        across = _dot((mx - hx, my - hy), side)
        off = max(abs(along), abs(abs(across) - reach))
        back = _dot((ox - hx, oy - hy), out) < -q  # the other half lies beside the tile
        if off <= tolerance and not back and (found is None or off < found[0]):
            found = (off, pip)
    return found


def _first_mirror(layout: Layout, end: OpenEnd) -> OpenEnd:
    """Of two mirror-image ends (a double's sides or arms, nothing joined to either yet),
    the first: the engine lists them once, so either place is the same play."""
    node = layout.nodes[end.node]
    if any(e.kind is end.edge.kind for e in node.used):
        return end
    return next(
        e
        for e in layout.ends
        if e.node == end.node and e.edge.kind is end.edge.kind and e.pip == end.pip
    )


def locate(
    layout: Layout,
    coords: Sequence[SeenTile],
    seen: SeenTile,
    size: TileSize = TileSize(),
    tolerance: float = DEFAULT_TOLERANCE_MM,
) -> OpenEnd | JoinProblem:
    """The open end a newly seen tile joins, by geometry and pips, or why it cannot.

    NOT_TOUCHING: it touches no edge of the layout. CLOSED_END: it touches an edge that
    is not open (a spinner arm not open yet, a plain double's arm, a covered edge).
    NO_MATCH: it touches an open end with a half showing another number.
    """
    touch = touching(layout, coords, seen, size, tolerance)
    if touch is None:
        return JoinProblem.NOT_TOUCHING
    if touch.end is None:
        return JoinProblem.CLOSED_END
    if touch.end.pip != touch.pip:
        return JoinProblem.NO_MATCH
    return touch.end


# --- laying out a game ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Box:
    """An axis-aligned box: x0 <= x <= x1, y0 <= y <= y1."""

    x0: float
    y0: float
    x1: float
    y1: float

    def gap(self, other: _Box) -> float:
        dx = max(other.x0 - self.x1, self.x0 - other.x1, 0.0)
        dy = max(other.y0 - self.y1, self.y0 - other.y1, 0.0)
        return math.hypot(dx, dy)

    def overlaps(self, other: _Box, slack: float = 0.5) -> bool:
        return (
            min(self.x1, other.x1) - max(self.x0, other.x0) > slack
            and min(self.y1, other.y1) - max(self.y0, other.y0) > slack
        )


def _box(seen: SeenTile, size: TileSize) -> _Box:
    u = _axis(seen)
    cx, cy = seen.centre
    hl, hw = size.length_mm / 2, size.width_mm / 2
    ex = abs(u[0]) * hl + abs(u[1]) * hw
    ey = abs(u[1]) * hl + abs(u[0]) * hw
    return _Box(cx - ex, cy - ey, cx + ex, cy + ey)


def _snap_axis(v: Vec) -> Vec:
    if abs(v[0]) >= abs(v[1]):
        return (1.0 if v[0] >= 0 else -1.0, 0.0)
    return (0.0, 1.0 if v[1] >= 0 else -1.0)


@dataclass(frozen=True, slots=True)
class _Option:
    seen: SeenTile
    beyond: EdgeAt  # where the line goes on from the new tile


class Placer:
    """Lays out a game on a `width_mm` x `height_mm` surface, deterministically.

    The lead goes to the centre (a plain tile along x, high half left; a double
    crosswise). A plain tile goes on in line away from its parent; a double lies
    crosswise, its middle touching the end (or in line, with `doubles=IN_LINE`); a tile
    joined to a double's side goes on through the double's middle; a spinner's arms go
    perpendicular. Where the line would leave the surface, come within `gap_mm` of
    another tile (half a tile's width by default) or leave no room to go on, it turns a
    corner: the next tile lies across, its touching half still against the end; two
    tiles after a corner it turns back (a snake). As a last resort a tile is squeezed in
    against others, clear of their edges. Coordinates are whole mm.
    """

    def __init__(
        self,
        width_mm: int,
        height_mm: int,
        size: TileSize = TileSize(),
        *,
        doubles: DoubleLie = DoubleLie.CROSSWISE,
        gap_mm: float | None = None,
    ) -> None:
        if width_mm < size.length_mm * 3 or height_mm < size.length_mm * 3:
            raise GeometryError(f"a surface of {width_mm} x {height_mm} mm is too small")
        self.width_mm = width_mm
        self.height_mm = height_mm
        self.size = size
        self.doubles = doubles
        self.gap_mm = size.width_mm / 2 if gap_mm is None else gap_mm

    def place(
        self, layout: Layout, coords: Sequence[SeenTile], tile: Tile, end: OpenEnd | None
    ) -> SeenTile:
        """Where `tile` goes: the lead when `end` is None, else joined at `end`.

        `coords[i]` is where layout node `i` lies. `a` of the result is `tile.high`.
        Raises GeometryError when no place is left on the surface.
        """
        if end is None:
            return self._lead(tile)
        edges = edge_positions(layout, coords, self.size)
        at = next((e for e in edges[end.node] if e.edge is end.edge), None)
        if at is None:
            raise GeometryError(f"{layout.nodes[end.node].tile} has no edge {end.edge.name}")
        boxes = [_box(s, self.size) for s in coords[: len(layout.nodes)]]
        back = self._turned_from(layout, edges, end.node, at)
        options = self._options(tile, end.pip, at, back, boxes, end.node)
        if end.edge.kind is not EdgeKind.END and not any(
            e.kind is end.edge.kind for e in layout.nodes[end.node].used
        ):  # a mirror-image edge is the same play: take whichever has room
            mirror = next(
                e
                for e in edges[end.node]
                if e.edge.kind is end.edge.kind and e.edge is not end.edge
            )
            others = self._options(tile, end.pip, mirror, back, boxes, end.node)
            options = [o for pair in zip(options, others, strict=True) for o in pair]
        fitting = [o for o in options if self._fits(o.seen, boxes, end.node)]
        if not fitting:  # squeezed in: against other tiles, but clear of their edges
            fitting = [o for o in options if self._squeezes(o.seen, boxes, edges, at)]
        if not fitting:
            raise GeometryError(f"no room for {tile} at {end}: the surface is full there")
        roomy = [o for o in fitting if self._room_beyond(o, boxes)]
        return (roomy or fitting)[0].seen

    def lay_out(self, layout: Layout) -> list[SeenTile]:
        """Where every tile of `layout` goes, played in order (for a layout known only as
        a topology: a replay, a state to draw). The same as placing each as it came."""
        coords: list[SeenTile] = []
        for index, node in enumerate(layout.nodes):
            end = None
            if node.parent is not None and node.parent_edge is not None:
                parent = layout.nodes[node.parent]
                pip = parent.tile.low if node.parent_edge is Edge.LOW else parent.tile.high
                end = OpenEnd(node.parent, node.parent_edge, pip)
            coords.append(self.place(_first(layout, index), coords, node.tile, end))
        return coords

    def _lead(self, tile: Tile) -> SeenTile:
        cx, cy = self.width_mm // 2, self.height_mm // 2
        q = self.size.length_mm / 4
        if tile.is_double and self.doubles is DoubleLie.CROSSWISE:
            return _seen(tile.high, tile.low, (cx, cy - q), (cx, cy + q))
        return _seen(tile.high, tile.low, (cx - q, cy), (cx + q, cy))

    def _turned_from(
        self, layout: Layout, edges: Sequence[tuple[EdgeAt, ...]], index: int, at: EdgeAt
    ) -> Vec | None:
        """The way the line came before its last corner, when it is time to turn back
        (a snake): `TURN_BACK_AFTER` tiles after the corner."""
        now = _snap_axis((at.dx, at.dy))
        for run in range(1, TURN_BACK_AFTER + 1):
            node = layout.nodes[index]
            if node.tile.is_double or node.parent is None or node.parent_edge is None:
                return None
            came = next(e for e in edges[node.parent] if e.edge is node.parent_edge)
            was = _snap_axis((came.dx, came.dy))
            if was != now:
                return was if run == TURN_BACK_AFTER else None
            index = node.parent
        return None

    def _options(
        self,
        tile: Tile,
        pip: int,
        at: EdgeAt,
        back: Vec | None,
        boxes: Sequence[_Box],
        parent: int,
    ) -> list[_Option]:
        """Where the tile could go, best first: on in line, else round a corner."""
        n = _snap_axis((at.dx, at.dy))
        p = (at.x, at.y)
        length, width = self.size.length_mm, self.size.width_mm
        far_pip = tile.other(pip)
        if tile.is_double and self.doubles is DoubleLie.CROSSWISE:
            centre = _along(p, n, width / 2)
            a = _left(n)
            halves = (_along(centre, a, length / 4), _along(centre, a, -length / 4))
            return [_Option(_seen(pip, pip, *halves), _beyond(p, n, width))]
        straight = _Option(
            _seen(pip, far_pip, _along(p, n, length / 4), _along(p, n, 3 * length / 4)),
            _beyond(p, n, length),
        )
        if tile.is_double:
            return [straight]
        near = _along(p, n, width / 2)
        left = _left(n)
        right = (-left[0], -left[1])
        if back is not None:  # just turned a corner: turn again, back the way it came
            back_turn = (-back[0], -back[1])
            turns = [back_turn, right if back_turn == left else left]
        else:
            turns = sorted((left, right), key=lambda t: -self._reach(p, t, boxes, parent))
        corners = [
            _Option(
                _seen(pip, far_pip, near, _along(near, t, length / 2)),
                _beyond(near, t, 3 * length / 4),
            )
            for t in turns
        ]
        if back is not None:
            return [corners[0], straight, corners[1]]
        return [straight, *corners]

    def _reach(self, p: Vec, t: Vec, boxes: Sequence[_Box], parent: int) -> float:
        """How far the line could run from `p` in direction `t` (an axis) before it meets
        the border or comes near a tile."""
        if t[0] > 0:
            border = self.width_mm - p[0]
        elif t[0] < 0:
            border = p[0]
        else:
            border = self.height_mm - p[1] if t[1] > 0 else p[1]
        half = self.size.width_mm / 2
        k = half
        while k < border:
            x, y = _along(p, t, k)
            probe = _Box(x - half, y - half, x + half, y + half)
            if any(probe.gap(b) < self.gap_mm - 0.5 for i, b in enumerate(boxes) if i != parent):
                return k
            k += half
        return border

    def _inside(self, box: _Box) -> bool:
        return box.x0 >= 0 and box.y0 >= 0 and box.x1 <= self.width_mm and box.y1 <= self.height_mm

    def _fits(self, seen: SeenTile, boxes: Sequence[_Box], parent: int) -> bool:
        box = _box(seen, self.size)
        if not self._inside(box):
            return False
        for i, other in enumerate(boxes):
            if i == parent:
                if box.overlaps(other):
                    return False
            elif box.gap(other) < self.gap_mm - 0.5:
                return False
        return True

    def _squeezes(
        self,
        seen: SeenTile,
        boxes: Sequence[_Box],
        edges: Sequence[tuple[EdgeAt, ...]],
        at: EdgeAt,
    ) -> bool:
        """Whether `seen` fits overlapping no tile and far enough from every other edge
        that `locate` cannot take it for a tile joined there."""
        box = _box(seen, self.size)
        if not self._inside(box) or any(box.overlaps(b) for b in boxes):
            return False
        clear = DEFAULT_TOLERANCE_MM + 3
        return all(
            rect_distance(e.x, e.y, seen, self.size) > clear
            and (e.edge.kind is not EdgeKind.END or _alongside(e, seen, self.size, clear) is None)
            for node_edges in edges
            for e in node_edges
            if (e.node, e.edge) != (at.node, at.edge)
        )

    def _room_beyond(self, option: _Option, boxes: Sequence[_Box]) -> bool:
        """Whether the line can go on beyond the new tile: a crosswise double (the widest
        next tile) and a corner after it would fit."""
        at = option.beyond
        deep, half = self.size.width_mm + self.size.length_mm, self.size.length_mm / 2
        n = (at.dx, at.dy)
        a = _left(n)
        xs = [at.x + n[0] * k + a[0] * s for k in (0, deep) for s in (-half, half)]
        ys = [at.y + n[1] * k + a[1] * s for k in (0, deep) for s in (-half, half)]
        room = _Box(min(xs), min(ys), max(xs), max(ys))
        if not self._inside(room):
            return False
        mine = _box(option.seen, self.size)
        return all(room.gap(b) >= self.gap_mm - 0.5 for b in boxes) and not room.overlaps(mine)


def _first(layout: Layout, count: int) -> Layout:
    """`layout` as it was when it held its first `count` tiles (nodes and used edges)."""
    early = layout.copy()
    nodes = early.nodes[:count]
    for node in nodes:
        node.used = [node.edge] if node.edge is not None else []
    for node in nodes:
        if node.parent is not None and node.parent_edge is not None:
            nodes[node.parent].used.append(node.parent_edge)
    early.nodes = nodes
    early.ends = []
    return early


def _along(base: Vec, d: Vec, k: float) -> Vec:
    return (base[0] + d[0] * k, base[1] + d[1] * k)


def _beyond(base: Vec, d: Vec, k: float) -> EdgeAt:
    """The open edge a new tile leaves, `k` mm from `base` along `d`."""
    x, y = _along(base, d, k)
    return EdgeAt(-1, Edge.LOW, x, y, d[0], d[1])


def _seen(a: int, b: int, pa: Vec, pb: Vec) -> SeenTile:
    """A tile with `a` at `pa`, in whole mm, the higher number as `a`."""
    seen = SeenTile(a, b, round(pa[0]), round(pa[1]), round(pb[0]), round(pb[1]))
    return seen.high_first()
