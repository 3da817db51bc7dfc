"""`domino-table demo --source camera`: whole games rendered as camera frames (in the set
`--set` names) and read by the camera path, each hand counted from the seat zones and
the table cleared before the next; the players play by themselves."""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import click

from demo.options import DEMO_SETS, DemoOptions
from demo.running import open_table, stop_on_signals, workdir
from demo.sim_camera import SimOptions, frames
from service.app import TableService
from service.core.table import SIDES

__all__ = ["DemoLook", "demo_look", "play", "seat_zones", "watch", "zones_setting"]

LOOK_FLAGS = {
    "table.tile_mm.length": "--set",
    "table.tile_mm.width": "--set",
    "camera.tone": "--set",
}
"""The settings the set brings (for the settings' errors)."""


def play(options: DemoOptions) -> None:
    """The players' whole games through the camera, then stop (`--games`) or keep the
    display up until Ctrl-C."""
    look = demo_look(options.rules_name, options.players, options.set_name)
    zones = seat_zones(options.players, options.surface)  # counted by the camera
    more = look.settings() | zones_setting(zones)
    seed = options.seed if options.seed is not None else random.randrange(2**31)
    games = frames(
        SimOptions(seed, options.pace, whole_game=True, games=options.games or 1,
                   style=look.style(), resolution=look.resolution)
    )  # fmt: skip
    with workdir(options.state_dir) as folder, ExitStack() as stack:
        table = open_table(
            options, stack, folder, {"camera": "sim", "fps": 10},
            more=more, names=LOOK_FLAGS, camera_frames=games,
        )  # fmt: skip
        watch(table.service, stop_on_signals(), options.games, options.pace)


def watch(service: TableService, stop: threading.Event, games: int | None, pace: float) -> None:
    """The camera demo's players play by themselves: wait until they have played their
    games (then stop if `--games` was given, else keep the display up) or Ctrl-C."""
    click.echo("Camera: rendered games are read through the camera path.")
    camera = service.camera
    while not stop.wait(0.5):
        if camera is not None and camera.join(0):  # played out, the table cleared
            if games is not None:
                stop.wait(pace * 4)  # the result on the display a moment
                return
            click.echo("Camera: the game is over; the display shows it (Ctrl-C stops).")
            stop.wait()


@dataclass(frozen=True)
class DemoLook:
    """The camera demo's set: its name, the settings it implies (the tile's size, the
    detector's tone) and the simulated camera's resolution (a double-twelve set's small
    pips need the Pi HQ camera's 2028 x 1520 mode; others 1280 x 960)."""

    name: str
    flags: dict[str, Any]
    resolution: tuple[int, int] = (1280, 960)

    def style(self) -> Any:
        """The frames' look (a `tablesim.render.RenderStyle`)."""
        from tablesim.render import RenderStyle, TileStyle  # noqa: PLC0415 - OpenCV

        return RenderStyle(tiles=TileStyle(self.name))

    def settings(self) -> dict[str, Any]:
        """What the set sets in the table's settings (dotted keys): its tile, its tone."""
        length, width = self.flags["tile_mm"]
        return {
            "table.tile_mm.length": length,
            "table.tile_mm.width": width,
            "camera.tone": self.flags["tone"],
        }


def zones_setting(zones: Mapping[int, Sequence[int]]) -> dict[str, Any]:
    """The seat zones (seat -> [x0, y0, x1, y1] mm) as the settings' `[zones]`."""
    return {"zones": {str(seat): list(rect) for seat, rect in zones.items()}}


def demo_look(rules_name: str, players: int, set_name: str) -> DemoLook:
    """The set the camera demo renders: `set_name`, or for `auto` the usual set of the
    game's size (ivory double-six, ivory double-nine, big ivory double-twelve with a
    colour per number), and the tile size and detector tone that go with it."""
    from engine import rulesets  # noqa: PLC0415
    from tablesim.render.sets import SETS, TileStyle  # noqa: PLC0415 - OpenCV

    if set_name == "auto":
        try:
            highest = int(rulesets.load(rules_name).domino_set(players))
        except (OSError, ValueError) as exc:
            raise click.UsageError(f"--rules {rules_name}: {exc}") from None
        set_name = {9: "ivory-nine", 12: "ivory-twelve"}.get(highest, "ivory")
    if set_name not in DEMO_SETS:
        raise click.BadParameter(
            f"{set_name!r}: give auto or one of {', '.join(DEMO_SETS)}", param_hint="--set"
        )
    look = SETS[TileStyle(set_name)]
    length, width = look.size_mm
    b, g, r = look.face
    grey = 0.114 * b + 0.587 * g + 0.299 * r
    tone = {"black": "dark", "wood": "grey"}.get(set_name, "light" if grey > 170 else "auto")
    resolution = (2028, 1520) if look.highest > 9 else (1280, 960)
    flags = {"tile_mm": (round(length), round(width)), "tone": tone}
    return DemoLook(set_name, flags, resolution)


def seat_zones(seats: int, surface: tuple[int, int], depth: int = 90) -> dict[int, list[int]]:
    """Seat zones along the table's sides, each seat's in front of it, `depth` mm deep
    and clear of the corner markers. Up to four seats, one side each (the display's
    sides: seat 0 at the bottom, then left, top, right); more seats share the sides
    (bottom, top, left, right in turn take one more), each side's strip split evenly,
    the seats going round the table the same way (clockwise on screen from the bottom)."""
    width, height = surface
    m = depth  # the corners hold the calibration markers
    strips = {
        "bottom": (m, height - depth, width - m, height),
        "top": (m, 0, width - m, depth),
        "left": (0, m, depth, height - m),
        "right": (width - depth, m, width, height - m),
    }
    if seats <= 4:
        return {seat: list(strips[side]) for seat, side in enumerate(SIDES.get(seats, ()))}
    shares = dict.fromkeys(strips, 0)
    for k in range(seats):
        shares[("bottom", "top", "left", "right")[k % 4]] += 1
    zones: list[list[int]] = []
    for side in ("bottom", "left", "top", "right"):  # clockwise on screen from the bottom
        zones.extend(_split(strips[side], shares[side], side))
    return dict(enumerate(zones))


def _split(strip: tuple[int, int, int, int], parts: int, side: str) -> list[list[int]]:
    """`strip` cut into `parts` zones along its length, in the order seats sit along
    that side going clockwise on screen (right to left at the bottom, upwards on the
    left, left to right at the top, downwards on the right)."""
    x0, y0, x1, y1 = strip
    along_x = side in ("bottom", "top")
    lo, hi = (x0, x1) if along_x else (y0, y1)
    cuts = [lo + (hi - lo) * k // parts for k in range(parts + 1)]
    pieces = [[a, y0, b, y1] if along_x else [x0, a, x1, b] for a, b in itertools.pairwise(cuts)]
    return pieces[::-1] if side in ("bottom", "left") else pieces
