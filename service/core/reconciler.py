"""Settled snapshots of the surface -> engine inputs (plays, take-backs) and alerts.

PicoChess's reconciliation order, on whole settled snapshots (never raw events):

1. unchanged: the accepted layout is on the table, nothing else (small nudges of
   accepted tiles are fine and update their coordinates);
2. new tiles that are legal plays by geometry (`engine.geometry.locate`), one, or a
   quick pair in sequence: `game.play` each, for the turn seat, in the order they
   were first seen in any snapshot (judged or not);
3. the last accepted play is gone: `game.undo()` (then the rest of the snapshot is
   judged again, so a last play slid to another end is taken back and played there);
   unless a new tile lies against its open end: then it was not read, not taken back
   (UNREADABLE, a warning, after the grace time, until it is read again);
4. a known position again (the accepted layout, e.g. a lifted tile put back): a
   standing alert is resolved;
5. else an illegal position: the engine's judgement of the new tile (NO_MATCH,
   NOT_TOUCHING, CLOSED_END, DUPLICATE_TILE, UNKNOWN_TILE, BAD_LEAD) or TILE_LIFTED
   (an accepted tile other than the last play left the layout), reported only once the
   position has stayed so for `grace_s` seconds (a tile being adjusted is no offence),
   and standing until the surface is legal again, when it is resolved.

At the end of a hand (phase `counting`) tiles lying in a seat's zone are that seat's
tiles (`ZoneCounts`); an empty surface after `hand_over` is `Cleared`. See
docs/design/reconciler.md.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, TypeVar

from engine.alerts import AlertCode, Severity
from engine.events import Coords, Judgement, Reason
from engine.game import DrawInput, Game, Phase, PlayInput, Target
from engine.geometry import DEFAULT_TOLERANCE_MM, TileSize, touching
from engine.layout import JoinProblem, Layout, OpenEnd
from engine.messages import Case, Key, message
from engine.surface import SeenTile, Snapshot
from engine.tiles import Tile
from service.core.kept import BY_TILE, NOT_KEPT, Kept

log = logging.getLogger(__name__)


# --- outcomes ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Accepted:
    """The engine accepted an input taken from the surface (a play, or a take-back)."""

    judgement: Judgement


@dataclass(frozen=True, slots=True)
class SurfaceAlert(Kept):
    """An illegal position that stayed for the grace time; it stands until `Resolved`.

    `reason` is the engine's, when the engine judged it (None for what only the
    reconciler sees: TILE_LIFTED, UNREADABLE); `seat` the turn seat.
    """

    code: AlertCode
    tile: Tile | None
    coords: Coords | None
    message: str
    seat: int | None = None
    reason: Reason | None = None

    @property
    def key(self) -> str:
        """What names this alert in `Resolved`: its code and tile (`NO_MATCH:5-3`)."""
        return f"{self.code}:{self.tile}" if self.tile is not None else self.code.value

    @property
    def severity(self) -> Severity:
        return self.reason.severity if self.reason is not None else self.code.severity


@dataclass(frozen=True, slots=True)
class Resolved:
    """The standing alert `key` is over: the surface is legal (or known) again."""

    key: str


@dataclass(frozen=True, slots=True)
class ZoneCounts:
    """The tiles lying face up in each seat's zone (index = seat), at the end of a hand."""

    tiles: tuple[tuple[Tile, ...], ...]

    @property
    def pips(self) -> tuple[int, ...]:
        return tuple(sum(t.pips for t in seat) for seat in self.tiles)

    def to_json(self) -> list[list[str]]:
        """The tiles of each seat as text, as the table keeps them."""
        return [[t.text for t in seat] for seat in self.tiles]

    @classmethod
    def from_json(cls, data: Sequence[Sequence[str]]) -> ZoneCounts:
        return cls(tuple(tuple(Tile.parse(t) for t in seat) for seat in data))


@dataclass(frozen=True, slots=True)
class Cleared:
    """The surface is empty after the hand was scored: the next hand can start."""


