"""Outputs for devices that are not ours: lights and a voice beside the display.

Each is a subscriber of the table core's bus (`service.outputs.base.Output`), off unless
its settings section is there (`config.outputs`, spec/mqtt.md "Outputs for devices that
are not ours"):

- `awtrix.AwtrixOutput`: an AWTRIX 3 LED matrix (a Ulanzi TC001 clock): the scores in
  coloured fragments, the turn seat in its own colour, red and green notifications;
- `wled.WledOutput`: a WLED strip round the table, the turn seat's segment lit, all red
  under an illegal alert, the winner green at game over;
- `voice.VoiceOutput`: spoken scores through espeak-ng, on a thread of its own.

`scoreboard` reads what they show from the `state` payload; `words` holds their English
and Spanish. A device that is away never slows the game: the clock and the strip are
sent QoS 0 messages through the table's MQTT link without waiting, and speech waits on
the voice's thread, where a phrase that waits too long is dropped.
"""

from __future__ import annotations

from config.outputs import OutputsSettings
from service.outputs.awtrix import AwtrixOutput
from service.outputs.base import DeviceLink, Output
from service.outputs.voice import Espeak, Speaker, VoiceOutput
from service.outputs.wled import WledOutput

__all__ = ["DeviceLink", "Output", "outputs_for"]


def outputs_for(settings: OutputsSettings, link: DeviceLink | None) -> list[Output]:
    """The outputs the settings name; the clock and the strip need `link` (the table's
    MQTT link: the settings refuse them without `[mqtt]`)."""
    outputs: list[Output] = []
    if settings.awtrix is not None and link is not None:
        outputs.append(AwtrixOutput(settings.awtrix, link))
    if settings.wled is not None and link is not None:
        outputs.append(WledOutput(settings.wled, link))
    if settings.voice is not None:
        outputs.append(VoiceOutput(Speaker(Espeak(settings.voice))))
    return outputs
