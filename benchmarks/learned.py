"""The learned veto on the labelled photos: the detector alone, and its tiles the net
does not reject, per source.

    .venv/bin/python -m benchmarks.learned [--source S ...] [--limit N] [--ddd-a]
                                           [--threshold T ...] [--errors] [--before REV]

Reads every `certain`, `overhead` photo of `../shared/data/vision/diverse-dev/` (at run
time; never copied) as `benchmarks.vision_sets` does (whole, tone auto, scored as
multisets of tiles), with `--ddd-a` the ddd-a photos too (inside the grid, tone light,
scored by the grid's cells). Each photo is read once by `vision.detector.detect` with
the veto off; then the net scores each tile found (`vision.learned.tile_scores`) and
each `--threshold` drops the tiles scored below it. Per source it prints recall,
precision, photos exact and CPU ms per photo (one OpenCV thread; the detector alone,
and the detector with the net), for the detector alone and at each threshold; with
`--errors`, every tile a threshold drops (its score, and whether it was a tile the
photo holds). The net never saw a photo: every source is held out from its training.

`--before REV` reads the photos with the detector of commit `REV` instead (run in a
subprocess on its own checkout, as `benchmarks.vision --before` does), e.g. 0384338,
before the hand-tuned fixes of issue 26, whose false tiles in textures the veto is
meant to drop.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np

from benchmarks.vision_sets import (
    Counts,
    Photo,
    Reading,
    SetsError,
    ddd_a_photos,
    diverse_photos,
    read_before,
)
from vision.detector.detect import FoundTile, Settings, detect
from vision.learned import tile_scores
from vision.tiles.dark_marks import Tone

THRESHOLDS: Final = (0.05, 0.1, 0.2, 0.3, 0.5)


@dataclass(frozen=True, slots=True)
class Look:
    """One photo read by the detector, the net's score of each tile, and the times."""

    photo: Photo
    tiles: tuple[FoundTile, ...]
    scores: tuple[float, ...]
    detector_ms: float
    net_ms: float

    def kept(self, threshold: float) -> tuple[FoundTile, ...]:
        """The tiles the net scores at least `threshold` (0: every tile)."""
        return tuple(t for t, s in zip(self.tiles, self.scores, strict=True) if s >= threshold)


def _image(photo: Photo) -> np.ndarray:
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    if image is None:
        raise SetsError(f"{photo.path}: not a readable image")
    return np.asarray(image, dtype=np.uint8)


def _scored(photo: Photo, frame: np.ndarray, tiles: tuple[FoundTile, ...], ms: float) -> Look:
    start = time.process_time()
    scores = tile_scores(frame, [t.px for t in tiles])
    spent = (time.process_time() - start) * 1e3
    return Look(photo, tiles, tuple(float(s) for s in scores), ms, spent)


def read(photo: Photo) -> Look:
    """One photo read by the detector (veto off) and its tiles scored by the net."""
    frame = _image(photo)
    tone = None if photo.tone == "auto" else Tone(photo.tone)
    start = time.process_time()
    det = detect(frame, photo.area, replace(Settings(tone=tone), veto=0.0))
    return _scored(photo, frame, det.tiles, (time.process_time() - start) * 1e3)


def read_earlier(photos: list[Photo], rev: str) -> list[Look]:
    """The photos read by the detector of commit `rev`, its tiles scored by the net."""
    readings: list[Reading] = read_before(photos, 1, rev)
    return [_scored(p, _image(p), r.tiles, r.cpu_ms) for p, r in zip(photos, readings, strict=True)]


def _row(name: str, counts: list[Counts], ms: list[float]) -> str:
    labelled = sum(c.labelled for c in counts)
    reported = sum(c.reported for c in counts)
    right = sum(c.right for c in counts)
    exact = sum(c.exact for c in counts)
    return (
        f"{name:<28}{len(counts):>4}{labelled:>6}{right / max(1, labelled):>9.1%}"
        f"{right / max(1, reported):>10.1%}{exact:>5}/{len(counts):<4}"
        f"{statistics.median(ms):>9.1f}{max(ms):>9.1f}"
    )


def report(looks: list[Look], thresholds: list[float]) -> list[str]:
    """The table: per source, the detector alone and at each threshold."""
    sources = sorted({lk.photo.source for lk in looks})
    lines = [f"{'source / reading':<28}{'n':>4}{'tiles':>6}{'recall':>9}{'precision':>10}"
             f"{'exact':>10}{'ms med':>9}{'max':>9}"]  # fmt: skip
    for source in [*sources, "diverse-dev"]:
        chosen = [
            lk for lk in looks if lk.photo.source == source
            or (source == "diverse-dev" and not lk.photo.source.startswith("ddd-a"))
        ]  # fmt: skip
        if not chosen:
            continue
        counts = [lk.photo.score(lk.tiles)[0] for lk in chosen]
        lines.append(_row(f"{source} / detector", counts, [lk.detector_ms for lk in chosen]))
        for t in thresholds:
            counts = [lk.photo.score(lk.kept(t))[0] for lk in chosen]
            ms = [lk.detector_ms + lk.net_ms for lk in chosen]
            lines.append(_row(f"{source} / veto {t}", counts, ms))
    return lines


def dropped(look: Look, threshold: float) -> list[str]:
    """Each tile `threshold` drops on one photo: its score, and whether dropping it lost a
    tile the photo holds (`lost`) or an extra one (`extra`)."""
    out = []
    for tile, score in zip(look.tiles, look.scores, strict=True):
        if score >= threshold:
            continue
        rest = tuple(t for t in look.tiles if t is not tile)
        lost = look.photo.score(rest)[0].right < look.photo.score(look.tiles)[0].right
        out.append(f"{tile} {score:.3f} {'lost' if lost else 'extra'}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", action="append", help="only this source (repeatable)")
    parser.add_argument("--limit", type=int, default=0, help="at most N photos per source")
    parser.add_argument("--threshold", type=float, action="append", help="(repeatable)")
    parser.add_argument("--ddd-a", action="store_true", help="read ddd-a's photos too")
    parser.add_argument("--errors", action="store_true", help="list the tiles each drops")
    parser.add_argument("--before", metavar="REV", help="the detector of an earlier commit")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    thresholds = args.threshold or list(THRESHOLDS)
    try:
        photos = (ddd_a_photos(tone="light") if args.ddd_a else []) + diverse_photos()
    except SetsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.source:
        photos = [p for p in photos if any(p.source.startswith(s) for s in args.source)]
    if args.limit > 0:
        taken: Counter[str] = Counter()
        kept: list[Photo] = []
        for p in photos:
            if taken[p.source] < args.limit:
                kept.append(p)
                taken[p.source] += 1
        photos = kept
    looks = []
    try:
        if args.before:
            looks = read_earlier(photos, args.before)
        for k, photo in enumerate(photos if not args.before else [], 1):
            looks.append(read(photo))
            print(f"\r  {k}/{len(photos)} photos", end="", file=sys.stderr, flush=True)
    except SetsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(file=sys.stderr)
    for line in report(looks, thresholds):
        print(line)
    if args.errors:
        for lk in looks:
            for line in dropped(lk, max(thresholds)):
                print(f"{lk.photo.source:<8}{lk.photo.path.name} drops {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
