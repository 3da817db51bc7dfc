"""The detector's own parts: the play area and the settings."""

from __future__ import annotations

import pytest

from vision.detector.play_area import PlayArea
from vision.detector.settings import ScaleSettings, SearchSettings, Settings
from vision.pips.settings import PipSettings
from vision.tiles.dark_marks import Tone
from vision.tiles.settings import DividerSettings, MarkSettings


def test_play_area_from_the_command_line() -> None:
    area = PlayArea.parse("389,606,1216,1438")
    assert area.corners[0] == (389.0, 606.0)
    assert area.contains(800, 1000)
    assert not area.contains(300, 1000)
    assert area.box(1536, 2040, 24) == (365, 582, 1240, 1462)
    assert area.box(1000, 1000, 24) == (365, 582, 1000, 1000)
    for bad in ("1,2,3", "10,10,5,20", "a,b,c,d"):
        with pytest.raises(ValueError, match=r"^play area"):
            PlayArea.parse(bad)
    with pytest.raises(ValueError, match="three corners"):
        PlayArea(((0.0, 0.0), (1.0, 1.0)))


def test_play_area_from_a_rectangle_or_corners() -> None:
    rect = PlayArea.of((10, 20, 110, 220))
    assert rect == PlayArea.rect(10, 20, 110, 220)
    assert PlayArea.of(rect) is rect
    triangle = PlayArea.of([(0, 0), (100, 0), (0, 100)])
    assert triangle.contains(10, 10)
    assert not triangle.contains(90, 90)


def test_settings_are_checked_when_made() -> None:
    assert Settings().tone is Tone.LIGHT
    with pytest.raises(ValueError, match=r"Settings\.rel_contrast: 1\.5 is outside"):
        Settings(marks=MarkSettings(rel_contrast=1.5))
    with pytest.raises(ValueError, match=r"Settings\.window"):
        Settings(marks=MarkSettings(window=1))
    with pytest.raises(ValueError, match=r"Settings\.tone"):
        Settings(tone="light")  # type: ignore[arg-type]


def test_each_stage_keeps_its_thresholds_in_one_checked_value() -> None:
    s = Settings()
    assert (s.marks.window, s.dividers.width_tolerance, s.pips.half_reach) == (21, 0.3, 0.4)
    assert (s.search.sure, s.scales.wide) == (0.9, 90.0)
    for bad, name in (
        (lambda: SearchSettings(sure=1.5), r"SearchSettings\.sure: 1\.5 is outside"),
        (lambda: ScaleSettings(min_side=2), r"ScaleSettings\.min_side"),
        (lambda: DividerSettings(width_tolerance=-0.1), r"DividerSettings\.width_tolerance"),
        (lambda: PipSettings(own_range=(0.25, 200.0)), r"PipSettings\.own_range"),
        (lambda: Settings(explained=2.0), r"Settings\.explained"),
        (lambda: Settings(auto_tones=()), r"Settings\.auto_tones"),
    ):
        with pytest.raises(ValueError, match=name):
            bad()
