"""The `[outputs.*]` sections: lights and a voice that show the game beside the display.

Each output is off unless its section is there (spec/mqtt.md, "Outputs for devices
that are not ours"): `[outputs.awtrix]` an AWTRIX 3 LED matrix (a Ulanzi TC001 clock),
`[outputs.wled]` a WLED strip round the table's edge, `[outputs.voice]` spoken scores
through espeak-ng. The service's `service.outputs` drives them; docs/design/outputs.md says
how to set the devices up.
"""

from __future__ import annotations

import itertools
import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, field_validator

from config.checks import TopicPrefix, between

APP_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_LED = 65535  # WLED numbers its LEDs with 16 bits


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


def _app_name(value: str) -> str:
    if not APP_NAME.fullmatch(value):
        raise ValueError(
            f"{value!r} is not an AWTRIX app name: use 1-32 letters, digits, '_' or '-'"
        )
    return value


class AwtrixSettings(_Section):
    """An AWTRIX 3 clock on the table's broker: its own MQTT prefix and the app's name."""

    prefix: TopicPrefix  # the clock's MQTT prefix (its web page, MQTT settings)
    app: Annotated[str, AfterValidator(_app_name)] = "domino"


Segment = tuple[int, int]


class WledSettings(_Section):
    """A WLED strip: its MQTT device topic and each seat's LEDs, `[start, stop)`."""

    topic: TopicPrefix
    seats: tuple[Segment, ...]

    @field_validator("seats", mode="before")
    @classmethod
    def _pairs(cls, value: object) -> object:
        """An array of `[start, stop]` arrays of whole numbers, as TOML writes them."""
        pairs = value if isinstance(value, list | tuple) else None
        if pairs is None or not all(
            isinstance(p, list | tuple) and len(p) == 2 and all(type(n) is int for n in p)
            for p in pairs
        ):
            raise ValueError(f"expected one [start, stop] of whole numbers per seat, got {value!r}")
        return tuple(tuple(p) for p in pairs)

    @field_validator("seats")
    @classmethod
    def _segments(cls, value: tuple[Segment, ...]) -> tuple[Segment, ...]:
        problems = []
        for seat, (start, stop) in enumerate(value):
            if not 0 <= start < stop <= MAX_LED:
                problems.append(
                    f"seat {seat}'s [{start}, {stop}] is not a run of LEDs: give [start, stop) "
                    f"with 0 <= start < stop <= {MAX_LED}"
                )
        ordered = sorted(enumerate(value), key=lambda s: s[1])
        for (a, (_, a_stop)), (b, (b_start, _)) in itertools.pairwise(ordered):
            if b_start < a_stop:
                problems.append(f"the LEDs of seats {min(a, b)} and {max(a, b)} overlap")
        if problems:
            raise ValueError("; ".join(problems))
        return value


class VoiceSettings(_Section):
    """Spoken scores through espeak-ng on the default audio output (ALSA or PulseAudio)."""

    volume: Annotated[int, between(0, 200, "a volume")] = 100  # espeak-ng's amplitude
    rate: Annotated[int, between(80, 450, "a rate in words a minute")] = 160


class OutputsSettings(_Section):
    """Every output, None when its section is not there (then it is off)."""

    awtrix: AwtrixSettings | None = None
    wled: WledSettings | None = None
    voice: VoiceSettings | None = None

    def problems(self, seats: int, mqtt_enabled: bool) -> list[str]:
        """What the outputs ask of the rest of the settings: a broker, a strip per seat."""
        out = []
        for name in ("awtrix", "wled"):
            if getattr(self, name) is not None and not mqtt_enabled:
                out.append(
                    f"outputs.{name}: the device is reached over MQTT, but mqtt.enabled is "
                    "false: enable [mqtt] or remove the section"
                )
        if self.wled is not None and len(self.wled.seats) != seats:
            out.append(
                f"outputs.wled.seats: {len(self.wled.seats)} runs of LEDs for {seats} seats: "
                "give one [start, stop) per seat"
            )
        return out
