"""Schema-valid payloads of one table, as the controller would publish them.

A walnut game (All Fives with a spinner) between four players, five tiles down: the
5-5 spinner led at the centre of a 900 x 600 mm surface, 48 x 24 mm tiles.
"""

from __future__ import annotations

import copy
from typing import Any

from tests.fixtures.spec import validate

TABLE = "t7"
GAME = "2026-11-22T04:00:00Z"
TS = "2026-11-22T04:30:00.000Z"

Json = dict[str, Any]

TILES: list[Json] = [
    {"tile": "5-5", "seat": 0, "xa": 450, "ya": 288, "xb": 450, "yb": 312},
    {"tile": "5-3", "seat": 1, "xa": 474, "ya": 300, "xb": 498, "yb": 300},
    {"tile": "5-1", "seat": 2, "xa": 426, "ya": 300, "xb": 402, "yb": 300},
    {"tile": "3-3", "seat": 3, "xa": 522, "ya": 288, "xb": 522, "yb": 312},
    {"tile": "4-1", "seat": 0, "xa": 354, "ya": 300, "xb": 378, "yb": 300},
]
OPEN_ENDS: list[Json] = [
    {"tile": "3-3", "pip": 3, "x": 534, "y": 300, "counts": 6},
    {"tile": "4-1", "pip": 4, "x": 342, "y": 300, "counts": 4},
    {"tile": "5-5", "pip": 5, "x": 450, "y": 276, "counts": 0},
    {"tile": "5-5", "pip": 5, "x": 450, "y": 324, "counts": 0},
]
NAMES = ["Ana", "Ben", "Carla", "Dev"]
SIDES = ["bottom", "right", "top", "left"]


def common(seq: int | None = None, **fields: Any) -> Json:
    out: Json = {"v": 1, "table": TABLE, "ts": TS, "game_id": GAME}
    if seq is not None:
        out["seq"] = seq
    return {**out, **fields}


def play(
    seq: int,
    tile: str = "4-1",
    seat: int = 0,
    points: int = 10,
    score: int = 85,
    announce: tuple[str, ...] = (),
) -> Json:
    placed = next(t for t in TILES if t["tile"] == tile)
    payload = common(
        seq,
        hand=3,
        seat=seat,
        points=points,
        ends_total=10,
        score=score,
        announce=list(announce),
        **{k: placed[k] for k in ("tile", "xa", "ya", "xb", "yb")},
    )
    validate("play", payload)
    return payload


def alert(
    seq: int,
    resolved: bool = False,
    code: str = "NO_MATCH",
    alert_id: str = "a1",
    message: str = "The 6-2 does not match the 3 it touches.",
    severity: str = "illegal",
    seat: int | None = 1,
    tile: str | None = "6-2",
) -> Json:
    payload = common(
        seq,
        code=code,
        severity=severity,
        message=message,
        resolved=resolved,
        id=alert_id,
        seat=seat,
        tile=tile,
    )
    validate("alert", payload)
    return payload


def state(
    seq: int = 20,
    scores: tuple[int, ...] = (85, 40, 6, 130),
    turn: int | None = 1,
    phase: str = "play",
    **extra: Any,
) -> Json:
    seats = [
        {
            "seat": i,
            "name": NAMES[i],
            "team": None,
            "side": SIDES[i],
            "score": scores[i],
            "tiles_left": 5 - (i == 0) * 2,
        }
        for i in range(len(scores))
    ]
    payload = common(
        seq,
        rules="walnut",
        target=150,
        hand=3,
        phase=phase,
        turn=turn,
        surface={"width_mm": 900, "height_mm": 600},
        seats=seats,
        teams=[],
        layout={
            "tiles": copy.deepcopy(TILES),
            "spinner": "5-5",
            "open_ends": copy.deepcopy(OPEN_ENDS),
            "ends_total": 10,
        },
        boneyard=8,
        alerts=[],
        history=history(),
        last=play(seq) if "last" not in extra else None,
    )
    payload.update(extra)
    validate("state", payload)
    return payload


def partners_state(seq: int = 30) -> Json:
    payload = state(seq, scores=(120, 75, 120, 75), turn=2, rules="puerto-rico", target=200)
    for seat in payload["seats"]:
        seat["team"] = seat["seat"] % 2
    payload["teams"] = [
        {"team": 0, "seats": [0, 2], "score": 120},
        {"team": 1, "seats": [1, 3], "score": 75},
    ]
    payload["boneyard"] = 0
    validate("state", payload)
    return payload


def history() -> list[Json]:
    return [
        {
            "hand": 1,
            "result": "domino",
            "winner": 3,
            "team": None,
            "points": 25,
            "scores": [30, 20, 6, 65],
        },
        {
            "hand": 2,
            "result": "blocked",
            "winner": 0,
            "team": None,
            "points": 15,
            "scores": [55, 40, 6, 120],
        },
    ]


def hand(seq: int) -> Json:
    payload = common(
        seq,
        hand=3,
        result="domino",
        winner=0,
        team=None,
        points=20,
        pips=[0, 31, 12, 9],
        scores=[105, 40, 6, 130],
        team_scores=[],
    )
    validate("hand", payload)
    return payload


