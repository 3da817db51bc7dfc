"""`domino-table vision ...`: read tiles from photos, measure accuracy, enrol a set."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import click
import cv2
import numpy as np
from numpy.typing import NDArray

from engine.tiles import DominoSet
from mat import PAPERS, MatError, mat_for
from mat.pdf import mat_pdf
from vision.calibration.aruco_markers import write_marker_sheet
from vision.calibration.homography import Calibration
from vision.camera_path.pipeline import Pipeline, PipelineSettings
from vision.detector.accuracy import (
    DDD_A_CELLS,
    DDD_A_GRID,
    BenchDataError,
    Detector,
    Grid,
    photos,
    run,
    summarise,
)
from vision.detector.detect import (
    FRAME_LOOKS,
    Detection,
    FrameError,
    Settings,
    detect,
    with_look,
)
from vision.detector.overlay import draw
from vision.detector.play_area import PlayArea
from vision.errors import CalibrationError, VisionError
from vision.frames import Frame
from vision.set_model.look import SetLook
from vision.set_model.model import MODEL_FILE, ModelError, load_model
from vision.tiles.dark_marks import Tone

logger = logging.getLogger(__name__)

TONES = {"light": Tone.LIGHT, "dark": Tone.DARK, "grey": Tone.GREY, "auto": None}
DDD_A_AREA = ",".join(f"{v:g}" for v in DDD_A_GRID)


def parse_area(ctx: click.Context, param: click.Parameter, value: str | None) -> PlayArea | None:
    """Click callback: `x0,y0,x1,y1` in pixels, or nothing."""
    if value is None:
        return None
    try:
        return PlayArea.parse(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx, param) from exc


def load_image(path: Path) -> NDArray[np.uint8]:
    """Read a photo, or raise FrameError saying what is wrong with the file."""
    if not path.exists():
        raise FrameError("no such file")
    if not path.is_file():
        raise FrameError("not a file")
    if path.stat().st_size == 0:
        raise FrameError("the file is empty")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise FrameError("not an image OpenCV can read (JPEG, PNG, ...)")
    return np.asarray(image, dtype=np.uint8)


def as_json(image: str, det: Detection, explain: bool = False) -> str:
    """The one-line JSON record of a detection (with `explain`, its looks too)."""
    record: dict[str, object] = {
        "image": image,
        "tiles": [
            {
                "pips": [t.pips[0], t.pips[1]],
                "px": [[round(x, 1), round(y, 1)] for x, y in t.px],
                "confidence": t.confidence,
            }
            for t in det.tiles
        ],
        "facedown": det.facedown,
        "ms": round(det.ms, 1),
    }
    if explain:
        record["passes"] = det.passes
        record["looks"] = [r.as_dict() for r in det.looks]
    return json.dumps(record)


def explained(det: Detection) -> str:
    """Which looks ran on a detection and what each did (`Detection.looks`)."""
    lines = [f"  looks ({det.passes} search passes; a look's passes and ms hold its inner looks'):"]
    lines += [f"    {r}" for r in det.looks]
    return "\n".join(lines)


def as_table(image: str, det: Detection) -> str:
    """A readable listing of a detection."""
    lines = [
        f"{image}: {len(det.tiles)} tiles, {det.facedown} face down, "
        f"{len(det.unsure)} unsure, {det.ms:.1f} ms"
    ]
    lines.append(f"  {'tile':>5}  {'half a (px)':>14}  {'half b (px)':>14}  confidence")
    for t in det.tiles:
        (xa, ya), (xb, yb) = t.px
        lines.append(
            f"  {t.pips[0]:>2}-{t.pips[1]:<2}  {xa:6.0f},{ya:<7.0f}  {xb:6.0f},{yb:<7.0f}"
            f"  {t.confidence:.2f}"
        )
    for u in det.unsure:
        lines.append(f"  unsure at {u.x:.0f},{u.y:.0f}: {u.reason}")
    return "\n".join(lines)


def show_path(out: Path, image: Path, many: bool) -> Path:
    """Where the drawing of `image` goes: OUT itself, or OUT-<image name> for several."""
    if not many:
        return out
    return out.with_name(f"{out.stem}-{image.stem}{out.suffix or '.png'}")


@click.group()
def vision() -> None:
    """Read domino tiles from camera photos."""


@vision.command("detect")
@click.argument("images", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_lines", is_flag=True, help="One JSON object per image per line.")
@click.option(
    "--show",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Draw what was found over the image into this PNG (OUT-<name>.png for several).",
)
@click.option(
    "--area",
    callback=parse_area,
    metavar="x0,y0,x1,y1",
    help="Play area rectangle in pixels: x0,y0,x1,y1.",
)
@click.option(
    "--tone",
    type=click.Choice(sorted(TONES)),
    default="auto",
    show_default=True,
    help="Light tiles with dark pips, dark tiles with light pips, coloured (wooden) "
    "faces by grey level, or auto: try light, dark and grey in that order, stop at "
    "the first reading that explains the table and keep the best.",
)
@click.option(
    "--state-dir", type=click.Path(file_okay=False, path_type=Path),
    help="A table's state directory: read with the set enrolled there (its set model: "
    "its tone, its tile's size on that camera's frames, each half checked against "
    "the set's own halves) instead of --tone.",
)  # fmt: skip
@click.option(
    "--explain",
    is_flag=True,
    help="Also print which of the detector's looks ran and what each did "
    "(tiles added, removed, re-read; search passes; time).",
)
def detect_cmd(
    images: tuple[Path, ...],
    as_lines: bool,
    show: Path | None,
    area: PlayArea | None,
    tone: str,
    state_dir: Path | None,
    explain: bool,
) -> None:
    """Find the tiles in each IMAGE and print their pips."""
    settings = Settings(tone=TONES[tone])
    reader = _with_model(state_dir, settings) if state_dir is not None else None
    failed = 0
    for path in images:
        try:
            frame = load_image(path)
            det = reader(frame, area) if reader is not None else detect(frame, area, settings)
        except FrameError as exc:
            click.echo(f"error: {path}: {exc}", err=True)
            failed += 1
            continue
        if as_lines:
            click.echo(as_json(str(path), det, explain))
        else:
            click.echo(as_table(str(path), det))
            if explain:
                click.echo(explained(det))
        if show is not None:
            target = show_path(show, path, len(images) > 1)
            if not cv2.imwrite(str(target), draw(frame, det, area)):
                click.echo(f"error: {target}: could not write the drawing", err=True)
                failed += 1
    if failed:
        raise SystemExit(1)


def _with_model(
    state_dir: Path, settings: Settings
) -> Callable[[NDArray[np.uint8], PlayArea | None], Detection]:
    """A reader of photos with the set model kept in `state_dir`: the set's tone, its
    tile's width in pixels when the photo is of that table's calibrated camera, and each
    half read against the set's own (`vision.set_model.reader`), as the camera path does."""
    try:
        model = load_model(state_dir)
    except ModelError as exc:
        raise click.ClickException(str(exc)) from exc
    if model is None:
        raise click.ClickException(
            f"{state_dir}: no set enrolled there (no {MODEL_FILE}): enrol it with "
            "`domino-table vision enrol --mat` or leave out --state-dir"
        )
    try:
        calibration: Calibration | None = Calibration.load(state_dir)
    except CalibrationError:
        calibration = None
    settings = model.detector(settings)
    reader = model.reader()
    looks = FRAME_LOOKS if reader is None else with_look(FRAME_LOOKS, SetLook(reader))

    def read(image: NDArray[np.uint8], area: PlayArea | None) -> Detection:
        tile_px = 0.0
        h, w = image.shape[:2]
        if calibration is not None and model.tile_mm and calibration.image_size == (w, h):
            tile_px = model.tile_mm[1] / calibration.mm_per_px()
        return detect(image, area, settings, (), tile_px, looks)

    return read


