"""The table's referee and record: one game in table mode, its journal and its alerts.

`TableCore` is the one place where the game changes. It takes commands (from MQTT,
the panel or the display, all as `service.core.commands` values), settled snapshots of the
surface (through the reconciler) and the sources' status. What changes the game is an
input of `engine.inputs` (a command's, a play the reconciler accepted, the clock's end),
applied by its type (`_apply`: the table's own, else `Game.tell`); every change is written
to the journal (the input and the events it made, each event with the next `seq`, as
payloads made by `service.core.payloads`) before its typed events go out on the core's
`bus` to the subscribers (see `service.core.table_events` for what and in which order).
Not thread-safe by design: the service's worker thread is its only caller (see
`service.app`).

The core routes; its parts each hold their state in one frozen value: the reconciler's
memory (`service.core.reconciler.Memory`), the core's own (`service.core.table_memory.
CoreMemory`: the game's id, the sources' status, the zones' counts), the standing alerts
(`service.core.alerts`), the seating (`service.core.seating`). Each change is one journal
transaction, told only once it is stored (`service.core.changes`). A change the journal
cannot store leaves the table exactly as it was: the game is rebuilt from the journal and
what the core knew beyond it is put back. The table then says so, a standing fault alert,
takes nothing (commands are refused with the reason, snapshots wait), and tries again
every `RETRY_S`: once the journal stores again, the alert is stored and resolved, and the
latest snapshot judged.

After a crash the game is rebuilt by replaying the journal's inputs through a fresh
engine, and what the core knew beyond it is read back from the journal: a restart gives
the same state.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial
from typing import Any

from engine import rulesets
from engine.alerts import AlertCode, Severity
from engine.events import (
    AlertEvent,
    Coords,
    Event,
    GameEvent,
    Judgement,
    PlayEvent,
    Reason,
    UndoEvent,
)
from engine.game import Game, Mode, Phase, PlayInput
from engine.geometry import TileSize
from engine.inputs import (
    Confirm,
    Input,
    NewGame,
    NextHand,
    Play,
    Redeal,
    Rename,
    Undo,
    tiles_per_seat,
)
from engine.messages import message
from engine.rules import Rules, RulesError
from engine.surface import SeenTile, Snapshot
from service.core import commands as cmd
from service.core import table_memory as memo
from service.core.alerts import StandingAlerts
from service.core.bus import Bus
from service.core.changes import NOT_SAVED, RETRY_S, Changes, CommandRefused
from service.core.payloads import Outbox, open_end_places, reply_payload, state_payload
from service.core.reconciler import (
    Accepted,
    Cleared,
    Outcome,
    Reconciler,
    Resolved,
    SeatZone,
    SurfaceAlert,
    ZoneCounts,
)
from service.core.seating import ConfirmError, SeatedGame
from service.core.table_events import (
    AlertRaised,
    AlertResolved,
    GameOver,
    Recorded,
    ResultConfirmed,
    Spot,
    StateChanged,
    TableAlert,
    TableEvent,
)
from service.store.journal import Journal, JournalEvent

log = logging.getLogger(__name__)

_OFFLINE = {"board": AlertCode.BOARD_OFFLINE, "camera": AlertCode.CAMERA_OFFLINE}
SIDES: dict[int, tuple[str, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
}
HAND_STARTS: frozenset[type[Input]] = frozenset({NewGame, NextHand, Redeal})
"""Inputs after which tiles still lying on the surface are no plays (until moved)."""


@dataclass(frozen=True)
class TableConfig:
    """What the core needs to know about its table (from the settings)."""

    table: str
    rules: str = "walnut"
    seats: int = 4
    names: tuple[str, ...] = ()
    target: int | None = None
    language: str = "en"
    surface: tuple[int, int] = (900, 600)
    tile_mm: tuple[int, int] = (48, 24)
    zones: tuple[tuple[int, tuple[int, int, int, int]], ...] = ()  # (seat, (x0, y0, x1, y1))
    grace_s: float = 1.5


class TableCore:
    """One table's game, journal and alerts; subscribers hear every change on `bus`."""

    def __init__(
        self,
        config: TableConfig,
        journal: Journal,
        find_rules: Callable[[str], Rules],
        *,
        clock: Callable[[], float] = time.monotonic,
        bus: Bus | None = None,
    ) -> None:
        self.config = config
        self.journal = journal
        self.find_rules = find_rules
        self.clock = clock
        self.bus = bus if bus is not None else Bus()
        self.outbox = Outbox(journal)
        self.game: Game | None = None
        self.reconciler: Reconciler | None = None
        self.memory = memo.CoreMemory()  # the core's own, beyond the game
        self.alerts = StandingAlerts(lambda: journal.last_seq() + 1)
        self.seated = SeatedGame()  # a desk's seating, the round's clock, confirmations
        self.changes = Changes(self, config.table, journal, self.bus, clock)
        self._replaying = False
        self._restored = 0  # inputs replayed at the last rebuild

    @property
    def game_id(self) -> str:
        return self.memory.game_id

    # --- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Rebuild the game from the journal, or start the configured one.

        Only the current game is replayed (from its `new_game` input on): a new game
        replaces everything the games before it left, and replaying every game the table
        ever played made each start-up slower than the last. `JournalError` when the
        first game cannot be stored.
        """
        if self._rebuild():
            log.info(
                "table %s: game %s restored from %d inputs (seq %d)",
                self.config.table,
                self.game_id,
                self._restored,
                self.journal.last_seq(),
            )
            self.bus.publish(self._state_changed())
            self._publish_confirmed()  # a confirmation replayed: its result again
            return
        c = self.config
        told = NewGame(c.rules, c.seats, c.names or None, None, c.target, c.language)
        with self.changes.change():
            self._commit(*self._apply(told))

    def _rebuild(self) -> bool:
        """The current game again from the journal, and what the core knew beyond it
        (kept with each change); False when the journal holds no game."""
        inputs = self.journal.inputs(after=max(0, self.journal.last_input_id("new_game") - 1))
        self._restored = len(inputs)
        if not inputs:
            self.game, self.reconciler = None, None
            return False
        self._replaying = True
        try:
            for item in inputs:
                _, events = self._apply(item.told)
                stored = [self.journal.event(s) for s in item.seqs]
                self.outbox.renumber(events, stored)
                self.seated.recall(stored)
        finally:
            self._replaying = False
        last = self.journal.last_event()
        self.memory = replace(self.memory, last=last.payload if last is not None else None)
        kept = self.journal.get(memo.KV_KEY)
        if isinstance(kept, dict) and kept.get("game_id") == self.game_id:
            self._recall_kept(kept)
        elif self.reconciler is not None:
            self.reconciler.follow()
        self.alerts.lead(self.game, self._language())
        return True

    def _recall_kept(self, kept: dict[str, Any]) -> None:
        """What the core knew beyond the game at the last change (`table_memory.kept`)."""
        core, standing, reconciler = memo.read_kept(kept)
        self.memory = core.over(self.memory)
        self.alerts.recall(standing, self.journal.event)
        if self.reconciler is not None and reconciler is not None:
            self.reconciler.recall(reconciler)

    # --- reading ---------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The `state` payload of spec/mqtt.md (without the envelope's `v`/`table`/`ts`)."""
        game = self._require_game()
        memory = self.memory
        payload = state_payload(
            game,
            seq=self.journal.last_event_seq(),
            game_id=self.game_id,
            sides=SIDES.get(game.seats, ()),
            ends_at=partial(open_end_places, game.layout, size=TileSize(*self.config.tile_mm)),
            surface=self.config.surface,
            alerts=self.alerts.shown(),
            last=memory.last,
            sources=memory.sources,
            zone_counts=memory.zone_counts.pips if memory.zone_counts is not None else None,
        )
        return payload | self.seated.state_fields(game)

    @property
    def saving(self) -> bool:
        """False while the journal cannot store: the table takes nothing then."""
        return self.changes.saving

    def _state_changed(self) -> StateChanged:
        game = self._require_game()
        standing = self.alerts.alerts()
        return StateChanged(self.state(), game.phase, game.turn, game.seats, standing)

    def _require_game(self) -> Game:
        if self.game is None:
            raise CommandRefused("No game is being played: start one with new_game.")
        return self.game

    # --- inputs ----------------------------------------------------------------------------

    def command(self, command: cmd.Command) -> str | None:
        """Apply a command to the game; None when done, else the reason it was refused
        (nothing changed)."""
        refusal = self.changes.refusal
        if refusal is not None:
            return refusal
        if not isinstance(command, cmd.GameCommand):
            return f"{command.action.value} is for the camera: this table has none."
        told = command.told
        lying = self.reconciler.surface if self.reconciler is not None else ()

        def change() -> None:
            self._allowed(told)
            kept, events = self._apply(told)
            self._follow(type(told), lying)
            self._commit(kept, events, reply_id=command.id)

        try:
            done = self.changes.attempt(change)
        except CommandRefused as exc:
            return str(exc)
        return None if done else (self.changes.refusal or "The table cannot save.")

    def _follow(self, kind: type[Input], lying: Sequence[SeenTile]) -> None:
        """The reconciler follows a command's change at once (its memory is kept with
        it); tiles still lying when a hand starts are no plays of it until moved."""
        if self.reconciler is None:
            return
        if kind in HAND_STARTS:
            self.reconciler.ignore(lying)
        else:
            self.reconciler.follow()

    def _allowed(self, told: Input) -> None:
        """Refuse what no command may ask, whatever its form (CommandRefused).

        A command names a shipped ruleset, or the table's own (which may be a house TOML
        file named in the settings): never any other path, or anyone on the broker could
        make the table read a file of their choosing. (A replayed journal input is not
        checked again: it was allowed when it came. Text that is not valid Unicode never
        gets here: `service.core.commands` refuses it.)
        """
        if isinstance(told, NewGame):
            name = told.rules
            shipped = rulesets.names()
            if name != self.config.rules and name not in shipped:
                raise CommandRefused(f"Unknown rules {name!r}: choose one of {', '.join(shipped)}.")

    def _apply(self, told: Input) -> tuple[Input, list[Event]]:
        """Apply one input to the game, by its type: the table's own (a new game, a
        confirmation, a name), else the game's (`Game.tell`). The input as the journal
        keeps it (a new game with its id, a confirmation with the tiles counted) and its
        events; raises CommandRefused (nothing changed)."""
        if isinstance(told, NewGame):
            return self._new_game(told)
        game = self._require_game()
        own = _TABLES_OWN.get(type(told))
        if own is not None:
            told, judged = own(self, game, told)
        else:
            judged = game.tell(told)
        if not judged.ok:
            alert = next((e for e in judged.events if isinstance(e, AlertEvent)), None)
            raise CommandRefused(alert.message if alert else judged.reason.value)
        return told, list(judged.events)

    def _new_game(self, told: NewGame) -> tuple[Input, list[Event]]:
        try:
            rules = self.find_rules(told.rules)
            seats = told.seats
            teams = told.teams
            groups = None
            if teams:
                groups = [
                    [s for s, t in enumerate(teams) if t == team] for team in sorted(set(teams))
                ]
            game = Game(
                rules,
                seats,
                mode=Mode.TABLE,
                names=told.names,
                teams=groups,
                target=told.target,
                language=told.language or self.config.language,
            )
        except (RulesError, ValueError, KeyError) as exc:
            raise CommandRefused(str(exc)) from None
        self.game = game
        length, width = self.config.tile_mm
        self.reconciler = Reconciler(
            game,
            TileSize(length, width),
            self.config.grace_s,
            self.clock,
            zones=[SeatZone(seat, *rect) for seat, rect in self.config.zones],
        )
        if not told.game_id:
            made = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")[:-4] + "Z"
            told = replace(told, game_id=made)
        self.memory = replace(self.memory, game_id=str(told.game_id), zone_counts=None)
        self.seated.begin(told)
        self.alerts.value = ()
        return told, list(game.start())

    # --- observations and sources ----------------------------------------------------------

    def observe(self, snapshot: Snapshot) -> None:
        """A settled snapshot of the surface (from the board or the camera)."""
        reconciler = self.reconciler
        if reconciler is None:
            return
        if not self.changes.saving:  # judged once the journal stores again
            self.changes.hold(snapshot)
            return
        if not self.changes.attempt(lambda: self._outcomes(reconciler.observe(snapshot))):
            self.changes.hold(snapshot)

    def tick(self) -> None:
        """Time passes: a pending alert's grace time may run out, the round's clock too; a
        journal that could not store is tried again."""
        if not self.changes.saving:
            self.changes.retry()
            return
        reconciler = self.reconciler
        if reconciler is not None:
            self.changes.attempt(lambda: self._outcomes(reconciler.tick()))
        game = self.game
        if game is not None and self.changes.saving and self.seated.time_is_up(game):
            told = self.seated.time_input()
            self.changes.attempt(lambda: self._commit(*self._apply(told)))

    def _outcomes(self, outcomes: Sequence[Outcome]) -> None:
        for outcome in outcomes:
            _ON_OUTCOME[type(outcome)](self, outcome)

    def _accepted(self, outcome: Accepted) -> None:
        game = self._require_game()
        inputs = {a.ref: a for a in game.hand_inputs() if isinstance(a, PlayInput)}
        events = outcome.judgement.events
        told: Input | None = None
        for event in events:
            journaled = _JOURNALED.get(type(event))
            if journaled is not None:
                told = journaled(event, inputs)
        if told is None:
            log.warning("table: an accepted input could not be journaled: %s", events)
        self._commit(told, events)

    def _problem(self, problem: SurfaceAlert) -> None:
        tile = str(problem.tile) if problem.tile is not None else None
        self._raise(
            problem.key,
            problem.code,
            problem.severity,
            problem.message,
            seat=problem.seat,
            tile=tile,
            at=problem.coords,
        )

    def _resolved(self, resolved: Resolved) -> None:
        self._resolve(resolved.key)

    def _counted(self, counts: ZoneCounts) -> None:
        self.memory = replace(self.memory, zone_counts=counts)
        self._commit(None, [])

    def _cleared(self, cleared: Cleared) -> None:
        if self._require_game().phase is Phase.HAND_OVER:
            told, events = self._apply(NextHand())
            self._follow(NextHand, ())
            self._commit(told, events)

    def source_status(self, source: str, online: bool, detail: str = "") -> None:
        """The board or the camera went offline or came back: a standing fault alert."""
        memory = self.memory
        if memory.sources.get(source) == online:
            return
        self.memory = replace(memory, details={**memory.details, source: detail})
        if self.changes.saving and self.changes.attempt(
            lambda: self._source_alert(source, online), game_changes=False
        ):
            return
        self._set_source(source, online)  # its alert follows once the journal stores again

    def _set_source(self, source: str, online: bool) -> None:
        self.memory = replace(self.memory, sources={**self.memory.sources, source: online})

    def _source_alert(self, source: str, online: bool) -> None:
        self._set_source(source, online)
        code = _OFFLINE[source]
        key = f"source:{source}"
        if not online:
            detail = self.memory.details.get(source, "")
            text = message(code, self._language(), detail=detail)
            self._raise(key, code, code.severity, text)
        else:
            self._resolve(key)

    def _language(self) -> str:
        return self.game.language if self.game is not None else self.config.language

    # --- alerts ----------------------------------------------------------------------------

    def raise_alert(
        self,
        key: str,
        code: AlertCode,
        severity: Severity,
        text: str,
        *,
        seat: int | None = None,
        tile: str | None = None,
        at: Coords | Spot | None = None,
    ) -> None:
        """Publish an alert that stands until `resolve_alert(key)` (not while the journal
        cannot store: the table then takes nothing, and says so)."""
        if self.changes.saving:
            self.changes.attempt(
                lambda: self._raise(key, code, severity, text, seat=seat, tile=tile, at=at),
                game_changes=False,
            )

    def resolve_alert(self, key: str) -> None:
        if self.changes.saving:
            self.changes.attempt(lambda: self._resolve(key), game_changes=False)

    def _raise(
        self,
        key: str,
        code: AlertCode,
        severity: Severity,
        text: str,
        *,
        seat: int | None = None,
        tile: str | None = None,
        at: Coords | Spot | None = None,
    ) -> None:
        raised = self.alerts.stand(key, code, severity, text, seat=seat, tile=tile, at=at)
        if raised:
            self._commit(None, alerts=raised)

    def _resolve(self, key: str) -> None:
        resolved = self.alerts.resolve(key)
        if resolved:
            self._commit(None, alerts=resolved)

    # --- what the changes need of the table (`service.core.changes.Table`) ----------------

    def can_say(self) -> str | None:
        return self._language() if self.game is not None else None

    def remember(self) -> memo.Moment:
        reconciler = self.reconciler.memory() if self.reconciler is not None else None
        return memo.Moment(self.memory, self.alerts.value, reconciler, dict(self.outbox.ref_seq))

    def put_back(self, moment: memo.Moment, *, replay: bool) -> None:
        if replay:
            self._rebuild()
        self.memory = moment.core
        self.alerts.value = moment.standing
        self.outbox.ref_seq = dict(moment.ref_seq)
        if self.reconciler is not None and moment.reconciler is not None:
            self.reconciler.recall(moment.reconciler)

    def unsaved(self, alert: TableAlert, event: JournalEvent) -> None:
        self.alerts.add(alert, event)
        self.memory = replace(self.memory, last=event.payload)
        self.bus.publish(AlertRaised(alert))
        self.bus.publish(Recorded((event,), stored=False))
        self.bus.publish(self._state_changed())

    def saved_again(self) -> None:
        self._resolve(NOT_SAVED)

    def catch_up(self, held: Snapshot | None) -> None:
        for source, online in list(self.memory.sources.items()):  # as they are now
            self.changes.attempt(partial(self._source_alert, source, online), game_changes=False)
        if held is not None:
            self.observe(held)

    # --- committing ------------------------------------------------------------------------

    def _commit(
        self,
        kept: Input | None,
        events: Sequence[Event] = (),
        *,
        alerts: Sequence[AlertRaised | AlertResolved] = (),
        reply_id: str | None = None,
    ) -> None:
        """Journal the input and its events (stamped with seqs) and what the core knows
        beyond the game; the subscribers hear them once the change is stored."""
        if self._replaying:
            return
        reply = reply_payload(self.config.table, reply_id, True) if reply_id is not None else None
        with self.changes.change():
            lead = self.alerts.lead(self.game, self._language())
            told: list[TableEvent] = [*events, *alerts, *lead]
            stored = self.outbox.record(
                kept, told, game_id=self.game_id, reply=reply, echo=self.seated.echo()
            )
            self.seated.recall(stored)
            if stored:
                self.memory = replace(self.memory, last=stored[-1].payload)
            self.alerts.published(told, stored)  # standing alerts are shown as published
            self.journal.put(memo.KV_KEY, memo.kept(self.remember()))
            over = [
                GameOver(self.game_id, saved)
                for event, saved in zip(told, stored, strict=True)
                if isinstance(event, GameEvent) and event.event == "over"
            ]
            self.changes.tell([*told, Recorded(tuple(stored)), self._state_changed(), *over])
            self._publish_confirmed()

    def _publish_confirmed(self) -> None:
        confirmed = self.seated.take_confirmed()
        if confirmed is not None:
            self.changes.tell([ResultConfirmed(self.game_id, confirmed)])