Outcome = Accepted | SurfaceAlert | Resolved | ZoneCounts | Cleared


@dataclass(frozen=True, slots=True)
class SeatZone:
    """A rectangle of the surface (mm) where a seat lays its tiles at the end of a hand."""

    seat: int
    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1


# --- helpers ------------------------------------------------------------------------------------


def coords_of(seen: SeenTile) -> Coords:
    """The engine's coordinates of a seen tile: (xa, ya) is the half with the high number."""
    h = seen.high_first()
    return Coords(round(h.xa), round(h.ya), round(h.xb), round(h.yb))


def _half_gap(placed: SeenTile, seen: SeenTile) -> float:
    """How far `seen` lies from `placed` (the same tile): the worse of its two halves."""
    p, s = placed.high_first(), seen.high_first()

    def worst(ax: float, ay: float, bx: float, by: float) -> float:
        return max(math.hypot(s.xa - ax, s.ya - ay), math.hypot(s.xb - bx, s.yb - by))

    straight = worst(p.xa, p.ya, p.xb, p.yb)
    if p.a != p.b and (p.a, p.b) == (s.a, s.b):
        return straight
    return min(straight, worst(p.xb, p.yb, p.xa, p.ya))  # a double, or read otherwise


def _last_input_is_play(game: Game, tile: Tile) -> bool:
    """Whether `game.undo()` would take back the play of `tile` (not a later pass);
    draws told after it do not stop it (`undo` takes them back with the play)."""
    for action in reversed(game.hand_inputs()):
        if isinstance(action, DrawInput):
            continue
        return isinstance(action, PlayInput) and action.tile is tile
    return False


SeenByTile = Annotated[Mapping[Tile, SeenTile], BY_TILE]
"""Tiles and where each lies, kept as where they lie."""


@dataclass(frozen=True, slots=True)
class Memory(Kept):
    """What a reconciler knows beyond its game, in one value (`Reconciler.memory`).

    The reconciler holds nothing else: it reads `self._m.<field>` and makes a new value
    for each change. A change the journal could not store puts the value back
    (`Reconciler.recall`); the table keeps it with each change (`as_dict`) and reads it
    back after a restart (`from_dict`), but for the fields `NOT_KEPT`: where the tiles
    lie and a pending alert's grace time (the first snapshot after a restart says where
    they lie, and a pending alert waits its grace time again).

    A new field is one line here, with its default: it is put back, kept and read back
    with the rest (a value kept before it reads back with the default).
    """

    # each layout tile where it was last seen in place
    placed: SeenByTile = field(default_factory=dict, metadata=NOT_KEPT)
    # an illegal position waiting for its grace time, since when (the reconciler's clock)
    pending: SurfaceAlert | None = field(default=None, metadata=NOT_KEPT)
    pending_since: float = field(default=0.0, metadata=NOT_KEPT)
    standing: SurfaceAlert | None = None  # raised, standing until the surface is legal
    hand: int = 0  # the game's hand these are of
    counts: ZoneCounts | None = None  # the tiles last counted in the seat zones
    cleared: bool = False  # the surface was seen empty after the hand was scored
    known: tuple[Tile, ...] = ()  # the layout as last left
    ignored: SeenByTile = field(default_factory=dict)  # taken back by a command, still there
    aliases: Mapping[Tile, Tile] = field(default_factory=dict)  # as read -> corrected to
    looks: int = 0  # snapshots seen so far, judged or not (a clock for `first_seen`)
    first_seen: Mapping[Tile, int] = field(default_factory=dict)  # not in the layout: since
    surface: tuple[SeenTile, ...] = ()  # the tiles of the latest snapshot


K = TypeVar("K")


def _without(mapping: Mapping[K, Any], keys: Iterable[K]) -> dict[K, Any]:
    """`mapping` without `keys`, in its order."""
    gone = set(keys)
    return {k: v for k, v in mapping.items() if k not in gone}


