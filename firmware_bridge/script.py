"""What the board emulator plays: steps, and the JSON-lines script format they come from.

One JSON object per line (blank lines and lines starting with `#` are skipped):

    {"place": [a, b, xa, ya, xb, yb]}     a tile comes to rest (reported after debounce)
    {"lift": [a, b, xa, ya, xb, yb]}      it leaves; `{"lift": [a, b]}` lifts it wherever
    {"button": [id, "DOWN"]}              a button on the board's edge: DOWN, UP or HOLD
    {"wait": seconds}                     pause the script (divided by the pace)
    {"error": ["E3", "sensor 3 dead"]}    the board reports a fault (ERR)
    {"fault": "bad_crc", "count": 2}      see `Fault`; `seconds` for replug and silence

`steps_from_lines` parses lazily, so a generator can feed the emulator as well as a file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.tiles import Tile, TileError
from firmware_bridge.codec import Frame, encode
from firmware_bridge.errors import FrameError, ScriptError
from firmware_bridge.messages import MAX_BUTTON, BoardErr, ButtonAction, TileAt


class Fault(StrEnum):
    BAD_CRC = "bad_crc"  # the next `count` frames go out with a wrong CRC
    DROP = "drop"  # the next `count` frames are never sent (their seqs are used up)
    DUPLICATE = "duplicate"  # the next `count` frames are sent twice
    GARBAGE = "garbage"  # `count` x 16 random bytes, now
    DROP_ACK = "drop_ack"  # the next `count` ACKs are not sent (the command still acts)
    BUSY = "busy"  # the next `count` host commands are refused with NAK BUSY
    DEAF = "deaf"  # the next `count` host frames are not heard at all
    RESET = "reset"  # the board restarts: unasked HELLO, seqs from 0, LEDs off
    REPLUG = "replug"  # USB unplugged for `seconds`, back as a new pty (the link re-pointed)
    SILENCE = "silence"  # the board hangs for `seconds`: no output, input lost


@dataclass(frozen=True, slots=True)
class PlaceStep:
    tile: TileAt


@dataclass(frozen=True, slots=True)
class LiftStep:
    tile: Tile
    at: TileAt | None = None  # None: wherever it lies


@dataclass(frozen=True, slots=True)
class ButtonStep:
    button: int
    action: ButtonAction


@dataclass(frozen=True, slots=True)
class WaitStep:
    seconds: float


@dataclass(frozen=True, slots=True)
class ErrorStep:
    code: str
    text: str


@dataclass(frozen=True, slots=True)
class FaultStep:
    fault: Fault
    count: int = 1
    seconds: float = 0.5


Step = PlaceStep | LiftStep | ButtonStep | WaitStep | ErrorStep | FaultStep


def _ints(value: Any, n: tuple[int, ...], what: str) -> list[int]:
    if not isinstance(value, list) or len(value) not in n:
        raise ScriptError(f"{what} takes a list of {' or '.join(map(str, n))} numbers")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value):
        raise ScriptError(f"{what} takes whole numbers from 0 up, not {value}")
    return value


def _tile_at(value: Any, what: str) -> TileAt:
    a, b, xa, ya, xb, yb = _ints(value, (6,), what)
    try:
        Tile(a, b)
    except TileError as exc:
        raise ScriptError(f"{what}: {exc}") from exc
    return TileAt(a, b, xa, ya, xb, yb)


def _place(value: Any) -> Step:
    return PlaceStep(_tile_at(value, "place"))


def _lift(value: Any) -> Step:
    numbers = _ints(value, (2, 6), "lift")
    if len(numbers) == 2:
        try:
            return LiftStep(Tile(*numbers))
        except TileError as exc:
            raise ScriptError(f"lift: {exc}") from exc
    at = _tile_at(value, "lift")
    return LiftStep(at.tile, at)


def _button(value: Any) -> Step:
    if not isinstance(value, list) or len(value) != 2:
        raise ScriptError('button takes [id, "DOWN" | "UP" | "HOLD"]')
    button, action = value
    if not isinstance(button, int) or not 0 <= button <= MAX_BUTTON:
        raise ScriptError(f"button id must be 0..{MAX_BUTTON}, not {button!r}")
    if action not in ButtonAction.__members__:
        raise ScriptError(f"button action must be DOWN, UP or HOLD, not {action!r}")
    return ButtonStep(button, ButtonAction(action))


def _wait(value: Any) -> Step:
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 3600:
        raise ScriptError(f"wait takes seconds from 0 to 3600, not {value!r}")
    return WaitStep(float(value))


def _error(value: Any) -> Step:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
        raise ScriptError('error takes ["CODE", "text"]')
    step = ErrorStep(value[0], value[1])
    try:
        encode(Frame(0, BoardErr(step.code, step.text)))
    except FrameError as exc:
        raise ScriptError(f"error: {exc}") from exc
    return step


def _fault(value: Any, obj: dict[str, Any]) -> Step:
    if value not in {f.value for f in Fault}:
        raise ScriptError(f"fault must be one of {', '.join(Fault)}, not {value!r}")
    count, seconds = obj.get("count", 1), obj.get("seconds", 0.5)
    if not isinstance(count, int) or not 1 <= count <= 1000:
        raise ScriptError(f"fault count must be 1..1000, not {count!r}")
    if not isinstance(seconds, int | float) or not 0 <= seconds <= 600:
        raise ScriptError(f"fault seconds must be 0..600, not {seconds!r}")
    return FaultStep(Fault(value), count, float(seconds))


_KINDS = {"place": _place, "lift": _lift, "button": _button, "wait": _wait, "error": _error}


def parse_step(obj: Any) -> Step:
    """One step from its decoded JSON object."""
    if not isinstance(obj, dict):
        raise ScriptError(f"a step is a JSON object, not {obj!r}")
    keys = set(obj) - {"count", "seconds"}
    if len(keys) != 1:
        raise ScriptError(f"a step names one of {', '.join([*_KINDS, 'fault'])}, got {obj}")
    (kind,) = keys
    if kind == "fault":
        return _fault(obj[kind], obj)
    if kind not in _KINDS or set(obj) != {kind}:
        raise ScriptError(f"unknown step {kind!r}: use one of {', '.join([*_KINDS, 'fault'])}")
    return _KINDS[kind](obj[kind])


def steps_from_lines(lines: Iterable[str], source: str = "script") -> Iterator[Step]:
    """Steps from JSON lines, lazily; errors name the source and line."""
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            yield parse_step(json.loads(text))
        except (json.JSONDecodeError, ScriptError) as exc:
            raise ScriptError(f"{source} line {number}: {exc}") from exc


def load_script(path: Path) -> list[Step]:
    """Every step of a script file, checked before anything is played."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(f"cannot read the script {path}: {exc}") from exc
    return list(steps_from_lines(text.splitlines(), str(path)))
