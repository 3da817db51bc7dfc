"""What the engine decides: judgements with reasons, and the events a game emits.

Every event has a `kind` (the last part of its MQTT topic, `event/<kind>`) and
`payload()`: the fields of spec/mqtt.md that the engine knows. The service adds the
envelope (`v`, `table`, `ts`, `seq`, `game_id`).

Events are named tuples: immutable, and four times cheaper to make than frozen
dataclasses, which matters on the engine's hot path (a play makes one). Like any tuples
they compare by value: compare `kind` too when telling events apart.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

from engine.alerts import AlertCode, Severity


class Reason(Enum):
    """Why a play, pass or count was refused (or OK). Each maps onto an `AlertCode`."""

    OK = "ok"
    NO_MATCH = "no_match"  # touches an end showing another number
    NOT_TOUCHING = "not_touching"  # joins no open end
    CLOSED_END = "closed_end"  # a spinner arm or a double's side not open (yet)
    AMBIGUOUS_END = "ambiguous_end"  # fits two ends with different numbers: which one?
    UNKNOWN_TILE = "unknown_tile"  # not in this set
    DUPLICATE_TILE = "duplicate_tile"  # already on the table
    COUNTED_TWICE = "counted_twice"  # in one seat's count twice, or for two seats
    BAD_LEAD = "bad_lead"  # this tile (or seat) may not lead
    LEAD_UNKNOWN = "lead_unknown"  # waiting to be told who led
    EARLY_OUT = "early_out"  # a seat cannot be out yet
    FALSE_KNOCK = "false_knock"  # passed holding a tile that fitted
    COUNT_MISMATCH = "count_mismatch"  # counts disagree with the game
    NOT_IN_HAND = "not_in_hand"  # (full information) the seat does not hold that tile
    OUT_OF_TURN = "out_of_turn"  # another seat's turn
    WRONG_PHASE = "wrong_phase"  # not now (e.g. a play while hands are counted)
    NO_DRAWING = "no_drawing"  # a draw the rules forbid (block game, one a turn, could play)
    MUST_DRAW = "must_draw"  # a pass before the draw the rules ask for
    BONEYARD_EMPTY = "boneyard_empty"
    NOTHING_TO_UNDO = "nothing_to_undo"

    @property
    def alert_code(self) -> AlertCode:
        """The alert code of spec/mqtt.md this reason is reported under (OK has none)."""
        return _ALERT_CODES[self]

    @property
    def severity(self) -> Severity:
        """How urgent an alert for this reason is: its code's severity."""
        return _ALERT_CODES[self].severity


# One line per reason. Inputs out of turn or out of the hand's phase (an undo with nothing
# to take back, a pass before the draw the rules ask for) are OUT_OF_TURN and the draws
# the rules forbid BAD_DRAW, always `illegal`; COUNT_MISMATCH is kept for counts, and for
# a tile a known hand does not hold (full information).
_ALERT_CODES = {
    Reason.NO_MATCH: AlertCode.NO_MATCH,
    Reason.NOT_TOUCHING: AlertCode.NOT_TOUCHING,
    Reason.CLOSED_END: AlertCode.CLOSED_END,
    Reason.AMBIGUOUS_END: AlertCode.NOT_TOUCHING,
    Reason.UNKNOWN_TILE: AlertCode.UNKNOWN_TILE,
    Reason.DUPLICATE_TILE: AlertCode.DUPLICATE_TILE,
    Reason.COUNTED_TWICE: AlertCode.DUPLICATE_TILE,
    Reason.BAD_LEAD: AlertCode.BAD_LEAD,
    Reason.LEAD_UNKNOWN: AlertCode.LEAD_UNKNOWN,
    Reason.EARLY_OUT: AlertCode.EARLY_OUT,
    Reason.FALSE_KNOCK: AlertCode.FALSE_KNOCK,
    Reason.COUNT_MISMATCH: AlertCode.COUNT_MISMATCH,
    Reason.NOT_IN_HAND: AlertCode.COUNT_MISMATCH,
    Reason.OUT_OF_TURN: AlertCode.OUT_OF_TURN,
    Reason.WRONG_PHASE: AlertCode.OUT_OF_TURN,
    Reason.MUST_DRAW: AlertCode.OUT_OF_TURN,
    Reason.NOTHING_TO_UNDO: AlertCode.OUT_OF_TURN,
    Reason.NO_DRAWING: AlertCode.BAD_DRAW,
    Reason.BONEYARD_EMPTY: AlertCode.BAD_DRAW,
}


class HandResult(Enum):
    DOMINO = "domino"
    BLOCKED = "blocked"
    REDEALT = "redealt"  # abandoned unscored by `redeal`: only ever a `hand` event's result


