"""Command intake without MQTT: dedupe while waiting, after answering, across threads."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from engine.inputs import Undo
from service.core.commands import Command, GameCommand
from service.mqtt.intake import CommandIntake
from service.store.journal import Journal


def raw(body: object) -> bytes:
    return json.dumps(body).encode()


def test_a_malformed_repeat_while_waiting_does_not_replace_the_answer(tmp_path: Path) -> None:
    handed: list[Command] = []
    with Journal(tmp_path, "t") as journal:
        intake = CommandIntake("t", journal, handed.append)
        assert intake.receive(raw({"id": "c1", "action": "undo"})) == []
        assert intake.receive(raw({"id": "c1", "action": "shuffle"})) == []  # waits too
        replies = intake.answer("c1", True)
        assert [(r["id"], r["ok"]) for r in replies] == [("c1", True), ("c1", True)]
        assert handed == [GameCommand("c1", Undo())]


def test_racing_repeats_are_handed_on_once(tmp_path: Path) -> None:
    handed: list[Command] = []
    with Journal(tmp_path, "t") as journal:
        intake = CommandIntake("t", journal, handed.append)
        replies: list[dict[str, object]] = []
        lock = threading.Lock()

        def sender() -> None:
            for _ in range(50):
                got = intake.receive(raw({"id": "same", "action": "undo"}))
                with lock:
                    replies.extend(got)

        def service() -> None:
            while not handed:
                pass
            got = intake.answer("same", True)
            with lock:
                replies.extend(got)

        threads = [threading.Thread(target=sender) for _ in range(3)]
        threads.append(threading.Thread(target=service))
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert handed == [GameCommand("same", Undo())]
        assert len(replies) == 150  # one reply per receipt, all the same
        assert all(r == replies[0] for r in replies)
