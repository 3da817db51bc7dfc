"""Command intake: refuse malformed commands, answer repeats from the journal, pass the rest on.

No MQTT here: `CommandIntake.receive(raw)` is given a payload from `<prefix>/cmd` and
returns the replies to publish now; `answer(cmd_id, ok, error)` is the service's answer
to a command it was handed and returns the replies to publish then. Every reply with an
id is stored in the journal before it is returned, so a command whose id was already
handled gets the same reply again (after a restart too) and is never handed on twice.
A command received again while the service has not answered yet is not handed on either;
it gets its reply when the answer comes.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from service.commands import MAX_ID_LENGTH, MAX_PAYLOAD_BYTES, Command, CommandError, parse_command
from service.journal import Journal
from service.payloads import reply_payload

log = logging.getLogger(__name__)

Reply = dict[str, Any]


def _best_id(raw: bytes) -> str | None:
    """The command's id when it can be read from an otherwise bad payload."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        return None
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    cmd_id = body.get("id") if isinstance(body, dict) else None
    return cmd_id if isinstance(cmd_id, str) and 1 <= len(cmd_id) <= MAX_ID_LENGTH else None


class CommandIntake:
    """The command half of the MQTT link for one table. Thread-safe."""

    def __init__(self, table: str, journal: Journal, on_command: Callable[[Command], None]) -> None:
        self._table = table
        self._journal = journal
        self._on_command = on_command
        self._lock = threading.Lock()
        self._waiting: dict[str, int] = {}  # id handed on -> how many times it was received

    def receive(self, raw: bytes) -> list[Reply]:
        """Handle one command payload; return the replies to publish now."""
        known_id = _best_id(raw)
        with self._lock:  # checked and registered at once: never handed on twice
            if known_id is not None:
                early = self._repeat(known_id)
                if early is not None:
                    return early
            try:
                cmd = parse_command(raw)
            except CommandError as exc:
                log.warning("mqtt: command %r refused: %s", exc.cmd_id, exc.message)
                return [self._store(reply_payload(self._table, exc.cmd_id, False, exc.message))]
            self._waiting[cmd.id] = 1
        log.info("mqtt: command %r: %s", cmd.id, cmd.action)
        try:
            self._on_command(cmd)
        except Exception as exc:
            log.exception("mqtt: the service could not take command %r", cmd.id)
            return self.answer(cmd.id, False, f"The table could not take the command ({exc}).")
        return []

    def _repeat(self, cmd_id: str) -> list[Reply] | None:
        """Replies for an id seen before (call with the lock held); None if it is new."""
        stored = self._journal.get_reply(cmd_id)
        if stored is not None:
            log.info("mqtt: command %r was already handled: same reply again", cmd_id)
            return [stored]
        if cmd_id in self._waiting:
            self._waiting[cmd_id] += 1
            log.info("mqtt: command %r received again before it was answered", cmd_id)
            return []
        return None

    def answer(
        self, cmd_id: str, ok: bool, error: str | None = None, detail: Reply | None = None
    ) -> list[Reply]:
        """The service's answer to a command; returns it once per time it was received.

        When the journal already holds a reply for `cmd_id` (the service stored it with
        the command's events, `Journal.append(..., reply=...)`), that reply is used.
        """
        with self._lock:
            reply = self._journal.get_reply(cmd_id) if cmd_id else None
            if reply is None:
                reply = self._store(reply_payload(self._table, cmd_id, ok, error, detail))
            times = self._waiting.pop(cmd_id, 1)
        return [reply] * times

    def _store(self, reply: Reply) -> Reply:
        if reply["id"]:
            self._journal.put_reply(reply["id"], reply)
        return reply
