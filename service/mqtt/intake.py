"""Command intake: refuse malformed commands, answer repeats from the journal, pass the rest on.

No MQTT here: `CommandIntake.receive(raw)` is given a payload from `<prefix>/cmd` and
returns the replies to publish now; `answer(cmd_id, ok, error)` is the service's answer
to a command it was handed and returns the replies to publish then. Every payload gets
exactly one reply per receipt, however malformed (a fault of ours in reading it is
answered too). Every reply with an id is stored in the journal before it is returned,
so a command whose id was already handled gets the same reply again (after a restart
too) and is never handed on twice. A command received again while the service has not
answered yet is not handed on either; it gets its reply when the answer comes. A reply
the journal cannot store (the disk is full) is still sent, and kept in memory to answer
repeats until the journal can store it. A command that only asks (`history`, `frame`:
`Action.reads_only`) changes nothing: its reply, which may be large (a whole game's
events), is kept in memory only (the last `ASKED_KEPT`) to answer repeats, never in the
journal.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from service.core.commands import Command, CommandError, best_id, parse_command
from service.core.payloads import reply_payload
from service.store.journal import REPLIES_KEPT, Journal, JournalError

log = logging.getLogger(__name__)

Reply = dict[str, Any]
ASKED_KEPT = 100
UNREADABLE = "The table could not read this command (a fault of ours): tell its maintainer."


class CommandIntake:
    """The command half of the MQTT link for one table. Thread-safe."""

    def __init__(self, table: str, journal: Journal, on_command: Callable[[Command], None]) -> None:
        self._table = table
        self._journal = journal
        self._on_command = on_command
        self._lock = threading.RLock()
        self._waiting: dict[str, int] = {}  # id handed on -> how many times it was received
        self._unsaved: dict[str, Reply] = {}  # replies the journal could not store yet
        self._asking: set[str] = set()  # ids of commands that only ask, not answered yet
        self._asked: OrderedDict[str, Reply] = OrderedDict()  # their latest replies

    def receive(self, raw: bytes) -> list[Reply]:
        """Handle one command payload; return the replies to publish now."""
        known_id = best_id(raw)
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
            except Exception:
                log.exception("mqtt: could not read command %r", known_id or "")
                return [self._store(reply_payload(self._table, known_id or "", False, UNREADABLE))]
            self._waiting[cmd.id] = 1
            if cmd.action.reads_only:
                self._asking.add(cmd.id)
        log.info("mqtt: command %r: %s", cmd.id, cmd.action)
        try:
            self._on_command(cmd)
        except Exception as exc:
            log.exception("mqtt: the service could not take command %r", cmd.id)
            return self.answer(cmd.id, False, f"The table could not take the command ({exc}).")
        return []

    def _repeat(self, cmd_id: str) -> list[Reply] | None:
        """Replies for an id seen before (call with the lock held); None if it is new."""
        stored = self._stored(cmd_id)
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
            reply = self._stored(cmd_id) if cmd_id else None
            if reply is None and cmd_id in self._asking:
                self._asking.discard(cmd_id)
                reply = self._asked[cmd_id] = reply_payload(self._table, cmd_id, ok, error, detail)
                while len(self._asked) > ASKED_KEPT:
                    self._asked.popitem(last=False)
            elif reply is None:
                reply = self._store(reply_payload(self._table, cmd_id, ok, error, detail))
            times = self._waiting.pop(cmd_id, 1)
        return [reply] * times

    def _stored(self, cmd_id: str) -> Reply | None:
        """The reply already given to `cmd_id`, if any (call with the lock held)."""
        if cmd_id in self._unsaved:
            return self._unsaved[cmd_id]
        if cmd_id in self._asked:
            return self._asked[cmd_id]
        try:
            return self._journal.get_reply(cmd_id)
        except JournalError as exc:
            log.warning("mqtt: cannot read earlier replies (%s)", exc)
            return None

    def _store(self, reply: Reply) -> Reply:
        """Store a reply with an id (call with the lock held); it is returned either way."""
        if not reply["id"]:
            return reply
        self._unsaved[reply["id"]] = reply
        try:
            for cmd_id, unsaved in list(self._unsaved.items()):
                self._journal.put_reply(cmd_id, unsaved)
                del self._unsaved[cmd_id]
        except JournalError as exc:
            log.warning("mqtt: the reply to %r is sent but not stored (%s)", reply["id"], exc)
            while len(self._unsaved) > REPLIES_KEPT:
                del self._unsaved[next(iter(self._unsaved))]
        return reply
