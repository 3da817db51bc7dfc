"""What each of the detector's looks earns, per source; and what a frame costs.

    .venv/bin/python -m benchmarks.vision --per-source [--source S]...
    .venv/bin/python -m benchmarks.vision --without LOOK [--without LOOK]... [--source S]...
    .venv/bin/python -m benchmarks.vision --looks [--source S]...
    .venv/bin/python -m benchmarks.vision --time [--repeats 3]

Frames (read at run time, never copied; rendered ones drawn by `tablesim.render`):

- `ddd-a`: the 60 labelled photos of one ivory set on a printed board, read inside the
  grid's outline with tone=light (the service's default), scored by the board's cells
  (`vision.detector.accuracy.score_photo`);
- each source of `diverse-dev` (the file name's prefix before `__`): its `certain`,
  `overhead` photos, read whole with tone=auto (as `vision detect` reads), scored as
  multisets (the labels give no places);
- `rendered`: frames of every set the renderer ships on a few tables and both lights
  (`RENDERED`), and `rendered-black`: black sets (plain, ringed halves) among round
  black stones and beside a cup, read with tone=auto and scored by place (both half
  centres within `NEAR_PX` of the renderer's truth) and pips.

For each source: tiles right, wrong (reported, not right), missed (labelled, not right),
precision and recall. `--per-source` prints them for the detector as it is; `--without
LOOK` beside the detector with LOOK turned off (`vision.detector.looks`,
`LookSettings.off`), the difference per source; `--looks` does that for every look
in turn and prints one line per look and source where turning it off changes anything.
Readings are cached in `/tmp/domino-table-looks/` by a digest of `vision/`'s code, the
settings and the frame, so a look's figures are worked out once per version of the code.

`--time` reports CPU ms per frame (one thread, the best of `--repeats`), per source,
read two ways: as `vision detect` reads (tone=auto, nothing known) and as the service
reads (tone=light, the play area given, the markers left out, the tile width known on
the rendered frames); and the empty table (rendered tables with no tile, every surface)
beside the median frame.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from engine.surface import SeenTile
from tablesim.render import (
    Camera,
    Cup,
    FaceDownTile,
    Lighting,
    RenderStyle,
    Scene,
    Stone,
    Surface,
    TileStyle,
    render_frame,
)
from vision.detector.accuracy import Grid, read_labels, score_photo
from vision.detector.detect import (
    Detection,
    FoundTile,
    LookSettings,
    Settings,
    detect,
    first_readings,
    look_names,
)
from vision.tiles.dark_marks import Tone

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path("/tmp/domino-table-looks")
NEAR_PX = 8.0


def shared_data() -> Path:
    """`shared/data/vision` beside the project (or beside a folder above it: a
    worktree of the project sits a level deeper than its main checkout), or in the
    folder `DOMINO_TABLE_SHARED` names."""
    named = os.environ.get("DOMINO_TABLE_SHARED")
    if named:
        return Path(named) / "data" / "vision"
    for up in ROOT.parents:
        here = up / "shared" / "data" / "vision"
        if here.is_dir():
            return here
    return ROOT.parent / "shared" / "data" / "vision"


@dataclass(frozen=True, slots=True)
class Counts:
    """How one frame went: tiles labelled, reported, and reported right."""

    labelled: int
    reported: int
    right: int

    @property
    def wrong(self) -> int:
        return self.reported - self.right

    @property
    def missed(self) -> int:
        return self.labelled - self.right


Scorer = Callable[[list[FoundTile]], Counts]


@dataclass(frozen=True, slots=True)
class Job:
    """One frame: where it comes from, how it is read and scored."""

    source: str
    name: str
    path: Path  # the photo, or the rendered frame kept in the cache
    score: Scorer
    tone: Tone | None
    area: tuple[float, float, float, float] | None = None
    digest: str = ""  # what the frame is (a file's path and size, a render's recipe)
    service: Calibrated | None = None  # what a calibrated camera knows of it

    def load(self) -> NDArray[np.uint8]:
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"{self.path}: not a readable image")
        return np.asarray(image, dtype=np.uint8)


def _multiset(want: list[tuple[int, int]]) -> Scorer:
    wanted = Counter(tuple(sorted(t)) for t in want)

    def score(tiles: list[FoundTile]) -> Counts:
        got = Counter(tuple(sorted(t.pips)) for t in tiles)
        return Counts(sum(wanted.values()), sum(got.values()), sum((wanted & got).values()))

    return score


def ddd_a_jobs(data: Path) -> list[Job]:
    folder = data / "ddd-a"
    labels = read_labels(folder)
    grid = Grid()
    area = (grid.x0, grid.y0, grid.x1, grid.y1)

    def scorer(name: str) -> Scorer:
        def score(tiles: list[FoundTile]) -> Counts:
            s = score_photo(name, Detection(tuple(tiles)), labels[name], grid)
            return Counts(s.labelled, s.detected, s.tiles_right)

        return score

    out = []
    for name in sorted(labels):
        path = folder / "images" / name
        digest = f"{path}:{path.stat().st_size}"
        out.append(Job("ddd-a", name, path, scorer(name), Tone.LIGHT, area, digest))
    return out


def diverse_jobs(data: Path) -> list[Job]:
    folder = data / "diverse-dev"
    images: dict[str, dict[str, Any]] = json.loads((folder / "labels.json").read_text())["images"]
    out = []
    for name, entry in sorted(images.items()):
        if not (entry["certain"] and entry["view"] == "overhead"):
            continue
        path = folder / "images" / name
        want = [(int(a), int(b)) for a, b in entry["tiles"]]
        digest = f"{path}:{path.stat().st_size}"
        out.append(Job(entry["source"], name, path, _multiset(want), None, None, digest))
    return out


# The rendered source: every set the renderer ships on these tables, in both lights.
RENDERED_SURFACES = (
    Surface.GREEN_FELT,
    Surface.WOOD,
    Surface.WHITE_CLOTH,
    Surface.DARK_CLOTH,
    Surface.SPECKLED_MAT,
)


def _scene(rng: random.Random, count: int, top: int) -> Scene:
    """`count` tiles in rows across the table, some touching, some turned."""
    tiles: list[SeenTile] = []
    x, y = 120.0, 100.0
    while len(tiles) < count:
        a, b = rng.randint(0, top), rng.randint(0, top)
        turned = rng.random() < 0.3
        tiles.append(SeenTile(a, b, x, y, x, y + 24) if turned else SeenTile(a, b, x, y, x + 24, y))
        x += (24 if turned else 48) + (0 if rng.random() < 0.5 else 20)
        if x > 780:
            x, y = 120.0, y + 70
    return Scene(tiles=tuple(tiles), facedown=(FaceDownTile(700, 520),))


@dataclass(frozen=True, slots=True)
class RenderedTruth:
    """A rendered frame's tiles: pips and both half centres in pixels."""

    tiles: tuple[tuple[tuple[int, int], tuple[float, float], tuple[float, float]], ...]


