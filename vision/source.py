"""Where camera frames come from: a device, the Pi camera, a folder of images, a simulation.

Every source is a `FrameSource`: a context manager whose `read()` returns the next
`Frame` (a BGR image and the source's clock in seconds) or None when there is none
right now, and whose `close()` may be called any number of times. `finished` tells a
source that will never give another frame (a folder read to its end, a simulated game
played out) from one that has none at the moment (a camera that stopped).

`make_source(spec, fps)` turns the command line's SOURCE (a device index, a folder,
`sim` or `picamera`) into a source.
"""

from __future__ import annotations

import importlib
import logging
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

import cv2
import numpy as np
import numpy.typing as npt

from engine import Game, Mode, Phase, rulesets
from engine.events import Coords, Event, HandResult, Judgement
from engine.geometry import GeometryError, Placer
from engine.players import RandomPlayer
from engine.surface import SeenTile
from engine.tiles import Tile
from vision.errors import VisionError
from vision.render import RenderStyle, SequenceFrame, render_sequence

__all__ = [
    "IMAGE_SUFFIXES",
    "CameraOpenError",
    "DeviceSource",
    "FolderSource",
    "Frame",
    "FrameSource",
    "PiCameraMissingError",
    "PiCameraSource",
    "SimGame",
    "SimSource",
    "SimWholeGame",
    "SourceError",
    "chain_games",
    "make_source",
    "sim_game",
    "sim_whole_game",
]

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
Image = npt.NDArray[np.uint8]


class SourceError(VisionError):
    """A frame source could not be made or read."""


class CameraOpenError(SourceError, OSError):
    """A camera device could not be opened."""


class PiCameraMissingError(SourceError, ImportError):
    """The Pi camera's library (picamera2) is not installed."""


@dataclass(frozen=True, slots=True, eq=False)
class Frame:
    """One frame: a BGR image and when it was taken, in the source's clock (seconds)."""

    image: Image
    at: float

    def __repr__(self) -> str:
        h, w = self.image.shape[:2]
        return f"Frame({w}x{h}, at={self.at:.3f})"


class FrameSource(Protocol):
    """What the pipeline reads frames from."""

    name: str

    @property
    def finished(self) -> bool: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...


