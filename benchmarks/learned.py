"""The learned part on the labelled photos, alone and with the detector, per source.

    .venv/bin/python -m benchmarks.learned [--source S ...] [--limit N] [--threshold T]
                                           [--ddd-a] [--holdout] [--errors]

Reads every `certain`, `overhead` photo of `../shared/data/vision/diverse-dev/` (at run
time; never copied) as `benchmarks.vision_sets` does (whole, tone auto, scored as
multisets of tiles), with `--ddd-a` the ddd-a photos too (inside the grid, tone light,
scored by the grid's cells), and prints per source, for each way of reading:

- `detector`: `vision.detector.detect` alone;
- `learned`: `vision.learned.read_tiles` alone (the net's marks, tiles by geometry);
- `checked`: the detector's tiles the net agrees are tiles (`Evidence.score` of at
  least `--threshold`: tile material over the rectangle and a divider across it);
- `checked+learned`: those, and the learned part's tiles where the detector kept none.

Recall, precision, photos exact, and CPU ms per photo (one OpenCV thread; the learned
part's own time for `learned`, the detector's plus the net's for the others). The net
never saw a photo: every source is held out from its training. `--threshold` was
chosen on renders; `--holdout` instead picks, for each source, the threshold that
reads the other sources best and reports that source at it (what tuning on photos
would give a source nobody looked at).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from benchmarks.vision_sets import Counts, Photo, SetsError, ddd_a_photos, diverse_photos
from vision.detector.detect import FoundTile, Settings, detect
from vision.learned import Masks, pixel_masks, read_masks
from vision.tiles.dark_marks import Tone

MODES: Final = ("detector", "learned", "checked", "checked+learned")
THRESHOLD: Final = 0.5
GRID: Final = tuple(round(0.1 * k, 1) for k in range(1, 10))


@dataclass(frozen=True, slots=True)
class Look:
    """One photo read by the detector and by the net, with the times."""

    photo: Photo
    detected: tuple[FoundTile, ...]
    scores: tuple[float, ...]  # the net's score of each detected tile
    learned: tuple[FoundTile, ...]
    detector_ms: float
    learned_ms: float


def _near(tile: FoundTile, others: tuple[FoundTile, ...]) -> bool:
    (xa, ya), (xb, yb) = tile.px
    cx, cy, w = (xa + xb) / 2, (ya + yb) / 2, float(np.hypot(xb - xa, yb - ya))
    for o in others:
        (oa, ob), (pa, pb) = o.px
        if np.hypot((oa + pa) / 2 - cx, (ob + pb) / 2 - cy) < 0.6 * w:
            return True
    return False


def tiles_of(look: Look, mode: str, threshold: float) -> tuple[FoundTile, ...]:
    """What `mode` reports on one photo."""
    if mode == "detector":
        return look.detected
    if mode == "learned":
        return look.learned
    checked = tuple(t for t, s in zip(look.detected, look.scores, strict=True) if s >= threshold)
    if mode == "checked":
        return checked
    return checked + tuple(t for t in look.learned if not _near(t, checked))


def read(photo: Photo) -> Look:
    """One photo read both ways."""
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    if image is None:
        raise SetsError(f"{photo.path}: not a readable image")
    frame = np.asarray(image, dtype=np.uint8)
    tone = None if photo.tone == "auto" else Tone(photo.tone)
    start = time.process_time()
    det = detect(frame, photo.area, Settings(tone=tone))
    mid = time.process_time()
    masks: Masks = pixel_masks(_crop(frame, photo.area))
    learned = _shifted(read_masks(masks), photo.area)
    end = time.process_time()
    scores = tuple(
        float(s) for s in masks.tile_scores([_local(t.px, photo.area) for t in det.tiles])
    )
    return Look(photo, det.tiles, scores, learned, (mid - start) * 1e3, (end - mid) * 1e3)


def _crop(frame: np.ndarray, area: tuple[float, float, float, float] | None) -> np.ndarray:
    if area is None:
        return frame
    x0, y0, x1, y1 = (int(v) for v in area)
    return np.ascontiguousarray(frame[y0:y1, x0:x1])


def _local(
    px: tuple[tuple[float, float], tuple[float, float]],
    area: tuple[float, float, float, float] | None,
) -> tuple[tuple[float, float], tuple[float, float]]:
    if area is None:
        return px
    x0, y0 = int(area[0]), int(area[1])
    (xa, ya), (xb, yb) = px
    return ((xa - x0, ya - y0), (xb - x0, yb - y0))


def _shifted(
    tiles: tuple[FoundTile, ...], area: tuple[float, float, float, float] | None
) -> tuple[FoundTile, ...]:
    if area is None:
        return tiles
    x0, y0 = int(area[0]), int(area[1])
    return tuple(
        FoundTile(
            t.pips,
            ((t.px[0][0] + x0, t.px[0][1] + y0), (t.px[1][0] + x0, t.px[1][1] + y0)),
            t.confidence,
        )
        for t in tiles
    )


def _ms(look: Look, mode: str) -> float:
    if mode == "detector":
        return look.detector_ms
    if mode == "learned":
        return look.learned_ms
    return look.detector_ms + look.learned_ms


def _row(name: str, counts: list[Counts], ms: list[float]) -> str:
    labelled = sum(c.labelled for c in counts)
    reported = sum(c.reported for c in counts)
    right = sum(c.right for c in counts)
    exact = sum(c.exact for c in counts)
    return (
        f"{name:<30}{len(counts):>4}{labelled:>6}{right / max(1, labelled):>9.1%}"
        f"{right / max(1, reported):>10.1%}{exact:>5}/{len(counts):<4}"
        f"{statistics.median(ms):>9.1f}{max(ms):>9.1f}"
    )


def report(looks: list[Look], threshold: float | Callable[[str], float]) -> list[str]:
    """The table: per source, per mode."""
    pick = threshold if callable(threshold) else (lambda _source: threshold)
    sources = sorted({lk.photo.source for lk in looks})
    lines = [f"{'source / mode':<30}{'n':>4}{'tiles':>6}{'recall':>9}{'precision':>10}"
             f"{'exact':>10}{'ms med':>9}{'max':>9}"]  # fmt: skip
    for source in [*sources, "diverse-dev"]:
        chosen = [
            lk for lk in looks if lk.photo.source == source
            or (source == "diverse-dev" and not lk.photo.source.startswith("ddd-a"))
        ]  # fmt: skip
        if not chosen:
            continue
        for mode in MODES:
            counts = [lk.photo.score(tiles_of(lk, mode, pick(lk.photo.source)))[0] for lk in chosen]
            lines.append(_row(f"{source} / {mode}", counts, [_ms(lk, mode) for lk in chosen]))
    return lines


def _f1(looks: list[Look], threshold: float) -> float:
    counts = [lk.photo.score(tiles_of(lk, "checked", threshold))[0] for lk in looks]
    right = sum(c.right for c in counts)
    labelled, reported = sum(c.labelled for c in counts), sum(c.reported for c in counts)
    return 2 * right / max(1, labelled + reported)


def holdout(looks: list[Look]) -> Callable[[str], float]:
    """For each source, the threshold that reads the other sources best."""
    chosen: dict[str, float] = {}
    for source in {lk.photo.source for lk in looks}:
        others = [lk for lk in looks if lk.photo.source != source]
        chosen[source] = max(GRID, key=lambda t: _f1(others, t)) if others else THRESHOLD
        print(f"held out {source}: threshold {chosen[source]} from the other sources")
    return lambda source: chosen[source]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", action="append", help="only this source (repeatable)")
    parser.add_argument("--limit", type=int, default=0, help="at most N photos per source")
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--ddd-a", action="store_true", help="read ddd-a's photos too")
    parser.add_argument("--holdout", action="store_true", help="thresholds from other sources")
    parser.add_argument("--errors", action="store_true", help="list each photo's errors")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        photos = (ddd_a_photos(tone="light") if args.ddd_a else []) + diverse_photos()
    except SetsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.source:
        photos = [p for p in photos if any(p.source.startswith(s) for s in args.source)]
    if args.limit > 0:
        kept: list[Photo] = []
        for p in photos:
            if sum(q.source == p.source for q in kept) < args.limit:
                kept.append(p)
        photos = kept
    looks = []
    for k, photo in enumerate(photos, 1):
        looks.append(read(photo))
        print(f"\r  {k}/{len(photos)} photos", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    threshold: float | Callable[[str], float] = holdout(looks) if args.holdout else args.threshold
    for line in report(looks, threshold):
        print(line)
    if args.errors:
        pick = threshold if callable(threshold) else (lambda _s: args.threshold)
        for lk in looks:
            for mode in ("learned", "checked+learned"):
                counts, errors = lk.photo.score(tiles_of(lk, mode, pick(lk.photo.source)))
                if not counts.exact:
                    print(f"{lk.photo.source:<8}{lk.photo.path.name} {mode}: {', '.join(errors)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
