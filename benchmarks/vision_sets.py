"""The detector on every labelled set, per source, beside the detector as it was.

    .venv/bin/python -m benchmarks.vision [--before REV|none] [--repeats 3] [--errors]

Sets, read from `../shared/data/vision/` at run time (never copied):

- `ddd-a`: 60 photos of one ivory set on a printed board, scored by the cells of the
  board's grid (`vision.detector.accuracy`): a tile counts when it is read right in the right
  cells. Read with the play area (the grid's outline), once with tone=light (the
  service's default) and once with tone=auto (the command line's).
- `diverse-dev`: real photos of other sets from several sources; the `certain`,
  `overhead` ones are scored. Its labels list each photo's face-up tiles without
  places, so a photo's reading is scored as a multiset: a tile read counts when the
  photo holds such a tile not yet counted. Read whole (no play area), tone=auto.

For each source: tile recall (tiles counted / labelled), precision (tiles counted /
tiles reported), photos read exactly (every tile, nothing more), and CPU ms per
photo (median, max; each photo the fastest of `--repeats` runs, OpenCV on one thread).

"Before" is the detector of an earlier commit (by default `BEFORE`, the commit issue
13's work started from): that commit's tracked files are extracted by `git archive`
into a temporary folder, and `benchmarks/vision_job.py` runs there in a subprocess,
importing that folder's `vision`; both detectors read the same photos in the same
run, so the machine's load weighs on both alike.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2

from benchmarks import vision_job
from vision.detector.accuracy import Grid, read_labels, score_photo
from vision.detector.detect import Detection, FoundTile

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "vision"
DDD_A = DATA / "ddd-a"
DIVERSE = DATA / "diverse-dev"
BEFORE = "8d6f5e8b40a99c0c391b7d93f07552bf33739a1f"  # where issue 13's work started


class SetsError(RuntimeError):
    """A labelled set or the earlier commit cannot be read."""


@dataclass(frozen=True, slots=True)
class Counts:
    """How one photo went."""

    labelled: int
    reported: int
    right: int

    @property
    def exact(self) -> bool:
        return self.right == self.labelled == self.reported


@dataclass(frozen=True, slots=True)
class Reading:
    """What one detector read on one photo, and how long it took."""

    tiles: tuple[FoundTile, ...]
    cpu_ms: float
    wall_ms: float


Scorer = Callable[[tuple[FoundTile, ...]], tuple[Counts, list[str]]]


@dataclass(frozen=True, slots=True)
class Photo:
    """One labelled photo, how it is read and how its reading is scored."""

    source: str
    path: Path
    area: tuple[float, float, float, float] | None
    tone: str  # "light" or "auto"
    score: Scorer

    def job(self) -> dict[str, Any]:
        return {"path": str(self.path), "area": self.area, "tone": self.tone}


def ddd_a_photos(folder: Path = DDD_A, tone: str = "light") -> list[Photo]:
    """The ddd-a photos, read inside the grid's outline and scored by its cells."""
    labels = read_labels(folder)
    grid = Grid()
    area = (grid.x0, grid.y0, grid.x1, grid.y1)

    def scorer(name: str) -> Scorer:
        def score(tiles: tuple[FoundTile, ...]) -> tuple[Counts, list[str]]:
            s = score_photo(name, Detection(tiles), labels[name], grid)
            return Counts(s.labelled, s.detected, s.tiles_right), list(s.errors)

        return score

    source = f"ddd-a ({tone})"
    return [
        Photo(source, folder / "images" / name, area, tone, scorer(name)) for name in sorted(labels)
    ]


def multiset_score(want: list[tuple[int, int]]) -> Scorer:
    """Scores a reading against a photo's tiles as multisets (no places known)."""
    wanted = Counter(tuple(sorted(t)) for t in want)

    def score(tiles: tuple[FoundTile, ...]) -> tuple[Counts, list[str]]:
        got = Counter(tuple(sorted(t.pips)) for t in tiles)
        right = sum((wanted & got).values())
        errors = [f"missed {a}-{b}" for (a, b), n in (wanted - got).items() for _ in range(n)]
        errors += [f"extra {a}-{b}" for (a, b), n in (got - wanted).items() for _ in range(n)]
        return Counts(sum(wanted.values()), sum(got.values()), right), errors

    return score