_ON_OUTCOME: dict[type[Any], Callable[[TableCore, Any], None]] = {
    Accepted: TableCore._accepted,
    SurfaceAlert: TableCore._problem,
    Resolved: TableCore._resolved,
    ZoneCounts: TableCore._counted,
    Cleared: TableCore._cleared,
}
"""What the core does with each of the reconciler's outcomes."""


# --- the table's own inputs --------------------------------------------------------------------


def _confirm(core: TableCore, game: Game, told: Confirm) -> tuple[Input, Judgement]:
    """The counts the table made from the seat zones are right: score the hand. After the
    game: `seat` confirms its result (`service.core.seating`).

    The journal keeps the tiles counted (`Confirm.tiles`), so a replay scores the same hand.
    """
    if game.phase is Phase.OVER:
        try:
            core.seated.confirm(game, told.seat)
        except ConfirmError as exc:
            raise CommandRefused(str(exc)) from None
        return told, Judgement(Reason.OK)
    if told.tiles is None:
        counts = core.memory.zone_counts
        if counts is None:
            raise CommandRefused("The table has not counted any tiles: lay them in the zones.")
        told = replace(told, tiles=tiles_per_seat(counts.tiles))
    assert told.tiles is not None
    return told, game.count_tiles([list(seat or ()) for seat in told.tiles])


