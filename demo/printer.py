"""The demo's terminal view: one line per event the table publishes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from mqttweb.client import new_client

__all__ = ["EventPrinter", "describe"]


class EventPrinter:
    """Prints the table's events as they are published (`echo`: the printer's printer)."""

    def __init__(self, host: str, port: int, table: str, echo: Callable[[str], None]) -> None:
        self.prefix = f"domino/{table}"
        self.echo = echo
        self.client = new_client()
        self.client.on_connect = lambda c, *a: c.subscribe(f"{self.prefix}/event/#", qos=1)
        self.client.on_message = self._on_message
        self.client.connect_async(host, port)
        self.client.loop_start()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        event = json.loads(msg.payload)
        kind = msg.topic.rsplit("/", 1)[-1]
        self.echo(describe(kind, event))

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def describe(kind: str, e: dict[str, Any]) -> str:
    """One event (`event/<kind>`'s payload) in a line."""
    seat = e.get("seat")
    who = f"seat {seat}" if seat is not None else "?"
    if kind == "play":
        points = f"  +{e['points']} (score {e['score']})" if e["points"] else ""
        return f"hand {e['hand']}: {who} plays {e['tile']}, ends {e['ends_total']}{points}"
    if kind == "hand":
        winner = e["winner"] if e["winner"] is not None else "nobody"
        return f"hand {e['hand']} {e['result']}: {winner} +{e['points']}; scores {e['scores']}"
    if kind == "game":
        return f"game {e['event']}: scores {e['scores']}"
    if kind == "alert":
        state = "resolved" if e["resolved"] else e["severity"]
        return f"alert {e['code']} ({state}): {e['message']}"
    return f"{kind}: {who}"
