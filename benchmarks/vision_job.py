"""Run the detector on a list of photos and report what it read, timed.

Used two ways by `benchmarks.vision_sets`: imported, to read with today's detector in
this process; and as the source of a `python -c` run whose working directory is a
checkout of an earlier commit, to read with the detector as it was there (whatever
detector that directory holds is the one imported). So it needs nothing of ours at
import time: the standard library, NumPy and OpenCV only.

The detector's modules moved when `vision/` was grouped by stage: `LAYOUTS` names
them in each layout, "now" (`vision.detector.detect`, `vision.tiles.dark_marks`) and
"before" (`vision.detect`, `vision.marks`, as at 8d6f5e8); `layout_of` says which
one a checkout holds.

Jobs (JSON on standard input when run as a script): `{"repeats": n, "threads": t,
"layout": "now" | "before", "jobs": [{"path": ..., "area": [x0, y0, x1, y1] or null,
"tone": "light" | "auto"}]}`. One JSON line per job on standard output: `{"path",
"tiles": [[a, b, xa, ya, xb, yb, confidence], ...], "cpu_ms", "wall_ms", "module"}`,
the times the fastest of the
`repeats` runs (CPU time of this process: with OpenCV on one thread, one core's
work, which other load on a shared machine does not inflate).
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

Job = dict[str, Any]

# layout -> (the module of detect() and Settings, the module of Tone)
LAYOUTS = {
    "now": ("vision.detector.detect", "vision.tiles.dark_marks"),
    "before": ("vision.detect", "vision.marks"),
}


def layout_of(tree: Path) -> str:
    """The layout of the checkout in `tree`: "now" once `vision/detector/` exists."""
    return "now" if (tree / "vision" / "detector" / "detect.py").is_file() else "before"


def read_all(jobs: list[Job], repeats: int, layout: str = "now") -> Iterator[dict[str, Any]]:
    """Each job's reading by the detector importable here (its modules named as in
    `layout`), as a JSON-ready dict."""
    detect_name, tone_name = LAYOUTS[layout]
    detect_module = importlib.import_module(detect_name)
    tone_enum = importlib.import_module(tone_name).Tone
    detect, settings = detect_module.detect, detect_module.Settings
    for job in jobs:
        image = cv2.imread(str(job["path"]), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"{job['path']}: not a readable image")
        tone = None if job["tone"] == "auto" else tone_enum(job["tone"])
        area = job.get("area")
        cpu: list[float] = []
        wall: list[float] = []
        det = None
        for _ in range(max(1, int(repeats))):
            start_cpu, start_wall = time.process_time(), time.perf_counter()
            det = detect(np.asarray(image, dtype=np.uint8), area, settings(tone=tone))
            cpu.append((time.process_time() - start_cpu) * 1000.0)
            wall.append((time.perf_counter() - start_wall) * 1000.0)
        assert det is not None
        yield {
            "path": str(job["path"]),
            "tiles": [[t.pips[0], t.pips[1], *t.px[0], *t.px[1], t.confidence] for t in det.tiles],
            "cpu_ms": min(cpu),
            "wall_ms": min(wall),
            "module": detect_module.__file__,
        }


def main() -> int:
    order = json.load(sys.stdin)
    cv2.setNumThreads(int(order.get("threads", 1)))
    jobs = order["jobs"]
    layout = str(order.get("layout", "before"))
    for k, reading in enumerate(read_all(jobs, int(order.get("repeats", 1)), layout), 1):
        print(json.dumps(reading), flush=True)
        print(f"\r  {k}/{len(jobs)} photos (before)", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
