"""Detection on frames drawn here with OpenCV, whose answers are known by construction."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.detector.detect import Detection, FrameError, Settings, detect
from vision.detector.play_area import PlayArea
from vision.detector.results import UnsureReason
from vision.tiles.dark_marks import Tone

Colour = tuple[int, int, int]
Image = NDArray[np.uint8]

# Pip positions on a half, in units of the pip spacing, for 0-12 (double-twelve sets):
# three columns; layouts up to 9 on three rows, 10-12 on four.
_R3 = (-1.0, 0.0, 1.0)
_R4 = (-1.2, -0.4, 0.4, 1.2)
LAYOUTS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(x, y) for x in (-1.0, 1.0) for y in _R3],
    7: [(x, y) for x in (-1.0, 1.0) for y in _R3] + [(0, 0)],
    8: [(x, y) for x in _R3 for y in _R3 if (x, y) != (0, 0)],
    9: [(x, y) for x in _R3 for y in _R3],
    10: [(x, y) for x in (-1.0, 1.0) for y in _R4] + [(0, -0.4), (0, 0.4)],
    11: [(x, y) for x in (-1.0, 1.0) for y in _R4] + [(0, y) for y in _R3],
    12: [(x, y) for x in _R3 for y in _R4],
}
# Double-twelve sets colour each value: these are darker than an ivory face in every
# channel's minimum, as real printed pips are.
PIP_COLOURS: dict[int, Colour] = {
    0: (0, 0, 0),
    1: (40, 40, 40),
    2: (30, 30, 200),
    3: (40, 140, 40),
    4: (160, 60, 30),
    5: (20, 110, 200),
    6: (120, 40, 120),
    7: (0, 0, 0),
    8: (30, 30, 200),
    9: (40, 140, 40),
    10: (160, 60, 30),
    11: (20, 110, 200),
    12: (120, 40, 120),
}


@dataclass(frozen=True)
class Drawn:
    """A tile drawn at a known place: half a centred at `pa`, half b at `pb`."""

    a: int
    b: int
    pa: tuple[float, float]
    pb: tuple[float, float]


def background(h: int, w: int, colour: Colour, grain: bool = False, seed: int = 1) -> Image:
    img = np.empty((h, w, 3), np.uint8)
    img[:] = colour
    if grain:  # wood: dark wavy streaks
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        wave = np.sin(ys / 7.0 + 3.0 * np.sin(xs / 90.0)) * 18.0
        img = np.clip(img.astype(np.float32) + wave[:, :, None], 0, 255).astype(np.uint8)
    rng = np.random.default_rng(seed)
    noise = rng.normal(0, 3.0, img.shape)
    return np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def draw_tile(
    img: Image,
    centre: tuple[float, float],
    pips: tuple[int, int],
    width: int = 60,
    vertical: bool = False,
    face: Colour = (225, 235, 240),
    pip: Colour | None = (20, 20, 20),
    pip_px: float | None = None,
    pin: Colour | None = None,
    face_down: bool = False,
) -> Drawn:
    """Draw one domino; `pip=None` colours pips by value like a double-twelve set."""
    cx, cy = centre
    w, h = (width, 2 * width) if vertical else (2 * width, width)
    x0, y0 = round(cx - w / 2), round(cy - h / 2)
    cv2.rectangle(img, (x0, y0), (x0 + w - 1, y0 + h - 1), face, -1)
    cv2.rectangle(img, (x0, y0), (x0 + w - 1, y0 + h - 1), tuple(int(c * 0.8) for c in face), 1)
    along = (0.0, 1.0) if vertical else (1.0, 0.0)
    across = (1.0, 0.0) if vertical else (0.0, 1.0)
    half = width / 2.0
    pa = (cx - along[0] * half, cy - along[1] * half)
    pb = (cx + along[0] * half, cy + along[1] * half)
    if face_down:
        return Drawn(-1, -1, pa, pb)
    line = (across[0] * width * 0.38, across[1] * width * 0.38)
    dark = pip if pip is not None else (0, 0, 0)
    cv2.line(
        img,
        (round(cx - line[0]), round(cy - line[1])),
        (round(cx + line[0]), round(cy + line[1])),
        dark,
        max(2, width // 20),
    )
    if pin is not None:
        cv2.circle(img, (round(cx), round(cy)), max(3, width // 12), pin, -1, cv2.LINE_AA)
    radius = (pip_px or width * 0.17) / 2.0
    for value, (hx, hy) in zip(pips, (pa, pb), strict=True):
        colour = pip if pip is not None else PIP_COLOURS[value]
        spacing = width * (0.2 if value >= 10 else 0.26)
        for u, v in LAYOUTS[value]:
            x = hx + (along[0] * u + across[0] * v) * spacing
            y = hy + (along[1] * u + across[1] * v) * spacing
            cv2.circle(img, (round(x), round(y)), round(radius), colour, -1, cv2.LINE_AA)
    return Drawn(pips[0], pips[1], pa, pb)


def found(det: Detection) -> list[tuple[int, int, tuple[float, float], tuple[float, float]]]:
    return [(t.pips[0], t.pips[1], t.px[0], t.px[1]) for t in det.tiles]


def assert_reads(det: Detection, drawn: list[Drawn], tol: float = 8.0) -> None:
    """Every drawn tile found once, pips right on the right halves, nothing else."""
    got = found(det)
    assert len(got) == len(drawn), f"found {[str(t) for t in det.tiles]}"
    for d in drawn:
        match = [
            g
            for g in got
            if np.hypot(g[2][0] - d.pa[0], g[2][1] - d.pa[1]) < tol
            and np.hypot(g[3][0] - d.pb[0], g[3][1] - d.pb[1]) < tol
        ]
        assert match, f"{d} not found in {[str(t) for t in det.tiles]}"
        assert (match[0][0], match[0][1]) == (d.a, d.b), f"{d} read as {match[0][:2]}"


def test_light_tiles_dark_pips_every_value() -> None:
    img = background(600, 900, (60, 110, 40))
    drawn = []
    values = [(a, b) for a in range(7) for b in range(a, 7)][:12]
    for k, pips in enumerate(values):
        cx, cy = 110 + (k % 4) * 200, 120 + (k // 4) * 170
        drawn.append(draw_tile(img, (cx, cy), pips, vertical=False))
    det = detect(img)
    assert_reads(det, drawn)
    assert det.facedown == 0
    assert 55 < det.tile_width_px < 66
    assert all(t.confidence > 0.9 for t in det.tiles)


def test_every_value_up_to_six_vertical_too() -> None:
    img = background(500, 900, (90, 60, 40))
    drawn = [draw_tile(img, (80 + 110 * k, 200), (k, 6 - k), vertical=True) for k in range(7)]
    assert_reads(detect(img), drawn)


def test_dark_tiles_light_pips() -> None:
    img = background(500, 800, (150, 160, 150))
    face, pip = (25, 25, 30), (240, 240, 240)
    drawn = [
        draw_tile(img, (150, 150), (6, 2), face=face, pip=pip),
        draw_tile(img, (450, 150), (5, 0), face=face, pip=pip),
        draw_tile(img, (650, 300), (3, 1), vertical=True, face=face, pip=pip),
        draw_tile(img, (200, 350), (4, 4), face=face, pip=pip),
    ]
    assert_reads(detect(img, settings=Settings(tone=Tone.DARK)), drawn)
    assert_reads(detect(img, settings=Settings(tone=None)), drawn)


def test_coloured_pips_of_a_double_twelve_set() -> None:
    img = background(700, 1000, (50, 90, 50))
    values = [(12, 11), (10, 9), (8, 7), (12, 12), (7, 10), (11, 0), (9, 3), (6, 12)]
    drawn = [
        draw_tile(
            img, (140 + (k % 4) * 240, 170 + (k // 4) * 300), pips, width=80, pip=None, pip_px=9
        )
        for k, pips in enumerate(values)
    ]
    assert_reads(detect(img), drawn, tol=10)


def test_touching_tiles_in_rows_and_side_by_side() -> None:
    img = background(600, 900, (40, 100, 120))
    w = 60
    drawn = []
    # a row of four touching end to end, doubles in line
    for k, pips in enumerate([(6, 6), (6, 1), (1, 1), (1, 4)]):
        drawn.append(draw_tile(img, (150 + k * 2 * w, 150), pips, width=w))
    # three touching side by side (long edges together)
    for k, pips in enumerate([(2, 5), (3, 0), (5, 5)]):
        drawn.append(draw_tile(img, (200, 320 + k * w), pips, width=w))
    # two vertical tiles touching end to end
    for k, pips in enumerate([(4, 2), (2, 3)]):
        drawn.append(draw_tile(img, (600, 260 + k * 2 * w), pips, width=w, vertical=True))
    assert_reads(detect(img), drawn)


def test_face_down_tile_is_counted_apart() -> None:
    img = background(500, 800, (60, 110, 40))
    drawn = [
        draw_tile(img, (200, 150), (3, 4)),
        draw_tile(img, (500, 150), (0, 2)),
    ]
    draw_tile(img, (350, 350), (0, 0), face_down=True)
    draw_tile(img, (650, 350), (0, 0), vertical=True, face_down=True)
    det = detect(img)
    assert_reads(det, drawn)
    assert det.facedown == 2


def test_printed_domino_outside_the_play_area_is_ignored() -> None:
    img = background(600, 900, (60, 110, 40))
    cv2.rectangle(img, (0, 0), (899, 100), (40, 60, 150), -1)  # a printed score track
    draw_tile(img, (300, 50), (5, 3))  # printed picture of a domino, real size
    drawn = [draw_tile(img, (300, 300), (2, 6)), draw_tile(img, (600, 400), (1, 1))]
    area = PlayArea.rect(50, 120, 850, 580)
    assert_reads(detect(img, area), drawn)
    without = detect(img)
    assert any(t.pips == (5, 3) for t in without.tiles)


def test_white_tiles_on_white_paper() -> None:
    img = background(500, 800, (235, 238, 240))
    drawn = [
        draw_tile(img, (200, 150), (6, 5), face=(240, 242, 244)),
        draw_tile(img, (320, 150), (5, 2), face=(240, 242, 244)),
        draw_tile(img, (550, 320), (1, 3), vertical=True, face=(240, 242, 244)),
    ]
    assert_reads(detect(img), drawn)


def test_wood_grain_table() -> None:
    img = background(500, 800, (60, 100, 150), grain=True)
    drawn = [
        draw_tile(img, (200, 150), (6, 4)),
        draw_tile(img, (500, 300), (2, 3), vertical=True),
        draw_tile(img, (250, 350), (5, 1)),
    ]
    assert_reads(detect(img), drawn)


def test_pale_pips() -> None:
    img = background(400, 700, (60, 110, 40))
    drawn = [
        draw_tile(img, (180, 150), (4, 6), pip=(140, 140, 150)),
        draw_tile(img, (450, 250), (3, 2), pip=(140, 140, 150)),
    ]
    assert_reads(detect(img), drawn)


def test_brass_centre_pin_is_no_pip() -> None:
    img = background(400, 700, (60, 110, 40))
    brass = (40, 120, 170)
    drawn = [
        draw_tile(img, (180, 150), (0, 1), pin=brass),
        draw_tile(img, (450, 250), (2, 2), pin=brass, vertical=True),
    ]
    assert_reads(detect(img), drawn)


def test_small_pips_five_to_eight_pixels() -> None:
    img = background(400, 700, (60, 110, 40))
    drawn = [
        draw_tile(img, (150, 100), (6, 3), width=36, pip_px=6),
        draw_tile(img, (222, 100), (3, 5), width=36, pip_px=6),
        draw_tile(img, (400, 250), (4, 1), width=36, pip_px=7, vertical=True),
    ]
    assert_reads(detect(img), drawn, tol=5)


def test_slight_perspective_and_blur() -> None:
    img = background(600, 900, (60, 110, 40))
    flat = [
        draw_tile(img, (200, 150), (5, 6)),
        draw_tile(img, (320, 150), (6, 2)),
        draw_tile(img, (600, 350), (3, 3), vertical=True),
    ]
    src = np.array([[0, 0], [900, 0], [900, 600], [0, 600]], dtype=np.float32)
    dst = np.array([[10, 6], [885, 0], [900, 600], [0, 590]], dtype=np.float32)
    warp = cv2.getPerspectiveTransform(src, dst)
    img = np.asarray(
        cv2.warpPerspective(img, warp, (900, 600), borderMode=cv2.BORDER_REPLICATE), np.uint8
    )
    img = np.asarray(cv2.GaussianBlur(img, (3, 3), 0.8), np.uint8)

    def moved(p: tuple[float, float]) -> tuple[float, float]:
        q = warp @ np.array([p[0], p[1], 1.0])
        return (float(q[0] / q[2]), float(q[1] / q[2]))

    drawn = [Drawn(d.a, d.b, moved(d.pa), moved(d.pb)) for d in flat]
    assert_reads(detect(img), drawn)


def test_coins_and_printed_patterns_near_tiles() -> None:
    img = background(500, 800, (60, 110, 40))
    drawn = [draw_tile(img, (250, 200), (2, 4)), draw_tile(img, (550, 300), (6, 0))]
    cv2.circle(img, (250, 290), 22, (120, 160, 180), -1)  # a coin beside a tile
    cv2.circle(img, (250, 290), 22, (80, 110, 130), 2)
    for k in range(6):  # a printed pattern: light squares with dark dots and bars
        x = 80 + k * 110
        cv2.rectangle(img, (x, 420), (x + 50, 470), (220, 220, 220), -1)
        cv2.circle(img, (x + 25, 445), 6, (20, 20, 20), -1)
        cv2.line(img, (x + 5, 430), (x + 5, 460), (20, 20, 20), 2)
    assert_reads(detect(img), drawn)


def test_empty_frame_is_an_error() -> None:
    with pytest.raises(FrameError, match="empty"):
        detect(np.zeros((0, 0, 3), np.uint8))
    with pytest.raises(FrameError, match="uint8"):
        detect(np.zeros((10, 10, 3), np.float32))


def test_nothing_on_the_table() -> None:
    det = detect(background(300, 400, (60, 110, 40), grain=True))
    assert det.tiles == ()
    assert det.facedown == 0
    assert det.ms > 0


def test_grey_frame_is_accepted() -> None:
    img = background(400, 600, (60, 60, 60))
    drawn = [draw_tile(img, (300, 200), (3, 5))]
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert_reads(detect(grey), drawn)


def test_detection_as_the_engines_snapshot() -> None:
    img = background(400, 600, (60, 110, 40))
    draw_tile(img, (300, 200), (4, 1))
    draw_tile(img, (300, 330), (0, 0), face_down=True)
    snap = detect(img).snapshot(lambda p: (p[0] / 10.0, p[1] / 10.0), at=5.0)
    assert snap.facedown == 1
    assert snap.at == 5.0
    (seen,) = snap.tiles
    assert (seen.a, seen.b) == (4, 1)
    assert seen.xa == pytest.approx(27.0, abs=0.5)
    assert seen.xb == pytest.approx(33.0, abs=0.5)
    assert seen.ya == pytest.approx(20.0, abs=0.5)
    assert str(seen.tile) in ("4-1", "1-4")


def test_glare_on_a_glossy_table_washes_out_some_pips() -> None:
    img = background(500, 800, (30, 30, 35))
    drawn = [
        draw_tile(img, (250, 200), (5, 2)),
        draw_tile(img, (520, 260), (3, 6), vertical=True),
        draw_tile(img, (250, 380), (1, 0)),
    ]
    glare = np.zeros((500, 800), np.float32)
    cv2.ellipse(glare, (380, 250), (220, 60), -20, 0, 360, 1.0, -1)
    glare = np.asarray(cv2.GaussianBlur(glare, (0, 0), 25), np.float32)
    img = np.clip(img.astype(np.float32) + glare[:, :, None] * 170, 0, 255).astype(np.uint8)
    det = detect(img)
    assert_reads(det, drawn)


def test_wooden_faces_read_by_grey_level() -> None:
    img = background(500, 800, (40, 120, 40))
    face, pip = (90, 150, 210), (30, 45, 70)
    drawn = [
        draw_tile(img, (200, 150), (6, 1), face=face, pip=pip),
        draw_tile(img, (320, 150), (1, 4), face=face, pip=pip),
        draw_tile(img, (550, 320), (5, 3), vertical=True, face=face, pip=pip),
    ]
    assert_reads(detect(img, settings=Settings(tone=Tone.GREY)), drawn)


def test_pips_merged_in_a_row_count_one_by_one() -> None:
    img = background(400, 700, (60, 110, 40))
    # pips 16 px across, 15.6 px apart: each column of a 6 is one blob of 3
    drawn = [
        draw_tile(img, (180, 150), (6, 6), pip_px=16),
        draw_tile(img, (420, 150), (6, 2), pip_px=16),
        draw_tile(img, (300, 300), (4, 5), pip_px=16),
    ]
    det = detect(img)
    assert_reads(det, drawn)
    merged = [t for t in det.tiles if 6 in t.pips]
    assert all(t.confidence < 1.0 for t in merged)  # merged pips are read, not trusted


def test_play_area_given_as_a_plain_rectangle_or_polygon() -> None:
    img = background(400, 700, (60, 110, 40))
    draw_tile(img, (150, 150), (2, 2))
    right = draw_tile(img, (500, 250), (3, 1))
    assert_reads(detect(img, (350, 0, 700, 400)), [right])
    assert_reads(detect(img, [(350, 0), (700, 0), (700, 400), (350, 400)]), [right])


def test_a_layout_no_domino_has_is_read_with_low_confidence() -> None:
    img = background(400, 700, (60, 110, 40))
    draw_tile(img, (200, 150), (1, 0))
    # half b gets the centre and one corner pip of a 3: a lop-sided layout
    cv2.circle(img, (230, 150), 5, (20, 20, 20), -1, cv2.LINE_AA)
    cv2.circle(img, (246, 134), 5, (20, 20, 20), -1, cv2.LINE_AA)
    draw_tile(img, (450, 250), (4, 4))
    det = detect(img)
    by_pips = {t.pips: t for t in det.tiles}
    assert by_pips[(4, 4)].confidence == 1.0
    assert by_pips[(1, 2)].confidence <= 0.5


def test_a_tile_partly_under_a_hand_is_unsure_not_misread() -> None:
    img = background(400, 700, (60, 110, 40))
    drawn = [draw_tile(img, (200, 150), (3, 5))]
    draw_tile(img, (450, 250), (6, 6))
    # a finger over the right half of the 6-6, hiding some of its pips
    cv2.ellipse(img, (500, 290), (22, 60), 10, 0, 360, (120, 150, 200), -1, cv2.LINE_AA)
    det = detect(img)
    assert_reads(det, drawn)
    assert [u.reason for u in det.unsure] == [UnsureReason.COVERED]
    assert det.unsure[0].x == pytest.approx(450, abs=5)
