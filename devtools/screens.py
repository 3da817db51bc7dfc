"""The docs' pictures of our own pages, from the browser tests' screenshots.

    python -m devtools.screens

The browser tests (`tests/display`, `tests/tournament`) drive Chromium through the
display, the Camera page and the desk's pages and save what they show in
`test-output/screenshots/`. This copies the ones the docs show into
`docs/figures/screens/`: run the tests (`./run test`, or those files alone), then this,
then commit the pictures. `tests/docs/test_figures.py` checks that every picture there is
one a test takes, so none is made by hand.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TAKEN = ROOT / "test-output" / "screenshots"
SHOWN = ROOT / "docs" / "figures" / "screens"
# What the docs show: the display in play and with an alert, the Camera page as it should
# look and with a warning, the director's page, the History page (in play, in the sun on a
# phone, a camera game).
NAMES = (
    "800x480-play",
    "800x480-alert",
    "camera-800x480-ok",
    "camera-800x480-glare",
    "tournament-director",
    "history-800x480",
    "history-390x844-sun-es",
    "history-800x480-camera-game",
)


def main() -> int:
    missing = [n for n in NAMES if not (TAKEN / f"{n}.png").exists()]
    if missing:
        print(
            f"not in {TAKEN.relative_to(ROOT)}: {', '.join(missing)}; run the browser tests first"
        )
        return 1
    SHOWN.mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        shutil.copyfile(TAKEN / f"{name}.png", SHOWN / f"{name}.png")
        print(f"docs/figures/screens/{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
