"""What a power cut must never do, checked from what a subscriber saw and what the table
holds: a seq that comes back with another payload, a seq that goes back, an event seen
and then lost, a `state` whose seq names no event, a table that does not start, a file
of the table's that is not whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service.store.seq_mark import SeqMark
from tests.fixtures.mqtt_recorder import Seen
from tests.power.rig import (
    DiedError,
    PowerTable,
    Watch,
    events_by_seq,
    latest_state,
    stored_events,
)
from vision import Calibration
from vision.set_model.model import load_model


def seqs_go_forward(seen: list[Seen]) -> None:
    """Each event seen for the first time has a seq above every one seen before it (a
    republished one is the same bytes: `events_by_seq`)."""
    events_by_seq(seen)
    top = 0
    first: set[int] = set()
    for s in seen:
        if "/event/" not in s.topic:
            continue
        seq = s.json()["seq"]
        if seq in first:
            continue
        assert seq > top, f"seq {seq} came after seq {top}: a seq went back"
        first.add(seq)
        top = seq


def restarted(
    watch: Watch, table: PowerTable, timeout: float = 60.0, prior: dict[int, bytes] | None = None
) -> dict[str, Any]:
    """The table, started after a cut, is online; its state names an event seen (the
    last one it holds; `prior`: events seen before the mark that its disk holds);
    nothing seen so far came back different. Its state."""
    try:
        watch.online(table, timeout)
    except AssertionError as exc:
        raise AssertionError(
            f"the table did not start after a cut: {exc}\n{table.output()[-3000:]}"
        ) from None
    state = settled(watch, table, prior)
    seqs_go_forward(watch.seen[watch.mark :])
    return state


def settled(
    watch: Watch, table: PowerTable, prior: dict[int, bytes] | None = None
) -> dict[str, Any]:
    """Wait until the table's latest state names the last event it holds (seen since the
    mark, or in `prior`); `DiedError` if it dies first. That state."""

    def named(seen: list[Seen]) -> dict[str, Any] | None:
        now, events = latest_state(seen), {**(prior or {}), **events_by_seq(seen)}
        return now if now is not None and events and now["seq"] == max(events) else None

    try:
        state: dict[str, Any] = watch.wait(named, 20, table)
    except DiedError:
        raise
    except AssertionError:
        now = latest(watch)
        raise AssertionError(
            f"state.seq {now['seq']} names no event: the last seen is "
            f"{max(events_by_seq(watch.seen[watch.mark :]), default=None)}"
        ) from None
    return state


def nothing_seen_lost(watch: Watch, table: PowerTable) -> int:
    """The table stopped (or cut): every event seen since the mark is in its journal, as
    seen. The number of events checked."""
    assert not table.alive()
    stored = stored_events(table.state)
    seen = events_by_seq(watch.seen[watch.mark :])
    lost = sorted(set(seen) - set(stored))
    assert not lost, (
        f"events seen and lost: {lost} (the journal holds up to {max(stored, default=0)})"
    )
    for seq, payload in seen.items():
        assert Seen("", payload, False).json() == stored[seq], f"seq {seq} differs from the journal"
    return len(seen)


def no_errors(table: PowerTable) -> None:
    errors = table.errors()
    assert not errors, errors


def latest(watch: Watch) -> dict[str, Any]:
    state = latest_state(watch.seen[watch.mark :])
    assert state is not None
    return state


def files_whole(state: Path) -> None:
    """After a cut, before the table starts again: each file the table writes whole (the
    seq mark, the calibration, the enrolled set) is there whole, or not there at all."""
    if not state.exists():
        return
    mark = SeqMark(state)
    assert mark.damage is None, (
        f"the seq mark {mark.path.name} is not whole after the cut: {mark.damage} "
        f"({mark.path.read_bytes()[:60]!r})"
    )
    if (state / "calibration.json").exists():
        Calibration.load(state)  # raises when it is not whole
    load_model(state)  # None when there is none; raises when it is not whole
