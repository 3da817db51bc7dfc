"""The host's protocol state machine on captured bytes: the spec's vectors, then faults."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.codec import Decoder, Frame, encode
from firmware_bridge.events import (
    BoardReset,
    ButtonChanged,
    CommandFailed,
    CommandOutcome,
    HeartbeatReceived,
    LinkUp,
    SurfaceReceived,
    SyncStarted,
    TileLifted,
    TilePlaced,
)
from firmware_bridge.messages import (
    Beep,
    BoardMessage,
    Colour,
    Direction,
    End,
    Heartbeat,
    Hello,
    Led,
    NakReason,
    Place,
    Snap,
    SnapTile,
    Sync,
    TileAt,
)
from firmware_bridge.session import Phase, SeqVerdict, Session, judge_seq

GOLDEN = Path(__file__).parent / "golden"
HOST_LINES = (GOLDEN / "host_to_board.bin").read_bytes().splitlines(keepends=True)
HELLO = Hello("1", "fw-1.0.0", "B7", 900, 600, 6)
DOUBLE_SIX = TileAt(6, 6, 450, 288, 450, 312)
SIX_FOUR = TileAt(6, 4, 474, 300, 498, 300)


def feed(session: Session, data: bytes, now: float = 0.0) -> None:
    for item in Decoder(Direction.FROM_BOARD).feed(data):
        session.receive(item, now)


def board(*frames: tuple[int, BoardMessage]) -> bytes:
    return b"".join(encode(Frame(seq, message)) for seq, message in frames)


def online(needed_max_pip: int = 6) -> Session:
    """A session that said HELLO and got the spec's HELLO and snapshot back."""
    session = Session(needed_max_pip)
    session.open("test", 0.0)
    feed(session, board((0, HELLO), (1, Snap(1)), (2, SnapTile(DOUBLE_SIX)), (3, End())))
    session.take_output()
    return session


def sent(session: Session) -> list[str]:
    return [w.decode().strip() for w in session.take_output()[0]]


def test_the_spec_session_byte_exact_both_ways() -> None:
    session = Session(6)
    session.open("golden", 0.0)
    writes, _ = session.take_output()
    assert writes == HOST_LINES[:1]  # $0,HELLO,1*0E77
    board_lines = (GOLDEN / "board_to_host.bin").read_bytes().splitlines(keepends=True)
    feed(session, b"".join(board_lines[:8]))
    assert session.phase is Phase.ONLINE
    sync = session.send(Sync(), 0.0)
    led = session.send(Led(486, 300, Colour.RED), 0.0)
    beep = session.send(Beep(200), 0.0)
    writes, events = session.take_output()
    assert writes == HOST_LINES[1:]
    assert [type(e) for e in events] == [
        LinkUp,
        SurfaceReceived,
        TilePlaced,
        HeartbeatReceived,  # counts 2 tiles: no doubt
        ButtonChanged,
        TileLifted,
    ]
    feed(session, b"".join(board_lines[8:]))
    assert led.outcome is CommandOutcome.ACKED
    assert beep.outcome is CommandOutcome.REFUSED and beep.nak is NakReason.BUSY
    assert sync.outcome is None  # still waiting for its ACK
    [failed] = session.take_output()[1]
    assert isinstance(failed, CommandFailed) and failed.seq == 3
    assert "count_doubts" not in session.status()


@pytest.mark.parametrize(
    ("last", "seq", "verdict"),
    [
        (None, 7, SeqVerdict.NEXT),
        (4, 5, SeqVerdict.NEXT),
        (65535, 0, SeqVerdict.NEXT),
        (5, 5, SeqVerdict.REPEAT),
        (5, 3, SeqVerdict.REPEAT),
        (2, 65534, SeqVerdict.REPEAT),
        (5, 7, SeqVerdict.JUMP),
        (65535, 1, SeqVerdict.JUMP),
        (1000, 10, SeqVerdict.JUMP),
    ],
)
def test_seq_verdicts(last: int | None, seq: int, verdict: SeqVerdict) -> None:
    assert judge_seq(last, seq) is verdict


def test_a_seq_jump_asks_for_a_snapshot_once() -> None:
    session = online()
    feed(session, board((6, Place(SIX_FOUR)), (9, Heartbeat(1, 0, 0, 2))))
    assert sent(session) == [str(Frame(1, Sync()))]
    assert session.status()["count_frames_lost"] == 4
    assert not session.consistent


def test_a_repeated_frame_is_dropped() -> None:
    session = online()
    feed(session, board((4, Place(SIX_FOUR)), (4, Place(SIX_FOUR)), (5, Heartbeat(1, 0, 0, 2))))
    _, events = session.take_output()
    assert [type(e) for e in events] == [TilePlaced, HeartbeatReceived]
    assert session.status()["count_repeats"] == 1 and session.consistent


def test_a_heartbeat_counting_other_tiles_asks_for_a_snapshot() -> None:
    session = online()
    feed(session, board((4, Heartbeat(1000, 0, 0, 3))))
    writes, events = session.take_output()
    assert [w.decode() for w in writes] == [encode(Frame(1, Sync())).decode()]
    assert isinstance(events[-1], SyncStarted) and "counts 3 tiles" in events[-1].reason


