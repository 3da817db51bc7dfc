"""What a game holds beyond the engine's: a tournament desk's seating, its clock, and who
confirmed the result.

spec/mqtt.md: a `new_game` from a desk carries `tournament`, `round`, `players` and
`ends_at`. The table keeps them in `state` (same names, with `last_hand`) and echoes
them in its `game` events and so in `result/<game_id>`. Once `ends_at` has passed, the
hand in play is the last one (`engine.game.Game.call_time`, journaled as a `time` input
when the table notices, so a restart replays it at the same point). At game over the
players confirm the result, seat by seat (`confirm` with `seat`); the state and the
result, published again, then say `confirmed_by` (the seats, in order).

`SeatedGame` holds all of it for the table core in one frozen value (`Seated`), which the
core calls from a few places: `begin` (a new game), `recall` (a stored event replayed),
`state_fields`, `echo` (for `game` events), `time_is_up` (every tick), `confirm` and
`take_confirmed`. The core does not keep it beside the journal: replaying the journal's
inputs and events makes it again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from engine.game import Game, Phase
from engine.inputs import CallTime, NewGame
from mqttweb.envelope import parse_ts, utc_ts
from service.core.kept import NOT_KEPT, Kept
from service.store.journal import JournalEvent

FIELDS = ("tournament", "round", "players", "ends_at")


@dataclass(frozen=True, slots=True)
class Seating(Kept):
    """The desk's fields of one game (each None when the `new_game` did not give it)."""

    tournament: str | None = None
    round: int | None = None
    players: tuple[str, ...] | None = None
    ends_at: str | None = None

    @classmethod
    def of(cls, told: NewGame) -> Seating | None:
        """The seating a `new_game` input names, or None for a game no desk seated."""
        if all(getattr(told, name) is None for name in FIELDS):
            return None
        return cls(told.tournament, told.round, told.players, told.ends_at)

    def fields(self) -> dict[str, Any]:
        """The four fields as `state` and `game` events carry them (null when not given)."""
        players = list(self.players) if self.players is not None else None
        return {"tournament": self.tournament, "round": self.round, "players": players,
                "ends_at": self.ends_at}  # fmt: skip

    def deadline(self) -> datetime | None:
        return parse_ts(self.ends_at) if self.ends_at is not None else None


@dataclass(frozen=True, slots=True)
class Seated(Kept):
    """The current game's seating (None: no desk seated it) and its clock's end, the
    seats that confirmed its result, the stored `game` event that ended it, and whether a
    confirmation's result is still to be published again."""

    seating: Seating | None = None
    deadline: datetime | None = field(default=None, init=False, metadata=NOT_KEPT)  # ends_at
    confirmed: tuple[int, ...] = ()
    result: Mapping[str, Any] | None = None
    unsent: bool = False

    def __post_init__(self) -> None:
        seating = self.seating
        deadline = seating.deadline() if seating is not None else None
        object.__setattr__(self, "deadline", deadline)


class ConfirmError(ValueError):
    """A confirmation that cannot be taken now; the message says why."""


class SeatedGame:
    """The current game's seating, clock and confirmations (see the module's doc)."""

    def __init__(self, now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.now = now
        self.value = Seated()

    @property
    def seating(self) -> Seating | None:
        return self.value.seating

    def begin(self, told: NewGame) -> None:
        """A new game (its `new_game` input) replaces everything the last one left."""
        self.value = Seated(seating=Seating.of(told))

    def recall(self, stored: Sequence[JournalEvent | None]) -> None:
        """Events as stored (live or replayed): keep the `game` event that ended the game."""
        for event in stored:
            if event is not None and event.kind == "game" and event.payload.get("event") == "over":
                self.value = replace(self.value, result=event.payload)

    # --- what the table publishes ------------------------------------------------------

    def echo(self) -> dict[str, Any]:
        """The fields a `game` event carries besides the engine's (none for a casual game)."""
        seating = self.value.seating
        return seating.fields() if seating is not None else {}

    def state_fields(self, game: Game) -> dict[str, Any]:
        """The fields `state` carries besides the engine's."""
        out = self.echo()
        if self.value.seating is not None:
            out["last_hand"] = game.last_hand
        if self.value.confirmed:
            out["confirmed_by"] = list(self.value.confirmed)
        return out

    # --- the clock -----------------------------------------------------------------------

    def time_is_up(self, game: Game) -> bool:
        """The clock ran out and the game has not been told yet (it is not over)."""
        deadline = self.value.deadline
        if deadline is None or game.last_hand or game.phase is Phase.OVER:
            return False
        return self.now() >= deadline

    def time_input(self) -> CallTime:
        """The input that tells the game its time is up (the journal keeps it)."""
        return CallTime(utc_ts(self.now()))

    # --- confirming the result ---------------------------------------------------------

    def confirm(self, game: Game, seat: int | None) -> None:
        """`seat` confirms the finished game's result (ConfirmError when it cannot)."""
        if game.phase is not Phase.OVER:
            raise ConfirmError("The game is not over: there is no result to confirm yet.")
        if seat is None:
            raise ConfirmError('Say who confirms the result: "confirm" with "seat".')
        if not 0 <= seat < game.seats:
            raise ConfirmError(f"There is no seat {seat}.")
        if seat not in self.value.confirmed:
            confirmed = (*self.value.confirmed, seat)
            self.value = replace(self.value, confirmed=confirmed, unsent=True)

    def take_confirmed(self) -> dict[str, Any] | None:
        """The result to publish again, once, after a confirmation: the `game` event that
        ended the game with `confirmed_by`."""
        value = self.value
        if not value.unsent or value.result is None:
            return None
        self.value = replace(value, unsent=False)
        return {**value.result, "confirmed_by": list(value.confirmed)}
