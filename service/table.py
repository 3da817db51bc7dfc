"""The table's referee and record: one game in table mode, its journal and its alerts.

`TableCore` is the one place where the game changes. It takes commands (from MQTT,
the panel or the display, all as `service.commands` values), settled snapshots of the
surface (through the reconciler) and the sources' status; every change is written to the
journal (inputs and the events they made, each event with the next `seq`) before
listeners hear of it. Not thread-safe by design: the service's worker thread is its
only caller (see `service.app`).

After a crash the game is rebuilt by replaying the journal's inputs through a fresh
engine: nothing but the journal is needed.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from engine import rulesets
from engine.alerts import AlertCode, Severity
from engine.events import AlertEvent, Coords, Event, GameEvent, Judgement, Reason, UndoEvent
from engine.game import Game, Mode, Phase, PlayInput, Target
from engine.geometry import GeometryError, TileSize, edge_positions
from engine.layout import Edge, EdgeKind, OpenEnd
from engine.messages import message
from engine.rules import Rules, RulesError
from engine.surface import Snapshot
from engine.tiles import Tile, TileError
from mqttweb.envelope import utc_ts
from service import commands as cmd
from service.journal import Journal
from service.reconciler import (
    Accepted,
    Alert,
    Cleared,
    Outcome,
    Reconciler,
    Resolved,
    SeatZone,
    ZoneCounts,
)

log = logging.getLogger(__name__)

_OFFLINE = {"board": AlertCode.BOARD_OFFLINE, "camera": AlertCode.CAMERA_OFFLINE}
SIDES: dict[int, tuple[str, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
}


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


@dataclass(frozen=True)
class Published:
    """What listeners hear after each change: the new events' seqs and the state."""

    seqs: tuple[int, ...]
    state: dict[str, Any]
    result: dict[str, Any] | None = None  # the `game` event that ended a game


@dataclass
class _Standing:
    """An alert that stands until resolved; `key` says what resolves it."""

    key: str
    payload: dict[str, Any]


class CommandRefused(Exception):  # noqa: N818 - a refusal, not an error of ours
    """A command that cannot be applied now; its message is the reply's `error`."""


@dataclass
class _Numbers:
    """ref (the engine's number of a play or pass) -> seq of its event."""

    ref_seq: dict[int, int] = field(default_factory=dict)


