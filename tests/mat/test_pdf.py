"""The mat's PDF, drawn as pixels (PDFium): one page per mat page at the paper's size,
each page's four markers found by OpenCV's ArUco detector where the geometry puts them,
and each slot's outline printed on its rectangle."""

from __future__ import annotations

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest

from engine.tiles import DominoSet
from mat import mat_for
from mat.pdf import mat_pdf

DPI = 150
PX_PER_MM = DPI / 25.4


@pytest.mark.parametrize(
    ("domino_set", "paper"), [(DominoSet.DOUBLE_SIX, "a4"), (DominoSet.DOUBLE_TWELVE, "letter")]
)
def test_the_pdf_prints_the_markers_and_slots_where_the_geometry_says(
    domino_set: DominoSet, paper: str
) -> None:
    mat = mat_for(domino_set, paper)
    doc = pdfium.PdfDocument(mat_pdf(mat))
    assert len(doc) == len(mat.pages)
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
    )
    for number, page in enumerate(mat.pages):
        w_pt, h_pt = doc[number].get_size()
        assert (w_pt / 72 * 25.4, h_pt / 72 * 25.4) == pytest.approx(mat.size_mm, abs=0.1)
        image = doc[number].render(scale=DPI / 72).to_numpy()[:, :, :3].copy()
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        corners, ids, _ = detector.detectMarkers(grey)
        found = {
            int(i): q.reshape(4, 2) / PX_PER_MM for q, i in zip(corners, ids.ravel(), strict=True)
        }
        assert sorted(found) == sorted(page.marker_ids)
        for marker in page.markers:
            assert found[marker.marker_id] == pytest.approx(np.array(marker.corners_mm), abs=0.5)
        for slot in page.slots:
            x0, y0, x1, y1 = (round(v * PX_PER_MM) for v in slot.rect_mm)
            mid_x, mid_y = (x0 + x1) // 2, (y0 + y1) // 2
            # the outline's four sides are ink; inside, the paper is blank
            for x, y in ((mid_x, y0), (mid_x, y1), (x0, mid_y), (x1, mid_y)):
                assert grey[y - 1 : y + 2, x - 1 : x + 2].min() < 160, (slot.tile, x, y)
            assert grey[y0 + 5 : y1 - 5, x0 + 5 : x1 - 5].min() > 240