def diverse_photos(folder: Path = DIVERSE) -> list[Photo]:
    """The `certain`, `overhead` photos of diverse-dev, by source, read whole with tone=auto."""
    path = folder / "labels.json"
    if not path.is_file():
        raise SetsError(f"{path} is missing: see {folder / 'README.md'}")
    images: dict[str, dict[str, Any]] = json.loads(path.read_text())["images"]
    out = []
    for name, entry in sorted(images.items()):
        if entry["certain"] and entry["view"] == "overhead":
            want = [(int(a), int(b)) for a, b in entry["tiles"]]
            out.append(
                Photo(entry["source"], folder / "images" / name, None, "auto", multiset_score(want))
            )
    return out


def _to_reading(line: dict[str, Any]) -> Reading:
    tiles = tuple(
        FoundTile((int(a), int(b)), ((xa, ya), (xb, yb)), float(c))
        for a, b, xa, ya, xb, yb, c in line["tiles"]
    )
    return Reading(tiles, float(line["cpu_ms"]), float(line["wall_ms"]))


def read_now(photos: list[Photo], repeats: int) -> Iterator[Reading]:
    """Today's detector, in this process."""
    for k, line in enumerate(vision_job.read_all([p.job() for p in photos], repeats, "now"), 1):
        print(f"\r  {k}/{len(photos)} photos (now)", end="", file=sys.stderr, flush=True)
        yield _to_reading(line)
    print(file=sys.stderr)