def _by_place(truth: RenderedTruth) -> Scorer:
    def score(tiles: list[FoundTile]) -> Counts:
        right = 0
        for pips, a, b in truth.tiles:
            for t in tiles:
                for (pa, pb), got in (
                    ((t.px[0], t.px[1]), t.pips),
                    ((t.px[1], t.px[0]), (t.pips[1], t.pips[0])),
                ):
                    near = all(
                        np.hypot(p[0] - q[0], p[1] - q[1]) < NEAR_PX for p, q in ((pa, a), (pb, b))
                    )
                    if near and got == pips:
                        right += 1
                        break
                else:
                    continue
                break
        return Counts(len(truth.tiles), len(tiles), right)

    return score


@dataclass(frozen=True, slots=True)
class Calibrated:
    """What the service knows of a frame from its calibration: the play area (the
    markers' centres), the markers' squares with their white paper (left out), the
    tile's width in pixels."""

    area: tuple[tuple[float, float], ...]
    markers: tuple[tuple[tuple[float, float], ...], ...]
    tile_px: float


def calibrated(scene: Scene) -> Calibrated:
    """The calibration of a rendered scene seen by the default overhead camera."""
    cam = Camera.overhead(scene.size_mm, margin_mm=scene.margin_mm)
    w, h = scene.size_mm
    corners = np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]])
    area = tuple((float(x), float(y)) for x, y in cam.mm_to_px(corners))
    paper = 1.5 * scene.marker_mm / 2 + 2.0
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=np.float64) * paper
    markers = tuple(
        tuple((float(x), float(y)) for x, y in cam.mm_to_px(c + square)) for c in corners
    )
    tile_px = cam.px_per_mm((w / 2, h / 2)) * scene.tile_mm[1]
    return Calibrated(area, markers, tile_px)