def _detector(settings: Settings) -> Detector:
    def run_detect(image: NDArray[np.uint8], area: PlayArea) -> Detection:
        return detect(image, area, settings)

    return run_detect


@vision.command("bench")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--area",
    callback=parse_area,
    metavar="x0,y0,x1,y1",
    default=DDD_A_AREA,
    show_default=True,
    help="Play area handed to the detector (pixels).",
)
@click.option(
    "--grid",
    "grid_box",
    callback=parse_area,
    metavar="x0,y0,x1,y1",
    default=DDD_A_AREA,
    show_default=True,
    help="Outline of the labelled cell grid, used only to score (pixels).",
)
@click.option("--cells", default=DDD_A_CELLS, show_default=True, help="Cells per grid side.")
@click.option("--threads", default=1, show_default=True, help="OpenCV threads (1 = one core).")
@click.option(
    "--tone",
    type=click.Choice(sorted(TONES)),
    default="auto",
    show_default=True,
    help="The set's tone, as for 'detect'.",
)
@click.option("--errors", "list_errors", is_flag=True, help="List every wrong or missed tile.")
def bench_cmd(
    folder: Path,
    area: PlayArea,
    grid_box: PlayArea,
    cells: int,
    threads: int,
    tone: str,
    list_errors: bool,
) -> None:
    """Score detection on a labelled FOLDER (images/ and board_state_per_image.csv)."""
    cv2.setNumThreads(threads)
    (x0, y0), _, (x1, y1), _ = grid_box.corners
    grid = Grid(x0, y0, x1, y1, cells)
    try:
        names = photos(folder)
        with click.progressbar(
            run(folder, area, grid, names, detector=_detector(Settings(tone=TONES[tone]))),
            length=len(names),
            label="detecting",
            file=sys.stderr,
        ) as bar:
            scores = list(bar)
    except BenchDataError as exc:
        raise click.ClickException(str(exc)) from exc
    for line in summarise(scores).lines():
        click.echo(line)
    if list_errors:
        for s in scores:
            for e in s.errors:
                click.echo(f"{s.image}: {e}")