@pytest.mark.parametrize(
    ("frames", "why"),
    [
        (((4, SnapTile(SIX_FOUR)),), "TILE outside a snapshot"),
        (((4, End()),), "END outside a snapshot"),
        (((4, Snap(2)), (5, SnapTile(SIX_FOUR)), (6, End())), "announced 2 tiles, held 1"),
        (((4, Snap(1)), (5, Place(SIX_FOUR)), (6, SnapTile(SIX_FOUR))), "PLACE inside"),
        (((4, Place(DOUBLE_SIX)),), "was never lifted"),
        (
            (
                (4, Place(SIX_FOUR)),
                (5, Place(DOUBLE_SIX)),
            ),
            "was never lifted",
        ),
    ],
)
def test_frames_that_do_not_fit_ask_for_a_snapshot(
    frames: tuple[tuple[int, BoardMessage], ...], why: str
) -> None:
    session = online()
    feed(session, board(*frames))
    writes, events = session.take_output()
    [sync] = [e for e in events if isinstance(e, SyncStarted)]
    assert why in sync.reason
    assert writes[-1] == encode(Frame(1, Sync()))


def test_a_bad_frame_inside_a_snapshot_spoils_it() -> None:
    session = online()
    data = board((4, Snap(1)), (5, SnapTile(SIX_FOUR)), (6, End()))
    feed(session, data.replace(b"TILE,6,4", b"TILE,6,5"))  # CRC no longer matches
    _, events = session.take_output()
    assert [type(e) for e in events] == [SyncStarted]
    assert session.status()["count_snapshots_spoilt"] == 1
    feed(session, board((7, Snap(1)), (8, SnapTile(SIX_FOUR)), (9, End())))
    [received] = session.take_output()[1]
    assert isinstance(received, SurfaceReceived) and received.tiles == (SIX_FOUR,)
    assert session.consistent


def test_a_snapshot_that_does_not_come_is_asked_for_again() -> None:
    session = Session(6, snapshot_timeout=1.0)
    session.open("test", 0.0)
    feed(session, board((0, HELLO)), now=0.1)
    session.take_output()
    session.tick(1.0)
    assert sent(session) == []
    session.tick(1.2)
    assert sent(session) == [str(Frame(1, Sync()))]


def test_resends_keep_their_seq_then_the_command_is_lost() -> None:
    session = online()
    cmd = session.send(Beep(50), 10.0)
    first = sent(session)
    for t in (10.1, 10.21, 10.42, 10.63):
        session.tick(t)
    assert sent(session) == first * 3 and cmd.outcome is None
    session.tick(10.84)
    assert cmd.outcome is CommandOutcome.LOST and cmd.resends == 3
    [failed] = session.take_output()[1]
    assert isinstance(failed, CommandFailed) and failed.outcome is CommandOutcome.LOST


def test_an_unasked_hello_is_a_board_reset() -> None:
    session = online()
    pending = session.send(Beep(50), 0.0)
    session.take_output()
    feed(session, board((0, HELLO)))
    writes, events = session.take_output()
    assert [type(e) for e in events] == [CommandFailed, BoardReset, SyncStarted]
    assert pending.outcome is CommandOutcome.LOST
    assert writes == [encode(Frame(0, Sync()))]  # HELLO restarted the host's counter too


def test_a_duplicated_hello_answer_is_not_a_reset() -> None:
    session = Session(6)
    session.open("test", 0.0)
    feed(session, board((0, HELLO), (0, HELLO), (1, Snap(0)), (2, End())))
    _, events = session.take_output()
    assert [type(e) for e in events] == [LinkUp, SurfaceReceived]


def test_an_unanswered_hello_fails_the_handshake() -> None:
    session = Session(6)
    session.open("ttyX", 0.0)
    for t in (0.21, 0.42, 0.63, 0.84):
        session.tick(t)
    assert session.phase is Phase.FAILED and "no answer to HELLO on ttyX" in (session.failure or "")


@pytest.mark.parametrize(
    ("hello", "needed", "words"),
    [
        (Hello("2", "fw", "B1", 900, 600, 6), 6, ["version 2", "version 1"]),
        (Hello("0.9", "fw", "B1", 900, 600, 6), 6, ["version 0.9", "version 1"]),
        (Hello("1", "fw", "B1", 900, 600, 6), 9, ["up to 6 pips", "double-nine", "needs 9"]),
    ],
)
def test_refusals_name_both_sides(hello: Hello, needed: int, words: list[str]) -> None:
    session = Session(needed)
    session.open("test", 0.0)
    feed(session, board((0, hello)))
    assert session.phase is Phase.REFUSED
    for word in words:
        assert word in (session.failure or "")


def test_a_minor_version_and_more_pips_are_accepted() -> None:
    session = Session(9)
    session.open("test", 0.0)
    feed(session, board((0, Hello("1.4", "fw", "B1", 900, 600, 12))))
    assert session.phase is Phase.ONLINE


def test_a_board_reflashed_to_another_version_is_refused_when_it_restarts() -> None:
    session = online()
    feed(session, board((0, Hello("2", "fw-2", "B7", 900, 600, 6))))
    assert session.phase is Phase.REFUSED and "version 2" in (session.failure or "")


def test_the_answer_to_a_resent_hello_is_not_a_board_reset() -> None:
    session = Session(6)
    session.open("test", 0.0)
    session.tick(0.21)  # no answer yet: HELLO goes out again
    assert sent(session) == [HOST_LINES[0].decode().strip()] * 2
    snapshot = ((1, Snap(1)), (2, SnapTile(DOUBLE_SIX)), (3, End()))
    feed(session, board((0, HELLO), *snapshot), now=0.25)
    feed(session, board((0, HELLO), *snapshot), now=0.3)
    _, events = session.take_output()
    assert [type(e) for e in events] == [LinkUp, SurfaceReceived, SurfaceReceived]
    assert session.consistent
    # Much later an unasked HELLO is a restart again.
    feed(session, board((0, HELLO)), now=5.0)
    assert [type(e) for e in session.take_output()[1]] == [BoardReset, SyncStarted]
