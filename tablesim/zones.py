"""Where the players lay their tiles left at the end of a hand: face up in their zones.

Each seat's tiles lie in its zone (the table's `[zones]`: seat -> (x0, y0, x1, y1) mm),
nearest its middle first, clear of the layout and of each other, so the camera counts
them. Plain geometry on `engine.surface.SeenTile`; imports only `engine`.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.surface import SeenTile
from engine.tiles import Tile

__all__ = ["ZONE_GAP_MM", "Rect", "lay_in_zones", "rect", "zone_slots"]

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm
ZONE_GAP_MM = 16.0  # between tiles laid out for counting, and from the layout


def rect(values: Sequence[float]) -> Rect:
    """A zone's four numbers (x0, y0, x1, y1) as floats."""
    x0, y0, x1, y1 = (float(v) for v in values)
    return (x0, y0, x1, y1)


def lay_in_zones(
    hands: Sequence[Sequence[Tile]],
    layout: Sequence[SeenTile],
    zones: Sequence[tuple[int, Rect]],
    size: tuple[int, int],
    tile: tuple[float, float] = (48.0, 24.0),
) -> list[tuple[SeenTile, ...]] | None:
    """Each seat's tiles face up in its zone, clear of the layout; None if they do not
    all go (no zone for a seat holding tiles, or no room). `tile` is the set's tile
    (length, width) in mm."""
    by_seat = dict(zones)
    out: list[tuple[SeenTile, ...]] = []
    taken = list(layout)
    for seat, hand in enumerate(hands):
        if not hand:
            out.append(())
            continue
        zone = by_seat.get(seat)
        if zone is None:
            return None
        others = [r for s, r in zones if s != seat]
        slots = zone_slots(zone, others, taken, size, tile)
        if len(slots) < len(hand):
            return None
        seen = tuple(SeenTile(t.high, t.low, *slot) for t, slot in zip(hand, slots, strict=False))
        taken.extend(seen)
        out.append(seen)
    return out


def zone_slots(
    zone: Rect,
    others: Sequence[Rect],
    taken: Sequence[SeenTile],
    size: tuple[int, int],
    tile: tuple[float, float] = (48.0, 24.0),
) -> list[tuple[float, float, float, float]]:
    """Where tiles may lie in `zone` (xa, ya, xb, yb), nearest its middle first: wholly
    inside it and the surface, `ZONE_GAP_MM` clear of `taken` tiles, their centres in no
    other zone. A tile lies across the zone's long side (pointing at its seat)."""
    x0, y0, x1, y1 = zone
    x0, y0, x1, y1 = max(x0, 0.0), max(y0, 0.0), min(x1, size[0]), min(y1, size[1])
    length, width = tile
    across = x1 - x0 >= y1 - y0  # a strip along the x axis: tiles stand along y
    w, h = (width, length) if across else (length, width)
    pitch_x, pitch_y = w + ZONE_GAP_MM, h + ZONE_GAP_MM
    cols = int((x1 - x0 - w) // pitch_x) + 1 if x1 - x0 >= w else 0
    rows = int((y1 - y0 - h) // pitch_y) + 1 if y1 - y0 >= h else 0
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    boxes = [_box(t, width) for t in taken]
    slots: list[tuple[float, float, tuple[float, float, float, float]]] = []
    for i in range(cols):
        for j in range(rows):
            cx = mx + (i - (cols - 1) / 2) * pitch_x
            cy = my + (j - (rows - 1) / 2) * pitch_y
            box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            if any(_apart(box, b) < ZONE_GAP_MM for b in boxes):
                continue
            if any(o[0] <= cx <= o[2] and o[1] <= cy <= o[3] for o in others):
                continue
            half = length / 4
            ends = (cx, cy - half, cx, cy + half) if across else (cx - half, cy, cx + half, cy)
            slots.append((abs(cx - mx) + abs(cy - my), cx if across else cy, ends))
    return [ends for _, _, ends in sorted(slots)]


def _box(seen: SeenTile, width: float) -> tuple[float, float, float, float]:
    """A tile's bounding box (mm), from its half centres (a tile lies square to the axes
    or close to it)."""
    r = width / 2
    return (
        min(seen.xa, seen.xb) - r,
        min(seen.ya, seen.yb) - r,
        max(seen.xa, seen.xb) + r,
        max(seen.ya, seen.yb) + r,
    )


def _apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """The gap between two boxes (0 when they overlap)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return max(dx, dy)
