"""Real photos read zero-shot and with a set model from another photo of the same source.

    nice -n 10 .venv/bin/python -m benchmarks.set_model_photos [--source S]... [--errors]

The labelled photos of `../shared/data/vision/` (read at run time, never copied), as
`benchmarks.vision_sets` scores them: ddd-a by its grid's cells (tone light, in the
grid's outline), diverse-dev's certain overhead photos as multisets (whole, tone
auto). For each photo P of a source, the set model is made from ANOTHER photo Q of
the same source (the one with the most labelled tiles; P itself never): Q is read
zero-shot and the tiles it read that its labels hold give the model's halves at
their numbers (`vision.set_model.halves`). P is then read zero-shot and with that
model: each half read as the camera path reads it with a set enrolled
(`vision.set_model.reader.SetReader`: the detector's count, the set's own pip count and
the nearest of Q's halves, two of which must agree; a number Q showed none of is left
to the other two). Q's faces' colour is not used (no tiles are looked for beyond the
detector's: a photo's table is not calibrated). Nothing is trained or tuned on the
photos: the reader's thresholds were set on rendered frames.

Printed per source: photos, labelled tiles, recall and precision zero-shot and with
the model, photos read exactly, and the halves the models held (median).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from benchmarks.vision_sets import Counts, Photo, SetsError, ddd_a_photos, diverse_photos
from vision.detector.detect import Detection, FoundTile, Settings, detect
from vision.detector.play_area import PlayArea
from vision.set_model.halves import HalfMatcher, crop_half
from vision.set_model.reader import SetReader
from vision.tiles.dark_marks import Tone

LARGEST_SET = 18  # a photo's set is not known: numbers up to a double-eighteen's


@dataclass(frozen=True, slots=True)
class Read:
    image: NDArray[np.uint8]
    detection: Detection


def _read(photo: Photo) -> Read:
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    if image is None:
        raise SetsError(f"{photo.path}: not a readable image")
    area = None if photo.area is None else PlayArea.of(photo.area)
    tone = None if photo.tone == "auto" else Tone(photo.tone)
    return Read(np.asarray(image, dtype=np.uint8), detect(image, area, Settings(tone=tone)))


def _model_halves(q: Photo, read: Read) -> list[tuple[int, NDArray[np.uint8]]]:
    """Q's halves at their numbers: the tiles Q was read with that its labels hold."""
    counts, _ = q.score(read.detection.tiles)
    right: list[FoundTile] = []
    if counts.right == counts.reported:
        right = list(read.detection.tiles)
    else:  # keep, in order, the tiles each of which raises the count of right ones
        for t in read.detection.tiles:
            trial = (*right, t)
            if q.score(trial)[0].right > q.score(tuple(right))[0].right:
                right.append(t)
    out = []
    for t in right:
        out.append((t.pips[0], crop_half(read.image, t.px[0], t.px[1])))
        out.append((t.pips[1], crop_half(read.image, t.px[1], t.px[0])))
    return out


def _labelled(p: Photo) -> int:
    return p.score(())[0].labelled


@dataclass
class Row:
    photos: int = 0
    zero: Counter[str] | None = None
    model: Counter[str] | None = None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", action="append", help="only this source (repeatable)")
    parser.add_argument("--errors", action="store_true", help="list every photo that changed")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        photos = ddd_a_photos(tone="light") + diverse_photos()
    except (SetsError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    by: dict[str, list[Photo]] = {}
    for p in photos:
        if not args.source or any(p.source.startswith(s) for s in args.source):
            by.setdefault(p.source, []).append(p)
    print(
        "source          photos tiles  recall: zero-shot  model   precision: zero-shot  model"
        "   exact: zero-shot  model   halves"
    )
    for source, mine in by.items():
        if len(mine) < 2:
            print(f"{source:<16}{len(mine):>6}  (one photo: no other photo to enrol from)")
            continue
        reads: dict[str, Read] = {}
        for k, p in enumerate(mine, 1):
            print(f"\r  {source}: {k}/{len(mine)}", end="", file=sys.stderr, flush=True)
            reads[p.path.name] = _read(p)
        print(file=sys.stderr)
        ranked = sorted(mine, key=lambda p: (-_labelled(p), p.path.name))
        zero: list[Counts] = []
        model: list[Counts] = []
        halves: list[int] = []
        for p in mine:
            q = next(x for x in ranked if x is not p)
            pairs = _model_halves(q, reads[q.path.name])
            halves.append(len(pairs))
            got = reads[p.path.name]
            z = p.score(got.detection.tiles)
            tiles = got.detection.tiles
            if pairs:
                reader = SetReader(HalfMatcher(pairs), pairs, LARGEST_SET, complete=False)
                tiles = reader.read(got.image, tiles, got.detection.unsure, 0.0).tiles
            m = p.score(tiles)
            zero.append(z[0])
            model.append(m[0])
            if args.errors and z[0] != m[0]:
                print(f"  {p.path.name} (model from {q.path.name}): {z[1]} -> {m[1]}")
        line = _line(source, zero, model, int(statistics.median(halves)))
        print(line, flush=True)
    return 0


def _line(source: str, zero: list[Counts], model: list[Counts], halves: int) -> str:
    def figures(cs: list[Counts]) -> tuple[float, float, int]:
        labelled = sum(c.labelled for c in cs)
        reported = sum(c.reported for c in cs)
        right = sum(c.right for c in cs)
        return right / max(labelled, 1), right / max(reported, 1), sum(c.exact for c in cs)

    zr, zp, ze = figures(zero)
    mr, mp, me = figures(model)
    tiles = sum(c.labelled for c in zero)
    return (
        f"{source:<16}{len(zero):>6}{tiles:>6}{zr:>19.1%}{mr:>7.1%}{zp:>22.1%}{mp:>7.1%}"
        f"{ze:>15}/{len(zero):<3}{me:>3}/{len(zero):<4}{halves:>6}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
