"""Run the detector on a list of photos and report what it read, timed.

Used two ways by `benchmarks.vision_sets`: imported, to read with today's detector in
this process; and as the source of a `python -c` run whose working directory is a
checkout of an earlier commit, to read with the detector as it was there (whatever
`vision.detect` that directory holds is the one imported). So it needs nothing of
ours at import time: the standard library, NumPy and OpenCV only.

Jobs (JSON on standard input when run as a script): `{"repeats": n, "threads": t,
"jobs": [{"path": ..., "area": [x0, y0, x1, y1] or null, "tone": "light" | "auto"}]}`.
One JSON line per job on standard output: `{"path", "tiles": [[a, b, xa, ya, xb, yb,
confidence], ...], "cpu_ms", "wall_ms", "module"}`, the times the fastest of the
`repeats` runs (CPU time of this process: with OpenCV on one thread, one core's
work, which other load on a shared machine does not inflate).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np

Job = dict[str, Any]


def read_all(jobs: list[Job], repeats: int) -> Iterator[dict[str, Any]]:
    """Each job's reading by the `vision.detect` importable here, as a JSON-ready dict."""
    import vision.detect as detect_module
    from vision.marks import Tone

    detect, settings = detect_module.detect, detect_module.Settings
    for job in jobs:
        image = cv2.imread(str(job["path"]), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"{job['path']}: not a readable image")
        tone = None if job["tone"] == "auto" else Tone(job["tone"])
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
    for k, reading in enumerate(read_all(jobs, int(order.get("repeats", 1))), 1):
        print(json.dumps(reading), flush=True)
        print(f"\r  {k}/{len(jobs)} photos (before)", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