def game_over(seq: int) -> Json:
    payload = common(
        seq,
        event="over",
        winner=3,
        team=None,
        scores=[105, 40, 6, 155],
        team_scores=[],
        names=NAMES,
        rules="walnut",
        target=150,
    )
    validate("game", payload)
    return payload


def reply(command_id: str, ok: bool = True, error: str | None = None) -> Json:
    payload = common(None, id=command_id, ok=ok, error=error)
    del payload["game_id"]
    validate("reply", payload)
    return payload


def _arm(
    start: tuple[int, int], step: tuple[int, int], tiles: list[tuple[str, int]], seat: int
) -> tuple[list[Json], Json]:
    """Tiles laid in a straight arm from `start` (the edge they join) in direction `step`.

    Each entry is (tile, the number touching the previous tile); doubles lie crosswise.
    Returns the placed tiles and the open end after the last one.
    """
    d = 24
    (x, y), (dx, dy) = start, step
    placed = []
    for tile, touching in tiles:
        high, low = (int(n) for n in tile.split("-"))
        if high == low:
            cx, cy = x + dx * d // 2, y + dy * d // 2
            px, py = dy * d // 2, dx * d // 2  # crosswise
            a, b = (cx - px, cy - py), (cx + px, cy + py)
            x, y = x + dx * d, y + dy * d
        else:
            near = (x + dx * d // 2, y + dy * d // 2)
            far = (x + dx * 3 * d // 2, y + dy * 3 * d // 2)
            a, b = (near, far) if touching == high else (far, near)
            x, y = x + dx * 2 * d, y + dy * 2 * d
        placed.append({"tile": tile, "seat": seat, "xa": a[0], "ya": a[1], "xb": b[0], "yb": b[1]})
        seat = (seat + 1) % 4
    last, touching = tiles[-1]
    high, low = (int(n) for n in last.split("-"))
    pip = low if touching == high else high
    return placed, {"tile": last, "pip": pip, "x": x, "y": y, "counts": pip * (1 + (high == low))}


def late_state(seq: int = 40) -> Json:
    """A busy walnut layout: the 6-6 spinner with all four arms started, 16 tiles."""
    spinner = {"tile": "6-6", "seat": 0, "xa": 450, "ya": 288, "xb": 450, "yb": 312}
    arms = [
        _arm(
            (462, 300),
            (1, 0),
            [("6-4", 6), ("4-2", 4), ("2-2", 2), ("5-2", 2), ("5-1", 5), ("3-1", 1)],
            1,
        ),
        _arm((438, 300), (-1, 0), [("6-5", 6), ("5-5", 5), ("5-3", 5), ("3-3", 3), ("3-0", 3)], 2),
        _arm((450, 276), (0, -1), [("6-2", 6), ("2-1", 2)], 3),
        _arm((450, 324), (0, 1), [("6-3", 6), ("4-3", 3)], 0),
    ]
    tiles = [spinner] + [t for placed, _ in arms for t in placed]
    ends = [end for _, end in arms]
    payload = state(seq, scores=(145, 95, 60, 120), turn=3)
    payload["layout"] = {
        "tiles": tiles,
        "spinner": "6-6",
        "open_ends": ends,
        "ends_total": sum(e["counts"] for e in ends),
    }
    payload["last"] = None
    payload["boneyard"] = 0
    validate("state", payload)
    return payload


def two_seat_state(seq: int = 50) -> Json:
    """Two players with a double-twelve set: numbers above 9 are written, not pipped."""
    payload = state(seq, scores=(235, 170), turn=0)
    payload["seats"] = payload["seats"][:2]
    payload["layout"] = {
        "tiles": [
            {"tile": "12-12", "seat": 1, "xa": 450, "ya": 288, "xb": 450, "yb": 312},
            {"tile": "12-10", "seat": 0, "xa": 474, "ya": 300, "xb": 498, "yb": 300},
            {"tile": "12-9", "seat": 1, "xa": 426, "ya": 300, "xb": 402, "yb": 300},
        ],
        "spinner": "12-12",
        "open_ends": [
            {"tile": "12-10", "pip": 10, "x": 510, "y": 300, "counts": 10},
            {"tile": "12-9", "pip": 9, "x": 390, "y": 300, "counts": 9},
            {"tile": "12-12", "pip": 12, "x": 450, "y": 276, "counts": 0},
            {"tile": "12-12", "pip": 12, "x": 450, "y": 324, "counts": 0},
        ],
        "ends_total": 19,
    }
    payload["last"] = None
    payload["target"] = 250
    validate("state", payload)
    return payload


def six_seat_state(seq: int = 60) -> Json:
    """Six players (a double-twelve table): all the seats still fit on the small screen."""
    payload = state(seq, turn=4)
    names = ["Ana", "Ben", "Carla", "Dev", "Eva", "Fermín"]
    payload["seats"] = [
        {
            "seat": i,
            "name": n,
            "team": None,
            "side": None,
            "score": 15 * i + 3 * (i % 2),
            "tiles_left": 9 - i,
        }
        for i, n in enumerate(names)
    ]
    validate("state", payload)
    return payload
