"""The simulated camera: games of the table's own rules rendered as frames, a frame source
registered under the name `sim` (entry points `domino_table.frame_sources`, see
`service.camera.frame_sources`), so the service finds it by name and never imports it.

`frame_source(request)` is what `camera.source = "sim"` opens: one hand of the table's
rules and seats on its surface, seed 0, a play a second. `frames(SimOptions(...))` makes
the same with other options (the camera demo's whole games, its set and resolution), for
`TableService(settings, camera_frames=...)` or `CameraSource(..., source=...)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from config.settings import Settings
from engine.rules import RulesError
from service.camera.frame_sources import MakeFrames, SourceRequest
from tablesim.camera import SimSource
from tablesim.render import RenderStyle
from tablesim.scenes import SimGame, chain_games, sim_game, sim_whole_game
from vision import SourceError

__all__ = ["MIN_STILL_FRAMES", "SimOptions", "frame_source", "frames", "sim_frames"]

MIN_STILL_FRAMES = 5  # a simulated whole game's scenes lie still at least this long


@dataclass(frozen=True, slots=True)
class SimOptions:
    """The simulated camera's game: its seed, how long each play lies still before the
    next hand reaches in, and whether the players play one hand (`sim_game`) or whole
    games to their target (`sim_whole_game`: counted in the table's seat zones, the
    table cleared between hands; `games` of them, each begun with `new_game`). `style`
    is the frames' look: the set, the table, the light (default: ivory tiles on green
    felt); the tiles are the table's `tile_mm`; `resolution` the simulated camera's
    frame (width, height)."""

    seed: int = 0
    pace_s: float = 1.0
    whole_game: bool = False
    games: int = 1  # whole games, one after another (seeds seed, seed + 1, ...)
    style: RenderStyle | None = None
    resolution: tuple[int, int] = (1280, 960)


def frame_source(request: SourceRequest) -> SimSource:
    """`camera.source = "sim"`: the registered frame source, with the default options."""
    return sim_frames(request, SimOptions())


def frames(options: SimOptions) -> MakeFrames:
    """A frame source maker for these options (`camera_frames=`, `source=`)."""
    return partial(sim_frames, options=options)


def sim_frames(request: SourceRequest, options: SimOptions) -> SimSource:
    """Frames of the table's own game; its players' words go to `request.tell`."""
    settings, fps = request.settings, request.fps
    pace = options.pace_s
    if options.whole_game:
        game = _sim_whole_games(settings, options.seed, options.games)
        # Each scene must lie still long enough to be read (about 3 frames after the
        # hand has gone) before the next hand reaches in and the players speak: a
        # knock heard before its play, or a confirm before the zones were read, would
        # be refused and the table would no longer follow the game.
        pace = max(pace, MIN_STILL_FRAMES / fps)
    else:
        game = _sim_game(settings, options.seed)
    return SimSource(
        game,
        fps=fps,
        pace_s=pace,
        tell=request.tell,
        style=options.style,
        resolution=options.resolution,
    )


def _sim_game(settings: Settings, seed: int) -> SimGame:
    """A hand of the table's own rules and seats, laid out on its surface: the frames show
    the game the table referees (its lead, passes and draws are told as players would)."""
    table = settings.table
    surface = (float(table.surface.width_mm), float(table.surface.height_mm))
    tile = (float(table.tile_mm.length), float(table.tile_mm.width))
    try:
        return sim_game(table.rules, table.seats, seed, size_mm=surface, tile_mm=tile)
    except (RulesError, OSError, ValueError) as exc:
        raise SourceError(
            f"the simulated camera plays only the shipped rulesets; {table.rules!r}: {exc}"
        ) from exc


def _sim_whole_games(settings: Settings, seed: int, games: int = 1) -> SimGame:
    """Whole games of the table's own rules, seats and target on its surface, each hand
    counted in the table's seat zones (`[zones]`; told by the players where there are
    none) and the table cleared before the next; `games` of them in a row."""
    table = settings.table
    surface = (float(table.surface.width_mm), float(table.surface.height_mm))
    tile = (float(table.tile_mm.length), float(table.tile_mm.width))
    zones = {seat: tuple(float(v) for v in rect) for seat, rect in settings.zones.items()}
    try:
        played = [
            sim_whole_game(
                table.rules,
                table.seats,
                s,
                target=table.target,
                size_mm=surface,
                zones=zones,
                tile_mm=tile,
            )
            for s in range(seed, seed + max(1, games))
        ]
        return played[0] if len(played) == 1 else chain_games(played)
    except (RulesError, OSError, ValueError) as exc:
        raise SourceError(
            f"the simulated camera plays only the shipped rulesets; {table.rules!r}: {exc}"
        ) from exc