class _Closing:
    """Context-manager plumbing shared by the sources."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


# --- a camera device (V4L2, USB) -----------------------------------------------------------


class DeviceSource(_Closing):
    """A camera through OpenCV (`cv2.VideoCapture(index)`).

    `read()` gives None when the camera gives no frame; after `reopen_after` failures in
    a row the device is released and opened again (at most once a second), so a camera
    that was unplugged and plugged back in comes back by itself.
    """

    def __init__(
        self,
        index: int | str,
        *,
        size: tuple[int, int] | None = None,
        reopen_after: int = 5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.index = index
        self.name = f"camera {index}"
        self.size = size
        self.reopen_after = reopen_after
        self._clock = clock
        self._failures = 0
        self._last_open = 0.0
        self._closed = False
        self._cap: cv2.VideoCapture | None = self._open()
        if self._cap is None:
            raise CameraOpenError(
                f"{self.name}: cannot be opened: check that it is plugged in, that "
                f"{_device_path(index)} exists and that this user may read it (group video)"
            )

    @property
    def finished(self) -> bool:
        return self._closed

    def _open(self) -> cv2.VideoCapture | None:
        self._last_open = self._clock()
        cap = cv2.VideoCapture(self.index)
        if not cap.isOpened():
            cap.release()
            return None
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a stale queue
        if self.size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        return cap

    def read(self) -> Frame | None:
        if self._closed:
            return None
        if self._cap is None:
            if self._clock() - self._last_open < 1.0:
                return None
            self._cap = self._open()
            if self._cap is None:
                return None
            log.info("%s: opened again", self.name)
        ok, image = self._cap.read()
        if not ok or image is None or image.size == 0:
            self._failures += 1
            if self._failures >= self.reopen_after:
                log.warning("%s: no frames, opening it again", self.name)
                self._cap.release()
                self._cap = None
                self._failures = 0
            return None
        self._failures = 0
        return Frame(np.asarray(image, dtype=np.uint8), self._clock())

    def close(self) -> None:
        self._closed = True
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def _device_path(index: int | str) -> str:
    return f"/dev/video{index}" if isinstance(index, int) else str(index)


# --- the Raspberry Pi camera ---------------------------------------------------------------


class PiCameraSource(_Closing):
    """The Raspberry Pi camera module through picamera2 (imported only here)."""

    def __init__(
        self,
        size: tuple[int, int] = (1280, 960),
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = "pi camera"
        self._clock = clock
        try:
            module = importlib.import_module("picamera2")
        except ImportError as exc:
            raise PiCameraMissingError(
                "the Pi camera needs picamera2: install it with `sudo apt install "
                "python3-picamera2` (and make the venv with --system-site-packages): "
                "scripts/install-pi.sh does both"
            ) from exc
        try:
            self._cam: Any = module.Picamera2()
            config = self._cam.create_video_configuration(
                main={"size": tuple(size), "format": "RGB888"}
            )
            self._cam.configure(config)
            self._cam.start()
        except Exception as exc:
            raise CameraOpenError(
                f"{self.name}: cannot be started ({exc}): check the ribbon cable and "
                "that no other program uses the camera"
            ) from exc
        self._closed = False

    @property
    def finished(self) -> bool:
        return self._closed

    def read(self) -> Frame | None:
        if self._closed:
            return None
        try:
            array = self._cam.capture_array("main")
        except Exception as exc:  # the camera went away: no frame now
            log.warning("%s: no frame: %s", self.name, exc)
            return None
        # picamera2's "RGB888" is laid out B, G, R in memory: what OpenCV calls BGR.
        return Frame(
            np.ascontiguousarray(np.asarray(array, dtype=np.uint8)[:, :, :3]), self._clock()
        )

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                self._cam.stop()
                self._cam.close()
            except Exception as exc:
                log.info("%s: on close: %s", self.name, exc)


# --- a folder of images --------------------------------------------------------------------


class FolderSource(_Closing):
    """The images of a folder in name order, as if taken `fps` times a second.

    Frame `i` is stamped `i / fps`. A file that is not an image OpenCV can read is
    skipped with a warning naming it (kept in `skipped`).
    """

    def __init__(self, path: str | Path, fps: float = 10.0, *, loop: bool = False) -> None:
        self.path = Path(path).expanduser()
        self.name = f"folder {self.path}"
        if not self.path.is_dir():
            raise SourceError(f"{self.path} is not a folder of images")
        if fps <= 0:
            raise SourceError(f"{self.name}: fps must be above 0, got {fps}")
        self.fps = float(fps)
        self.loop = loop
        self.files = sorted(
            p for p in self.path.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
        )
        if not self.files:
            raise SourceError(
                f"{self.path} holds no images ({', '.join(IMAGE_SUFFIXES)}): "
                "put frames there or choose another source"
            )
        self.skipped: list[str] = []
        self._next = 0
        self._count = 0
        self._closed = False

    @property
    def finished(self) -> bool:
        return self._closed or (not self.loop and self._next >= len(self.files))

    def read(self) -> Frame | None:
        tries = 0
        while not self.finished and tries < len(self.files):  # one round at most
            tries += 1
            if self._next >= len(self.files):
                self._next = 0
            path = self.files[self._next]
            self._next += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None or image.size == 0:
                problem = f"{path}: not an image OpenCV can read (damaged or not an image); skipped"
                if problem not in self.skipped:
                    self.skipped.append(problem)
                    log.warning("%s: %s", self.name, problem)
                continue
            frame = Frame(np.asarray(image, dtype=np.uint8), self._count / self.fps)
            self._count += 1
            return frame
        return None

    def close(self) -> None:
        self._closed = True


# --- a simulated game ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimGame:
    """A random legal game laid out on the table, play by play.

    `scenes[i]` is every face-up tile after the `i`-th play; `told[i]` are the
    commands the players give after it (who led, passes, draws), in the MQTT command
    shape; `plays` the full game's play events as payload dicts.
    """

    rules: str
    seats: int
    seed: int
    scenes: tuple[tuple[SeenTile, ...], ...]
    told: tuple[tuple[dict[str, Any], ...], ...]
    plays: tuple[dict[str, Any], ...] = field(default=())


def sim_game(
    rules: str = "straight-block",
    seats: int = 2,
    seed: int = 0,
    *,
    plays: int | None = None,
    size_mm: tuple[float, float] = (900.0, 600.0),
) -> SimGame:
    """Play a random legal full-information hand (up to `plays` plays) and lay it out."""
    game = Game(rulesets.load(rules), seats, mode=Mode.FULL, seed=seed)
    game.start()
    player = RandomPlayer(random.Random(seed))
    placer = Placer(int(size_mm[0]), int(size_mm[1]))
    coords: list[SeenTile] = []
    scenes: list[tuple[SeenTile, ...]] = []
    told: list[list[dict[str, Any]]] = []
    events: list[dict[str, Any]] = []
    while game.phase in (Phase.LEAD, Phase.PLAY) and (plays is None or len(scenes) < plays):
        seat = game.turn
        assert seat is not None
        moves = game.legal_moves()
        if not moves:
            if game.can_draw():
                game.draw()
                told[-1].append({"action": "draw", "seat": seat})
            else:
                game.pass_turn()
                told[-1].append({"action": "pass", "seat": seat})
            continue
        move = player.choose(game, moves)
        try:
            where = placer.place(game.layout, coords, move.tile, move.end)
        except GeometryError:
            break  # the surface is full: the game shown ends here
        first = not scenes
        for event in game.push(move):
            if event.kind == "play":
                events.append(event.payload())
        coords.append(where)
        scenes.append(tuple(coords))
        told.append([{"action": "lead", "seat": seat}] if first else [])
    return SimGame(rules, seats, seed, tuple(scenes), tuple(tuple(t) for t in told), tuple(events))


# --- a simulated whole game ------------------------------------------------------------------

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm
ZONE_GAP_MM = 16.0  # between tiles laid out for counting, and from the layout


@dataclass(frozen=True, slots=True)
class SimWholeGame(SimGame):
    """A random legal game played to its end, hand after hand, laid out on the table.

    As `SimGame`, with every hand's scenes in turn: the plays, then (when the table has
    seat zones and the tiles fit) each seat laying its tiles left face up in its zone,
    then the cleared table. `told` holds everything the players say besides: who led,
    knocks, draws, going out or a blocked hand when the table cannot tell, the counts
    (`count` per seat without zones, `confirm` of the zones' counts), `redeal` when the
    surface is full. `hands` are the engine's own `hand` event payloads, `over` its
    `game` over payload (None: not over within `max_hands`), `endings[i]` how the `i`-th
    hand dealt ended: its tiles counted in the `zones` or `told`, `redeal` (no room left
    on the surface), `won` (a play reached the target: nothing to count).
    """

    target: int | None = None
    zones: tuple[tuple[int, Rect], ...] = ()
    hands: tuple[dict[str, Any], ...] = ()
    over: dict[str, Any] | None = None
    endings: tuple[str, ...] = ()


def sim_whole_game(
    rules: str = "straight-block",
    seats: int = 2,
    seed: int = 0,
    *,
    target: int | None = None,
    size_mm: tuple[float, float] = (900.0, 600.0),
    zones: Mapping[int, Sequence[float]] | Sequence[tuple[int, Sequence[float]]] = (),
    max_hands: int = 100,
) -> SimWholeGame:
    """Play a random legal full-information game to its end (or `max_hands` hands) and
    lay it out as a table would see it; deterministic in `seed`.

    The players tell the table what it cannot see, as TABLE.md says, judged by a
    table-mode game of their own fed exactly what the table is fed: who led, knocks and
    draws; `out` (or `end_hand`) when the table cannot tell that the hand is over. At
    the end of a hand each seat lays its tiles face up in its zone (`zones`: seat ->
    (x0, y0, x1, y1) mm, the table's `[zones]`) and a player confirms the table's count;
    without a zone for every seat that holds tiles, or with no room in one clear of the
    layout, they tell their tiles (`count`). Then they clear the table, which starts the
    next hand. When the layout has no room left (`engine.geometry.GeometryError`) the
    players have the hand dealt again (`redeal`, as the board demo does) and clear the
    table: the hand's plays so far stand in `plays`, not its score.
    """
    ruleset = rulesets.load(rules)
    game = Game(ruleset, seats, mode=Mode.FULL, seed=seed, target=target)
    table = Game(ruleset, seats, mode=Mode.TABLE, target=target)  # what the table knows
    game.start()
    table.start()
    player = RandomPlayer(random.Random(seed))
    width, height = size_mm
    areas = tuple(sorted((int(s), _rect(r)) for s, r in dict(zones).items()))
    sim = _WholeGame(game, table, player, (int(width), int(height)), areas)
    while game.phase is not Phase.OVER and len(sim.endings) < max_hands:
        sim.play_hand()
    hands = tuple(e for e in sim.events if e["kind"] == "hand")
    over = next((e for e in sim.events if e["kind"] == "game" and e["event"] == "over"), None)
    return SimWholeGame(
        rules,
        seats,
        seed,
        tuple(sim.scenes),
        tuple(tuple(t) for t in sim.told),
        tuple(_without_kind(e) for e in sim.events if e["kind"] == "play"),
        target=game.target,
        zones=areas,
        hands=tuple(_without_kind(e) for e in hands),
        over=_without_kind(over) if over is not None else None,
        endings=tuple(sim.endings),
    )


def chain_games(games: Sequence[SimWholeGame]) -> SimGame:
    """Whole games one after another at the same table: after each game's table is
    cleared the players start the next with `new_game` (its rules, seats and target)."""
    if not games:
        raise SourceError("no simulated games to chain")
    scenes: list[tuple[SeenTile, ...]] = []
    told: list[tuple[dict[str, Any], ...]] = []
    for game in games:
        if told:
            body: dict[str, Any] = {"action": "new_game", "rules": game.rules, "seats": game.seats}
            if game.target is not None:
                body["target"] = game.target
            told[-1] = (*told[-1], body)
        scenes.extend(game.scenes)
        told.extend(game.told)
    first = games[0]
    plays = tuple(p for g in games for p in g.plays)
    return SimGame(first.rules, first.seats, first.seed, tuple(scenes), tuple(told), plays)


def _rect(values: Sequence[float]) -> Rect:
    x0, y0, x1, y1 = (float(v) for v in values)
    return (x0, y0, x1, y1)


def _without_kind(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "kind"}


class _WholeGame:
    """The players of `sim_whole_game` at work: scenes, what they say, the engine's events."""

    def __init__(
        self,
        game: Game,
        table: Game,
        player: RandomPlayer,
        size: tuple[int, int],
        zones: tuple[tuple[int, Rect], ...],
    ) -> None:
        self.game = game
        self.table = table
        self.player = player
        self.size = size
        self.zones = zones
        self.scenes: list[tuple[SeenTile, ...]] = []
        self.told: list[list[dict[str, Any]]] = []
        self.events: list[dict[str, Any]] = []
        self.endings: list[str] = []

    def _note(self, events: Sequence[Event]) -> None:
        self.events.extend({"kind": e.kind, **e.payload()} for e in events)

    def _say(self, body: dict[str, Any], judged: Judgement) -> None:
        """Tell the table `body` (after the last scene); `judged` is what it makes of it."""
        if not judged.ok:
            raise SourceError(
                f"the simulated table refuses {body}: {judged.reason.value} "
                "(a fault of the simulation)"
            )
        self.told[-1].append(body)

    def _show(self, tiles: Sequence[SeenTile]) -> None:
        self.scenes.append(tuple(tiles))
        self.told.append([])

    def play_hand(self) -> None:
        game, table = self.game, self.table
        placer = Placer(*self.size)
        coords: list[SeenTile] = []
        while game.phase in (Phase.LEAD, Phase.PLAY):
            seat = game.turn
            assert seat is not None
            moves = game.legal_moves()
            if not moves:
                if game.can_draw():
                    self._note(game.draw().events)
                    self._say({"action": "draw", "seat": seat}, table.draw(seat))
                else:
                    self._note(game.pass_turn().events)
                    self._say({"action": "pass", "seat": seat}, table.pass_turn(seat))
                continue
            move = self.player.choose(game, moves)
            try:
                where = placer.place(game.layout, coords, move.tile, move.end)
            except GeometryError:  # no room left: the hand is dealt again
                game.redeal()
                self._say({"action": "redeal"}, table.redeal())
                self._show(())
                self.endings.append("redeal")
                placer, coords = Placer(*self.size), []
                continue
            self._note(game.push(move))
            coords.append(where)
            self._show(coords)
            high = where.high_first()
            at = Coords(round(high.xa), round(high.ya), round(high.xb), round(high.yb))
            judged = table.play(move.tile, move.end, coords=at)
            if not judged.ok:
                raise SourceError(f"the simulated table refuses {move.tile}: {judged.reason.value}")
            if len(coords) == 1:
                self._say({"action": "lead", "seat": seat}, table.name_leader(seat))
        if len(game.history) < game.hand_no:
            self._show(())  # the game was won by a play: the table is cleared
            self.endings.append("won")
            return
        self._end_hand(coords)

    def _end_hand(self, coords: list[SeenTile]) -> None:
        """Go out or block where the table cannot tell, count, clear the table."""
        game, table = self.game, self.table
        record = game.history[-1]
        if table.phase is Phase.PLAY:
            if record.result is HandResult.DOMINO and game.out_seat is not None:
                seat = game.out_seat
                self._say({"action": "out", "seat": seat}, table.declare_out(seat))
            else:
                self._say({"action": "end_hand"}, table.end_hand())
        assert game.hands is not None
        hands = [list(h) for h in game.hands]
        laid = self._lay_in_zones(hands, coords)
        if laid is not None:
            shown = list(coords)
            for seat_tiles in laid:
                if seat_tiles:
                    shown.extend(seat_tiles)
                    self._show(shown)
            self._say({"action": "confirm"}, table.count_tiles(hands))
            self.endings.append("zones")
        else:
            counted = table.count([sum(t.pips for t in h) for h in hands])
            for seat, hand in enumerate(hands):
                if hand or seat != game.out_seat:
                    body = {"action": "count", "seat": seat, "tiles": [t.text for t in hand]}
                    self._say(body, counted)  # the table scores once every seat has said
            self.endings.append("told")
        mine, its = game.history[-1], table.history[-1]
        if (mine.winner, mine.points, mine.scores) != (its.winner, its.points, its.scores):
            raise SourceError(
                f"the simulated table scores hand {mine.hand} otherwise: {its} for {mine}"
            )
        self._show(())  # the table is cleared: the next hand starts
        if game.phase is Phase.HAND_OVER:
            self._note(game.next_hand().events)
            table.next_hand()

    def _lay_in_zones(
        self, hands: Sequence[Sequence[Tile]], layout: Sequence[SeenTile]
    ) -> list[list[SeenTile]] | None:
        """Each seat's tiles face up in its zone, clear of the layout; None if they do not
        all go (no zone for a seat holding tiles, or no room)."""
        zones = dict(self.zones)
        out: list[list[SeenTile]] = []
        taken = list(layout)
        for seat, hand in enumerate(hands):
            if not hand:
                out.append([])
                continue
            zone = zones.get(seat)
            if zone is None:
                return None
            others = [r for s, r in self.zones if s != seat]
            slots = _zone_slots(zone, others, taken, self.size)
            if len(slots) < len(hand):
                return None
            seen = [SeenTile(t.high, t.low, *slot) for t, slot in zip(hand, slots, strict=False)]
            taken.extend(seen)
            out.append(seen)
        return out


def _zone_slots(
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


class SimSource(_Closing):
    """Frames of a simulated game (`sim_game`), rendered with hands passing.

    Each play stays on the table for `pace_s` seconds (`fps` frames a second, stamped
    `i / fps`); a hand reaches in over `hand_frames` frames to lay the next tile.
    `tell`, if given, is called with each command the players would give (who led,
    passes, draws; with an `id`) as the hand reaches for the next tile, so a table fed by this
    source can attribute the plays.
    """

    def __init__(
        self,
        game: SimGame | None = None,
        *,
        fps: float = 10.0,
        pace_s: float = 1.0,
        style: RenderStyle | None = None,
        seed: int = 0,
        hand_frames: int = 6,
        exposures: Callable[[int], float] | None = None,
        tell: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.game = game if game is not None else sim_game(seed=seed)
        if not self.game.scenes:
            raise SourceError("the simulated game has no plays to show")
        self.name = f"sim {self.game.rules} seed {self.game.seed}"
        self.fps = float(fps)
        self.tell = tell
        self._told_upto = -1  # the scene whose commands have been given
        self._resting = -1  # the scene of the last frame without a hand
        self._said = 0
        self._frames: Iterator[SequenceFrame] = render_sequence(
            [list(s) for s in self.game.scenes],
            style,
            seed,
            still_frames=max(1, round(pace_s * fps)),
            hand_frames=hand_frames,
            exposures=exposures,
        )
        self.last: SequenceFrame | None = None  # the last frame with its ground truth
        self._done = False

    @property
    def finished(self) -> bool:
        return self._done

    def read(self) -> Frame | None:
        if self._done:
            return None
        item = next(self._frames, None)
        if item is None:
            self._done = True
            return None
        self._tell(item)
        self.last = item
        return Frame(item.image, item.index / self.fps)

    def _tell(self, item: SequenceFrame) -> None:
        """Give scene i's commands once its still frames are over: as the next hand
        reaches in. A hand in view belongs to the pass leaving the scene last seen without
        one, even once the table under it shows the next scene (the hand's tile is down
        but not yet seen by the camera: its play comes before the commands that follow
        it)."""
        if item.hand_visible:
            leaving = self._resting
        else:
            leaving = item.scene_index - 1
            self._resting = item.scene_index
        while self._told_upto < leaving:
            self._told_upto += 1
            for body in self.game.told[self._told_upto]:
                self._said += 1
                if self.tell is not None:
                    self.tell({"id": f"sim-{self.game.seed}-{self._said}", **body})

    def close(self) -> None:
        self._done = True


# --- from the command line -----------------------------------------------------------------


def make_source(spec: int | str, fps: float = 10.0, **sim: Any) -> FrameSource:
    """The source the command line's SOURCE names.

    A device index (`0`) or device path (`/dev/video0`) opens a camera; `picamera` the
    Pi camera; `sim` a simulated game (`sim` keyword arguments go to `SimSource`);
    anything else must be a folder of images.
    """
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return DeviceSource(int(spec))
    text = spec.strip()
    if text == "sim":
        return SimSource(fps=fps, **sim)
    if text in ("picamera", "pi"):
        return PiCameraSource()
    if text.startswith("/dev/video"):
        return DeviceSource(text)
    path = Path(text).expanduser()
    if not path.is_dir():
        raise SourceError(
            f"{text!r} is not a camera source: give a device index (0), a folder of "
            "images, `sim` or `picamera`"
        )
    return FolderSource(path, fps)


def frames(source: FrameSource, limit: int | None = None) -> Sequence[Frame]:
    """Every frame a finite source gives (or the first `limit`), for tests and tools."""
    out: list[Frame] = []
    while not source.finished and (limit is None or len(out) < limit):
        frame = source.read()
        if frame is not None:
            out.append(frame)
    return out