def _rendered_job(source: str, name: str, scene: Scene, style: RenderStyle, seed: int) -> Job:
    """A rendered frame, drawn once and kept as PNG with its truth in the cache."""
    recipe = f"{source}/{name}/{seed}/{scene!r}/{style!r}"
    key = hashlib.sha1(recipe.encode()).hexdigest()[:16]
    png, truth_file = CACHE / "frames" / f"{key}.png", CACHE / "frames" / f"{key}.json"
    if not png.is_file() or not truth_file.is_file():
        frame = render_frame(scene, style=style, seed=seed)
        png.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(png), frame.image)
        truth_file.write_text(
            json.dumps(
                [[[t.tile.a, t.tile.b], list(t.a_px), list(t.b_px)] for t in frame.truth.tiles]
            )
        )
    raw = json.loads(truth_file.read_text())
    truth = RenderedTruth(
        tuple(((int(p[0]), int(p[1])), (a[0], a[1]), (b[0], b[1])) for p, a, b in raw)
    )
    return Job(source, name, png, _by_place(truth), None, None, recipe, calibrated(scene))


def rendered_jobs(seed: int = 3, tiles: int = 14) -> list[Job]:
    rng = random.Random(seed)
    out = []
    for style in (s for s in TileStyle if s not in BLACK_SETS[1:]):
        top = 12 if style in (TileStyle.COLOURED, TileStyle.IVORY_TWELVE) else 6
        if style is TileStyle.IVORY_NINE:
            top = 9
        for surface in RENDERED_SURFACES:
            for light in Lighting:
                scene = _scene(rng, tiles, top)
                look = RenderStyle(tiles=style, surface=surface, lighting=light)
                name = f"{style}/{surface}/{light}"
                out.append(_rendered_job("rendered", name, scene, look, rng.randint(0, 999)))
    return out


BLACK_SETS = (TileStyle.BLACK, TileStyle.BLACK_WOOD, TileStyle.BLACK_RINGED)
BLACK_TABLES = (Surface.GREEN_FELT, Surface.WOOD, Surface.WHITE_CLOTH, Surface.PLAID)


