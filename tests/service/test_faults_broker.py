"""The broker is SIGKILLed and restarted mid-hand while tiles are being laid: no event is
lost, `online` comes only after `state` is republished, and the state is the game's.

The subscriber is a desk with a persistent session saved by the broker before the kill,
so what the service publishes on its return is kept for it even if it reconnects last."""

from __future__ import annotations

import threading
import time

from tests.service.faults import (
    P,
    Rig,
    all_seqs,
    check_delivery,
    settled_state,
    wait,
)


def test_broker_killed_mid_hand_loses_no_event_and_online_follows_state(
    rig: Rig,
) -> None:
    rec, journal, proc, player, broker = rig.rec, rig.journal, rig.proc, rig.player, rig.broker
    assert player.play(3) == 3
    rec.wait_for(all_seqs(journal), timeout=10)

    laid = threading.Event()
    failure: list[BaseException] = []

    def lay() -> None:
        try:
            assert player.play(6, pause=0.4) == 6
        except BaseException as exc:
            failure.append(exc)
        finally:
            laid.set()

    layer = threading.Thread(target=lay)
    layer.start()
    wait(lambda: len(journal.plays()) >= 4, 20, "a play while the broker is up")
    broker.kill()  # mid-hand, tiles still coming
    killed_at = len(rec.seen)
    time.sleep(0.8)
    during = journal.last_seq()
    broker.start()
    layer.join(60)
    assert laid.is_set() and not failure, failure
    assert journal.last_seq() > during > 0

    # `online` only after `state`: the desk's session kept both for it, in order and
    # not retained, if it came back after the service did; retained copies sent
    # again on its re-subscription are left out.
    got = rec.wait_for(
        lambda s: b"online" in [x.payload for x in s[killed_at:] if not x.retain], 20
    )
    live = [x for x in got[killed_at:] if not x.retain and "/event/" not in x.topic]
    first_online = next(i for i, x in enumerate(live) if x.payload == b"online")
    states = [x.json() for x in live[:first_online] if x.topic == f"{P}/state"]
    assert states and states[-1]["seq"] >= during, live
    rec.wait_for(all_seqs(journal), timeout=20)
    n = check_delivery(rec.seen, journal)
    wait(lambda: not journal.unacked(), 10, "every event acked")
    final = settled_state(rec, broker, n)
    assert final["seq"] == n
    player.expect_state(final)
    assert not final["alerts"]
    assert not proc.errors(), proc.errors()
