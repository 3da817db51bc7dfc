"""The layout as a topology: which tile joins which, and where tiles can join now.

A non-double tile has two ends (the far edges of its high and low halves). A double
lies crosswise: its two in-line edges are its *sides*; a spinner also has two *arms*
(the perpendicular edges). An open end is a place a tile can be joined now. Positions
in millimetres are not the layout's business (see `engine.geometry`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import NamedTuple

from engine.events import Coords
from engine.rules import ArmsOpen, Rules, SpinnerCounts, SpinnerRule
from engine.tiles import Tile


class Edge(IntEnum):
    HIGH = 0  # the outer edge of the half showing a non-double's high number
    LOW = 1
    SIDE0 = 2  # a double's in-line edges
    SIDE1 = 3
    ARM0 = 4  # a spinner's perpendicular edges
    ARM1 = 5

    @property
    def kind(self) -> EdgeKind:
        return _EDGE_KIND[self]

    def __repr__(self) -> str:
        return f"Edge.{self.name}"  # (Python that gives it back)


class EdgeKind(Enum):
    END = "end"
    SIDE = "side"
    ARM = "arm"

    def __repr__(self) -> str:
        return f"EdgeKind.{self.name}"


_EDGE_KIND = {
    Edge.HIGH: EdgeKind.END,
    Edge.LOW: EdgeKind.END,
    Edge.SIDE0: EdgeKind.SIDE,
    Edge.SIDE1: EdgeKind.SIDE,
    Edge.ARM0: EdgeKind.ARM,
    Edge.ARM1: EdgeKind.ARM,
}
_SIDES = (Edge.SIDE0, Edge.SIDE1)
_ARMS = (Edge.ARM0, Edge.ARM1)


class OpenEnd(NamedTuple):
    """A place a tile can join: edge `edge` of the `node`-th tile played, showing `pip`."""

    node: int
    edge: Edge
    pip: int


# tuple.__new__ builds a named tuple in C, skipping its Python-level __new__ (hot path).
_new_end = tuple.__new__


class Placed:
    """One tile in the layout, who laid it and where it lies (when the table said)."""

    # A plain class with slots rather than a dataclass: the engine makes one per play and
    # builds it without calling __init__ (see `Layout.place`); equality and repr are the
    # dataclass's.
    __slots__ = ("coords", "edge", "parent", "parent_edge", "seat", "spinner", "tile", "used")

    tile: Tile
    parent: int | None  # the node it joined (None for the lead)
    parent_edge: Edge | None
    edge: Edge | None  # its own edge that touches the parent
    spinner: bool
    used: list[Edge]  # its edges that tiles cover
    seat: int | None  # who laid it (None: a lead not attributed yet)
    coords: Coords | None  # where it lies on the table (None: not said)

    def __init__(
        self,
        tile: Tile,
        parent: int | None,
        parent_edge: Edge | None,
        edge: Edge | None,
        spinner: bool,
        used: list[Edge] | None = None,
        seat: int | None = None,
        coords: Coords | None = None,
    ) -> None:
        self.tile = tile
        self.parent = parent
        self.parent_edge = parent_edge
        self.edge = edge
        self.spinner = spinner
        self.used = [] if used is None else used
        self.seat = seat
        self.coords = coords

    def _fields(self) -> tuple[object, ...]:
        return (
            self.tile,
            self.parent,
            self.parent_edge,
            self.edge,
            self.spinner,
            self.used,
            self.seat,
            self.coords,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Placed)
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it was

    def __repr__(self) -> str:
        return (
            f"Placed(tile={self.tile!r}, parent={self.parent!r}, "
            f"parent_edge={self.parent_edge!r}, edge={self.edge!r}, "
            f"spinner={self.spinner!r}, used={self.used!r}, seat={self.seat!r}, "
            f"coords={self.coords!r})"
        )

    def sides_covered(self) -> int:
        used = self.used
        return used.count(_SIDE0) + used.count(_SIDE1)  # in C (Edge is an IntEnum)


_new_placed = object.__new__


def _placed(
    tile: Tile,
    parent: int | None,
    parent_edge: Edge | None,
    edge: Edge | None,
    spinner: bool,
    used: list[Edge],
) -> Placed:
    """`Placed(...)` without the class call (calling a class with a Python __init__ is
    several times dearer than a function call)."""
    node = _new_placed(Placed)
    node.tile = tile
    node.parent = parent
    node.parent_edge = parent_edge
    node.edge = edge
    node.spinner = spinner
    node.used = used
    return node


# Enum members the hot path uses, as module names: an attribute lookup on an enum class
# goes through the enum metaclass's __getattr__ hook, a global load does not.
_HIGH, _LOW, _SIDE0, _SIDE1 = Edge.HIGH, Edge.LOW, Edge.SIDE0, Edge.SIDE1
_ONE_EDGE, _ARMS_KEEP = SpinnerCounts.ONE_EDGE, SpinnerCounts.ARMS_KEEP
_EVERY_DOUBLE, _LEAD_DOUBLE = SpinnerRule.EVERY_DOUBLE, SpinnerRule.LEAD_DOUBLE
_FIRST_DOUBLE = SpinnerRule.FIRST_DOUBLE


def _offers(ends: list[OpenEnd]) -> list[OpenEnd]:
    """`ends` less mirror images (a double's second side, a spinner's second arm): the
    ends a play can name. Mirror images are opened together, so they sit side by side.
    Returns `ends` itself when it has none, so that the two stay one list."""
    out: list[OpenEnd] = []
    last = None
    for end in ends:
        if (
            last is not None
            and last.node == end.node
            and last.edge >> 1 == end.edge >> 1
            and last.pip == end.pip
        ):
            continue
        out.append(end)
        last = end
    return ends if len(out) == len(ends) else out


class JoinProblem(Enum):
    """Why a tile cannot join where it was asked to."""

    NO_MATCH = "no_match"  # the end shows another number
    NOT_TOUCHING = "not_touching"  # no such tile with an open end
    CLOSED_END = "closed_end"  # an arm or side that is not open (yet)
    AMBIGUOUS = "ambiguous"  # it fits two ends showing different numbers: say which


@dataclass(frozen=True, slots=True)
class Target:
    """Where a tile joins, as a player says it: the tile `to`, optionally which number
    (`pip`) and, on a spinner, `side` or `arm` (`kind`); see `Layout.resolve`."""

    to: Tile
    pip: int | None = None
    kind: EdgeKind | None = None


class Layout:
    """Tiles played this hand, in play order, and the ends open now."""

    __slots__ = (
        "_arms_at_once",
        "_count_both",
        "_counts",
        "_spinner_rule",
        "ends",
        "nodes",
        "offers",
        "total",
    )

    def __init__(self, rules: Rules) -> None:
        self._spinner_rule = rules.spinner
        self._arms_at_once = rules.arms is ArmsOpen.AT_ONCE
        self._counts = rules.spinner_counts
        self._count_both = rules.double_counts_both
        self.nodes: list[Placed] = []
        self.ends: list[OpenEnd] = []
        # Kept up to date by `place` for the engine's hot path (code that edits `nodes` or
        # `ends` by hand must not rely on them): `offers`, `ends` less mirror images (the
        # ends to offer, often `ends` itself), and `total`, what `ends_total()` returns.
        self.offers: list[OpenEnd] = self.ends
        self.total = 0

    # --- reading --------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.nodes)

    @property
    def spinner(self) -> Tile | None:
        for node in self.nodes:
            if node.spinner:
                return node.tile
        return None

    def tiles(self) -> list[Tile]:
        return [n.tile for n in self.nodes]

    def seats(self) -> list[int | None]:
        """Who laid each tile, in play order (None: a lead not attributed yet)."""
        return [n.seat for n in self.nodes]

    def index_of(self, tile: Tile) -> int | None:
        for i, node in enumerate(self.nodes):
            if node.tile is tile:
                return i
        return None

    def joins(self, tile: Tile) -> list[OpenEnd]:
        """The distinct ends `tile` can join (mirror-image ends are listed once)."""
        hi, lo = tile.high, tile.low
        out: list[OpenEnd] = []
        seen: set[tuple[int, EdgeKind, int]] = set()
        for end in self.ends:
            if end.pip == hi or end.pip == lo:
                key = (end.node, end.edge.kind, end.pip)
                if key not in seen:
                    seen.add(key)
                    out.append(end)
        return out

    def ends_total(self) -> int:
        """What the open ends add up to under the rules (doubles, spinner, arms)."""
        return self._ends_total()

    def _ends_total(self) -> int:
        total = 0
        doubles: list[int] = []
        for index, edge, pip in self.ends:
            if edge < 2:  # HIGH or LOW: the end of a plain tile
                total += pip
            elif index not in doubles:
                doubles.append(index)
                total += self.double_value(self.nodes[index], pip)
        return total

    def end_counts(self, end: OpenEnd) -> int:
        """What one open end adds to the total now (a double's value goes to its first end)."""
        node = self.nodes[end.node]
        if node.tile.high != node.tile.low:
            return end.pip
        first = next(e for e in self.ends if e.node == end.node)
        return self.double_value(node, end.pip) if first == end else 0

    def double_value(self, node: Placed, pip: int) -> int:
        whole = 2 * pip if self._count_both else pip
        if not node.spinner:
            return whole if len(node.used) <= 1 else 0
        if self._counts is _ONE_EDGE:
            return whole if len(node.used) <= 1 else 0
        if node.sides_covered() < 2:
            return whole
        if self._counts is _ARMS_KEEP:
            return pip * sum(1 for e in self.ends if e.node == self.nodes.index(node))
        return 0

    def stitched(self) -> bool:
        """Both ends of a line show the same number (two open places, one number)."""
        if len(self.nodes) < 2 or len(self.ends) != 2:
            return False
        a, b = self.ends
        return a.pip == b.pip and a.node != b.node

    # --- finding the end a play names -----------------------------------------------

    def find_end(self, tile: Tile, where: OpenEnd | Target | None) -> OpenEnd | JoinProblem:
        """The open end `tile` joins as a play names it (`where`: an open end, a `Target`,
        or None: wherever it fits, if that is one number), or why it cannot."""
        if isinstance(where, OpenEnd):
            if where not in self.ends:
                return JoinProblem.NOT_TOUCHING
            return where if tile.has(where.pip) else JoinProblem.NO_MATCH
        if isinstance(where, Target):
            return self.resolve(tile, where.to, where.pip, where.kind)
        ends = self.joins(tile)
        if not ends:
            return JoinProblem.NO_MATCH
        if len({e.pip for e in ends}) > 1:
            return JoinProblem.AMBIGUOUS
        return ends[0]

    def numbers_at(self, where: OpenEnd | Target | None) -> tuple[int, ...]:
        """The numbers the open end(s) a play names show (every open end: none named)."""
        if isinstance(where, OpenEnd):
            return (where.pip,)
        ends = self.ends
        if isinstance(where, Target):
            at = self.index_of(where.to)
            ends = [
                e
                for e in ends
                if e.node == at
                and (where.kind is None or e.edge.kind is where.kind)
                and (where.pip is None or e.pip == where.pip)
            ]
        return tuple(dict.fromkeys(e.pip for e in ends))

    def resolve(
        self, tile: Tile, to: Tile, pip: int | None = None, kind: EdgeKind | None = None
    ) -> OpenEnd | JoinProblem:
        """The open end of `to` that `tile` joins, or why it cannot.

        `pip` picks between two open ends of `to` showing different numbers; `kind`
        between a spinner's sides and arms.
        """
        at = self.index_of(to)
        if at is None:
            return JoinProblem.NOT_TOUCHING
        candidates = [e for e in self.ends if e.node == at]
        if kind is not None:
            candidates = [e for e in candidates if e.edge.kind is kind]
        if pip is not None:
            candidates = [e for e in candidates if e.pip == pip]
        if not candidates:
            return self._closed_or_missing(at, kind)
        fitting = [e for e in candidates if tile.has(e.pip)]
        if not fitting:
            return JoinProblem.NO_MATCH
        if len({e.pip for e in fitting}) > 1:
            return JoinProblem.AMBIGUOUS
        # Prefer a side over an arm: the first tile joined to a double goes in line.
        fitting.sort(key=lambda e: e.edge)
        return fitting[0]

    def _closed_or_missing(self, at: int, kind: EdgeKind | None) -> JoinProblem:
        node = self.nodes[at]
        if node.tile.is_double and kind in (None, EdgeKind.ARM, EdgeKind.SIDE):
            free = [e for e in (*_SIDES, *(_ARMS if node.spinner else ())) if e not in node.used]
            if kind is EdgeKind.ARM or free:
                return JoinProblem.CLOSED_END
        return JoinProblem.NOT_TOUCHING

    # --- changing -------------------------------------------------------------------

    def place(
        self,
        tile: Tile,
        end: OpenEnd | None,
        seat: int | None = None,
        coords: Coords | None = None,
    ) -> Placed:
        """Lay `tile` (by `seat`, lying at `coords`): as the lead when `end` is None, else
        joined at `end` (must fit)."""
        nodes = self.nodes
        index = len(nodes)
        if end is not None and end.edge < 2 and not tile.is_double:
            # The common case, kept lean: a plain tile joins a plain tile's end, and its
            # far end opens. Nothing else changes, so the mirror-free ends and the total
            # are updated in place rather than recomputed.
            ends = self.ends
            ends.remove(end)
            at, edge, pip = end
            nodes[at].used.append(edge)
            if tile.high == pip:
                own, far_pip = _HIGH, tile.low
                far = _new_end(OpenEnd, (index, _LOW, far_pip))
            else:
                own, far_pip = _LOW, tile.high
                far = _new_end(OpenEnd, (index, _HIGH, far_pip))
            # Built without calling __init__: a Python-level call per play saved.
            node = _new_placed(Placed)
            node.tile = tile
            node.parent = at
            node.parent_edge = edge
            node.edge = own
            node.spinner = False
            node.used = [own]
            node.seat = seat
            node.coords = coords
            nodes.append(node)
            ends.append(far)
            offers = self.offers
            if offers is not ends:
                offers.remove(end)
                offers.append(far)
            self.total += far_pip - pip
            return node
        node = self._place_other(tile, end, index)
        node.seat = seat
        node.coords = coords
        self.offers = _offers(self.ends)
        self.total = self._ends_total()
        return node

    def _place_other(self, tile: Tile, end: OpenEnd | None, index: int) -> Placed:
        nodes = self.nodes
        spinner = tile.is_double and self._becomes_spinner(index)
        if end is None:
            node = _placed(tile, None, None, None, spinner, [])
            nodes.append(node)
            self._open_own(index, node, None)
            return node
        at, edge, pip = end
        parent = nodes[at]
        self.ends.remove(end)
        parent.used.append(edge)
        if not tile.is_double:
            own = _HIGH if tile.high == pip else _LOW
            node = _placed(tile, at, edge, own, False, [own])
        else:
            node = _placed(tile, at, edge, _SIDE0, spinner, [_SIDE0])
        nodes.append(node)
        self._open_own(index, node, node.edge)
        if parent.spinner and not self._arms_at_once and edge >> 1 == 1:  # a side
            self._open_arms_after_sides(at, parent)
        return node

    def _becomes_spinner(self, index: int) -> bool:
        rule = self._spinner_rule
        if rule is _EVERY_DOUBLE:
            return True
        if rule is _LEAD_DOUBLE:
            return index == 0
        if rule is _FIRST_DOUBLE:
            return not any(n.spinner for n in self.nodes)
        return False

    def _open_own(self, index: int, node: Placed, joined: Edge | None) -> None:
        tile = node.tile
        ends = self.ends
        if not tile.is_double:
            if joined is None:
                ends.append(_new_end(OpenEnd, (index, _HIGH, tile.high)))
                ends.append(_new_end(OpenEnd, (index, _LOW, tile.low)))
            elif joined is _HIGH:
                ends.append(_new_end(OpenEnd, (index, _LOW, tile.low)))
            else:
                ends.append(_new_end(OpenEnd, (index, _HIGH, tile.high)))
            return
        for side in _SIDES:
            if side is not joined:
                ends.append(_new_end(OpenEnd, (index, side, tile.high)))
        if node.spinner and self._arms_at_once:
            for arm in _ARMS:
                ends.append(_new_end(OpenEnd, (index, arm, tile.high)))

    def _open_arms_after_sides(self, index: int, node: Placed) -> None:
        if node.sides_covered() == 2:
            for arm in _ARMS:
                self.ends.append(_new_end(OpenEnd, (index, arm, node.tile.high)))

    def copy(self) -> Layout:
        other = Layout.__new__(Layout)
        other._spinner_rule = self._spinner_rule
        other._arms_at_once = self._arms_at_once
        other._counts = self._counts
        other._count_both = self._count_both
        other.nodes = [
            Placed(
                n.tile, n.parent, n.parent_edge, n.edge, n.spinner, list(n.used), n.seat, n.coords
            )
            for n in self.nodes
        ]
        other.ends = list(self.ends)
        other.offers = _offers(other.ends)
        other.total = self.total
        return other