def parse_paper(ctx: click.Context, param: click.Parameter, value: str) -> tuple[float, float]:
    """Click callback: the paper as `WxH` in mm (`210x297`)."""
    try:
        w, h = (float(v) for v in value.lower().split("x"))
    except ValueError as exc:
        raise click.BadParameter(f"{value!r}: give the paper as WxH in mm, e.g. 210x297") from exc
    if w <= 0 or h <= 0:
        raise click.BadParameter(f"{value!r}: the paper's sides must be above 0 mm")
    return (w, h)


@vision.command("markers")
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--paper", default="210x297", show_default=True, callback=parse_paper,
    metavar="WxH", help="The paper's width x height in mm (A4 portrait by default).",
)  # fmt: skip
@click.option(
    "--marker-mm", default=40.0, show_default=True, type=click.FloatRange(min=1.0),
    help="The side of each black marker square in mm (configure the same value).",
)  # fmt: skip
@click.option("--dpi", default=300, show_default=True, type=click.IntRange(72, 2400))
def markers_cmd(out: Path, paper: tuple[float, float], marker_mm: float, dpi: int) -> None:
    """Write a printable sheet of the four corner markers to OUT (a PNG).

    Print it at 100 % (actual size), cut the markers out and lay their centres on the
    play area's corners: id 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.
    """
    try:
        path = write_marker_sheet(out, size_mm=paper, marker_mm=marker_mm, dpi=dpi)
    except (VisionError, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(
        f"{path}: four {marker_mm:g} mm markers on {paper[0]:g} x {paper[1]:g} mm, {dpi} dpi"
    )


SETS = [str(s) for s in DominoSet]


@vision.command("mat")
@click.argument("out", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--set", "set_name", type=click.Choice(SETS), default="double-six", show_default=True,
    help="The set whose tiles the mat has a slot for.",
)  # fmt: skip
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True)
@click.option(
    "--json", "as_json_", is_flag=True,
    help="Print the mat's geometry (markers' ids and corners, each slot's rectangle "
    "and tile, in mm on the page) instead of writing the PDF.",
)  # fmt: skip
def mat_cmd(out: Path | None, set_name: str, paper: str, as_json_: bool) -> None:
    """Write the enrolment mat of a set to OUT (a PDF): pages with one outlined,
    labelled slot per tile and four markers each. Print it at 100 %, lay each tile face
    up in its slot, and enrol with `vision enrol --mat` (or the display's Camera page)."""
    try:
        mat = mat_for(DominoSet.named(set_name), paper)
    except MatError as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json_:
        click.echo(json.dumps(mat.to_json(), indent=2))
        return
    if out is None:
        raise click.UsageError("give OUT, the PDF to write (or --json for the geometry)")
    try:
        out.write_bytes(mat_pdf(mat))
    except OSError as exc:
        raise click.ClickException(f"{out}: could not write the mat: {exc.strerror}") from exc
    slots = len(mat.slots)
    click.echo(f"{out}: the {mat.domino_set} mat, {slots} slots on {len(mat.pages)} {paper} pages")


