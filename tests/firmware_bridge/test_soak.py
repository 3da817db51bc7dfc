"""Many plays through a board that garbles, drops and repeats frames at random."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tiles import DominoSet
from firmware_bridge.adapter import BoardAdapter
from firmware_bridge.codec import Frame, Rejected, RejectKind
from firmware_bridge.emulator import BoardEmulator, FaultRates
from firmware_bridge.link import LinkSettings
from firmware_bridge.messages import Heartbeat, Hello, Snap, TileAt
from firmware_bridge.script import LiftStep, PlaceStep, Step, WaitStep
from firmware_bridge.session import Session
from tests.firmware_bridge.conftest import FAST, Recorder
from tests.firmware_bridge.test_codec import board_messages


def plays(seed: int, n: int) -> Iterator[Step]:
    """Tiles put down at free spots and taken back, at random."""
    rng = random.Random(seed)
    lying: list[TileAt] = []
    tiles = DominoSet.DOUBLE_SIX.tiles()
    for i in range(n):
        if len(lying) == len(tiles) or (lying and rng.random() < 0.4):
            yield LiftStep(lying.pop(rng.randrange(len(lying))).tile)
        else:
            free = [t for t in tiles if t not in {x.tile for x in lying}]
            tile = rng.choice(free)
            x, y = 40 + 60 * (i % 14), 40 + 60 * (i // 14 % 9)
            at = TileAt(tile.high, tile.low, x, y, x + 24, y)
            lying.append(at)
            yield PlaceStep(at)
        yield WaitStep(rng.choice((0.0, 0.01, 0.05)))


@pytest.mark.slow
def test_the_surface_ends_right_whatever_the_line_did(tmp_path: Path) -> None:
    rates = FaultRates(bad_crc=0.05, drop=0.03, duplicate=0.05, garbage=0.03)
    events = Recorder()
    board = BoardEmulator(
        plays(7, 150), link=tmp_path / "b", hb_interval=0.1, debounce=0.01, rates=rates, seed=7
    )
    with board, BoardAdapter(LinkSettings(path=str(tmp_path / "b"), **FAST), events) as host:
        host.start()
        assert board.wait_until(board.idle, timeout=30)
        board.rates = FaultRates()
        assert board.wait_until(
            lambda: (
                host.link.consistent
                and host.snapshot is not None
                and {(t.a, t.b, t.xa, t.ya) for t in host.snapshot.tiles}
                == {(t.a, t.b, t.xa, t.ya) for t in board.surface()}
            ),
            timeout=10,
        ), (host.status(), board.surface())
        status = host.status()
        assert status["count_syncs"] >= 1 and status["count_repeats"] >= 1  # type: ignore[operator]


everything = st.one_of(
    st.builds(Frame, st.integers(0, 65535), board_messages),
    st.builds(Frame, st.integers(0, 65535), st.builds(Snap, st.integers(0, 3))),
    st.builds(Rejected, st.sampled_from(RejectKind), st.just("fuzz"), st.just(b"$")),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(everything, st.floats(0, 0.5)), max_size=60))
def test_no_sequence_of_frames_breaks_the_session(items: list[tuple[object, float]]) -> None:
    session = Session(6)
    session.open("fuzz", 0.0)
    now = 0.0
    session.receive(Frame(0, Hello("1", "fw", "B", 900, 600, 6)), now)
    for item, dt in items:
        now += dt
        assert isinstance(item, Frame | Rejected)
        session.receive(item, now)
        session.tick(now)
        session.take_output()
    session.receive(Frame(1, Heartbeat(1, 0, 0, 0)), now)
    status = session.status()
    assert status["phase"] == "online" and status["tiles"] == len(session.surface)