class TableCore:
    def __init__(
        self,
        config: TableConfig,
        journal: Journal,
        find_rules: Callable[[str], Rules],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.journal = journal
        self.find_rules = find_rules
        self.clock = clock
        self.game: Game | None = None
        self.game_id = ""
        self.listeners: list[Callable[[Published], None]] = []
        self._numbers = _Numbers()
        self._standing: list[_Standing] = []
        self._last: dict[str, Any] | None = None
        self._pending_counts: dict[int, int] = {}
        self._replaying = False
        self._sources: dict[str, bool] = {}
        self.reconciler: Reconciler | None = None
        self._zone_counts: ZoneCounts | None = None

    # --- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Rebuild the game from the journal, or start the configured one.

        Only the current game is replayed (from its `new_game` input on): a new game
        replaces everything the games before it left, and replaying every game the table
        ever played made each start-up slower than the last.
        """
        inputs = self.journal.inputs(after=max(0, self.journal.last_input_id("new_game") - 1))
        if inputs:
            self._restore(inputs)
            log.info(
                "table %s: game %s restored from %d inputs (seq %d)",
                self.config.table,
                self.game_id,
                len(inputs),
                self.journal.last_seq(),
            )
            return
        c = self.config
        body = {
            "input": "new_game",
            "rules": c.rules,
            "seats": c.seats,
            "names": list(c.names) or None,
            "target": c.target,
            "language": c.language,
        }
        self._commit(body, self._apply(body))

    def _restore(self, inputs: Sequence[Any]) -> None:
        self._replaying = True
        try:
            for item in inputs:
                events = self._apply(item.body)
                self._renumber(events, item.seqs)
        finally:
            self._replaying = False
        self._lead_alert(publish=False)
        last = self.journal.event(self.journal.last_seq())
        self._last = last.payload if last is not None else None

    def _renumber(self, events: Sequence[Event], seqs: Sequence[int]) -> None:
        """Pair replayed plays and passes with the seqs their events were stored under."""
        stored = [self.journal.event(s) for s in seqs]
        stored_refs = [e.seq for e in stored if e is not None and e.kind in ("play", "pass")]
        refs = [e.ref for e in events if e.kind in ("play", "pass")]  # type: ignore[union-attr]
        for ref, seq in zip(refs, stored_refs, strict=False):
            self._numbers.ref_seq[ref] = seq

    # --- reading ---------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The `state` payload of spec/mqtt.md (without the envelope's `v`/`table`/`ts`)."""
        game = self._require_game()
        summary = game.summary()
        sides = SIDES.get(game.seats, ())
        for seat in summary["seats"]:
            seat["side"] = sides[seat["seat"]] if sides else None
        self._locate_ends(game, summary["layout"]["open_ends"])
        width, height = self.config.surface
        return {
            "seq": self.journal.last_seq(),
            "game_id": self.game_id,
            **summary,
            "surface": {"width_mm": width, "height_mm": height},
            "alerts": [s.payload for s in self._standing],
            "last": self._last,
            "language": game.language,
            "sources": dict(self._sources),
            "zone_counts": list(self._zone_counts.pips) if self._zone_counts else None,
        }

    def _locate_ends(self, game: Game, open_ends: list[dict[str, Any]]) -> None:
        """Give each open end its `x, y` (mm): where the next tile joins, when known."""
        placed = self.reconciler.placed() if self.reconciler is not None else []
        layout = game.layout
        if not layout.nodes or any(p is None for p in placed) or len(placed) < len(layout.nodes):
            return
        length, width = self.config.tile_mm
        try:
            edges = edge_positions(
                layout, [p for p in placed if p is not None], TileSize(length, width)
            )
        except GeometryError:
            return
        for end, entry in zip(layout.ends, open_ends, strict=True):
            at = next((e for e in edges[end.node] if e.edge is end.edge), None)
            if at is not None:
                entry["x"], entry["y"] = round(at.x), round(at.y)

    def _require_game(self) -> Game:
        if self.game is None:
            raise CommandRefused("No game is being played: start one with new_game.")
        return self.game

    # --- inputs ----------------------------------------------------------------------------

    def command(self, command: cmd.Command) -> str | None:
        """Apply a command; None when done, else the reason it was refused (nothing changed)."""
        body = _command_input(command)
        try:
            self._allowed(body)
            events = self._apply(body)
        except CommandRefused as exc:
            return str(exc)
        self._commit(body, events, reply_id=command.id)
        return None

    def _allowed(self, body: Mapping[str, Any]) -> None:
        """Refuse what no command may ask, whatever its form (CommandRefused).

        A command names a shipped ruleset, or the table's own (which may be a house TOML
        file named in the settings): never any other path, or anyone on the broker could
        make the table read a file of their choosing. (A replayed journal input is not
        checked again: it was allowed when it came.) Text that cannot be written as UTF-8
        (a lone surrogate from a JSON escape) is refused before it changes the game: the
        journal could not store it, nor MQTT publish the state holding it.
        """
        try:
            json.dumps(body, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise CommandRefused(
                "The command holds text that is not valid Unicode: send it as UTF-8."
            ) from None
        if body["input"] == "new_game":
            name = str(body["rules"])
            shipped = rulesets.names()
            if name != self.config.rules and name not in shipped:
                raise CommandRefused(f"Unknown rules {name!r}: choose one of {', '.join(shipped)}.")

    def _apply(self, body: dict[str, Any]) -> list[Event]:
        """Apply one journaled input to the game; raises CommandRefused (nothing changed)."""
        kind = body["input"]
        if kind == "new_game":
            return self._new_game(body)
        game = self._require_game()
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise CommandRefused(f"Unknown input {kind!r}.")
        judged = handler(self, game, body)
        if not judged.ok:
            alert = next((e for e in judged.events if isinstance(e, AlertEvent)), None)
            raise CommandRefused(alert.message if alert else judged.reason.value)
        return list(judged.events)

    def _new_game(self, body: dict[str, Any]) -> list[Event]:
        try:
            rules = self.find_rules(str(body["rules"]))
            seats = int(body["seats"])
            teams = body.get("teams")
            groups = None
            if teams:
                groups = [
                    [s for s, t in enumerate(teams) if t == team] for team in sorted(set(teams))
                ]
            game = Game(
                rules,
                seats,
                mode=Mode.TABLE,
                names=body.get("names"),
                teams=groups,
                target=body.get("target"),
                language=body.get("language") or self.config.language,
            )
        except (RulesError, ValueError, KeyError) as exc:
            raise CommandRefused(str(exc)) from None
        self.game = game
        self._zone_counts = None
        length, width = self.config.tile_mm
        self.reconciler = Reconciler(
            game,
            TileSize(length, width),
            self.config.grace_s,
            self.clock,
            zones=[SeatZone(seat, *rect) for seat, rect in self.config.zones],
        )
        if not body.get("game_id"):
            body["game_id"] = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")[:-4] + "Z"
        self.game_id = str(body["game_id"])
        self._standing = []
        self._pending_counts = {}
        return list(game.start())

    # --- observations and sources ----------------------------------------------------------

    def observe(self, snapshot: Snapshot) -> None:
        """A settled snapshot of the surface (from the board or the camera)."""
        if self.reconciler is not None:
            self._outcomes(self.reconciler.observe(snapshot))

    def tick(self) -> None:
        """Time passes: a pending alert's grace time may run out."""
        if self.reconciler is not None:
            self._outcomes(self.reconciler.tick())

    def _outcomes(self, outcomes: Sequence[Outcome]) -> None:
        game = self._require_game()
        inputs = {a.ref: a for a in game.hand_inputs() if isinstance(a, PlayInput)}
        for outcome in outcomes:
            if isinstance(outcome, Accepted):
                self._accepted(outcome, inputs)
            elif isinstance(outcome, Alert):
                where = outcome.coords.fields() if outcome.coords is not None else {}
                self.raise_alert(
                    outcome.key,
                    outcome.code,
                    outcome.severity,
                    outcome.message,
                    seat=outcome.seat,
                    tile=str(outcome.tile) if outcome.tile is not None else None,
                    **where,
                )
            elif isinstance(outcome, Resolved):
                self.resolve_alert(outcome.key)
            elif isinstance(outcome, ZoneCounts):
                self._zone_counts = outcome
                self._commit(None, [])
            elif isinstance(outcome, Cleared) and game.phase is Phase.HAND_OVER:
                body = {"input": "next_hand"}
                self._commit(body, self._apply(body))

    def _accepted(self, outcome: Accepted, inputs: Mapping[int, PlayInput]) -> None:
        events = outcome.judgement.events
        body: dict[str, Any] | None = None
        for event in events:
            if event.kind == "play":
                action = inputs.get(event.ref)  # type: ignore[union-attr]
                body = play_input(action) if action is not None else None
            elif event.kind == "undo":
                body = {"input": "undo"}
        if body is None:
            log.warning("table: an accepted input could not be journaled: %s", events)
        self._commit(body, events)

    def source_status(self, source: str, online: bool, detail: str = "") -> None:
        """The board or the camera went offline or came back: a standing fault alert."""
        if self._sources.get(source) == online:
            return
        self._sources[source] = online
        code = _OFFLINE[source]
        key = f"source:{source}"
        if not online:
            text = message(code, self._language(), detail=detail)
            self.raise_alert(key, code, code.severity, text)
        else:
            self.resolve_alert(key)

    def _language(self) -> str:
        return self.game.language if self.game is not None else self.config.language

    # --- alerts ----------------------------------------------------------------------------

    def raise_alert(
        self,
        key: str,
        code: AlertCode,
        severity: Severity,
        text: str,
        **where: Any,
    ) -> None:
        """Publish an alert that stands until `resolve_alert(key)`."""
        if any(s.key == key for s in self._standing):
            return
        payload: dict[str, Any] = {
            "code": code.value,
            "severity": severity.value,
            "message": text,
            "resolved": False,
            "id": f"{code.value.lower()}-{self.journal.last_seq() + 1}",
            **{k: v for k, v in where.items() if v is not None},
        }
        self._standing.append(_Standing(key, payload))
        self._commit(None, [], extra=[("alert", payload)])

    def resolve_alert(self, key: str) -> None:
        found = [s for s in self._standing if s.key == key]
        if not found:
            return
        self._standing = [s for s in self._standing if s.key != key]
        extra = [("alert", {**s.payload, "resolved": True}) for s in found]
        self._commit(None, [], extra=extra)

    # --- committing ------------------------------------------------------------------------

    def _commit(
        self,
        body: Mapping[str, Any] | None,
        events: Iterable[Event],
        *,
        extra: Sequence[tuple[str, dict[str, Any]]] = (),
        reply_id: str | None = None,
    ) -> None:
        """Journal the input and its events (stamped with seqs), then tell the listeners."""
        if self._replaying:
            return
        events = list(events)
        payloads = [(e.kind, self._payload(e)) for e in events]
        payloads.extend(extra)
        payloads.extend(self._lead_alert(publish=True))
        for _, payload in payloads:
            payload.setdefault("game_id", self.game_id)
        reply = None
        if reply_id is not None:
            reply = {"v": 1, "table": self.config.table, "ts": utc_ts(), "id": reply_id}
            reply |= {"ok": True, "error": None}
        seqs = self.journal.append(dict(body) if body else None, payloads, reply=reply)
        for event, seq in zip(events, seqs, strict=False):
            ref = getattr(event, "ref", 0)
            if event.kind in ("play", "pass") and ref:
                self._numbers.ref_seq[ref] = seq
        result = None
        for seq in seqs:
            stored = self.journal.event(seq)
            if stored is None:
                continue
            self._last = stored.payload
            if stored.kind == "game" and stored.payload["event"] == "over":
                result = stored.payload
            if stored.kind == "alert":  # standing alerts are shown as published
                for standing in self._standing:
                    if standing.payload["id"] == stored.payload["id"]:
                        standing.payload = stored.payload
        published = Published(tuple(seqs), self.state(), result)
        for listener in self.listeners:
            listener(published)

    def _payload(self, event: Event) -> dict[str, Any]:
        body = event.payload()
        body["game_id"] = self.game_id
        if isinstance(event, UndoEvent):
            body["undone"] = self._numbers.ref_seq.get(event.undone, event.undone)
        if isinstance(event, AlertEvent):
            body["id"] = f"{event.code.value.lower()}-{self.journal.last_seq() + 1}"
        if isinstance(event, GameEvent):
            body["game_id"] = self.game_id
        return body

    def _lead_alert(self, *, publish: bool) -> list[tuple[str, dict[str, Any]]]:
        """LEAD_UNKNOWN stands while a lead is down and nobody said who laid it."""
        game = self.game
        waiting = (
            game is not None
            and game.phase is Phase.PLAY
            and game.turn is None
            and len(game.layout) > 0
        )
        standing = next((s for s in self._standing if s.key == "lead"), None)
        if waiting and standing is None and game is not None:
            code = AlertCode.LEAD_UNKNOWN
            payload = {
                "code": code.value,
                "severity": code.severity.value,
                "message": message(code, self._language()),
                "resolved": False,
                "id": f"{code.value.lower()}-{self.journal.last_seq() + 1}",
                "tile": game.layout.nodes[0].tile.text,
            }
            self._standing.append(_Standing("lead", payload))
            return [("alert", dict(payload))] if publish else []
        if not waiting and standing is not None:
            self._standing.remove(standing)
            return [("alert", {**standing.payload, "resolved": True})] if publish else []
        return []


# --- command -> journal input ---------------------------------------------------------------


def _command_input(command: cmd.Command) -> dict[str, Any]:
    body = command.as_dict()
    body.pop("id", None)
    action = body.pop("action")
    body["input"] = action
    if isinstance(command, cmd.NewGame):
        body["seats"] = command.seats
        body["names"] = list(command.names) if command.names else None
        body["teams"] = list(command.teams) if command.teams else None
    return body


def _tile(value: Any) -> Tile:
    try:
        return Tile.parse(str(value))
    except TileError as exc:
        raise CommandRefused(str(exc)) from None


def _play(core: TableCore, game: Game, body: Mapping[str, Any]) -> Judgement:
    where: OpenEnd | Target | None = None
    if body.get("node") is not None:
        where = OpenEnd(int(body["node"]), Edge(int(body["edge"])), int(body["pip"]))
    elif body.get("to") is not None:
        kind = EdgeKind(body["kind"]) if body.get("kind") else None
        where = Target(_tile(body["to"]), body.get("end"), kind)
    coords = None
    if body.get("coords"):
        coords = Coords(*body["coords"])
    return game.play(_tile(body["tile"]), where, coords=coords)


def _count(core: TableCore, game: Game, body: Mapping[str, Any]) -> Judgement:
    """One seat's count; the hand is scored once every seat has one."""
    seat = int(body["seat"])
    if not 0 <= seat < game.seats:
        raise CommandRefused(f"There is no seat {seat}.")
    if game.phase not in (Phase.PLAY, Phase.COUNTING):
        raise CommandRefused("There is no hand to count now.")
    if body.get("tiles") is not None:
        pips = sum(_tile(t).pips for t in body["tiles"])
    else:
        pips = int(body["pips"])
    core._pending_counts[seat] = pips
    needed = [s for s in range(game.seats) if s != game.out_seat]
    if any(s not in core._pending_counts for s in needed):
        return Judgement(Reason.OK)
    counts = [core._pending_counts.get(s, 0) for s in range(game.seats)]
    core._pending_counts = {}
    return game.count(counts)


def _confirm(core: TableCore, game: Game, body: Mapping[str, Any]) -> Judgement:
    """The counts the table made from the seat zones are right: score the hand.

    The journal keeps the tiles counted (`tiles`), so a replay scores the same hand.
    """
    if "tiles" not in body:
        counts = core._zone_counts
        if counts is None:
            raise CommandRefused("The table has not counted any tiles: lay them in the zones.")
        assert isinstance(body, dict)  # journal inputs are dicts: the tiles go into it
        body["tiles"] = [[t.text for t in seat] for seat in counts.tiles]
    return game.count_tiles([[_tile(t) for t in seat] for seat in body["tiles"]])


def _seat_or_turn(body: Mapping[str, Any]) -> int | None:
    seat = body.get("seat")
    return int(seat) if seat is not None else None


_HANDLERS: dict[str, Callable[[TableCore, Game, Mapping[str, Any]], Judgement]] = {
    "play": _play,
    "pass": lambda c, g, b: g.pass_turn(_seat_or_turn(b)),
    "draw": lambda c, g, b: g.draw(_seat_or_turn(b), int(b.get("count", 1))),
    "lead": lambda c, g, b: g.name_leader(int(b["seat"])),
    "out": lambda c, g, b: g.declare_out(int(b["seat"])),
    "undo": lambda c, g, b: g.undo(),
    "correct": lambda c, g, b: g.correct(_tile(b["tile"]), _tile(b["as"])),
    "count": _count,
    "confirm": _confirm,
    "count_tiles": lambda c, g, b: g.count_tiles([[_tile(t) for t in seat] for seat in b["tiles"]]),
    "end_hand": lambda c, g, b: g.end_hand(),
    "next_hand": lambda c, g, b: g.next_hand(),
    "redeal": lambda c, g, b: g.redeal(),
    "rename": lambda c, g, b: _rename(g, int(b["seat"]), str(b["name"])),
}


def _rename(game: Game, seat: int, name: str) -> Judgement:
    if not 0 <= seat < game.seats:
        raise CommandRefused(f"There is no seat {seat}.")
    game.names[seat] = name
    return Judgement(Reason.OK)


def play_input(action: PlayInput) -> dict[str, Any]:
    """A play accepted by the engine as a journal input that replays exactly."""
    body: dict[str, Any] = {"input": "play", "tile": action.tile.text}
    where = action.where
    if isinstance(where, OpenEnd):
        body |= {"node": where.node, "edge": int(where.edge), "pip": where.pip}
    elif isinstance(where, Target):
        body |= {"to": where.to.text, "end": where.pip}
        if where.kind is not None:
            body["kind"] = where.kind.value
    if action.coords is not None:
        body["coords"] = list(action.coords)
    return body


__all__ = ["CommandRefused", "Published", "TableConfig", "TableCore", "play_input"]