def _rename(core: TableCore, game: Game, told: Rename) -> tuple[Input, Judgement]:
    if not 0 <= told.seat < game.seats:
        raise CommandRefused(f"There is no seat {told.seat}.")
    game.names[told.seat] = told.name
    return told, Judgement(Reason.OK)


_TABLES_OWN: dict[type[Input], Callable[[TableCore, Game, Any], tuple[Input, Judgement]]] = {
    Confirm: _confirm,
    Rename: _rename,
}
"""The inputs the table core takes itself (a new game aside); the game takes the rest
(`Game.tell`)."""


def play_input(action: PlayInput) -> Play:
    """A play accepted by the engine as the journal keeps it: it replays exactly."""
    return Play(action.tile, action.where, coords=action.coords)


_JOURNALED: dict[type[Any], Callable[[Any, Mapping[int, PlayInput]], Input | None]] = {
    PlayEvent: lambda e, inputs: play_input(inputs[e.ref]) if e.ref in inputs else None,
    UndoEvent: lambda e, inputs: Undo(),
}
"""The journal input of an event the reconciler's play or take-back made (by the
play's engine input, `ref` -> `PlayInput`)."""


__all__ = [
    "NOT_SAVED",
    "RETRY_S",
    "SIDES",
    "CommandRefused",
    "TableConfig",
    "TableCore",
    "play_input",
]
