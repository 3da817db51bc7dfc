"""The mat's geometry: every tile of the set once, on pages that hold them, each page's
markers its own, slots inside the paper, clear of the markers and of one another."""

from __future__ import annotations

import itertools
import json

import pytest

from engine.tiles import DominoSet
from mat import FIRST_MARKER_ID, PAPERS, MatError, mat_for
from mat.layout import MARKER_MM, QUIET_MM, Rect


def overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("domino_set", list(DominoSet))
def test_every_tile_has_one_slot_on_a_page_that_holds_it(domino_set: DominoSet, paper: str) -> None:
    mat = mat_for(domino_set, paper)
    assert [s.tile for s in mat.slots] == list(domino_set.tiles())
    w, h = mat.size_mm
    ids = [m.marker_id for p in mat.pages for m in p.markers]
    assert len(set(ids)) == len(ids) and min(ids) == FIRST_MARKER_ID  # 0-3: the play area's
    sizes = [len(p.slots) for p in mat.pages]
    assert max(sizes) - min(sizes) <= 1  # the pages share the tiles evenly
    for page in mat.pages:
        squares = []
        for k, m in enumerate(page.markers):
            assert m.marker_id == FIRST_MARKER_ID + 4 * (page.number - 1) + k
            assert mat.page_of(m.marker_id) == (page, k)
            xs = [p[0] for p in m.corners_mm]
            ys = [p[1] for p in m.corners_mm]
            assert max(xs) - min(xs) == max(ys) - min(ys) == MARKER_MM
            q = QUIET_MM
            squares.append((min(xs) - q, min(ys) - q, max(xs) + q, max(ys) + q))
        for slot in page.slots:
            x0, y0, x1, y1 = slot.rect_mm
            assert 0 < x0 < x1 < w and 0 < y0 < y1 < h and slot.page == page.number
            assert slot.label_mm[1] < h and not any(overlap(slot.rect_mm, sq) for sq in squares)
        for a, b in itertools.combinations(page.slots, 2):
            assert not overlap(a.rect_mm, b.rect_mm)
    assert mat.page_of(FIRST_MARKER_ID - 1) is None
    assert mat.page_of(FIRST_MARKER_ID + 4 * len(mat.pages)) is None


def test_the_json_names_each_page_marker_and_slot() -> None:
    mat = mat_for(DominoSet.DOUBLE_SIX, "a4")
    data = json.loads(json.dumps(mat.to_json()))
    assert data["set"] == "double-six" and data["paper"] == "a4"
    assert data["page_mm"] == [210.0, 297.0] and data["dictionary"] == "DICT_4X4_50"
    assert [p["page"] for p in data["pages"]] == [1, 2]
    first = data["pages"][0]
    assert [m["id"] for m in first["markers"]] == [4, 5, 6, 7]
    assert first["markers"][0]["corners_mm"][0] == [8.0, 8.0]
    assert first["slots"][0] == {"tile": "0-0", "rect_mm": list(mat.slots[0].rect_mm)}
    assert sum(len(p["slots"]) for p in data["pages"]) == 28


def test_an_unknown_paper_is_refused_by_name() -> None:
    with pytest.raises(MatError, match="'b5' is no paper the mat is made for: a4, a3, letter"):
        mat_for(DominoSet.DOUBLE_SIX, "b5")