def black_scene(rng: random.Random) -> Scene:
    """Black tiles as they are played with stones: a line of tiles touching end to
    end with a double across it, two side by side, a few loose, round black stones
    laid against tiles and beside them, a cup against one tile."""

    def pips() -> tuple[int, int]:
        return rng.randint(0, 6), rng.randint(0, 6)

    x0, y0 = 150.0 + rng.uniform(-20, 20), 180.0 + rng.uniform(-20, 20)
    tiles: list[SeenTile] = []
    x = x0
    for k in range(5):
        a, b = pips()
        if k == 2:  # a double across the line
            tiles.append(SeenTile(a, a, x + 12, y0 - 12, x + 12, y0 + 12))
            x += 24
        else:
            tiles.append(SeenTile(a, b, x + 12, y0, x + 36, y0))
            x += 48
    for k in range(2):  # side by side, touching along their long sides
        a, b = pips()
        tiles.append(SeenTile(a, b, x0 + 12, y0 + 120 + 24 * k, x0 + 36, y0 + 120 + 24 * k))
    for k in range(3):  # loose, one turned
        a, b = pips()
        cx, cy = x0 + 150 + 90 * k, y0 + 150
        if k == 1:
            tiles.append(SeenTile(a, b, cx, cy - 12, cx, cy + 12))
        else:
            tiles.append(SeenTile(a, b, cx - 12, cy, cx + 12, cy))
    r = 10.5
    stones = [
        Stone(x + r, y0),  # against the line's end
        Stone(x0 + 24, y0 + 12 + r),  # against the line's side
        Stone(x0 + 72, y0 - 12 - r),
        Stone(x0 + 48 + r + 1, y0 + 132),  # against the pair's end
        Stone(x0 + 150 + 24 + r, y0 + 150),  # against a loose tile
        Stone(x0 + 320, y0 + 60),
        Stone(x0 + 320 + 2 * r, y0 + 60),  # two stones touching
    ]
    cup = Cup(x0 + 150 + 180 + 24 + 40, y0 + 150 + 10, radius_mm=40.0)
    return Scene(tiles=tuple(tiles), props=(*stones, cup))


def black_jobs(seed: int = 31) -> list[Job]:
    rng = random.Random(seed)
    out = []
    for style in BLACK_SETS:
        for surface in BLACK_TABLES:
            for light in Lighting:
                scene = black_scene(rng)
                tint = (1.0, 1.0, 1.0)
                if rng.random() < 0.3:  # a colour cast over the table
                    tint = (rng.uniform(0.7, 1.1), rng.uniform(0.8, 1.1), rng.uniform(0.8, 1.2))
                look = RenderStyle(
                    tiles=style,
                    surface=surface,
                    lighting=light,
                    surface_tint=tint,
                    glare=rng.choice((0.0, 0.0, 0.5)),
                )
                name = f"{style}/{surface}/{light}"
                out.append(_rendered_job("rendered-black", name, scene, look, rng.randint(0, 999)))
    return out


def all_jobs(sources: list[str] | None) -> list[Job]:
    data = shared_data()
    jobs = ddd_a_jobs(data) + diverse_jobs(data) + rendered_jobs() + black_jobs()
    if sources:
        jobs = [j for j in jobs if j.source in sources]
    return jobs


# ---------------------------------------------------------------------------------
# reading, cached


@functools.cache
def code_digest() -> str:
    """A digest of the detector's code (every module of `vision/`), taken once: the
    code imported is the code of the process's start."""
    h = hashlib.sha1()
    for path in sorted((ROOT / "vision").rglob("*.py")):
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


@dataclass(slots=True)
class Reading:
    """What the detector read on one frame, how long it took and which looks ran."""

    tiles: list[FoundTile]
    cpu_ms: float
    looks: list[dict[str, Any]] = field(default_factory=list)
    passes: float = -1.0  # the search passes it took (-1: not known)


BUDGET = LookSettings().budget  # the detector's default
NO_BUDGET = 1000.0  # a budget no frame reaches: what each look earns, unbounded


def _settings(job: Job, off: frozenset[str], budget: float) -> Settings:
    return Settings(tone=job.tone, looks=LookSettings(off=off, budget=budget))


def _record(det: Detection) -> list[dict[str, Any]]:
    return [r.as_dict() for r in det.looks]


def touched(reading: Reading, off: frozenset[str]) -> bool:
    """Whether turning the looks `off` off may change `reading` (made with every look
    on): a look that changed what it looked at. (A look that ran and left what it
    looked at as it was, or never ran, leaves the same reading when it is off: the
    looks are deterministic and the budget is not reached.)"""
    return any(r["name"] in off and r["changed"] for r in reading.looks)


def within_budget(reading: Reading, budget: float) -> bool:
    """Whether `reading` (made with `NO_BUDGET`) spent less than `budget` passes: a
    frame no look of which a budget of `budget` would have stopped."""
    return budget >= NO_BUDGET or 0.0 <= reading.passes < budget


