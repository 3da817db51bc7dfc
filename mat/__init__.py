"""The enrolment mat: printed pages with one outlined, labelled slot per tile of a set.

The players lay each tile of their set in its slot, face up, and show the pages to
the camera (or photograph them). Each page carries four ArUco markers of its own, so
the camera knows which page it sees and where every slot lies on it, in millimetres:
enrolment then needs no tile detection, only a look at each slot (`vision.enrolment`).

`mat_for(set, paper)` is the mat's geometry (`layout`: pages, markers and slots in mm,
and its JSON for `domino-table vision mat --json`); `mat_pdf(mat)` prints it
(`pdf`: the pages as a PDF). The camera reads it; the display offers the PDF for
download; the renderer (`tablesim.render.mat`) draws it filled for tests.
"""

from __future__ import annotations

from mat.layout import (
    FIRST_MARKER_ID,
    PAPERS,
    Mat,
    MatError,
    MatMarker,
    Page,
    Slot,
    mat_for,
)

__all__ = [
    "FIRST_MARKER_ID",
    "PAPERS",
    "Mat",
    "MatError",
    "MatMarker",
    "Page",
    "Slot",
    "mat_for",
]
