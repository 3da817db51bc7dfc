"""Each change of the table is stored whole or not at all, and told once it is stored.

`Changes.change()` is the table core's unit of work. Everything one change does (an input
applied, its events and alerts journaled, what the core knows beyond the game kept beside
them) happens inside it, in one journal transaction (`Journal.batch`), and what it tells
(`tell`) goes out on the bus only once the transaction is stored. A part of a change
opens none of its own: it joins the one under way. On any exception the table is put
back as it was: what the core knew beyond its game (`Table.remember`, `Table.put_back`),
and the game rebuilt from the journal (not for a refusal, which never changed it, nor
for a change that leaves the game alone).

A change the journal cannot store (`JournalError`) is an outage: the table says so, a
standing fault alert published under a seq kept beside the journal
(`Journal.hand_out`), takes nothing (`refusal` is the reason commands are refused;
snapshots are `held`), and tries again every `RETRY_S` (`retry`): once the journal stores
again, the alert is stored as published and resolved, and the table catches up.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from engine.alerts import Severity
from engine.messages import Case, message
from engine.surface import Snapshot
from mqttweb.envelope import stamp
from service.core.bus import Bus
from service.core.payloads import alert_id, alert_payload
from service.core.table_events import TableAlert
from service.core.table_memory import Moment
from service.store.journal import Journal, JournalError, JournalEvent

log = logging.getLogger(__name__)

NOT_SAVED = "storage"  # the key of the alert standing while the journal cannot store
RETRY_S = 1.0  # how often the table tries the journal again while it cannot store


class CommandRefused(Exception):  # noqa: N818 - a refusal, not an error of ours
    """A command that cannot be applied now; its message is the reply's `error`."""


class Table(Protocol):
    """What the changes need of the table they change (`TableCore`)."""

    @property
    def game_id(self) -> str: ...

    def can_say(self) -> str | None:
        """The table's language, or None when it has no game to say anything of."""

    def remember(self) -> Moment:
        """What the table knows beyond its game, now."""

    def put_back(self, moment: Moment, *, replay: bool) -> None:
        """Know `moment` again (`replay`: rebuild the game from the journal first)."""

    def unsaved(self, alert: TableAlert, event: JournalEvent) -> None:
        """The alert that the journal cannot store stands, published as `event`."""

    def saved_again(self) -> None:
        """Within the change that stores the alert: resolve it."""

    def catch_up(self, held: Snapshot | None) -> None:
        """After an outage: the sources' alerts as they are now, the snapshot held."""


@dataclass
class _Unsaved:
    """The journal cannot store: the alert that says so (published, not stored), the
    latest snapshot to judge later, when to try again."""

    alert: TableAlert
    event: JournalEvent
    held: Snapshot | None = None
    next_try: float = 0.0


class Changes:
    """The changes of one table (see the module's doc)."""

    def __init__(
        self, table: Table, name: str, journal: Journal, bus: Bus, clock: Callable[[], float]
    ) -> None:
        self.table = table
        self.name = name  # the table's id, in each payload's envelope
        self.journal = journal
        self.bus = bus
        self.clock = clock
        self._told: list[object] | None = None  # what the change under way tells once stored
        self._unsaved: _Unsaved | None = None

    # --- the unit of work ----------------------------------------------------------------

    def attempt(self, change: Callable[[], None], *, game_changes: bool = True) -> bool:
        """Make one change; False when the journal could not store it (the table is then
        as it was, and says it cannot save). CommandRefused and faults of ours are raised,
        the table as it was too."""
        try:
            with self.change(game_changes=game_changes):
                change()
        except JournalError as exc:
            self._cannot_save(exc)
            return False
        return True

    @contextmanager
    def change(self, *, game_changes: bool = True) -> Iterator[None]:
        """One change: one journal transaction, told once it is stored. On any exception
        the table is put back as it was (`game_changes`: the game rebuilt from the
        journal too)."""
        if self._told is not None:  # a part of the change under way
            yield
            return
        before = self.table.remember()
        self._told = []
        try:
            with self.journal.batch():
                yield
            told = self._told
        except BaseException as exc:
            replay = game_changes and not isinstance(exc, CommandRefused)
            self.table.put_back(before, replay=replay)
            raise
        finally:
            self._told = None
        for event in told:
            self.bus.publish(event)

    def tell(self, events: Sequence[object]) -> None:
        """Tell the subscribers: once the change under way is stored (or now)."""
        if self._told is not None:
            self._told.extend(events)
            return
        for event in events:
            self.bus.publish(event)

    # --- while the journal cannot store ---------------------------------------------------

    @property
    def saving(self) -> bool:
        """False while the journal cannot store: the table takes nothing then."""
        return self._unsaved is None

    @property
    def refusal(self) -> str | None:
        """Why the table takes no command now (None: it takes them)."""
        return self._unsaved.alert.message if self._unsaved is not None else None

    def hold(self, snapshot: Snapshot) -> None:
        """The latest snapshot, judged once the journal stores again."""
        if self._unsaved is not None:
            self._unsaved.held = snapshot

    def _cannot_save(self, exc: JournalError) -> None:
        """Say so: a standing fault alert, published under a seq kept beside the journal."""
        log.warning("table %s: the game cannot be saved: %s", self.name, exc)
        language = self.table.can_say()
        if self._unsaved is not None or language is None:
            return
        code = Case.NOT_SAVED.alert_code
        text = message(Case.NOT_SAVED, language)
        seq = self.journal.hand_out()
        alert = TableAlert(NOT_SAVED, code, Severity.FAULT, text, alert_id(code, seq))
        payload = {**alert_payload(alert), "game_id": self.table.game_id}
        event = JournalEvent(seq, "alert", stamp(self.name, payload, seq=seq))
        self._unsaved = _Unsaved(alert, event, next_try=self.clock() + RETRY_S)
        self.table.unsaved(alert, event)

    def retry(self) -> None:
        """Try the journal again when it is time: store the alert as published and
        resolve it, then catch up."""
        unsaved = self._unsaved
        if unsaved is None or self.clock() < unsaved.next_try:
            return
        unsaved.next_try = self.clock() + RETRY_S
        try:
            with self.change(game_changes=False):
                self.journal.record_handed([unsaved.event])
                self.table.saved_again()
        except JournalError as exc:
            log.debug("table %s: still cannot save: %s", self.name, exc)
            return
        log.warning("table %s: the game is saved again", self.name)
        self._unsaved = None
        self.table.catch_up(unsaved.held)