def read(
    jobs: list[Job],
    off: frozenset[str],
    label: str = "",
    budget: float = BUDGET,
    on: list[Reading] | None = None,
) -> list[Reading]:
    """Each job read with the looks `off` turned off (cached). With `on`, the
    readings with every look on: a frame they say no look of `off` touched
    (`touched`) is not read again."""
    CACHE.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha1(f"{code_digest()}/{sorted(off)}/{budget}".encode()).hexdigest()[:16]
    path = CACHE / f"readings-{key}.json"
    cache: dict[str, Any] = json.loads(path.read_text()) if path.is_file() else {}
    out: list[Reading] = []
    fresh = 0
    for k, job in enumerate(jobs, 1):
        got = cache.get(job.digest)
        same = on is not None and not touched(on[k - 1], off)
        if got is None and on is not None and same and within_budget(on[k - 1], budget):
            out.append(on[k - 1])
            continue
        if got is None:
            image = job.load()
            start = time.process_time()
            det = detect(image, job.area, _settings(job, off, budget))
            cpu = (time.process_time() - start) * 1000.0
            got = {
                "tiles": [[*t.pips, *t.px[0], *t.px[1], t.confidence] for t in det.tiles],
                "cpu_ms": cpu,
                "looks": _record(det),
                "passes": det.passes,
            }
            cache[job.digest] = got
            fresh += 1
            if fresh % 20 == 0:
                path.write_text(json.dumps(cache))
        print(f"\r  {label} {k}/{len(jobs)}", end="", file=sys.stderr, flush=True)
        tiles = [
            FoundTile((int(a), int(b)), ((xa, ya), (xb, yb)), float(c))
            for a, b, xa, ya, xb, yb, c in got["tiles"]
        ]
        passes = float(got.get("passes", -1.0))
        out.append(Reading(tiles, float(got["cpu_ms"]), list(got.get("looks", [])), passes))
    print(file=sys.stderr)
    if fresh:
        path.write_text(json.dumps(cache))
    return out


# ---------------------------------------------------------------------------------
# figures


@dataclass(frozen=True, slots=True)
class Row:
    frames: int
    labelled: int
    right: int
    wrong: int
    missed: int

    @property
    def precision(self) -> float:
        return self.right / max(1, self.right + self.wrong)

    @property
    def recall(self) -> float:
        return self.right / max(1, self.labelled)


def rows(jobs: list[Job], readings: list[Reading]) -> dict[str, Row]:
    by: dict[str, list[Counts]] = {}
    for job, r in zip(jobs, readings, strict=True):
        by.setdefault(job.source, []).append(job.score(r.tiles))
    out = {}
    for source, counts in by.items():
        out[source] = Row(
            len(counts),
            sum(c.labelled for c in counts),
            sum(c.right for c in counts),
            sum(c.wrong for c in counts),
            sum(c.missed for c in counts),
        )
    return out


def table(now: dict[str, Row]) -> list[str]:
    lines = [
        f"{'source':<16}{'frames':>7}{'tiles':>7}{'right':>7}{'wrong':>7}{'missed':>7}"
        f"{'precision':>11}{'recall':>9}"
    ]
    for source, r in now.items():
        lines.append(
            f"{source:<16}{r.frames:>7}{r.labelled:>7}{r.right:>7}{r.wrong:>7}{r.missed:>7}"
            f"{r.precision:>11.1%}{r.recall:>9.1%}"
        )
    return lines


def earnings(
    jobs: list[Job], on: list[Reading], off: list[Reading]
) -> dict[str, tuple[int, int, int]]:
    """Per source, what the look earns: (right, wrong, missed) with it on minus with
    it off (more right and fewer wrong or missed is what it earns)."""
    a, b = rows(jobs, on), rows(jobs, off)
    return {
        s: (a[s].right - b[s].right, a[s].wrong - b[s].wrong, a[s].missed - b[s].missed) for s in a
    }


