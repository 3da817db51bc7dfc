"""The mat printed: one PDF page per mat page, at true size (print at 100 %).

Each page: its four markers (drawn module by module, so they print sharp at any
resolution), a title naming the set and the page, every slot's outline with its
tile's name under it, and a 50 mm bar to check the print's scale.
"""

from __future__ import annotations

from typing import Final

from fpdf import FPDF

from mat.layout import MARGIN_MM, MARKER_MM, Mat, MatMarker, Page
from mat.markers import MODULES, modules

__all__ = ["mat_pdf"]

OUTLINE_GREY: Final = 110  # the slots' outlines: plain to people, no tile to the camera
OUTLINE_MM: Final = 0.4
SCALE_BAR_MM: Final = 50.0


def _marker(pdf: FPDF, marker: MatMarker) -> None:
    (x, y), _, (x1, _), _ = marker.corners_mm
    cell = (x1 - x) / MODULES
    pdf.set_fill_color(0)
    for r, row in enumerate(modules(marker.marker_id)):
        c = 0
        while c < MODULES:  # a run of black modules as one rectangle
            if not row[c]:
                c += 1
                continue
            start = c
            while c < MODULES and row[c]:
                c += 1
            pdf.rect(x + start * cell, y + r * cell, (c - start) * cell, cell, style="F")


def _centred(pdf: FPDF, text: str, x: float, y: float, size_pt: float, bold: bool = False) -> None:
    """`text` centred on x, its middle at y (mm)."""
    pdf.set_font("Helvetica", "B" if bold else "", size_pt)
    width = pdf.get_string_width(text)
    pdf.text(x - width / 2, y + size_pt * 0.3528 * 0.35, text)


def _page(pdf: FPDF, mat: Mat, page: Page) -> None:
    pdf.add_page()
    w, h = mat.size_mm
    for marker in page.markers:
        _marker(pdf, marker)
    band = MARGIN_MM + MARKER_MM / 2
    title = f"Enrolment mat: {mat.domino_set} set, page {page.number} of {len(mat.pages)}"
    _centred(pdf, title, w / 2, band - 4, 11, bold=True)
    _centred(pdf, "Lay each tile face up in its slot, either end up.", w / 2, band + 1.5, 8)
    _centred(pdf, "Print at 100 % (actual size).", w / 2, band + 5.5, 8)
    pdf.set_draw_color(OUTLINE_GREY)
    pdf.set_line_width(OUTLINE_MM)
    for slot in page.slots:
        x0, y0, x1, y1 = slot.rect_mm
        pdf.rect(x0, y0, x1 - x0, y1 - y0)
        lx, ly = slot.label_mm
        _centred(pdf, slot.tile.text, lx, ly, 11, bold=True)
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    foot = h - band
    x0 = (w - SCALE_BAR_MM) / 2
    pdf.line(x0, foot, x0 + SCALE_BAR_MM, foot)
    for x in (x0, x0 + SCALE_BAR_MM):
        pdf.line(x, foot - 1.5, x, foot + 1.5)
    _centred(pdf, f"{SCALE_BAR_MM:g} mm", w / 2, foot - 3, 8)
    _centred(pdf, f"domino-table: {mat.domino_set}, {mat.paper}", w / 2, foot + 4, 7)


def mat_pdf(mat: Mat) -> bytes:
    """The mat as PDF bytes, one page per mat page."""
    pdf = FPDF(orientation="P", unit="mm", format=mat.size_mm)
    pdf.set_auto_page_break(auto=False)
    pdf.set_margins(0, 0, 0)
    pdf.set_creator("domino-table")
    pdf.set_title(f"Enrolment mat, {mat.domino_set} set ({mat.paper})")
    for page in mat.pages:
        _page(pdf, mat, page)
    return bytes(pdf.output())
