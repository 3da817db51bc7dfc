"""Everything the desk takes from the table's packages, in one place.

The payloads' encoding and timestamps (`service.payloads`), the MQTT client, TLS flags
and Server-Sent Events shared with the display (`display.*`), and reading a secret from
a file. Only this module imports `service` or `display`: when they move, only these
lines change.
"""

from __future__ import annotations

from display.cli import password_from_file
from display.mqtt_client import (
    MqttTls,
    connect_failure,
    handoff,
    new_client,
    port_problem,
    tls_from_flags,
    tls_options,
)
from display.sse import stream
from service.payloads import encode, utc_ts

__all__ = [
    "MqttTls",
    "connect_failure",
    "encode",
    "handoff",
    "new_client",
    "password_from_file",
    "port_problem",
    "stream",
    "tls_from_flags",
    "tls_options",
    "utc_ts",
]