def frames_changed(jobs: list[Job], on: list[Reading], off: list[Reading]) -> list[str]:
    """The frames whose score differs with the look off."""
    out = []
    for job, x, y in zip(jobs, on, off, strict=True):
        cx, cy = job.score(x.tiles), job.score(y.tiles)
        if cx != cy:
            out.append(
                f"{job.source}/{job.name}: right {cy.right}->{cx.right}, "
                f"wrong {cy.wrong}->{cx.wrong} (off->on)"
            )
    return out


def without(jobs: list[Job], names: list[str], show_frames: bool) -> None:
    on = read(jobs, frozenset(), "all looks", NO_BUDGET)
    off = read(jobs, frozenset(names), "without " + ",".join(names), NO_BUDGET, on)
    print(f"without {', '.join(names)}: what the look earns per source (on minus off)")
    print(f"{'source':<16}{'right':>7}{'wrong':>7}{'missed':>7}   on: right/wrong/missed")
    now = rows(jobs, on)
    for source, (r, w, m) in earnings(jobs, on, off).items():
        n = now[source]
        print(f"{source:<16}{r:>+7}{w:>+7}{m:>+7}   {n.right}/{n.wrong}/{n.missed}")
    if show_frames:
        for line in frames_changed(jobs, on, off):
            print("  " + line)


def every_look(jobs: list[Job]) -> None:
    on = read(jobs, frozenset(), "all looks", NO_BUDGET)
    print("what each look earns, per source where it changes anything (on minus off:")
    print("right, wrong, missed; a look that earns is + right, - wrong, - missed)")
    for name in (n for n in look_names() if n not in first_readings()):
        off = read(jobs, frozenset({name}), f"without {name}", NO_BUDGET, on)
        moved = {s: e for s, e in earnings(jobs, on, off).items() if any(e)}
        ran = sum(any(x["name"] == name and x["runs"] for x in r.looks) for r in on)
        text = "; ".join(f"{s} {r:+d}/{w:+d}/{m:+d}" for s, (r, w, m) in moved.items())
        print(f"{name:<18} ran on {ran:>3} frames  {text or 'nothing'}")
        sys.stdout.flush()


def per_source(jobs: list[Job], budget: float) -> None:
    unbounded = read(jobs, frozenset(), "all looks", NO_BUDGET)
    now = (
        read(jobs, frozenset(), f"budget {budget:g}", budget, unbounded)
        if budget < NO_BUDGET
        else unbounded
    )
    print(f"per source, the budget of passes {budget:g} (a frame no look of which it")
    print("would stop is read once, with no budget)")
    for line in table(rows(jobs, now)):
        print(line)


# ---------------------------------------------------------------------------------
# time


def _best(
    image: NDArray[np.uint8],
    s: Settings,
    repeats: int,
    area: Any = None,
    known: Calibrated | None = None,
) -> tuple[float, Detection]:
    """CPU ms of the fastest of `repeats` detections, and the detection (`known`: the
    markers left out and the tile width given, as a calibrated camera reads)."""
    best, det = float("inf"), None
    exclude = known.markers if known is not None else ()
    tile_px = known.tile_px if known is not None else 0.0
    if known is not None:
        area = known.area
    for _ in range(max(1, repeats)):
        start = time.process_time()
        det = detect(image, area, s, exclude, tile_px)
        best = min(best, (time.process_time() - start) * 1000.0)
    assert det is not None
    return best, det


def empty_tables() -> Iterator[tuple[str, NDArray[np.uint8], Calibrated]]:
    """Rendered tables with no tile on them (the corner markers only): every surface,
    lamp light."""
    scene = Scene()
    for surface in Surface:
        style = RenderStyle(surface=surface, lighting=Lighting.LAMP)
        yield str(surface), render_frame(scene, style=style, seed=5).image, calibrated(scene)


CLI = Settings(tone=None)  # as `vision detect` reads: the tone unknown
SERVICE = Settings(tone=Tone.LIGHT)  # as the service reads by default (`camera.tone`)