class Termination(Enum):
    """Why a game ended."""

    TARGET_REACHED = "target_reached"
    BEST_OF_WON = "best_of_won"
    TIME = "time"  # the round's clock ran out and the hand in play was scored
    AGREED = "agreed"  # the players (or the desk) ended it

    @property
    def reason(self) -> str:
        """The `game` event's `reason` (spec/mqtt.md): target, rounds, time or agreed."""
        return _GAME_REASONS[self]


_GAME_REASONS = {
    Termination.TARGET_REACHED: "target",
    Termination.BEST_OF_WON: "rounds",
    Termination.TIME: "time",
    Termination.AGREED: "agreed",
}


class Coords(NamedTuple):
    """Where a tile lies: `xa, ya` is the centre of the half showing its high number."""

    xa: int
    ya: int
    xb: int
    yb: int

    def fields(self) -> dict[str, int]:
        return {"xa": self.xa, "ya": self.ya, "xb": self.xb, "yb": self.yb}


class PlayEvent(NamedTuple):
    hand: int
    seat: int | None
    tile: str
    points: int
    ends_total: int
    score: int
    announce: tuple[str, ...] = ()
    coords: Coords | None = None
    ref: int = 0  # the engine's number for this play within the game (for undo)

    @property
    def kind(self) -> str:
        return "play"

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "seat": self.seat,
            "tile": self.tile,
            "points": self.points,
            "ends_total": self.ends_total,
            "score": self.score,
            "announce": list(self.announce),
        }
        if self.coords is not None:
            out.update(self.coords.fields())
        return out


class PassEvent(NamedTuple):
    hand: int
    seat: int | None
    ref: int = 0

    @property
    def kind(self) -> str:
        return "pass"

    def payload(self) -> dict[str, Any]:
        return {"hand": self.hand, "seat": self.seat}


class DrawEvent(NamedTuple):
    hand: int
    seat: int
    drawn: int  # how many tiles (published as `count`)

    @property
    def kind(self) -> str:
        return "draw"

    def payload(self) -> dict[str, Any]:
        return {"hand": self.hand, "seat": self.seat, "count": self.drawn}


class LeadEvent(NamedTuple):
    hand: int
    seat: int

    @property
    def kind(self) -> str:
        return "lead"

    def payload(self) -> dict[str, Any]:
        return {"hand": self.hand, "seat": self.seat}


class UndoEvent(NamedTuple):
    hand: int
    undone: int  # the `ref` of the play or pass taken back
    points: int
    # The tiles told drawn after it, taken back with it: the players return them to the
    # boneyard, face down (spec/mqtt.md's `draws`).
    draws: int = 0

    @property
    def kind(self) -> str:
        return "undo"

    def payload(self) -> dict[str, Any]:
        return {"hand": self.hand, "undone": self.undone, "points": self.points,
                "draws": self.draws}  # fmt: skip


class AlertEvent(NamedTuple):
    reason: Reason
    message: str
    seat: int | None = None
    tile: str | None = None
    coords: Coords | None = None

    @property
    def code(self) -> AlertCode:
        return self.reason.alert_code

    @property
    def kind(self) -> str:
        return "alert"

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code.value,
            "severity": self.reason.severity.value,
            "message": self.message,
            "resolved": False,
            "seat": self.seat,
            "tile": self.tile,
        }
        if self.coords is not None:
            out.update(self.coords.fields())
        return out


class HandEvent(NamedTuple):
    hand: int
    result: HandResult
    winner: int | None
    team: int | None
    points: int
    pips: tuple[int | None, ...]
    scores: tuple[int, ...]
    team_scores: tuple[int, ...]

    @property
    def kind(self) -> str:
        return "hand"

    def payload(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "result": self.result.value,
            "winner": self.winner,
            "team": self.team,
            "points": self.points,
            "pips": list(self.pips),
            "scores": list(self.scores),
            "team_scores": list(self.team_scores),
        }


class GameEvent(NamedTuple):
    event: str  # "started" or "over"
    winner: int | None
    team: int | None
    scores: tuple[int, ...]
    team_scores: tuple[int, ...]
    names: tuple[str, ...]
    rules: str
    target: int | None
    termination: Termination | None = None

    @property
    def kind(self) -> str:
        return "game"

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "event": self.event,
            "winner": self.winner,
            "team": self.team,
            "scores": list(self.scores),
            "team_scores": list(self.team_scores),
            "names": list(self.names),
            "rules": self.rules,
            "target": self.target,
        }
        if self.termination is not None:
            out["reason"] = self.termination.reason
        return out


Event = (
    PlayEvent | PassEvent | DrawEvent | LeadEvent | UndoEvent | AlertEvent | HandEvent | GameEvent
)


class Judgement(NamedTuple):
    """The answer to one input: accepted (with its events) or refused with a reason.

    A refused input changes nothing; its `events` hold the alert to show.
    """

    reason: Reason
    events: tuple[Event, ...] = ()

    @property
    def ok(self) -> bool:
        return self.reason is Reason.OK

    def __bool__(self) -> bool:
        return self.ok
