"""The power-cut tests fail on a table that keeps its promise less well: each weakened
durability setting is run through the same phase and the same checks as the real table
(`tests/power/phases.py`, `tests/power/camera.py`), on the lossy disk, and the checks
must catch it, saying what was lost (printed with `pytest -s`).

- `[state] synchronous = "normal"`: the journal's commits not fsynced;
- the seq mark written in place (truncated, written, fsynced), not a new file renamed;
- `write_file` without the new file's fsync before the rename;
- `write_file` without the folder's fsync after the rename.

The weakenings are `tests/power/weaken.py`, applied in the table's process.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.power.camera import Screen, calibration_sweep, camera_table
from tests.power.phases import board_table, restart_sweep, seen_and_random
from tests.power.rig import MakePower, Power, events_by_seq, stored_events

pytestmark = pytest.mark.slow


def lost(power: Power) -> list[int]:
    """The table stopped after a failed check: the events a subscriber saw (since the
    mark) that its journal does not hold."""
    power.table.kill()
    stored = stored_events(power.table.state)
    return sorted(set(events_by_seq(power.watch.seen[power.watch.mark :])) - set(stored))


def say(what: str, power: Power, caught: pytest.ExceptionInfo[AssertionError]) -> None:
    message = str(caught.value).splitlines()[0]
    print(f"\n{what}: caught after {len(power.cuts)} cuts ({power.cuts[-1:]}): {message}")


def test_a_journal_that_does_not_fsync_each_commit_is_caught(make_power: MakePower) -> None:
    """A step seen by a subscriber, then a cut: the journal's commit was never fsynced,
    so the table comes back without it (its state names an event it no longer holds, or
    a seq seen comes back with another payload, or the events are missing at the end)."""
    power = board_table(make_power, "lossy", synchronous="normal")
    caught_lost = "names no event|another payload|seen and lost|seen laid and lost"
    with pytest.raises(AssertionError, match=caught_lost) as caught:
        seen_and_random(power)
    missing = lost(power)
    assert missing, "the journal holds every event seen"
    say('synchronous = "normal"', power, caught)
    print(f"events seen and then lost: {missing}")


def test_a_seq_mark_written_in_place_is_caught(make_power: MakePower) -> None:
    """A start after a cut writes the mark again: in place, a cut before its fsync
    leaves it cut short (the file system keeps the truncation, not the new bytes)."""
    power = board_table(make_power, "lossy", weaken="mark_in_place")
    with pytest.raises(AssertionError, match=r"seq mark journal\.seq is not whole") as caught:
        restart_sweep(power)
    say("the seq mark written in place", power, caught)


def test_a_file_renamed_before_its_bytes_are_fsynced_is_caught(make_power: MakePower) -> None:
    """The mark's new file renamed over the old and the folder fsynced, its bytes not:
    after a cut the name is there and the bytes are not."""
    power = board_table(make_power, "lossy", weaken="no_file_fsync")
    with pytest.raises(AssertionError, match=r"seq mark journal\.seq is not whole") as caught:
        restart_sweep(power)
    say("write_file without the file's fsync", power, caught)


def test_a_rename_whose_folder_is_not_fsynced_is_caught(
    make_power: MakePower, tmp_path: Path, camera_pictures: dict[str, Path]
) -> None:
    """The calibration written and renamed into place, the folder never fsynced: the
    table says it is calibrated, and after a cut the calibration is gone."""
    screen = Screen(tmp_path, camera_pictures)
    power = camera_table(make_power, "lossy", screen, weaken="no_dir_fsync")
    confirmed_lost = "a calibration the table confirmed is lost"
    with pytest.raises(AssertionError, match=confirmed_lost) as caught:
        calibration_sweep(power, screen)
    say("write_file without the folder's fsync", power, caught)
    assert not (power.table.state / "calibration.json").exists()