@dataclass(slots=True)
class _Match:
    """A snapshot against the accepted layout."""

    matched: dict[int, SeenTile] = field(default_factory=dict)  # node -> where it is now
    missing: list[int] = field(default_factory=list)  # nodes not seen in place
    extras: list[SeenTile] = field(default_factory=list)  # seen tiles not in the layout


# --- the reconciler -------------------------------------------------------------------------------


class Reconciler:
    """Turns settled snapshots into engine inputs for `game` (a table-mode Game).

    `observe(snapshot)` judges one settled snapshot; `tick(now)` lets the grace timer
    run out between snapshots. Both return a list of outcomes. `tolerance_mm` is how
    near a new tile must lie to an edge it joins; `match_mm` how far an accepted tile
    may be nudged and still count as in place. `zones` are the seats' counting areas.
    """

    def __init__(
        self,
        game: Game,
        size: TileSize,
        grace_s: float = 1.5,
        clock: Callable[[], float] = time.monotonic,
        *,
        zones: Sequence[SeatZone] = (),
        tolerance_mm: float = DEFAULT_TOLERANCE_MM,
        match_mm: float = 10.0,
    ) -> None:
        self.game = game
        self.size = size
        self.grace_s = grace_s
        self.clock = clock
        self.zones = tuple(zones)
        self.tolerance_mm = tolerance_mm
        self.match_mm = match_mm
        self._m = Memory(hand=game.hand_no, known=tuple(game.layout.tiles()))

    # --- memory ----------------------------------------------------------------------------

    def memory(self) -> Memory:
        """What this reconciler knows beyond its game (a frozen value)."""
        return self._m

    def recall(self, memory: Memory) -> None:
        """Know again what `memory` holds (of this game, rebuilt from its journal)."""
        self._m = memory

    @property
    def surface(self) -> tuple[SeenTile, ...]:
        """The tiles of the latest snapshot, as seen."""
        return self._m.surface

    def follow(self) -> None:
        """Follow a command's change to the game now (a new hand, a play taken back, a
        tile corrected), as the next snapshot would, so `memory()` tells it at once."""
        self._new_hand_check()
        self._catch_up()

    def ignore(self, tiles: Sequence[SeenTile]) -> None:
        """Tiles that lie on the surface but are no plays of this hand (the last game's or
        hand's, still there when a new one starts): left alone until moved or lifted."""
        self.follow()
        in_layout = set(self.game.layout.tiles())
        left = {s.tile: s for s in tiles if s.tile not in in_layout}
        self._m = replace(self._m, ignored={**self._m.ignored, **left})

    # --- reading ---------------------------------------------------------------------------

    @property
    def standing(self) -> SurfaceAlert | None:
        """The alert standing now, if any."""
        return self._m.standing

    def placed(self) -> list[SeenTile | None]:
        """Where each layout tile lies (index = node), as last seen in place."""
        return [self._m.placed.get(n.tile) for n in self.game.layout.nodes]

    def status(self) -> dict[str, object]:
        m = self._m
        return {
            "placed": len(m.placed),
            "pending": m.pending.key if m.pending else None,
            "standing": m.standing.key if m.standing else None,
        }

    # --- inputs -----------------------------------------------------------------------------

    def observe(self, snapshot: Snapshot) -> list[Outcome]:
        """Judge one settled snapshot of the surface."""
        self._new_hand_check()
        self._catch_up()
        self._note_new(snapshot)
        if snapshot.unsure:
            log.debug("reconciler: %d unsure spots, snapshot not judged", len(snapshot.unsure))
            return []
        tiles = self._unignored(snapshot.tiles)
        phase = self.game.phase
        out: list[Outcome] = []
        if phase is Phase.LEAD or phase is Phase.PLAY:
            out = self._judge_play(tiles, undo_allowed=True)
        elif phase is Phase.COUNTING or phase is Phase.HAND_OVER:
            out = self._settle() + self._count(tiles)
        known = tuple(self.game.layout.tiles())
        if known != self._m.known:
            self._m = replace(self._m, known=known)
        return out

    def _note_new(self, snapshot: Snapshot) -> None:
        """Remember the snapshot's tiles, and when each tile not in the layout was first
        seen, in every snapshot, judged or not: when several new tiles are judged at once
        (the source read none of the snapshots between them surely), they are played in
        the order they came. A tile a sure snapshot no longer holds is forgotten (lifted);
        one missing from an unsure snapshot may just not have been read there."""
        looks = self._m.looks + 1
        in_layout = set(self.game.layout.tiles())
        here = {s.tile for s in snapshot.tiles}
        first_seen = {
            t: n
            for t, n in self._m.first_seen.items()
            if t not in in_layout and (snapshot.unsure or t in here)
        }
        for tile in here - in_layout:
            first_seen.setdefault(tile, looks)
        surface = tuple(snapshot.tiles)
        self._m = replace(self._m, surface=surface, looks=looks, first_seen=first_seen)

    def tick(self, now: float | None = None) -> list[Outcome]:
        """Raise the pending alert if its grace time has run out by `now`."""
        now = self.clock() if now is None else now
        pending = self._m.pending
        if pending is not None and now - self._m.pending_since >= self.grace_s:
            return self._raise(pending)
        return []

    # --- play -----------------------------------------------------------------------------------

    def _judge_play(self, tiles: Sequence[SeenTile], *, undo_allowed: bool) -> list[Outcome]:
        game = self.game
        self._sync(tiles)
        match = self._match(tiles)
        placed, nodes = self._m.placed, game.layout.nodes
        moved = {nodes[n].tile: s for n, s in match.matched.items()}
        moved = {tile: s for tile, s in moved.items() if placed.get(tile) != s}
        if moved:
            self._m = replace(self._m, placed={**placed, **moved})
        if match.missing:
            last = len(game.layout.nodes) - 1
            tile = game.layout.nodes[last].tile
            if match.missing == [last] and self._joined_to(last, match.extras):
                # A new tile lies against the last play's open end, but the play itself
                # is not read: it cannot have been taken back (the new tile would join
                # nothing), so the source lost it (merged with a neighbour, glare).
                # Neither a take-back nor a play to judge: unreadable until it is seen.
                return self._pend(self._unread(last))
            if (
                undo_allowed
                and match.missing == [last]
                and _last_input_is_play(game, tile)
                and not self._read_otherwise(tile, match.extras)
            ):
                undone = game.undo()
                if undone.ok:
                    self._m = replace(self._m, placed=_without(self._m.placed, [tile]))
                    log.info("reconciler: %s taken back", tile)
                    return [Accepted(undone), *self._judge_play(tiles, undo_allowed=False)]
            lifted = next((n for n in match.missing if n != last), match.missing[0])
            return self._pend(self._lifted(lifted))
        if not match.extras:
            return self._settle()
        accepted, problem = self._try_plays(match.extras)
        if problem is None:
            return [*accepted, *self._settle()]
        return self._pend(problem)

    def _catch_up(self) -> None:
        """Follow what commands did to the layout since the last snapshot: a play or pass
        taken back (UNDO) leaves its tile lying there, not to be played again until it
        is moved; a corrected reading (`correct`) keeps its place under its new name."""
        m = self._m
        now, before = tuple(self.game.layout.tiles()), m.known
        if now == before:
            return
        placed, ignored, aliases = dict(m.placed), dict(m.ignored), dict(m.aliases)
        if now == before[: len(now)]:
            for tile in before[len(now) :]:
                left = placed.pop(tile, None)
                if left is not None:
                    ignored[tile] = left
        elif len(now) == len(before):
            for old, new in zip(before, now, strict=True):
                if old is not new:
                    aliases[old] = new
                    seen = placed.pop(old, None)
                    if seen is not None:
                        placed[new] = seen
        self._m = replace(m, known=now, placed=placed, ignored=ignored, aliases=aliases)

    def _unignored(self, tiles: Sequence[SeenTile]) -> list[SeenTile]:
        """The snapshot without tiles taken back by a command and still lying in place;
        a tile moved or lifted since is no longer ignored."""
        if not self._m.ignored:
            return list(tiles)
        ignored = dict(self._m.ignored)
        out = []
        for seen in tiles:
            left = ignored.get(seen.tile)
            if left is not None and _half_gap(left, seen) <= self.match_mm:
                continue
            out.append(seen)
        for tile in [t for t in ignored if not any(s.tile is t for s in tiles)]:
            del ignored[tile]
        for seen in tiles:
            left = ignored.get(seen.tile)
            if left is not None and _half_gap(left, seen) > self.match_mm:
                del ignored[seen.tile]
        self._m = replace(self._m, ignored=ignored)
        return out

    def _joined_to(self, node: int, extras: Sequence[SeenTile]) -> bool:
        """Whether a new tile (not the node's own tile) joins an open end of `node` where
        it lay: the geometry says the node is still there, whatever was read."""
        layout = self.game.layout
        tile = layout.nodes[node].tile
        if self._m.placed.get(tile) is None:
            return False
        coords = self._node_coords(layout)
        for seen in extras:
            if seen.tile is tile:
                continue
            touch = touching(layout, coords, seen, self.size, self.tolerance_mm)
            if touch is not None and touch.end is not None and touch.end.node == node:
                return True
        return False

    def _unread(self, node: int) -> SurfaceAlert:
        return self._about_node(node, AlertCode.UNREADABLE, Case.UNREAD_TILE)

    def _read_otherwise(self, tile: Tile, extras: Sequence[SeenTile]) -> bool:
        """Whether another tile lies just where `tile` lay: a misreading (to be corrected
        with the `correct` command) or a swap, never a take-back."""
        placed = self._m.placed.get(tile)
        if placed is None:
            return False
        for seen in extras:
            if seen.tile is tile:
                continue
            moved = SeenTile(placed.a, placed.b, seen.xa, seen.ya, seen.xb, seen.yb)
            swapped = SeenTile(placed.a, placed.b, seen.xb, seen.yb, seen.xa, seen.ya)
            if min(_half_gap(placed, moved), _half_gap(placed, swapped)) <= self.match_mm:
                return True
        return False

    def _sync(self, tiles: Sequence[SeenTile]) -> None:
        """Forget coordinates of tiles no longer in the layout (undo, correction, new hand);
        adopt where a layout tile lies when the game knows it and we did not (a command,
        a restart): where it is seen, or else where its misreading is (`correct`)."""
        in_layout = {n.tile for n in self.game.layout.nodes}
        placed = {t: s for t, s in self._m.placed.items() if t in in_layout}
        aliases = self._m.aliases
        for tile in in_layout - placed.keys():
            seen = next((s for s in tiles if s.tile is tile), None) or next(
                (s for s in tiles if aliases.get(s.tile) is tile), None
            )
            if seen is not None:
                placed[tile] = seen
        if placed != self._m.placed:
            self._m = replace(self._m, placed=placed)

    def _match(self, tiles: Sequence[SeenTile]) -> _Match:
        out = _Match()
        free = list(tiles)
        where, aliases = self._m.placed, self._m.aliases
        for index, node in enumerate(self.game.layout.nodes):
            placed = where.get(node.tile)
            near = [
                (_half_gap(placed, s), i)
                for i, s in enumerate(free)
                if placed is not None and (s.tile is node.tile or aliases.get(s.tile) is node.tile)
            ]
            near = [(gap, i) for gap, i in near if gap <= self.match_mm]
            if not near:
                out.missing.append(index)
                continue
            _, i = min(near)
            out.matched[index] = free.pop(i)
        out.extras = free
        return out

    def _node_coords(self, layout: Layout) -> list[SeenTile]:
        far = SeenTile(0, 0, -1e6, -1e6, -1e6, -1e6)  # a tile we cannot place touches nothing
        return [self._m.placed.get(n.tile, far) for n in layout.nodes]

    def _try_plays(self, extras: Sequence[SeenTile]) -> tuple[list[Outcome], SurfaceAlert | None]:
        """Play every new tile, in an order where each is legal, or say what is wrong."""
        layout = self.game.layout.copy()
        coords = self._node_coords(layout)
        # The order they were first seen in; among tiles first seen in one snapshot,
        # the order it lists them (the camera lists tiles in the order its readings
        # first held them), and on an empty layout doubles first, highest first.
        listed = {s.tile: i for i, s in enumerate(extras)}
        first_seen, looks = self._m.first_seen, self._m.looks
        lead = not layout.nodes
        remaining = sorted(
            extras,
            key=lambda s: (
                first_seen.get(s.tile, looks + 1),
                lead and not s.tile.is_double,
                -s.tile.high if lead else 0,
                listed[s.tile],
            ),
        )
        order: list[tuple[SeenTile, OpenEnd | None]] = []
        while remaining:
            step = next(
                (
                    (s, where)
                    for s in remaining
                    for where in [self._where(layout, coords, s)]
                    if not isinstance(where, JoinProblem)
                ),
                None,
            )
            if step is None:
                return [], self._illegal(remaining[0], layout, coords)
            seen, end = step
            layout.place(seen.tile, end)
            coords.append(seen)
            order.append((seen, end))
            remaining.remove(seen)
        return self._commit(order)

    def _where(
        self, layout: Layout, coords: Sequence[SeenTile], seen: SeenTile
    ) -> OpenEnd | JoinProblem | None:
        """The open end `seen` joins by geometry and pips (None: it leads), or why not."""
        if not layout.nodes:
            return None
        if layout.index_of(seen.tile) is not None:
            return JoinProblem.NOT_TOUCHING
        touch = touching(layout, coords, seen, self.size, self.tolerance_mm)
        if touch is None:
            return JoinProblem.NOT_TOUCHING
        if touch.end is None:
            return JoinProblem.CLOSED_END
        return touch.end if touch.end.pip == touch.pip else JoinProblem.NO_MATCH

    def _commit(
        self, order: Sequence[tuple[SeenTile, OpenEnd | None]]
    ) -> tuple[list[Outcome], SurfaceAlert | None]:
        game = self.game
        done: list[Outcome] = []
        for seen, where in order:
            judged = game.play(seen.tile, where, coords=coords_of(seen))
            if not judged.ok:
                problem = self._from_judgement(judged, seen)
                if done and game.phase in (Phase.LEAD, Phase.PLAY, Phase.COUNTING):
                    for _ in done:  # the quick pair was not legal after all: nothing changes
                        game.undo()
                    laid = [s.tile for s, _ in order[: len(done)]]
                    self._m = replace(self._m, placed=_without(self._m.placed, laid))
                    return [], problem
                return done, problem
            self._m = replace(self._m, placed={**self._m.placed, seen.tile: seen})
            log.info("reconciler: %s played at %s", seen.tile, where)
            done.append(Accepted(judged))
        return done, None

    # --- problems -----------------------------------------------------------------------------

    def _illegal(self, seen: SeenTile, layout: Layout, coords: Sequence[SeenTile]) -> SurfaceAlert:
        """The engine's judgement of a new tile that is no legal play where it lies."""
        game = self.game
        tile = seen.tile
        if layout.index_of(tile) is not None:  # seen twice in one snapshot
            return self._problem(Reason.DUPLICATE_TILE, seen)
        if not game.set.contains(tile):
            return self._problem(Reason.UNKNOWN_TILE, seen)
        if game.layout.nodes:  # the engine's own refusals first (phase, duplicate)
            probe = game.play(tile, Target(tile), coords=coords_of(seen))  # names no layout tile
            if probe.ok:  # pragma: no cover - cannot happen: Target(tile) joins nothing
                game.undo()
            elif probe.reason is not Reason.NOT_TOUCHING:
                return self._from_judgement(probe, seen)
        touch = touching(layout, coords, seen, self.size, self.tolerance_mm)
        if touch is None:
            return self._problem(Reason.NOT_TOUCHING, seen)
        if touch.end is None:
            return self._problem(Reason.CLOSED_END, seen)
        return self._problem(Reason.NO_MATCH, seen, pip=touch.end.pip)

    def _problem(self, reason: Reason, seen: SeenTile, pip: int | None = None) -> SurfaceAlert:
        game = self.game
        turn = game.turn
        text = message(
            reason,
            game.language,
            tile=seen.tile,
            pip=pip,
            seat=game.names[turn] if turn is not None else None,
            turn=game.names[turn] if turn is not None else None,
        )
        return SurfaceAlert(reason.alert_code, seen.tile, coords_of(seen), text, turn, reason)

    def _from_judgement(self, judged: Judgement, seen: SeenTile) -> SurfaceAlert:
        alert = next((e for e in judged.events if e.kind == "alert"), None)
        text = getattr(alert, "message", None) or judged.reason.value
        seat = getattr(alert, "seat", None)
        return SurfaceAlert(
            judged.reason.alert_code, seen.tile, coords_of(seen), text, seat, judged.reason
        )

    def _lifted(self, node: int) -> SurfaceAlert:
        return self._about_node(node, AlertCode.TILE_LIFTED, AlertCode.TILE_LIFTED)

    def _about_node(self, node: int, code: AlertCode, saying: Key) -> SurfaceAlert:
        """An alert about a layout tile, where it was last seen, in the table's language."""
        game = self.game
        tile = game.layout.nodes[node].tile
        placed = self._m.placed.get(tile)
        text = message(saying, game.language, tile=tile)
        at = coords_of(placed) if placed is not None else None
        return SurfaceAlert(code, tile, at, text)

    # --- the grace timer and the standing alert ------------------------------------------------

    def _pend(self, problem: SurfaceAlert) -> list[Outcome]:
        m = self._m
        if m.standing is not None and m.standing.key == problem.key:
            self._m = replace(m, pending=None)
            return []
        now = self.clock()
        if m.pending is None or m.pending.key != problem.key:
            self._m = replace(m, pending=problem, pending_since=now)
        return self.tick(now)

    def _raise(self, problem: SurfaceAlert) -> list[Outcome]:
        out: list[Outcome] = []
        if self._m.standing is not None:
            out.append(Resolved(self._m.standing.key))
        self._m = replace(self._m, standing=problem, pending=None)
        log.warning("reconciler: %s", problem.message)
        out.append(problem)
        return out

    def _settle(self) -> list[Outcome]:
        """The surface is legal: nothing pending, the standing alert (if any) resolved."""
        standing = self._m.standing
        if standing is not None or self._m.pending is not None:
            self._m = replace(self._m, pending=None, standing=None)
        if standing is None:
            return []
        log.info("reconciler: %s resolved", standing.key)
        return [Resolved(standing.key)]

    # --- the end of a hand -----------------------------------------------------------------------

    def _new_hand_check(self) -> None:
        game = self.game
        if game.hand_no != self._m.hand:
            self._m = replace(
                self._m, hand=game.hand_no, placed={}, ignored={}, aliases={}, first_seen={},
                known=tuple(game.layout.tiles()), counts=None, cleared=False,
            )  # fmt: skip

    def _count(self, tiles: Sequence[SeenTile]) -> list[Outcome]:
        if self.game.phase is Phase.HAND_OVER:
            if tiles or self._m.cleared:
                return []
            self._m = replace(self._m, cleared=True)
            return [Cleared()]
        if not self.zones:
            return []
        self._sync(tiles)
        extras = self._match(tiles).extras
        per_seat: list[list[Tile]] = [[] for _ in range(self.game.seats)]
        for seen in extras:
            x, y = seen.centre
            zone = next((z for z in self.zones if z.contains(x, y)), None)
            if zone is not None and 0 <= zone.seat < len(per_seat):
                per_seat[zone.seat].append(seen.tile)
        counts = ZoneCounts(tuple(tuple(sorted(ts, reverse=True)) for ts in per_seat))
        if counts == self._m.counts:
            return []
        self._m = replace(self._m, counts=counts)
        return [counts]