def _enrolling(state_dir: Path) -> Pipeline:
    """The camera path of the table whose state directory is `state_dir`: its calibration
    (photos of its camera's size are read in its play area, in mm), where the look goes."""
    try:
        size = Calibration.load(state_dir).size_mm
    except CalibrationError:
        size = PipelineSettings().size_mm
    return Pipeline(PipelineSettings(size_mm=size), state_dir)


@vision.command("enrol")
@click.argument("images", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--mat", "on_mat", is_flag=True,
    help="The IMAGES show the filled enrolment mat (`vision mat`): each slot is looked "
    "at where the mat says, and said in words when it is empty, holds another tile "
    "or a tile face down.",
)  # fmt: skip
@click.option(
    "--paper", type=click.Choice(sorted(PAPERS)),
    help="The mat's paper (with --mat; by default found from its markers).",
)  # fmt: skip
@click.option(
    "--set", "set_name", type=click.Choice(SETS), default="double-six", show_default=True,
    help="The set that lies face up, whole (over all the IMAGES together).",
)  # fmt: skip
@click.option(
    "--state-dir", required=True, type=click.Path(file_okay=False, path_type=Path),
    help="The table's state directory (state.dir): its calibration is used, and the "
    "set's model kept there (set.json) when every tile was read right.",
)  # fmt: skip
def enrol_cmd(
    images: tuple[Path, ...], on_mat: bool, paper: str | None, set_name: str, state_dir: Path
) -> None:
    """Read the whole set, face up in IMAGES (laid loose, or on the enrolment mat with
    --mat), against its tile list; print what was missed, read wrong or is extra as
    JSON (the MQTT enrol reply's detail), and keep the set's model when every tile was
    read right (exit 1 when not)."""
    frames: list[Frame] = []
    for path in images:
        try:
            frames.append(Frame(load_image(path), 0.0))
        except FrameError as exc:
            raise click.ClickException(f"{path}: {exc}") from exc
    domino_set = DominoSet.named(set_name)
    at = datetime.now(UTC)
    try:
        pipeline = _enrolling(state_dir)
        if on_mat:
            mat = None if paper is None else mat_for(domino_set, paper)
            on = pipeline.enrol_mat(frames, domino_set, at, mat)
            detail, ok, summary, model = on.detail(), on.ok, on.summary(), on.model
        else:
            loose = pipeline.enrol(frames, domino_set, at)
            detail, ok, summary = loose.check.detail(), loose.ok, loose.check.summary()
            model = loose.model
    except VisionError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(json.dumps(detail))
    mat_detail = detail.get("mat")
    if isinstance(mat_detail, dict):
        for slot in mat_detail.get("slots", []):
            click.echo(f"  {slot['message']}", err=True)
    if not ok:
        click.echo(f"not enrolled: {summary}", err=True)
        raise SystemExit(1)
    assert model is not None
    size = (
        f"{model.tile_mm[0]:.1f} x {model.tile_mm[1]:.1f} mm"
        if model.tile_mm is not None
        else f"{model.tile_px:.0f} px wide"
    )
    click.echo(
        f"enrolled: {summary}; its model ({model.tone.value} tiles"
        f"{', faces of one colour' if model.face else ''}, {size}, {len(model.halves)} "
        f"halves) kept in {state_dir / MODEL_FILE}",
        err=True,
    )
