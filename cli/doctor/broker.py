"""doctor's broker check: the port answers, and a real MQTT CONNECT with the table's
own client (`service.mqtt.client.table_client`: its user, password and TLS)."""

from __future__ import annotations

import socket
import ssl
import threading
from typing import Any

from cli.doctor.findings import Finding, ok, problem, skipped
from config.settings import Settings
from service.mqtt.client import MqttLinkError, table_client

# --- broker -----------------------------------------------------------------------------


def check_broker(settings: Settings, timeout: float) -> list[Finding]:
    mqtt = settings.mqtt
    if not mqtt.enabled:
        return [skipped("broker", "MQTT is off ([mqtt] enabled = false)")]
    where = f"{mqtt.host}:{mqtt.port}"
    try:
        socket.create_connection((mqtt.host, mqtt.port), timeout=timeout).close()
    except OSError as exc:
        return [
            problem(
                "broker",
                f"cannot reach {where} ({exc.strerror or exc})",
                "start the broker (sudo systemctl start mosquitto) or fix mqtt.host / "
                "mqtt.port in the settings",
            )
        ]
    return [ok("broker", f"{where} answers on TCP"), _mqtt_connect(settings, timeout)]


def table_mqtt_client(settings: Settings) -> Any:
    """The table's own client (`MqttLinkError` for unusable TLS files), under its own
    client id: the broker would throw a running service off for the same id."""
    return table_client(settings.mqtt, f"{settings.mqtt.client_id}-doctor")


def _mqtt_connect(settings: Settings, timeout: float) -> Finding:
    s = settings.mqtt
    who = f"as {s.username}" if s.username else "anonymously"
    how = f"{'TLS' if s.tls.enabled else 'plain MQTT'} {who}"
    answered = threading.Event()
    reasons: list[Any] = []

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        reasons.append(reason)
        answered.set()

    try:
        client = table_mqtt_client(settings)
    except MqttLinkError as exc:
        return problem("broker", str(exc), "check the files in [mqtt.tls]")
    client.on_connect = on_connect
    client.connect_timeout = timeout
    try:
        client.connect(s.host, s.port, keepalive=max(5, int(timeout) + 5))
    except ssl.SSLError as exc:
        return problem(
            "broker",
            f"TLS with {s.host}:{s.port} failed ({exc.reason or exc})",
            "mqtt.tls.ca_file must be the CA that signed the broker's certificate, and "
            "mqtt.host a name the certificate holds; is this port the TLS listener?",
        )
    except OSError as exc:
        return problem(
            "broker", f"MQTT connect failed ({exc})", "check mqtt.host, mqtt.port, [mqtt.tls]"
        )
    client.loop_start()
    try:
        if not answered.wait(timeout):
            return problem(
                "broker",
                f"no answer to MQTT CONNECT ({how}) within {timeout:g} s",
                "is that port an MQTT listener? with TLS, set [mqtt.tls] enabled = true",
            )
        reason = reasons[0]
        if reason.is_failure:
            return problem(
                "broker",
                f"the broker refused the connection {who}: {reason}",
                "check mqtt.username and the password in mqtt.password_file / "
                "mqtt.password_env against the broker's password file (mosquitto_passwd)",
            )
        client.disconnect()
        return ok("broker", f"MQTT CONNECT accepted ({how})")
    finally:
        client.loop_stop()