def timing(jobs: list[Job], repeats: int) -> None:
    print(f"CPU ms per frame, one thread, the best of {repeats} runs; 'cli': tone auto,")
    print("nothing known; 'service': tone light, the play area, and on rendered frames the")
    print("markers left out and the tile width known (a calibrated camera)")
    print(
        f"{'source':<16}{'frames':>7}{'cli med':>9}{'cli max':>9}{'svc med':>9}{'svc max':>9}"
        f"{'over 1 s':>9}"
    )
    by: dict[str, tuple[list[float], list[float]]] = {}
    worst: list[tuple[float, str]] = []
    readings: list[Reading] = []
    for k, job in enumerate(jobs, 1):
        image = job.load()
        cli, cli_det = _best(image, CLI, repeats)
        svc_settings = SERVICE if job.tone is None else Settings(tone=job.tone)
        svc, svc_det = _best(image, svc_settings, repeats, job.area, job.service)
        # scored as the figures per source read it: ddd-a as the service, the rest as
        # `vision detect` (rendered frames: with their markers in view)
        det = svc_det if job.tone is not None else cli_det
        readings.append(Reading(list(det.tiles), det.ms, [], det.passes))
        by.setdefault(job.source, ([], []))[0].append(cli)
        by[job.source][1].append(svc)
        worst.append((max(cli, svc), f"{job.source}/{job.name}"))
        print(f"\r  {k}/{len(jobs)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    every_cli: list[float] = []
    every_svc: list[float] = []
    for source, (cli_ms, svc_ms) in by.items():
        every_cli += cli_ms
        every_svc += svc_ms
        over = sum(max(a, b) > 1000.0 for a, b in zip(cli_ms, svc_ms, strict=True))
        print(
            f"{source:<16}{len(cli_ms):>7}{statistics.median(cli_ms):>9.0f}{max(cli_ms):>9.0f}"
            f"{statistics.median(svc_ms):>9.0f}{max(svc_ms):>9.0f}{over:>9}"
        )
    print("slowest: " + ", ".join(f"{n} {ms:.0f} ms" for ms, n in sorted(worst)[-5:]))
    print("the same detections scored (ddd-a as the service reads, the rest as the cli):")
    for line in table(rows(jobs, readings)):
        print(line)
    med_cli, med_svc = statistics.median(every_cli), statistics.median(every_svc)
    print(f"median frame: cli {med_cli:.0f} ms, service {med_svc:.0f} ms")
    print("empty table (rendered, the corner markers only):")
    for name, image, known in empty_tables():
        cli, det = _best(image, CLI, repeats)
        svc, sdet = _best(image, SERVICE, repeats, None, known)
        print(
            f"  {name:<16} cli {cli:>6.0f} ms ({det.passes:.1f} passes, "
            f"{cli / med_cli:.2f}x the median)  service {svc:>6.0f} ms ({sdet.passes:.1f} "
            f"passes, {svc / med_svc:.2f}x)"
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--without", action="append", default=[], help="turn LOOK off")
    parser.add_argument("--looks", action="store_true", help="what every look earns")
    parser.add_argument("--per-source", action="store_true", help="the figures per source")
    parser.add_argument("--time", action="store_true", help="CPU ms per frame, per source")
    parser.add_argument("--source", action="append", help="only this source (repeatable)")
    parser.add_argument("--frames", action="store_true", help="list the frames that change")
    parser.add_argument("--repeats", type=int, default=1, help="--time: best of N runs")
    parser.add_argument(
        "--budget", type=float, default=BUDGET, help="--per-source: passes a frame may take"
    )
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    known = set(look_names())
    unknown = [n for n in args.without if n not in known]
    if unknown:
        print(f"error: no look named {', '.join(unknown)} (looks: {', '.join(sorted(known))})")
        return 2
    jobs = all_jobs(args.source)
    if args.time:
        timing(jobs, args.repeats)
    elif args.looks:
        every_look(jobs)
    elif args.without:
        without(jobs, args.without, args.frames)
    else:
        per_source(jobs, args.budget)
    return 0