@contextmanager
def checkout(rev: str) -> Iterator[Path]:
    """The tracked files of commit `rev`, in a temporary folder."""
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", rev],
            capture_output=True,
            check=False,
        )
    except FileNotFoundError as exc:
        raise SetsError(
            f"git is needed to take out commit {rev} for the earlier detector's figures "
            f"({exc.strerror}): install git, or give --before none"
        ) from exc
    if done.returncode != 0:
        raise SetsError(
            f"git archive {rev}: {done.stderr.decode().strip()} "
            "(give --before an existing commit, or --before none)"
        )
    with tempfile.TemporaryDirectory(prefix="vision-before-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(tmp, filter="data")
            else:  # Python before 3.11.4 (Debian 12 and Raspberry Pi OS have 3.11.2)
                tar.extractall(tmp)  # our own commit's files, from git archive
        yield Path(tmp)


def read_before(photos: list[Photo], repeats: int, rev: str) -> list[Reading]:
    """The detector of commit `rev`, run in a subprocess on its own checkout."""
    jobs = [p.job() for p in photos]
    source = Path(vision_job.__file__).read_text()
    with checkout(rev) as tree:
        layout = vision_job.layout_of(tree)
        order = json.dumps({"repeats": repeats, "threads": 1, "layout": layout, "jobs": jobs})
        done = subprocess.run(
            [sys.executable, "-c", source],
            cwd=tree,
            input=order,
            stdout=subprocess.PIPE,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SetsError(f"the detector of {rev[:12]} failed (exit {done.returncode})")
        lines = [json.loads(x) for x in done.stdout.splitlines() if x.strip()]
        strays = [x["module"] for x in lines if not x["module"].startswith(str(tree))]
        if strays:
            raise SetsError(f"the run of {rev[:12]} imported {strays[0]}, not its own vision")
    return [_to_reading(x) for x in lines]


@dataclass(frozen=True, slots=True)
class Row:
    """One source's figures for one detector."""

    photos: int
    tiles: int
    recall: float
    precision: float
    exact: int
    ms_median: float
    ms_max: float


def summarise(counts: list[Counts], readings: list[Reading]) -> Row:
    labelled = sum(c.labelled for c in counts)
    reported = sum(c.reported for c in counts)
    right = sum(c.right for c in counts)
    ms = [r.cpu_ms for r in readings] or [0.0]
    return Row(
        len(counts),
        labelled,
        right / max(labelled, 1),
        right / max(reported, 1),
        sum(c.exact for c in counts),
        statistics.median(ms),
        max(ms),
    )


def rows(photos: list[Photo], readings: list[Reading]) -> dict[str, Row]:
    """Figures per source, then for diverse-dev as a whole."""
    counts = [p.score(r.tiles)[0] for p, r in zip(photos, readings, strict=True)]
    by: dict[str, tuple[list[Counts], list[Reading]]] = {}
    whole: tuple[list[Counts], list[Reading]] = ([], [])
    for p, c, r in zip(photos, counts, readings, strict=True):
        by.setdefault(p.source, ([], []))[0].append(c)
        by[p.source][1].append(r)
        if not p.source.startswith("ddd-a"):
            whole[0].append(c)
            whole[1].append(r)
    if whole[0]:
        by["diverse-dev"] = whole
    return {name: summarise(c, r) for name, (c, r) in by.items()}


def table(now: dict[str, Row], before: dict[str, Row] | None) -> list[str]:
    """The per-source table: each figure before and now (or now alone)."""

    def pair(b: str, n: str) -> str:
        return f"{b:>7} {n:>7}" if before is not None else f"{n:>7}"

    head = f"{'source':<14}{'photos':>7}{'tiles':>6}"
    cols = ("recall", "precision", "exact", "CPU ms med", "CPU ms max")
    width = 16 if before is not None else 8
    lines = [head + "".join(f"{c:>{width}}" for c in cols)]
    if before is not None:
        lines.append(" " * len(head) + "  before     now" * len(cols))
    for name, n in now.items():
        b = before.get(name, n) if before is not None else n
        line = f"{name:<14}{n.photos:>7}{n.tiles:>6}"
        line += pair(f"{b.recall:.1%}", f"{n.recall:.1%}") + " "
        line += pair(f"{b.precision:.1%}", f"{n.precision:.1%}") + " "
        line += pair(f"{b.exact}/{b.photos}", f"{n.exact}/{n.photos}") + " "
        line += pair(f"{b.ms_median:.1f}", f"{n.ms_median:.1f}") + " "
        line += pair(f"{b.ms_max:.1f}", f"{n.ms_max:.1f}")
        lines.append(line)
    return lines


def chosen_photos(sources: list[str] | None, limit: int) -> list[Photo]:
    """Every labelled photo (of `sources`, when given; the first `limit` per source)."""
    photos = ddd_a_photos(tone="light") + ddd_a_photos(tone="auto") + diverse_photos()
    if sources:
        photos = [p for p in photos if any(p.source.startswith(s) for s in sources)]
    if limit > 0:
        taken: Counter[str] = Counter()
        kept = []
        for p in photos:
            if taken[p.source] < limit:
                kept.append(p)
                taken[p.source] += 1
        photos = kept
    return photos


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--before", default=BEFORE, help="commit of the detector to compare with, or 'none'"
    )
    parser.add_argument("--repeats", type=int, default=3, help="time each photo as the best of N")
    parser.add_argument("--source", action="append", help="only this source (repeatable)")
    parser.add_argument("--limit", type=int, default=0, help="at most N photos per source")
    parser.add_argument("--errors", action="store_true", help="list every photo not read exactly")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        photos = chosen_photos(args.source, args.limit)
        now_readings = list(read_now(photos, args.repeats))
        before_readings = (
            None if args.before == "none" else read_before(photos, args.repeats, args.before)
        )
    except (SetsError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"labelled sets in {DATA} (CPU time, best of {args.repeats} runs per photo, one thread)")
    if before_readings is not None:
        print(f"before: the detector of commit {args.before[:12]}; now: this checkout's")
    before = None if before_readings is None else rows(photos, before_readings)
    for line in table(rows(photos, now_readings), before):
        print(line)
    if args.errors:
        for p, r in zip(photos, now_readings, strict=True):
            counts, errors = p.score(r.tiles)
            if not counts.exact:
                print(f"{p.source:<14}{p.path.name}: {', '.join(errors)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
