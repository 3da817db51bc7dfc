"""The detector's looks (`vision.detector.looks`): named, ordered, switchable, recorded,
within a budget of passes, and open to a look of one's own."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pytest

from tests.vision.detector.test_detect_synthetic import background, draw_tile
from vision.detector.detect import (
    FRAME_LOOKS,
    FrameView,
    LookSettings,
    Settings,
    detect,
    look_names,
    with_look,
)
from vision.detector.planes import Found
from vision.detector.results import FoundTile
from vision.tiles.dark_marks import Tone
from vision.trace import Grain, LookRecord, Trace, changes


def _scene() -> np.ndarray:
    img = background(400, 700, (60, 110, 40))
    draw_tile(img, (200, 150), (6, 3))
    draw_tile(img, (500, 250), (1, 2), vertical=True)
    return img


def _record(det_looks: tuple[LookRecord, ...], name: str) -> LookRecord:
    return next(r for r in det_looks if r.name == name)


def test_every_look_has_one_name_and_the_list_runs_in_its_order() -> None:
    names = look_names()
    assert len(names) == len(set(names))
    assert names[: len(FRAME_LOOKS)] == [x.name for x in FRAME_LOOKS]
    assert names.index("close-up") < names.index("first-reading") < names.index("coarser")
    assert names.index("coarser") < names.index("veto")


def test_the_record_says_which_looks_ran_and_what_each_did() -> None:
    det = detect(_scene(), settings=Settings(tone=Tone.LIGHT))
    assert sorted(t.pips for t in det.tiles) == [(1, 2), (6, 3)]
    first = _record(det.looks, "first-reading")
    assert first.runs == 1 and first.added == 2
    # one pass over the 700x400 frame, 0.28 of a pass over a megapixel, and the two
    # hypotheses it read, 0.05 of a pass each
    assert first.passes == pytest.approx(0.28 + 2 * 0.05, abs=0.01)
    assert det.passes >= first.passes
    # the tone was given: no other tone was looked at
    assert "other-tones" not in [r.name for r in det.looks]
    assert all(r.ms >= 0 for r in det.looks)


def test_a_look_turned_off_does_not_run_and_says_so() -> None:
    s = Settings(tone=Tone.LIGHT, looks=LookSettings(off=frozenset({"veto", "faint-doubts"})))
    det = detect(_scene(), settings=s)
    veto = _record(det.looks, "veto")
    assert veto.skipped == "off" and veto.runs == 0
    assert _record(det.looks, "faint-doubts").runs == 0


def test_unknown_or_first_readings_cannot_be_turned_off() -> None:
    with pytest.raises(ValueError, match="no look named no-such-look"):
        detect(_scene(), settings=Settings(looks=LookSettings(off=frozenset({"no-such-look"}))))
    with pytest.raises(ValueError, match="first-reading is a first reading"):
        detect(_scene(), settings=Settings(looks=LookSettings(off=frozenset({"first-reading"}))))
    with pytest.raises(ValueError, match=r"LookSettings\.budget"):
        LookSettings(budget=0)
    with pytest.raises(ValueError, match="set of look names"):
        LookSettings(off="veto")  # type: ignore[arg-type]


def test_no_look_starts_once_the_budget_is_spent() -> None:
    # an empty table with the tone unknown: every tone, then coarser scales
    table = background(600, 800, (60, 110, 40))
    free = detect(table, settings=Settings(tone=None, looks=LookSettings(budget=10_000)))
    tight = detect(table, settings=Settings(tone=None, looks=LookSettings(budget=1)))
    assert free.passes > tight.passes
    skipped = [r.name for r in tight.looks if r.skipped == "budget"]
    assert skipped, [str(r) for r in tight.looks]
    assert not tight.tiles


@dataclass(frozen=True, slots=True)
class _Halver:
    """A look of one's own: keeps the tiles left of the frame's middle."""

    name: str = "left-only"
    grain: Grain = Grain.FRAME
    base: bool = False
    searches: bool = False

    def applies(self, view: FrameView, found: Found) -> bool:
        return bool(found.tiles)

    def run(self, view: FrameView, found: Found) -> Found:
        middle = view.frame.shape[1] / 2
        return replace(found, tiles=[t for t in found.tiles if t.px[0][0] < middle])


def test_a_look_of_ones_own_plugs_in_where_it_is_put() -> None:
    looks = with_look(FRAME_LOOKS, _Halver(), before="veto")
    assert [x.name for x in looks].index("left-only") == len(FRAME_LOOKS) - 1
    det = detect(_scene(), settings=Settings(tone=Tone.LIGHT), looks=looks)
    assert [t.pips for t in det.tiles] == [(6, 3)]
    mine = _record(det.looks, "left-only")
    assert mine.removed == 1 and mine.added == 0
    # it is a look like the others: it can be turned off
    off = Settings(tone=Tone.LIGHT, looks=LookSettings(off=frozenset({"left-only"})))
    assert len(detect(_scene(), settings=off, looks=looks).tiles) == 2
    with pytest.raises(ValueError, match="no look named"):
        with_look(FRAME_LOOKS, _Halver(), before="nothing")


def test_changes_count_tiles_added_removed_and_read_again() -> None:
    def tile(pips: tuple[int, int], x: float) -> FoundTile:
        return FoundTile(pips, ((x, 100.0), (x + 24.0, 100.0)), 1.0)

    before = [tile((1, 2), 100), tile((3, 3), 200), tile((0, 5), 300)]
    after = [tile((2, 1), 101), tile((3, 4), 200), tile((6, 6), 500)]
    assert changes(before, after) == (1, 1, 1)


def test_a_trace_charges_a_pass_to_every_look_running() -> None:
    trace = Trace(frame_px=100.0)
    with trace.look("outer", Grain.FRAME), trace.look("inner", Grain.SEARCH):
        trace.spend(100.0)  # a pass over the whole image
        trace.spend(400.0)  # ... and one over it enlarged twice
    with trace.inner("half") as note:
        note.took()
    records = {r.name: r for r in trace.records()}
    assert records["outer"].passes == records["inner"].passes == trace.passes == 5.0
    assert records["half"].changed == 1 and trace.took("half")


def test_every_look_a_frame_records_is_one_that_can_be_named() -> None:
    frame = _scene()
    frame[:40, :40] = 250  # a light patch: more looks run
    det = detect(frame, settings=Settings(tone=None))
    assert {r.name for r in det.looks} <= set(look_names())


def test_a_scale_is_read_once_per_frame() -> None:
    # the close-up probe and the coarser look may both read the frame shrunk by the
    # same factor: the second takes the first's reading, and spends no pass on it
    img = _scene()
    s = Settings(tone=None)
    trace = Trace(s.looks.off, s.looks.budget, float(s.looks.pass_px))
    view = FrameView(img, img, (0.0, 0.0), s, None, None, 0.0, trace)
    first = view.read_at(2)
    spent = trace.passes
    assert spent > 0
    assert view.read_at(2) is first
    assert trace.passes == spent
    assert view.read_at(4) is not first
    assert trace.passes > spent
    # a shrunk view keeps readings of its own
    assert view.shrunk(2).at == {}
